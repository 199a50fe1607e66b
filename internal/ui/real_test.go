package ui

import (
	"io/fs"
	"path/filepath"
	"testing"
	"testing/fstest"

	"hostplan/internal/app"
	"hostplan/internal/store"
	"hostplan/scenarios"
)

// openPlanner opens the application layer over a store in a temporary
// directory, as the window does, seeded with the named example scenarios
// (file names without ".json"), or all of them when none is named. The
// store is closed when the test ends.
func openPlanner(t testing.TB, names ...string) *app.Planner {
	t.Helper()
	path := filepath.Join(t.TempDir(), "hostplan.db")
	if len(names) > 0 {
		// Seed the chosen examples first; the planner then finds the
		// store seeded and adds no others.
		examples := fstest.MapFS{}
		for _, n := range names {
			b, err := fs.ReadFile(scenarios.FS, n+".json")
			if err != nil {
				t.Fatalf("%s: %v", n, err)
			}
			examples[n+".json"] = &fstest.MapFile{Data: b}
		}
		st, err := store.Open(path, nil)
		if err != nil {
			t.Fatal(err)
		}
		_, err = st.SeedWith(examples, ".", nil)
		if cerr := st.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	p, err := app.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	return p
}

// newRealBackend is the window's real backend (NewBackend) over a
// temporary store with the named examples: what the window shows with it
// is what a user sees.
func newRealBackend(t testing.TB, names ...string) Backend {
	t.Helper()
	return NewBackend(openPlanner(t, names...))
}
