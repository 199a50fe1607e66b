package atomicfile

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestRemoveStale removes only old files named as this package names its
// temporary files, and only in the folder given.
func TestRemoveStale(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-2 * time.Hour)
	mk := func(name string, mtime time.Time) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("part of a file"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
		return p
	}
	stale := mk(".hostplan-0123abcd.tmp", old)
	keep := []string{
		mk(".hostplan-89abcdef.tmp", time.Now()), // young: a write may be under way
		mk(".hostplan-0123ABCD.tmp", old),        // not a name createTemp gives
		mk(".hostplan-0123abc.tmp", old),         // seven digits
		mk("hostplan-0123abcd.tmp", old),         // no dot
		mk(".hostplan-0123abcd.tmp.keep", old),   // another suffix
		mk("store.db", old),
	}
	if err := os.Mkdir(filepath.Join(dir, ".hostplan-00000000.tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := RemoveStale(dir, StaleAge, time.Now())
	if err != nil || len(got) != 1 || got[0].Path != stale || got[0].Size != 14 {
		t.Fatalf("RemoveStale = %+v, %v; want %s alone", got, err, stale)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale file is still there")
	}
	for _, p := range keep {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed", p)
		}
	}
	if got, err := RemoveStale(dir, StaleAge, time.Now()); err != nil || len(got) != 0 {
		t.Errorf("a second run: %+v, %v", got, err)
	}
}
