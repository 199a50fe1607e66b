package export

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// analysedReport is testReport as model.Analyze would return it: with
// scaling curves, a serving plan, Monte Carlo spread, a tornado and
// break-even points. On-premises is made cheaper to own so that lines cross
// inside the horizon (runs_per_month = 4, horizon = 12):
//
//	on_prem: variable = 120 GPU-h × 0.40 + 5 = 53
//	         month m  = 6000 + m × (200 + 4 × 53) = 6000 + 412 m
//	         horizon  = 6000 + 12 × 412 = 10 944
//	cloud:   month m  = 1170 m; managed: month m = 1641 m
//	on_prem cheaper than cloud   from m = 6000 ÷ (1170 − 412) = 7.9156
//	on_prem cheaper than managed from m = 6000 ÷ (1641 − 412) = 4.8820
func analysedReport() *model.Report {
	r := testReport()
	op := &r.Directions[2]
	op.OneOffCost, op.MonthlyFixedCost = 6000, 200
	r.DeriveCosts()
	r.Cheapest = scenario.OnPrem
	addAnalysis(r)
	return r
}

// addAnalysis adds to r (with testReport's three directions) what
// model.Analyze adds, with numbers chosen by hand, and the break-even
// months computed by breakEvens.
func addAnalysis(r *model.Report) {
	cloud, op := &r.Directions[1], &r.Directions[2]
	cloud.Bottleneck, cloud.MemoryPerGPUGB, cloud.MaxEfficientGPUs = "compute", 61.5, 16
	cloud.Scaling = []model.ScalingPoint{
		{GPUs: 1, StepSeconds: 80, ComputeSeconds: 80, DataSeconds: 0.5, Speedup: 1, Efficiency: 1, TimeToResultHours: 100, Bottleneck: "memory capacity"},
		{GPUs: 2, StepSeconds: 40.5, ComputeSeconds: 40, CommSeconds: 0.25, DataSeconds: 0.5, Speedup: 1.975, Efficiency: 0.9877, TimeToResultHours: 50.6, Fits: true, Bottleneck: "compute"},
		{GPUs: 4, StepSeconds: 20.75, ComputeSeconds: 20, CommSeconds: 0.5, SerialSeconds: 0.25, DataSeconds: 0.5, Speedup: 3.855, Efficiency: 0.9638, TimeToResultHours: 26, Fits: true, Bottleneck: "compute"},
		{GPUs: 8, StepSeconds: 11, ComputeSeconds: 10, CommSeconds: 0.75, SerialSeconds: 0.25, DataSeconds: 0.5, Speedup: 7.27, Efficiency: 0.909, TimeToResultHours: 14.25, Fits: true, Bottleneck: "compute"},
		{GPUs: 16, StepSeconds: 6.5, ComputeSeconds: 5, CommSeconds: 1.25, SerialSeconds: 0.25, DataSeconds: 0.5, Speedup: 12.3, Efficiency: 0.769, TimeToResultHours: 8.1, Fits: true, Bottleneck: "communication"},
	}
	op.Bottleneck = "memory bandwidth"
	op.Serving = &model.Serving{GPUsPerReplica: 2, Batch: 64, ReplicasPeak: 4, ReplicasMean: 2,
		DecodeStepMS: 25.5, TokensPerSecond: 2509.8, RequestsPerSec: 3.2, LatencyMS: 4200, MemoryBound: true}

	r.Uncertainty = &model.Uncertainty{
		Draws: 1000, Seed: 18446744073709551615, Distribution: "pert",
		Inputs:           []string{"workload.runs_per_month", "workload.mfu", "options.hpc.queue_wait_hours (catalog)"},
		ProbNoneFeasible: 0.015,
	}
	for _, d := range r.Directions {
		c, h := d.CostHorizon, d.TimeToResultHours
		r.Uncertainty.Directions = append(r.Uncertainty.Directions, model.DirectionSpread{
			Direction: d.Direction,
			CostP10:   0.9 * c, CostP50: c, CostP90: 1.25 * c,
			TimeP10: 0.8 * h, TimeP50: h, TimeP90: 1.5 * h,
			ProbFeasible: 0.985, ProbDeadline: 0.75, ProbBudget: 1,
		})
	}
	r.Uncertainty.Directions[1].ProbCheapest = 0.2
	r.Uncertainty.Directions[2].ProbCheapest = 0.785

	// On-premises cost over the horizon, 6000 + 12 × (200 + runs × variable):
	//	runs 2 → 6000 + 12 × 306 = 9672; runs 6 → 6000 + 12 × 518 = 12 216
	//	mfu 0.3 → 160 GPU-h, variable 69   → 6000 + 12 × 476   = 11 712
	//	mfu 0.5 →  96 GPU-h, variable 43.4 → 6000 + 12 × 373.6 = 10 483.2
	base := op.CostHorizon
	r.Tornado = &model.Tornado{Metric: "cost_horizon", Direction: op.Direction, Base: base, Bars: []model.Bar{
		{Input: "workload.runs_per_month", Low: 9672, High: 12216, Swing: 2544},
		{Input: "workload.mfu", Low: 11712, High: 10483.2, Swing: 1228.8},
		{Input: "options.hpc.queue_wait_hours (catalog)", Low: base, High: base},
	}}

	r.Comparisons = &model.Comparisons{
		BreakEvenMonths: breakEvens(r),
		Utilisation:     &model.UtilisationBreakEven{Owned: scenario.OnPrem, Rented: scenario.Cloud, Utilisation: 0.4, Exists: true},
		Traffic: []model.TrafficBreakEven{
			{SelfHosted: scenario.Cloud, PerToken: scenario.Managed, MeanRPS: 12.5, Exists: true},
			{SelfHosted: scenario.OnPrem, PerToken: scenario.Managed},
		},
	}
}

