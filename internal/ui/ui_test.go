package ui

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/uitest"
	"hostplan/internal/ui/widgets"
)

// fakeBackend serves hand-built scenarios and reports from memory.
type fakeBackend struct {
	items     []Item
	scenarios map[string]*scenario.Scenario
	reports   map[string]*model.Report

	listErr, loadErr, evalErr error
	evalPanic                 string // when set, Evaluate panics with it

	// gate, when set, makes Evaluate of a scenario wait until its channel
	// is closed, so a test can finish evaluations out of order.
	gate map[string]chan struct{}
	// cancelled lists the scenarios whose gated evaluation ended because
	// the window cancelled it.
	cancelled []string

	// mu guards what Save changes: items, scenarios, reports and saves.
	mu         sync.Mutex
	saveErr    error
	saves      []fakeSave
	lastLoaded string // the id Load last returned, whose report a new scenario copies
	evals      int    // calls of Evaluate
	deleted    map[string]Item
	settings   map[string]string

	// recs are the decisions Recommendations answers, by scenario id (a
	// scenario without one is not decided, and says so); recCalls lists
	// the ids each call of it asked for.
	recs     map[string]Recommendation
	recCalls [][]string
	recErr   error // when set, Recommendations fails with it
}

// fakeSave is one successful call of Save.
type fakeSave struct {
	s    *scenario.Scenario
	note string
	rev  int
}

func (f *fakeBackend) List() ([]Item, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.items), f.listErr
}

func (f *fakeBackend) Load(id string) (*scenario.Scenario, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.loadErr != nil {
		return nil, f.loadErr
	}
	s, ok := f.scenarios[id]
	if !ok {
		return nil, fmt.Errorf("no scenario %q", id)
	}
	f.lastLoaded = id
	return s, nil
}

// Evaluate and Analyze give the report built for s's id; evaluations
// counts the calls of Analyze, each a full evaluation.
func (f *fakeBackend) Evaluate(ctx context.Context, s *scenario.Scenario) (*model.Report, error) {
	return f.evaluate(ctx, s, false)
}

func (f *fakeBackend) Analyze(ctx context.Context, s *scenario.Scenario) (*model.Report, error) {
	return f.evaluate(ctx, s, true)
}

func (f *fakeBackend) evaluate(ctx context.Context, s *scenario.Scenario, full bool) (*model.Report, error) {
	if full {
		f.mu.Lock()
		f.evals++
		f.mu.Unlock()
	}
	if ch, ok := f.gate[s.ID]; ok {
		select {
		case <-ch:
		case <-ctx.Done():
			f.mu.Lock()
			f.cancelled = append(f.cancelled, s.ID)
			f.mu.Unlock()
			return nil, ctx.Err()
		}
	}
	if f.evalPanic != "" {
		panic(f.evalPanic)
	}
	if f.evalErr != nil {
		return nil, f.evalErr
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reports[s.ID], nil
}

// Save validates s as the store does and keeps it as the next revision;
// a new scenario is reported like the one last loaded (a duplicate or an
// edit of it), or like the first one.
func (f *fakeBackend) Save(s *scenario.Scenario, note string) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.saveErr != nil {
		return 0, f.saveErr
	}
	if errs := scenario.Validate(s); errs != nil {
		return 0, errs
	}
	s = scenario.Clone(s)
	rev := 1
	i := slices.IndexFunc(f.items, func(it Item) bool { return it.ID == s.ID })
	if i >= 0 {
		f.items[i].Revisions++
		f.items[i].Name, f.items[i].Shape = s.Name, s.Workload.Shape
		rev = f.items[i].Revisions
	} else {
		f.items = append(f.items, Item{ID: s.ID, Name: s.Name, Shape: s.Workload.Shape, Revisions: 1})
	}
	if f.scenarios == nil {
		f.scenarios = map[string]*scenario.Scenario{}
	}
	f.scenarios[s.ID] = s
	if _, ok := f.reports[s.ID]; !ok && f.reports != nil {
		from := f.reports[f.lastLoaded]
		if from == nil && len(f.items) > 0 {
			from = f.reports[f.items[0].ID]
		}
		if from != nil {
			r := *from
			r.ScenarioID, r.ScenarioName = s.ID, s.Name
			f.reports[s.ID] = &r
		}
	}
	f.saves = append(f.saves, fakeSave{s: s, note: note, rev: rev})
	return rev, nil
}

