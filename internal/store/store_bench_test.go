package store

import (
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/scenario"
)

// The benchmarks run on a store of benchScenarios scenarios with
// benchRevisions revisions each, the size the store's goals are stated for
// (open and list 100 ms, save one revision 10 ms, load one scenario 1 ms).
const (
	benchScenarios = 10_000
	benchRevisions = 5
	benchBatch     = 500 // scenarios per transaction while building
)

var bench struct {
	once sync.Once
	dir  string // holds the fixture; removed by TestMain
	path string
	err  error
}

// benchStore returns the path of a fresh copy of the benchmark store in
// b.TempDir(). The store itself is built once per test binary run (it takes
// a few seconds) and copied for each benchmark, so a benchmark that writes
// does not change what the next one measures. The copy leaves the file in
// the page cache: the figures are for a warm cache, as on a desktop that
// has used its store recently.
func benchStore(b *testing.B) string {
	b.Helper()
	bench.once.Do(func() {
		bench.dir, bench.err = os.MkdirTemp("", "hostplan-bench")
		if bench.err == nil {
			bench.path = filepath.Join(bench.dir, "hostplan.db")
			start := time.Now()
			bench.err = buildBenchStore(bench.path)
			fmt.Fprintf(os.Stderr, "built the benchmark store (%d scenarios × %d revisions) in %v\n", benchScenarios, benchRevisions, time.Since(start).Round(time.Millisecond))
		}
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	dst := filepath.Join(b.TempDir(), "hostplan.db")
	if err := copyFile(dst, bench.path); err != nil {
		b.Fatal(err)
	}
	return dst
}

func removeBenchFixture() {
	if bench.dir != "" {
		os.RemoveAll(bench.dir)
	}
}

// benchTemplates are the example scenarios the benchmark store is made of:
// realistic sizes (2–4 KB of JSON each), all four workload shapes.
func benchTemplates() ([]*scenario.Scenario, error) {
	files, err := filepath.Glob("../../scenarios/*.json")
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no example scenarios: %v", err)
	}
	var out []*scenario.Scenario
	for _, f := range files {
		sc, err := scenario.Load(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		out = append(out, sc)
	}
	return out, nil
}

// benchScenario is revision rev (1…) of benchmark scenario i.
func benchScenario(templates []*scenario.Scenario, i, rev int) *scenario.Scenario {
	sc := scenario.Clone(templates[i%len(templates)])
	sc.ID = fmt.Sprintf("s%05d-%s", i, sc.ID)
	if len(sc.ID) > 64 {
		sc.ID = sc.ID[:64]
	}
	sc.Name = fmt.Sprintf("%s %d", sc.Name, i)
	sc.Seed = uint64(rev)
	sc.Description = fmt.Sprintf("%s (revision %d)", sc.Description, rev)
	return sc
}

// buildBenchStore writes the benchmark store through save, the code path and
// encoding of Store.Save, benchBatch scenarios (all their revisions) per
// transaction: one fsync per batch instead of one per revision.
func buildBenchStore(path string) error {
	templates, err := benchTemplates()
	if err != nil {
		return err
	}
	for _, t := range templates {
		if errs := scenario.Validate(benchScenario(templates, 0, 1)); errs != nil {
			return fmt.Errorf("%s: %w", t.ID, errs)
		}
	}
	s, err := Open(path, nil)
	if err != nil {
		return err
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	meta := scenario.RevisionMeta{Author: "bench", ModelVersion: "0.2.0", CatalogAsOf: "2025-06-01"}
	for first := 0; first < benchScenarios; first += benchBatch {
		err := s.db.Update(func(tx *bolt.Tx) error {
			for i := first; i < min(first+benchBatch, benchScenarios); i++ {
				for rev := 1; rev <= benchRevisions; rev++ {
					meta.Note = fmt.Sprintf("revision %d", rev)
					now = now.Add(time.Second)
					if _, err := save(tx, benchScenario(templates, i, rev), meta, now); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			s.Close()
			return err
		}
	}
	return s.Close()
}

func copyFile(dst, src string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	// Synced, so the first timed fsync does not also write out the copy.
	if err := out.Sync(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// BenchmarkOpenAndList is starting the app: open the store (with its checks)
// and list the scenarios. Goal: 100 ms.
func BenchmarkOpenAndList(b *testing.B) {
	path := benchStore(b)
	b.ResetTimer()
	for b.Loop() {
		s, err := Open(path, nil)
		if err != nil {
			b.Fatal(err)
		}
		l, err := s.List()
		if err != nil || len(l) != benchScenarios {
			b.Fatalf("List = %d scenarios, %v", len(l), err)
		}
		if err := s.Close(); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSaveRevision saves one changed scenario as a new revision:
// validation, encoding and a durable (fsynced) commit. Goal: 10 ms.
func BenchmarkSaveRevision(b *testing.B) {
	path := benchStore(b)
	templates, err := benchTemplates()
	if err != nil {
		b.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(1, 1))
	// Prepared outside the timer: the edit the user made.
	const prepared = 256
	var scs []*scenario.Scenario
	for k := range prepared {
		sc := benchScenario(templates, rng.IntN(benchScenarios), benchRevisions+1)
		sc.Description += fmt.Sprintf(" edit %d", k)
		scs = append(scs, sc)
	}
	k := 0
	b.ResetTimer()
	for b.Loop() {
		sc := scs[k%prepared]
		sc.Seed++ // a change every time, so every save writes a revision
		k++
		if _, err := s.Save(sc, scenario.RevisionMeta{Author: "bench", Note: "edit"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLoadScenario reads the current revision of one scenario and
// decodes it. Goal: 1 ms.
func BenchmarkLoadScenario(b *testing.B) {
	path := benchStore(b)
	templates, err := benchTemplates()
	if err != nil {
		b.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	rng := rand.New(rand.NewPCG(2, 2))
	ids := make([]string, 1024)
	for k := range ids {
		ids[k] = benchScenario(templates, rng.IntN(benchScenarios), 1).ID
	}
	k := 0
	b.ResetTimer()
	for b.Loop() {
		sc, rev, err := s.Get(ids[k%len(ids)])
		if err != nil || rev.Number != benchRevisions || sc.ID != ids[k%len(ids)] {
			b.Fatalf("Get(%s) = revision %d, %v", ids[k%len(ids)], rev.Number, err)
		}
		k++
	}
}

// BenchmarkCheck is `hostplan store check` on the benchmark store: bbolt's
// check and every invariant, decoding all 50,000 revisions. No goal; it
// says how long a user waits for the command.
func BenchmarkCheck(b *testing.B) {
	path := benchStore(b)
	s, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ResetTimer()
	for b.Loop() {
		if p := s.Check(); p != nil {
			b.Fatal(p)
		}
	}
}
