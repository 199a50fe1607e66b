package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/widgets"
)

// The scenario list's keyboard: in the list, Up and Down choose the row
// above or below (the list's own keys only move a focus mark, and Space
// chooses), Delete deletes the chosen scenario and F2 renames it; in the
// search field, Down and Return go to the list, and Escape empties the
// field (in an empty one it is the window's). F11 and Escape are
// otherwise the window's (window_keys.go).

// keyList is the scenario list's widget.List with those keys.
type keyList struct {
	widget.List
	owner *scenarioList
}

func newKeyList(owner *scenarioList) *keyList {
	l := &keyList{owner: owner}
	l.ExtendBaseWidget(l)
	return l
}

// TypedKey implements fyne.Focusable.
func (l *keyList) TypedKey(ev *fyne.KeyEvent) {
	s := l.owner
	if widgets.WindowKey(l, ev) {
		return
	}
	if s.comparing { // rows are ticked, not chosen: the list's own keys
		l.List.TypedKey(ev)
		return
	}
	switch ev.Name {
	case fyne.KeyUp:
		s.moveSelection(-1)
	case fyne.KeyDown:
		s.moveSelection(1)
	case fyne.KeyPageUp:
		s.moveSelection(-pageRows)
	case fyne.KeyPageDown:
		s.moveSelection(pageRows)
	case fyne.KeyHome:
		s.chooseAt(0)
	case fyne.KeyEnd:
		s.chooseAt(len(s.items) - 1)
	case fyne.KeyDelete:
		if it, ok := s.chosen(); ok && s.onDelete != nil {
			s.onDelete(it)
		}
	case fyne.KeyF2:
		if it, ok := s.chosen(); ok && s.onRename != nil {
			s.onRename(it)
		}
	default:
		l.List.TypedKey(ev)
	}
}

// pageRows is how far Page Up and Page Down move.
const pageRows = 10

// searchEntry is the scenario list's search field.
type searchEntry struct {
	widget.Entry
	owner *scenarioList
}

func newSearchEntry(owner *scenarioList) *searchEntry {
	e := &searchEntry{owner: owner}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *searchEntry) TypedKey(ev *fyne.KeyEvent) {
	s := e.owner
	switch ev.Name {
	case fyne.KeyDown:
		if c := fyne.CurrentApp().Driver().CanvasForObject(s.list); c != nil {
			c.Focus(s.list)
		}
		if _, ok := s.chosen(); !ok {
			s.chooseAt(0)
		}
	case fyne.KeyEscape:
		if e.Text != "" {
			e.SetText("")
		} else {
			widgets.WindowKey(e, ev)
		}
	default:
		if !widgets.WindowKey(e, ev) {
			e.Entry.TypedKey(ev)
		}
	}
}