// breakEvens is the break-even rule of model.compare (internal/model/
// compare.go): a, with the higher one-off cost and the lower monthly spend
// (by the model's cost identity), is cheaper than b from m = (one-off a −
// one-off b) ÷ (monthly b − monthly a), listed when 0 < m ≤ horizon.
func breakEvens(r *model.Report) []model.BreakEven {
	spend := func(d model.DirectionResult) float64 {
		var v costid.Values
		v[costid.MonthlyFixedCost], v[costid.RunsPerMonth], v[costid.VariableCostPerRun] = d.MonthlyFixedCost, r.Workload.RunsPerMonth, d.VariableCostPerRun
		return costid.Definition(costid.MonthlySpend).Eval(&v)
	}
	out := []model.BreakEven{}
	for _, a := range r.Directions {
		for _, b := range r.Directions {
			sa, sb := spend(a), spend(b)
			if a.Direction == b.Direction || a.OneOffCost <= b.OneOffCost || sa >= sb {
				continue
			}
			if m := (a.OneOffCost - b.OneOffCost) / (sb - sa); m > 0 && m <= float64(r.HorizonMonths) {
				out = append(out, model.BreakEven{Cheaper: a.Direction, Than: b.Direction, Month: m})
			}
		}
	}
	return out
}

// wantCells checks text cells of sheet.
func wantCells(t *testing.T, f *excelize.File, sheet string, want map[string]string) {
	t.Helper()
	for c, w := range want {
		if got, _ := f.GetCellValue(sheet, c); got != w {
			t.Errorf("%s!%s = %q, want %q", sheet, c, got, w)
		}
	}
}

// wantNums checks number cells of sheet, formulas included.
func wantNums(t *testing.T, f *excelize.File, sheet string, want map[string]float64) {
	t.Helper()
	for c, w := range want {
		if got := calc(t, f, sheet, c); !closeTo(got, w, relTol) {
			t.Errorf("%s!%s = %.10g, want %.10g", sheet, c, got, w)
		}
	}
}