// evaluations is the number of calls of Evaluate so far.
func (f *fakeBackend) evaluations() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.evals
}

// saved returns the successful saves so far.
func (f *fakeBackend) saved() []fakeSave {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.saves)
}

var _ Backend = (*fakeBackend)(nil)

// newFakeBackend holds two scenarios (package uitest's): a fine-tuning
// job where cloud is the cheapest feasible direction and managed is ruled
// out, and a chat service where nothing is feasible.
func newFakeBackend() *fakeBackend {
	ft, ftReport := uitest.FineTuning()
	chat, chatReport := uitest.Chat()
	return &fakeBackend{
		items: []Item{
			{ID: ft.ID, Name: ft.Name, Shape: ft.Workload.Shape, Revisions: 3},
			{ID: chat.ID, Name: chat.Name, Shape: chat.Workload.Shape, Revisions: 1},
		},
		scenarios: map[string]*scenario.Scenario{ft.ID: ft, chat.ID: chat},
		reports:   map[string]*model.Report{ft.ID: ftReport, chat.ID: chatReport},
		// As the reports rank them: cloud first for ft-7b, nothing
		// feasible for chat.
		recs: map[string]Recommendation{ft.ID: {Direction: scenario.Cloud}, chat.ID: {}},
	}
}

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

// waitUntil polls cond for up to 10 s and fails with what() if it stays
// false. The fake backend answers in microseconds; the real model's Monte
// Carlo takes tens of milliseconds, and ten times as long under the race
// detector.
func waitUntil(t *testing.T, cond func() bool, what func() string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("after 10 s: %s", what())
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

// TestScreenshot writes the window, with the first scenario chosen, to PNG
// files named after HOSTPLAN_SCREENSHOT, so a person can look at it: the
// Report tab in the light theme to that path, and every tab in the light
// and dark themes beside it ("-light-inputs.png", "-dark-report.png", …);
// a fragile decision, the JSON editor and a refused import ("-light-fragile",
// "-light-edit-invalid", "-light-import-problems"); and, through the real
// model, every tab of two example scenarios and three of them compared
// ("-real-ID-TAB.png", "-real-compare.png"). It is skipped when the
// variable is unset.
func TestScreenshot(t *testing.T) {
	path := os.Getenv("HOSTPLAN_SCREENSHOT")
	if path == "" {
		t.Skip("set HOSTPLAN_SCREENSHOT=/path/to/file.png to write screenshots")
	}
	base := strings.TrimSuffix(path, ".png")
	for _, variant := range []struct {
		name string
		v    fyne.ThemeVariant
	}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}} {
		a := test.NewTempApp(t)
		// The test app's own theme is not what users see; use Fyne's.
		a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), variant.v})
		w := NewWindow(a, newFakeBackend())
		p := w.Content().(*planner)
		p.scenarios.list.Select(0)
		waitFor(t, p.view, stateReady)

		for i, item := range p.view.tabs.Items {
			tab := strings.ToLower(item.Text)
			p.view.tabs.SelectIndex(i)
			file := fmt.Sprintf("%s-%s-%s.png", base, variant.name, tab)
			writePNG(t, file, w.Canvas().Capture())
			if variant.name == "light" && tab == "report" {
				writePNG(t, path, w.Canvas().Capture())
			}
		}
		if variant.name == "light" {
			selectTab(t, p.view.tabs, "Inputs")
			p.view.inputs.Scroll().ScrollToBottom()
			writePNG(t, base+"-light-inputs-end.png", w.Canvas().Capture())

			p.view.tabs.SelectIndex(0)
			p.scenarios.list.Select(1)
			waitFor(t, p.view, stateReady)
			writePNG(t, base+"-light-none-feasible.png", w.Canvas().Capture())
			selectTab(t, p.view.tabs, "Brief")
			writePNG(t, base+"-light-brief-too-few.png", w.Canvas().Capture())
			p.view.tabs.SelectIndex(0)

			screenshotEditing(t, base, w, p)

			w.Resize(fyne.NewSize(1000, 700)) // a smaller laptop screen
			p.scenarios.list.Select(0)
			waitFor(t, p.view, stateReady)
			writePNG(t, base+"-light-1000x700.png", w.Canvas().Capture())
		}
		w.Close()
	}
	screenshotReal(t, base)
}

