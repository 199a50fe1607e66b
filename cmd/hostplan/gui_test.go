package main

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/brief"
	"hostplan/internal/catalog"
	"hostplan/internal/cli"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
	"hostplan/scenarios"
)

// newBackend opens a seeded store in a temporary directory, as the window does.
func newBackend(t *testing.T) *backend {
	t.Helper()
	st, err := store.Open(filepath.Join(t.TempDir(), "hostplan.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	if _, err := st.SeedWith(scenarios.FS, ".", cli.ExampleLineage); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	return &backend{st: st, cat: cat}
}

func TestBackendListLoadEvaluate(t *testing.T) {
	b := newBackend(t)
	items, err := b.List()
	if err != nil || len(items) < 5 {
		t.Fatalf("%d items, %v", len(items), err)
	}
	s, err := b.Load("constrained-snapshot-training")
	if err != nil {
		t.Fatal(err)
	}
	r, err := b.Evaluate(s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Cheapest != scenario.Hybrid || r.Uncertainty == nil || r.Uncertainty.Draws != 10000 || r.Tornado == nil {
		t.Errorf("cheapest %q, uncertainty %v, tornado %v", r.Cheapest, r.Uncertainty != nil, r.Tornado != nil)
	}
}

// Save writes a new revision only for a valid scenario the model can
// evaluate; a bad one is refused with field errors and nothing is written.
func TestBackendSave(t *testing.T) {
	b := newBackend(t)
	s, _ := b.Load("qlora-legal-70b")
	bad := scenario.Clone(s)
	bad.Options.Cloud.Offer = "no-such-offer"
	if _, err := b.Save(bad, "broken"); err == nil {
		t.Fatal("saved a scenario naming an unknown offer")
	} else {
		var fe scenario.Errors
		if !errors.As(err, &fe) || fe[0].Path != "options.cloud.offer" {
			t.Errorf("error %v, want a field error on options.cloud.offer", err)
		}
	}
	bad = scenario.Clone(s)
	bad.Workload.MFU = scenario.Known(3)
	if _, err := b.Save(bad, "broken"); err == nil {
		t.Fatal("saved an MFU of 3")
	}
	if h, _ := b.st.History(s.ID); len(h) != 1 {
		t.Fatalf("%d revisions after refused saves, want 1", len(h))
	}
	good := scenario.Clone(s)
	good.Seed++
	rev, err := b.Save(good, "new seed")
	if err != nil || rev != 2 {
		t.Fatalf("revision %d, %v", rev, err)
	}
	h, _ := b.st.History(s.ID)
	if last := h[len(h)-1]; last.Note != "new seed" || last.ModelVersion == "" || last.CatalogAsOf == "" {
		t.Errorf("lineage %+v", last)
	}
}

func TestBackendChecklist(t *testing.T) {
	b := newBackend(t)
	st, err := b.Checklist("constrained-snapshot-training")
	if err != nil || len(st) != 0 {
		t.Fatalf("fresh checklist %v, %v", st, err)
	}
	ids := brief.ItemIDs(scenario.ShapeTraining)
	if len(ids) == 0 {
		t.Fatal("no checklist items for training")
	}
	state := brief.ChecklistState{}
	if err := state.Set(scenario.ShapeTraining, ids[0], "done", "Platform team"); err != nil {
		t.Fatal(err)
	}
	raw, err := state.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if err := b.st.PutChecklist("constrained-snapshot-training", raw); err != nil {
		t.Fatal(err)
	}
	got, err := b.Checklist("constrained-snapshot-training")
	if err != nil || got[ids[0]].Owner != "Platform team" {
		t.Errorf("checklist %v, %v", got, err)
	}
}

// SaveChecklist stores the state where Checklist (and "hostplan brief")
// reads it; an unknown scenario is refused.
func TestBackendSaveChecklist(t *testing.T) {
	b := newBackend(t)
	const id = "constrained-snapshot-training"
	ids := brief.ItemIDs(scenario.ShapeTraining)
	state := brief.ChecklistState{}
	if err := state.Set(scenario.ShapeTraining, ids[0], brief.StatusDone, "Platform team"); err != nil {
		t.Fatal(err)
	}
	if err := state.Set(scenario.ShapeTraining, ids[1], brief.StatusNotApplicable, ""); err != nil {
		t.Fatal(err)
	}
	if err := b.SaveChecklist(id, state); err != nil {
		t.Fatal(err)
	}
	got, err := b.Checklist(id)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[ids[0]] != state[ids[0]] || got[ids[1]] != state[ids[1]] {
		t.Errorf("checklist after save = %v, want %v", got, state)
	}
	raw, err := b.st.GetChecklist(id)
	if want, _ := state.Encode(); err != nil || string(raw) != string(want) {
		t.Errorf("stored %q, %v; want %q", raw, err, want)
	}
	if err := b.SaveChecklist("no-such-scenario", state); err == nil {
		t.Error("saved a checklist for a scenario that does not exist")
	}
}

// A second window on the same store does not hang or vanish silently: it
// gets the store's "in use" message to show, and the problem window says it.
func TestSecondWindowExplainsTheLock(t *testing.T) {
	db := filepath.Join(t.TempDir(), "hostplan.db")
	st, _, msg := openForGUI(db)
	if msg != "" {
		t.Fatalf("first open: %s", msg)
	}
	defer st.Close()
	_, _, msg = openForGUI(db)
	if !strings.Contains(msg, "in use by another hostplan") {
		t.Fatalf("second open: %q, want the in-use message", msg)
	}
	a := test.NewTempApp(t)
	w := problemWindow(a, msg)
	if w.Title() != "hostplan" {
		t.Errorf("title %q", w.Title())
	}
	found := false
	for _, o := range test.LaidOutObjects(w.Content()) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "in use by another hostplan") {
			found = true
		}
	}
	if !found {
		t.Error("the problem window does not show the message")
	}
}
