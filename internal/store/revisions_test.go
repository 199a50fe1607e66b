package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/scenario"
)

// rawUpdate changes the store's file under the store's feet, for tests of
// damage.
func rawUpdate(t *testing.T, s *Store, f func(tx *bolt.Tx) error) {
	t.Helper()
	if err := s.db.Update(f); err != nil {
		t.Fatal(err)
	}
}

func putRevisionRecord(tx *bolt.Tx, id string, rr revisionRecord) error {
	v, err := json.Marshal(rr)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketRevisions).Bucket([]byte(id)).Put(revKey(rr.Number), v)
}

func TestRestore(t *testing.T) {
	s := mustOpen(t)
	v1 := testScenario(t, "r", "Restore me")
	v2 := scenario.Clone(v1)
	v2.Workload.RunsPerMonth = scenario.Known(8)
	mustSave(t, s, v1, scenario.RevisionMeta{Author: "ana", Note: "first"})
	mustSave(t, s, v2, scenario.RevisionMeta{Author: "ana", Note: "more runs"})

	rev, err := s.Restore("r", 1, scenario.RevisionMeta{Author: "ben", ModelVersion: "0.2.0", CatalogAsOf: "2025-06-01"})
	if err != nil {
		t.Fatal(err)
	}
	if rev.Number != 3 || rev.Note != "restored from revision 1" || rev.Author != "ben" || rev.ModelVersion != "0.2.0" {
		t.Errorf("Restore = %+v, want revision 3 by ben, restored from revision 1", rev)
	}
	h, err := s.History("r")
	if err != nil || len(h) != 3 {
		t.Fatalf("History = %d revisions, %v; want 3 (nothing rewritten)", len(h), err)
	}
	if h[0].Note != "first" || h[1].Note != "more runs" || h[0].InputHash != h[2].InputHash || h[1].InputHash == h[2].InputHash {
		t.Errorf("History after restore = %+v", h)
	}
	cur, _, err := s.Get("r")
	if err != nil || !bytes.Equal(mustMarshal(t, cur), mustMarshal(t, v1)) {
		t.Errorf("current content is not revision 1's (%v)", err)
	}

	// Restoring what is already current writes nothing.
	again, err := s.Restore("r", 1, scenario.RevisionMeta{Author: "ben", Note: "again"})
	if err != nil || again.Number != 3 {
		t.Errorf("Restore of the current content = %+v, %v; want revision 3", again, err)
	}
	// A note is kept after the fixed part.
	rev, err = s.Restore("r", 2, scenario.RevisionMeta{Note: "the finance review wants the higher figure"})
	if err != nil || rev.Note != "restored from revision 2: the finance review wants the higher figure" {
		t.Errorf("Restore with a note = %+v, %v", rev, err)
	}

	for _, c := range []struct {
		id   string
		n    int
		want error
	}{{"r", 0, ErrNotFound}, {"r", 9, ErrNotFound}, {"missing", 1, ErrNotFound}} {
		if _, err := s.Restore(c.id, c.n, scenario.RevisionMeta{}); !errors.Is(err, c.want) {
			t.Errorf("Restore(%s, %d) = %v, want %v", c.id, c.n, err, c.want)
		}
	}
	if err := s.Delete("r"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Restore("r", 1, scenario.RevisionMeta{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("Restore of a deleted scenario = %v, want ErrNotFound", err)
	}
}

func TestPurge(t *testing.T) {
	s := mustOpen(t)
	a := testScenario(t, "a", "A")
	mustSave(t, s, a, scenario.RevisionMeta{})
	a2 := scenario.Clone(a)
	a2.Description = "second"
	mustSave(t, s, a2, scenario.RevisionMeta{})
	mustSave(t, s, testScenario(t, "b", "B"), scenario.RevisionMeta{})

	if err := s.Purge("a"); !errors.Is(err, ErrNotDeleted) {
		t.Errorf("Purge of a live scenario = %v, want ErrNotDeleted", err)
	}
	if err := s.Purge("missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Purge of a missing scenario = %v, want ErrNotFound", err)
	}
	if h, _ := s.History("a"); len(h) != 2 {
		t.Fatal("a refused purge changed the history")
	}
	if err := s.Delete("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Purge("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Undelete("a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Undelete after purge = %v, want ErrNotFound", err)
	}
	if d, _ := s.ListDeleted(); len(d) != 0 {
		t.Errorf("ListDeleted after purge = %+v", d)
	}
	// The id is free again and starts at revision 1.
	if rev := mustSave(t, s, a, scenario.RevisionMeta{}); rev.Number != 1 {
		t.Errorf("saving a purged id made revision %d, want 1", rev.Number)
	}
	if l, _ := s.List(); len(l) != 2 {
		t.Errorf("List = %+v", l)
	}
}

func TestBytes(t *testing.T) {
	s := mustOpen(t)
	v1 := testScenario(t, "b", "Bytes")
	v2 := scenario.Clone(v1)
	v2.Description = "second <draft> & more" // HTML characters are stored as written
	mustSave(t, s, v1, scenario.RevisionMeta{})
	r2 := mustSave(t, s, v2, scenario.RevisionMeta{Note: "two"})
	for _, c := range []struct {
		n    int
		want []byte
		num  int
	}{{0, mustMarshal(t, v2), 2}, {1, mustMarshal(t, v1), 1}, {2, mustMarshal(t, v2), 2}} {
		b, rev, err := s.Bytes("b", c.n)
		if err != nil || !bytes.Equal(b, c.want) || rev.Number != c.num {
			t.Errorf("Bytes(b, %d) = revision %d, %v; bytes equal %v", c.n, rev.Number, err, bytes.Equal(b, c.want))
		}
	}
	if _, rev, _ := s.Bytes("b", 0); rev != r2 {
		t.Errorf("Bytes revision %+v, want %+v", rev, r2)
	}
	if _, _, err := s.Bytes("b", 3); !errors.Is(err, ErrNotFound) {
		t.Errorf("Bytes of a missing revision: %v", err)
	}
}

// Check finds each broken invariant, and says which scenario.
func TestCheckFindsBrokenInvariants(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, s *Store)
		want   string
	}{
		{"current pointer behind", func(t *testing.T, s *Store) {
			rawUpdate(t, s, func(tx *bolt.Tx) error {
				rec, _, _ := getRecord(tx, "a")
				rec.Current = 1
				rec.Hash = ""
				return putRecord(tx, "a", rec)
			})
		}, `scenario "a": its current revision is 1, but its last revision is 2`},
		{"a revision missing", func(t *testing.T, s *Store) {
			rawUpdate(t, s, func(tx *bolt.Tx) error {
				return tx.Bucket(bucketRevisions).Bucket([]byte("a")).Delete(revKey(1))
			})
		}, `scenario "a": revision 2 follows revision 0`},
		{"bytes changed under their hash", func(t *testing.T, s *Store) {
			rawUpdate(t, s, func(tx *bolt.Tx) error {
				rr, _ := getRevision(tx, "a", 1)
				rr.Scenario = strings.Replace(rr.Scenario, `"A"`, `"Z"`, 1)
				return putRevisionRecord(tx, "a", rr)
			})
		}, `scenario "a" revision 1: its input hash does not match its bytes`},
		{"revision of another scenario", func(t *testing.T, s *Store) {
			rawUpdate(t, s, func(tx *bolt.Tx) error {
				rr, _ := getRevision(tx, "b", 1)
				rr.Number = 3
				return putRevisionRecord(tx, "a", rr)
			})
		}, `scenario "a" revision 3: it holds scenario "b"`},
		{"orphan revisions", func(t *testing.T, s *Store) {
			rawUpdate(t, s, func(tx *bolt.Tx) error { return tx.Bucket(bucketScenarios).Delete([]byte("b")) })
		}, `scenario "b": it has revisions but no record`},
		{"orphan checklist", func(t *testing.T, s *Store) {
			rawUpdate(t, s, func(tx *bolt.Tx) error { return tx.Bucket(bucketChecklists).Put([]byte("zz"), []byte("{}")) })
		}, `checklist of scenario "zz": there is no such scenario`},
		{"record name stale", func(t *testing.T, s *Store) {
			rawUpdate(t, s, func(tx *bolt.Tx) error {
				rec, _, _ := getRecord(tx, "b")
				rec.Name = "Old name"
				return putRecord(tx, "b", rec)
			})
		}, `scenario "b": its record says "Old name"`},
		{"record unreadable", func(t *testing.T, s *Store) {
			rawUpdate(t, s, func(tx *bolt.Tx) error { return tx.Bucket(bucketScenarios).Put([]byte("b"), []byte{9, 9}) })
		}, `scenario "b": its record is not readable: record format 9 is not known`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(t.TempDir()+"/x.db", nil)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			a := testScenario(t, "a", "A")
			mustSave(t, s, a, scenario.RevisionMeta{})
			a.Description = "two"
			mustSave(t, s, a, scenario.RevisionMeta{})
			mustSave(t, s, testScenario(t, "b", "B"), scenario.RevisionMeta{})
			if p := s.Check(); p != nil {
				t.Fatalf("before the damage: %v", p)
			}
			tc.damage(t, s)
			p := s.Check()
			found := false
			for _, e := range p {
				found = found || strings.Contains(e.Error(), tc.want)
			}
			if !found {
				t.Errorf("Check = %v, want a problem %q", p, tc.want)
			}
		})
	}
}

