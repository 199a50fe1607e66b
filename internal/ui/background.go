package ui

import "fyne.io/fyne/v2"

// inBackground runs work on a goroutine of its own, so that loading,
// evaluating and saving never hold up the window, then hands the function
// work returns to the UI goroutine through fyne.Do, the one way Fyne lets
// another goroutine change a widget: work itself touches none. It is a
// variable so that the package's tests can play the UI goroutine
// (export_test.go).
var inBackground = func(work func() (apply func())) {
	go func() {
		apply := work()
		fyne.Do(apply)
	}()
}
