package widgets

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

// KeyEntry is an entry that passes the window's keys (F11, Escape:
// window_keys.go) and shortcuts on. A focused
// entry receives every shortcut typed while it has the focus and drops
// those it does not know, so without this Ctrl+S would do nothing while
// the cursor is in a field.
type KeyEntry struct {
	widget.Entry
	rows int // the rows a multi-line entry shows (FitRows)
	// lost is the cursor's place when Fyne's rows could not hold it
	// (wrapCursor).
	lost lostCursor
	// form marks an entry of the scenario form, whose Ctrl+Z undoes the
	// form's last edit (undo.go) rather than the entry's own.
	Form bool
	// Left is called when the entry loses the keyboard; nil for none.
	Left func()
}

// FocusLost implements fyne.Focusable.
func (e *KeyEntry) FocusLost() {
	e.Entry.FocusLost()
	if e.Left != nil {
		e.Left()
	}
}

// InForm reports whether the entry is one of the scenario form's.
func (e *KeyEntry) InForm() bool { return e.Form }

// NewKeyEntry is a one-line entry without a scroller of its own: an
// entry that scrolls takes the mouse wheel for itself, and a form full of
// them would stop scrolling wherever the pointer rests on one.
func NewKeyEntry() *KeyEntry {
	e := &KeyEntry{}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrapOff
	e.Scroll = container.ScrollNone
	return e
}

func NewKeyMultiLineEntry() *KeyEntry {
	e := NewKeyEntry()
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	return e
}

// NewKeyTextArea is a multi-line entry that scrolls by itself, for text
// such as a JSON document or pasted data.
func NewKeyTextArea() *KeyEntry {
	e := &KeyEntry{}
	e.ExtendBaseWidget(e)
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	return e
}

// TypedRune implements fyne.Focusable.
func (e *KeyEntry) TypedRune(r rune) {
	e.edit(editInsert, func() { e.Entry.TypedRune(r) })
}

// TypedKey implements fyne.Focusable: the window's keys go to the window
// (window_keys.go).
func (e *KeyEntry) TypedKey(ev *fyne.KeyEvent) {
	if WindowKey(e, ev) {
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
func (e *KeyEntry) TypedShortcut(s fyne.Shortcut) {
	if ForwardShortcut(e, s) {
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

// KeySelectEntry is a widget.SelectEntry that passes the window's
// shortcuts on, as KeyEntry does.
type KeySelectEntry struct {
	widget.SelectEntry
	Form bool // one of the scenario form's (KeyEntry.Form)
}

// InForm reports whether the entry is one of the scenario form's.
func (e *KeySelectEntry) InForm() bool { return e.Form }

func NewKeySelectEntry(options []string) *KeySelectEntry {
	e := &KeySelectEntry{}
	e.ExtendBaseWidget(e)
	e.Wrapping = fyne.TextWrapOff // no scroller, as NewKeyEntry
	e.Scroll = container.ScrollNone
	e.SetOptions(options)
	// Fyne's drop-down button, with a tip.
	if b, ok := e.ActionItem.(*widget.Button); ok {
		t := NewTipButton("", b.Icon, "Choose from the list (or type)", b.OnTapped)
		t.Importance = b.Importance
		e.ActionItem = t
	}
	return e
}

// TypedKey implements fyne.Focusable: the window's keys go to the window.
func (e *KeySelectEntry) TypedKey(ev *fyne.KeyEvent) {
	if !WindowKey(e, ev) {
		e.SelectEntry.TypedKey(ev)
	}
}

// TypedShortcut implements fyne.Shortcutable.
func (e *KeySelectEntry) TypedShortcut(s fyne.Shortcut) {
	if ForwardShortcut(e, s) {
		return
	}
	e.SelectEntry.TypedShortcut(s)
}

// ForwardShortcut hands a shortcut that an entry does not use — a
// modifier with a letter, such as Ctrl+S or Ctrl+N — to the canvas o is
// drawn on, where the window's shortcuts are registered.
func ForwardShortcut(o fyne.CanvasObject, s fyne.Shortcut) bool {
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

// FitRows makes a multi-line entry tall enough for its text, so that it
// has nothing to scroll (the wheel over it scrolls the form: WheelPass).
func FitRows(e *KeyEntry) {
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

// WheelPass lies over a multi-line entry and hands the mouse wheel to the
// form's scroll: the entry scrolls by itself and would otherwise keep the
// wheel, stopping the form wherever the pointer rests on it. Taps, drags
// and the text cursor still reach the entry, which WheelPass does not
// take.
type WheelPass struct {
	widget.BaseWidget
	target func() fyne.Scrollable
}

func NewWheelPass(target func() fyne.Scrollable) *WheelPass {
	w := &WheelPass{target: target}
	w.ExtendBaseWidget(w)
	return w
}

// Scrolled implements fyne.Scrollable.
func (w *WheelPass) Scrolled(ev *fyne.ScrollEvent) {
	if w.target == nil {
		return
	}
	if s := w.target(); s != nil {
		s.Scrolled(ev)
	}
}

// CreateRenderer implements fyne.Widget: it draws nothing.
func (w *WheelPass) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewWithoutLayout())
}
