package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
)

// Unsaved edits outlive a window that ends without saving them (killed,
// crashed): the next window over the same store offers them back, and
// bringing them back puts them in the form, unsaved, over the scenario
// they were made on; throwing them away removes them.
func TestDraftOutlivesAKilledWindow(t *testing.T) {
	pl := openPlanner(t, "qlora-legal-70b", "support-assistant-70b")
	w, p := openWindow(t, NewBackend(pl))
	f := openForm(t, p, 0)
	id := p.view.live.item.ID
	retype(field(t, f, "purpose.owner").entries()[0], "Claims platform team")
	settled(t, p)
	if text, ok, _ := pl.Setting(settingDraft); !ok || !strings.Contains(text, "Claims platform team") {
		t.Fatalf("no draft in the store after an edit: %q", text)
	}
	_ = w // the window is not closed: it "dies" with its edits unsaved

	// The next window, on the same store.
	a := test.NewTempApp(t)
	w2 := NewWindow(a, NewBackend(pl))
	defer w2.Close()
	p2 := w2.Content().(*planner)
	defer settle(t, p2)
	if !strings.Contains(overlayLabels(w2), "without saving the edits") {
		t.Fatalf("the next window does not offer the unsaved edits: %q", overlayLabels(w2))
	}
	test.Tap(overlayButton(w2, "Bring them back"))
	waitUntil(t, func() bool { p2.pending(); return p2.view.live.form != nil && p2.view.live.work != nil },
		func() string { return "the draft did not open in the form" })
	settle(t, p2)
	e := p2.view.live
	if e.item.ID != id || e.work.Purpose.Owner != "Claims platform team" || !e.dirty() {
		t.Errorf("brought back over %q: owner %q, unsaved %v", e.item.ID, e.work.Purpose.Owner, e.dirty())
	}
	if got := field(t, e.form, "purpose.owner").entries()[0].Text; got != "Claims platform team" {
		t.Errorf("the form shows the owner %q", got)
	}

	// Discarded, the draft goes.
	test.Tap(e.discard)
	settle(t, p2)
	if text, _, _ := pl.Setting(settingDraft); text != "" {
		t.Errorf("the draft stays after Discard: %q", text)
	}
	a3 := test.NewTempApp(t)
	w3 := NewWindow(a3, NewBackend(pl))
	defer w3.Close()
	if w3.Canvas().Overlays().Top() != nil {
		t.Errorf("a window after the edits were discarded asks: %q", overlayLabels(w3))
	}
	settle(t, w3.Content().(*planner))
}