// styleOf returns the style of a cell.
func styleOf(t *testing.T, f *excelize.File, sheet, c string) *excelize.Style {
	t.Helper()
	id, err := f.GetCellStyle(sheet, c)
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.GetStyle(id)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func numFormat(t *testing.T, f *excelize.File, sheet, c string) string {
	t.Helper()
	if st := styleOf(t, f, sheet, c); st.CustomNumFmt != nil {
		return *st.CustomNumFmt
	}
	return ""
}

func isBold(t *testing.T, f *excelize.File, sheet, c string) bool {
	t.Helper()
	st := styleOf(t, f, sheet, c)
	return st.Font != nil && st.Font.Bold
}

// noFormulas fails when sheet holds a formula: simulated and engine values
// must not look as if they recalculate.
func noFormulas(t *testing.T, f *excelize.File, sheet string) {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		for j := range row {
			if fo, _ := f.GetCellFormula(sheet, cell(j+1, i+1)); fo != "" {
				t.Errorf("%s!%s is a formula %q", sheet, cell(j+1, i+1), fo)
			}
		}
	}
}

func TestScalingSheet(t *testing.T) {
	r := analysedReport()
	f := mustWorkbook(t, testScenario(), r)
	const sh = sheetScaling
	// Managed (no plan) is listed last; cloud's block starts on row 4, its
	// table on row 8 with the points on rows 9–13; on-premises' serving
	// block follows a blank row, on row 15.
	wantCells(t, f, sh, map[string]string{
		"A4":  "Cloud IaaS — 8 × h100-80",
		"A5":  "Bottleneck",
		"B5":  "compute",
		"A6":  "Memory per GPU (GB)",
		"A7":  "Efficient up to (GPUs)",
		"A8":  "GPUs",
		"B8":  "Step (s)",
		"H8":  "Efficiency",
		"K8":  "Bottleneck",
		"J9":  "No",
		"K9":  "memory capacity",
		"J12": "Yes",
		"K13": "communication",
		"A15": "On-premises — 8 × h100-80",
		"A16": "Serving plan",
		"A17": "GPUs per replica",
		"A25": "Memory-bound",
		"B25": "Yes",
		"B26": "memory bandwidth",
		"A28": "Managed service: no GPU plan (a per-token service, or ruled out before sizing).",
	})
	wantNums(t, f, sh, map[string]float64{
		"B6": 61.5, "B7": 16,
		"A12": 8, "B12": 11, "C12": 10, "D12": 0.75, "E12": 0.25, "F12": 0.5, "G12": 7.27, "H12": 0.909, "I12": 14.25,
		"A13": 16, "H13": 0.769,
		"B17": 2, "B18": 64, "B19": 4, "B20": 2, "B21": 25.5, "B22": 2509.8, "B23": 3.2, "B24": 4200,
	})
	// The chosen count (8 GPUs) is bold, the others not.
	for _, c := range []string{"A12", "B12", "H12", "I12", "J12", "K12"} {
		if !isBold(t, f, sh, c) {
			t.Errorf("Scaling!%s of the chosen row is not bold", c)
		}
	}
	for _, c := range []string{"A11", "B11", "K11", "A13"} {
		if isBold(t, f, sh, c) {
			t.Errorf("Scaling!%s is bold, but 8 GPUs are chosen", c)
		}
	}
	if got := numFormat(t, f, sh, "H11"); got != fmtPercent {
		t.Errorf("efficiency format %q, want %q", got, fmtPercent)
	}
	noFormulas(t, f, sh)

	// A not-feasible direction says so in its title.
	r.Directions[1].Feasible = false
	g := mustWorkbook(t, testScenario(), r)
	wantCells(t, g, sh, map[string]string{"A4": "Cloud IaaS — 8 × h100-80 (not feasible)"})
}

