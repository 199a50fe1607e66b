package ui

import (
	"strings"
	"testing"
)

// Help holds a guide and the list of keyboard shortcuts, which names
// every shortcut of the main menu and the window's own keys.
func TestHelpGuideAndShortcuts(t *testing.T) {
	w, p := openWindow(t, newRealBackend(t, "qlora-legal-70b"))
	menuAction(t, w, "Help", "Guide")()
	guide := overlayLabels(w)
	for _, want := range []string{"Choose a scenario", "Edit its inputs", "Compare and review", "Ctrl+Z"} {
		if !strings.Contains(guide, want) {
			t.Errorf("the guide lacks %q", want)
		}
	}
	p.dialogs.escape()

	menuAction(t, w, "Help", "Keyboard shortcuts")()
	keys := overlayLabels(w)
	n := 0
	for _, m := range w.MainMenu().Items {
		for _, it := range m.Items {
			if it.Shortcut == nil {
				continue
			}
			n++
			if !strings.Contains(keys, shortcutText(it.Shortcut)+"\n"+m.Label+" ▸ "+strings.TrimSuffix(it.Label, "…")) {
				t.Errorf("the list lacks %s for %s ▸ %s:\n%s", shortcutText(it.Shortcut), m.Label, it.Label, keys)
			}
		}
	}
	if n < 8 {
		t.Errorf("only %d menu entries have shortcuts", n)
	}
	for _, want := range []string{"Ctrl+Z\nEdit ▸ Undo", "Ctrl+Shift+Z\nEdit ▸ Redo", "Ctrl+S\nFile ▸ Save", "F11", "Escape", "Ctrl 0"} {
		if !strings.Contains(keys, want) {
			t.Errorf("the list lacks %q", want)
		}
	}
}
