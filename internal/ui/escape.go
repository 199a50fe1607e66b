package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"
)

// Escape closes the dialog on top of the window. Fyne's dialogs do not
// listen for it: the window hears Escape when nothing has the keyboard,
// and the fields of this package's dialogs (escEntry) pass it on. A
// dialog shown with showDialog closes as its Cancel or Close button would
// (its callback runs); any other pop-up on top is hidden.
type dialogs struct {
	canvas fyne.Canvas
	open   []openDialog
}

// openDialog is a dialog shown with showDialog and the overlay it drew.
type openDialog struct {
	d       dialog.Dialog
	overlay fyne.CanvasObject
}

// showDialog shows d and remembers it until it closes.
func (ds *dialogs) showDialog(d dialog.Dialog) {
	d.Show()
	od := openDialog{d: d, overlay: ds.canvas.Overlays().Top()}
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
		if ds.open[i].overlay == top {
			ds.open[i].d.Hide()
			return true
		}
	}
	top.Hide()
	ds.canvas.Overlays().Remove(top)
	return true
}

// typedKey is the window's handler of keys typed while nothing has the
// keyboard.
func (ds *dialogs) typedKey(ev *fyne.KeyEvent) {
	if ev.Name == fyne.KeyEscape {
		ds.escape()
	}
}

// escEntry is an entry for a dialog: Escape in it closes the dialog, and
// Return calls onSubmit (as OnSubmitted would) when set.
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
	if ev.Name == fyne.KeyEscape && e.onEscape != nil {
		e.onEscape()
		return
	}
	e.Entry.TypedKey(ev)
}