func TestUncertaintySheet(t *testing.T) {
	r := analysedReport()
	f := mustWorkbook(t, testScenario(), r)
	const sh = sheetUncertainty
	wantCells(t, f, sh, map[string]string{
		"A1":  "Monte Carlo simulation: simulated values, not formulas",
		"B5":  "18446744073709551615", // text: more digits than a cell keeps
		"B6":  "pert",
		"A8":  "Sampled inputs",
		"A9":  "Runs per month (runs/month)",
		"B9":  "workload.runs_per_month",
		"A10": "Model FLOPs utilisation (fraction)",
		"A11": "Shared HPC: queue wait (hours), catalog estimate",
		"B11": "options.hpc.queue_wait_hours (catalog)",
		// Table header on row 13, directions from row 14 in report order.
		"A13": "Direction",
		"B13": "Cost over horizon P10 (EUR)",
		"H13": "Probability cheapest",
		"A14": "Managed service",
		"A15": "Cloud IaaS",
		"A16": "On-premises",
	})
	wantNums(t, f, sh, map[string]float64{
		"B4": 1000, "B7": 0.015,
		// Cloud: cost 14 040 × 0.9, 1, 1.25; time 14.25 × 0.8, 1, 1.5.
		"B15": 12636, "C15": 14040, "D15": 17550, "E15": 11.4, "F15": 14.25, "G15": 21.375,
		"H15": 0.2, "I15": 0.985, "J15": 0.75, "K15": 1,
		"H16": 0.785, "C16": 10944,
	})
	for _, c := range []string{"B7", "H15", "I15", "J15", "K15"} {
		if got := numFormat(t, f, sh, c); got != fmtPercent {
			t.Errorf("Uncertainty!%s format %q, want %q", c, got, fmtPercent)
		}
	}
	noFormulas(t, f, sh)
}

func TestSensitivitySheet(t *testing.T) {
	f := mustWorkbook(t, testScenario(), analysedReport())
	const sh = sheetSensitivity
	wantCells(t, f, sh, map[string]string{
		"B3": "Cost over the horizon (EUR)",
		"B4": "On-premises",
		"A7": "Input", "C7": "Value at low", "D7": "Value at high", "E7": "Swing",
		"F7": "At low − base", "G7": "At high − base",
		"A8": "Runs per month", "B8": "workload.runs_per_month",
		"A9": "Model FLOPs utilisation",
	})
	wantNums(t, f, sh, map[string]float64{
		"B5": 10944,
		"C8": 9672, "D8": 12216, "E8": 2544, "F8": -1272, "G8": 1272,
		"C9": 11712, "D9": 10483.2, "E9": 1228.8, "F9": 768, "G9": -460.8,
		"F10": 0, "G10": 0,
	})
	// The chart's series are formulas on the table: change a value, the bar follows.
	if fo, _ := f.GetCellFormula(sh, "F8"); fo != "C8-$B$5" {
		t.Errorf("Sensitivity!F8 = %q, want C8-$B$5", fo)
	}
	if err := f.SetCellFloat(sh, "D8", 13000, -1, 64); err != nil {
		t.Fatal(err)
	}
	wantNums(t, f, sh, map[string]float64{"G8": 13000 - 10944})
}

