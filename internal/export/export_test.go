package export

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

var update = flag.Bool("update", false, "update golden files in testdata")

// testScenario is a fine-tuning scenario with an estimated run rate, a list
// of each kind and every option section present.
func testScenario() *scenario.Scenario {
	return &scenario.Scenario{
		SchemaVersion: scenario.SchemaVersion,
		ID:            "ft-test",
		Name:          "Fine-tune test",
		Currency:      "EUR",
		Seed:          18446744073709551615, // 2⁶⁴−1: more digits than a cell keeps
		Purpose: scenario.Purpose{
			Decision:       "Where to fine-tune",
			SuccessMeasure: "Eval score ≥ baseline",
			Owner:          "Research lead",
		},
		Workload: scenario.Workload{
			Shape:         scenario.ShapeFineTuning,
			Model:         scenario.Model{Preset: "llama-3-8b"},
			Precision:     "bf16",
			Method:        "lora",
			TokensPerRunB: scenario.Known(0.5),
			RunsPerMonth:  scenario.Estimate(2, 4, 6),
			MFU:           scenario.Estimate(0.3, 0.4, 0.5),
			Trial:         []scenario.TrialPoint{{GPUs: 8, Throughput: 12000}},
		},
		Data: scenario.Data{
			VolumeGB:       scenario.Known(200),
			Classification: "confidential",
			Residency:      "EU",
			Movement:       scenario.MoveSnapshot,
			SnapshotGB:     scenario.Known(20),
			ReturnOutputs:  []string{"checkpoints", "metrics"},
			Lifecycle: []scenario.LifecycleStage{
				{Stage: "collect", Owner: "Data office", Status: "done"},
				{Stage: "compute", Owner: "Research", Status: "open"},
			},
		},
		Dimensions: scenario.Dimensions{
			Sovereignty:   scenario.Sovereignty{Dimension: scenario.Dimension{Weight: 3}},
			WorkloadShape: scenario.ShapeDim{Dimension: scenario.Dimension{Weight: 1}},
			Operations:    scenario.Operations{Dimension: scenario.Dimension{Weight: 2}, StaffFTE: scenario.Known(1.5)},
			Economics:     scenario.Economics{Dimension: scenario.Dimension{Weight: 2}, HorizonMonths: 12},
			Optionality:   scenario.Optionality{Dimension: scenario.Dimension{Weight: 1}},
		},
		Options: scenario.Options{
			Cloud: scenario.CloudOptions{Pricing: "on_demand", PricePerGPUHr: scenario.Known(2.5)},
		},
	}
}

