package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/present/num"
)

// typeUndo and typeRedo press Ctrl+Z and Ctrl+Shift+Z as the desktop
// driver does: the main menu's entry with the shortcut runs.
func typeUndo(t *testing.T, w fyne.Window) {
	t.Helper()
	it := menuShortcut(w, &fyne.ShortcutUndo{})
	if it == nil {
		t.Fatal("no menu entry has Ctrl+Z")
	}
	it.Action()
}

func typeRedo(t *testing.T, w fyne.Window) {
	t.Helper()
	it := menuShortcut(w, &desktop.CustomShortcut{KeyName: fyne.KeyZ, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift})
	if it == nil {
		t.Fatal("no menu entry has Ctrl+Shift+Z")
	}
	it.Action()
}

// Ctrl+Z undoes the form's edits one at a time across fields — the
// typing in one field is one step, a choice another, a weight moved a
// third — and Ctrl+Shift+Z redoes them; the report follows each.
func TestUndoRedoAcrossFields(t *testing.T) {
	w, p := openWindow(t, newFakeBackend())
	f := openForm(t, p, 0)
	e := p.view.live
	owner := field(t, f, "purpose.owner").entries()[0]
	horizon := field(t, f, "dimensions.economics.horizon_months").entries()[0]
	ownerWas, horizonWas := e.work.Purpose.Owner, e.work.Dimensions.Economics.HorizonMonths

	p.window.Canvas().Focus(owner)
	owner.SetText("")
	test.Type(owner, "Claims platform team") // one step, however many keys
	retype(horizon, "36")
	tapWeight(p.view.weights, 0, 0.6)
	settled(t, p)
	weight := e.work.Dimensions.Sovereignty.Weight

	typeUndo(t, w) // the weight
	settled(t, p)
	if got := e.work.Dimensions.Sovereignty.Weight; got == weight || e.work.Dimensions.Economics.HorizonMonths != 36 {
		t.Fatalf("first undo: sovereignty %v (was moved to %v), horizon %v", got, weight, e.work.Dimensions.Economics.HorizonMonths)
	}
	typeUndo(t, w) // the horizon
	settled(t, p)
	if got := e.work.Dimensions.Economics.HorizonMonths; got != horizonWas {
		t.Fatalf("second undo: horizon %v, want %v", got, horizonWas)
	}
	if got := e.work.Purpose.Owner; got != "Claims platform team" {
		t.Fatalf("second undo changed the owner to %q", got)
	}
	if got := field(t, e.form, "dimensions.economics.horizon_months").entries()[0].Text; got != num.Format(float64(horizonWas)) {
		t.Errorf("the form shows horizon %q after undo", got)
	}
	typeUndo(t, w) // the owner, all of it
	settled(t, p)
	if got := e.work.Purpose.Owner; got != ownerWas {
		t.Fatalf("third undo: owner %q, want %q", got, ownerWas)
	}
	if e.dirty() {
		t.Error("undoing every edit leaves the inputs unsaved")
	}
	typeUndo(t, w) // nothing left: nothing happens
	settled(t, p)

	typeRedo(t, w)
	typeRedo(t, w)
	settled(t, p)
	if e.work.Purpose.Owner != "Claims platform team" || e.work.Dimensions.Economics.HorizonMonths != 36 {
		t.Errorf("after two redos: owner %q, horizon %v", e.work.Purpose.Owner, e.work.Dimensions.Economics.HorizonMonths)
	}
	if got := p.view.current.s.Dimensions.Economics.HorizonMonths; got != 36 {
		t.Errorf("the report on screen is of horizon %v after redo", got)
	}
	// A new edit after undoing drops what could be redone.
	typeUndo(t, w)
	settled(t, p)
	retype(field(t, e.form, "purpose.owner").entries()[0], "Legal")
	typeRedo(t, w)
	settled(t, p)
	if e.work.Dimensions.Economics.HorizonMonths != horizonWas || e.work.Purpose.Owner != "Legal" {
		t.Errorf("redo after a new edit: owner %q, horizon %v", e.work.Purpose.Owner, e.work.Dimensions.Economics.HorizonMonths)
	}
}
