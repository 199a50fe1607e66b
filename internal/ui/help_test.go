package ui

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
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

// menuLabels are every entry of w's main menu, as "menu ▸ entry".
func menuLabels(w fyne.Window) []string {
	var out []string
	for _, m := range w.MainMenu().Items {
		for _, it := range m.Items {
			if !it.IsSeparator {
				out = append(out, m.Label+" ▸ "+it.Label)
			}
		}
	}
	return out
}

// The window offers the same actions over any backend: a backend is one
// interface, and one that cannot do something says so when asked, rather
// than the menu losing the entry.
func TestMenusSameForEveryBackend(t *testing.T) {
	wf, _ := openWindow(t, newFakeBackend())
	wr, _ := openWindow(t, newRealBackend(t, "qlora-legal-70b"))
	if fake, real := menuLabels(wf), menuLabels(wr); !slices.Equal(fake, real) {
		t.Errorf("the menus differ:\nfake %q\nreal %q", fake, real)
	}
}