// testReport is a report with hand-checkable numbers: runs_per_month = 4,
// horizon = 12 months. Its derived cost figures are the model's cost
// identity's (TestHandNumbers checks them against these, by hand):
//
//	cloud:   variable = 100 GPU-h × 2.50 + 30 = 280
//	         per run  = 280 + 50 ÷ 4 = 292.50
//	         horizon  = 0 + 12 × (50 + 4 × 280) = 12 × 1170 = 14 040
//	         month m  = 1170 m
//	on_prem: variable = 120 GPU-h × 0.40 + 5 = 53
//	         per run  = 53 + 2000 ÷ 4 = 553
//	         horizon  = 60 000 + 12 × (2000 + 4 × 53) = 60 000 + 26 544 = 86 544
//	         month m  = 60 000 + 2212 m
//	managed: variable = 0 × 0 + 410.25 (tokens) = 410.25
//	         per run  = 410.25 + 0 ÷ 4 = 410.25
//	         horizon  = 0 + 12 × (0 + 4 × 410.25) = 19 692
//	         month m  = 1641 m
func testReport() *model.Report {
	r := &model.Report{
		ScenarioID:    "ft-test",
		ScenarioName:  "Fine-tune test",
		ModelVersion:  "0.1.0",
		CatalogAsOf:   "2025-01-15",
		Currency:      "EUR",
		Shape:         scenario.ShapeFineTuning,
		HorizonMonths: 12,
		RunUnit:       "fine-tuning run",
		Workload:      model.WorkloadSummary{RunsPerMonth: 4},
		Cheapest:      "cloud",
		Warnings:      []model.Note{{Code: model.NoteMFUAssumed, Kind: model.NoteAssumption, Text: "runs_per_month is an estimate; the likely value 4 is used"}},
	}
	r.Directions = []model.DirectionResult{
		{
			Direction: "managed", Title: "Managed service", Feasible: false,
			Reasons: []model.Reason{
				{Code: model.ReasonDataMustStay, Kind: model.KindSovereignty, Fields: []string{"data.movement"}, Text: "data may not leave the controlled environment"},
				{Code: model.ReasonProviderMayNotProcess, Kind: model.KindSovereignty, Fields: []string{"data.provider_may_process"}, Text: "the provider may not keep the data"},
			},
			OtherCostPerRun:         410.25,
			TimeToResultHours:       3,
			Notes:                   []model.Note{{Code: model.NotePricingMode, Kind: model.NotePlan, Text: "per-token pricing"}},
			Sources:                 []string{"managed/example as_of 2025-02-01"},
			VariablePricePerGPUHour: 0,
		},
		{
			Direction: "cloud", Title: "Cloud IaaS", Feasible: true, GPU: "h100-80", GPUs: 8, PricesAsOf: "2026-01-21",
			PricePerGPUHour: 2.5, GPUHoursPerRun: 100, ComputeHours: 12.5, TimeToResultHours: 14.25,
			VariablePricePerGPUHour: 2.5, OtherCostPerRun: 30, MonthlyFixedCost: 50,
			Breakdown: []model.CostLine{
				{Item: "GPU time", Amount: 12000, Basis: "48 runs × 100 GPU-h × 2.50"},
				{Item: "Staging and egress", Amount: 1440, Basis: "48 runs × 30"},
				{Item: "Storage", Amount: 600, Basis: "12 months × 50"},
			},
			Notes:   []model.Note{{Code: model.NotePricingMode, Kind: model.NotePlan, Text: "on-demand pricing"}},
			Sources: []string{"cloud/example-h100 as_of 2025-01-15"},
		},
		{
			Direction: "on_prem", Title: "On-premises", Feasible: true, GPU: "h100-80", GPUs: 8, PricesAsOf: "2025-01-15",
			PricePerGPUHour: 0.4, GPUHoursPerRun: 120, ComputeHours: 15, TimeToResultHours: 15,
			VariablePricePerGPUHour: 0.4, OtherCostPerRun: 5, MonthlyFixedCost: 2000, OneOffCost: 60000,
			LeadTimeDays: 90,
			Breakdown: []model.CostLine{
				{Item: "Hardware", Amount: 60000, Basis: "1 node"},
				{Item: "Electricity", Amount: 2304, Basis: "48 runs × 120 GPU-h × 0.40"},
			},
		},
	}
	r.DeriveCosts()
	return r
}

// TestHandNumbers: the model's cost identity gives testReport the figures
// worked out by hand above.
func TestHandNumbers(t *testing.T) {
	r := testReport()
	for i, want := range []struct{ variable, perRun, horizon, oneOff, perMonth float64 }{
		{410.25, 410.25, 19692, 0, 1641},
		{280, 292.5, 14040, 0, 1170},
		{53, 553, 86544, 60000, 2212},
	} {
		d := r.Directions[i]
		if d.VariableCostPerRun != want.variable || d.CostPerRun != want.perRun || d.CostHorizon != want.horizon {
			t.Errorf("%s: variable %g, per run %g, horizon %g; want %g, %g, %g", d.Direction,
				d.VariableCostPerRun, d.CostPerRun, d.CostHorizon, want.variable, want.perRun, want.horizon)
		}
		if len(d.CumulativeByMonth) != 12 {
			t.Fatalf("%s: %d months", d.Direction, len(d.CumulativeByMonth))
		}
		for m, got := range d.CumulativeByMonth {
			if w := want.oneOff + float64(m+1)*want.perMonth; got != w {
				t.Errorf("%s month %d = %g, want %g", d.Direction, m+1, got, w)
			}
		}
	}
}

// awkwardReport has runs, prices and hours that are not round, with the
// report's cost figures derived by the model's cost identity, so the
// formulas are checked against float arithmetic, not only small integers.
func awkwardReport(runs float64, horizon int) *model.Report {
	r := testReport()
	r.Workload.RunsPerMonth = runs
	r.HorizonMonths = horizon
	in := [][5]float64{ // GPU-hours, price, other, fixed, one-off
		{0, 0, 1234.5678, 0, 0},
		{97.333333, 3.1415926, 17.77, 123.456, 0},
		{1e-3, 0.0123, 0.2, 98765.4321, 1.23456789e6},
	}
	for i := range r.Directions {
		d := &r.Directions[i]
		d.GPUHoursPerRun, d.VariablePricePerGPUHour, d.OtherCostPerRun, d.MonthlyFixedCost, d.OneOffCost =
			in[i][0], in[i][1], in[i][2], in[i][3], in[i][4]
	}
	r.DeriveCosts()
	return r
}

