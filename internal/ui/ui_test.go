package ui

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/uitest"
)

// openWindow creates the main window on a test app, as main would.
func openWindow(t *testing.T, b Backend) (fyne.Window, *planner) {
	t.Helper()
	a := test.NewTempApp(t)
	w := NewWindow(a, b)
	t.Cleanup(w.Close)
	p, ok := w.Content().(*planner)
	if !ok {
		t.Fatalf("window content is %T, want *planner", w.Content())
	}
	// An evaluation still running when a test ends would be applied to
	// this window during the next test: wait for it first.
	t.Cleanup(func() { settle(t, p) })
	return w, p
}

// settle waits until no evaluation of the window is running.
func settle(t *testing.T, p *planner) {
	t.Helper()
	waitUntil(t, func() bool { return p.pending() == 0 },
		func() string { return fmt.Sprintf("%d evaluations still running", p.pending()) })
}

// waitFor polls the view until it reaches state want. Evaluation runs on
// another goroutine.
func waitFor(t *testing.T, v *scenarioView, want viewState) {
	t.Helper()
	waitUntil(t, func() bool { return v.currentState() == want },
		func() string { return fmt.Sprintf("view state = %d, want %d", v.currentState(), want) })
}

// waitUntil polls cond for up to a minute and fails with what() if it
// stays false. The fake backend answers in microseconds; the real model's
// Monte Carlo takes tens of milliseconds, ten times as long under the race
// detector, and longer again when CI runs every package's tests at once.
func waitUntil(t *testing.T, cond func() bool, what func() string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after a minute: %s", what())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func TestWindowListsScenarios(t *testing.T) {
	w, p := openWindow(t, newFakeBackend())

	if got := w.Title(); got != "hostplan" {
		t.Errorf("title = %q, want %q", got, "hostplan")
	}
	if got := p.scenarios.list.Length(); got != 2 {
		t.Fatalf("list has %d items, want 2", got)
	}
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Fine-tune 7B on claims notes", "Fine-tuning · 3 revisions", "Citizen chat assistant", "Interactive inference · 1 revision"} {
		if !strings.Contains(markup, want) {
			t.Errorf("scenario list does not show %q", want)
		}
	}
	if got := p.view.currentState(); got != stateEmpty {
		t.Errorf("state before a choice = %d, want stateEmpty", got)
	}
}

