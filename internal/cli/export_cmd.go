package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"hostplan/internal/app"
	"hostplan/internal/brief"
	"hostplan/internal/chart"
	"hostplan/internal/decide"
	"hostplan/internal/export"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// exportScenario reads the scenario of arg (a file, or a stored id with
// its checklist state, history and the catalog overrides), analyses it
// with draws Monte Carlo draws and returns it with everything the
// workbook shows beside the report: the decision, the brief (or the
// fields it lacks), the checklist and the lineage.
func (e *env) exportScenario(arg string, draws int) (*scenario.Scenario, *model.Report, *export.Extras, error) {
	x := &export.Extras{}
	var s *scenario.Scenario
	var state brief.ChecklistState // nil: the default state, every item open
	var err error
	if isFile(arg) {
		if s, err = loadScenario(arg); err != nil {
			return nil, nil, nil, err
		}
		x.Source = "the file " + arg + ", not the store"
	} else {
		// A stored id: read the scenario, its checklist state, its history
		// and the catalog overrides in one opening of the store, and close
		// it before the Monte Carlo run.
		err := func() error {
			if err := e.plan.Open(); err != nil {
				return err
			}
			defer e.plan.Close()
			sc, rev, err := e.plan.Load(arg)
			if err != nil {
				return usagef("%s: no such file, and no scenario with that id in %s", arg, e.storePath())
			}
			s = sc
			if state, err = e.plan.Checklist(arg); err != nil {
				return err
			}
			hist, err := e.plan.History(arg)
			if err != nil {
				return err
			}
			for _, h := range hist {
				x.Lineage = append(x.Lineage, export.LineageRow{Rev: h.Number, Time: h.Time, Author: h.Author, Note: h.Note,
					ModelVersion: h.ModelVersion, CatalogAsOf: h.CatalogAsOf, InputHash: h.InputHash})
			}
			// The workbook names the store file, not its directory: the
			// path may hold the user's name.
			x.Source = fmt.Sprintf("revision %d (the current one) of scenario %s in the store %s", rev.Number, s.ID, filepath.Base(e.storePath()))
			_, err = e.plan.Catalog() // kept by the planner for analyze below
			return err
		}()
		if err != nil {
			return nil, nil, nil, err
		}
	}
	r, err := e.analyze(s, arg, draws)
	if err != nil {
		return nil, nil, nil, err
	}
	if x.Lineage == nil {
		// A file has no revisions: one row that says where it came from,
		// with the hash a stored revision of the same content would have.
		body, err := scenario.Marshal(s)
		if err != nil {
			return nil, nil, nil, err
		}
		sum := sha256.Sum256(body)
		x.Lineage = []export.LineageRow{{Time: time.Now().UTC(), Author: app.DefaultAuthor(),
			Note:         "exported from the file " + arg + ", not from the store: no revisions are recorded",
			ModelVersion: r.ModelVersion, CatalogAsOf: r.CatalogAsOf, InputHash: hex.EncodeToString(sum[:])}}
	}
	if x.Decision, err = decide.Decide(s, r); err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", arg, err)
	}
	x.Brief, err = brief.Build(s, r, x.Decision, state)
	var few *brief.TooFewFieldsError
	switch {
	case errors.As(err, &few):
		// The workbook is still written; its Brief sheet lists what to fill.
		x.Brief, x.BriefMissing = nil, []string{}
		for _, f := range few.Missing {
			x.BriefMissing = append(x.BriefMissing, f.Label+" ("+f.Path+")")
		}
	case err != nil:
		return nil, nil, nil, fmt.Errorf("%s: %w", arg, err)
	}
	x.Checklist = brief.Checklist(s.Workload.Shape, state)
	return s, r, x, nil
}

// chartDir makes the directory charts are written into, when it is not
// there yet.
func chartDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("--charts %s: %w", dir, unwrapPath(err))
		}
		return nil
	case err != nil:
		return fmt.Errorf("--charts %s: %w", dir, unwrapPath(err))
	case !fi.IsDir():
		return usagef("export: --charts %s is a file, not a directory", dir)
	}
	return nil
}

// writeCharts writes every chart of every entry into dir at slide size,
// as <scenario id>-<chart>.png and .svg (the id with -2, -3, … when the
// same scenario comes twice), and returns how many charts it wrote.
func writeCharts(dir string, entries []export.Entry) (int, error) {
	n := 0
	seen := map[string]int{}
	for _, en := range entries {
		cs, err := chart.Charts(en.Report)
		if err != nil {
			return n, fmt.Errorf("%s: %w", en.Scenario.ID, err)
		}
		stem := en.Scenario.ID
		if seen[stem]++; seen[stem] > 1 {
			stem = fmt.Sprintf("%s-%d", stem, seen[stem])
		}
		if _, err := chart.WriteFiles(dir, stem, cs, chart.Slide); err != nil {
			return n, fmt.Errorf("--charts: %w", unwrapPath(err))
		}
		n += len(cs)
	}
	return n, nil
}
