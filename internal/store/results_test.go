package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/scenario"
)

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestResultsRoundTripAndPrune(t *testing.T) {
	s := mustOpen(t)
	in := hashOf("revision")
	var keys []ResultKey
	for i := range MaxResultsPerRevision + 2 {
		k := ResultKey{Input: in, Catalog: hashOf(string(rune('a' + i))), Engine: "1.0"}
		keys = append(keys, k)
		if err := s.PutResults([]ResultKey{k}, [][]byte{[]byte(`{"n":` + string(rune('0'+i)) + `}`)}); err != nil {
			t.Fatal(err)
		}
	}
	other := ResultKey{Input: hashOf("other"), Catalog: keys[0].Catalog, Engine: "1.0"}
	if err := s.PutResults([]ResultKey{other}, [][]byte{[]byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetResults(append(keys, other, ResultKey{Input: in, Catalog: keys[5].Catalog, Engine: "2.0"}))
	if err != nil {
		t.Fatal(err)
	}
	// The two oldest of the revision are gone; the other revision's and the
	// newest four remain; another engine version is another result.
	for i, want := range []string{"", "", `{"n":2}`, `{"n":3}`, `{"n":4}`, `{"n":5}`, `{}`, ""} {
		if string(got[i]) != want {
			t.Errorf("result %d = %q, want %q", i, got[i], want)
		}
	}
}

func TestResultKeysChecked(t *testing.T) {
	s := mustOpen(t)
	for _, k := range []ResultKey{
		{Input: "abc", Catalog: hashOf("c"), Engine: "1"},
		{Input: hashOf("i"), Catalog: hashOf("c")[:62], Engine: "1"},
		{Input: hashOf("i"), Catalog: hashOf("c")},
	} {
		if err := s.PutResults([]ResultKey{k}, [][]byte{[]byte("{}")}); err == nil {
			t.Errorf("PutResults(%+v) took a bad key", k)
		}
		if _, err := s.GetResults([]ResultKey{k}); err == nil {
			t.Errorf("GetResults(%+v) took a bad key", k)
		}
	}
	if err := s.PutResults([]ResultKey{{}}, nil); err == nil || !strings.Contains(err.Error(), "1 keys for 0 results") {
		t.Errorf("mismatched lengths: %v", err)
	}
}

func TestSaveBatchStoresResults(t *testing.T) {
	s := mustOpen(t)
	sc := testScenario(t, "a", "A")
	cat := hashOf("catalog")
	revs, err := s.SaveBatch([]Batched{{Scenario: sc, Meta: scenario.RevisionMeta{Note: "n"}, Result: []byte(`{"ok":true}`), Catalog: cat, Engine: "0.8.0"}})
	if err != nil {
		t.Fatal(err)
	}
	list, err := s.List()
	if err != nil || len(list) != 1 || list[0].InputHash != revs[0].InputHash {
		t.Fatalf("List = %+v, %v; want the revision's input hash %s", list, err, revs[0].InputHash)
	}
	got, err := s.GetResults([]ResultKey{{Input: list[0].InputHash, Catalog: cat, Engine: "0.8.0"}})
	if err != nil || string(got[0]) != `{"ok":true}` {
		t.Fatalf("GetResults = %q, %v", got, err)
	}
	// A bad result key writes nothing, not even the scenario.
	_, err = s.SaveBatch([]Batched{{Scenario: testScenario(t, "b", "B"), Result: []byte("{}"), Catalog: "x", Engine: "1"}})
	if err == nil {
		t.Fatal("SaveBatch took a bad catalog hash")
	}
	if list, _ := s.List(); len(list) != 1 {
		t.Errorf("after a refused batch the store lists %d scenarios, want 1", len(list))
	}
}

// A damaged stored result is found by the check.
func TestCheckFindsBadResult(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostplan.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketResults).Put([]byte("short"), []byte("x"))
	})
	if err != nil {
		t.Fatal(err)
	}
	problems := s.Check()
	s.Close()
	var found bool
	for _, p := range problems {
		found = found || strings.Contains(p.Error(), "is not a stored result")
	}
	if !found {
		t.Errorf("Check = %v, want the bad result named", problems)
	}
}

// A store of layout 2 opened read-only has no results; opened to write it
// gains the bucket.
func TestResultsOnOlderLayout(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostplan.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, s, testScenario(t, "a", "A"), scenario.RevisionMeta{})
	err = s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.DeleteBucket(bucketResults); err != nil {
			return err
		}
		return tx.Bucket(bucketMeta).Put(keyVersion, []byte("2"))
	})
	s.Close()
	if err != nil {
		t.Fatal(err)
	}
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	k := ResultKey{Input: hashOf("i"), Catalog: hashOf("c"), Engine: "1"}
	got, err := ro.GetResults([]ResultKey{k})
	ro.Close()
	if err != nil || got[0] != nil {
		t.Fatalf("layout 2 read-only: %q, %v; want no result", got, err)
	}
	rw := mustOpenPath(t, path)
	if err := rw.PutResults([]ResultKey{k}, [][]byte{[]byte("{}")}); err != nil {
		t.Fatalf("after the upgrade: %v", err)
	}
	if got, _ := rw.GetResults([]ResultKey{k}); !bytes.Equal(got[0], []byte("{}")) {
		t.Errorf("after the upgrade: %q", got)
	}
}

// A file this process has verified is not walked again while it is
// unchanged, nor after this process's own writes through a Store it opened
// sound (it knows the file as it left it); a write by anything else (a new
// transaction the Store did not make) makes the next open check it again,
// once — to write, findDamage's reading of every record too.
func TestReadOnlyOpenChecksEachGeneration(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostplan.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	opens := func() int64 {
		n := readOnlyWalks.Load()
		for range 3 {
			ro, err := Open(path, &Options{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			ro.Close()
		}
		return readOnlyWalks.Load() - n
	}
	// Opening it to write checked it read-only first, and nothing was
	// written since.
	if n := opens(); n != 0 {
		t.Errorf("three read-only opens of a file checked before walked it %d times, want 0", n)
	}
	w, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.PutSetting("k", "v"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if n := opens(); n != 0 {
		t.Errorf("after this process's write, three read-only opens walked it %d times, want 0", n)
	}
	checks := writeChecks.Load()
	if w, err = Open(path, nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if n := writeChecks.Load() - checks; n != 0 {
		t.Errorf("an open to write of the file this process left checked it %d times, want 0", n)
	}
	// Another writer: bbolt itself, as another program would.
	db, err := bolt.Open(path, 0o600, nil)
	if err == nil {
		err = errors.Join(db.Update(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketSettings).Put([]byte("other"), []byte("x"))
		}), db.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	if n := opens(); n != 1 {
		t.Errorf("after another's write, three read-only opens walked it %d times, want 1", n)
	}
	// To write it, this process reads every record once more: the
	// read-only walk does not look at them.
	checks = writeChecks.Load()
	// A write of its own after a raw one: the Store's Close does not
	// vouch for a file another transaction changed while it was open.
	w, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := writeChecks.Load() - checks; n != 1 {
		t.Errorf("an open to write after another's write checked it %d times, want 1", n)
	}
	if err := w.PutSetting("k", "v2"); err != nil {
		t.Fatal(err)
	}
	if err := w.db.Update(func(tx *bolt.Tx) error { return tx.Bucket(bucketSettings).Put([]byte("raw"), []byte("y")) }); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if n := opens(); n != 1 {
		t.Errorf("after a raw write beside the Store's, three read-only opens walked it %d times, want 1", n)
	}
}
