package ui

import (
	"context"
	"errors"
	"slices"

	"hostplan/internal/app"
	"hostplan/internal/brief"
	"hostplan/internal/catalog"
	"hostplan/internal/estimate"
	"hostplan/internal/scenario"
)

// The fake backend's side of Backend beyond showing and saving scenarios
// (ui_test.go): deleting and undeleting, revisions as a list of numbers,
// and settings, in memory; what a test never needs of it — the catalog,
// exports, the calculators, repricing — it refuses with errNotKept, as a
// backend that cannot do something says so.

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
