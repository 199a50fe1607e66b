package ui

// What the form's tests reach inside the window, compiled only with them.

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/form"
	"hostplan/internal/ui/uitest"
	"hostplan/internal/ui/widgets"
)

// overlay returns the first object of type T in the dialog on top of the
// window, or the zero T when there is none.
func overlay[T fyne.CanvasObject](p *planner) T {
	var zero T
	top := p.window.Canvas().Overlays().Top()
	if top == nil {
		return zero
	}
	o, _ := uitest.Find(top, func(o fyne.CanvasObject) bool {
		_, ok := o.(T)
		return ok
	}).(T)
	return o
}

// prompt is the unsaved-changes question over the window, nil when none.
func (p *planner) prompt() *leavePrompt { return overlay[*leavePrompt](p) }

// picker is the New scenario dialog over the window, nil when none.
func (p *planner) picker() *templatePicker { return overlay[*templatePicker](p) }

// typeShortcut types a Ctrl+key shortcut as the desktop driver does: the
// main menu's entry with that shortcut runs, whatever has the focus;
// without one, the focused widget receives it, or the canvas when nothing
// has the focus. (The test driver leaves the main menu out.)
func (p *planner) typeShortcut(key fyne.KeyName) {
	s := &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}
	if it := menuShortcut(p.window, s); it != nil {
		it.Action()
		return
	}
	if f, ok := p.window.Canvas().Focused().(fyne.Shortcutable); ok {
		f.TypedShortcut(s)
		return
	}
	p.window.Canvas().(interface{ TypedShortcut(fyne.Shortcut) }).TypedShortcut(s)
}

// menuShortcut is the main menu's entry with shortcut s, nil for none.
func menuShortcut(w fyne.Window, s fyne.Shortcut) *fyne.MenuItem {
	var in func(items []*fyne.MenuItem) *fyne.MenuItem
	in = func(items []*fyne.MenuItem) *fyne.MenuItem {
		for _, it := range items {
			if it.Shortcut != nil && it.Shortcut.ShortcutName() == s.ShortcutName() && it.Action != nil {
				return it
			}
			if it.ChildMenu != nil {
				if c := in(it.ChildMenu.Items); c != nil {
					return c
				}
			}
		}
		return nil
	}
	if mm := w.MainMenu(); mm != nil {
		for _, m := range mm.Items {
			if it := in(m.Items); it != nil {
				return it
			}
		}
	}
	return nil
}

// typeKey types a key as the desktop driver does: the focused widget
// receives it, or the window's handler when nothing has the focus.
func typeKey(w fyne.Window, key fyne.KeyName) {
	ev := &fyne.KeyEvent{Name: key}
	if f := w.Canvas().Focused(); f != nil {
		f.TypedKey(ev)
		return
	}
	w.Canvas().OnTypedKey()(ev)
}

// formField is a field of the form as the window's tests reach it:
// through its box of widgets.
type formField struct{ *form.Field }

// entries are the text entries of a field, in order: one for a known
// number, three (low, likely, high) for an estimate.
func (ff formField) entries() []*widgets.KeyEntry {
	var out []*widgets.KeyEntry
	var walk func(o fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		switch x := o.(type) {
		case *widgets.KeyEntry:
			out = append(out, x)
			return
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(ff.Box())
	return out
}

// selectOf is the select of a choice or the mode of a number.
func (ff formField) selectOf() *widget.Select {
	s, _ := uitest.Find(ff.Box(), func(o fyne.CanvasObject) bool {
		_, ok := o.(*widgets.KeySelect)
		return ok
	}).(*widgets.KeySelect)
	if s == nil {
		return nil
	}
	return &s.Select
}

// retype replaces the text of an entry as a user would: select all,
// type over it.
func retype(e *widgets.KeyEntry, text string) {
	e.SetText("")
	test.Type(e, text)
}

// openForm chooses scenario i, waits for its report and opens the form.
func openForm(t testing.TB, p *planner, i int) *form.Form {
	t.Helper()
	p.scenarios.list.Select(i)
	deadline := time.Now().Add(20 * time.Second)
	for p.view.currentState() != stateReady || p.view.live.work == nil {
		if time.Now().After(deadline) {
			t.Fatalf("after 20 s: no report of scenario %d", i)
		}
		time.Sleep(2 * time.Millisecond)
	}
	if !p.view.live.open {
		test.Tap(p.view.live.toggle)
	}
	if p.view.live.form == nil {
		t.Fatal("Edit inputs opened no form")
	}
	return p.view.live.form
}

// field is the form's field at path, failing the test when it has none.
func field(t testing.TB, f *form.Form, path string) formField {
	t.Helper()
	ff := f.FieldAt(path)
	if ff == nil {
		t.Fatalf("the form has no field %s", path)
	}
	return formField{ff}
}

// sectionTitle is the title of the form's section i, as its accordion
// shows it.
func sectionTitle(f *form.Form, i int) string {
	return f.Content().(*widget.Accordion).Items[i].Title
}

// settled waits until no work of the window is running, the typing pause
// of an edit included.
func settled(t testing.TB, p *planner) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for p.pending() > 0 || p.view.live.running {
		if time.Now().After(deadline) {
			t.Fatalf("after 20 s: %d pieces of work still running", p.pending())
		}
		time.Sleep(2 * time.Millisecond)
	}
}
