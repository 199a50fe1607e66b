package report

import (
	"strings"
	"testing"

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
	s, err := scenario.Load("../../../scenarios/constrained-snapshot-training.json")
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
	p := NewDecisionPanel()
	p.Set(r, d, nil)

	if got, want := p.Headline(), "Recommended: Hybrid"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	if !p.headline.badge.Visible() || p.headline.badge.Text() != "ROBUST" {
		t.Errorf("badge = %q (visible %v), want ROBUST shown", p.headline.badge.Text(), p.headline.badge.Visible())
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
	rows := QuestionRows(d)
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
	r, d := uitest.FragileDecision()
	p := NewDecisionPanel()
	p.Set(r, d, nil)

	if want := "FRAGILE · economics -20 %"; !p.headline.badge.Visible() || p.headline.badge.Text() != want {
		t.Errorf("badge = %q (visible %v), want %q shown", p.headline.badge.Text(), p.headline.badge.Visible(), want)
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
	p.Set(r, d, nil)
	if body := uitest.SegmentTexts(p.body.Segments); !strings.Contains(body, "moves by 10 %: economics") {
		t.Errorf("panel does not read the decision's perturbation:\n%s", body)
	}
}

// Without a decision (decide refuses the chat service: all five weights
// are zero) the panel says why in place of it: no badge, no reasons, no
// questions.
func TestDecisionPanelWithoutDecision(t *testing.T) {
	test.NewTempApp(t)
	s, r := uitest.Chat()
	d, err := decide.Decide(s, r)
	if err == nil {
		t.Fatalf("the chat service is decided: %+v", d)
	}
	p := NewDecisionPanel()
	p.Set(r, d, err)
	if got, want := p.Headline(), "No recommendation"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	if want := "Could not rank the directions: all five weights are zero (dimensions.*.weight)"; p.failure.Text != want || !p.failure.Visible() || p.Failure() != want {
		t.Errorf("failure = %q (visible %v), want %q", p.failure.Text, p.failure.Visible(), want)
	}
	if p.headline.badge.Visible() || p.body.Visible() || p.questions.Visible() {
		t.Error("badge, reasons or questions shown without a decision")
	}

	// Decided again, the failure goes.
	_, r, d = constrainedDecision(t)
	p.Set(r, d, nil)
	if p.failure.Visible() || p.Failure() != "" {
		t.Errorf("failure line still shown: %q", p.failure.Text)
	}
	if !p.headline.badge.Visible() || !p.body.Visible() || !p.questions.Visible() {
		t.Error("badge, reasons or questions hidden with a decision")
	}
}