func mustWorkbook(t *testing.T, s *scenario.Scenario, r *model.Report) *excelize.File {
	t.Helper()
	f, err := Workbook(s, r)
	if err != nil {
		t.Fatalf("Workbook: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// calc evaluates a cell with excelize's own calculation engine.
func calc(t *testing.T, f *excelize.File, sheet, c string) float64 {
	t.Helper()
	s, err := f.CalcCellValue(sheet, c, excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatalf("CalcCellValue(%s!%s): %v", sheet, c, err)
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("%s!%s = %q, not a number", sheet, c, s)
	}
	return x
}

// closeTo reports whether got is within rel of want, relative to |want|
// (absolute below 1, so zeros compare sensibly).
func closeTo(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(1, math.Abs(want))
}

// relTol is the agreement asked of every formula: the engine computes in
// float64 and cells keep 15 significant digits, so 1e-6 leaves wide margin.
const relTol = 1e-6

func TestCostFormulas(t *testing.T) {
	f := mustWorkbook(t, testScenario(), testReport())
	want := map[string]string{
		// Costs row 3 is r.Directions[1] (cloud).
		"Costs!I3":    "D3*E3+F3",
		"Costs!J3":    "IF(runs_per_month>0,I3+G3/runs_per_month,I3)",
		"Costs!K3":    "H3+horizon_months*(G3+runs_per_month*I3)",
		"Summary!G13": guarded("Costs!$J$3"),
		"Summary!H13": guarded("Costs!$K$3"),
		"Monthly!C2":  `IF(1<=horizon_months,Costs!$H$3+1*(Costs!$G$3+runs_per_month*Costs!$I$3),"")`,
		"Monthly!D13": `IF(12<=horizon_months,Costs!$H$4+12*(Costs!$G$4+runs_per_month*Costs!$I$4),"")`,
		"Monthly!A14": `IF(13<=horizon_months,13,"")`,
	}
	for ref, formula := range want {
		sheet, c, _ := strings.Cut(ref, "!")
		got, err := f.GetCellFormula(sheet, c)
		if err != nil {
			t.Fatal(err)
		}
		if got != formula {
			t.Errorf("%s formula = %q, want %q", ref, got, formula)
		}
	}
	// The inputs finance changes are values, not formulas.
	for _, c := range []string{"D3", "E3", "F3", "G3", "H3"} {
		if got, _ := f.GetCellFormula(sheetCosts, c); got != "" {
			t.Errorf("Costs!%s is a formula %q, want a value", c, got)
		}
	}
}

func TestFormulasReproduceReport(t *testing.T) {
	for _, tc := range []struct {
		name string
		r    *model.Report
	}{
		{"hand numbers", testReport()},
		{"awkward numbers", awkwardReport(2.7, 36)},
		{"one run a month over ten years", awkwardReport(1, 120)},
		{"no runs", awkwardReport(0, 6)}, // the IF guard: cost per run = variable cost
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := mustWorkbook(t, testScenario(), tc.r)
			check := func(sheet, c string, want float64) {
				t.Helper()
				if got := calc(t, f, sheet, c); !closeTo(got, want, relTol) {
					t.Errorf("%s!%s = %.10g, want %.10g", sheet, c, got, want)
				}
			}
			for i, d := range tc.r.Directions {
				row := costRow(i)
				check(sheetCosts, cell(colVariable, row), d.VariableCostPerRun)
				check(sheetCosts, cell(colPerRun, row), d.CostPerRun)
				check(sheetCosts, cell(colHorizon, row), d.CostHorizon)
				check(sheetSummary, cell(7, summaryTableRow+1+i), d.CostPerRun)
				check(sheetSummary, cell(8, summaryTableRow+1+i), d.CostHorizon)
				if len(d.CumulativeByMonth) != tc.r.HorizonMonths {
					t.Fatalf("%s: %d months of cumulative cost, horizon %d", d.Direction, len(d.CumulativeByMonth), tc.r.HorizonMonths)
				}
				for m, want := range d.CumulativeByMonth {
					check(sheetMonthly, cell(i+2, m+2), want)
				}
				// The last month is the cost over the horizon.
				check(sheetMonthly, cell(i+2, tc.r.HorizonMonths+1), d.CostHorizon)
			}
			// Nothing beyond the horizon.
			if v, _ := f.GetCellValue(sheetMonthly, cell(1, tc.r.HorizonMonths+2)); v != "" {
				t.Errorf("Monthly has a row after month %d: %q", tc.r.HorizonMonths, v)
			}
		})
	}
}

// TestFormulasFollowInputs changes a value cell as finance would and checks
// that the formulas move with it: proof that they are formulas, not copies.
func TestFormulasFollowInputs(t *testing.T) {
	f := mustWorkbook(t, testScenario(), testReport())
	// Cloud price 2.50 → 3.00: variable = 100 × 3 + 30 = 330; per run =
	// 330 + 50 ÷ 4 = 342.50; horizon = 12 × (50 + 4 × 330) = 16 440.
	if err := f.SetCellFloat(sheetCosts, "E3", 3, -1, 64); err != nil {
		t.Fatal(err)
	}
	// Runs 4 → 5 for all (the likely value on Drivers): on_prem per run =
	// 53 + 2000 ÷ 5 = 453.
	if err := f.SetCellFloat(sheetDrivers, cell(colDrvLikely, rowDrvHeader+1), 5, -1, 64); err != nil {
		t.Fatal(err)
	}
	// cloud per run = 330 + 50 ÷ 5 = 340; horizon = 12 × (50 + 5 × 330) = 20 400.
	for _, c := range []struct {
		sheet, cell string
		want        float64
	}{
		{sheetCosts, "I3", 330},
		{sheetCosts, "J3", 340},
		{sheetCosts, "K3", 20400},
		{sheetSummary, "H13", 20400},
		{sheetCosts, "J4", 453},
		{sheetMonthly, "C2", 1700}, // 0 + 1 × (50 + 5 × 330)
	} {
		if got := calc(t, f, c.sheet, c.cell); !closeTo(got, c.want, relTol) {
			t.Errorf("%s!%s = %g, want %g", c.sheet, c.cell, got, c.want)
		}
	}
}

func TestDefinedNames(t *testing.T) {
	f := mustWorkbook(t, testScenario(), testReport())
	got := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		if strings.HasPrefix(dn.Name, "_xlnm.") {
			continue // a built-in name, such as a sheet's print titles: per sheet by definition
		}
		if dn.Scope != "Workbook" {
			t.Errorf("name %s has scope %s, want Workbook", dn.Name, dn.Scope)
		}
		got[dn.Name] = dn.RefersTo
	}
	want := map[string]string{
		"driver_case":                       "Drivers!$B$2",
		"runs_per_month":                    "Drivers!$B$6",
		"horizon_months":                    "Drivers!$B$7",
		"managed_other_cost_per_run":        "Costs!$F$2",
		"cloud_gpu_hours_per_run":           "Costs!$D$3",
		"cloud_variable_price_per_gpu_hour": "Costs!$E$3",
		"cloud_monthly_fixed_cost":          "Costs!$G$3",
		"cloud_cost_horizon":                "Costs!$K$3",
		"on_prem_one_off_cost":              "Costs!$H$4",
		"on_prem_cost_per_run":              "Costs!$J$4",
	}
	for name, ref := range want {
		if got[name] != ref {
			t.Errorf("defined name %s refers to %q, want %q", name, got[name], ref)
		}
	}
	// The case, 2 workload names, the team's staff, the engine's
	// constants, the integrity problems + 8 per direction.
	if n, want := len(got), 1+2+1+len(costid.Constants())+1+8*3; n != want {
		t.Errorf("%d defined names, want %d: %v", n, want, got)
	}
	// The named cells hold the Report's values, not the scenario's.
	if v := calc(t, f, sheetDrivers, "B6"); v != 4 {
		t.Errorf("runs_per_month = %g, want 4", v)
	}
	if v := calc(t, f, sheetDrivers, "B7"); v != 12 {
		t.Errorf("horizon_months = %g, want 12", v)
	}
}

