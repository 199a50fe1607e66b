package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/brief"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/form"
	"hostplan/internal/ui/uitest"
)

// An invalid field shows its problem beneath it and the report on screen
// stays that of the last valid inputs; fixing it brings the report up to
// date.
func TestInvalidFieldKeepsReport(t *testing.T) {
	_, p := openWindow(t, newRealBackend(t, "qlora-legal-70b"))
	f := openForm(t, p, 0)
	v := p.view
	good := v.current
	volume := field(t, f, "data.volume_gb")

	retype(volume.entries()[0], "12o")
	settled(t, p)
	if !(volume.Problem() != "") || !strings.Contains(volume.Problem(), "“12o” is not a number") {
		t.Errorf("problem beneath the field: %q (shown %v)", volume.Problem(), (volume.Problem() != ""))
	}
	if v.current != good || v.currentState() != stateReady {
		t.Error("the report changed while the text is not a number")
	}

	retype(volume.entries()[0], "-5")
	settled(t, p)
	if !(volume.Problem() != "") || !strings.Contains(volume.Problem(), "-5 is out of range") {
		t.Errorf("problem beneath the field: %q", volume.Problem())
	}
	if v.current != good {
		t.Error("the report changed for an invalid scenario")
	}
	if v.live.status.Importance != widget.DangerImportance || !strings.Contains(v.live.status.Text, "last valid inputs") {
		t.Errorf("status %q", v.live.status.Text)
	}
	if !strings.Contains(sectionTitle(f, 3), "1 problem") {
		t.Errorf("section title %q does not count the problem", sectionTitle(f, 3))
	}

	// An estimate out of order is named by the field, the report kept.
	mfu := field(t, f, "workload.mfu")
	mfu.selectOf().SetSelected(form.ModeEstimate)
	for i, x := range []string{"0.5", "0.4", "0.3"} {
		retype(mfu.entries()[i], x)
	}
	settled(t, p)
	if !strings.Contains(mfu.Problem(), "out of order") || v.current != good {
		t.Errorf("mfu problem %q, report kept %v", mfu.Problem(), v.current == good)
	}
	for i, x := range []string{"0.3", "0.4", "0.5"} {
		retype(mfu.entries()[i], x)
	}
	retype(volume.entries()[0], "150")
	settled(t, p)
	if (volume.Problem() != "") || (mfu.Problem() != "") || v.current == good {
		t.Errorf("after fixing: problems %q %q, report updated %v", volume.Problem(), mfu.Problem(), v.current != good)
	}
	if !v.live.work.Workload.MFU.IsEstimate() || v.current.s.Data.VolumeGB.Likely != 150 {
		t.Errorf("evaluated %+v", v.current.s.Workload.MFU)
	}
}

// Choosing another scenario with unsaved form edits asks first: keeping
// them stays on the scenario, discarding goes on and saves nothing.
func TestUnsavedPromptForFormEdits(t *testing.T) {
	b := newFakeBackend()
	w, p := openWindow(t, b)
	f := openForm(t, p, 0)
	retype(field(t, f, "purpose.owner").entries()[0], "Claims platform team")
	settled(t, p)
	if !p.view.live.mark.Visible() || w.Title() != "Fine-tune 7B on claims notes • unsaved — hostplan" {
		t.Fatalf("unsaved edits not marked: title %q", w.Title())
	}

	p.scenarios.list.Select(1)
	l := p.prompt()
	if l == nil {
		t.Fatal("choosing another scenario with unsaved edits did not ask")
	}
	if !strings.Contains(l.text.Text, "unsaved changes to the inputs") {
		t.Errorf("prompt %q", l.text.Text)
	}
	test.Tap(l.keep)
	settled(t, p)
	if p.view.shownID() != "ft-7b" || p.view.live.work.Purpose.Owner != "Claims platform team" {
		t.Errorf("keeping the edits shows %q with owner %q", p.view.shownID(), p.view.live.work.Purpose.Owner)
	}

	// Closing the window asks too.
	p.requestClose()
	if l := p.prompt(); l == nil {
		t.Fatal("closing the window with unsaved edits did not ask")
	} else {
		test.Tap(l.keep)
	}

	p.scenarios.list.Select(1)
	test.Tap(p.prompt().discard)
	waitShown(t, p, "chat")
	if len(b.saved()) != 0 || strings.Contains(w.Title(), "unsaved") {
		t.Errorf("discarding saved %d revisions; title %q", len(b.saved()), w.Title())
	}
	p.scenarios.list.Select(0)
	waitShown(t, p, "ft-7b")
	if p.prompt() != nil {
		t.Error("asked again after discarding")
	}
	if got := field(t, p.view.live.form, "purpose.owner").entries()[0].Text; got != "Head of Claims Analytics" {
		t.Errorf("owner after discarding %q", got)
	}

	// Save and go on saves the edits with the note, then shows the next.
	retype(field(t, p.view.live.form, "purpose.owner").entries()[0], "Claims platform team")
	p.scenarios.list.Select(1)
	l = p.prompt()
	test.Type(l.note, "owner changed")
	test.Tap(l.save)
	waitShown(t, p, "chat")
	saves := b.saved()
	if len(saves) != 1 || saves[0].note != "owner changed" || saves[0].s.Purpose.Owner != "Claims platform team" {
		t.Errorf("saves %+v", saves)
	}
}

