package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/scenario"
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