// TestTextStaysText: user text that looks like a formula is stored as text,
// both in the built file and after a write and re-open.
func TestTextStaysText(t *testing.T) {
	s := testScenario()
	s.Name = "=1+1"
	s.Purpose.Owner = "@SUM(A1:A2)"
	r := analysedReport()
	r.Directions[1].Breakdown[0].Item = "+cmd|' /C calc'!A0"
	r.Directions[1].Notes = []model.Note{{Code: model.NoteCatalogEntry, Kind: model.NoteCatalog, Text: "-2+3"}}
	r.Directions[1].Bottleneck = `=HYPERLINK("http://x","y")`
	r.Uncertainty.Inputs[0] = "+1+1"    // no label: written as the path
	r.Tornado.Bars[0].Input = "@SUM(1)" // likewise, and a chart category
	f := mustWorkbook(t, s, r)

	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()

	for _, tc := range []struct{ sheet, cell, want string }{
		{sheetSummary, "B1", "=1+1"},
		{sheetInputs, "", "=1+1"},
		{sheetInputs, "", "@SUM(A1:A2)"},
		{sheetCosts, "", "+cmd|' /C calc'!A0"},
		{sheetNotes, "", "-2+3"},
		{sheetScaling, "B5", `=HYPERLINK("http://x","y")`},
		{sheetUncertainty, "A9", "+1+1"},
		{sheetUncertainty, "B9", "+1+1"},
		{sheetSensitivity, "A8", "@SUM(1)"},
	} {
		for name, file := range map[string]*excelize.File{"built": f, "re-opened": g} {
			c := tc.cell
			if c == "" {
				c = find(t, file, tc.sheet, tc.want)
			}
			if got, _ := file.GetCellValue(tc.sheet, c); got != tc.want {
				t.Errorf("%s: %s!%s = %q, want %q", name, tc.sheet, c, got, tc.want)
			}
			if fo, _ := file.GetCellFormula(tc.sheet, c); fo != "" {
				t.Errorf("%s: %s!%s has formula %q, want text", name, tc.sheet, c, fo)
			}
			if typ, _ := file.GetCellType(tc.sheet, c); typ != excelize.CellTypeSharedString {
				t.Errorf("%s: %s!%s has type %v, want a shared string", name, tc.sheet, c, typ)
			}
		}
	}
}

