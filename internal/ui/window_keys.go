package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// The window's own keys, F11 (review mode) and Escape (close the dialog on
// top, or leave review mode), work whatever has the keyboard. Fyne gives a
// key without a modifier to the focused widget alone, and the window hears
// it only while nothing has the focus; so every widget of this package
// that takes the focus when clicked — its entries, selects, check boxes,
// sliders, lists and tables — is one of the types here or in
// form_entries.go, list_keys.go and weights.go, which hand those two keys
// to the window (windowKey) and keep every other. (A button takes the
// focus only from Tab, and a selectable label keeps Escape: with either
// focused, the key reaches the window once the focus moves on.)

// windowKey hands ev to the key handler of the window o is drawn in when
// it is one of the window's own keys, and reports whether it was.
func windowKey(o fyne.CanvasObject, ev *fyne.KeyEvent) bool {
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

// windowKeys is the window's key handler, heard for keys no widget keeps:
// F11 enters or leaves review mode; Escape closes the dialog on top, or
// else leaves review mode.
func (p *planner) windowKeys(ev *fyne.KeyEvent) {
	switch ev.Name {
	case fyne.KeyF11:
		p.toggleReview()
	case fyne.KeyEscape:
		if p.dialogs.escape() {
			return
		}
		if p.review != nil {
			p.leaveReview()
		}
	}
}

// keySelect is a widget.Select that passes the window's keys on.
type keySelect struct {
	widget.Select
}

func newKeySelect(options []string, changed func(string)) *keySelect {
	s := &keySelect{}
	s.Options, s.OnChanged = options, changed
	s.PlaceHolder = "(Select one)"
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey implements fyne.Focusable.
func (s *keySelect) TypedKey(ev *fyne.KeyEvent) {
	if !windowKey(s, ev) {
		s.Select.TypedKey(ev)
	}
}

// keyCheck is a widget.Check that passes the window's keys on.
type keyCheck struct {
	widget.Check
}

func newKeyCheck(label string, changed func(bool)) *keyCheck {
	c := &keyCheck{}
	c.Text, c.OnChanged = label, changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey implements fyne.Focusable.
func (c *keyCheck) TypedKey(ev *fyne.KeyEvent) {
	if !windowKey(c, ev) {
		c.Check.TypedKey(ev)
	}
}

// keyTable is a widget.Table, with a header row, that passes the
// window's keys on.
type keyTable struct {
	widget.Table
}

func newKeyTable(length func() (int, int), create func() fyne.CanvasObject, update func(widget.TableCellID, fyne.CanvasObject)) *keyTable {
	t := &keyTable{}
	t.Length, t.CreateCell, t.UpdateCell = length, create, update
	t.ShowHeaderRow = true
	t.ExtendBaseWidget(t)
	return t
}

// TypedKey implements fyne.Focusable.
func (t *keyTable) TypedKey(ev *fyne.KeyEvent) {
	if !windowKey(t, ev) {
		t.Table.TypedKey(ev)
	}
}

// plainKeyList is a widget.List that passes the window's keys on.
type plainKeyList struct {
	widget.List
}

func newPlainKeyList(length func() int, create func() fyne.CanvasObject, update func(widget.ListItemID, fyne.CanvasObject)) *plainKeyList {
	l := &plainKeyList{}
	l.Length, l.CreateItem, l.UpdateItem = length, create, update
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey implements fyne.Focusable.
func (l *plainKeyList) TypedKey(ev *fyne.KeyEvent) {
	if !windowKey(l, ev) {
		l.List.TypedKey(ev)
	}
}
