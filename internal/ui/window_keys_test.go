package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/ui/uitest"
	"hostplan/internal/ui/widgets"
)

// firstOf is the first object of type T drawn under o, or the zero T.
func firstOf[T fyne.CanvasObject](o fyne.CanvasObject) T {
	x, _ := uitest.Find(o, func(o fyne.CanvasObject) bool { _, ok := o.(T); return ok }).(T)
	return x
}

// F11 enters review mode and Escape leaves it whichever widget has the
// keyboard: the search field, the list, a field, a select and a check box
// of the form, a weight's slider, a checklist owner.
func TestWindowKeysWhateverHasFocus(t *testing.T) {
	w, p := openWindow(t, newFakeBackend())
	w.Resize(fyne.NewSize(1280, 800))
	f := openForm(t, p, 0)
	settled(t, p)
	v := p.view
	sel, check := firstOf[*widgets.KeySelect](f.Content()), firstOf[*widgets.KeyCheck](f.Content())
	if sel == nil || check == nil {
		t.Fatalf("the form has no select (%v) or check box (%v)", sel, check)
	}
	test.Tap(v.weights.ToggleButton()) // the sliders shown
	if len(v.checklist.rows) == 0 {
		t.Fatal("the checklist has no rows")
	}
	focusables := []struct {
		name string
		o    fyne.Focusable
	}{
		{"search", p.scenarios.search},
		{"list", p.scenarios.list},
		{"field", field(t, f, "purpose.owner").entries()[0]},
		{"select", sel},
		{"check box", check},
		{"slider", v.weights.Slider(0)},
		{"checklist owner", v.checklist.rows[0].owner}, // last: its tab is chosen
	}
	for _, fo := range focusables {
		name, o := fo.name, fo.o
		if name == "checklist owner" {
			selectTab(t, v.tabs, "Checklist")
		}
		w.Canvas().Focus(o)
		if w.Canvas().Focused() != o {
			t.Fatalf("%s: did not take the focus", name)
		}
		typeKey(w, fyne.KeyF11)
		if p.review == nil {
			t.Errorf("F11 in the %s did not enter review mode", name)
			continue
		}
		typeKey(w, fyne.KeyEscape)
		if p.review != nil {
			t.Errorf("Escape after F11 in the %s did not leave review mode", name)
			p.leaveReview()
		}
	}
	// A key the window does not own stays with the widget.
	e := field(t, f, "purpose.owner").entries()[0]
	w.Canvas().Focus(e)
	before := e.CursorColumn
	typeKey(w, fyne.KeyEnd)
	if e.CursorColumn == before && e.Text != "" {
		t.Error("End in a field did not move its cursor")
	}
}

// The form's dialogs close with Escape, each as its Cancel would: the
// note asked by Save (nothing saved), the unsaved-changes question (keep
// editing), the New scenario picker, and the JSON editor, which asks
// first when its text changed.
func TestEscapeClosesFormDialogs(t *testing.T) {
	b := newFakeBackend()
	w, p := openWindow(t, b)
	f := openForm(t, p, 0)
	owner := field(t, f, "purpose.owner").entries()[0]
	retype(owner, "Claims platform team")
	settled(t, p)
	w.Canvas().Focus(owner)

	p.typeShortcut(fyne.KeyS) // the menu's Save…, the field focused
	note := overlay[*widgets.KeyEntry](p)
	if note == nil || w.Canvas().Focused() != note {
		t.Fatalf("Ctrl+S in a field asked for no note (focus on %T)", w.Canvas().Focused())
	}
	typeKey(w, fyne.KeyEscape)
	if w.Canvas().Overlays().Top() != nil {
		t.Fatal("Escape in the note left the dialog open")
	}
	if len(b.saved()) != 0 || !p.view.live.dirty() {
		t.Errorf("Escape in the note saved %d revisions; edits kept %v", len(b.saved()), p.view.live.dirty())
	}

	p.scenarios.list.Select(1)
	if p.prompt() == nil {
		t.Fatal("no unsaved-changes question")
	}
	typeKey(w, fyne.KeyEscape)
	if w.Canvas().Overlays().Top() != nil {
		t.Fatal("Escape left the unsaved-changes question open")
	}
	settled(t, p)
	if it, _ := p.scenarios.chosen(); p.view.shownID() != "ft-7b" || p.view.live.work.Purpose.Owner != "Claims platform team" || it.ID != "ft-7b" {
		t.Errorf("after Escape: shows %q, owner %q, row of %q marked", p.view.shownID(), p.view.live.work.Purpose.Owner, it.ID)
	}

	w.Canvas().Focus(owner)
	p.typeShortcut(fyne.KeyN)
	if p.picker() == nil {
		t.Fatal("Ctrl+N in a field opened no picker")
	}
	typeKey(w, fyne.KeyEscape)
	if w.Canvas().Overlays().Top() != nil {
		t.Fatal("Escape left the picker open")
	}

	test.Tap(p.view.live.json)
	e := p.editor()
	if e == nil {
		t.Fatal("no JSON editor")
	}
	e.entry.SetText(e.entry.Text + " ")
	w.Canvas().Focus(e.entry)
	typeKey(w, fyne.KeyEscape)
	if top := w.Canvas().Overlays().Top(); top == nil || p.editor() != nil {
		t.Fatal("Escape in the changed JSON did not ask before closing the editor")
	}
	typeKey(w, fyne.KeyEscape) // closes the question: the editor stays
	if p.editor() != e {
		t.Fatal("Escape in the question closed the editor too")
	}
	e.entry.SetText(e.start)
	w.Canvas().Focus(e.entry)
	typeKey(w, fyne.KeyEscape)
	if w.Canvas().Overlays().Top() != nil {
		t.Error("Escape in the unchanged JSON left the editor open")
	}
	if len(b.saved()) != 0 {
		t.Errorf("closing the dialogs saved %d revisions", len(b.saved()))
	}
}

// New and Save are entries of the File menu with Ctrl+N and Ctrl+S, which
// the menu gives whatever has the keyboard; the canvas has no shortcut of
// its own for them.
func TestNewAndSaveInMenu(t *testing.T) {
	b := newFakeBackend()
	w, p := openWindow(t, b)
	for key, label := range map[fyne.KeyName]string{fyne.KeyN: "New scenario…", fyne.KeyS: "Save…"} {
		s := &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}
		it := menuShortcut(w, s)
		if it == nil || it.Label != label {
			t.Errorf("Ctrl+%s is in the menu as %v, want %q", key, it, label)
		}
		menuAction(t, w, "File", label) // fails the test when missing
	}
	w.Canvas().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierShortcutDefault})
	if p.picker() != nil {
		t.Error("the canvas still has its own Ctrl+N")
	}

	f := openForm(t, p, 0)
	owner := field(t, f, "purpose.owner").entries()[0]
	retype(owner, "Claims platform team")
	settled(t, p)
	menuAction(t, w, "File", "Save…")()
	note := overlay[*widgets.KeyEntry](p)
	if note == nil {
		t.Fatal("File › Save… asked for no note")
	}
	test.Type(note, "owner changed")
	note.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settled(t, p)
	if s := b.saved(); len(s) != 1 || s[0].note != "owner changed" {
		t.Errorf("saves %+v", s)
	}
}
