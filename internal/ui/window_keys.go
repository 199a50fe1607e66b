package ui

import (
	"fyne.io/fyne/v2"
)

// The window's own keys, F11 (review mode) and Escape (close the dialog on
// top, or leave review mode), work whatever has the keyboard. Fyne gives a
// key without a modifier to the focused widget alone, and the window hears
// it only while nothing has the focus; so every widget of the window that
// takes the focus when clicked — its entries, selects, check boxes,
// sliders, lists and tables — is one of package widgets' key-aware types,
// of list_keys.go here or package report's weight sliders, which hand
// those two keys to the window (widgets.WindowKey) and keep every other.
// (A button takes the focus only from Tab, and a selectable label keeps
// Escape: with either focused, the key reaches the window once the focus
// moves on.)

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