// find returns the cell of sheet whose value is text, or fails.
func find(t *testing.T, f *excelize.File, sheet, text string) string {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		for j, v := range row {
			if v == text {
				return cell(j+1, i+1)
			}
		}
	}
	t.Fatalf("%q not found on %s", text, sheet)
	return ""
}

func TestNonFiniteIsAnError(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(r *model.Report)
		field string
	}{
		{"NaN fixed cost", func(r *model.Report) { r.Directions[1].MonthlyFixedCost = math.NaN() }, "directions[cloud].monthly_fixed_cost"},
		{"Inf GPU-hours", func(r *model.Report) { r.Directions[2].GPUHoursPerRun = math.Inf(1) }, "directions[on_prem].gpu_hours_per_run"},
		{"NaN runs", func(r *model.Report) { r.Workload.RunsPerMonth = math.NaN() }, "workload.runs_per_month"},
		{"-Inf breakdown", func(r *model.Report) { r.Directions[2].Breakdown[1].Amount = math.Inf(-1) }, "directions[on_prem].breakdown[1].amount"},
		{"NaN time", func(r *model.Report) { r.Directions[0].TimeToResultHours = math.NaN() }, "directions[managed].time_to_result_hours"},
		{"NaN memory per GPU", func(r *model.Report) { r.Directions[1].MemoryPerGPUGB = math.NaN() }, "directions[cloud].memory_per_gpu_gb"},
		{"NaN scaling step", func(r *model.Report) { r.Directions[1].Scaling[3].StepSeconds = math.NaN() }, "directions[cloud].scaling[3].step_seconds"},
		{"Inf efficiency", func(r *model.Report) { r.Directions[1].Scaling[0].Efficiency = math.Inf(1) }, "directions[cloud].scaling[0].efficiency"},
		{"Inf serving latency", func(r *model.Report) { r.Directions[2].Serving.LatencyMS = math.Inf(1) }, "directions[on_prem].serving.latency_ms"},
		{"NaN none feasible", func(r *model.Report) { r.Uncertainty.ProbNoneFeasible = math.NaN() }, "uncertainty.prob_none_feasible"},
		{"Inf cost P90", func(r *model.Report) { r.Uncertainty.Directions[2].CostP90 = math.Inf(1) }, "uncertainty.directions[on_prem].cost_p90"},
		{"NaN probability", func(r *model.Report) { r.Uncertainty.Directions[0].ProbBudget = math.NaN() }, "uncertainty.directions[managed].prob_budget"},
		{"NaN tornado base", func(r *model.Report) { r.Tornado.Base = math.NaN() }, "tornado.base"},
		{"-Inf tornado bar", func(r *model.Report) { r.Tornado.Bars[1].High = math.Inf(-1) }, "tornado.bars[1].at_high"},
		{"NaN swing", func(r *model.Report) { r.Tornado.Bars[0].Swing = math.NaN() }, "tornado.bars[0].swing"},
		{"NaN break-even month", func(r *model.Report) { r.Comparisons.BreakEvenMonths[1].Month = math.NaN() }, "comparisons.break_even_months[1].month"},
		{"NaN utilisation", func(r *model.Report) { r.Comparisons.Utilisation.Utilisation = math.NaN() }, "comparisons.break_even_utilisation.utilisation"},
		{"Inf traffic", func(r *model.Report) { r.Comparisons.Traffic[0].MeanRPS = math.Inf(1) }, "comparisons.traffic_break_even[0].mean_rps"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := analysedReport()
			tc.spoil(r)
			f, err := Workbook(testScenario(), r)
			if err == nil {
				f.Close()
				t.Fatal("Workbook succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("error %q does not name %s", err, tc.field)
			}
		})
	}
}

