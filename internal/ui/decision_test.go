package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// The window decides in the evaluating goroutine: a scenario decide
// refuses (the chat service has all five weights at zero) shows why in
// place of the decision, with the report still there; the other one is
// decided.
func TestWindowShowsDecision(t *testing.T) {
	w, p := openWindow(t, newFakeBackend())

	p.scenarios.list.Select(1)
	waitFor(t, p.view, stateReady)
	// What the panel hides without a decision is tested in package
	// report (TestDecisionPanelWithoutDecision).
	dp := p.view.decision
	if got, want := dp.Headline(), "No recommendation"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	if got, want := dp.Failure(), "Could not rank the directions: all five weights are zero (dimensions.*.weight)"; got != want {
		t.Errorf("failure = %q, want %q", got, want)
	}
	if n := len(drawnCells(p.view.report)); n != 5 {
		t.Errorf("report table has %d rows after a failed decision, want 5", n)
	}

	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)
	if got, want := dp.Headline(), "Recommended: Hybrid"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	if got := dp.Failure(); got != "" {
		t.Errorf("failure line still shown: %q", got)
	}
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Recommended: Hybrid", "Runner-up: ", "First infrastructure question", "Cost and feasibility per direction"} {
		if !strings.Contains(markup, want) {
			t.Errorf("window does not show %q", want)
		}
	}
}

// With the real model behind the window, the constrained example is
// decided for hybrid and its report carries the Monte Carlo spread.
func TestWindowRealDecision(t *testing.T) {
	_, p := openWindow(t, newRealBackend(t, "constrained-snapshot-training"))
	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)
	if got, want := p.view.decision.Headline(), "Recommended: Hybrid"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	settle(t, p) // the spread lands after the report
	if p.view.current.r.Uncertainty == nil || p.view.uncertainty.Message() != "" {
		t.Error("the real report has no Monte Carlo spread on the Uncertainty tab")
	}
}
