package ui

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/app"
	"hostplan/internal/brief"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/form"
	"hostplan/internal/ui/uitest"
	"hostplan/internal/ui/widgets"
)

// templateIndex is the position of the template of shape in the New
// scenario dialog.
func templateIndex(t *testing.T, shape string) int {
	t.Helper()
	i := slices.IndexFunc(templates(), func(tp template) bool { return tp.shape == shape })
	if i < 0 {
		t.Fatalf("no template for %s", shape)
	}
	return i
}

// cost is the cost over the horizon of direction d in the report on show.
func cost(t *testing.T, p *planner, d string) float64 {
	t.Helper()
	r := p.view.current.r.Direction(d)
	if r == nil {
		t.Fatalf("the report has no %s", d)
	}
	return r.CostHorizon
}

// A new scenario from the fine-tuning template, with the real model:
// typing into its fields changes the report on screen, and saving with a
// note stores it as revision 1 with that note.
func TestNewScenarioFromTemplate(t *testing.T) {
	t.Setenv("USER", "ana")
	a := openPlanner(t, "qlora-legal-70b")
	w, p := openWindow(t, NewBackend(a))

	p.typeShortcut(fyne.KeyN)
	picker := p.picker()
	if picker == nil {
		t.Fatal("Ctrl+N opened no New scenario dialog")
	}
	test.Tap(picker.starts[templateIndex(t, scenario.ShapeFineTuning)])
	settled(t, p)
	v := p.view
	if v.currentState() != stateReady || v.current == nil {
		t.Fatalf("no report for the new scenario: %q", v.message.Text)
	}
	f := v.live.form
	if f == nil || !v.live.open {
		t.Fatal("the new scenario did not open in the form")
	}
	id := v.live.work.ID
	if id != "new-fine-tuning" || v.current.r.Shape != scenario.ShapeFineTuning {
		t.Errorf("new scenario %q of shape %q", id, v.current.r.Shape)
	}
	if !v.live.mark.Visible() || !strings.Contains(w.Title(), "unsaved") {
		t.Errorf("a new scenario is not marked unsaved (title %q)", w.Title())
	}
	before := v.current
	months := before.r.HorizonMonths
	cloud := cost(t, p, scenario.Cloud)

	retype(field(t, f, "name").entries()[0], "Contract review for two years")
	retype(field(t, f, "dimensions.economics.horizon_months").entries()[0], "24")
	settled(t, p)

	r := v.current.r
	if v.current == before || r.HorizonMonths != 24 || months == 24 {
		t.Fatalf("horizon on screen %d months (was %d), want 24", r.HorizonMonths, months)
	}
	if got := cost(t, p, scenario.Cloud); got <= cloud {
		t.Errorf("cloud cost over 24 months %.0f, not above %.0f over %d", got, cloud, months)
	}
	if v.title.Text != "Contract review for two years" || !strings.Contains(v.facts.Text, "horizon 24 months") {
		t.Errorf("header %q / %q", v.title.Text, v.facts.Text)
	}
	if !strings.Contains(v.live.status.Text, "up to date") {
		t.Errorf("status %q", v.live.status.Text)
	}

	// Ctrl+S in a field asks for the note; Enter saves.
	w.Canvas().Focus(field(t, f, "name").entries()[0])
	p.typeShortcut(fyne.KeyS)
	note := overlay[*widgets.KeyEntry](p)
	if note == nil {
		t.Fatal("Ctrl+S asked for no note")
	}
	test.Type(note, "first draft from the template")
	note.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settled(t, p)

	h, err := a.History(id)
	if err != nil || len(h) != 1 || h[0].Note != "first draft from the template" || h[0].Author != "ana" {
		t.Fatalf("history %+v, %v", h, err)
	}
	s, _, err := a.Load(id)
	if err != nil || s.Name != "Contract review for two years" || s.Dimensions.Economics.HorizonMonths != 24 {
		t.Fatalf("stored %+v, %v", s, err)
	}
	if it, ok := p.scenarios.item(id); !ok || it.Revisions != 1 {
		t.Errorf("the list shows %+v, %v", it, ok)
	}
	if v.live.mark.Visible() || strings.Contains(w.Title(), "unsaved") {
		t.Errorf("still marked unsaved after saving (title %q)", w.Title())
	}
	if ff := field(t, f, "id"); !ff.entries()[0].Disabled() {
		t.Error("the id of a saved scenario can still be changed")
	}
	// A second save of an edit adds revision 2.
	retype(field(t, f, "purpose.owner").entries()[0], "Legal operations")
	settled(t, p)
	test.Tap(v.live.save)
	note = overlay[*widgets.KeyEntry](p)
	test.Type(note, "owner named")
	note.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settled(t, p)
	if h, _ := a.History(id); len(h) != 2 || h[1].Note != "owner named" {
		t.Errorf("history after a second save %+v", h)
	}
}

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

