package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The form's entries: they pass the window's keys and shortcuts on, and
// leave the mouse wheel to the form.

// keyEntry is an entry that passes the window's keys (F11, Escape:
// window_keys.go) and shortcuts on. A focused
// entry receives every shortcut typed while it has the focus and drops
// those it does not know, so without this Ctrl+S would do nothing while
// the cursor is in a field.
type keyEntry struct {
	widget.Entry
	rows int // the rows a multi-line entry shows (fitRows)
	// lost is the cursor's place when Fyne's rows could not hold it
	// (wrapCursor).
	lost lostCursor
	// form marks an entry of the scenario form, whose Ctrl+Z undoes the
	// form's last edit (undo.go) rather than the entry's own.
	form bool
	// left is called when the entry loses the keyboard; nil for none.
	left func()
}

// FocusLost implements fyne.Focusable.
func (e *keyEntry) FocusLost() {
	e.Entry.FocusLost()
	if e.left != nil {
		e.left()
	}
}

// inForm reports whether the entry is one of the scenario form's.
func (e *keyEntry) inForm() bool { return e.form }

// newKeyEntry is a one-line entry without a scroller of its own: an
// entry that scrolls takes the mouse wheel for itself, and a form full of
// them would stop scrolling wherever the pointer rests on one.
func newKeyEntry() *keyEntry {
	e := &keyEntry{}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrapOff
	e.Scroll = container.ScrollNone
	return e
}

func newKeyMultiLineEntry() *keyEntry {
	e := newKeyEntry()
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	return e
}

// newKeyTextArea is a multi-line entry that scrolls by itself, for text
// such as a JSON document or pasted data.
func newKeyTextArea() *keyEntry {
	e := &keyEntry{}
	e.ExtendBaseWidget(e)
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	return e
}

// TypedRune implements fyne.Focusable.
func (e *keyEntry) TypedRune(r rune) {
	e.edit(editInsert, func() { e.Entry.TypedRune(r) })
}

// TypedKey implements fyne.Focusable: the window's keys go to the window
// (window_keys.go).
func (e *keyEntry) TypedKey(ev *fyne.KeyEvent) {
	if windowKey(e, ev) {
		return
	}
	kind := editInsert // Enter, and any key that changes no text
	switch ev.Name {
	case fyne.KeyBackspace:
		kind = editBackspace
	case fyne.KeyDelete:
		kind = editDelete
	}
	e.edit(kind, func() { e.Entry.TypedKey(ev) })
}

// TypedShortcut implements fyne.Shortcutable.
func (e *keyEntry) TypedShortcut(s fyne.Shortcut) {
	if forwardShortcut(e, s) {
		return
	}
	switch s.(type) {
	case *fyne.ShortcutPaste, *fyne.ShortcutCut:
		e.edit(editInsert, func() { e.Entry.TypedShortcut(s) })
	default:
		e.restoreCursor()
		e.Entry.TypedShortcut(s)
	}
}

// keySelectEntry is a widget.SelectEntry that passes the window's
// shortcuts on, as keyEntry does.
type keySelectEntry struct {
	widget.SelectEntry
	form bool // one of the scenario form's (keyEntry.form)
}

// inForm reports whether the entry is one of the scenario form's.
func (e *keySelectEntry) inForm() bool { return e.form }

func newKeySelectEntry(options []string) *keySelectEntry {
	e := &keySelectEntry{}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrapOff // no scroller, as newKeyEntry
	e.Scroll = container.ScrollNone
	e.SetOptions(options)
	// Fyne's drop-down button, with a tip.
	if b, ok := e.ActionItem.(*widget.Button); ok {
		t := newTipButton("", b.Icon, "Choose from the list (or type)", b.OnTapped)
		t.Importance = b.Importance
		e.ActionItem = t
	}
	return e
}

// TypedKey implements fyne.Focusable: the window's keys go to the window.
func (e *keySelectEntry) TypedKey(ev *fyne.KeyEvent) {
	if !windowKey(e, ev) {
		e.SelectEntry.TypedKey(ev)
	}
}

// TypedShortcut implements fyne.Shortcutable.
func (e *keySelectEntry) TypedShortcut(s fyne.Shortcut) {
	if forwardShortcut(e, s) {
		return
	}
	e.SelectEntry.TypedShortcut(s)
}

// forwardShortcut hands a shortcut that an entry does not use — a
// modifier with a letter, such as Ctrl+S or Ctrl+N — to the canvas o is
// drawn on, where the window's shortcuts are registered.
func forwardShortcut(o fyne.CanvasObject, s fyne.Shortcut) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	if !ok || cs.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) == 0 || len(cs.KeyName) != 1 || cs.KeyName < "A" || cs.KeyName > "Z" {
		return false
	}
	app := fyne.CurrentApp()
	if app == nil {
		return false
	}
	c, ok := app.Driver().CanvasForObject(o).(interface{ TypedShortcut(fyne.Shortcut) })
	if !ok {
		return false
	}
	c.TypedShortcut(s)
	return true
}

// fitRows makes a multi-line entry tall enough for its text, so that it
// has nothing to scroll (the wheel over it scrolls the form: wheelPass).
func fitRows(e *keyEntry) {
	width := e.Size().Width - 4*theme.InnerPadding()
	if width <= 0 {
		width = 400
	}
	rows := 0
	for _, line := range strings.Split(e.Text, "\n") {
		w := fyne.MeasureText(line, theme.TextSize(), e.TextStyle).Width
		rows += 1 + int(w/width)
	}
	rows = max(3, rows+1)
	if rows != e.rows {
		e.rows = rows
		e.SetMinRowsVisible(rows)
	}
}

// wheelPass lies over a multi-line entry and hands the mouse wheel to the
// form's scroll: the entry scrolls by itself and would otherwise keep the
// wheel, stopping the form wherever the pointer rests on it. Taps, drags
// and the text cursor still reach the entry, which wheelPass does not
// take.
type wheelPass struct {
	widget.BaseWidget
	target func() fyne.Scrollable
}

func newWheelPass(target func() fyne.Scrollable) *wheelPass {
	w := &wheelPass{target: target}
	w.ExtendBaseWidget(w)
	return w
}

// Scrolled implements fyne.Scrollable.
func (w *wheelPass) Scrolled(ev *fyne.ScrollEvent) {
	if w.target == nil {
		return
	}
	if s := w.target(); s != nil {
		s.Scrolled(ev)
	}
}

// CreateRenderer implements fyne.Widget: it draws nothing.
func (w *wheelPass) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}
