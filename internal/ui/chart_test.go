package ui

import (
	"slices"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Lines that coincide are told apart, a direction ruled out is marked,
// one without a curve is named with why, and the cost chart's axes are
// amounts and months.
func TestChartTellsLinesApart(t *testing.T) {
	test.NewTempApp(t)
	curve := []model.ScalingPoint{{GPUs: 1, Efficiency: 1, Fits: true}, {GPUs: 2, Efficiency: 0.9, Fits: true}, {GPUs: 4, Efficiency: 0.8, Fits: true}}
	c := newEfficiencyChart()
	c.setSeries(chartSeriesOf([]model.DirectionResult{
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
		if got := c.legendLabel(i); got != w {
			t.Errorf("legend %d = %q, want %q", i, got, w)
		}
	}
	if c.series[1].mark == c.series[3].mark {
		t.Error("cloud and hybrid share a marker shape")
	}
	test.WidgetRenderer(c).Layout(fyne.NewSize(800, 400))
	texts := chartTexts(c)
	for _, w := range append(want, "chosen GPU count", "GPUs (log scale)", "100 %") {
		if !slices.Contains(texts, w) {
			t.Errorf("the chart does not draw %q (it draws %q)", w, texts)
		}
	}

	cost := newLineChart(chartAxes{xTitle: "Month", yTitle: "Cumulative cost (USD)", months: true})
	cost.setSeries([]chartSeries{{name: "Cloud IaaS", sameAs: -1, points: []chartPoint{{x: 0, y: 0, fits: true}, {x: 12, y: 1.2e6, fits: true}, {x: 24, y: 2.3e6, fits: true}}}})
	test.WidgetRenderer(cost).Layout(fyne.NewSize(800, 400))
	texts = chartTexts(cost)
	for _, w := range []string{"0", "0.5 M", "2.5 M", "Month", "6", "24", "Cumulative cost (USD)"} {
		if !slices.Contains(texts, w) {
			t.Errorf("the cost chart does not draw %q (it draws %q)", w, texts)
		}
	}
}
