package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"hostplan/internal/scenario"
)

// oldRevision is one revision of a fixture store: the scenario bytes as an
// older hostplan stored them.
type oldRevision struct {
	id, note string
	body     []byte
}

// writeLayout1Store writes a store as hostplan wrote store layout 1: meta,
// scenarios with JSON records, revisions; no checklists, settings or
// catalog buckets. Revisions are numbered per scenario in the given order;
// the scenarios in deleted are marked deleted.
func writeLayout1Store(t testing.TB, path string, revs []oldRevision, deleted ...string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	when := time.Date(2024, 11, 5, 9, 0, 0, 0, time.UTC)
	err = db.Update(func(tx *bolt.Tx) error {
		meta, _ := tx.CreateBucket(bucketMeta)
		meta.Put(keyFormat, []byte(formatMarker))
		meta.Put(keyVersion, []byte("1"))
		meta.Put(keyCreated, []byte(when.Format(time.RFC3339)))
		meta.Put(keySeeded, []byte(when.Format(time.RFC3339)))
		scenarios, _ := tx.CreateBucket(bucketScenarios)
		revisions, _ := tx.CreateBucket(bucketRevisions)
		n := map[string]int{}
		for _, r := range revs {
			n[r.id]++
			when = when.Add(time.Hour)
			sum := sha256.Sum256(r.body)
			// Layout 1's revision record, spelt out: its format is history,
			// whatever the current record type becomes.
			v, _ := json.Marshal(map[string]any{
				"number": n[r.id], "time": when, "author": "old", "note": r.note, "model_version": "0.0.9",
				"input_hash": hex.EncodeToString(sum[:]), "scenario": string(r.body),
			})
			b, err := revisions.CreateBucketIfNotExists([]byte(r.id))
			if err != nil {
				return err
			}
			if err := b.Put(revKey(n[r.id]), v); err != nil {
				return err
			}
			var m map[string]any
			json.Unmarshal(r.body, &m)
			shape, _ := m["workload"].(map[string]any)["shape"].(string)
			rec, _ := json.Marshal(legacyRecord{Name: m["name"].(string), Shape: shape, Current: n[r.id], Updated: when,
				Deleted: slices.Contains(deleted, r.id)})
			if err := scenarios.Put([]byte(r.id), rec); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// layout1Fixture is a layout 1 store whose first scenario was saved in
// scenario schema 0 (../scenario/testdata/v0.json, see scenario/migrate.go)
// twice, then once in schema 1; a second scenario is schema 1 and a third is
// deleted. It returns the path and the schema 0 bytes.
func layout1Fixture(t *testing.T) (path string, v0, v0b []byte) {
	t.Helper()
	v0, err := os.ReadFile("../scenario/testdata/v0.json")
	if err != nil {
		t.Fatal(err)
	}
	v0b = bytes.Replace(v0, []byte(`"runs_month": 4`), []byte(`"runs_month": 6`), 1)
	if bytes.Equal(v0, v0b) {
		t.Fatal("the fixture edit did not apply")
	}
	path = filepath.Join(t.TempDir(), "old.db")
	writeLayout1Store(t, path, []oldRevision{
		{"contract-lora-v0", "schema 0", v0},
		{"contract-lora-v0", "schema 0, six runs", v0b},
		{"fine-tune-eu", "v1", mustMarshal(t, testScenario(t, "fine-tune-eu", "Fine-tune in the EU"))},
		{"gone", "v1", mustMarshal(t, testScenario(t, "gone", "Gone"))},
	}, "gone")
	return path, v0, v0b
}

func mustParse(t *testing.T, b []byte) *scenario.Scenario {
	t.Helper()
	sc, err := scenario.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// A store of layout 1 holding schema 0 revisions: read as it is by a
// read-only open; upgraded to layout 2 by the first read-write open, in
// place, with every revision's bytes kept; its schema 0 revisions read as
// schema 1 through the same migration as files.
func TestLayout1StoreWithSchema0Revisions(t *testing.T) {
	path, v0, v0b := layout1Fixture(t)
	before := mustRead(t, path)
	want1 := mustMarshal(t, mustParse(t, v0)) // revision 1 as schema 1
	want2 := mustMarshal(t, mustParse(t, v0b))

	// Read-only: everything reads, nothing is written.
	r, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if l, err := r.List(); err != nil || len(l) != 2 || l[0].ID != "contract-lora-v0" || l[0].Revisions != 2 {
		t.Errorf("read-only List of a layout 1 store = %+v, %v", l, err)
	}
	sc, rev, err := r.Get("contract-lora-v0")
	if err != nil || rev.Number != 2 || !bytes.Equal(mustMarshal(t, sc), want2) {
		t.Errorf("read-only Get = revision %d, %v; upgraded content equal: %v", rev.Number, err, err == nil && bytes.Equal(mustMarshal(t, sc), want2))
	}
	if c, err := r.GetChecklist("contract-lora-v0"); err != nil || c != nil {
		t.Errorf("read-only GetChecklist on layout 1 = %q, %v", c, err)
	}
	if _, err := r.GetSetting("x"); !errors.Is(err, ErrNotFound) {
		t.Errorf("read-only GetSetting on layout 1 = %v", err)
	}
	if p := r.Check(); p != nil {
		t.Errorf("Check of a layout 1 store: %v", p)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, mustRead(t, path)) {
		t.Fatal("a read-only open changed a layout 1 store")
	}

	// Read-write: upgraded.
	s := mustOpenPath(t, path)
	err = s.db.View(func(tx *bolt.Tx) error {
		if v, _ := layoutVersion(tx); v != SchemaVersion {
			t.Errorf("layout after the upgrade: %d, want %d", v, SchemaVersion)
		}
		for _, name := range layoutBuckets[SchemaVersion] {
			if tx.Bucket(name) == nil {
				t.Errorf("no %s bucket after the upgrade", name)
			}
		}
		return tx.Bucket(bucketScenarios).ForEach(func(k, v []byte) error {
			if v[0] != recordFormat {
				t.Errorf("record of %s is still %q", k, v)
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Check(); p != nil {
		t.Fatalf("Check after the upgrade: %v", p)
	}

	sc, rev, err = s.Get("contract-lora-v0")
	if err != nil {
		t.Fatal(err)
	}
	if sc.SchemaVersion != scenario.SchemaVersion || sc.Workload.RunsPerMonth != scenario.Known(6) ||
		sc.Workload.TokensPerRunB != scenario.Estimate(0.2, 0.4, 0.8) || sc.Data.Residency != "EU" {
		t.Errorf("upgraded scenario: schema %d, runs %v, tokens %v, residency %q",
			sc.SchemaVersion, sc.Workload.RunsPerMonth, sc.Workload.TokensPerRunB, sc.Data.Residency)
	}
	if rev.Number != 2 || rev.Note != "schema 0, six runs" || rev.ModelVersion != "0.0.9" {
		t.Errorf("revision lineage after the upgrade: %+v", rev)
	}
	if errs := scenario.Validate(sc); errs != nil {
		t.Errorf("the upgraded scenario is not valid: %v", errs)
	}
	old, _, err := s.GetRevision("contract-lora-v0", 1)
	if err != nil || !bytes.Equal(mustMarshal(t, old), want1) {
		t.Errorf("GetRevision 1 = %v; equal to Parse(v0.json): %v", err, err == nil && bytes.Equal(mustMarshal(t, old), want1))
	}
	// Revisions are immutable: the stored bytes are still schema 0.
	if b, _, err := s.Bytes("contract-lora-v0", 1); err != nil || !bytes.Equal(b, v0) {
		t.Errorf("Bytes of revision 1 = %v; still the schema 0 file: %v", err, bytes.Equal(b, v0))
	}
	if d, _ := s.ListDeleted(); len(d) != 1 || d[0].ID != "gone" {
		t.Errorf("ListDeleted after the upgrade = %+v", d)
	}

	// Saving on top writes schema 1; saving the upgraded content unchanged
	// is a change of bytes, so it is a new revision.
	rev3 := mustSave(t, s, sc, scenario.RevisionMeta{Author: "new", Note: "saved by this build"})
	if rev3.Number != 3 {
		t.Errorf("save on top = revision %d, want 3", rev3.Number)
	}
	if b, _, _ := s.Bytes("contract-lora-v0", 3); !bytes.Equal(b, want2) {
		t.Errorf("revision 3 bytes:\n%s", b)
	}
	// Restoring a schema 0 revision writes its schema 1 form.
	rev4, err := s.Restore("contract-lora-v0", 1, scenario.RevisionMeta{})
	if err != nil || rev4.Number != 4 {
		t.Fatalf("Restore of a schema 0 revision = %+v, %v", rev4, err)
	}
	if b, _, _ := s.Bytes("contract-lora-v0", 4); !bytes.Equal(b, want1) {
		t.Errorf("restored revision bytes:\n%s", b)
	}
	if err := s.PutChecklist("contract-lora-v0", []byte(`{}`)); err != nil {
		t.Errorf("PutChecklist after the upgrade: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// A second open of the upgraded store writes nothing.
	after := mustRead(t, path)
	s = mustOpenPath(t, path)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(after, mustRead(t, path)) {
		t.Error("opening an upgraded store wrote to it")
	}
}

// A revision of a newer scenario schema is reported, not misread.
func TestRevisionOfNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "new.db")
	body := bytes.Replace(mustMarshal(t, testScenario(t, "future", "Future")), []byte(`"schema_version": 1`),
		[]byte(`"schema_version": `+strconv.Itoa(scenario.SchemaVersion+1)), 1)
	writeLayout1Store(t, path, []oldRevision{{"future", "from a newer build", body}})
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := s.Get("future"); err == nil || !strings.Contains(err.Error(), "cannot be read by this build") || !strings.Contains(err.Error(), "newer hostplan") {
		t.Errorf("Get of a newer revision = %v", err)
	}
	if p := s.Check(); len(p) != 1 || !strings.Contains(p[0].Error(), "newer hostplan") {
		t.Errorf("Check = %v", p)
	}
}

func TestRecordEncoding(t *testing.T) {
	sum := sha256.Sum256([]byte("x"))
	for _, r := range []record{
		{Name: "Ünïcode name ✓", Shape: scenario.ShapeTraining, Current: 1, Updated: time.Date(2026, 11, 30, 3, 4, 5, 123456789, time.UTC), Hash: hex.EncodeToString(sum[:])},
		{Name: "", Shape: "", Current: 1<<32 - 1, Deleted: true, Updated: time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), Hash: hex.EncodeToString(sum[:])},
	} {
		b, err := encodeRecord(r)
		if err != nil {
			t.Fatal(err)
		}
		got, err := decodeRecord(b)
		if err != nil || got != r {
			t.Errorf("round trip %+v → %+v, %v", r, got, err)
		}
		for i := range len(b) - 1 { // every cut is an error, never a panic
			if _, err := decodeRecord(b[:i]); err == nil {
				t.Errorf("a record cut to %d of %d bytes decoded", i, len(b))
			}
		}
	}
	if _, err := encodeRecord(record{Hash: "abc"}); err == nil {
		t.Error("a record without a sha256 encoded")
	}
}

// The store file can be read back by a store opened read-only while a
// read-write store of another process is not holding it (a backup tool,
// `hostplan store check`), and a read-only open never upgrades.
func TestReadOnlyDoesNotUpgrade(t *testing.T) {
	path, _, _ := layout1Fixture(t)
	before := mustRead(t, path)
	r, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := r.PutSetting("k", "v"); !errors.Is(err, bolterrors.ErrDatabaseReadOnly) {
		t.Errorf("PutSetting on a read-only layout 1 store: %v", err)
	}
	r.Close()
	if !bytes.Equal(before, mustRead(t, path)) {
		t.Error("read-only open changed the file")
	}
}
