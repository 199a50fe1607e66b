package ui

import (
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/app"
	"hostplan/internal/scenario"
)

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
