package brief

import (
	"slices"
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

func TestChecklistItems(t *testing.T) {
	seen := map[string]bool{}
	groups := map[string]int{}
	for _, it := range Items {
		if seen[it.ID] || it.Text == "" || !strings.HasPrefix(it.ID, it.Group+".") {
			t.Errorf("item %+v: duplicate id, empty text or id outside its group", it)
		}
		seen[it.ID] = true
		groups[it.Group]++
		for _, sh := range it.Shape {
			if !slices.Contains(scenario.Shapes, sh) {
				t.Errorf("%s applies to unknown shape %q", it.ID, sh)
			}
		}
	}
	for _, g := range Groups {
		if groups[g.ID] < 6 {
			t.Errorf("group %s has %d items", g.ID, groups[g.ID])
		}
	}
}

// Training items only for training and fine-tuning; serving items only for
// inference (the live-traffic ones only for interactive serving).
func TestChecklistAppliesByShape(t *testing.T) {
	for _, tc := range []struct {
		shape    string
		has, not []string
	}{
		{scenario.ShapeTraining, []string{"training.checkpoint", "environment.seed", "data.local-cache"}, []string{"serving.runtime", "governance.fallback"}},
		{scenario.ShapeFineTuning, []string{"training.resume"}, []string{"serving.cache"}},
		{scenario.ShapeInteractive, []string{"serving.cache", "serving.limits", "serving.rollback", "governance.fallback"}, []string{"training.checkpoint", "environment.tracker"}},
		{scenario.ShapeBatch, []string{"serving.runtime", "serving.versions"}, []string{"serving.cache", "training.early-stop"}},
	} {
		ids := ItemIDs(tc.shape)
		for _, id := range tc.has {
			if !slices.Contains(ids, id) {
				t.Errorf("%s lacks %s", tc.shape, id)
			}
		}
		for _, id := range tc.not {
			if slices.Contains(ids, id) {
				t.Errorf("%s has %s", tc.shape, id)
			}
		}
		for _, e := range Checklist(tc.shape, nil) {
			if e.Status != StatusOpen || e.Owner != "" {
				t.Errorf("%s: default state %s/%q", e.ID, e.Status, e.Owner)
			}
		}
	}
}

func TestChecklistStateRoundTrip(t *testing.T) {
	st := ChecklistState{}
	shape := scenario.ShapeTraining
	if err := st.Set(shape, "before.quota", StatusDone, "Platform team"); err != nil {
		t.Fatal(err)
	}
	if err := st.Set(shape, "data.personal", StatusNotApplicable, ""); err != nil {
		t.Fatal(err)
	}
	// An empty owner keeps the one recorded before.
	if err := st.Set(shape, "before.quota", StatusOpen, ""); err != nil || st["before.quota"].Owner != "Platform team" {
		t.Errorf("owner not kept: %+v, %v", st["before.quota"], err)
	}
	b, err := st.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "before.quota": {
    "status": "open",
    "owner": "Platform team"
  },
  "data.personal": {
    "status": "not_applicable"
  }
}`
	if string(b) != want {
		t.Errorf("encoded:\n%s\nwant:\n%s", b, want)
	}
	back, err := DecodeChecklist(b)
	if err != nil || len(back) != 2 || back["data.personal"].Status != StatusNotApplicable {
		t.Errorf("decoded %+v, %v", back, err)
	}
	entries := Checklist(shape, back)
	for _, e := range entries {
		if e.ID == "before.quota" && e.Owner != "Platform team" {
			t.Errorf("entry %+v", e)
		}
	}
}

func TestChecklistErrors(t *testing.T) {
	st := ChecklistState{}
	for _, tc := range []struct {
		shape, id string
		status    Status
		want      string
	}{
		{scenario.ShapeTraining, "before.coffee", StatusDone, `"before.coffee" is not known (allowed: before.quota,`},
		{scenario.ShapeTraining, "serving.cache", StatusDone, "does not apply to shape training"},
		{scenario.ShapeTraining, "before.quota", "finished", `status "finished" is not known (allowed: open, done, not_applicable)`},
	} {
		if err := st.Set(tc.shape, tc.id, tc.status, ""); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Set(%s, %s): %v, want %q", tc.id, tc.status, err, tc.want)
		}
	}
	if len(st) != 0 {
		t.Errorf("failed sets changed the state: %v", st)
	}
	for _, in := range []string{"", "  ", "null", "{}"} {
		if st, err := DecodeChecklist([]byte(in)); err != nil || st == nil || len(st) != 0 {
			t.Errorf("DecodeChecklist(%q) = %v, %v", in, st, err)
		}
	}
	if _, err := DecodeChecklist([]byte(`{"before.quota": {"status": "maybe"}}`)); err == nil {
		t.Error("a bad status was accepted")
	}
	if _, err := DecodeChecklist([]byte(`[1]`)); err == nil {
		t.Error("a JSON array was accepted")
	}
	// An id the checklist no longer has is kept, not shown.
	st, err := DecodeChecklist([]byte(`{"before.retired": {"status": "done"}}`))
	if err != nil || st["before.retired"].Status != StatusDone {
		t.Errorf("retired id: %v, %v", st, err)
	}
	for _, e := range Checklist(scenario.ShapeTraining, st) {
		if e.ID == "before.retired" {
			t.Error("a retired item is shown")
		}
	}
}