func TestWrongReport(t *testing.T) {
	r := testReport()
	r.ScenarioID = "other"
	if f, err := Workbook(testScenario(), r); err == nil {
		f.Close()
		t.Fatal("Workbook accepted the report of another scenario")
	}
}

func TestInputsSheet(t *testing.T) {
	f := mustWorkbook(t, testScenario(), testReport())
	rows, err := f.GetRows(sheetInputs)
	if err != nil {
		t.Fatal(err)
	}
	byField := map[string][]string{}
	for _, row := range rows {
		if len(row) > colInField-1 {
			byField[row[colInField-1]] = row
		}
	}
	for _, tc := range []struct{ field, value, unit, basis string }{
		{"workload.runs_per_month", "4", "runs/month", "estimate (2–6)"},
		{"workload.mfu", "0.4", "fraction", "estimate (0.3–0.5)"},
		{"workload.tokens_per_run_b", "0.5", "billions", "known"},
		{"workload.deadline_hours", "", "hours", "not given"},
		{"workload.traffic.peak_rps", "", "requests/s", "not given"}, // nil traffic still listed
		{"seed", "18446744073709551615", "", "known"},
		{"data.personal_data", "No", "", "known"},
		{"data.return_outputs", "checkpoints, metrics", "", "known"},
		{"data.lifecycle[1].owner", "Research", "", "known"},
		{"options.cloud.price_per_gpu_hour", "2.5", "EUR/GPU-hour", "known"},
		{"options.hpc.price_per_gpu_hour", "", "EUR/GPU-hour", "not given"},
	} {
		row, ok := byField[tc.field]
		if !ok {
			t.Errorf("no Inputs row for %s", tc.field)
			continue
		}
		row = append(row, "", "", "", "", "", "")
		if got := [3]string{row[colInValue-1], row[colInUnit-1], row[colInBasis-1]}; got != [3]string{tc.value, tc.unit, tc.basis} {
			t.Errorf("%s: value, unit, basis = %q, want %q", tc.field, got, [3]string{tc.value, tc.unit, tc.basis})
		}
	}
	// Each row says what the input means, in the words the window uses.
	for _, field := range []string{"workload.runs_per_month", "workload.mfu", "data.lifecycle[1].owner", "seed"} {
		f, _ := present.Lookup(field)
		if row := append(byField[field], make([]string, colInHelp)...); f.Help == "" || row[colInHelp-1] != f.Help {
			t.Errorf("%s: help %q, want %q", field, row[colInHelp-1], f.Help)
		}
	}
	// The driver of runs per month keeps its range, and the case selector
	// chooses the value the costs use.
	for c, want := range map[string]string{"A6": "Runs per month", "C6": "2", "D6": "4", "E6": "6", "G6": "scenario estimate: workload.runs_per_month"} {
		if v, _ := f.GetCellValue(sheetDrivers, c); v != want {
			t.Errorf("Drivers!%s = %q, want %q", c, v, want)
		}
	}
	for c, want := range map[string]float64{"low": 2, "likely": 4, "high": 6} {
		if err := f.SetCellStr(sheetDrivers, "B2", c); err != nil {
			t.Fatal(err)
		}
		if v := calc(t, f, sheetDrivers, "B6"); v != want {
			t.Errorf("runs per month in case %s = %g, want %g", c, v, want)
		}
	}
}

