package ui

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/app"
	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// libraryStoreEnv names a store to measure the window's library
// benchmarks on instead of the generated one (bigStorePath): a store of
// imported scenarios, say. It is copied first; the original is not
// touched.
const libraryStoreEnv = "HOSTPLAN_BENCH_STORE"

// libraryStore copies the store to measure into a temporary directory
// and returns the copy's path.
func libraryStore(b *testing.B) string {
	b.Helper()
	src := os.Getenv(libraryStoreEnv)
	if src == "" {
		src = bigStorePath(b)
	}
	dst := filepath.Join(b.TempDir(), "hostplan.db")
	in, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		b.Fatal(err)
	}
	if err := out.Close(); err != nil {
		b.Fatal(err)
	}
	return dst
}

// openLibraryWindow opens the window as main does (app.OpenShared: the
// store is opened for each read and written only while a save holds it)
// and draws its first frame at 1280×800 with the list filled.
func openLibraryWindow(b *testing.B, a fyne.App, path string) (*app.Planner, fyne.Window, *planner) {
	p, err := app.OpenShared(path)
	if err != nil {
		b.Fatal(err)
	}
	w := NewWindow(a, NewBackend(p))
	w.Resize(fyne.NewSize(1280, 800))
	pl := w.Content().(*planner)
	if pl.scenarios.list.Length() == 0 {
		b.Fatal("the list is empty")
	}
	w.Canvas().Capture()
	return p, w, pl
}

// BenchmarkLibraryWindow measures the window over a library of scenarios
// (the generated 10,000, or the store HOSTPLAN_BENCH_STORE names):
//
//   - start: opening the planner as main does, building the window with
//     the list filled and drawing its first frame;
//   - recommended: choosing "Recommended: Cloud IaaS" in a window just
//     opened, until every scenario is decided and the list shows the
//     answer. Each round opens a new window (not timed), so nothing is
//     known to the session; what the store keeps of earlier rounds (or of
//     the import) it reads;
//   - recommended-stale: the same after an import of one price, which
//     leaves no stored outcome that applies.
func BenchmarkLibraryWindow(b *testing.B) {
	path := libraryStore(b)
	a := test.NewTempApp(b)
	b.Run("start", func(b *testing.B) {
		for b.Loop() {
			p, w, pl := openLibraryWindow(b, a, path)
			b.StopTimer()
			for pl.pending() > 0 {
				time.Sleep(time.Millisecond)
			}
			w.Close()
			p.Close()
			b.StartTimer()
		}
	})
	b.Run("recommended", func(b *testing.B) {
		var total int
		for b.Loop() {
			b.StopTimer()
			p, w, pl := openLibraryWindow(b, a, path)
			for pl.pending() > 0 {
				time.Sleep(time.Millisecond)
			}
			total = len(pl.scenarios.all)
			b.StartTimer()
			pl.scenarios.recommend.SetSelected(recommendOption(scenario.Cloud))
			for pl.pending() > 0 || pl.scenarios.recs.waiting() > 0 {
				time.Sleep(time.Millisecond)
			}
			b.StopTimer()
			b.ReportMetric(float64(len(pl.scenarios.items)), "shown")
			w.Close()
			p.Close()
			b.StartTimer()
		}
		b.ReportMetric(float64(total), "scenarios")
	})
	// The same filter after an import of one price (Lambda's H100 on
	// demand, doubled): the catalog's hash changes, so no outcome the
	// store keeps applies and every scenario is decided anew. Each round
	// starts from a new copy of the store (not timed).
	b.Run("recommended-stale", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			fresh := libraryStore(b)
			rows, err := catalog.ParseOverridesCSV(strings.NewReader(doubledLambda(b)))
			if err != nil {
				b.Fatal(err)
			}
			p, err := app.OpenShared(fresh)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := p.ImportOverrides(rows); err != nil {
				b.Fatal(err)
			}
			p.Close()
			p, w, pl := openLibraryWindow(b, a, fresh)
			for pl.pending() > 0 {
				time.Sleep(time.Millisecond)
			}
			b.StartTimer()
			pl.scenarios.recommend.SetSelected(recommendOption(scenario.Cloud))
			for pl.pending() > 0 || pl.scenarios.recs.waiting() > 0 {
				time.Sleep(time.Millisecond)
			}
			b.StopTimer()
			b.ReportMetric(float64(len(pl.scenarios.items)), "shown")
			w.Close()
			p.Close()
			b.StartTimer()
		}
	})
}
