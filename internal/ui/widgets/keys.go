package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// The window's own keys, F11 (review mode) and Escape (close the dialog on
// top, or leave review mode), work whatever has the keyboard: Fyne gives a
// key without a modifier to the focused widget alone, so every widget that
// takes the focus when clicked is one of the types here (or KeyEntry,
// KeySelectEntry), which hand those two keys to the window's key handler
// (WindowKey) and keep every other.

// WindowKey hands ev to the key handler of the window o is drawn in when
// it is one of the window's own keys, and reports whether it was.
func WindowKey(o fyne.CanvasObject, ev *fyne.KeyEvent) bool {
	if ev.Name != fyne.KeyEscape && ev.Name != fyne.KeyF11 {
		return false
	}
	a := fyne.CurrentApp()
	if a == nil {
		return false
	}
	c := a.Driver().CanvasForObject(o)
	if c == nil {
		return false
	}
	if f := c.OnTypedKey(); f != nil {
		f(ev)
	}
	return true
}

// KeySelect is a widget.Select that passes the window's keys on.
type KeySelect struct {
	widget.Select
}

func NewKeySelect(options []string, changed func(string)) *KeySelect {
	s := &KeySelect{}
	s.Options, s.OnChanged = options, changed
	s.PlaceHolder = "(Select one)"
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey implements fyne.Focusable.
func (s *KeySelect) TypedKey(ev *fyne.KeyEvent) {
	if !WindowKey(s, ev) {
		s.Select.TypedKey(ev)
	}
}

// KeyCheck is a widget.Check that passes the window's keys on.
type KeyCheck struct {
	widget.Check
}

func NewKeyCheck(label string, changed func(bool)) *KeyCheck {
	c := &KeyCheck{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey implements fyne.Focusable.
func (c *KeyCheck) TypedKey(ev *fyne.KeyEvent) {
	if !WindowKey(c, ev) {
		c.Check.TypedKey(ev)
	}
}

// KeyTable is a widget.Table, with a header row, that passes the
// window's keys on.
type KeyTable struct {
	widget.Table
}

func NewKeyTable(length func() (int, int), create func() fyne.CanvasObject, update func(widget.TableCellID, fyne.CanvasObject)) *KeyTable {
	t := &KeyTable{}
	t.Length, t.CreateCell, t.UpdateCell = length, create, update
	t.ShowHeaderRow = true
	t.ExtendBaseWidget(t)
	return t
}

// TypedKey implements fyne.Focusable.
func (t *KeyTable) TypedKey(ev *fyne.KeyEvent) {
	if !WindowKey(t, ev) {
		t.Table.TypedKey(ev)
	}
}

// PlainKeyList is a widget.List that passes the window's keys on.
type PlainKeyList struct {
	widget.List
}

func NewPlainKeyList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *PlainKeyList {
	l := &PlainKeyList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey implements fyne.Focusable.
func (l *PlainKeyList) TypedKey(ev *fyne.KeyEvent) {
	if !WindowKey(l, ev) {
		l.List.TypedKey(ev)
	}
}
