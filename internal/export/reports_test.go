package export

import (
	"io/fs"
	"path"
	"strconv"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/scenarios"
)

// example is one example scenario with the report the model made of it.
type example struct {
	name string // file name without .json
	s    *scenario.Scenario
	r    *model.Report
}

// exampleReports evaluates every example scenario with the built-in catalog.
func exampleReports(t *testing.T) []example {
	t.Helper()
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	files, err := fs.Glob(scenarios.FS, "*.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no example scenarios")
	}
	var out []example
	for _, f := range files {
		b, err := fs.ReadFile(scenarios.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r, err := model.Evaluate(s, cat)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out = append(out, example{name: strings.TrimSuffix(path.Base(f), ".json"), s: s, r: r})
	}
	// One example in euros: its catalog prices converted, its workbook in
	// € formats.
	s, err := scenario.Parse(must(fs.ReadFile(scenarios.FS, "nightly-document-batch.json")))
	if err != nil {
		t.Fatal(err)
	}
	s.ID, s.Currency = s.ID+"-eur", "EUR"
	r, err := model.Evaluate(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.ExchangeRates) == 0 {
		t.Fatal("the example in euros converted no price")
	}
	out = append(out, example{name: s.ID, s: s, r: r})
	// One example whose data lives in a cloud: on-premises and HPC pay to
	// copy it out each run, at the cloud's egress price (one shared cell).
	s, err = scenario.Parse(must(fs.ReadFile(scenarios.FS, "constrained-snapshot-training.json")))
	if err != nil {
		t.Fatal(err)
	}
	s.ID, s.Data.Location = s.ID+"-in-cloud", scenario.LocationCloud
	if r, err = model.Evaluate(s, cat); err != nil {
		t.Fatal(err)
	}
	if d := r.Direction(scenario.OnPrem); d == nil || !(d.OtherCostPerRun > 0) {
		t.Fatal("the example with its data in a cloud copies nothing out of it")
	}
	out = append(out, example{name: s.ID, s: s, r: r})
	return out
}

func must[T any](x T, err error) T {
	if err != nil {
		panic(err)
	}
	return x
}

// costCell is a formula cell of the workbook and the report's value for it.
type costCell struct {
	sheet    string
	col, row int
	want     float64
	what     string
}

// costCells lists every cell whose formula restates the cost identity or
// reads it, with the value the report holds: on Costs the variable cost
// per run, the cost per run and the cost over the horizon; Summary's
// copies; every month on Monthly; and on Comparisons each break-even month
// recalculated from Costs.
func costCells(r *model.Report) []costCell {
	var out []costCell
	for i, d := range r.Directions {
		row := costRow(i)
		out = append(out,
			costCell{sheetCosts, colVariable, row, d.VariableCostPerRun, d.Direction + " variable_cost_per_run"},
			costCell{sheetCosts, colPerRun, row, d.CostPerRun, d.Direction + " cost_per_run"},
			costCell{sheetCosts, colHorizon, row, d.CostHorizon, d.Direction + " cost_horizon"},
			costCell{sheetSummary, 7, summaryTableRow + 1 + i, d.CostPerRun, d.Direction + " cost_per_run on Summary"},
			costCell{sheetSummary, 8, summaryTableRow + 1 + i, d.CostHorizon, d.Direction + " cost_horizon on Summary"},
		)
		for m, want := range d.CumulativeByMonth {
			out = append(out, costCell{sheetMonthly, i + 2, m + 2, want, d.Direction + " cumulative_by_month[" + strconv.Itoa(m) + "]"})
		}
	}
	if r.Comparisons != nil {
		for _, be := range r.Comparisons.BreakEvenMonths {
			out = append(out, costCell{sheetComparisons, 4, breakEvenRow(r, be.Cheaper, be.Than), be.Month, be.Cheaper + " cheaper than " + be.Than + " from month"})
		}
	}
	return out
}

// TestWorkbookRecalculatesExamples: for every example scenario, excelize
// recalculates the workbook of the model's report and gets the report's
// cost figures. At least one example must have a break-even month, or the
// Comparisons formula goes unchecked.
func TestWorkbookRecalculatesExamples(t *testing.T) {
	breakEvens := 0
	for _, ex := range exampleReports(t) {
		t.Run(ex.name, func(t *testing.T) {
			f := mustWorkbook(t, ex.s, ex.r)
			cells := costCells(ex.r)
			if len(cells) < len(ex.r.Directions)*(5+ex.r.HorizonMonths) {
				t.Fatalf("%d cells to check for %d directions over %d months", len(cells), len(ex.r.Directions), ex.r.HorizonMonths)
			}
			for _, c := range cells {
				if got := calc(t, f, c.sheet, cell(c.col, c.row)); !closeTo(got, c.want, relTol) {
					t.Errorf("%s!%s (%s) = %.12g, report %.12g", c.sheet, cell(c.col, c.row), c.what, got, c.want)
				}
			}
			breakEvens += len(ex.r.Comparisons.BreakEvenMonths)
		})
	}
	if breakEvens == 0 {
		t.Error("no example has a break-even month: the Comparisons formula is not checked")
	}
}

// breakEvenRow is the row on Comparisons of the month from which direction
// cheaper is cheaper than direction than, or 0.
func breakEvenRow(r *model.Report, cheaper, than string) int {
	for i, p := range breakEvenPairs(r) {
		if r.Directions[p[0]].Direction == cheaper && r.Directions[p[1]].Direction == than {
			return rowBreakEven + i
		}
	}
	return 0
}
