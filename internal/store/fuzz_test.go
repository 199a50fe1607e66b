package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
	"unicode/utf8"

	"hostplan/internal/scenario"

	bolt "go.etcd.io/bbolt"
)

// FuzzOpenStore writes fuzzed bytes to a file and does with it what
// hostplan does with a --db file: open it read-only and read everything
// (List, ListDeleted, Get, History and Bytes of every scenario, its
// checklist, the catalog overrides, Check), then open it for writing, read
// it again and save a scenario. Whatever the bytes: no panic, no hang, no
// more than maxAlloc allocated, and every error has a message in UTF-8; a read-only open never changes the
// file, and a refused open, or one that finds the store damaged and opens
// it read-only (every write refused with ErrDamaged), leaves it exactly as
// it was, content and mode.
//
// Seeds: a store holding a few revisions, a checklist and overrides; a
// store of the older layout 1; another program's bbolt file; an empty file
// and a few bytes of text. Most of what the fuzzer does with them is
// damage to a real store's pages.
func FuzzOpenStore(f *testing.F) {
	dir := f.TempDir()
	seed := func(path string) []byte {
		b, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		return b
	}
	// A current store, made with bbolt's smallest sensible page (Open
	// reads the page size from the file): a file of a few kilobytes, which
	// the fuzzer mutates far faster than one of 4 KiB pages.
	smallBolt := func(name string, fill func(*bolt.Tx) error) string {
		path := filepath.Join(dir, name)
		db, err := bolt.Open(path, 0o600, &bolt.Options{PageSize: 512})
		if err == nil {
			err = errors.Join(db.Update(fill), db.Close())
		}
		if err != nil {
			f.Fatal(err)
		}
		return path
	}
	cur := smallBolt("current.db", initStore)
	s, err := Open(cur, nil)
	if err != nil {
		f.Fatal(err)
	}
	for i := range 3 {
		sc := testScenario(f, fmt.Sprintf("s-%d", i), fmt.Sprintf("Scenario %d", i))
		mustSave(f, s, sc, scenario.RevisionMeta{Author: "ana", Note: "first"})
		sc.Description = "a second revision"
		mustSave(f, s, sc, scenario.RevisionMeta{Author: "ana"})
	}
	if err := s.Delete("s-2"); err != nil {
		f.Fatal(err)
	}
	if err := s.PutChecklist("s-0", []byte(`{"items":{}}`)); err != nil {
		f.Fatal(err)
	}
	if err := s.PutCatalogOverrides([]byte(`{"format":1,"rows":[]}`)); err != nil {
		f.Fatal(err)
	}
	if err := s.Close(); err != nil {
		f.Fatal(err)
	}
	f.Add(seed(cur))
	// Layout 1 (writeLayout1Store keeps the page size of the file it is
	// given).
	old := smallBolt("layout1.db", func(*bolt.Tx) error { return nil })
	writeLayout1Store(f, old, []oldRevision{
		{"a", "v1", mustMarshal(f, testScenario(f, "a", "A"))},
		{"a", "v2", mustMarshal(f, testScenario(f, "a", "A again"))},
		{"gone", "v1", mustMarshal(f, testScenario(f, "gone", "Gone"))},
	}, "gone")
	f.Add(seed(old))
	// Another program's bbolt file.
	f.Add(seed(smallBolt("other.db", func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("settings"))
		if err != nil {
			return err
		}
		return b.Put([]byte("colour"), []byte("green"))
	})))
	f.Add([]byte{})
	f.Add([]byte("hello, this is not a database\n"))

	f.Fuzz(func(t *testing.T, b []byte) {
		path := filepath.Join(t.TempDir(), "x.db")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		within(t, hangTimeout, func() error { return checkStoreFile(path, b) })
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > maxAlloc {
			t.Fatalf("allocated %d MB for a file of %d bytes", n>>20, len(b))
		}
	})
}

// maxAlloc bounds what one input may allocate: the fuzzer's files are tens
// of kilobytes, and reading one allocates a few megabytes; a size that a
// damaged page claims must not be copied (it was: gigabytes).
const maxAlloc = 256 << 20