// screenshotEditing writes the JSON editor with problems and when valid,
// and the problems of a bad import.
func screenshotEditing(t *testing.T, base string, w fyne.Window, p *planner) {
	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)
	writePNG(t, base+"-light-header.png", w.Canvas().Capture())
	r, d := uitest.FragileDecision()
	p.view.decision.Set(r, d, nil)
	p.view.reportScroll.Content.Refresh() // as setReport does after it
	writePNG(t, base+"-light-fragile.png", w.Canvas().Capture())
	p.view.decision.Set(p.view.current.r, p.view.current.dec, p.view.current.decErr)
	p.view.reportScroll.Content.Refresh()

	test.Tap(p.view.edit)
	e := p.editor()
	good := e.entry.Text
	bad := strings.Replace(good, `"currency": "USD"`, `"currency": "usd"`, 1)
	bad = strings.Replace(bad, `"shape": "fine_tuning"`, `"shape": "finetune"`, 1)
	e.entry.SetText(bad)
	writePNG(t, base+"-light-edit-invalid.png", w.Canvas().Capture())
	e.entry.SetText(strings.Replace(good, `"name": "Fine-tune 7B on claims notes"`, `"name": "Fine-tune 7B, v2"`, 1))
	writePNG(t, base+"-light-edit-valid.png", w.Canvas().Capture())
	e.dialog.Hide()

	p.importBytes("claims.json", []byte(bad))
	writePNG(t, base+"-light-import-problems.png", w.Canvas().Capture())
	for _, o := range w.Canvas().Overlays().List() {
		w.Canvas().Overlays().Remove(o)
	}
}

// screenshotReal writes every tab of example scenarios evaluated by the
// real model, as "-real-ID-TAB.png" beside base.
func screenshotReal(t *testing.T, base string) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), theme.VariantLight})
	w := NewWindow(a, newRealBackend(t))
	defer w.Close()
	p := w.Content().(*planner)
	for i, it := range p.scenarios.items {
		if it.ID != "qlora-legal-70b" && it.ID != "constrained-snapshot-training" {
			continue
		}
		p.scenarios.list.Select(i)
		waitFor(t, p.view, stateReady)
		for j, item := range p.view.tabs.Items {
			p.view.tabs.SelectIndex(j)
			writePNG(t, fmt.Sprintf("%s-real-%s-%s.png", base, it.ID, strings.ToLower(item.Text)), w.Canvas().Capture())
			if item.Text == "Brief" {
				p.view.brief.scroll.ScrollToOffset(fyne.NewPos(0, 1100))
				writePNG(t, fmt.Sprintf("%s-real-%s-brief-recommendation.png", base, it.ID), w.Canvas().Capture())
			}
			if item.Text == "Uncertainty" {
				p.view.uncertainty.Scroll().ScrollToBottom()
				writePNG(t, fmt.Sprintf("%s-real-%s-uncertainty-end.png", base, it.ID), w.Canvas().Capture())
			}
		}
		p.view.tabs.SelectIndex(0)
	}

	// Three scenarios side by side, as a review would see them.
	settle(t, p)
	test.Tap(p.scenarios.compare) // ticks the one on show
	for i, it := range p.scenarios.items {
		switch it.ID {
		case "constrained-snapshot-training", "foundation-7b-pretraining":
			if !p.compare.isTicked(it.ID) {
				settle(t, p) // one change at a time
				p.scenarios.list.Select(i)
			}
		}
	}
	settle(t, p)
	writePNG(t, base+"-real-compare.png", w.Canvas().Capture())
	w.Resize(fyne.NewSize(1000, 700))
	writePNG(t, base+"-real-compare-1000x700.png", w.Canvas().Capture())
	a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), theme.VariantDark})
	w.Resize(fyne.NewSize(1200, 800))
	writePNG(t, base+"-real-compare-dark.png", w.Canvas().Capture())
}

// fixedVariant is a theme that always uses one variant, light or dark.
type fixedVariant struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (f fixedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return f.Theme.Color(n, f.variant)
}

