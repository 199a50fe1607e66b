package report

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"hostplan/internal/decide"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/uitest"
)

// The panel shows each weight as given and as a share of the five, closed
// as one line of the shares; opened, it marks on a slider where the
// recommendation changes and says so under it. A weight that differs from
// the saved one is said to, and Reset hands the saved weights back.
func TestWeights(t *testing.T) {
	test.NewTempApp(t)
	s, r := uitest.FineTuning()
	d, err := decide.Decide(s, r)
	if err != nil {
		t.Fatal(err)
	}
	p := NewWeights()
	var changes [][5]float64
	settled := 0
	w := showIn(t, p.Content())
	p.OnChange = func(w [5]float64) { changes = append(changes, w) }
	p.OnSettled = func() { settled++ }
	p.OnOpen = func(bool) { w.Content().Refresh() } // as the Report tab lays its page out again
	saved := s.Dimensions.Weights()
	p.Set(saved, saved, d)

	if got, want := p.given[0].Text, "0.3"; got != want || p.Given(0) != want {
		t.Errorf("sovereignty given = %q, want %q", got, want)
	}
	if got, want := p.norm[0].Text, "30 %"; got != want {
		t.Errorf("sovereignty normalised = %q, want %q", got, want)
	}
	// Closed, the panel is one line with the shares; its heading opens it.
	if p.detail.Visible() || p.Open() || !strings.Contains(p.summary.Text, "Sovereignty 30 %") {
		t.Errorf("closed at first: sliders shown %v, summary %q", p.detail.Visible(), p.summary.Text)
	}
	test.Tap(p.ToggleButton())
	if !p.Open() {
		t.Fatal("the heading does not open the sliders")
	}
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Weights", "Given", "Normalised"} {
		if !strings.Contains(markup, want) {
			t.Errorf("the panel does not show %q", want)
		}
	}

	sw := d.Switches()[0]
	if sw.Dimension != "sovereignty" || sw.Below == nil {
		t.Fatalf("sovereignty switch = %+v, want one below the given weight", sw)
	}
	leader := DirectionName(d, sw.Below.Leader)
	if len(p.marks[0].positions(p.sliders[0].Size().Width)) == 0 {
		t.Fatal("no mark drawn on the sovereignty slider")
	}
	if !strings.Contains(p.switches[0].Text, "elow "+present.Figure(sw.Below.At)+" "+leader+" leads") || p.Switch(0) != p.switches[0].Text {
		t.Errorf("switch text %q does not say where %s takes the lead (%v)", p.switches[0].Text, leader, sw.Below.At)
	}
	if strings.Contains(p.Note(), "Changed") || !p.ResetButton().Disabled() {
		t.Errorf("note %q, reset disabled %v before a move", p.Note(), p.ResetButton().Disabled())
	}

	// The window decides again on a move and shows the new weights.
	moved := saved
	moved[0] = sw.Below.At - 0.03
	s.Dimensions.SetWeights(moved)
	d2, err := decide.Decide(s, r)
	if err != nil {
		t.Fatal(err)
	}
	p.Update(moved, d2)
	if !strings.Contains(p.Note(), "Changed from the saved weights") || p.ResetButton().Disabled() {
		t.Errorf("note %q, reset disabled %v after a move", p.Note(), p.ResetButton().Disabled())
	}
	if !strings.HasPrefix(p.summary.Text, "changed, not saved: ") {
		t.Errorf("summary after a move %q", p.summary.Text)
	}
	test.Tap(p.ResetButton())
	if len(changes) != 1 || changes[0] != saved || settled != 1 {
		t.Errorf("reset reported %v (settled %d times), want the saved %v once", changes, settled, saved)
	}
	if got := p.Slider(0).Value; got != saved[0] {
		t.Errorf("after reset the slider is at %v, want %v", got, saved[0])
	}
}

// The sliders reach well past the largest weight, and the line under a
// slider says where the lead changes, or that it does not.
func TestSwitchTextAndTop(t *testing.T) {
	if got := sliderTop([5]float64{0.1, 0.2, 0.35, 0.2, 0.15}); got != 1 {
		t.Errorf("top for weights under 0.5 = %v, want 1", got)
	}
	if got := sliderTop([5]float64{1, 2, 3, 4, 6}); got != 20 {
		t.Errorf("top for weights up to 6 = %v, want 20", got)
	}
	d := &decide.Decision{Recommendation: scenario.Cloud, Ranking: []string{scenario.Cloud, scenario.Hybrid},
		Directions: []decide.Direction{{Direction: scenario.Cloud, Title: "Cloud IaaS"}, {Direction: scenario.Hybrid, Title: "Hybrid"}}}
	got := switchText(d, decide.WeightSwitch{Above: &decide.Switch{At: 1.4, Leader: scenario.Hybrid}}, 1)
	if want := "Above 1.4 Hybrid leads (past the end of the slider)."; got != want {
		t.Errorf("switch text = %q, want %q", got, want)
	}
	if got := switchText(d, decide.WeightSwitch{}, 1); got != "Cloud IaaS stays first at any value of this weight." {
		t.Errorf("no switch: %q", got)
	}
}