// Checklist edits count as unsaved too: choosing another scenario asks,
// and "Save and go on" stores them before going on.
func TestUnsavedPromptForChecklistEdits(t *testing.T) {
	b := newChecklistStore()
	w, p := openWindow(t, b)
	v := openChecklistTab(t, p, 0)
	i := rowIndex(t, v, v.entries[0].ID)
	v.rows[i].status.SetSelected("done")
	if !p.view.live.mark.Visible() || !strings.Contains(w.Title(), "unsaved") {
		t.Fatal("checklist edits not marked unsaved")
	}

	p.scenarios.list.Select(1)
	l := p.prompt()
	if l == nil {
		t.Fatal("choosing another scenario with checklist edits did not ask")
	}
	if !strings.Contains(l.text.Text, "the checklist") || l.note != nil {
		t.Errorf("prompt %q (note field %v)", l.text.Text, l.note != nil)
	}
	test.Tap(l.keep)
	if p.view.shownID() != "ft-7b" || !v.dirty() {
		t.Fatal("keeping the checklist edits lost them")
	}

	p.scenarios.list.Select(1)
	test.Tap(p.prompt().save)
	waitShown(t, p, "chat")
	saves := b.saves()
	if len(saves) != 1 || saves[0].id != "ft-7b" || saves[0].st[v.entries[0].ID].Status != brief.StatusDone {
		t.Errorf("checklist saves %+v", saves)
	}
	if strings.Contains(w.Title(), "unsaved") {
		t.Errorf("title %q after saving", w.Title())
	}
}

// Returning to a scenario shows its report at once from the cache,
// without evaluating it again; a new revision is evaluated.
func TestReportsCachedPerRevision(t *testing.T) {
	b := newFakeBackend()
	_, p := openWindow(t, b)
	p.scenarios.list.Select(0)
	waitShown(t, p, "ft-7b")
	settled(t, p) // the report, then its spread
	p.scenarios.list.Select(1)
	waitShown(t, p, "chat")
	settled(t, p)
	n := b.evaluations()

	p.scenarios.list.Select(0)
	if p.view.body.Visible() != true || p.view.shownID() != "ft-7b" {
		t.Error("returning to a scenario blanked the pane")
	}
	settled(t, p)
	if got := b.evaluations(); got != n {
		t.Errorf("%d evaluations after returning, want %d", got, n)
	}
}

