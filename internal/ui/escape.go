package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/widgets"
)

// Escape closes the dialog on top of the window. Fyne's dialogs do not
// listen for it: the window hears Escape when nothing has the keyboard,
// and the widgets of this package pass it on (window_keys.go). A dialog
// shown with showDialog closes as its Cancel or Close button would (its
// callback runs), or as its own escape function says (show); any other
// pop-up on top is hidden.
type dialogs struct {
	canvas fyne.Canvas
	open   []openDialog
}

// openDialog is a dialog shown with showDialog and the overlay it drew.
type openDialog struct {
	d       dialog.Dialog
	overlay fyne.CanvasObject
	escape  func() // what Escape does; nil: hide the dialog
}

// showDialog shows d and remembers it until it closes.
func (ds *dialogs) showDialog(d dialog.Dialog) { ds.show(d, nil) }

// show shows d and remembers it until it closes; Escape calls escape, or
// hides d when escape is nil.
func (ds *dialogs) show(d dialog.Dialog, escape func()) {
	d.Show()
	od := openDialog{d: d, overlay: ds.canvas.Overlays().Top(), escape: escape}
	ds.open = append(ds.open, od)
	d.SetOnClosed(func() {
		for i := range ds.open {
			if ds.open[i].d == d {
				ds.open = append(ds.open[:i], ds.open[i+1:]...)
				break
			}
		}
	})
}

// escape closes what is on top of the window; false when nothing is.
func (ds *dialogs) escape() bool {
	top := ds.canvas.Overlays().Top()
	if top == nil {
		return false
	}
	for i := len(ds.open) - 1; i >= 0; i-- {
		if od := ds.open[i]; od.overlay == top {
			if od.escape != nil {
				od.escape()
			} else {
				od.d.Hide()
			}
			return true
		}
	}
	top.Hide()
	ds.canvas.Overlays().Remove(top)
	return true
}

// escEntry is an entry for a dialog: Escape in it calls onEscape when
// set, and the window's keys otherwise go to the window.
type escEntry struct {
	widget.Entry
	onEscape func()
}

func newEscEntry(onEscape func()) *escEntry {
	e := &escEntry{onEscape: onEscape}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *escEntry) TypedKey(ev *fyne.KeyEvent) {
	switch {
	case ev.Name == fyne.KeyEscape && e.onEscape != nil:
		e.onEscape()
	case !widgets.WindowKey(e, ev):
		e.Entry.TypedKey(ev)
	}
}
