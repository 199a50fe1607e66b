package ui

import (
	"math"
	"path/filepath"
	"strings"
	"testing"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/app"
	"hostplan/internal/present"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// tapWeight taps slider i of the weights panel where it puts value v, as
// a user clicks on the track, first opening the panel when it is closed.
func tapWeight(p *report.Weights, i int, v float64) {
	if !p.Open() {
		test.Tap(p.ToggleButton())
	}
	s := p.Slider(i)
	test.TapAt(s, s.PositionOf(v))
}

// boldRow is the index of the report table's row in bold, -1 for none.
func boldRow(t *report.Table) int {
	for i, r := range t.Rows() {
		if r.Cells[0].TextStyle.Bold { // the direction's cell
			return i
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

	if got := v.decision.Headline(); got != "Recommended: Hybrid" {
		t.Fatalf("headline before = %q", got)
	}
	if got := boldRow(v.report); got != 4 {
		t.Fatalf("bold row before = %d, want 4 (hybrid)", got)
	}
	// What the panel shows of a decision (the shares, the marks, the line
	// when closed) is tested in package report (TestWeights).
	if got, want := wp.Given(0), "0.3"; got != want {
		t.Errorf("sovereignty given = %q, want %q", got, want)
	}
	// Closed, the panel is one line; its heading opens it.
	if wp.Open() {
		t.Error("the sliders are shown at first")
	}
	test.Tap(wp.ToggleButton())
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
	leader := report.DirectionName(v.current.dec, sw.Below.Leader)
	if !strings.Contains(wp.Switch(0), "elow "+present.Figure(sw.Below.At)+" "+leader+" leads") {
		t.Errorf("switch text %q does not say where %s takes the lead (%v)", wp.Switch(0), leader, sw.Below.At)
	}

	// Short of the mark: the same winner.
	tapWeight(wp, 0, sw.Below.At+0.03)
	if got := v.decision.Headline(); got != "Recommended: Hybrid" {
		t.Errorf("headline short of the mark = %q, want Hybrid still", got)
	}
	if !v.live.dirty() || !v.live.mark.Visible() || v.live.save.Disabled() {
		t.Errorf("a slider move is not an unsaved edit: dirty %v, marked %v, Save disabled %v",
			v.live.dirty(), v.live.mark.Visible(), v.live.save.Disabled())
	}
	// Past it: the direction the mark names.
	tapWeight(wp, 0, sw.Below.At-0.03)
	if got, want := v.decision.Headline(), "Recommended: "+leader; got != want {
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
	if !strings.Contains(wp.Note(), "Changed from the saved weights") || wp.ResetButton().Disabled() {
		t.Errorf("note %q, reset disabled %v after a move", wp.Note(), wp.ResetButton().Disabled())
	}
	settle(t, p) // the brief, written again when the move ended
	ws := v.current.s.Dimensions.Weights()
	share := present.Fixed(ws[0]/(ws[0]+ws[1]+ws[2]+ws[3]+ws[4]), 2) // the brief quotes normalised weights
	if !strings.Contains(string(v.brief.markdown), "Weights: Sovereignty "+share+",") {
		t.Errorf("the brief does not quote the moved weight (normalised %s)", share)
	}

	test.Tap(wp.ResetButton())
	if got := v.decision.Headline(); got != "Recommended: Hybrid" {
		t.Errorf("headline after reset = %q, want Hybrid", got)
	}
	if got := v.current.s.Dimensions.Weights(); got != b.scenarios["ft-7b"].Dimensions.Weights() {
		t.Errorf("weights after reset %v", got)
	}
	if v.live.dirty() || v.live.mark.Visible() || strings.Contains(w.Title(), "unsaved") {
		t.Errorf("after reset: dirty %v, marked %v, title %q", v.live.dirty(), v.live.mark.Visible(), w.Title())
	}
}

// A slider move is saved like any edit: Save with a note writes a new
// revision holding the moved weight, which the store gives back; the
// marker goes, the panel counts the new weights as saved, and returning
// to the scenario shows them. Discard puts the saved weights back.
func TestSliderEditSaved(t *testing.T) {
	pl := openPlanner(t, "qlora-legal-70b")
	w, p := openWindow(t, NewBackend(pl))
	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)
	settled(t, p)
	v, wp := p.view, p.view.weights
	before, _, err := pl.Load("qlora-legal-70b")
	if err != nil {
		t.Fatal(err)
	}
	revs := len(history(t, pl, "qlora-legal-70b"))

	tapWeight(wp, 3, 0.8) // economics
	moved := v.current.s.Dimensions.Economics.Weight
	if math.Abs(moved-0.8) > 0.02 || moved == before.Dimensions.Economics.Weight {
		t.Fatalf("economics weight %v after the move, stored %v", moved, before.Dimensions.Economics.Weight)
	}
	if !v.live.mark.Visible() || !strings.Contains(w.Title(), "unsaved") {
		t.Fatalf("no unsaved marker after a move (title %q)", w.Title())
	}
	if got := v.live.work.Dimensions.Economics.Weight; got != moved {
		t.Errorf("the edited inputs hold %v, the sliders %v", got, moved)
	}
	test.Tap(v.live.save)
	note := overlay[*widgets.KeyEntry](p)
	if note == nil {
		t.Fatal("Save asked for no note")
	}
	test.Type(note, "economics counts more")
	note.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settled(t, p)

	h := history(t, pl, "qlora-legal-70b")
	if len(h) != revs+1 || h[len(h)-1].Note != "economics counts more" {
		t.Fatalf("history after the save: %d revisions (from %d), last %+v", len(h), revs, h[len(h)-1])
	}
	stored, _, err := pl.Load("qlora-legal-70b")
	if err != nil {
		t.Fatal(err)
	}
	if got := stored.Dimensions.Weights(); got != v.current.s.Dimensions.Weights() || got[3] != moved {
		t.Errorf("stored weights %v, on screen %v", got, v.current.s.Dimensions.Weights())
	}
	if v.live.mark.Visible() || strings.Contains(w.Title(), "unsaved") || !wp.ResetButton().Disabled() {
		t.Errorf("after the save: marked %v, title %q, reset enabled %v", v.live.mark.Visible(), w.Title(), !wp.ResetButton().Disabled())
	}

	// Reopened from the store, the scenario shows the saved weights.
	it, _ := p.scenarios.item("qlora-legal-70b")
	if it.Revisions != revs+1 {
		t.Errorf("the list shows revision %d, want %d", it.Revisions, revs+1)
	}
	v.cache = newReportCache(reportCacheSize) // from the store, not the cache
	v.show(it)
	waitFor(t, v, stateReady)
	settled(t, p)
	if got := wp.Given(3); got != present.Figure(moved) {
		t.Errorf("reopened, economics shows %q, want %q", got, present.Figure(moved))
	}

	// Another move, discarded: the saved weights come back.
	tapWeight(wp, 3, 0.1)
	if !v.live.mark.Visible() {
		t.Fatal("no unsaved marker after the second move")
	}
	test.Tap(v.live.discard)
	settled(t, p)
	if got := v.current.s.Dimensions.Economics.Weight; got != moved {
		t.Errorf("after discard the weight is %v, want the saved %v", got, moved)
	}
	if got := wp.Slider(3).Value; math.Abs(got-moved) > 1e-9 {
		t.Errorf("after discard the slider is at %v, want %v", got, moved)
	}
	if v.live.mark.Visible() || !wp.ResetButton().Disabled() {
		t.Errorf("after discard: marked %v, reset enabled %v", v.live.mark.Visible(), !wp.ResetButton().Disabled())
	}
}

// history is the lineage of scenario id in the planner's store.
func history(t *testing.T, pl *app.Planner, id string) []scenario.Revision {
	t.Helper()
	h, err := pl.History(id)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// With the form open, a slider move shows in the weight's field and
// evaluates nothing (the weights change no figure of the report); a move
// while an edit's evaluation is pending starts it again, so the report
// that lands carries both the edit and the moved weight.
func TestSliderMoveShowsInForm(t *testing.T) {
	b := newFakeBackend()
	_, p := openWindow(t, b)
	f := openForm(t, p, 0)
	settled(t, p)
	v := p.view
	n := b.evaluations()
	tapWeight(v.weights, 0, 0.6)
	got := v.current.s.Dimensions.Sovereignty.Weight
	if text := field(t, f, "dimensions.sovereignty.weight").entries()[0].Text; text != num.Format(got) {
		t.Errorf("the form shows sovereignty %q, the slider %v", text, got)
	}
	settled(t, p)
	if b.evaluations() != n {
		t.Errorf("a slider move evaluated the scenario %d times", b.evaluations()-n)
	}

	deadline := field(t, f, "workload.deadline_hours").entries()[0]
	retype(deadline, "50")
	if !v.live.running {
		t.Fatal("no evaluation pending after typing")
	}
	tapWeight(v.weights, 0, 0.2)
	moved := v.current.s.Dimensions.Sovereignty.Weight
	settled(t, p)
	if got := v.current.s; got.Dimensions.Sovereignty.Weight != moved || got.Workload.DeadlineHours.Likely != 50 {
		t.Errorf("the report that landed is of sovereignty %v (want %v), deadline %v", got.Dimensions.Sovereignty.Weight, moved, got.Workload.DeadlineHours)
	}
	if got := v.weights.Slider(0).Value; math.Abs(got-moved) > 1e-9 {
		t.Errorf("the slider went back to %v", got)
	}
}

// At 1280 × 800 the report table shows without scrolling down to the
// recommended direction's row: the weights are one line until opened, and
// each direction's first question comes under the table. Opening the
// weights is kept in the store's settings for the next session.
func TestReportTableAboveTheFold(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostplan.db")
	pl, err := app.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	w, p := openWindow(t, NewBackend(pl))
	w.Resize(fyne.NewSize(1280, 800))
	if !p.scenarios.selectID("qlora-legal-70b") {
		t.Fatal("no qlora-legal-70b")
	}
	waitFor(t, p.view, stateReady)
	settled(t, p)
	v := p.view
	row := boldRow(v.report)
	if row < 0 {
		t.Fatal("no row in bold")
	}
	cell := v.report.Rows()[row].Cells[0] // the direction's
	bottom := v.report.Content().Position().Y + cell.Position().Y + cell.Size().Height
	if view := v.reportScroll.Size().Height; v.reportScroll.Offset.Y != 0 || bottom > view {
		t.Errorf("the recommended row ends %v down the page, past the %v shown", bottom, view)
	}
	if v.weights.Open() || v.decision.After().Position().Y < v.report.Content().Position().Y {
		t.Errorf("sliders shown %v; the questions at %v, the table at %v", v.weights.Open(),
			v.decision.After().Position().Y, v.report.Content().Position().Y)
	}

	test.Tap(v.weights.ToggleButton())
	settle(t, p)
	if got, ok, _ := pl.Setting(settingWeights); !ok || got != "open" {
		t.Errorf("opening the weights stored %q, %v", got, ok)
	}
}

// Moving one slider changes that weight alone: a weight finer than the
// slider's step (economics at 0.005 beside sovereignty at 1) stays as it
// is when sovereignty moves; a weight moved to 0 shows as 0 in the form,
// the weight being a given number, not "not given".
func TestSliderMovesOnlyItsWeight(t *testing.T) {
	b := newFakeBackend()
	s := b.scenarios["ft-7b"]
	s.Dimensions.SetWeights([5]float64{1, 0.2, 0.2, 0.005, 0.1})
	_, p := openWindow(t, b)
	f := openForm(t, p, 0)
	settled(t, p)
	v := p.view
	tapWeight(v.weights, 0, 0.7)
	got := v.current.s.Dimensions.Weights()
	if math.Abs(got[0]-0.7) > 0.02 {
		t.Errorf("sovereignty moved to %v, want about 0.7", got[0])
	}
	if want := [4]float64{0.2, 0.2, 0.005, 0.1}; [4]float64(got[1:]) != want {
		t.Errorf("moving sovereignty changed the other weights to %v, want %v", got[1:], want)
	}
	if got := v.live.work.Dimensions.Economics.Weight; got != 0.005 {
		t.Errorf("the edited inputs hold economics %v, want 0.005", got)
	}
	econ := field(t, f, "dimensions.economics.weight").entries()[0]
	if econ.Text != "0.005" {
		t.Errorf("the form shows economics %q, want 0.005", econ.Text)
	}

	tapWeight(v.weights, 3, 0)
	if got := v.current.s.Dimensions.Economics.Weight; got != 0 {
		t.Fatalf("economics at the slider's left end is %v, want 0", got)
	}
	if econ.Text != "0" {
		t.Errorf("the form shows economics at 0 as %q, want \"0\"", econ.Text)
	}
	if got := v.weights.Given(3); got != "0" {
		t.Errorf("the panel shows economics at 0 as %q", got)
	}
	if got := v.current.s.Dimensions.Sovereignty.Weight; math.Abs(got-0.7) > 0.02 {
		t.Errorf("moving economics moved sovereignty to %v", got)
	}
}
