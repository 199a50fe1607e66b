package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// openEditor chooses scenario i and opens the JSON editor on it.
func openEditor(t *testing.T, p *planner, i int) *jsonEditor {
	t.Helper()
	p.scenarios.list.Select(i)
	waitFor(t, p.view, stateReady)
	test.Tap(p.view.edit)
	e := p.editor()
	if e == nil {
		t.Fatal("Edit JSON… opened no editor")
	}
	return e
}

// waitSaves waits until the window has shown the outcome of the saves
// started, and of what they started, and returns the fake's successful
// saves.
func waitSaves(t *testing.T, p *planner, b *fakeBackend) []fakeSave {
	t.Helper()
	settle(t, p)
	return b.saved()
}

// waitShown waits until the view shows the report of scenario id.
func waitShown(t *testing.T, p *planner, id string) {
	t.Helper()
	waitUntil(t, func() bool { return p.view.currentState() == stateReady && p.view.shownID() == id },
		func() string {
			return fmt.Sprintf("view shows %q (state %d), want %q", p.view.shownID(), p.view.currentState(), id)
		})
}

func TestEditJSON(t *testing.T) {
	b := newFakeBackend()
	w, p := openWindow(t, b)
	e := openEditor(t, p, 0)

	want, _ := scenario.Marshal(b.scenarios["ft-7b"])
	if e.entry.Text != string(want) {
		t.Fatalf("editor text is not scenario.Marshal of the current scenario:\n%s", e.entry.Text)
	}
	if !e.save.Disabled() {
		t.Error("Save is enabled before anything changed")
	}
	if !strings.Contains(test.RenderToMarkup(w.Canvas()), "Save as new revision") {
		t.Error("the editor is not on screen")
	}

	// Two problems at once, each as "path: problem (allowed: …)"; Save
	// stays disabled and a tap on it writes nothing.
	bad := strings.Replace(string(want), `"currency": "USD"`, `"currency": "usd"`, 1)
	bad = strings.Replace(bad, `"shape": "fine_tuning"`, `"shape": "finetune"`, 1)
	e.entry.SetText(bad)
	for _, line := range []string{
		`currency: "usd" is not a currency code (allowed: a three-letter ISO 4217 code such as USD or EUR)`,
		`workload.shape: "finetune" is not a known value (allowed: `,
	} {
		if !strings.Contains(e.problems.Text, line) {
			t.Errorf("problems lack %q:\n%s", line, e.problems.Text)
		}
	}
	if n := strings.Count(e.problems.Text, "\n") + 1; !strings.HasPrefix(e.status.Text, fmt.Sprintf("%d problems", n)) {
		t.Errorf("status = %q, want it to count the %d problems:\n%s", e.status.Text, n, e.problems.Text)
	}
	if !e.save.Disabled() {
		t.Error("Save is enabled with an invalid scenario")
	}
	test.Tap(e.save)

	// Not JSON at all: one problem with its line and column.
	e.entry.SetText(string(want[:40]))
	if !strings.Contains(e.problems.Text, "(file): is not valid JSON") {
		t.Errorf("problems for broken JSON = %q", e.problems.Text)
	}

	// Valid and changed: Save is enabled and saves a new revision with
	// the note; the list is reloaded and the saved scenario chosen again.
	good := strings.Replace(string(want), `"name": "Fine-tune 7B on claims notes"`, `"name": "Fine-tune 7B on claims notes, v2"`, 1)
	e.entry.SetText(good)
	if e.save.Disabled() || e.problems.Text != "" {
		t.Fatalf("valid text: save disabled %v, problems %q", e.save.Disabled(), e.problems.Text)
	}
	test.Type(e.note, "renamed for the review")
	test.Tap(e.save)
	saves := waitSaves(t, p, b)
	if len(saves) != 1 {
		t.Fatalf("%d saves, want 1 (the invalid text must never reach Save)", len(saves))
	}
	if got := saves[0]; got.s.Name != "Fine-tune 7B on claims notes, v2" || got.note != "renamed for the review" || got.s.ID != "ft-7b" {
		t.Errorf("saved %q (%q) with note %q", got.s.Name, got.s.ID, got.note)
	}
	// The fake's report keeps its old name; the scenario shown is the saved one.
	waitShown(t, p, "ft-7b")
	if got := p.view.current.s.Name; got != "Fine-tune 7B on claims notes, v2" {
		t.Errorf("the view shows %q after the save", got)
	}
	if it, _ := p.scenarios.item("ft-7b"); it.Revisions != 4 {
		t.Errorf("list shows %d revisions, want 4", it.Revisions)
	}
	if !strings.Contains(p.scenarios.notice.Text, "revision 4") {
		t.Errorf("notice = %q", p.scenarios.notice.Text)
	}
}

