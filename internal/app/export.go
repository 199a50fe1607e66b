package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"hostplan/internal/brief"
	"hostplan/internal/decide"
	"hostplan/internal/export"
	"hostplan/internal/model"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// WorkbookSource is what a workbook is written from besides the report:
// the scenario, its recorded checklist state, its lineage and a sentence
// saying where it came from. StoredWorkbook reads it from the store;
// FileWorkbook makes it for a scenario read from a file.
type WorkbookSource struct {
	Scenario  *scenario.Scenario
	Checklist brief.ChecklistState // nil: the default state, every item open
	// Lineage lists the stored revisions, oldest first; nil for a file,
	// whose one row WriteWorkbook makes once the report says which model
	// and catalog it used.
	Lineage []scenario.Revision
	Source  string // shown at the top of the Lineage sheet
	// Name names the scenario in the errors of deciding and of the brief:
	// the stored id, or the file's path.
	Name string
	file string // the file the scenario was read from; "" when stored
}

// StoredWorkbook reads from the open store what the workbook of scenario
// id needs: its current revision, its checklist state and its history.
// A scenario that does not exist or is deleted is an error matching
// store.ErrNotFound.
func (p *Planner) StoredWorkbook(id string) (*WorkbookSource, error) {
	s, rev, err := p.Load(id)
	if err != nil {
		return nil, err
	}
	src := &WorkbookSource{Scenario: s, Name: id}
	if src.Checklist, err = p.Checklist(id); err != nil {
		return nil, err
	}
	hist, err := p.History(id)
	if err != nil {
		return nil, err
	}
	src.Lineage = hist
	path, err := p.Path()
	if err != nil {
		return nil, err
	}
	// The workbook names the store file, not its directory: the path may
	// hold the user's name.
	src.Source = fmt.Sprintf("revision %d (the current one) of scenario %s in the store %s", rev.Number, s.ID, filepath.Base(path))
	return src, nil
}

// FileWorkbook is the source of the workbook of s, read from file: the
// default checklist state and no revisions.
func FileWorkbook(s *scenario.Scenario, file string) *WorkbookSource {
	return &WorkbookSource{Scenario: s, Name: file, Source: "the file " + file + ", not the store", file: file}
}

