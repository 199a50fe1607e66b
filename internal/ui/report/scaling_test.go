package report

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/uitest"
)

// fineTuningScaled and chatScaled are uitest's fine-tuning job and chat
// service with the performance figures of uitest.AddScaling: scaling
// curves, checkpoint plans and a serving plan.
func fineTuningScaled() (*scenario.Scenario, *model.Report) {
	s, r := uitest.FineTuning()
	_, chat := uitest.Chat()
	uitest.AddScaling(r, chat)
	return s, r
}

func chatScaled() (*scenario.Scenario, *model.Report) {
	_, ft := uitest.FineTuning()
	s, r := uitest.Chat()
	uitest.AddScaling(ft, r)
	return s, r
}

// scalingOf shows the Scaling tab of the report fixture gives, in a window
// the size of the pane, the recommended direction's rows in bold as the
// window has them.
func scalingOf(t *testing.T, fixture func() (*scenario.Scenario, *model.Report)) (*Scaling, fyne.Window) {
	t.Helper()
	s, r := fixture()
	v := NewScaling()
	w := showIn(t, v.Content())
	v.Set(r, recommended(t, s, r))
	return v, w
}

// The Scaling tab shows each direction that runs on GPUs, the efficiency
// of the ones with a curve as a chart, and the chosen direction's curve as
// a table, its chosen count in bold.
func TestScaling(t *testing.T) {
	test.NewTempApp(t)
	v, w := scalingOf(t, fineTuningScaled)

	// Summary: every direction with a GPU (managed has none), in the
	// report's order.
	wantSummary := [][numSummaryColumns]string{
		{"Cloud IaaS", "8 × h100-sxm", "Compute", "41.2", "16", "0.85 of 2 GB/s\nstaging 1.5 h", "4.2 min every 2.3 h\n6.1 % overhead", NoValue},
		{"On-premises", "16 × l40s", "Communication", "38.5", "16", "0.42 of 10 GB/s", NoValue, NoValue},
		{"Shared HPC", "4 × a100-80gb", "Queue", "62.5", NoValue, NoValue, "12 min each\n3 wall-time jobs", NoValue},
		{"Hybrid", "8 × h100-sxm", NoValue, NoValue, NoValue, NoValue, NoValue, NoValue},
	}
	if len(uitest.DrawnRows(v.summary)) != len(wantSummary) {
		t.Fatalf("summary has %d rows, want %d", len(uitest.DrawnRows(v.summary)), len(wantSummary))
	}
	for i, want := range wantSummary {
		var got [numSummaryColumns]string
		for col := range got {
			got[col] = uitest.DrawnCell(v.summary, i, col)
		}
		if got != want {
			t.Errorf("summary row %d:\n got %q\nwant %q", i, got, want)
		}
	}
	for i, row := range uitest.DrawnRows(v.summary) {
		if row.Bold != (i == 3) {
			t.Errorf("summary row %d bold %v; want only the recommended direction (hybrid) in bold", i, row.Bold)
		}
	}

	// Chart: every direction in the legend, a line for each with a curve,
	// every point on it; the others say why they have none.
	if got := v.chart.SeriesCount(); got != 5 {
		t.Fatalf("chart has %d series, want all 5 directions", got)
	}
	if got := v.chart.PlottedCount(); got != 2 {
		t.Fatalf("chart draws %d lines, want 2 (cloud, on-premises)", got)
	}
	for i := 1; i <= 2; i++ {
		if got := v.chart.PointCount(i); got != 6 {
			t.Errorf("series %d has %d points, want 6", i, got)
		}
	}
	if got, want := v.chart.LegendLabel(0), "Managed service (no curve: a per-token service, not sized by GPUs)"; got != want {
		t.Errorf("managed's legend = %q, want %q", got, want)
	}
	if got := v.chart.MaxGPUs(); got != 32 {
		t.Errorf("x axis ends at %d GPUs, want 32", got)
	}
	if !v.chart.Visible() || v.servingNote.Visible() {
		t.Errorf("chart visible %v, serving note visible %v; want the chart only", v.chart.Visible(), v.servingNote.Visible())
	}

	// Selector: the cheapest direction first; its chosen row in bold.
	if want := []string{"Cloud IaaS", "On-premises"}; !slices.Equal(v.selector.Options, want) {
		t.Errorf("selector options = %q, want %q", v.selector.Options, want)
	}
	if got := v.selector.Selected; got != "Cloud IaaS" {
		t.Errorf("selected %q, want the cheapest, Cloud IaaS", got)
	}
	wantCloud := [][numCurveColumns]string{
		{"1", "80", "1", "100 %", "50.7", "Compute"},
		{"2", "40.4", "1.98", "99 %", "25.6", "Compute"},
		{"4", "20.6", "3.88", "97 %", "13.1", "Compute"},
		{"8 (chosen)", "10.8", "7.41", "93 %", "6.8", "Compute"},
		{"16", "6.25", "12.8", "80 %", "4.0", "Communication"},
		{"32", "4.4", "18.2", "57 %", "2.8", "Communication"},
	}
	checkCurve(t, v, wantCloud, 3)
	want := "Calibrated from the trial: σ 0.012, κ 0.00031, R² 0.991, peak at N_max 56.4 GPUs."
	if got := v.calibration.Text; got != want || !v.calibration.Visible() {
		t.Errorf("calibration = %q (visible %v), want %q shown", got, v.calibration.Visible(), want)
	}

	// Switching the selector switches the table; on-premises has no trial.
	v.selector.SetSelected("On-premises")
	wantOnPrem := [][numCurveColumns]string{
		{"1", "300", "1", "100 %", "190", "Memory capacity — does not fit"},
		{"2", "151", "1.99", "99 %", "95.6", "Memory capacity — does not fit"},
		{"4", "76", "3.95", "99 %", "48.1", "Compute"},
		{"8", "39", "7.69", "96 %", "24.7", "Compute"},
		{"16 (chosen)", "21.4", "14", "88 %", "13.6", "Communication"},
		{"32", "14.2", "21.1", "66 %", "9.0", "Communication"},
	}
	checkCurve(t, v, wantOnPrem, 4)
	for i, row := range uitest.DrawnRows(v.detail) {
		if fits := i >= 2; (row.Danger == curveBottleneck) == fits {
			t.Errorf("on-premises row %d: danger column %d, want the bottleneck marked only where it does not fit", i, row.Danger)
		}
	}
	if v.calibration.Visible() {
		t.Errorf("calibration %q shown for a direction without a trial", v.calibration.Text)
	}

	// What the tab draws.
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Per direction", "Efficient", "Communication", "70 % threshold", "Efficiency (%)", "GPUs (log scale)", "does not fit GPU memory", "16 (chosen)", "Memory capacity — does not fit"} {
		if !strings.Contains(markup, want) {
			t.Errorf("the tab does not show %q", want)
		}
	}
}