// A save the backend refuses (an offer the catalog lacks) leaves the
// dialog open with the problems, and nothing is saved.
func TestEditJSONSaveRefused(t *testing.T) {
	b := newFakeBackend()
	b.saveErr = scenario.Errors{{Path: "options.cloud.offer", Problem: `"hyperscaler-h200" is not in the catalog`, Allowed: "hyperscaler-h100, gcp-a3-h100-eu"}}
	_, p := openWindow(t, b)
	e := openEditor(t, p, 0)
	e.entry.SetText(strings.Replace(e.entry.Text, `"hyperscaler-h100"`, `"hyperscaler-h200"`, 1))
	test.Tap(e.save)
	waitSaves(t, p, b)
	if !strings.HasPrefix(e.status.Text, "Not saved") {
		t.Errorf("status = %q", e.status.Text)
	}
	want := `options.cloud.offer: "hyperscaler-h200" is not in the catalog (allowed: hyperscaler-h100, gcp-a3-h100-eu)`
	if e.problems.Text != want {
		t.Errorf("problems = %q, want %q", e.problems.Text, want)
	}
	if e.save.Disabled() {
		t.Error("Save stays disabled after a refused save; the user cannot retry")
	}
	if n := len(b.saved()); n != 0 {
		t.Errorf("%d saves", n)
	}
}

// Changing the id says that a new scenario will be made and the old one
// kept.
func TestEditJSONNewID(t *testing.T) {
	_, p := openWindow(t, newFakeBackend())
	e := openEditor(t, p, 0)
	e.entry.SetText(strings.Replace(e.entry.Text, `"id": "ft-7b"`, `"id": "ft-7b-q3"`, 1))
	if !strings.Contains(e.status.Text, "creates the new scenario “ft-7b-q3”; “ft-7b” stays as it is") {
		t.Errorf("status = %q", e.status.Text)
	}
	e.entry.SetText(strings.Replace(e.entry.Text, `"id": "ft-7b-q3"`, `"id": "chat"`, 1))
	if !strings.Contains(e.status.Text, "another stored scenario has") {
		t.Errorf("status = %q", e.status.Text)
	}
}

func TestDuplicate(t *testing.T) {
	b := newFakeBackend()
	_, p := openWindow(t, b)
	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)

	test.Tap(p.view.duplicate)
	saves := waitSaves(t, p, b)
	if got := saves[0].s; got.ID != "ft-7b-copy" || got.Name != "Fine-tune 7B on claims notes (copy)" || saves[0].note != "duplicate of ft-7b" {
		t.Errorf("duplicate = %q %q, note %q", got.ID, got.Name, saves[0].note)
	}
	waitShown(t, p, "ft-7b-copy")
	if !b.scenarios["ft-7b"].Workload.TokensPerRunB.IsEstimate() || b.scenarios["ft-7b"].Name != "Fine-tune 7B on claims notes" {
		t.Error("duplicating changed the original")
	}

	// Duplicating the original again takes the next free id.
	p.scenarios.selectID("ft-7b")
	waitShown(t, p, "ft-7b")
	test.Tap(p.view.duplicate)
	if saves := waitSaves(t, p, b); saves[1].s.ID != "ft-7b-copy-2" {
		t.Errorf("second duplicate id = %q, want ft-7b-copy-2", saves[1].s.ID)
	}
}

