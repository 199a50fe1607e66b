package ui

import (
	"strings"
	"testing"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2/test"

	"hostplan/internal/catalog"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/uitest"
)

// constrainedDecision evaluates the seed's constrained example from disk
// with the embedded catalog and decides on it: the source records must stay
// on-premises and only an approved snapshot may leave, so hybrid is the
// one feasible direction (decide's ExampleDecide).
func constrainedDecision(t *testing.T) (*scenario.Scenario, *model.Report, *decide.Decision) {
	t.Helper()
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	r, err := model.Evaluate(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	d, err := decide.Decide(s, r)
	if err != nil {
		t.Fatal(err)
	}
	return s, r, d
}

func TestDecisionPanelConstrained(t *testing.T) {
	test.NewTempApp(t)
	_, r, d := constrainedDecision(t)
	p := newDecisionPanel()
	p.set(r, d, nil)

	if got, want := p.headline.Text, "Recommended: Hybrid"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	if !p.badge.Visible() || p.badge.Text() != "ROBUST" {
		t.Errorf("badge = %q (visible %v), want ROBUST shown", p.badge.Text(), p.badge.Visible())
	}
	if p.failure.Visible() {
		t.Errorf("failure line shown: %q", p.failure.Text)
	}
	body := uitest.SegmentTexts(p.body.Segments)
	for _, want := range []string{
		"Why Hybrid: ", "Hybrid is the only direction that meets every constraint",
		"Robust: ", "only one direction is feasible",
		"First trial: ", "2 × h100-sxm on Hybrid, throughput measured at 1, 2 GPUs",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("panel text lacks %q:\n%s", want, body)
		}
	}
	if strings.Contains(body, "Runner-up") {
		t.Errorf("a runner-up is named with one feasible direction:\n%s", body)
	}

	// One question per direction, in the report's order; the four ruled
	// out say so, and hybrid's is its bottleneck's.
	rows := report.QuestionRows(d)
	if len(rows) != 5 {
		t.Fatalf("%d question rows, want 5", len(rows))
	}
	for i, want := range []struct {
		direction, bottleneck string
		recommended           bool
	}{
		{"Managed service", "Ruled out", false},
		{"Cloud IaaS", "Ruled out", false},
		{"On-premises", "Ruled out", false},
		{"Shared HPC", "Ruled out", false},
		{"Hybrid", "Compute", true},
	} {
		q := rows[i]
		if q.Direction != want.direction || q.Bottleneck != want.bottleneck || q.Recommended != want.recommended || q.Question == "" {
			t.Errorf("question row %d = %+v, want %+v with a question", i, q, want)
		}
	}
	if got, want := rows[4].Question, decide.BottleneckQuestion("compute"); got != want {
		t.Errorf("hybrid's question = %q, want %q", got, want)
	}
	if got := uitest.LabelTexts(p.questions); !strings.Contains(got, "First infrastructure question") || !strings.Contains(got, rows[0].Question) {
		t.Errorf("questions table shows:\n%s", got)
	}
}

// A decision whose order one weight can flip shows FRAGILE and names the
// weight.
func TestDecisionPanelFragile(t *testing.T) {
	test.NewTempApp(t)
	r, d := fragileDecision()
	p := newDecisionPanel()
	p.set(r, d, nil)

	if want := "FRAGILE · economics -20 %"; !p.badge.Visible() || p.badge.Text() != want {
		t.Errorf("badge = %q (visible %v), want %q shown", p.badge.Text(), p.badge.Visible(), want)
	}
	if got, want := p.scores.Text, "Scores (of 1): Cloud IaaS 0.61 · On-premises 0.59"; got != want {
		t.Errorf("scores = %q, want %q", got, want)
	}
	body := uitest.SegmentTexts(p.body.Segments)
	for _, want := range []string{
		"Why Cloud IaaS: ", "it leads On-premises by 0.020 of 1, gained on",
		"Economics: 0.90 against 0.70 at weight 0.40 (+0.080)",
		"Runner-up: ", "would draw level if the economics weight fell from 0.4 to 0.33",
		"Fragile: ", "the order changes if one weight moves by 20 %: economics -20 % puts On-premises first.",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("panel text lacks %q:\n%s", want, body)
		}
	}

	// The perturbation is the decision's, not the window's.
	d.Robustness.Perturbation = 0.1
	p.set(r, d, nil)
	if body := uitest.SegmentTexts(p.body.Segments); !strings.Contains(body, "moves by 10 %: economics") {
		t.Errorf("panel does not read the decision's perturbation:\n%s", body)
	}
}

