package ui

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"hostplan/internal/ui/report"

	"hostplan/internal/chart"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Exports of what the window shows: the comparison workbook of the
// scenarios side by side (as "hostplan export A B C -o PATH"), and the
// charts of the report on show, or of the compared scenarios, as PNG and
// SVG at slide size (as "hostplan export … --charts DIR").

// exportComparison asks where to write the comparison workbook of the
// ticked scenarios and writes it, a column each in the order ticked.
func (p *planner) exportComparison() {
	x := p.backend
	ticked := append([]Item(nil), p.compare.ticked...)
	if len(ticked) < 2 {
		p.scenarios.notify("Tick two or three scenarios to export them side by side.")
		return
	}
	ids, names := make([]string, len(ticked)), make([]string, len(ticked))
	for i, it := range ticked {
		ids[i], names[i] = it.ID, "“"+itemName(it)+"”"
	}
	p.askSavePath(saveTarget{
		title:  "Export comparison",
		done:   "Comparison written",
		what:   "the comparison of " + present.And(names...),
		action: "Export",
		name:   "compare.xlsx",
		ext:    ".xlsx",
		write: func(path string) error {
			return x.ExportComparison(context.Background(), ids, path)
		},
	})
}

// exportShown exports the workbook of what is on show: the comparison
// while two or more scenarios are compared, else the chosen scenario's.
func (p *planner) exportShown() {
	if p.scenarios.comparing && len(p.compare.ticked) >= 2 {
		p.exportComparison()
		return
	}
	p.onTarget(p.exportWorkbook)
}

// chartSet is the charts of one report, with the file names' stem.
type chartSet struct {
	stem   string
	charts []*chart.Chart
}

// saveCharts asks for a folder and writes into it every chart of the
// report on show — or, while comparing, of each compared scenario
// evaluated — as <scenario id>-<chart>.png and .svg.
func (p *planner) saveCharts() {
	var evs []*evaluation
	what := ""
	if p.scenarios.comparing {
		evs = p.reviewed() // the compared ones evaluated, in the order ticked
		what = "the compared scenarios"
	} else if ev := p.view.current; ev != nil {
		evs = []*evaluation{ev}
		what = "“" + report.ReportTitle(ev.s, ev.r) + "”"
	}
	if len(evs) == 0 {
		p.scenarios.notify("Choose a scenario in the list first, or tick the ones to compare.")
		return
	}
	p.withSpread(evs, func(evs []*evaluation) { p.saveChartsOf(evs, what) })
}

// withSpread calls then with evs, each with its Monte Carlo spread (the
// tornado chart needs it): one whose spread has not landed yet is
// analysed first, off the UI goroutine.
func (p *planner) withSpread(evs []*evaluation, then func([]*evaluation)) {
	var todo []int
	for i, ev := range evs {
		if !ev.spread {
			todo = append(todo, i)
		}
	}
	if len(todo) == 0 {
		then(evs)
		return
	}
	out := slices.Clone(evs)
	b := p.backend
	inBackground(func() func() {
		for _, i := range todo {
			ev := *out[i]
			if r, err := safeAnalyze(context.Background(), b, scenario.Clone(ev.s)); err == nil && r != nil {
				ev.r, ev.spread = r, true
			}
			out[i] = &ev
		}
		return func() { then(out) }
	})
}

// saveChartsOf asks where to write the charts of evs (what names them)
// and writes them.
func (p *planner) saveChartsOf(evs []*evaluation, what string) {
	var sets []chartSet
	seen := map[string]int{}
	n := 0
	for _, ev := range evs {
		cs, err := chart.Charts(ev.r)
		if err != nil {
			p.showProblems("Could not draw the charts", []string{report.ReportTitle(ev.s, ev.r) + ": " + err.Error()})
			return
		}
		stem := fileNameOf(ev.r.ScenarioID, "")
		if seen[stem]++; seen[stem] > 1 {
			stem = fmt.Sprintf("%s-%d", stem, seen[stem])
		}
		sets = append(sets, chartSet{stem: stem, charts: cs})
		n += len(cs)
	}
	if n == 0 {
		p.showProblems("No charts to save", []string{what + " has no costed direction, scaling curve or tornado to draw."})
		return
	}
	folder := sets[0].stem + "-charts"
	if len(sets) > 1 {
		folder = "compare-charts"
	}
	p.askSavePath(saveTarget{
		title:  "Save charts",
		done:   "Charts saved",
		what:   fmt.Sprintf("%s of %s, each as PNG and SVG", present.Count(n, "chart"), what),
		action: "Save",
		name:   folder,
		replaces: func(dir string) []string {
			var out []string
			for _, path := range chartPaths(dir, sets) {
				if _, err := os.Lstat(path); err == nil {
					out = append(out, path)
				}
			}
			return out
		},
		write: func(dir string) error { return writeChartSets(dir, sets) },
	})
}

// chartPaths are the files writeChartSets writes into dir.
func chartPaths(dir string, sets []chartSet) []string {
	var out []string
	for _, s := range sets {
		for _, c := range s.charts {
			for _, ext := range []string{"png", "svg"} {
				out = append(out, filepath.Join(dir, fmt.Sprintf("%s-%s.%s", s.stem, c.Name, ext)))
			}
		}
	}
	return out
}

// writeChartSets makes the folder dir when it is not there yet (its
// parent must be) and writes every chart into it at slide size.
func writeChartSets(dir string, sets []chartSet) error {
	if err := os.Mkdir(dir, 0o755); err != nil && !os.IsExist(err) {
		return err
	}
	for _, s := range sets {
		if _, err := chart.WriteFiles(dir, s.stem, s.charts, chart.Slide); err != nil {
			return err
		}
	}
	return nil
}
