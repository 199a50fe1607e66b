package ui

import (
	"context"
	"errors"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"hostplan/internal/brief"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

func TestBackendListLoadEvaluate(t *testing.T) {
	b := newRealBackend(t)
	items, err := b.List()
	if err != nil || len(items) < 5 {
		t.Fatalf("%d items, %v", len(items), err)
	}
	s, err := b.Load("constrained-snapshot-training")
	if err != nil {
		t.Fatal(err)
	}
	quick, err := b.Evaluate(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if quick.Cheapest != scenario.Hybrid || quick.Uncertainty != nil || quick.Tornado != nil {
		t.Errorf("Evaluate: cheapest %q, uncertainty %v, tornado %v; want hybrid without a spread", quick.Cheapest, quick.Uncertainty != nil, quick.Tornado != nil)
	}
	r, err := b.Analyze(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if r.Cheapest != scenario.Hybrid || r.Uncertainty == nil || r.Uncertainty.Draws != 10000 || r.Tornado == nil {
		t.Errorf("Analyze: cheapest %q, uncertainty %v, tornado %v", r.Cheapest, r.Uncertainty != nil, r.Tornado != nil)
	}
	if quick.Directions[0].CostHorizon != r.Directions[0].CostHorizon {
		t.Errorf("Evaluate and Analyze cost %v and %v", quick.Directions[0].CostHorizon, r.Directions[0].CostHorizon)
	}
}

// Save writes a new revision only for a valid scenario the model can
// evaluate; a bad one is refused with field errors and nothing is written.
// The revision records who saved it (the login name, as the CLI's --author
// default) and the note.
func TestBackendSave(t *testing.T) {
	t.Setenv("USER", "ana")
	p := openPlanner(t)
	b := NewBackend(p)
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
	if h, _ := p.History(s.ID); len(h) != 1 {
		t.Fatalf("%d revisions after refused saves, want 1", len(h))
	}
	if _, err := b.Save(nil, "nothing"); err == nil {
		t.Error("saved no scenario")
	}
	good := scenario.Clone(s)
	good.Seed++
	rev, err := b.Save(good, "new seed")
	if err != nil || rev != 2 {
		t.Fatalf("revision %d, %v", rev, err)
	}
	h, _ := p.History(s.ID)
	if last := h[len(h)-1]; last.Note != "new seed" || last.Author != "ana" || last.ModelVersion == "" || last.CatalogAsOf == "" {
		t.Errorf("lineage %+v", last)
	}
	if rev, err := b.Save(good, "again"); err != nil || rev != 2 {
		t.Errorf("saving the current content again: revision %d, %v; want 2 and no new revision", rev, err)
	}
}

func TestBackendChecklist(t *testing.T) {
	p := openPlanner(t)
	b := NewBackend(p)
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
	if err := p.SaveChecklist("constrained-snapshot-training", state); err != nil {
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
	p := openPlanner(t)
	b := NewBackend(p)
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
	if err := b.SaveChecklist("no-such-scenario", state); err == nil {
		t.Error("saved a checklist for a scenario that does not exist")
	}

	// What the store holds is the state's own encoding, which "hostplan
	// checklist" and "hostplan brief" read.
	path, _ := p.Path()
	p.Close()
	st, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	raw, err := st.GetChecklist(id)
	if want, _ := state.Encode(); err != nil || string(raw) != string(want) {
		t.Errorf("stored %q, %v; want %q", raw, err, want)
	}
}

// An edit saved in the window's JSON editor reaches the store through the
// application layer as a new revision with its note and author, and the
// list shows it.
func TestWindowSavesThroughApp(t *testing.T) {
	t.Setenv("USER", "ana")
	p := openPlanner(t, "qlora-legal-70b")
	_, w := openWindow(t, NewBackend(p))
	e := openEditor(t, w, 0)
	s, _, _ := p.Load("qlora-legal-70b")
	e.entry.SetText(strings.Replace(e.entry.Text, `"name": "`+s.Name+`"`, `"name": "`+s.Name+`, v2"`, 1))
	if e.save.Disabled() {
		t.Fatalf("Save disabled after a valid change: %s", e.problems.Text)
	}
	test.Type(e.note, "renamed for the review")
	test.Tap(e.save)
	settle(t, w)
	waitShown(t, w, "qlora-legal-70b")
	h, err := p.History("qlora-legal-70b")
	if err != nil || len(h) != 2 {
		t.Fatalf("history %v, %v; want 2 revisions", h, err)
	}
	if last := h[1]; last.Note != "renamed for the review" || last.Author != "ana" || last.CatalogAsOf == "" {
		t.Errorf("lineage %+v", last)
	}
	if it, _ := w.scenarios.item("qlora-legal-70b"); it.Revisions != 2 || it.Name != s.Name+", v2" {
		t.Errorf("list shows %+v", it)
	}
}

// The Checklist tab's Save stores the state where "hostplan checklist"
// reads it.
func TestWindowChecklistThroughApp(t *testing.T) {
	p := openPlanner(t, "constrained-snapshot-training")
	_, w := openWindow(t, NewBackend(p))
	v := openChecklistTab(t, w, 0)
	i := rowIndex(t, v, "before.quota")
	v.rows[i].status.SetSelected("done")
	test.Type(v.rows[i].owner, "Platform team")
	test.Tap(v.save)
	settle(t, w)
	got, err := p.Checklist("constrained-snapshot-training")
	if err != nil || got["before.quota"] != (brief.ItemState{Status: brief.StatusDone, Owner: "Platform team"}) {
		t.Errorf("stored checklist %v, %v", got, err)
	}
}

// A panic in the backend's evaluation or save comes back as an error, so
// the window shows it instead of closing.
func TestBackendPanicBecomesError(t *testing.T) {
	f := func() (r *model.Report, err error) {
		defer recovered(&err)
		panic("index 3 out of range [3] with length 3")
	}
	r, err := f()
	if r != nil || err == nil || err.Error() != "internal error: index 3 out of range [3] with length 3" {
		t.Errorf("got %v, %v", r, err)
	}
}

// Recommendations answers for every listed scenario in one call, as
// Planner.Recommend does one by one; each item carries its revision's
// input hash (the key of its stored outcome), and a scenario the store
// does not hold is not decided, with the reason.
func TestBackendRecommendations(t *testing.T) {
	p := openPlanner(t)
	b := NewBackend(p)
	items, err := b.List()
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range items {
		if len(it.InputHash) != 64 {
			t.Errorf("%s: input hash %q", it.ID, it.InputHash)
		}
	}
	asked := append(items, Item{ID: "no-such-scenario", Revisions: 1})
	recs, err := b.Recommendations(context.Background(), asked)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != len(asked) {
		t.Fatalf("%d answers for %d scenarios", len(recs), len(asked))
	}
	for i, it := range items {
		_, want, err := p.Recommend(context.Background(), it.ID)
		if err != nil {
			t.Fatal(err)
		}
		if recs[i] != (Recommendation{Direction: want}) {
			t.Errorf("%s: %+v, want %q", it.ID, recs[i], want)
		}
	}
	if last := recs[len(recs)-1]; last.Problem == "" || last.Direction != "" {
		t.Errorf("a scenario the store does not hold: %+v", last)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	// Found anew (a catalog override makes every kept outcome stale), so
	// the ended context stops it.
	if _, err := b.Recommendations(ctx, []Item{{ID: items[0].ID}}); !errors.Is(err, context.Canceled) {
		t.Errorf("with an ended context: %v", err)
	}
}
