package ui

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/app"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
	"hostplan/scenarios"
)

// bigStoreScenarios is the size of store the window's start is measured
// on.
const bigStoreScenarios = 10_000

var bigStore struct {
	once sync.Once
	dir  string
	path string
	err  error
}

// bigStorePath returns a store of bigStoreScenarios scenarios, one
// revision each, made of the examples under new ids and names. It is
// built once per test binary (a few seconds: the store's seeding writes
// them all in one transaction) and removed by TestMain.
func bigStorePath(b *testing.B) string {
	b.Helper()
	bigStore.once.Do(func() {
		bigStore.dir, bigStore.err = os.MkdirTemp("", "hostplan-ui-bench")
		if bigStore.err != nil {
			return
		}
		bigStore.path = filepath.Join(bigStore.dir, "hostplan.db")
		start := time.Now()
		bigStore.err = buildBigStore(bigStore.path)
		fmt.Fprintf(os.Stderr, "built a store of %d scenarios in %v\n", bigStoreScenarios, time.Since(start).Round(time.Millisecond))
	})
	if bigStore.err != nil {
		b.Fatal(bigStore.err)
	}
	return bigStore.path
}

func buildBigStore(path string) error {
	files, err := fs.Glob(scenarios.FS, "*.json")
	if err != nil || len(files) == 0 {
		return fmt.Errorf("no examples: %v", err)
	}
	var examples []*scenario.Scenario
	for _, f := range files {
		data, err := fs.ReadFile(scenarios.FS, f)
		if err != nil {
			return err
		}
		s, err := scenario.Parse(data)
		if err != nil {
			return fmt.Errorf("%s: %w", f, err)
		}
		examples = append(examples, s)
	}
	seed := fstest.MapFS{}
	for i := range bigStoreScenarios {
		s := scenario.Clone(examples[i%len(examples)])
		s.ID = fmt.Sprintf("s%05d-%s", i, s.ID)
		if len(s.ID) > 64 {
			s.ID = s.ID[:64]
		}
		s.Name = fmt.Sprintf("%s %d", s.Name, i)
		data, err := scenario.Marshal(s)
		if err != nil {
			return err
		}
		seed[s.ID+".json"] = &fstest.MapFile{Data: data}
	}
	st, err := store.Open(path, nil)
	if err != nil {
		return err
	}
	_, err = st.SeedWith(seed, ".", nil)
	if cerr := st.Close(); err == nil {
		err = cerr
	}
	return err
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bigStore.dir != "" {
		os.RemoveAll(bigStore.dir)
	}
	os.Exit(code)
}

// BenchmarkStartWith10000Scenarios measures the start of the window over
// a store of 10,000 scenarios: opening the planner (the store and the
// catalog in use), building the window with the list filled, and drawing
// its first frame (with the test driver's software painter, at
// 1280×800). Nothing is evaluated until a scenario is chosen; the rows on
// screen ask for their recommendations in the background, which is not
// waited for.
func BenchmarkStartWith10000Scenarios(b *testing.B) {
	path := bigStorePath(b)
	a := test.NewTempApp(b)
	b.ResetTimer()
	for b.Loop() {
		p, err := app.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		w := NewWindow(a, NewBackend(p))
		w.Resize(fyne.NewSize(1280, 800))
		pl := w.Content().(*planner)
		if n := pl.scenarios.list.Length(); n != bigStoreScenarios {
			b.Fatalf("the list has %d rows", n)
		}
		w.Canvas().Capture()

		b.StopTimer()
		for pl.pending() > 0 {
			time.Sleep(time.Millisecond)
		}
		w.Close()
		p.Close()
		b.StartTimer()
	}
}
