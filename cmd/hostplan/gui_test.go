package main

import (
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/app"
	"hostplan/internal/store"
)

// A second window on the same store opens beside the first (the window
// shares the store: app.OpenShared); a store another hostplan holds for
// longer than a writer waits does not hang or vanish silently: the window
// gets the store's "in use" message to show, and the problem window says
// it.
func TestSecondWindowSharesTheStore(t *testing.T) {
	db := filepath.Join(t.TempDir(), "hostplan.db")
	p, msg := openForGUI(db)
	if msg != "" {
		t.Fatalf("first open: %s", msg)
	}
	defer p.Close()
	if _, msg = openForGUI(db); msg != "" {
		t.Fatalf("second open beside the first: %q", msg)
	}
	holder, err := app.Open(db) // a command that writes for a long while
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	_, msg = openForGUI(db)
	if !strings.Contains(msg, "in use by another hostplan") {
		t.Fatalf("open beside a held store: %q, want the in-use message", msg)
	}
	a := test.NewTempApp(t)
	w := problemWindow(a, msg)
	if w.Title() != "hostplan" {
		t.Errorf("title %q", w.Title())
	}
	if !showsText(w.Content(), "in use by another hostplan") {
		t.Error("the problem window does not show the message")
	}
}

// Stored catalog overrides that no longer apply keep the window from
// starting, with a message that says how to drop them; nothing is left
// open, so "hostplan catalog reset" can.
func TestBrokenOverridesExplained(t *testing.T) {
	db := filepath.Join(t.TempDir(), "hostplan.db")
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = st.PutCatalogOverrides([]byte(`{"format":1,"rows":[{"kind":"cloud","id":"gone","field":"on_demand","value":"1","as_of":"2026-01-01","source":"x"}]}`))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	p, msg := openForGUI(db)
	if p != nil || !strings.Contains(msg, "no longer apply") || !strings.Contains(msg, "hostplan catalog reset") {
		t.Fatalf("open with broken overrides: %v, %q", p, msg)
	}
	st, err = store.Open(db, nil)
	if err != nil {
		t.Fatalf("the store was left open: %v", err)
	}
	st.Close()
}

// showsText reports whether a label laid out in o contains s.
func showsText(o fyne.CanvasObject, s string) bool {
	for _, x := range test.LaidOutObjects(o) {
		if l, ok := x.(*widget.Label); ok && strings.Contains(l.Text, s) {
			return true
		}
	}
	return false
}
