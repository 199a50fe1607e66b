package ui

import (
	"context"
	"fmt"
	"time"

	"hostplan/internal/app"
	"hostplan/internal/brief"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Backend is what the window needs from the rest of hostplan. NewBackend
// gives the real one, over the application layer; tests that need a
// failure or a hand-built report use a fake.
type Backend interface {
	List() ([]Item, error) // scenarios in the store
	Load(id string) (*scenario.Scenario, error)
	// Evaluate runs the model on s: the report without the Monte Carlo
	// spread, in a millisecond or so; it stops early with ctx's error
	// when ctx ends (the window cancels an evaluation a later choice
	// replaced).
	Evaluate(ctx context.Context, s *scenario.Scenario) (*model.Report, error)
	// Analyze is Evaluate with the Monte Carlo spread and the tornado
	// (tens of milliseconds): the same figures, and their uncertainty.
	Analyze(ctx context.Context, s *scenario.Scenario) (*model.Report, error)
	// Save stores s as a new revision with note and returns its number.
	// An invalid s is refused with its problems (scenario.Errors) and
	// nothing is written; saving what the current revision already holds
	// returns that revision's number.
	Save(s *scenario.Scenario, note string) (revision int, err error)
}

// Item is one stored scenario as the list shows it.
type Item struct {
	ID, Name, Shape string
	Revisions       int       // the current revision's number
	Updated         time.Time // when the current revision was saved; zero when unknown
}

// ChecklistReader is what a Backend that keeps each scenario's readiness
// checklist adds; the Brief tab then shows the recorded state, as
// "hostplan brief ID" does. Without it every item shows as open.
type ChecklistReader interface {
	Checklist(id string) (brief.ChecklistState, error)
}

// ChecklistWriter is what a Backend that can store a scenario's readiness
// checklist adds; the Checklist tab can then be edited and saved. Without
// it the tab is read-only.
type ChecklistWriter interface {
	SaveChecklist(id string, st brief.ChecklistState) error
}

// NewBackend is the window's Backend over p, whose store must be open:
// the stored scenarios and their checklists, saves with the lineage of the
// user running the window, and evaluation without and with the Monte
// Carlo spread and tornado (model.DefaultDraws draws, some tens of
// milliseconds; the window calls both off the UI goroutine).
func NewBackend(p *app.Planner) Backend { return appBackend{p} }

// appBackend adapts app.Planner to Backend.
type appBackend struct{ p *app.Planner }

var (
	_ ChecklistReader = appBackend{}
	_ ChecklistWriter = appBackend{}
	_ Preferences     = appBackend{}
)

func (b appBackend) List() ([]Item, error) {
	sums, err := b.p.List()
	if err != nil {
		return nil, err
	}
	items := make([]Item, len(sums))
	for i, s := range sums {
		items[i] = Item{ID: s.ID, Name: s.Name, Shape: s.Shape, Revisions: s.Revisions, Updated: s.Updated}
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

func (b appBackend) Checklist(id string) (brief.ChecklistState, error) {
	return b.p.Checklist(id)
}

func (b appBackend) SaveChecklist(id string, st brief.ChecklistState) error {
	return b.p.SaveChecklist(id, st)
}

func (b appBackend) Setting(key string) (string, bool, error) { return b.p.Setting(key) }

func (b appBackend) SetSetting(key, value string) error { return b.p.SetSetting(key, value) }
