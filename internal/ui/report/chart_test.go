package report

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/chart"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/uitest"
)

// Lines that coincide are told apart, a direction ruled out is marked,
// one without a curve is named with why, and the cost chart's axes are
// amounts and months.
func TestChartTellsLinesApart(t *testing.T) {
	test.NewTempApp(t)
	curve := []model.ScalingPoint{{GPUs: 1, Efficiency: 1, Fits: true}, {GPUs: 2, Efficiency: 0.9, Fits: true}, {GPUs: 4, Efficiency: 0.8, Fits: true}}
	c := NewEfficiencyChart()
	c.SetSeries(ChartSeriesOf([]model.DirectionResult{
		{Direction: scenario.Managed, Title: "Managed service", Feasible: true},
		{Direction: scenario.Cloud, Title: "Cloud IaaS", Feasible: true, GPU: "h100", GPUs: 4, Scaling: curve},
		{Direction: scenario.HPC, Title: "Shared HPC", GPU: "a100", GPUs: 2, Scaling: curve[:2]},
		{Direction: scenario.Hybrid, Title: "Hybrid", Feasible: true, GPU: "h100", GPUs: 4, Scaling: curve},
	}))
	want := []string{
		"Managed service (no curve: a per-token service, not sized by GPUs)",
		"Cloud IaaS",
		"Shared HPC (ruled out)",
		"Hybrid, same line as Cloud IaaS",
	}
	for i, w := range want {
		if got := c.LegendLabel(i); got != w {
			t.Errorf("legend %d = %q, want %q", i, got, w)
		}
	}
	if c.series[1].mark == c.series[3].mark {
		t.Error("cloud and hybrid share a marker shape")
	}
	test.WidgetRenderer(c).Layout(fyne.NewSize(800, 400))
	texts := uitest.ChartTexts(c)
	for _, w := range append(want, "chosen GPU count", "GPUs (log scale)", "100 %") {
		if !slices.Contains(texts, w) {
			t.Errorf("the chart does not draw %q (it draws %q)", w, texts)
		}
	}

	cost := NewLineChart(ChartAxes{xTitle: "Month", yTitle: "Cumulative cost (USD)", months: true})
	cost.SetSeries([]ChartSeries{{name: "Cloud IaaS", sameAs: -1, points: []ChartPoint{{x: 0, y: 0, fits: true}, {x: 12, y: 1.2e6, fits: true}, {x: 24, y: 2.3e6, fits: true}}}})
	test.WidgetRenderer(cost).Layout(fyne.NewSize(800, 400))
	texts = uitest.ChartTexts(cost)
	for _, w := range []string{"0", "0.5 M", "2.5 M", "Month", "6", "24", "Cumulative cost (USD)"} {
		if !slices.Contains(texts, w) {
			t.Errorf("the cost chart does not draw %q (it draws %q)", w, texts)
		}
	}
}

// The chart survives sizes too small to plot in and an empty
func TestEfficiencyChartSmall(t *testing.T) {
	test.NewTempApp(t)
	c := NewEfficiencyChart()
	c.SetThreshold(0.7)
	for _, s := range []fyne.Size{{}, {Width: 30, Height: 30}, ChartMinSize} {
		test.WidgetRenderer(c).Layout(s)
	}
	c.SetSeries(ChartSeriesOf([]model.DirectionResult{{Direction: "mystery", Feasible: true, GPUs: 3,
		Scaling: []model.ScalingPoint{{GPUs: 3, Efficiency: 1, Fits: true}}}}))
	test.WidgetRenderer(c).Layout(ChartMinSize)
	if got := c.MaxGPUs(); got != 4 {
		t.Errorf("x axis for 3 GPUs ends at %d, want 4", got)
	}
	if got, want := c.series[0].colour, chart.Colour("mystery"); got != want {
		t.Errorf("unknown direction colour = %v, want the spare colour %v", got, want)
	}
	for _, d := range scenario.Directions {
		if chart.Colour(d) == chart.Colour("mystery") {
			t.Errorf("%s has the spare colour", d)
		}
	}
}

func TestBarLabels(t *testing.T) {
	for _, tc := range []struct {
		name string
		bar  model.Bar
		want []string
	}{
		{"spans the base", model.Bar{Low: 90, High: 130}, []string{"90.00", "130"}},
		{"falls as the input rises", model.Bar{Low: 130, High: 90}, []string{"90.00", "130"}},
		{"both above", model.Bar{Low: 110, High: 130}, []string{"low 110 · high 130"}},
		{"no change", model.Bar{Low: 100, High: 100}, []string{"no change"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := BarLabels(tc.bar, 100); !slices.Equal(got, tc.want) {
				t.Errorf("barLabels = %q, want %q", got, tc.want)
			}
		})
	}
}

// The badge draws its words, naming the weights that flip the order; a
// lead that survives the robustness check by less than decide.CloseLead
// (decide's verdict "close") is CLOSE, with the lead; the colour only
// repeats the words.
func TestBadgeText(t *testing.T) {
	test.NewTempApp(t)
	b := NewBadge()
	runnerUp := func(gap float64) *decide.RunnerUp { return &decide.RunnerUp{Direction: scenario.Cloud, Gap: gap} }
	for _, tc := range []struct {
		d    decide.Decision
		want string
	}{
		{decide.Decision{Recommendation: scenario.Hybrid, RunnerUp: runnerUp(0.2),
			Robustness: decide.Robustness{Verdict: decide.Fragile, Fragile: true, FlippedBy: []string{"economics -20 %"}}}, "FRAGILE · economics -20 %"},
		{decide.Decision{Recommendation: scenario.Hybrid, RunnerUp: runnerUp(0.2),
			Robustness: decide.Robustness{Verdict: decide.Fragile, Fragile: true, FlippedBy: []string{"economics -20 %", "sovereignty +20 %", "operations +20 %"}}},
			"FRAGILE · economics -20 %, sovereignty +20 % and 1 more"},
		{decide.Decision{Recommendation: scenario.Hybrid, RunnerUp: runnerUp(0.2), Robustness: decide.Robustness{Verdict: decide.Robust}}, "ROBUST"},
		{decide.Decision{Recommendation: scenario.Hybrid, Robustness: decide.Robustness{Verdict: decide.Robust}}, "ROBUST"}, // the only feasible one
		{decide.Decision{Recommendation: scenario.Hybrid, RunnerUp: runnerUp(0.016), Robustness: decide.Robustness{Verdict: decide.Close}}, "CLOSE · lead 0.016"},
	} {
		b.Set(&tc.d)
		if got := uitest.ChartTexts(b); len(got) != 1 || got[0] != tc.want {
			t.Errorf("%+v: badge draws %q, want %q", tc.d.Robustness, got, tc.want)
		}
	}
	d := decide.Decision{Recommendation: scenario.Hybrid, RunnerUp: runnerUp(0.016),
		Robustness: decide.Robustness{Verdict: decide.Close, Summary: "Hybrid leads Cloud IaaS by only 0.016 of 1; no single weight moved by ±20 % reorders them, but a lead this small turns on small differences in the scores."}}
	if head, text := RobustnessParts(&d); head != "Close: " || text != d.Robustness.Summary {
		t.Errorf("a small lead reads %q%q; the window should say what decide says", head, text)
	}
}