// checkCurve compares the scaling table with want, row chosen in bold.
func checkCurve(t *testing.T, v *Scaling, want [][numCurveColumns]string, chosen int) {
	t.Helper()
	if len(uitest.DrawnRows(v.detail)) != len(want) {
		t.Fatalf("scaling table has %d rows, want %d", len(uitest.DrawnRows(v.detail)), len(want))
	}
	for i, w := range want {
		var got [numCurveColumns]string
		for col := range got {
			got[col] = uitest.DrawnCell(v.detail, i, col)
		}
		if got != w {
			t.Errorf("%s row %d:\n got %q\nwant %q", v.selector.Selected, i, got, w)
		}
		if bold := uitest.DrawnRows(v.detail)[i].Bold; bold != (i == chosen) {
			t.Errorf("%s row %d bold = %v, want %v", v.selector.Selected, i, bold, i == chosen)
		}
	}
}

// An interactive service, sized by replicas, shows its serving plan in
// place of the chart and the curve; shown a training report again, the
// tab brings them back.
func TestScalingInteractive(t *testing.T) {
	test.NewTempApp(t)
	v, w := scalingOf(t, chatScaled)

	if v.chart.Visible() || v.detail.Box.Visible() {
		t.Error("chart or scaling table shown for an interactive service")
	}
	if got := v.chart.SeriesCount(); got != 0 {
		t.Errorf("chart has %d series, want 0", got)
	}
	if !v.servingNote.Visible() || !v.servingGrid.Box.Visible() {
		t.Fatal("serving section hidden for an interactive service")
	}
	if !strings.HasPrefix(v.servingNote.Text, "Serving is sized by replicas, not by scaling one job") {
		t.Errorf("note = %q", v.servingNote.Text)
	}
	if len(uitest.DrawnRows(v.summary)) != 1 {
		t.Fatalf("summary has %d rows, want 1 (cloud)", len(uitest.DrawnRows(v.summary)))
	}
	if got, want := uitest.DrawnCell(v.summary, 0, sumServing), "2 GPUs/replica\nbatch 141\nreplicas 2 peak, 1 mean\n6,371 ms latency"; got != want {
		t.Errorf("serving cell = %q, want %q", got, want)
	}
	if got, want := uitest.DrawnCell(v.summary, 0, sumBottleneck), "Memory bandwidth"; got != want {
		t.Errorf("bottleneck = %q, want %q", got, want)
	}
	wantServing := []string{"Cloud IaaS", "2", "141", "2 / 1", "20.9", "6,752", "6.6", "6,371", "Memory bandwidth"}
	if len(uitest.DrawnRows(v.servingGrid)) != 1 || !slices.Equal(uitest.DrawnRows(v.servingGrid)[0].Cells, wantServing) {
		t.Errorf("serving table = %v, want one row %q", uitest.DrawnRows(v.servingGrid), wantServing)
	}
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Serving is sized by replicas", "Output tokens/s", "Memory bandwidth"} {
		if !strings.Contains(markup, want) {
			t.Errorf("the tab does not show %q", want)
		}
	}

	// Back to the training report: the chart returns and the note goes.
	s, r := fineTuningScaled()
	v.Set(r, recommended(t, s, r))
	if got := v.chart.PlottedCount(); got != 2 {
		t.Errorf("chart draws %d lines after switching back, want 2", got)
	}
	if !v.chart.Visible() || v.servingNote.Visible() {
		t.Errorf("chart visible %v, serving note visible %v after switching back", v.chart.Visible(), v.servingNote.Visible())
	}
}