func TestSummary(t *testing.T) {
	f := mustWorkbook(t, testScenario(), testReport())
	for c, want := range map[string]string{
		"A8":  "Prices as of (oldest any direction used; each direction's on Costs)",
		"B8":  "2025-01-15",
		"B12": "No",
		"C12": "data may not leave the controlled environment; the provider may not keep the data",
		"D12": "", // managed: no GPU
		"E12": "",
		"D13": "h100-80",
		"E13": "8",
	} {
		if got, _ := f.GetCellValue(sheetSummary, c); got != want {
			t.Errorf("Summary!%s = %q, want %q", c, got, want)
		}
	}
	if v := calc(t, f, sheetSummary, "F13"); v != 14.25 {
		t.Errorf("Summary!F13 time to result = %g, want 14.25", v)
	}
	// The verdicts are formulas: cloud is the cheapest feasible direction,
	// on-premises second; managed is ruled out for good.
	text := func(f *excelize.File, c string) string {
		t.Helper()
		v, err := f.CalcCellValue(sheetSummary, c)
		if err != nil {
			t.Fatalf("Summary!%s: %v", c, err)
		}
		return v
	}
	for c, want := range map[string]string{"B9": "Cloud IaaS", "C9": "", "J12": "", "J13": "1", "J14": "2", "B18": "Cloud IaaS", "B19": "On-premises", "B20": ""} {
		if got := text(f, c); got != want {
			t.Errorf("Summary!%s = %q, want %q", c, got, want)
		}
	}
	// A cloud price of 100 makes on-premises the cheapest, with a note.
	if err := f.SetCellFloat(sheetCosts, "E3", 100, -1, 64); err != nil {
		t.Fatal(err)
	}
	for c, want := range map[string]string{"B9": "On-premises", "J13": "2", "J14": "1", "B18": "On-premises",
		"C9": "Changed by the drivers: the engine found Cloud IaaS cheapest, and its recommendation weighed that"} {
		if got := text(f, c); got != want {
			t.Errorf("with cloud at 100 per GPU-hour, Summary!%s = %q, want %q", c, got, want)
		}
	}
	r := testReport()
	for i := range r.Directions {
		r.Directions[i].Feasible = false
	}
	r.Cheapest = ""
	g := mustWorkbook(t, testScenario(), r)
	if got := text(g, "B9"); got != "None is feasible" {
		t.Errorf("cheapest with none feasible = %q", got)
	}
}

func TestWriteWorkbook(t *testing.T) {
	s, r := testScenario(), testReport()

	t.Run("writes and leaves no temporary file", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "plan.xlsx")
		if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := WriteWorkbook(path, s, r); err != nil {
			t.Fatal(err)
		}
		assertOnly(t, dir, "plan.xlsx")
		f, err := excelize.OpenFile(path)
		if err != nil {
			t.Fatalf("written file does not open: %v", err)
		}
		defer f.Close()
		if got := f.GetSheetList(); !reflect.DeepEqual(got, []string{"Summary", "Drivers", "Costs", "Energy", "Monthly", "Comparisons", "Checks", "Audit", "Inputs", "Options", "Scaling", "Uncertainty", "Sensitivity", "Notes", "Sources"}) {
			t.Errorf("sheets = %v", got)
		}
		if got := calc(t, f, sheetCosts, "K4"); !closeTo(got, 86544, relTol) {
			t.Errorf("re-opened Costs!K4 = %g, want 86544", got)
		}
	})

	t.Run("missing directory", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "no-such-dir", "plan.xlsx")
		if err := WriteWorkbook(path, s, r); err == nil {
			t.Fatal("WriteWorkbook succeeded into a missing directory")
		}
		assertOnly(t, dir)
	})

	t.Run("onto a directory", func(t *testing.T) {
		// path is a non-empty directory: the write is refused, no temporary
		// file is left and the directory is kept.
		dir := t.TempDir()
		path := filepath.Join(dir, "plan.xlsx")
		if err := os.MkdirAll(filepath.Join(path, "keep"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := WriteWorkbook(path, s, r); err == nil {
			t.Fatal("WriteWorkbook succeeded onto a directory")
		}
		assertOnly(t, dir, "plan.xlsx")
		if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
			t.Errorf("%s was replaced: %v", path, err)
		}
	})

	t.Run("bad report writes nothing", func(t *testing.T) {
		dir := t.TempDir()
		path := filepath.Join(dir, "plan.xlsx")
		bad := testReport()
		bad.Directions[0].OneOffCost = math.NaN()
		if err := WriteWorkbook(path, s, bad); err == nil {
			t.Fatal("WriteWorkbook wrote a NaN")
		}
		assertOnly(t, dir)
	})
}

// assertOnly fails unless dir holds exactly the names given.
func assertOnly(t *testing.T, dir string, names ...string) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if !reflect.DeepEqual(got, names) && !(len(got) == 0 && len(names) == 0) {
		t.Errorf("%s holds %q, want %q", dir, got, names)
	}
}

