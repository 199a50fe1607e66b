package main

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// screenArea is the usable area (without the desktop's panels) of the
// screen window w opened on, in w's units; false when it cannot be told.
// Fyne centres a new window on the monitor at the desktop's origin, so
// that is the one measured. It calls GLFW, which Fyne's desktop driver
// has started, and must run on the main thread (the app's OnStarted).
func screenArea(w fyne.Window) (fyne.Size, bool) {
	var chosen *glfw.Monitor
	for _, m := range glfw.GetMonitors() {
		x, y, width, height := m.GetWorkarea()
		if x <= 0 && y <= 0 && x+width > 0 && y+height > 0 {
			chosen = m
			break
		}
	}
	if chosen == nil {
		chosen = glfw.GetPrimaryMonitor()
	}
	if chosen == nil {
		return fyne.Size{}, false
	}
	_, _, width, height := chosen.GetWorkarea()
	scale := w.Canvas().Scale()
	if width <= 0 || height <= 0 || !(scale > 0) {
		return fyne.Size{}, false
	}
	return fyne.NewSize(float32(width)/scale, float32(height)/scale), true
}