// fragileDecision is a hand-built decision whose order one weight flips:
// cloud leads on-premises by 0.02, and 20 % less weight on economics puts
// on-premises first.
func fragileDecision() (*model.Report, *decide.Decision) {
	r := &model.Report{ScenarioID: "x", Currency: "EUR", HorizonMonths: 36, Directions: []model.DirectionResult{
		{Direction: scenario.Cloud, Title: "Cloud IaaS", Feasible: true},
		{Direction: scenario.OnPrem, Title: "On-premises", Feasible: true},
	}}
	d := &decide.Decision{
		ScenarioID: "x", Recommendation: scenario.Cloud, Ranking: []string{scenario.Cloud, scenario.OnPrem},
		Directions: []decide.Direction{
			{Direction: scenario.Cloud, Title: "Cloud IaaS", Feasible: true, Rank: 1, Total: 0.61, Bottleneck: "compute", Question: "Q-cloud"},
			{Direction: scenario.OnPrem, Title: "On-premises", Feasible: true, Rank: 2, Total: 0.59, Bottleneck: "data path", Question: "Q-onprem"},
		},
		WhyWinner: []decide.Lead{{Dimension: "economics", Winner: 0.9, RunnerUp: 0.7, Weight: 0.4, Lead: 0.08}},
		RunnerUp:  &decide.RunnerUp{Direction: scenario.OnPrem, Gap: 0.02, Summary: "On-premises (0.020 behind) would draw level if the economics weight fell from 0.4 to 0.33."},
		Robustness: decide.Robustness{Verdict: decide.Fragile, Fragile: true, Perturbation: 0.2, FlippedBy: []string{"economics -20 %"},
			Summary: "economics -20 % puts On-premises first."},
	}
	return r, d
}

// The window decides in the evaluating goroutine: a scenario decide
// refuses (the chat service has all five weights at zero) shows why in
// place of the decision, with the report still there; the other one is
// decided.
func TestWindowShowsDecision(t *testing.T) {
	w, p := openWindow(t, newFakeBackend())

	p.scenarios.list.Select(1)
	waitFor(t, p.view, stateReady)
	dp := p.view.decision
	if got, want := dp.headline.Text, "No recommendation"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	if want := "Could not rank the directions: all five weights are zero (dimensions.*.weight)"; dp.failure.Text != want || !dp.failure.Visible() {
		t.Errorf("failure = %q (visible %v), want %q", dp.failure.Text, dp.failure.Visible(), want)
	}
	if dp.badge.Visible() || dp.body.Visible() || dp.questions.Visible() {
		t.Error("badge, reasons or questions shown without a decision")
	}
	if n := len(drawnCells(p.view.report)); n != 5 {
		t.Errorf("report table has %d rows after a failed decision, want 5", n)
	}

	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)
	if got, want := dp.headline.Text, "Recommended: Hybrid"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	if dp.failure.Visible() {
		t.Errorf("failure line still shown: %q", dp.failure.Text)
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
	if got, want := p.view.decision.headline.Text, "Recommended: Hybrid"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	settle(t, p) // the spread lands after the report
	if p.view.current.r.Uncertainty == nil || p.view.uncertainty.Message() != "" {
		t.Error("the real report has no Monte Carlo spread on the Uncertainty tab")
	}
}