func TestComparisonsSheet(t *testing.T) {
	r := analysedReport()
	f := mustWorkbook(t, testScenario(), r)
	const sh = sheetComparisons
	wantCells(t, f, sh, map[string]string{
		"A4": "Cheaper", "D4": "From month (recalculated from Costs)",
		"A5": "Managed service", "B5": "Cloud IaaS", "C5": breakEvenNone,
		"A9": "On-premises", "B9": "Managed service",
		"A10": "On-premises", "B10": "Cloud IaaS",
		"A13": "Owned", "A14": "On-premises", "B14": "Cloud IaaS", "D14": "Yes",
		"A17": "Self-hosted",
		"A18": "Cloud IaaS", "B18": "Managed service", "D18": "Yes",
		"A19": "On-premises", "C19": "", "D19": "No",
	})
	if len(r.Comparisons.BreakEvenMonths) != 2 {
		t.Fatalf("break-even months %v, want two", r.Comparisons.BreakEvenMonths)
	}
	// Hand numbers from analysedReport; column D recalculates them from Costs.
	wantNums(t, f, sh, map[string]float64{
		"C9": 6000.0 / 1229, "D9": 6000.0 / 1229,
		"C10": 6000.0 / 758, "D10": 6000.0 / 758,
		"C14": 0.4, "C18": 12.5,
	})
	if got := numFormat(t, f, sh, "C14"); got != fmtPercent {
		t.Errorf("utilisation format %q, want %q", got, fmtPercent)
	}
	if got := numFormat(t, f, sh, "D10"); got != fmtMonths {
		t.Errorf("break-even month format %q, want %q", got, fmtMonths)
	}
	// The formula follows Costs: on-premises one-off 6000 → 7580 moves the
	// crossing with cloud to 7580 ÷ 758 = 10.
	if err := f.SetCellFloat(sheetCosts, cell(colOneOff, costRow(2)), 7580, -1, 64); err != nil {
		t.Fatal(err)
	}
	wantNums(t, f, sh, map[string]float64{"D10": 10})
	// Past the horizon (12 months): 7580 → 9854 crosses at month 13.
	if err := f.SetCellFloat(sheetCosts, cell(colOneOff, costRow(2)), 13*758, -1, 64); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.CalcCellValue(sh, "D10"); got != breakEvenBeyond {
		t.Errorf("Comparisons!D10 crossing at month 13 of 12 = %q, want %q", got, breakEvenBeyond)
	}
	// A monthly spend that is not lower never breaks even.
	if err := f.SetCellFloat(sheetCosts, cell(colFixed, costRow(2)), 5000, -1, 64); err != nil {
		t.Fatal(err)
	}
	if got, _ := f.CalcCellValue(sh, "D10"); got != breakEvenNone {
		t.Errorf("Comparisons!D10 with on-premises dearer each month = %q, want %q", got, breakEvenNone)
	}
}

// TestWithoutAnalysis: a report from model.Evaluate has no Monte Carlo,
// tornado or comparisons; the sheets say so and the workbook has only the
// Monthly chart.
func TestWithoutAnalysis(t *testing.T) {
	r := testReport()
	f := mustWorkbook(t, testScenario(), r)
	wantCells(t, f, sheetUncertainty, map[string]string{"A1": noUncertainty, "A2": ""})
	wantCells(t, f, sheetSensitivity, map[string]string{
		"A1": "Run with Monte Carlo (hostplan export uses it by default) to see which estimates move the cost most", "A2": "",
	})
	wantCells(t, f, sheetComparisons, map[string]string{"A3": "This report has no comparisons (made by a model before 0.3.0)."})
	wantCells(t, f, sheetScaling, map[string]string{
		"A4": "Managed service: no GPU plan (a per-token service, or ruled out before sizing).",
		"A6": "On-premises: no GPU plan (a per-token service, or ruled out before sizing).",
	})
	charts := chartsBySheet(t, f)
	if len(charts[sheetSensitivity]) != 0 || len(charts[sheetMonthly]) != 1 {
		t.Errorf("charts by sheet: %v, want the Monthly chart only", chartNames(charts))
	}

	// Empty comparisons and a tornado with no bars.
	r.Comparisons = &model.Comparisons{BreakEvenMonths: []model.BreakEven{}, Traffic: []model.TrafficBreakEven{}}
	r.Tornado = &model.Tornado{Metric: "cost_horizon", Direction: "cloud", Base: 14040, Bars: []model.Bar{}}
	g := mustWorkbook(t, testScenario(), r)
	wantCells(t, g, sheetComparisons, map[string]string{
		"C5":  breakEvenNone,
		"A14": "Needs both an on-premises and a cloud direction.",
		"A18": "Not an interactive-inference scenario, or no per-token service to compare with.",
	})
	wantCells(t, g, sheetSensitivity, map[string]string{"A8": "No input is an estimate: nothing to swing."})
	if n := len(chartsBySheet(t, g)[sheetSensitivity]); n != 0 {
		t.Errorf("%d charts on Sensitivity without bars, want none", n)
	}
}