// A blank scenario lists what is missing beneath the fields, and cannot
// be saved until it is complete.
func TestBlankScenario(t *testing.T) {
	b := newFakeBackend()
	_, p := openWindow(t, b)
	p.chooseNew()
	picker := p.picker()
	test.Tap(picker.starts[len(picker.starts)-1])
	settled(t, p)
	f := p.view.live.form
	for _, path := range []string{"purpose.decision", "workload.shape", "data.volume_gb", "dimensions.operations.staff_fte"} {
		if ff := field(t, f, path); !(ff.Problem() != "") || !strings.HasPrefix(ff.Problem(), "Required") {
			t.Errorf("%s: problem %q", path, ff.Problem())
		}
	}
	if !strings.HasPrefix(p.view.message.Text, "The report appears once the inputs are complete") {
		t.Errorf("pane says %q", p.view.message.Text)
	}
	test.Tap(p.view.live.save)
	if len(b.saved()) != 0 || !strings.HasPrefix(p.view.live.status.Text, "Not saved") {
		t.Errorf("saved an incomplete scenario; status %q", p.view.live.status.Text)
	}
	// Discarding drops it.
	test.Tap(p.view.live.discard)
	if p.view.live.work != nil || p.view.message.Text != chooseMessage {
		t.Errorf("after discarding: %q", p.view.message.Text)
	}
}