func TestSelectShowsReport(t *testing.T) {
	w, p := openWindow(t, newFakeBackend())

	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)

	v := p.view
	if got, want := v.title.Text, "Fine-tune 7B on claims notes"; got != want {
		t.Errorf("title = %q, want %q", got, want)
	}
	for _, want := range []string{"Fine-tuning", "one run = one fine-tuning run", "horizon 24 months", "Prices as of 2025-06-01 (the oldest a feasible direction used)"} {
		if !strings.Contains(v.facts.Text, want) {
			t.Errorf("facts %q lack %q", v.facts.Text, want)
		}
	}
	// One headline: the recommended direction; the cheapest second, with
	// why it is not the one recommended.
	if got, want := v.decision.Headline(), "Recommended: Hybrid"; got != want {
		t.Errorf("headline = %q, want %q", got, want)
	}
	if got, want := v.cheapest.Text, "Cheapest feasible: Cloud IaaS, USD 1,234,568 over 24 months. It ranks 2nd (score 0.73 against 0.80): Hybrid costs 5 % more, but the weights favour it on sovereignty."; got != want {
		t.Errorf("cheapest = %q, want %q", got, want)
	}

	// Every cell, visible or scrolled away. Each direction is dated by
	// the prices it used: the cloud's, newer than the report's oldest
	// (2025-06-01, the header's), show as they are; managed used none.
	wantRows := [][]string{
		{"Managed service", "No", "Per-token service", report.NoValue, report.NoValue, report.NoValue, report.NoValue, "• the provider may not process personal data\n• data may not leave the EU"},
		{"Cloud IaaS", "Yes", "8 × h100-sxm", "6.3", "USD 1,235", "USD 1,234,568", report.NoValue, ""},
		{"On-premises", "Yes", "16 × l40s", "11.5", "USD 5,200", "USD 1,750,000", report.NoValue, ""},
		// Ruled out: its figures would not happen.
		{"Shared HPC", "No", "4 × a100-80gb", report.NoValue, report.NoValue, report.NoValue, report.NoValue, "queue wait and wall-time chunks exceed the 72 h deadline"},
		{"Hybrid", "Yes", "8 × h100-sxm", "9.0", "USD 1,500", "USD 1,300,000", report.NoValue, ""},
	}
	rows := drawnCells(v.report)
	if len(rows) != len(wantRows) {
		t.Fatalf("table has %d rows, want %d", len(rows), len(wantRows))
	}
	for i, want := range wantRows {
		if got := rows[i]; !slices.Equal(got, want) {
			t.Errorf("row %d:\n got %q\nwant %q", i, got, want)
		}
	}
	if got, want := v.report.Dates(), "Prices as of (the oldest price each direction used): Cloud IaaS 2026-01-21 · On-premises 2025-06-01 · Shared HPC 2025-09-01 · Hybrid 2026-01-21."; got != want {
		t.Errorf("prices dated %q, want %q", got, want)
	}

	// What the window actually draws.
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Direction", "Feasible", "Why not", "Managed service", "Cloud IaaS", "On-premises", "Shared HPC", "Hybrid", "USD 1,234,568", "USD 1,300,000", "2026-01-21"} {
		if !strings.Contains(markup, want) {
			t.Errorf("window does not show %q", want)
		}
	}

	// Inputs tab: grouped, with estimates labelled.
	inputs := uitest.LabelTexts(v.inputs.Scroll().Content)
	for _, want := range []string{"Purpose", "Workload", "Data", "Decision dimensions", "Direction options", "Tokens per run (billions)", "2 (1.5–3, estimate)", "Budget cap over the horizon (USD)", "2,000,000", "Only an approved, minimised snapshot may leave"} {
		if !strings.Contains(inputs, want) {
			t.Errorf("Inputs tab lacks %q", want)
		}
	}

	// Notes tab: warnings and per-direction notes.
	notes := uitest.SegmentTexts(v.notes.Segments)
	for _, want := range []string{"Warnings", "Tokens per run is an estimate", "On-demand price; a 1-year commitment would cost less.", "Shared HPC"} {
		if !strings.Contains(notes, want) {
			t.Errorf("Notes tab lacks %q", want)
		}
	}
}

func TestNothingFeasible(t *testing.T) {
	_, p := openWindow(t, newFakeBackend())

	p.scenarios.list.Select(1)
	waitFor(t, p.view, stateReady)

	if !strings.HasPrefix(p.view.cheapest.Text, "No direction is feasible") {
		t.Errorf("cheapest = %q, want the no-feasible message", p.view.cheapest.Text)
	}
	if got := p.view.cheapest.Importance; got != widget.DangerImportance {
		t.Errorf("no-feasible message importance = %v, want danger", got)
	}
}

func TestBackendErrorsAreShown(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*fakeBackend)
		want string
	}{
		{"evaluate", func(f *fakeBackend) { f.evalErr = errors.New("catalog has no offer for region eu-north") },
			"Could not evaluate “Fine-tune 7B on claims notes”: catalog has no offer for region eu-north"},
		{"load", func(f *fakeBackend) { f.loadErr = errors.New("revision 3 is corrupt") },
			"Could not load “Fine-tune 7B on claims notes”: revision 3 is corrupt"},
		{"no report", func(f *fakeBackend) { f.reports = nil },
			"Could not evaluate “Fine-tune 7B on claims notes”: the model returned no report"},
		{"panic", func(f *fakeBackend) { f.evalPanic = "index out of range" },
			"Could not evaluate “Fine-tune 7B on claims notes”: internal error: index out of range"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newFakeBackend()
			tc.set(b)
			w, p := openWindow(t, b)

			p.scenarios.list.Select(0)
			waitFor(t, p.view, stateFailed)

			if got := p.view.message.Text; got != tc.want {
				t.Errorf("message = %q, want %q", got, tc.want)
			}
			if !strings.Contains(test.RenderToMarkup(w.Canvas()), tc.want) {
				t.Errorf("window does not show %q", tc.want)
			}
			if p.view.body.Visible() {
				t.Error("report body visible after an error")
			}
		})
	}
}