func TestCharts(t *testing.T) {
	r := analysedReport()
	f := mustWorkbook(t, testScenario(), r)
	charts := chartsBySheet(t, f)
	if _, ok := charts[""]; ok {
		t.Fatal("a chart is not on any sheet")
	}

	monthly := charts[sheetMonthly]
	if len(monthly) != 1 {
		t.Fatalf("Monthly has %d charts, want 1 (all: %v)", len(monthly), chartNames(charts))
	}
	line := monthly[0]
	if !line.has("scatterChart") {
		t.Errorf("Monthly chart %s is not an XY chart", line.name)
	}
	// One series per direction, on the hidden chart data of every month
	// allowed (#N/A past the horizon, so the lines and the axis end there).
	line.refers(t,
		"Monthly!$AD$2:$AD$121",
		"Monthly!$AE$1", "Monthly!$AE$2:$AE$121",
		"Monthly!$AF$1", "Monthly!$AF$2:$AF$121",
		"Monthly!$AG$1", "Monthly!$AG$2:$AG$121",
	)

	sens := charts[sheetSensitivity]
	if len(sens) != 1 {
		t.Fatalf("Sensitivity has %d charts, want 1 (all: %v)", len(sens), chartNames(charts))
	}
	bar := sens[0]
	for elem, val := range map[string]string{
		"barDir":      "bar",       // horizontal bars
		"grouping":    "clustered", // the two series side by side …
		"overlap":     "100",       // … on the same line: a tornado
		"orientation": "maxMin",    // the category axis reversed: largest swing on top
		"varyColors":  "0",         // one colour per series
	} {
		if !slices.Contains(bar.vals[elem], val) {
			t.Errorf("Sensitivity chart %s: %s = %q, want %q among them", bar.name, elem, bar.vals[elem], val)
		}
	}
	bar.refers(t,
		"Sensitivity!$F$7", "Sensitivity!$F$8:$F$10",
		"Sensitivity!$G$7", "Sensitivity!$G$8:$G$10",
		"Sensitivity!$A$8:$A$10",
	)

	// A direction ruled out before it was costed draws no line.
	r.Directions[0].OtherCostPerRun = 0 // managed, not feasible: now costs nothing
	r.DeriveCosts()
	g := mustWorkbook(t, testScenario(), r)
	line = chartsBySheet(t, g)[sheetMonthly][0]
	if slices.Contains(line.refs, "Monthly!$AE$2:$AE$121") || !slices.Contains(line.refs, "Monthly!$AF$2:$AF$121") {
		t.Errorf("Monthly chart with managed at zero cost refers to %q, want cloud and on-premises only", line.refs)
	}
}

// chartPart is one chart of a saved workbook, read by element: the val
// attributes of each element, by local name, and every formula (<c:f>).
type chartPart struct {
	name string
	vals map[string][]string
	refs []string
}

func parseChart(t *testing.T, name, doc string) chartPart {
	t.Helper()
	c := chartPart{name: name, vals: map[string][]string{}}
	d := xml.NewDecoder(strings.NewReader(doc))
	inF := false
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return c
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			inF = tok.Name.Local == "f"
			c.vals[tok.Name.Local] = append(c.vals[tok.Name.Local], "")
			for _, a := range tok.Attr {
				if a.Name.Local == "val" {
					v := c.vals[tok.Name.Local]
					v[len(v)-1] = a.Value
				}
			}
		case xml.CharData:
			if inF {
				c.refs = append(c.refs, string(tok))
			}
		case xml.EndElement:
			inF = false
		}
	}
}