// cellDump lists every non-empty cell of a sheet, one per line, row by row:
// the cell name, then "= formula" for a formula, "s text" for text or
// "n number" for a number, then the number format of styled cells.
func cellDump(f *excelize.File, sheet string) (string, error) {
	rows, err := f.GetRows(sheet, excelize.Options{RawCellValue: true})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# sheet %s\n", sheet)
	// Formula cells have no stored value, so GetRows may end a row early;
	// scan a few columns past the widest row.
	width := 0
	for _, r := range rows {
		width = max(width, len(r))
	}
	for i := range rows {
		for j := range width + 4 {
			c := cell(j+1, i+1)
			fo, err := f.GetCellFormula(sheet, c)
			if err != nil {
				return "", err
			}
			v, err := f.GetCellValue(sheet, c, excelize.Options{RawCellValue: true})
			if err != nil {
				return "", err
			}
			typ, err := f.GetCellType(sheet, c)
			if err != nil {
				return "", err
			}
			var line string
			switch {
			case fo != "":
				line = "= " + fo
			case v == "":
				continue
			case typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString:
				line = "s " + strconv.Quote(v)
			default:
				line = "n " + v
			}
			if st, _ := f.GetCellStyle(sheet, c); st != 0 {
				if s, err := f.GetStyle(st); err == nil && s.CustomNumFmt != nil {
					line += "  [" + *s.CustomNumFmt + "]"
				}
			}
			fmt.Fprintf(&b, "%s\t%s\n", c, line)
		}
	}
	return b.String(), nil
}

func TestCostsGolden(t *testing.T) {
	f := mustWorkbook(t, testScenario(), testReport())
	got, err := cellDump(f, sheetCosts)
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "costs.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("Costs sheet differs from %s (go test -update to accept):\n%s", golden, diffLines(string(want), got))
	}
}

// diffLines lists the lines that differ, by line number.
func diffLines(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := range max(len(w), len(g)) {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			fmt.Fprintf(&b, "line %d:\n\twant %s\n\tgot  %s\n", i+1, a, c)
		}
	}
	return b.String()
}

// TestWrappedRowsAreTall: rows with wrapped text get a height, since
// neither excelize nor LibreOffice sizes them when the file is opened.
func TestWrappedRowsAreTall(t *testing.T) {
	f := mustWorkbook(t, testScenario(), testReport())
	for _, tc := range []struct {
		sheet string
		row   int
		lines int
	}{
		// "Variable price per GPU-hour (EUR)" in a column 14 wide: 3 lines.
		{sheetCosts, 1, 3},
		// Managed's two reasons, 83 characters, in a column 48 wide: 2 lines.
		{sheetSummary, summaryTableRow + 1, 2},
		// Cloud fits on one line: the default height.
		{sheetSummary, summaryTableRow + 2, 1},
	} {
		h, err := f.GetRowHeight(tc.sheet, tc.row)
		if err != nil {
			t.Fatal(err)
		}
		if want := 15 * float64(tc.lines); tc.lines > 1 && h != want || tc.lines == 1 && h > 15 {
			t.Errorf("%s row %d is %g points high, want %d lines", tc.sheet, tc.row, h, tc.lines)
		}
	}
}

// A source longer than a spreadsheet row can show (409 points, 27 lines)
// still writes: the row takes the largest height, where it failed the
// whole export before.
func TestLongSourceFitsTheLargestRow(t *testing.T) {
	r := testReport()
	r.Directions[0].Sources = append(r.Directions[0].Sources, strings.Repeat("a published figure, with its date; ", 200))
	f := mustWorkbook(t, testScenario(), r)
	rows, err := f.GetRows(sheetNotes)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		if len(row) > 2 && strings.HasPrefix(row[2], "a published figure") {
			if h, err := f.GetRowHeight(sheetNotes, i+1); err != nil || h != 409 {
				t.Errorf("the long source's row is %g points high (%v), want 409", h, err)
			}
			return
		}
	}
	t.Errorf("the long source is not on %s", sheetNotes)
}

// Each direction is dated on Costs by the prices it used: the cloud's
// (2026-01-21) newer than the report's oldest (2025-01-15, on Summary),
// a direction that used none "—".
func TestCostsDatePricesByDirection(t *testing.T) {
	f := mustWorkbook(t, testScenario(), testReport())
	for c, want := range map[string]string{"L1": "Prices as of (oldest used)", "L2": "—", "L3": "2026-01-21", "L4": "2025-01-15"} {
		if got, _ := f.GetCellValue(sheetCosts, c); got != want {
			t.Errorf("Costs!%s = %q, want %q", c, got, want)
		}
	}
	if got, _ := f.GetCellValue(sheetSummary, "B8"); got != "2025-01-15" {
		t.Errorf("Summary!B8 = %q, want the report's oldest, 2025-01-15", got)
	}
}
