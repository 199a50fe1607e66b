package ui

import (
	"context"
	"fmt"
	"strings"

	"hostplan/internal/app"
	"hostplan/internal/brief"
	"hostplan/internal/catalog"
	"hostplan/internal/estimate"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

// NewBackend is the window's Backend over p, whose store must be open:
// the stored scenarios and their checklists, saves with the lineage of the
// author set in Preferences (or the user running the window), and
// evaluation without and with the Monte Carlo spread and tornado
// (model.DefaultDraws draws, some tens of milliseconds; the window calls
// both off the UI goroutine).
func NewBackend(p *app.Planner) Backend { return appBackend{p} }

// appBackend adapts app.Planner to Backend.
type appBackend struct{ p *app.Planner }

var _ Backend = appBackend{}

func (b appBackend) List() ([]Item, error) {
	sums, err := b.p.List()
	if err != nil {
		return nil, err
	}
	items := make([]Item, len(sums))
	for i, s := range sums {
		items[i] = Item{ID: s.ID, Name: s.Name, Shape: s.Shape, Revisions: s.Revisions, Updated: s.Updated, InputHash: s.InputHash}
	}
	return items, nil
}

func (b appBackend) Load(id string) (*scenario.Scenario, error) {
	s, _, err := b.p.Load(id)
	return s, err
}

// Evaluate runs app.Planner.Evaluate; a panic in it comes back as an
// error, so that the window shows it and stays open.
func (b appBackend) Evaluate(ctx context.Context, s *scenario.Scenario) (r *model.Report, err error) {
	defer recovered(&err)
	return b.p.Evaluate(ctx, s)
}

// Analyze runs app.Planner.Analyze with model.DefaultDraws draws; a panic
// comes back as an error.
func (b appBackend) Analyze(ctx context.Context, s *scenario.Scenario) (r *model.Report, err error) {
	defer recovered(&err)
	return b.p.Analyze(ctx, s, model.DefaultDraws)
}

// Save runs app.Planner.Save, which checks s as hostplan validate does; a
// panic comes back as an error.
func (b appBackend) Save(s *scenario.Scenario, note string) (n int, err error) {
	defer recovered(&err)
	rev, err := b.p.Save(s, app.Lineage{Author: b.author(), Note: note})
	if err != nil {
		return 0, err
	}
	return rev.Number, nil
}

// recovered turns a panic of the function it is deferred in into *err.
func recovered(err *error) {
	if v := recover(); v != nil {
		*err = fmt.Errorf("internal error: %v", v)
	}
}

func (b appBackend) Delete(id string) error   { return b.p.Delete(id) }
func (b appBackend) Undelete(id string) error { return b.p.Undelete(id) }

func (b appBackend) History(id string) ([]scenario.Revision, error) {
	return b.p.History(id)
}

func (b appBackend) LoadRevision(id string, n int) (*scenario.Scenario, error) {
	s, _, err := b.p.LoadRevision(id, n)
	return s, err
}

func (b appBackend) Restore(id string, n int, note string) (int, error) {
	rev, err := b.p.Restore(id, n, app.Lineage{Author: b.author(), Note: note})
	if err != nil {
		return 0, err
	}
	return rev.Number, nil
}

// Recommendations reads the outcomes of items with app.Planner.Outcomes:
// one read-only open of the store for all of them, the missing ones found
// on every core and kept. A panic comes back as an error.
func (b appBackend) Recommendations(ctx context.Context, items []Item) (recs []Recommendation, err error) {
	defer recovered(&err)
	sums := make([]store.Summary, len(items))
	for i, it := range items {
		sums[i] = store.Summary{ID: it.ID, Name: it.Name, Shape: it.Shape, Revisions: it.Revisions, Updated: it.Updated, InputHash: it.InputHash}
	}
	outs, err := b.p.Outcomes(ctx, sums, nil)
	if err != nil {
		return nil, err
	}
	recs = make([]Recommendation, len(items))
	for i, o := range outs {
		switch {
		case o == nil: // the store's file is not there to read
			recs[i].Problem = "the store holds no outcome of it and could not be read"
		case o.Problem != "":
			recs[i].Problem = o.Problem
		default:
			recs[i].Direction = o.Recommendation
		}
	}
	return recs, nil
}

func (b appBackend) Checklist(id string) (brief.ChecklistState, error) {
	return b.p.Checklist(id)
}

func (b appBackend) SaveChecklist(id string, st brief.ChecklistState) error {
	return b.p.SaveChecklist(id, st)
}

// ExportWorkbook writes the workbook of the current revision of scenario
// id to path, as "hostplan export ID -o PATH --author NAME" does with the
// name set in Preferences (none when unset, as the command line's
// default).
func (b appBackend) ExportWorkbook(ctx context.Context, id, path string) error {
	return b.p.ExportWorkbook(ctx, id, path, authorSetting(b))
}

func (b appBackend) ExportComparison(ctx context.Context, ids []string, path string) error {
	return b.p.ExportComparison(ctx, ids, path, authorSetting(b))
}

func (b appBackend) Catalog() (*catalog.Catalog, error)    { return b.p.Catalog() }
func (b appBackend) Overrides() (catalog.Overrides, error) { return b.p.Overrides() }

func (b appBackend) ImportPrices(rows catalog.Overrides) (*catalog.Catalog, int, error) {
	im, err := b.p.ImportOverrides(rows)
	return im.Before, im.Changed, err
}

func (b appBackend) Reprice(ctx context.Context, baseline *catalog.Catalog, threshold float64) (*app.Repricing, error) {
	return b.p.Reprice(ctx, baseline, threshold)
}

func (b appBackend) EstimateTrain(in estimate.TrainInput) (estimate.TrainResult, error) {
	cat, err := b.p.Catalog()
	if err != nil {
		return estimate.TrainResult{}, err
	}
	return estimate.Train(cat, in)
}

func (b appBackend) EstimateServe(in estimate.ServeInput) (estimate.ServeResult, error) {
	cat, err := b.p.Catalog()
	if err != nil {
		return estimate.ServeResult{}, err
	}
	return estimate.Serve(cat, in)
}

func (b appBackend) Setting(key string) (string, bool, error) { return b.p.Setting(key) }

func (b appBackend) SetSetting(key, value string) error { return b.p.SetSetting(key, value) }

func (b appBackend) StorePath() (string, error) { return b.p.Path() }

// author is who the window's revisions are saved by: the name set in
// Preferences, else the login name (as "hostplan save" without
// --author).
func (b appBackend) author() string {
	if a := strings.TrimSpace(authorSetting(b)); a != "" {
		return a
	}
	return app.DefaultAuthor()
}