func TestCopyID(t *testing.T) {
	long := strings.Repeat("a", 62)
	for _, tc := range []struct {
		id    string
		taken []string
		want  string
	}{
		{"ft-7b", nil, "ft-7b-copy"},
		{"ft-7b", []string{"ft-7b-copy", "ft-7b-copy-2"}, "ft-7b-copy-3"},
		{long, nil, strings.Repeat("a", 59) + "-copy"}, // at most 64 characters
	} {
		got := copyID(tc.id, func(id string) bool { return contains(tc.taken, id) })
		if got != tc.want {
			t.Errorf("copyID(%q) = %q, want %q", tc.id, got, tc.want)
		}
		if s := (&scenario.Scenario{ID: got}); len(s.ID) > maxIDLength {
			t.Errorf("copyID(%q) = %q is longer than %d", tc.id, got, maxIDLength)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// An imported file with problems is not saved, and every problem names
// the file; a good file is saved with a note and chosen.
func TestImport(t *testing.T) {
	b := newFakeBackend()
	_, p := openWindow(t, b)

	good, _ := scenario.Marshal(b.scenarios["ft-7b"])
	bad := strings.Replace(string(good), `"currency": "USD"`, `"currency": "dollars"`, 1)
	bad = strings.Replace(bad, `"precision": "bf16"`, `"precision": "bf17"`, 1)
	p.importBytes("claims.json", []byte(bad))
	if p.problemsShown() == nil {
		t.Fatal("no problems shown for a bad file")
	}
	for _, want := range []string{
		`claims.json: currency: "dollars" is not a currency code`,
		`claims.json: workload.precision: "bf17" is not a known value (allowed: `,
	} {
		if !strings.Contains(p.problemsShown().Text, want) {
			t.Errorf("problems lack %q:\n%s", want, p.problemsShown().Text)
		}
	}
	p.importBytes("notes.txt", []byte("not json"))
	if !strings.HasPrefix(p.problemsShown().Text, "notes.txt: (file): is not valid JSON") {
		t.Errorf("problems = %q", p.problemsShown().Text)
	}
	if n := len(b.saved()); n != 0 {
		t.Fatalf("%d saves from bad files", n)
	}

	imported := strings.Replace(string(good), `"id": "ft-7b"`, `"id": "ft-7b-import"`, 1)
	p.importBytes("ft-7b-import.json", []byte(imported))
	saves := waitSaves(t, p, b)
	if saves[0].s.ID != "ft-7b-import" || saves[0].note != "imported from ft-7b-import.json" {
		t.Errorf("saved %q with note %q", saves[0].s.ID, saves[0].note)
	}
	waitShown(t, p, "ft-7b-import")
	if !strings.Contains(p.scenarios.notice.Text, "Imported ft-7b-import.json as") {
		t.Errorf("notice = %q", p.scenarios.notice.Text)
	}

	// The backend's objection is shown with the file name, too.
	b.mu.Lock()
	b.saveErr = errors.New("database is locked")
	b.mu.Unlock()
	p.importBytes("again.json", []byte(imported))
	waitSaves(t, p, b)
	if !strings.Contains(p.problemsShown().Text, "again.json: database is locked") {
		t.Errorf("problems = %q", p.problemsShown().Text)
	}
}

// The JSON editor names a problem by the field's label, then its path: a
// reader who does not know the schema sees which input is wrong.
func TestEditorProblemsNameTheField(t *testing.T) {
	text, err := os.ReadFile("../../scenarios/qlora-legal-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(text, &doc); err != nil {
		t.Fatal(err)
	}
	doc["workload"].(map[string]any)["model"].(map[string]any)["params_b"] = 1e308
	text, _ = json.Marshal(doc)
	_, err = scenario.Parse(text)
	if err == nil {
		t.Fatal("a model of 1e308 billion parameters parsed")
	}
	lines := problemLines(err)
	f, _ := present.Lookup("workload.model.params_b")
	found := false
	for _, l := range lines {
		if strings.HasPrefix(l, f.Label+": ") && strings.HasSuffix(l, "— at workload.model.params_b") {
			found = true
		}
		if strings.HasPrefix(l, "workload.") {
			t.Errorf("a problem starts with its JSON path: %q", l)
		}
	}
	if !found {
		t.Errorf("no line names %q and its path: %q", f.Label, lines)
	}
}