// Random sequences of every write the store offers leave it consistent
// after each step.
func TestRandomOperationsKeepInvariants(t *testing.T) {
	s := mustOpen(t)
	rng := rand.New(rand.NewPCG(9, 9))
	ids := []string{"p", "q", "r", "s"}
	for step := range 300 {
		id := ids[rng.IntN(len(ids))]
		var err error
		switch op := rng.IntN(10); op {
		case 0, 1, 2, 3:
			sc := testScenario(t, id, "Name "+id)
			sc.Description = strings.Repeat(fmt.Sprintf("step %d ", step), rng.IntN(600))
			_, err = s.Save(sc, scenario.RevisionMeta{Author: "rnd"})
		case 4:
			err = s.Delete(id)
		case 5:
			err = s.Undelete(id)
		case 6:
			err = s.Purge(id)
		case 7:
			err = s.PutChecklist(id, []byte(fmt.Sprintf(`{"step": %d}`, step)))
		case 8:
			if h, herr := s.History(id); herr == nil {
				_, err = s.Restore(id, 1+rng.IntN(len(h)), scenario.RevisionMeta{})
			}
		case 9:
			err = s.PutSetting(id, fmt.Sprint(step))
		}
		if err != nil && !errors.Is(err, ErrNotFound) && !errors.Is(err, ErrNotDeleted) {
			t.Fatalf("step %d: %v", step, err)
		}
		if step%10 == 0 {
			if p := s.Check(); p != nil {
				t.Fatalf("step %d: %v", step, p)
			}
		}
	}
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if bp := boltProblems(t, path); bp != nil {
		t.Errorf("bbolt's check of the closed store: %v", bp)
	}
	mustOpenPath(t, path)
}