func writePNG(t *testing.T, file string, img image.Image) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", file)
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

// The report table keeps inside the pane whatever else is open: at
// 1920 × 1080 it is a table with "Why not" as its last column; at
// 1280 × 800 and 1024 × 768 with the form open, no label of it reaches
// past the pane's right edge ("Why not" wraps in the visible width), and
// no row is taller than its own text (the cards' figures show instead of
// the columns).
func TestReportTableFitsThePane(t *testing.T) {
	w, p := openWindow(t, newRealBackend(t, "foundation-7b-pretraining"))
	for _, tc := range []struct {
		size  fyne.Size
		form  bool
		cards bool
	}{
		{fyne.NewSize(1920, 1080), false, false},
		{fyne.NewSize(1280, 800), false, false},
		{fyne.NewSize(1920, 1080), true, false},
		{fyne.NewSize(1280, 800), true, true},
		{fyne.NewSize(1024, 768), true, true},
		{fyne.NewSize(1024, 768), false, true},
	} {
		w.Resize(tc.size)
		if tc.form {
			openForm(t, p, 0)
		} else {
			p.scenarios.list.Select(0)
			waitFor(t, p.view, stateReady)
			if p.view.live.open {
				test.Tap(p.view.live.toggle)
			}
		}
		settled(t, p)
		v := p.view
		if got := v.report.Cards(); got != tc.cards {
			t.Errorf("%v, form %v: cards %v, want %v", tc.size, tc.form, got, tc.cards)
		}
		d := fyne.CurrentApp().Driver()
		right := d.AbsolutePositionForObject(v.reportScroll).X + v.reportScroll.Size().Width
		for _, row := range v.report.Rows() {
			for _, l := range append(row.Cells, row.Card[:]...) {
				if !l.Visible() || l.Text == "" {
					continue
				}
				if end := d.AbsolutePositionForObject(l).X + l.Size().Width; end > right+1 {
					t.Errorf("%v, form %v: %q ends at %v, past the pane's edge at %v", tc.size, tc.form, l.Text, end, right)
				}
			}
		}
		if v.reportScroll.Content.Size().Width > v.reportScroll.Size().Width+1 {
			t.Errorf("%v, form %v: the page is %v wide in a pane of %v: it scrolls sideways", tc.size, tc.form,
				v.reportScroll.Content.Size().Width, v.reportScroll.Size().Width)
		}
	}
}

// squeezed lists the visible labels under o that neither wrap nor cut
// their text with an ellipsis and are narrower than their text: their
// text runs over what is beside them.
func squeezed(o fyne.CanvasObject) []string {
	var out []string
	visit(o, func(o fyne.CanvasObject) {
		l, ok := o.(*widget.Label)
		if !ok || l.Text == "" || l.Wrapping != fyne.TextWrapOff || l.Truncation != fyne.TextTruncateOff {
			return
		}
		if need := widgets.LabelWidth(l, false); need > l.Size().Width+1 {
			out = append(out, fmt.Sprintf("%q needs %.0f, has %.0f", l.Text, need, l.Size().Width))
		}
	})
	return out
}

// No heading or label runs over its neighbour: at 1280 × 800 and
// 1024 × 768 with the form and the weights open, every label that does
// not wrap has the width of its text.
func TestNoLabelRunsOver(t *testing.T) {
	w, p := openWindow(t, newRealBackend(t, "qlora-legal-70b", "support-assistant-70b", "nightly-document-batch"))
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 768}} {
		w.Resize(size)
		openForm(t, p, 0)
		if !p.view.weights.Open() {
			test.Tap(p.view.weights.ToggleButton())
		}
		settled(t, p)
		for _, s := range squeezed(w.Content()) {
			t.Errorf("%v, the form open: %s", size, s)
		}
		p.setComparing(true)
		for _, it := range p.scenarios.items {
			if !p.compare.isTicked(it.ID) {
				p.tick(it)
			}
		}
		settle(t, p)
		for _, s := range squeezed(w.Content()) {
			t.Errorf("%v, comparing: %s", size, s)
		}
		p.toggleReview()
		for _, s := range squeezed(w.Content()) {
			t.Errorf("%v, in review: %s", size, s)
		}
		p.toggleReview()
		p.setComparing(false)
	}
}
