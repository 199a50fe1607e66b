package ui

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2/test"

	"hostplan/internal/brief"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/uitest"
)

// checklistStore is a fake backend that reads and writes checklist state.
type checklistStore struct {
	*fakeBackend

	cmu     sync.Mutex
	state   map[string]brief.ChecklistState // scenario id → stored state
	saveErr error
	saved   []savedChecklist
}

// savedChecklist is one call of SaveChecklist.
type savedChecklist struct {
	id string
	st brief.ChecklistState
}

func (c *checklistStore) Checklist(id string) (brief.ChecklistState, error) {
	c.cmu.Lock()
	defer c.cmu.Unlock()
	return maps.Clone(c.state[id]), nil
}

func (c *checklistStore) SaveChecklist(id string, st brief.ChecklistState) error {
	c.cmu.Lock()
	defer c.cmu.Unlock()
	c.saved = append(c.saved, savedChecklist{id, maps.Clone(st)})
	if c.saveErr != nil {
		return c.saveErr
	}
	c.state[id] = maps.Clone(st)
	return nil
}

func (c *checklistStore) saves() []savedChecklist {
	c.cmu.Lock()
	defer c.cmu.Unlock()
	return slices.Clone(c.saved)
}

var _ Backend = (*checklistStore)(nil)

// newChecklistStore is the fake backend with a third scenario, a training
// run, and an empty checklist for each.
func newChecklistStore() *checklistStore {
	fb := newFakeBackend()
	tr := scenario.Clone(fb.scenarios["ft-7b"])
	tr.ID, tr.Name = "pretrain", "Pretrain a small model"
	tr.Workload.Shape = scenario.ShapeTraining
	r := *fb.reports["ft-7b"]
	r.ScenarioID, r.ScenarioName, r.Shape = tr.ID, tr.Name, tr.Workload.Shape
	fb.items = append(fb.items, Item{ID: tr.ID, Name: tr.Name, Shape: tr.Workload.Shape, Revisions: 1})
	fb.scenarios[tr.ID] = tr
	fb.reports[tr.ID] = &r
	return &checklistStore{fakeBackend: fb, state: map[string]brief.ChecklistState{}}
}

func openChecklistTab(t *testing.T, p *planner, i int) *checklistView {
	t.Helper()
	p.scenarios.list.Select(i)
	waitFor(t, p.view, stateReady)
	selectTab(t, p.view.tabs, "Checklist")
	return p.view.checklist
}

// rowIndex finds the row of item id.
func rowIndex(t *testing.T, v *checklistView, id string) int {
	t.Helper()
	i := slices.IndexFunc(v.entries, func(e brief.Entry) bool { return e.ID == id })
	if i < 0 {
		t.Fatalf("no row for %s", id)
	}
	return i
}

// A training scenario lists the items for training, grouped, and none of
// the serving ones; an interactive service does list them.
func TestChecklistTabTrainingExcludesServing(t *testing.T) {
	b := newChecklistStore()
	_, p := openWindow(t, b)
	v := openChecklistTab(t, p, 2)

	var ids []string
	for _, e := range v.entries {
		ids = append(ids, e.ID)
		if strings.HasPrefix(e.ID, "serving.") || e.Group == "serving" {
			t.Errorf("training checklist lists serving item %s", e.ID)
		}
	}
	if want := brief.ItemIDs(scenario.ShapeTraining); !slices.Equal(ids, want) {
		t.Errorf("rows %v, want %v", ids, want)
	}
	if len(v.rows) != len(v.entries) {
		t.Fatalf("%d rows for %d entries", len(v.rows), len(v.entries))
	}
	text := uitest.LabelTexts(v.list)
	for _, want := range []string{"Before anything runs", "Training runs", "Checkpoint often"} {
		if !strings.Contains(text, want) {
			t.Errorf("tab lacks %q", want)
		}
	}
	if strings.Contains(text, "Serving") || strings.Contains(text, "inference runtime") {
		t.Error("training tab shows the serving group")
	}
	if v.note.Visible() || !v.save.Visible() || !v.save.Disabled() {
		t.Errorf("note shown %v, save shown %v disabled %v; want an editable tab with nothing to save", v.note.Visible(), v.save.Visible(), v.save.Disabled())
	}

	v = openChecklistTab(t, p, 1) // the chat service
	if !slices.ContainsFunc(v.entries, func(e brief.Entry) bool { return e.ID == "serving.limits" }) {
		t.Error("interactive checklist lacks serving.limits")
	}
	if slices.ContainsFunc(v.entries, func(e brief.Entry) bool { return e.ID == "training.checkpoint" }) {
		t.Error("interactive checklist lists training.checkpoint")
	}
}

