package ui

import (
	"math"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/decide"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// tapWeight taps slider i of the weights panel where it puts value v, as
// a user clicks on the track.
func tapWeight(p *weightsPanel, i int, v float64) {
	s := p.sliders[i]
	test.TapAt(s, fyne.NewPos(s.xOf(v, s.Size().Width), s.Size().Height/2))
}

// boldRow is the index of the report table's row in bold, -1 for none.
func boldRow(t *reportTable) int {
	cells, _ := t.box.Layout.(*gridLayout).split(t.box.Objects)
	for i := numColumns; i < len(cells); i += numColumns {
		if cells[i].(*widget.Label).TextStyle.Bold {
			return i/numColumns - 1
		}
	}
	return -1
}

// A slider move re-ranks at once: moving the sovereignty weight past the
// mark on its slider hands the recommendation to the direction the mark
// names, in the header, the decision and the table's highlighted row;
// short of the mark nothing changes. The move is an unsaved edit of the
// shown scenario, not of the stored one, and Reset puts it back.
func TestSliderMoveChangesRanking(t *testing.T) {
	b := newFakeBackend()
	w, p := openWindow(t, b)
	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)
	v := p.view
	wp := v.weights

	if got := v.decision.headline.Text; got != "Recommended: Hybrid" {
		t.Fatalf("headline before = %q", got)
	}
	if got := boldRow(v.report); got != 4 {
		t.Fatalf("bold row before = %d, want 4 (hybrid)", got)
	}
	if got, want := wp.given[0].Text, "0.3"; got != want {
		t.Errorf("sovereignty given = %q, want %q", got, want)
	}
	if got, want := wp.norm[0].Text, "30 %"; got != want {
		t.Errorf("sovereignty normalised = %q, want %q", got, want)
	}
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Weights", "Given", "Normalised"} {
		if !strings.Contains(markup, want) {
			t.Errorf("the window does not show %q", want)
		}
	}

	sw := v.current.dec.Switches()[0]
	if sw.Dimension != "sovereignty" || sw.Below == nil {
		t.Fatalf("sovereignty switch = %+v, want one below the given weight", sw)
	}
	leader := directionName(v.current.dec, sw.Below.Leader)
	if len(wp.marks[0].positions(wp.sliders[0].Size().Width)) == 0 {
		t.Fatal("no mark drawn on the sovereignty slider")
	}
	if !strings.Contains(wp.switches[0].Text, "elow "+present.Figure(sw.Below.At)+" "+leader+" leads") {
		t.Errorf("switch text %q does not say where %s takes the lead (%v)", wp.switches[0].Text, leader, sw.Below.At)
	}

	// Short of the mark: the same winner.
	tapWeight(wp, 0, sw.Below.At+0.03)
	if got := v.decision.headline.Text; got != "Recommended: Hybrid" {
		t.Errorf("headline short of the mark = %q, want Hybrid still", got)
	}
	if !v.dirty {
		t.Error("a slider move is not marked as an unsaved edit")
	}
	// Past it: the direction the mark names.
	tapWeight(wp, 0, sw.Below.At-0.03)
	if got, want := v.decision.headline.Text, "Recommended: "+leader; got != want {
		t.Errorf("headline past the mark = %q, want %q", got, want)
	}
	if got := v.current.dec.Ranking[0]; got != sw.Below.Leader {
		t.Errorf("ranking starts with %s, want %s", got, sw.Below.Leader)
	}
	want := -1
	for i, d := range v.current.r.Directions {
		if d.Direction == sw.Below.Leader {
			want = i
		}
	}
	if got := boldRow(v.report); got != want {
		t.Errorf("bold row = %d, want %d (%s)", got, want, leader)
	}
	if got := v.current.s.Dimensions.Sovereignty.Weight; math.Abs(got-(sw.Below.At-0.03)) > 0.01 {
		t.Errorf("the shown scenario's sovereignty weight is %v, want about %v", got, sw.Below.At-0.03)
	}
	if got := b.scenarios["ft-7b"].Dimensions.Sovereignty.Weight; got != 0.3 {
		t.Errorf("the stored scenario's weight changed to %v", got)
	}
	if !strings.Contains(wp.note.Text, "Changed from the saved weights") || wp.reset.Disabled() {
		t.Errorf("note %q, reset disabled %v after a move", wp.note.Text, wp.reset.Disabled())
	}
	settle(t, p) // the brief, written again when the move ended
	ws := v.current.s.Dimensions.Weights()
	share := present.Fixed(ws[0]/(ws[0]+ws[1]+ws[2]+ws[3]+ws[4]), 2) // the brief quotes normalised weights
	if !strings.Contains(string(v.brief.markdown), "Weights: Sovereignty "+share+",") {
		t.Errorf("the brief does not quote the moved weight (normalised %s)", share)
	}

	test.Tap(wp.reset)
	if got := v.decision.headline.Text; got != "Recommended: Hybrid" {
		t.Errorf("headline after reset = %q, want Hybrid", got)
	}
	if got := v.current.s.Dimensions.Weights(); got != b.scenarios["ft-7b"].Dimensions.Weights() {
		t.Errorf("weights after reset %v", got)
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