// WriteWorkbook analyses the source's scenario with draws Monte Carlo
// draws on the catalog in use, adds what the workbook shows beside the
// report (Extras) and writes the workbook to path through atomicfile. The
// analysis's errors come back as they are (scenario.Errors for a scenario
// the catalog cannot evaluate); those of deciding and of the brief are
// prefixed with src.Name, those of writing with path.
func (p *Planner) WriteWorkbook(ctx context.Context, src *WorkbookSource, path string, draws int, author string) error {
	if src == nil || src.Scenario == nil {
		return errors.New("no scenario to export")
	}
	r, err := p.Analyze(ctx, src.Scenario, draws)
	if err != nil {
		return err
	}
	x, err := p.WorkbookExtras(ctx, src, r)
	if err != nil {
		return err
	}
	x.Author = author
	if err := export.WriteWorkbookWith(path, src.Scenario, r, x); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// WorkbookExtras is everything a workbook of src, analysed as r, needs
// beside the report — the brief's pieces (Extras), the engine's reports at
// each case's end (CaseReports) and the managed service priced the other
// way (per token or dedicated, export.OtherPricing), so that the workbook
// takes the cheaper pricing as its drivers change — for the command line
// and the window alike.
func (p *Planner) WorkbookExtras(ctx context.Context, src *WorkbookSource, r *model.Report) (*export.Extras, error) {
	x, err := Extras(src, r)
	if err != nil {
		return nil, err
	}
	x.Cases = p.CaseReports(ctx, src.Scenario)
	if other := export.OtherPricing(src.Scenario, r); other != nil {
		if x.Pricing, err = p.Evaluate(ctx, other); err != nil {
			return nil, err
		}
	}
	return x, nil
}

// CaseReports are the engine's reports of s with every estimate at its
// low and at its high end (export.CaseScenario), with which the
// workbook's case selector moves the plan figures too; nil when s has no
// estimate, or when a case cannot be evaluated (the plan figures then
// stay at likely in every case).
func (p *Planner) CaseReports(ctx context.Context, s *scenario.Scenario) *export.Cases {
	if len(scenario.EstimateRefs(s)) == 0 {
		return nil
	}
	var c export.Cases
	for _, end := range []string{"low", "high"} {
		r, err := p.Evaluate(ctx, export.CaseScenario(s, end))
		if err != nil {
			return nil
		}
		if end == "low" {
			c.Low = r
		} else {
			c.High = r
		}
	}
	return &c
}

// Extras is what the workbook of src shows beside its report r: the
// decision, the brief (or, when the scenario fills too few of its fields,
// the list of those missing), the checklist and the lineage (for a file,
// one row made from the report's model and catalog versions). Errors of
// deciding and of the brief are prefixed with src.Name.
func Extras(src *WorkbookSource, r *model.Report) (*export.Extras, error) {
	s := src.Scenario
	x := &export.Extras{Lineage: src.Lineage, Source: src.Source}
	if x.Lineage == nil {
		// A file has no revisions: one row that says where it came from,
		// with the hash a stored revision of the same content would have.
		body, err := scenario.Marshal(s)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		x.Lineage = []scenario.Revision{{Scenario: s.ID, Time: time.Now().UTC(), InputHash: hex.EncodeToString(sum[:]),
			RevisionMeta: scenario.RevisionMeta{Author: DefaultAuthor(),
				Note:         "exported from the file " + src.file + ", not from the store: no revisions are recorded",
				ModelVersion: r.ModelVersion, CatalogAsOf: r.CatalogAsOf}}}
	}
	var err error
	if x.Decision, err = decide.Decide(s, r); err != nil {
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	x.Brief, err = brief.Build(s, r, x.Decision, src.Checklist)
	var few *brief.TooFewFieldsError
	switch {
	case errors.As(err, &few):
		// The workbook is still written; its Brief sheet lists what to fill.
		x.Brief, x.BriefMissing = nil, []string{}
		for _, f := range few.Missing {
			x.BriefMissing = append(x.BriefMissing, f.Label+" ("+f.Path+")")
		}
	case err != nil:
		return nil, fmt.Errorf("%s: %w", src.Name, err)
	}
	x.Checklist = brief.Checklist(s.Workload.Shape, src.Checklist)
	return x, nil
}

// ExportWorkbook writes the workbook of the current revision of stored
// scenario id to path, with model.DefaultDraws Monte Carlo draws, naming
// author as its author ("": none): what "hostplan export ID -o PATH
// --author NAME" writes. The store must be open.
func (p *Planner) ExportWorkbook(ctx context.Context, id, path, author string) error {
	src, err := p.StoredWorkbook(id)
	if err != nil {
		return err
	}
	return p.WriteWorkbook(ctx, src, path, model.DefaultDraws, author)
}

// WriteComparison analyses the scenario of each source with draws Monte
// Carlo draws on the catalog in use, decides it, and writes the
// comparison workbook of them — the Compare sheet, a column each in the
// order given — to path through atomicfile: what "hostplan export A B C
// -o PATH" writes for several scenarios. Every scenario is analysed
// before anything is written, so a failure leaves no file. It takes 1 to
// export.MaxCompared sources; errors of the analysis and of deciding are
// prefixed with the source's Name, those of writing with path. author is
// the name the workbook gives as its author ("": none).
func (p *Planner) WriteComparison(ctx context.Context, srcs []*WorkbookSource, path string, draws int, author string) error {
	if len(srcs) == 0 || len(srcs) > export.MaxCompared {
		return fmt.Errorf("a comparison takes 1 to %s scenarios, not %s", num.Whole(export.MaxCompared), num.Whole(float64(len(srcs))))
	}
	entries := make([]export.Entry, 0, len(srcs))
	for _, src := range srcs {
		if src == nil || src.Scenario == nil {
			return errors.New("no scenario to export")
		}
		r, err := p.Analyze(ctx, src.Scenario, draws)
		if err != nil {
			return fmt.Errorf("%s: %w", src.Name, err)
		}
		d, err := decide.Decide(src.Scenario, r)
		if err != nil {
			return fmt.Errorf("%s: %w", src.Name, err)
		}
		entries = append(entries, export.Entry{Scenario: src.Scenario, Report: r, Decision: d, Source: src.Source})
	}
	if err := export.WriteComparison(path, entries, author); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}

// ExportComparison writes the comparison workbook of the current
// revisions of stored scenarios ids, in that order, to path with
// model.DefaultDraws Monte Carlo draws, naming author as its author:
// what "hostplan export ID1 ID2 -o PATH --author NAME" writes. The store
// must be open; an unknown id is an error matching store.ErrNotFound, and
// nothing is written.
func (p *Planner) ExportComparison(ctx context.Context, ids []string, path, author string) error {
	if len(ids) == 0 || len(ids) > export.MaxCompared {
		return fmt.Errorf("a comparison takes 1 to %s scenarios, not %s", num.Whole(export.MaxCompared), num.Whole(float64(len(ids))))
	}
	srcs := make([]*WorkbookSource, len(ids))
	for i, id := range ids {
		src, err := p.StoredWorkbook(id)
		if err != nil {
			return err
		}
		srcs[i] = src
	}
	return p.WriteComparison(ctx, srcs, path, model.DefaultDraws, author)
}