// A report without GPUs (only per-token services, or the old model's
// reports) shows a sentence instead of an empty table.
func TestScalingWithoutGPUs(t *testing.T) {
	test.NewTempApp(t)
	v, _ := scalingOf(t, uitest.Chat) // nothing has a GPU

	if v.summary.Box.Visible() || !v.noGPUs.Visible() {
		t.Errorf("summary visible %v, no-GPU message visible %v", v.summary.Box.Visible(), v.noGPUs.Visible())
	}
	if v.chart.Visible() || v.noCurves.Visible() {
		t.Error("chart or no-curve message shown for a service without GPUs")
	}
	if !v.servingNote.Visible() {
		t.Error("an interactive report should still say how serving is sized")
	}
}

func TestScalingCellText(t *testing.T) {
	for _, tc := range []struct {
		name, got, want string
	}{
		{"data path", dataPathText(&model.DataPath{StagingHours: 0.28, NeededGBs: 0.0021763, AvailableGBs: 2}), "0.00218 of 2 GB/s\nstaging 0.28 h"},
		{"no data path", dataPathText(nil), NoValue},
		{"spot", checkpointText(&model.Interruptions{MTBIHours: 91, CheckpointMinutes: 3.14159, IntervalHours: 2.7, OverheadFraction: 0.0456, WallTimeChunks: 1}), "3.14 min every 2.7 h\n4.6 % overhead"},
		{"hpc one job", checkpointText(&model.Interruptions{CheckpointMinutes: 0.0347, WallTimeChunks: 1}), "0.0347 min each\n1 wall-time job"},
		{"hpc 25 jobs", checkpointText(&model.Interruptions{CheckpointMinutes: 11.6, WallTimeChunks: 25}), "11.6 min each\n25 wall-time jobs"},
		{"no checkpoints", checkpointText(nil), NoValue},
		{"no serving", servingText(nil), NoValue},
		{"pipeline", layoutText(model.DirectionResult{Layout: &model.Layout{Tensor: 1, Pipeline: 8, Data: 8, MicroBatches: 128, Bubble: 7.0 / 135}}), "\nTP 1 × PP 8 × DP 8\nbubble 5 %"},
		{"tensor parallel serving", layoutText(model.DirectionResult{Serving: &model.Serving{}, Layout: &model.Layout{Tensor: 8, Pipeline: 2, Data: 3, MicroBatches: 1}}), "\nTP 8 × PP 2 a replica"},
		{"data parallel only", layoutText(model.DirectionResult{Layout: &model.Layout{Tensor: 1, Pipeline: 1, Data: 8, MicroBatches: 4}}), ""},
		{"calibration without peak", calibrationText(&model.Calibration{Sigma: 0.05, Kappa: 0, R2: 0.9876}), "Calibrated from the trial: σ 0.05, κ 0, R² 0.988, no peak (κ = 0)."},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %q, want %q", tc.name, tc.got, tc.want)
		}
	}
}

// A report whose directions have GPUs but no curves (as the old model's
// reports) says so under the summary.
func TestScalingWithoutCurves(t *testing.T) {
	test.NewTempApp(t)
	v, _ := scalingOf(t, uitest.FineTuning)

	if len(uitest.DrawnRows(v.summary)) != 4 || !v.noCurves.Visible() {
		t.Errorf("summary rows %d, no-curve message visible %v; want 4 and shown", len(uitest.DrawnRows(v.summary)), v.noCurves.Visible())
	}
	if v.chart.Visible() || v.servingNote.Visible() {
		t.Errorf("chart visible %v, serving note visible %v; want neither", v.chart.Visible(), v.servingNote.Visible())
	}
}