func (c chartPart) has(elem string) bool { return len(c.vals[elem]) > 0 }

// refers fails unless the chart's formulas include every ref.
func (c chartPart) refers(t *testing.T, refs ...string) {
	t.Helper()
	for _, r := range refs {
		if !slices.Contains(c.refs, r) {
			t.Errorf("chart %s does not refer to %s; it refers to %q", c.name, r, c.refs)
		}
	}
}

// chartsBySheet saves f and reads the package as Excel would: workbook →
// sheet → drawing → chart relationships. Charts no sheet refers to are
// listed under "".
func chartsBySheet(t *testing.T, f *excelize.File) map[string][]chartPart {
	t.Helper()
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.NewReader(bytes.NewReader(buf.Bytes()), int64(buf.Len()))
	if err != nil {
		t.Fatal(err)
	}
	parts := map[string]string{}
	for _, zf := range zr.File {
		rc, err := zf.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		parts[zf.Name] = string(b)
	}
	if _, ok := parts["xl/charts/chart1.xml"]; !ok {
		t.Fatal("no xl/charts/chart1.xml in the package")
	}

	type rel struct {
		ID     string `xml:"Id,attr"`
		Type   string `xml:"Type,attr"`
		Target string `xml:"Target,attr"`
	}
	// rels returns the targets of part's relationships of a type ending in
	// kind, as package paths.
	rels := func(part, kind string) map[string]string {
		dir, base := path.Split(part)
		var doc struct {
			Rels []rel `xml:"Relationship"`
		}
		if s, ok := parts[dir+"_rels/"+base+".rels"]; ok {
			if err := xml.Unmarshal([]byte(s), &doc); err != nil {
				t.Fatal(err)
			}
		}
		out := map[string]string{}
		for _, r := range doc.Rels {
			if strings.HasSuffix(r.Type, "/"+kind) {
				out[r.ID] = path.Clean(path.Join(dir, r.Target))
			}
		}
		return out
	}
	var wb struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			RID  string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := xml.Unmarshal([]byte(parts["xl/workbook.xml"]), &wb); err != nil {
		t.Fatal(err)
	}
	sheetParts := rels("xl/workbook.xml", "worksheet")
	out := map[string][]chartPart{}
	seen := map[string]bool{}
	for _, sh := range wb.Sheets {
		for _, drawing := range rels(sheetParts[sh.RID], "drawing") {
			for _, c := range rels(drawing, "chart") {
				out[sh.Name] = append(out[sh.Name], parseChart(t, c, parts[c]))
				seen[c] = true
			}
		}
	}
	for name, s := range parts {
		if strings.HasPrefix(name, "xl/charts/chart") && !seen[name] {
			out[""] = append(out[""], parseChart(t, name, s))
		}
	}
	return out
}

func chartNames(m map[string][]chartPart) map[string][]string {
	out := map[string][]string{}
	for sh, cs := range m {
		for _, c := range cs {
			out[sh] = append(out[sh], c.name)
		}
	}
	return out
}

func TestWrappedLines(t *testing.T) {
	for _, tc := range []struct {
		text  string
		width float64
		want  int
	}{
		{"Month", 8, 1},
		{"At high − base", 14, 1}, // 14 characters in 14
		{"Managed service (not feasible) cumulative (USD)", 18, 3}, // as LibreOffice shows it
		{"Cost over horizon P10 (EUR)", 16, 3},                     // "Cost over" / "horizon P10" / "(EUR)"
		{"abcdefghij", 4, 3},                                       // a long word breaks
	} {
		if got := wrappedLines(tc.text, tc.width); got != tc.want {
			t.Errorf("wrappedLines(%q, %g) = %d, want %d", tc.text, tc.width, got, tc.want)
		}
	}
}
