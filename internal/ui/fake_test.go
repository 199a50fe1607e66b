package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"hostplan/internal/app"
	"hostplan/internal/brief"
	"hostplan/internal/catalog"
	"hostplan/internal/estimate"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/uitest"
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

// Beyond showing and saving scenarios, the fake backend deletes and
// undeletes, lists revisions as numbers and keeps settings, in memory;
// what a test never needs of it — the catalog, exports, the calculators,
// repricing — it refuses with errNotKept, as a backend that cannot do
// something says so.

// errNotKept is what the fake says of what it does not do.
var errNotKept = errors.New("the test backend does not do this")

func (f *fakeBackend) Delete(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := slices.IndexFunc(f.items, func(it Item) bool { return it.ID == id })
	if i < 0 {
		return errors.New("no scenario " + id)
	}
	if f.deleted == nil {
		f.deleted = map[string]Item{}
	}
	f.deleted[id] = f.items[i]
	f.items = slices.Delete(f.items, i, i+1)
	return nil
}

func (f *fakeBackend) Undelete(id string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	it, ok := f.deleted[id]
	if !ok {
		return errors.New("no deleted scenario " + id)
	}
	delete(f.deleted, id)
	f.items = append(f.items, it)
	return nil
}

// History is one revision per number up to the current one; only the
// current one's content is kept.
func (f *fakeBackend) History(id string) ([]scenario.Revision, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := slices.IndexFunc(f.items, func(it Item) bool { return it.ID == id })
	if i < 0 {
		return nil, errors.New("no scenario " + id)
	}
	revs := make([]scenario.Revision, f.items[i].Revisions)
	for n := range revs {
		revs[n] = scenario.Revision{Number: n + 1}
	}
	return revs, nil
}

func (f *fakeBackend) LoadRevision(id string, n int) (*scenario.Scenario, error) {
	f.mu.Lock()
	i := slices.IndexFunc(f.items, func(it Item) bool { return it.ID == id })
	current := i >= 0 && f.items[i].Revisions == n
	f.mu.Unlock()
	if !current {
		return nil, errNotKept
	}
	return f.Load(id)
}

func (f *fakeBackend) Restore(string, int, string) (int, error) { return 0, errNotKept }

// Recommendations answers from f.recs, in one call per batch.
func (f *fakeBackend) Recommendations(ctx context.Context, items []Item) ([]Recommendation, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	ids := make([]string, len(items))
	out := make([]Recommendation, len(items))
	for i, it := range items {
		ids[i] = it.ID
		r, ok := f.recs[it.ID]
		if !ok {
			r = Recommendation{Problem: "the test backend decides no scenario " + it.ID}
		}
		out[i] = r
	}
	f.recCalls = append(f.recCalls, ids)
	if f.recErr != nil {
		return nil, f.recErr
	}
	return out, ctx.Err()
}

func (f *fakeBackend) Checklist(string) (brief.ChecklistState, error)   { return nil, nil }
func (f *fakeBackend) SaveChecklist(string, brief.ChecklistState) error { return errNotKept }

func (f *fakeBackend) ExportWorkbook(context.Context, string, string) error     { return errNotKept }
func (f *fakeBackend) ExportComparison(context.Context, []string, string) error { return errNotKept }

func (f *fakeBackend) Catalog() (*catalog.Catalog, error)    { return nil, errNotKept }
func (f *fakeBackend) Overrides() (catalog.Overrides, error) { return catalog.Overrides{}, nil }
func (f *fakeBackend) ImportPrices(catalog.Overrides) (*catalog.Catalog, int, error) {
	return nil, 0, errNotKept
}
func (f *fakeBackend) Reprice(context.Context, *catalog.Catalog, float64) (*app.Repricing, error) {
	return nil, errNotKept
}

func (f *fakeBackend) EstimateTrain(estimate.TrainInput) (estimate.TrainResult, error) {
	return estimate.TrainResult{}, errNotKept
}
func (f *fakeBackend) EstimateServe(estimate.ServeInput) (estimate.ServeResult, error) {
	return estimate.ServeResult{}, errNotKept
}

func (f *fakeBackend) Setting(key string) (string, bool, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.settings[key]
	return v, ok, nil
}

func (f *fakeBackend) SetSetting(key, value string) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.settings == nil {
		f.settings = map[string]string{}
	}
	f.settings[key] = value
	return nil
}

func (f *fakeBackend) StorePath() (string, error) { return "", errNotKept }