// hangTimeout is how long one input may take: far more than any store
// file of the fuzzer's takes (milliseconds), and less than the 10 s after
// which the fuzzing engine gives up on a worker without recording the
// input.
const hangTimeout = 8 * time.Second

// within runs check and fails t with its error, or if it has not returned
// after d (check goes on running: nothing can stop it).
func within(t *testing.T, d time.Duration, check func() error) {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- check() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(d):
		buf := make([]byte, 1<<20)
		t.Fatalf("still running after %v; the goroutines:\n%s", d, buf[:runtime.Stack(buf, true)])
	}
}

// checkStoreFile is FuzzOpenStore's check of the file at path, written
// with data.
func checkStoreFile(path string, data []byte) error {
	opt := &Options{Timeout: 50 * time.Millisecond}
	// Read-only: never a change.
	s, err := Open(path, &Options{ReadOnly: true, Timeout: opt.Timeout})
	if err == nil {
		err = errors.Join(readEverything(s), s.Close())
		if err != nil {
			return fmt.Errorf("read-only: %w", err)
		}
	} else if err := messageOK("read-only Open", err); err != nil {
		return err
	}
	if err := unchanged(path, data); err != nil {
		return fmt.Errorf("read-only Open: %w", err)
	}
	// For writing: a refusal changes nothing.
	s, err = Open(path, opt)
	if err != nil {
		if err := messageOK("Open", err); err != nil {
			return err
		}
		if errors.Is(err, ErrInUse) {
			return fmt.Errorf("Open: %w, with no other opener", err)
		}
		if err := unchanged(path, data); err != nil {
			return fmt.Errorf("refused Open: %w", err)
		}
		return nil
	}
	err = readEverything(s)
	if _, serr := s.Save(baseScenario("fuzz", "Fuzz"), scenario.RevisionMeta{Author: "fuzz"}); serr != nil {
		err = errors.Join(err, messageOK("Save", serr))
		if s.Damaged() != nil && !errors.Is(serr, ErrDamaged) {
			err = errors.Join(err, fmt.Errorf("Save to a damaged store: %v, not ErrDamaged", serr))
		}
	} else if s.Damaged() != nil {
		err = errors.Join(err, fmt.Errorf("Save to a damaged store succeeded"))
	}
	err = errors.Join(err, s.Close())
	if s.Damaged() != nil {
		// Opened read-only instead: nothing was written.
		err = errors.Join(err, unchanged(path, data))
	}
	return err
}

// readEverything reads all a store holds; an error reading is fine as
// long as its message is.
func readEverything(s *Store) error {
	var errs []error
	note := func(what string, err error) {
		if err != nil {
			errs = append(errs, messageOK(what, err))
		}
	}
	live, err := s.List()
	note("List", err)
	deleted, err := s.ListDeleted()
	note("ListDeleted", err)
	for _, sm := range append(live, deleted...) {
		_, _, err := s.Get(sm.ID)
		note("Get", err)
		hist, err := s.History(sm.ID)
		note("History", err)
		for _, h := range hist {
			_, _, err := s.Bytes(sm.ID, h.Number)
			note("Bytes", err)
		}
		_, err = s.GetChecklist(sm.ID)
		note("GetChecklist", err)
	}
	_, err = s.GetCatalogOverrides()
	note("GetCatalogOverrides", err)
	for _, p := range s.Check() {
		note("Check", p)
	}
	return errors.Join(errs...)
}

// messageOK returns an error unless err's message is non-empty UTF-8. (A
// damaged page may make bbolt panic; the store reports that as an error
// quoting the panic, which is what it should do.)
func messageOK(what string, err error) error {
	if msg := err.Error(); msg == "" || !utf8.ValidString(msg) {
		return fmt.Errorf("%s: error %q (%T)", what, msg, err)
	}
	return nil
}

// unchanged returns an error unless the file at path holds data with mode
// 0644.
func unchanged(path string, data []byte) error {
	got, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if !bytes.Equal(got, data) {
		return fmt.Errorf("the file changed (%d bytes, was %d)", len(got), len(data))
	}
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o644 {
		return fmt.Errorf("the file's mode changed to %v", fi.Mode().Perm())
	}
	return nil
}