// Typing evaluates once the typing pauses, and a later edit cancels the
// evaluation an earlier one started.
func TestEditsDebouncedAndSuperseded(t *testing.T) {
	b := newFakeBackend()
	_, p := openWindow(t, b)
	f := openForm(t, p, 0)
	n := b.evaluations()
	retype(field(t, f, "workload.deadline_hours").entries()[0], "96")
	settled(t, p)
	if got := b.evaluations() - n; got != 1 {
		t.Errorf("typing two characters evaluated %d times, want once", got)
	}

	gate := make(chan struct{})
	b.gate = map[string]chan struct{}{"ft-7b": gate}
	pricing := field(t, f, "options.cloud.pricing").selectOf()
	pricing.SetSelected(present.ChoiceLabel("options.cloud.pricing", "spot"))
	pricing.SetSelected(present.ChoiceLabel("options.cloud.pricing", "commit_1y"))
	waitUntil(t, func() bool {
		b.mu.Lock()
		defer b.mu.Unlock()
		return len(b.cancelled) == 1
	}, func() string { return "the superseded evaluation was not cancelled" })
	close(gate)
	settled(t, p)
	if got := p.view.current.s.Options.Cloud.Pricing; got != "commit_1y" {
		t.Errorf("report of pricing %q, want the last edit's", got)
	}
}

// A change made outside the form (as the weights will) goes through the
// editor: the form shows it, the report follows and it is unsaved.
func TestEditFromOutsideTheForm(t *testing.T) {
	b := newFakeBackend()
	_, p := openWindow(t, b)
	f := openForm(t, p, 0)
	n := b.evaluations()
	if !p.view.live.edit(func(s *scenario.Scenario) { s.Dimensions.Economics.Weight = 0.9 }) {
		t.Fatal("no scenario to edit")
	}
	settled(t, p)
	if got := field(t, f, "dimensions.economics.weight").entries()[0].Text; got != "0.9" {
		t.Errorf("the form shows weight %q", got)
	}
	if b.evaluations() != n+1 || p.view.current.s.Dimensions.Economics.Weight != 0.9 || !p.view.live.mark.Visible() {
		t.Errorf("evaluations %d (from %d), weight on screen %v, unsaved %v", b.evaluations(), n, p.view.current.s.Dimensions.Economics.Weight, p.view.live.mark.Visible())
	}
}

// A live update keeps the report where the user scrolled it.
func TestLiveReportKeepsScroll(t *testing.T) {
	w, p := openWindow(t, newRealBackend(t, "qlora-legal-70b"))
	w.Resize(fyne.NewSize(1000, 600))
	f := openForm(t, p, 0)
	v := p.view
	v.reportScroll.ScrollToOffset(fyne.NewPos(0, 120))
	if v.reportScroll.Offset.Y != 120 {
		t.Fatalf("the report does not scroll in a window this small (offset %v)", v.reportScroll.Offset)
	}
	before := v.current
	retype(field(t, f, "workload.deadline_hours").entries()[0], "30")
	field(t, f, "workload.deadline_hours").entries()[0].TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settled(t, p)
	if v.current == before {
		t.Fatal("no new report")
	}
	if v.reportScroll.Offset.Y != 120 {
		t.Errorf("report scrolled to %v after the update, want 120", v.reportScroll.Offset.Y)
	}
}

// A live update refills the tab in view at once and the others when they
// are next shown, with the latest report.
func TestLiveReportFillsHiddenTabsWhenShown(t *testing.T) {
	_, p := openWindow(t, newRealBackend(t, "qlora-legal-70b"))
	f := openForm(t, p, 0)
	v := p.view
	deadline := field(t, f, "workload.deadline_hours").entries()[0]
	retype(deadline, "31")
	deadline.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settled(t, p)
	if len(v.live.deferred) == 0 {
		t.Fatal("every tab was refilled, those out of sight included")
	}
	if strings.Contains(uitest.LabelTexts(v.inputs.Scroll().Content), "31") {
		t.Fatal("the Inputs tab out of sight was refilled")
	}
	for _, item := range v.tabs.Items {
		if item.Text == "Inputs" {
			v.tabs.Select(item)
		}
	}
	if !strings.Contains(uitest.LabelTexts(v.inputs.Scroll().Content), "31") {
		t.Error("the Inputs tab does not show the edited deadline once shown")
	}
	if _, ok := v.live.deferred[v.inputs.Content()]; ok {
		t.Error("the Inputs tab is still waiting to be refilled")
	}
	// Showing a scenario afresh fills every tab at once.
	test.Tap(v.live.discard)
	it, _ := p.scenarios.item("qlora-legal-70b")
	v.show(it)
	settled(t, p)
	if len(v.live.deferred) != 0 {
		t.Errorf("%d tabs left to refill after a full report", len(v.live.deferred))
	}
}