func TestListErrorIsShown(t *testing.T) {
	b := newFakeBackend()
	b.listErr = errors.New("database is locked by another hostplan")
	w, p := openWindow(t, b)

	if got := p.scenarios.list.Length(); got != 0 {
		t.Errorf("list has %d items after an error, want 0", got)
	}
	want := "Could not read the scenarios: database is locked by another hostplan"
	if got := p.scenarios.message.Text; got != want || !p.scenarios.message.Visible() {
		t.Errorf("message = %q (visible %v), want %q shown", got, p.scenarios.message.Visible(), want)
	}
	// The message wraps in the narrow pane, so look for its start only.
	if !strings.Contains(test.RenderToMarkup(w.Canvas()), "Could not read the scenarios") {
		t.Error("window does not show the error")
	}
}

// A result that arrives after the user chose another scenario is dropped.
func TestLateResultIsDropped(t *testing.T) {
	b := newFakeBackend()
	first := make(chan struct{})
	b.gate = map[string]chan struct{}{"ft-7b": first}
	_, p := openWindow(t, b)

	p.scenarios.list.Select(0) // blocks in Evaluate until first is closed
	p.scenarios.list.Select(1)
	waitFor(t, p.view, stateReady)
	close(first)
	waitUntil(t, func() bool { return p.pending() == 0 },
		func() string { return fmt.Sprintf("%d evaluations still running, want none", p.pending()) })

	if got := p.view.currentState(); got != stateReady {
		t.Errorf("state = %d, want stateReady", got)
	}
	if got, want := p.view.title.Text, "Citizen chat assistant"; got != want {
		t.Errorf("title = %q, want %q (the later choice)", got, want)
	}
}

// Choosing another scenario cancels the evaluation still running for the
// one before: its work ends (it would otherwise wait forever here) rather
// than finishing for a result nobody will see.
func TestSupersededEvaluationIsCancelled(t *testing.T) {
	b := newFakeBackend()
	b.gate = map[string]chan struct{}{"ft-7b": make(chan struct{})} // never opened
	_, p := openWindow(t, b)

	p.scenarios.list.Select(0) // waits in Evaluate until cancelled
	p.scenarios.list.Select(1)
	waitUntil(t, func() bool { return p.pending() == 0 },
		func() string { return fmt.Sprintf("%d evaluations still running, want none", p.pending()) })
	b.mu.Lock()
	cancelled := slices.Clone(b.cancelled)
	b.mu.Unlock()
	if !slices.Equal(cancelled, []string{"ft-7b"}) {
		t.Errorf("cancelled evaluations %v, want [ft-7b]", cancelled)
	}
	if got, want := p.view.title.Text, "Citizen chat assistant"; got != want {
		t.Errorf("title = %q, want %q (the later choice)", got, want)
	}
}

// The window's title names what it shows: the scenario (as its form names
// it while edited, marked while unsaved), the comparison, or nothing.
func TestTitleNamesScenario(t *testing.T) {
	w, p := openWindow(t, newFakeBackend())
	if got := w.Title(); got != "hostplan" {
		t.Errorf("title before a choice %q", got)
	}
	f := openForm(t, p, 0)
	if got, want := w.Title(), "Fine-tune 7B on claims notes — hostplan"; got != want {
		t.Errorf("title %q, want %q", got, want)
	}
	retype(field(t, f, "name").entries()[0], "Claims notes, 7B")
	if got, want := w.Title(), "Claims notes, 7B • unsaved — hostplan"; got != want {
		t.Errorf("title after renaming in the form %q, want %q", got, want)
	}
	settled(t, p)
	test.Tap(p.view.live.discard)
	settled(t, p)
	test.Tap(p.scenarios.compare)
	if got, want := w.Title(), "Comparing 1 scenario — hostplan"; got != want {
		t.Errorf("title while comparing %q, want %q", got, want)
	}
	test.Tap(p.scenarios.compare)
	if got, want := w.Title(), "Fine-tune 7B on claims notes — hostplan"; got != want {
		t.Errorf("title after comparing %q, want %q", got, want)
	}
}