// The JSON editor ("Advanced") opens on the inputs as edited in the form;
// saving there stores them, and nothing is left unsaved.
func TestAdvancedJSONEditsTheFormsInputs(t *testing.T) {
	b := newFakeBackend()
	w, p := openWindow(t, b)
	f := openForm(t, p, 0)
	retype(field(t, f, "purpose.owner").entries()[0], "Claims platform team")
	settled(t, p)
	test.Tap(p.view.live.json)
	e := p.editor()
	if e == nil {
		t.Fatal("Advanced: JSON… opened no editor")
	}
	if !strings.Contains(e.entry.Text, `"owner": "Claims platform team"`) || e.save.Disabled() {
		t.Fatalf("editor shows the stored inputs (save disabled %v): %s", e.save.Disabled(), e.status.Text)
	}
	test.Type(e.note, "owner from the form")
	test.Tap(e.save)
	settled(t, p)
	waitShown(t, p, "ft-7b")
	if p.prompt() != nil {
		t.Fatal("asked about unsaved changes the JSON editor had just saved")
	}
	saves := b.saved()
	if len(saves) != 1 || saves[0].s.Purpose.Owner != "Claims platform team" || saves[0].note != "owner from the form" {
		t.Errorf("saves %+v", saves)
	}
	if p.view.live.dirty() || strings.Contains(w.Title(), "unsaved") {
		t.Errorf("still unsaved after the JSON editor saved (title %q)", w.Title())
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

// The load by hour, a list of numbers, is typed on one line: the numbers
// reach the scenario, and one that is not a number is named beneath the
// field while the report stays.
func TestLoadByHourEdited(t *testing.T) {
	_, p := openWindow(t, newRealBackend(t, "support-assistant-70b"))
	f := openForm(t, p, 0)
	v := p.view
	load := field(t, f, "workload.traffic.hourly_load")
	levels := make([]string, 24)
	for i := range levels {
		levels[i] = strconv.Itoa(1 + i%12)
	}
	retype(load.entries()[0], strings.Join(levels, "; "))
	settled(t, p)
	got := v.live.work.Workload.Traffic.HourlyLoad
	if len(got) != 24 || got[0] != 1 || got[11] != 12 || got[12] != 1 || (load.Problem() != "") {
		t.Fatalf("hourly load %v, problem %q", got, load.Problem())
	}
	good := v.current
	retype(load.entries()[0], "1; 2; x")
	settled(t, p)
	if !(load.Problem() != "") || !strings.Contains(load.Problem(), "number 3") || !strings.Contains(load.Problem(), "“x” is not a number") {
		t.Errorf("problem beneath the field: %q", load.Problem())
	}
	if v.current != good {
		t.Error("the report changed while a level is not a number")
	}
}

// The description, a wrapping multi-line field, keeps exactly what was
// typed into it, at every window width tried (some put a space typed at
// a wrap point, fyne-io/fyne#2698), in the field and in the scenario the
// report and a save use.
func TestDescriptionKeepsTypedText(t *testing.T) {
	w, p := openWindow(t, newFakeBackend())
	f := openForm(t, p, 0)
	e := field(t, f, "description").entries()[0]
	text := strings.Repeat("The client data must stay in the EU; four runs a month of the model are planned over two years. ", 3)
	for width := float32(1000); width <= 1300; width += 23 {
		w.Resize(fyne.NewSize(width, 800))
		retype(e, "")
		p.window.Canvas().Focus(e)
		test.Type(e, text)
		if e.Text != text || p.view.live.work.Description != text {
			t.Fatalf("window %v wide: typed\n%q\nthe field shows\n%q\nthe scenario holds\n%q", width, text, e.Text, p.view.live.work.Description)
		}
	}
	settled(t, p)
}

// Discarding edits, and restoring an old revision from the history, show
// the scenario's saved inputs where the form was scrolled to, not at its
// top.
func TestDiscardAndRestoreKeepFormScroll(t *testing.T) {
	pl := openPlanner(t)
	const id = "constrained-snapshot-training"
	s, _, _ := pl.Load(id)
	changed := scenario.Clone(s)
	changed.Dimensions.Economics.HorizonMonths += 12
	if _, err := pl.Save(changed, app.Lineage{Author: "ana", Note: "longer horizon"}); err != nil {
		t.Fatal(err)
	}
	w, p := openWindow(t, NewBackend(pl))
	w.Resize(fyne.NewSize(1280, 800))
	p.scenarios.selectID(id)
	waitShown(t, p, id)
	settled(t, p)
	e := p.view.live
	test.Tap(e.toggle)
	f := e.form
	e.scroll.ScrollToOffset(fyne.NewPos(0, 1200))
	at := e.scroll.Offset
	if at.Y < 1000 {
		t.Fatalf("the form scrolls only to %v", at)
	}
	retype(field(t, f, "dimensions.economics.horizon_months").entries()[0], "48")
	settled(t, p)
	test.Tap(e.discard)
	settled(t, p)
	if e.dirty() {
		t.Fatal("still unsaved after Discard")
	}
	if got := e.scroll.Offset; got != at {
		t.Errorf("after Discard the form is scrolled to %v, want %v", got, at)
	}

	menuAction(t, w, "Scenario", "History…")()
	settle(t, p)
	test.Tap(overlayButton(w, "Restore revision"))
	settle(t, p)
	waitUntil(t, func() bool {
		it, _ := p.scenarios.item(id)
		return it.Revisions == 3 && e.form != nil && e.item.Revisions == 3
	},
		func() string { return "the restored revision is not shown in the form" })
	settled(t, p)
	if got := e.scroll.Offset; got != at {
		t.Errorf("after Restore the form is scrolled to %v, want %v", got, at)
	}
}

// A number typed into the form reads as a loaded one once the field is
// left or Enter is pressed — "400000" becomes "400,000", as it shows when
// the scenario is opened — without another step to undo or another
// evaluation; text that is not a number is left as typed.
func TestTypedNumberTakesItsFormat(t *testing.T) {
	b := newFakeBackend()
	_, p := openWindow(t, b)
	f := openForm(t, p, 0)
	volume := field(t, f, "data.volume_gb").entries()[0]
	owner := field(t, f, "purpose.owner").entries()[0]
	p.window.Canvas().Focus(volume)
	volume.SetText("")
	test.Type(volume, "400000")
	settled(t, p)
	steps, evals := len(p.view.live.history.undo), b.evaluations()
	p.window.Canvas().Focus(owner)
	if volume.Text != "400,000" {
		t.Errorf("the field left shows %q, want 400,000", volume.Text)
	}
	settled(t, p)
	if got := p.view.live.work.Data.VolumeGB.Likely; got != 400000 {
		t.Errorf("the scenario holds %v", got)
	}
	if len(p.view.live.history.undo) != steps || b.evaluations() != evals {
		t.Errorf("formatting the field added %d undo steps and %d evaluations", len(p.view.live.history.undo)-steps, b.evaluations()-evals)
	}
	horizon := field(t, f, "dimensions.economics.horizon_months").entries()[0]
	p.window.Canvas().Focus(horizon)
	retype(horizon, "1200")
	horizon.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if horizon.Text != "1,200" {
		t.Errorf("after Enter the horizon shows %q, want 1,200", horizon.Text)
	}
	retype(volume, "12o")
	p.window.Canvas().Focus(owner)
	if volume.Text != "12o" {
		t.Errorf("text that is not a number became %q", volume.Text)
	}
	settled(t, p)
}
