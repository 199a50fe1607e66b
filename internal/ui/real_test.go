package ui

import (
	"context"
	"fmt"
	"path/filepath"
	"sort"
	"sync"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// realBackend serves the example scenarios from ../../scenarios through the
// real model (model.Analyze with the embedded catalog), keeping saves in
// memory: what the window shows with it is what a user sees.
type realBackend struct {
	cat  *catalog.Catalog
	mu   sync.Mutex
	revs map[string][]*scenario.Scenario // every saved revision, oldest first
}

var _ Backend = (*realBackend)(nil)

// newRealBackend loads the named example scenarios (file names without
// ".json"), or all of them when none is named.
func newRealBackend(t testing.TB, names ...string) *realBackend {
	t.Helper()
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	if len(names) == 0 {
		files, err := filepath.Glob("../../scenarios/*.json")
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			names = append(names, filepath.Base(f[:len(f)-len(".json")]))
		}
	}
	b := &realBackend{cat: cat, revs: map[string][]*scenario.Scenario{}}
	for _, n := range names {
		s, err := scenario.Load(filepath.Join("../../scenarios", n+".json"))
		if err != nil {
			t.Fatalf("%s: %v", n, err)
		}
		b.revs[s.ID] = []*scenario.Scenario{s}
	}
	return b
}

func (b *realBackend) List() ([]Item, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	var items []Item
	for id, revs := range b.revs {
		s := revs[len(revs)-1]
		items = append(items, Item{ID: id, Name: s.Name, Shape: s.Workload.Shape, Revisions: len(revs)})
	}
	sort.Slice(items, func(i, j int) bool { return items[i].Name < items[j].Name })
	return items, nil
}

func (b *realBackend) Load(id string) (*scenario.Scenario, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	revs, ok := b.revs[id]
	if !ok {
		return nil, fmt.Errorf("no scenario %q", id)
	}
	return scenario.Clone(revs[len(revs)-1]), nil
}

func (b *realBackend) Evaluate(s *scenario.Scenario) (*model.Report, error) {
	return model.Analyze(context.Background(), s, b.cat, model.DefaultDraws)
}

// Save validates s and checks it against the catalog as the real backend
// does, then keeps it as the next revision unless it equals the current.
func (b *realBackend) Save(s *scenario.Scenario, note string) (int, error) {
	if errs := scenario.Validate(s); errs != nil {
		return 0, errs
	}
	if _, err := model.Evaluate(s, b.cat); err != nil {
		return 0, err
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	revs := b.revs[s.ID]
	if n := len(revs); n > 0 {
		cur, _ := scenario.Marshal(revs[n-1])
		next, _ := scenario.Marshal(s)
		if string(cur) == string(next) {
			return n, nil
		}
	}
	b.revs[s.ID] = append(revs, scenario.Clone(s))
	return len(b.revs[s.ID]), nil
}
