package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"hostplan/internal/app"
	"hostplan/internal/chart"
	"hostplan/internal/export"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

// exportScenario reads the scenario of arg (a file, or a stored id with
// its checklist state, history and the catalog overrides), analyses it
// with draws Monte Carlo draws and returns it with everything the
// workbook shows beside the report (app.Extras): the decision, the brief
// (or the fields it lacks), the checklist and the lineage.
func (e *env) exportScenario(arg string, draws int) (*scenario.Scenario, *model.Report, *export.Extras, error) {
	var src *app.WorkbookSource
	if isFile(arg) {
		s, err := loadScenario(arg)
		if err != nil {
			return nil, nil, nil, err
		}
		src = app.FileWorkbook(s, arg)
	} else {
		// A stored id: read the scenario, its checklist state, its history
		// and the catalog overrides in one opening of the store, and close
		// it before the Monte Carlo run.
		err := func() error {
			defer e.plan.Close()
			var err error
			if src, err = e.plan.StoredWorkbook(arg); err != nil {
				if errors.Is(err, store.ErrNotFound) {
					return usagef("%s: no such file, and no scenario with that id in %s", arg, e.storePath())
				}
				return err
			}
			_, err = e.plan.Catalog() // kept by the planner for the analysis
			return err
		}()
		if err != nil {
			return nil, nil, nil, err
		}
	}
	r, err := e.analyze(src.Scenario, arg, draws)
	if err != nil {
		return nil, nil, nil, err
	}
	x, err := e.plan.WorkbookExtras(e.ctx, src, r)
	if err != nil {
		return nil, nil, nil, err
	}
	return src.Scenario, r, x, nil
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

// chartSet is the charts of one scenario and the stem of their files.
type chartSet struct {
	stem   string
	charts []*chart.Chart
}

// planCharts makes every chart of every entry, named <scenario id>-<chart>
// (the id with -2, -3, … when the same scenario comes twice), and checks
// each file it will write in dir against the overwrite rule (o).
func planCharts(dir string, entries []export.Entry, o *outputs) ([]chartSet, error) {
	var sets []chartSet
	seen := map[string]int{}
	for _, en := range entries {
		cs, err := chart.Charts(en.Report)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", en.Scenario.ID, err)
		}
		stem := en.Scenario.ID
		if seen[stem]++; seen[stem] > 1 {
			stem = fmt.Sprintf("%s-%d", stem, seen[stem])
		}
		for _, p := range chart.Paths(dir, stem, cs) {
			if _, err := o.check(p, nil); err != nil {
				return nil, err
			}
		}
		sets = append(sets, chartSet{stem, cs})
	}
	return sets, nil
}

// writeCharts writes the planned charts into dir at slide size, each as
// PNG and SVG, and returns how many charts it wrote.
func writeCharts(dir string, sets []chartSet) (int, error) {
	n := 0
	for _, s := range sets {
		if _, err := chart.WriteFiles(dir, s.stem, s.charts, chart.Slide); err != nil {
			return n, fmt.Errorf("--charts: %w", unwrapPath(err))
		}
		n += len(s.charts)
	}
	return n, nil
}
