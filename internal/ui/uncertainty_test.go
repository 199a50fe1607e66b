package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"hostplan/internal/ui/report"
	"hostplan/internal/ui/uitest"
)

// withUncertainty adds the hand-built Monte Carlo spread and tornado of
// uitest.AddUncertainty to the fine-tuning report of newFakeBackend.
func withUncertainty(b *fakeBackend) *fakeBackend {
	uitest.AddUncertainty(b.reports["ft-7b"])
	return b
}

func openUncertaintyTab(t *testing.T, p *planner, i int) *report.Uncertainty {
	t.Helper()
	p.scenarios.list.Select(i)
	waitFor(t, p.view, stateReady)
	settle(t, p) // the spread lands after the report
	selectTab(t, p.view.tabs, "Uncertainty")
	return p.view.uncertainty
}

// The tab shows the spread of the chosen scenario once it lands: the
// report's, with the ranges the scenario gives the sampled inputs and the
// recommended direction's row in bold. What the tab shows of a report is
// tested in package report (TestUncertainty).
func TestUncertaintyTab(t *testing.T) {
	w, p := openWindow(t, withUncertainty(newFakeBackend()))
	v := openUncertaintyTab(t, p, 0)

	if msg := v.Message(); msg != "" {
		t.Errorf("the tab says %q over a report with a spread", msg)
	}
	rows := uitest.DrawnRows(v.Spread())
	if len(rows) != 5 {
		t.Fatalf("spread has %d rows, want 5", len(rows))
	}
	for i, row := range rows {
		if row.Bold != (i == 4) {
			t.Errorf("row %d bold %v; want only the recommended direction (hybrid) in bold", i, row.Bold)
		}
	}
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Spread over the draws", "Sampled inputs", "Chance", "cheapest", "Meets", "deadline",
		"Tokens per run (billions): 1.5–3, likely 2", // the scenario's range
		"Sensitivity of Cloud IaaS's cost over the horizon"} {
		if !strings.Contains(markup, want) {
			t.Errorf("window does not show %q", want)
		}
	}
}

// A report without a spread says so once its analysis lands, in place of
// the line that the spread is being drawn.
func TestUncertaintyTabWithoutSpread(t *testing.T) {
	_, p := openWindow(t, newFakeBackend()) // reports without Uncertainty
	v := openUncertaintyTab(t, p, 0)
	if got, want := v.Message(), "This report has no Monte Carlo spread: it was evaluated with the likely value of every estimate only."; got != want {
		t.Errorf("the tab says %q, want %q", got, want)
	}
}