// The summary counts done items and open items without an owner, from
// the stored state and again after each edit.
func TestChecklistTabSummary(t *testing.T) {
	b := newChecklistStore()
	b.state["pretrain"] = brief.ChecklistState{
		"before.quota":    {Status: brief.StatusDone, Owner: "Platform team"},
		"before.region":   {Status: brief.StatusDone},
		"before.budget":   {Status: brief.StatusOpen, Owner: "Finance"},
		"before.shutdown": {Status: brief.StatusNotApplicable},
	}
	_, p := openWindow(t, b)
	v := openChecklistTab(t, p, 2)
	m := len(brief.ItemIDs(scenario.ShapeTraining))
	if want := fmt.Sprintf("2 of %d done, %d open without an owner", m, m-4); v.summary.Text != want {
		t.Errorf("summary %q, want %q", v.summary.Text, want)
	}
	i := rowIndex(t, v, "before.budget")
	v.rows[i].status.SetSelected("done")
	if want := fmt.Sprintf("3 of %d done, %d open without an owner", m, m-4); v.summary.Text != want {
		t.Errorf("after marking one done: summary %q, want %q", v.summary.Text, want)
	}
	test.Type(v.rows[rowIndex(t, v, "data.lineage")].owner, "Data office")
	if want := fmt.Sprintf("3 of %d done, %d open without an owner", m, m-5); v.summary.Text != want {
		t.Errorf("after naming an owner: summary %q, want %q", v.summary.Text, want)
	}
}

// Changing a status and an owner enables Save checklist; saving hands the
// backend the stored state with the change, disables the button again and
// writes the brief with it.
func TestChecklistTabSave(t *testing.T) {
	b := newChecklistStore()
	b.state["pretrain"] = brief.ChecklistState{"before.region": {Status: brief.StatusDone, Owner: "Cloud team"}}
	_, p := openWindow(t, b)
	v := openChecklistTab(t, p, 2)
	if !v.save.Disabled() {
		t.Fatal("Save checklist enabled before any change")
	}

	i := rowIndex(t, v, "before.quota")
	v.rows[i].status.SetSelected("done")
	test.Type(v.rows[i].owner, "Platform team")
	if v.save.Disabled() {
		t.Fatal("Save checklist disabled after a change")
	}
	test.Tap(v.save)
	settle(t, p)

	saves := b.saves()
	if len(saves) != 1 {
		t.Fatalf("%d calls of SaveChecklist, want 1", len(saves))
	}
	want := brief.ChecklistState{
		"before.region": {Status: brief.StatusDone, Owner: "Cloud team"},
		"before.quota":  {Status: brief.StatusDone, Owner: "Platform team"},
	}
	if saves[0].id != "pretrain" || !maps.Equal(saves[0].st, want) {
		t.Errorf("SaveChecklist(%q, %v), want (pretrain, %v)", saves[0].id, saves[0].st, want)
	}
	if !v.save.Disabled() || v.status.Text != "Saved." {
		t.Errorf("after the save: button disabled %v, status %q", v.save.Disabled(), v.status.Text)
	}
	if md := string(p.view.brief.markdown); !strings.Contains(md, "- [x] Ask for GPU quota") {
		t.Error("the Brief tab does not show the saved checklist")
	}

	// Back to open with no owner: the item drops out of the state again.
	v.rows[i].status.SetSelected("open")
	v.rows[i].owner.SetText("")
	test.Tap(v.save)
	settle(t, p)
	if saves = b.saves(); len(saves) != 2 || len(saves[1].st) != 1 {
		t.Errorf("second save %v, want only before.region", saves[len(saves)-1].st)
	}
}

// A failed save says why, keeps the change and the button, and does not
// take the window down.
func TestChecklistTabSaveError(t *testing.T) {
	b := newChecklistStore()
	b.saveErr = errors.New("database is read-only")
	_, p := openWindow(t, b)
	v := openChecklistTab(t, p, 0)
	i := rowIndex(t, v, "before.quota")
	v.rows[i].status.SetSelected("not applicable")
	test.Tap(v.save)
	settle(t, p)
	if !strings.Contains(v.status.Text, "database is read-only") || !v.status.Visible() {
		t.Errorf("status %q (shown %v), want the error", v.status.Text, v.status.Visible())
	}
	if v.save.Disabled() || v.rows[i].status.Selected != "not applicable" {
		t.Error("a failed save lost the change or disabled the button")
	}
}

// When the stored checklist cannot be read the tab is read-only and says
// why: saving it would overwrite what is stored with every item open.
func TestChecklistTabReadOnly(t *testing.T) {
	b := &checklistBackend{fakeBackend: newFakeBackend(), err: errors.New("the checklist bucket is damaged")}
	_, p := openWindow(t, b)
	v := openChecklistTab(t, p, 0)
	if !v.note.Visible() || !strings.Contains(v.note.Text, "cannot be edited here") || !strings.Contains(v.note.Text, "damaged") {
		t.Errorf("note %q (shown %v), want why it is read-only", v.note.Text, v.note.Visible())
	}
	if v.save.Visible() {
		t.Error("Save checklist shown for a checklist that could not be read")
	}
	i := rowIndex(t, v, "before.quota")
	if !v.rows[i].status.Disabled() || !v.rows[i].owner.Disabled() {
		t.Error("rows are editable")
	}
}
