package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"hostplan/internal/scenario"
)

// t0 is the fake clock's first reading; each call advances it by a minute.
var t0 = time.Date(2025, 3, 4, 5, 6, 7, 0, time.UTC)

func fakeClock() func() time.Time {
	next := t0
	return func() time.Time {
		t := next
		next = next.Add(time.Minute)
		return t
	}
}

// mustOpen opens a new store in t.TempDir(); at cleanup it checks the file
// (bbolt's consistency check and the store's own invariants) and closes it,
// in the manner of bbolt's internal/btesting.
func mustOpen(t testing.TB) *Store {
	t.Helper()
	return mustOpenPath(t, filepath.Join(t.TempDir(), "hostplan.db"))
}

// mustOpenPath opens (or creates) the store at path, as mustOpen does.
// Closing it early in the test is allowed.
func mustOpenPath(t testing.TB, path string) *Store {
	t.Helper()
	s, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	s.now = fakeClock()
	t.Cleanup(func() {
		problems := s.Check()
		if len(problems) == 1 && errors.Is(problems[0], bolterrors.ErrDatabaseNotOpen) {
			return // the test closed it
		}
		for _, p := range problems {
			t.Errorf("store %s fails its check: %v", path, p)
		}
		if err := s.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return s
}

// testScenario returns a minimal valid scenario: a LoRA fine-tune on
// confidential data that may leave only as a snapshot.
func testScenario(t testing.TB, id, name string) *scenario.Scenario {
	t.Helper()
	sc := baseScenario(id, name)
	if errs := scenario.Validate(sc); errs != nil {
		t.Fatalf("test scenario is invalid: %v", errs)
	}
	return sc
}

// baseScenario is testScenario for code that has no testing.TB (a child
// process, a benchmark fixture builder).
func baseScenario(id, name string) *scenario.Scenario {
	return &scenario.Scenario{
		SchemaVersion: scenario.SchemaVersion,
		ID:            id,
		Name:          name,
		Currency:      "EUR",
		Purpose: scenario.Purpose{
			Decision:       "Where to fine-tune the support assistant",
			SuccessMeasure: "Weekly adapter refresh within budget",
			Owner:          "Platform team",
		},
		Workload: scenario.Workload{
			Shape:         scenario.ShapeFineTuning,
			Model:         scenario.Model{ParamsB: 8},
			Precision:     "bf16",
			Method:        "lora",
			TokensPerRunB: scenario.Estimate(0.5, 1, 2),
			RunsPerMonth:  scenario.Known(4),
		},
		Data: scenario.Data{
			VolumeGB:       scenario.Known(200),
			Classification: "confidential",
			Residency:      "EU",
			Movement:       scenario.MoveSnapshot,
			SnapshotGB:     scenario.Known(20),
		},
		Dimensions: scenario.Dimensions{
			Sovereignty:   scenario.Sovereignty{Dimension: scenario.Dimension{Weight: 3}},
			WorkloadShape: scenario.ShapeDim{Dimension: scenario.Dimension{Weight: 1}},
			Operations:    scenario.Operations{Dimension: scenario.Dimension{Weight: 1}, StaffFTE: scenario.Known(1)},
			Economics:     scenario.Economics{Dimension: scenario.Dimension{Weight: 2}, HorizonMonths: 36},
			Optionality:   scenario.Optionality{Dimension: scenario.Dimension{Weight: 1}},
		},
	}
}

func mustMarshal(t testing.TB, sc *scenario.Scenario) []byte {
	t.Helper()
	b, err := scenario.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustSave(t testing.TB, s *Store, sc *scenario.Scenario, meta scenario.RevisionMeta) scenario.Revision {
	t.Helper()
	rev, err := s.Save(sc, meta)
	if err != nil {
		t.Fatalf("Save(%s): %v", sc.ID, err)
	}
	return rev
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSaveGetRoundTrip(t *testing.T) {
	s := mustOpen(t)
	sc := testScenario(t, "fine-tune-eu", "Fine-tune in the EU")
	want := mustMarshal(t, sc)
	meta := scenario.RevisionMeta{Author: "ana", Note: "first draft", ModelVersion: "0.1.0", CatalogAsOf: "2025-01-15"}

	rev := mustSave(t, s, sc, meta)
	sum := sha256.Sum256(want)
	wantRev := scenario.Revision{
		Scenario: "fine-tune-eu", Number: 1, Time: t0,
		RevisionMeta: scenario.RevisionMeta{Author: "ana", Note: "first draft", ModelVersion: "0.1.0", CatalogAsOf: "2025-01-15"},
		InputHash:    hex.EncodeToString(sum[:]),
	}
	if rev != wantRev {
		t.Errorf("Save = %+v\nwant   %+v", rev, wantRev)
	}

	got, grev, err := s.Get("fine-tune-eu")
	if err != nil {
		t.Fatal(err)
	}
	if grev != wantRev {
		t.Errorf("Get revision = %+v\nwant           %+v", grev, wantRev)
	}
	if b := mustMarshal(t, got); !bytes.Equal(b, want) {
		t.Errorf("Get round trip differs:\n got %s\nwant %s", b, want)
	}

	// The stored bytes are exactly scenario.Marshal's, indentation included.
	err = s.db.View(func(tx *bolt.Tx) error {
		rr, err := getRevision(tx, "fine-tune-eu", 1)
		if err != nil {
			return err
		}
		if !bytes.Equal([]byte(rr.Scenario), want) {
			t.Errorf("stored bytes differ from scenario.Marshal:\n got %q\nwant %q", rr.Scenario, want)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestSaveTwiceHistory(t *testing.T) {
	s := mustOpen(t)
	v1 := testScenario(t, "fine-tune-eu", "Fine-tune in the EU")
	v2 := scenario.Clone(v1)
	v2.Workload.RunsPerMonth = scenario.Estimate(2, 4, 8)
	v2.Name = "Fine-tune in the EU, monthly range"

	r1 := mustSave(t, s, v1, scenario.RevisionMeta{Author: "ana", Note: "first"})
	r2 := mustSave(t, s, v2, scenario.RevisionMeta{Author: "ben", Note: "runs are a guess"})
	if r1.Number != 1 || r2.Number != 2 {
		t.Fatalf("revision numbers %d, %d; want 1, 2", r1.Number, r2.Number)
	}
	if !r2.Time.After(r1.Time) {
		t.Errorf("revision 2 time %v is not after revision 1 time %v", r2.Time, r1.Time)
	}

	h, err := s.History("fine-tune-eu")
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 2 || h[0] != r1 || h[1] != r2 {
		t.Errorf("History = %+v\nwant [%+v %+v]", h, r1, r2)
	}

	for _, c := range []struct {
		n    int
		want *scenario.Scenario
	}{{1, v1}, {2, v2}} {
		got, rev, err := s.GetRevision("fine-tune-eu", c.n)
		if err != nil {
			t.Fatalf("GetRevision(%d): %v", c.n, err)
		}
		if rev.Number != c.n {
			t.Errorf("GetRevision(%d) number %d", c.n, rev.Number)
		}
		if !bytes.Equal(mustMarshal(t, got), mustMarshal(t, c.want)) {
			t.Errorf("GetRevision(%d) differs from what was saved", c.n)
		}
	}
	cur, rev, err := s.Get("fine-tune-eu")
	if err != nil {
		t.Fatal(err)
	}
	if rev != r2 || cur.Name != v2.Name {
		t.Errorf("Get = %q %+v, want revision 2 %q", cur.Name, rev, v2.Name)
	}

	list, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	want := []Summary{{ID: "fine-tune-eu", Name: v2.Name, Shape: scenario.ShapeFineTuning, Revisions: 2, Updated: r2.Time}}
	if !equalSummaries(list, want) {
		t.Errorf("List = %+v, want %+v", list, want)
	}
}

func equalSummaries(a, b []Summary) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID || a[i].Name != b[i].Name || a[i].Shape != b[i].Shape ||
			a[i].Revisions != b[i].Revisions || !a[i].Updated.Equal(b[i].Updated) {
			return false
		}
	}
	return true
}

func TestSaveIdenticalAddsNoRevision(t *testing.T) {
	s := mustOpen(t)
	sc := testScenario(t, "same", "Same")
	r1 := mustSave(t, s, sc, scenario.RevisionMeta{Author: "ana", Note: "first"})
	// An equal copy with other lineage is still the same input.
	r2 := mustSave(t, s, scenario.Clone(sc), scenario.RevisionMeta{Author: "ben", Note: "again"})
	if r2 != r1 {
		t.Errorf("identical save returned %+v, want the current revision %+v", r2, r1)
	}
	h, err := s.History("same")
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 1 {
		t.Errorf("History has %d revisions after an identical save, want 1", len(h))
	}
}

func TestSaveInvalidWritesNothing(t *testing.T) {
	s := mustOpen(t)
	good := testScenario(t, "good", "Good")
	mustSave(t, s, good, scenario.RevisionMeta{})
	before := mustRead(t, s.Path())

	for _, c := range []struct {
		name  string
		edit  func(*scenario.Scenario)
		field string
	}{
		{"new scenario without a name", func(sc *scenario.Scenario) { sc.ID, sc.Name = "bad", "" }, "name"},
		{"bad id", func(sc *scenario.Scenario) { sc.ID = "Not An Id" }, "id"},
		{"revision of a stored scenario", func(sc *scenario.Scenario) { sc.Currency = "euro" }, "currency"},
	} {
		t.Run(c.name, func(t *testing.T) {
			sc := scenario.Clone(good)
			c.edit(sc)
			rev, err := s.Save(sc, scenario.RevisionMeta{Author: "ana"})
			var errs scenario.Errors
			if !errors.As(err, &errs) {
				t.Fatalf("Save error = %v (%T), want scenario.Errors", err, err)
			}
			if _, ok := err.(scenario.Errors); !ok {
				t.Errorf("Save wrapped the scenario.Errors: %T", err)
			}
			if len(errs) == 0 || errs[0].Path != c.field {
				t.Errorf("errors = %v, want one on %s", errs, c.field)
			}
			if rev != (scenario.Revision{}) {
				t.Errorf("Save returned revision %+v with an error", rev)
			}
		})
	}
	if after := mustRead(t, s.Path()); !bytes.Equal(before, after) {
		t.Error("an invalid save changed the store file")
	}
	h, err := s.History("good")
	if err != nil || len(h) != 1 {
		t.Errorf("History(good) = %d revisions, %v; want 1", len(h), err)
	}
	if _, err := s.History("bad"); !errors.Is(err, ErrNotFound) {
		t.Errorf("History(bad) error = %v, want ErrNotFound", err)
	}
}

func TestFileMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix permissions")
	}
	s := mustOpen(t)
	fi, err := os.Stat(s.Path())
	if err != nil {
		t.Fatal(err)
	}
	if m := fi.Mode().Perm(); m != 0o600 {
		t.Errorf("store file mode %v, want 0600", m)
	}
}

func TestDefaultPath(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(home, "config"))
	t.Setenv("AppData", filepath.Join(home, "appdata"))
	cfg, err := os.UserConfigDir()
	if err != nil {
		t.Fatal(err)
	}
	p, err := DefaultPath()
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(cfg, "hostplan", "hostplan.db"); p != want {
		t.Errorf("DefaultPath = %s, want %s", p, want)
	}
	fi, err := os.Stat(filepath.Dir(p))
	if err != nil {
		t.Fatal(err)
	}
	if !fi.IsDir() {
		t.Fatalf("%s is not a directory", filepath.Dir(p))
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o700 {
		t.Errorf("directory mode %v, want 0700", fi.Mode().Perm())
	}
}

func TestOpenInUse(t *testing.T) {
	s := mustOpen(t)
	// bbolt locks with flock, which belongs to the open file, so a second
	// open from this same process waits as another process would. 200ms
	// keeps the test quick; bbolt retries every 50ms.
	for _, ro := range []bool{false, true} {
		t.Run(fmt.Sprintf("ReadOnly=%v", ro), func(t *testing.T) {
			start := time.Now()
			s2, err := Open(s.Path(), &Options{Timeout: 200 * time.Millisecond, ReadOnly: ro})
			if err == nil {
				s2.Close()
				t.Fatal("second Open succeeded while the first holds the file")
			}
			if !errors.Is(err, ErrInUse) {
				t.Fatalf("second Open error = %v, want ErrInUse", err)
			}
			if errors.Is(err, ErrNotStore) {
				t.Errorf("in-use error also matches ErrNotStore: %v", err)
			}
			if waited := time.Since(start); waited < 100*time.Millisecond {
				t.Errorf("second Open gave up after %v; it should wait about 200ms", waited)
			}
			want := fmt.Sprintf("store %s is in use by another hostplan (close the other window or pass --db PATH)", s.Path())
			if err.Error() != want {
				t.Errorf("message %q\nwant    %q", err, want)
			}
		})
	}
	// Once the first closes, the file opens.
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	mustOpenPath(t, path)
}

func TestReopenKeepsDataAndWritesNothing(t *testing.T) {
	s := mustOpen(t)
	path := s.Path()
	sc := testScenario(t, "keep", "Keep")
	rev := mustSave(t, s, sc, scenario.RevisionMeta{Author: "ana"})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before := mustRead(t, path)

	s = mustOpenPath(t, path)
	got, grev, err := s.Get("keep")
	if err != nil {
		t.Fatal(err)
	}
	if grev != rev || !bytes.Equal(mustMarshal(t, got), mustMarshal(t, sc)) {
		t.Errorf("reopened store returned %+v, want %+v", grev, rev)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, mustRead(t, path)) {
		t.Error("opening and reading a store changed its file")
	}
}

func TestReadOnly(t *testing.T) {
	s := mustOpen(t)
	path := s.Path()
	mustSave(t, s, testScenario(t, "ro", "Read only"), scenario.RevisionMeta{})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	r1, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	// Read-only openers share the file.
	r2, err := Open(path, &Options{ReadOnly: true, Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatalf("second read-only Open: %v", err)
	}
	defer r2.Close()
	if _, _, err := r2.Get("ro"); err != nil {
		t.Errorf("Get from a read-only store: %v", err)
	}
	if _, err := r1.Save(testScenario(t, "ro", "Changed"), scenario.RevisionMeta{}); !errors.Is(err, bolterrors.ErrDatabaseReadOnly) {
		t.Errorf("Save on a read-only store: %v, want ErrDatabaseReadOnly", err)
	}

	missing := filepath.Join(t.TempDir(), "missing.db")
	if _, err := Open(missing, &Options{ReadOnly: true}); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("read-only Open of a missing file: %v, want fs.ErrNotExist", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Error("read-only Open created the file")
	}
}

// An empty file, or a bbolt file with nothing in it, is not a store
// hostplan made (it makes its store whole before it gives it its name):
// both are refused and left as they are, mode included.
func TestOpenEmptyFileRefused(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.db")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	bare := filepath.Join(dir, "bare.db")
	db, err := bolt.Open(bare, 0o644, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	bareBytes := mustRead(t, bare)
	for _, c := range []struct {
		path string
		data []byte
		want string
	}{{empty, nil, "the file is empty"}, {bare, bareBytes, "no buckets"}} {
		for _, ro := range []bool{true, false} {
			s, err := Open(c.path, &Options{ReadOnly: ro})
			if err == nil {
				s.Close()
				t.Fatalf("%s (read-only %v) opened", c.path, ro)
			}
			if !errors.Is(err, ErrNotStore) || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.path) {
				t.Errorf("%s (read-only %v): %v", c.path, ro, err)
			}
			if got := mustRead(t, c.path); !bytes.Equal(got, c.data) {
				t.Errorf("%s changed", c.path)
			}
			if fi, err := os.Stat(c.path); err != nil || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o644 {
				t.Errorf("%s: mode %v, %v", c.path, fi.Mode().Perm(), err)
			}
		}
	}
	assertNames(t, dir, "bare.db", "empty.db")
}

// A new store is made whole before it has its name: nothing else is left
// in the directory, and the file opens as a store at once.
func TestOpenCreatesWholeStore(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "new.db")
	s := mustOpenPath(t, path)
	assertNames(t, dir, "new.db")
	if l, err := s.List(); err != nil || len(l) != 0 {
		t.Errorf("new store lists %v, %v", l, err)
	}
	// Another hostplan's read-only look sees a complete store.
	ro, err := Open(path, &Options{ReadOnly: true, Timeout: 50 * time.Millisecond})
	if err == nil {
		ro.Close()
	} else if !errors.Is(err, ErrInUse) {
		t.Errorf("read-only open of the new store: %v", err)
	}
}

// assertNames fails unless dir holds exactly the names want, in order.
func assertNames(t *testing.T, dir string, want ...string) {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
}

// A store whose records do not decode opens read-only when opened for
// writing: it reads, every write is refused with a message that says
// what to do, and the file is not changed.
func TestOpenDamagedRecordsReadOnly(t *testing.T) {
	s := mustOpen(t)
	path := s.Path()
	mustSave(t, s, testScenario(t, "good", "Good"), scenario.RevisionMeta{})
	mustSave(t, s, testScenario(t, "bad", "Bad"), scenario.RevisionMeta{})
	rawUpdate(t, s, func(tx *bolt.Tx) error {
		return tx.Bucket(bucketScenarios).Put([]byte("bad"), []byte{recordFormat, 0, 0xff})
	})
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before := mustRead(t, path)

	d, err := Open(path, nil)
	if err != nil {
		t.Fatalf("Open of a store with a damaged record: %v", err)
	}
	dmg := d.Damaged()
	if !errors.Is(dmg, ErrDamaged) {
		t.Fatalf("Damaged() = %v, want ErrDamaged", dmg)
	}
	for _, want := range []string{path, `scenario "bad"`, "read-only", "hostplan store check", "hostplan store backup"} {
		if !strings.Contains(dmg.Error(), want) {
			t.Errorf("the message %q does not say %q", dmg, want)
		}
	}
	if _, _, err := d.Get("good"); err != nil {
		t.Errorf("reading a sound scenario of the damaged store: %v", err)
	}
	writes := map[string]error{
		"Delete":              d.Delete("good"),
		"PutSetting":          d.PutSetting("k", "v"),
		"PutCatalogOverrides": d.PutCatalogOverrides(nil),
	}
	_, writes["Save"] = d.Save(testScenario(t, "new", "New"), scenario.RevisionMeta{})
	for what, err := range writes {
		if !errors.Is(err, ErrDamaged) {
			t.Errorf("%s on the damaged store: %v, want ErrDamaged", what, err)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(mustRead(t, path), before) {
		t.Error("the damaged store was written to")
	}
	// Check says what is wrong.
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if problems := ro.Check(); len(problems) == 0 || !strings.Contains(fmt.Sprint(problems), `scenario "bad": its record is not readable`) {
		t.Errorf("Check = %v", problems)
	}
}

// realStore returns the bytes of a closed store holding a few revisions.
func realStore(t *testing.T) []byte {
	t.Helper()
	s := mustOpen(t)
	for i := range 5 {
		sc := testScenario(t, fmt.Sprintf("s-%d", i), fmt.Sprintf("Scenario %d", i))
		mustSave(t, s, sc, scenario.RevisionMeta{Author: "ana"})
		sc.Description = strings.Repeat("a longer description ", 200) // spills to more pages
		mustSave(t, s, sc, scenario.RevisionMeta{Author: "ana"})
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return mustRead(t, s.Path())
}

func TestOpenNotStoreLeavesFileUnchanged(t *testing.T) {
	store := realStore(t)
	f, err := os.CreateTemp(t.TempDir(), "store")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if err := os.WriteFile(f.Name(), store, 0o600); err != nil {
		t.Fatal(err)
	}
	// The size the bbolt header claims: every page below it must be in the
	// file.
	ps, sz, root, _ := fileLayout(t, f.Name())
	used := int(sz)
	if used > len(store) || used < 4*ps {
		t.Fatalf("real store: %d bytes in use of a %d-byte file", used, len(store))
	}

	rng := rand.New(rand.NewPCG(1, 1))
	garbage := make([]byte, 64<<10)
	for i := range garbage {
		garbage[i] = byte(rng.Uint32())
	}
	// bbolt keeps its header, the meta pages, in pages 0 and 1.
	bothMetasBad := bytes.Clone(store)
	for i := range 2 * ps {
		bothMetasBad[i] = 0xa5
	}
	// The root bucket's page overwritten: the marker cannot be read.
	rootBad := bytes.Clone(store)
	for i := root * ps; i < (root+1)*ps; i++ {
		rootBad[i] = 0xa5
	}
	// (Damage to a page Open does not read, such as the last one, no longer
	// makes the file "not a store": TestDamagedPages.)

	cases := []struct {
		name string
		data []byte
	}{
		{"text", []byte("hello, this is not a database\n")},
		{"garbage", garbage},
		{"one byte", store[:1]},
		{"half a page", store[:ps/2]},
		{"one page", store[:ps]},
		{"two pages", store[:2*ps]},
		{"half the used pages", store[:used/2]},
		{"one byte short", store[:used-1]},
		{"both meta pages damaged", bothMetasBad},
		{"root page damaged", rootBad},
		{"foreign bbolt", foreignBolt(t, false)},
		{"foreign bbolt without freelist sync", foreignBolt(t, true)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "x.db")
			if err := os.WriteFile(path, c.data, 0o644); err != nil {
				t.Fatal(err)
			}
			for _, ro := range []bool{false, true} {
				s, err := Open(path, &Options{ReadOnly: ro})
				if err == nil {
					s.Close()
					t.Fatalf("Open (ReadOnly=%v) accepted it", ro)
				}
				if !errors.Is(err, ErrNotStore) {
					t.Errorf("Open (ReadOnly=%v) error = %v, want ErrNotStore", ro, err)
				}
				t.Logf("ReadOnly=%v: %v", ro, err)
				if !strings.Contains(err.Error(), path) {
					t.Errorf("error %q does not name the file", err)
				}
				if got := mustRead(t, path); !bytes.Equal(got, c.data) {
					t.Fatalf("Open (ReadOnly=%v) changed the file (%d bytes, was %d)", ro, len(got), len(c.data))
				}
				fi, err := os.Stat(path)
				if err != nil {
					t.Fatal(err)
				}
				if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o644 {
					t.Errorf("Open changed the mode to %v", fi.Mode().Perm())
				}
			}
		})
	}

	// The intact copy still opens.
	s := mustOpenPath(t, f.Name())
	if l, err := s.List(); err != nil || len(l) != 5 {
		t.Errorf("intact store List = %d scenarios, %v; want 5", len(l), err)
	}
}

// foreignBolt returns the bytes of a bbolt file of another program.
func foreignBolt(t *testing.T, noFreelistSync bool) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "other.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{NoFreelistSync: noFreelistSync})
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("settings"))
		if err != nil {
			return err
		}
		return b.Put([]byte("colour"), []byte("green"))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return mustRead(t, path)
}

func TestOpenNewerStore(t *testing.T) {
	s := mustOpen(t)
	path := s.Path()
	err := s.db.Update(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketMeta).Put(keyVersion, []byte(strconv.Itoa(SchemaVersion+1)))
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	before := mustRead(t, path)
	_, err = Open(path, nil)
	if !errors.Is(err, ErrNewer) || errors.Is(err, ErrNotStore) {
		t.Errorf("Open of a newer store: %v, want ErrNewer only", err)
	}
	if !bytes.Equal(before, mustRead(t, path)) {
		t.Error("Open changed a newer store's file")
	}
}

func TestGetNotFound(t *testing.T) {
	s := mustOpen(t)
	mustSave(t, s, testScenario(t, "one", "One"), scenario.RevisionMeta{})
	checks := map[string]error{}
	_, _, checks["Get(missing)"] = s.Get("missing")
	_, _, checks["GetRevision(missing, 1)"] = s.GetRevision("missing", 1)
	_, _, checks["GetRevision(one, 0)"] = s.GetRevision("one", 0)
	_, _, checks["GetRevision(one, 2)"] = s.GetRevision("one", 2)
	_, _, checks["GetRevision(one, -1)"] = s.GetRevision("one", -1)
	_, checks["History(missing)"] = s.History("missing")
	checks["Delete(missing)"] = s.Delete("missing")
	checks["Undelete(missing)"] = s.Undelete("missing")
	for name, err := range checks {
		if !errors.Is(err, ErrNotFound) {
			t.Errorf("%s error = %v, want ErrNotFound", name, err)
		}
	}
	if _, _, err := s.Get("missing"); err == nil || !strings.Contains(err.Error(), `"missing"`) {
		t.Errorf("error %v does not name the scenario", err)
	}
}

func TestListSorted(t *testing.T) {
	s := mustOpen(t)
	for _, c := range []struct{ id, name string }{
		{"z", "beta"}, {"y", "Alpha"}, {"b", "alpha"}, {"a", "alpha"}, {"c", "Gamma"},
	} {
		mustSave(t, s, testScenario(t, c.id, c.name), scenario.RevisionMeta{})
	}
	l, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range l {
		got = append(got, x.Name+"/"+x.ID)
	}
	want := "Alpha/y alpha/a alpha/b beta/z Gamma/c"
	if strings.Join(got, " ") != want {
		t.Errorf("List order %v, want %s", got, want)
	}
}

func TestDeleteUndelete(t *testing.T) {
	s := mustOpen(t)
	a := testScenario(t, "a", "A")
	mustSave(t, s, a, scenario.RevisionMeta{})
	a2 := scenario.Clone(a)
	a2.Description = "second"
	mustSave(t, s, a2, scenario.RevisionMeta{})
	mustSave(t, s, testScenario(t, "b", "B"), scenario.RevisionMeta{})

	if err := s.Delete("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("a"); err != nil {
		t.Errorf("deleting twice: %v", err)
	}
	l, _ := s.List()
	if len(l) != 1 || l[0].ID != "b" {
		t.Errorf("List after delete = %+v, want only b", l)
	}
	d, _ := s.ListDeleted()
	if len(d) != 1 || d[0].ID != "a" || d[0].Revisions != 2 {
		t.Errorf("ListDeleted = %+v, want a with 2 revisions", d)
	}
	if _, _, err := s.Get("a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Get of a deleted scenario: %v, want ErrNotFound", err)
	}

	if err := s.Undelete("a"); err != nil {
		t.Fatal(err)
	}
	l, _ = s.List()
	if len(l) != 2 {
		t.Errorf("List after undelete = %+v, want a and b", l)
	}
	h, err := s.History("a")
	if err != nil || len(h) != 2 {
		t.Errorf("History after undelete = %d revisions, %v; want 2", len(h), err)
	}
	if d, _ := s.ListDeleted(); len(d) != 0 {
		t.Errorf("ListDeleted after undelete = %+v", d)
	}

	// An explicit save restores a deleted scenario, even with no change.
	if err := s.Delete("b"); err != nil {
		t.Fatal(err)
	}
	rev := mustSave(t, s, testScenario(t, "b", "B"), scenario.RevisionMeta{})
	if rev.Number != 1 {
		t.Errorf("identical save of deleted b made revision %d, want 1", rev.Number)
	}
	if _, _, err := s.Get("b"); err != nil {
		t.Errorf("Get after saving a deleted scenario: %v", err)
	}
}

// examples is a scenarios directory: two examples, a file that is not JSON
// and a subdirectory, both ignored.
func examples(t *testing.T) fstest.MapFS {
	return fstest.MapFS{
		"scenarios/alpha.json":       {Data: mustMarshal(t, testScenario(t, "alpha", "Alpha example"))},
		"scenarios/beta.json":        {Data: mustMarshal(t, testScenario(t, "beta", "Beta example"))},
		"scenarios/README.md":        {Data: []byte("# examples\n")},
		"scenarios/old/gamma.json":   {Data: []byte("not even JSON")},
		"elsewhere/not-an-example.j": {Data: []byte("{}")},
	}
}

func TestSeedOnce(t *testing.T) {
	s := mustOpen(t)
	n, err := s.Seed(examples(t), "scenarios")
	if err != nil || n != 2 {
		t.Fatalf("first Seed = %d, %v; want 2", n, err)
	}
	n, err = s.Seed(examples(t), "scenarios")
	if err != nil || n != 0 {
		t.Errorf("second Seed = %d, %v; want 0", n, err)
	}
	l, err := s.List()
	if err != nil || len(l) != 2 || l[0].ID != "alpha" || l[1].ID != "beta" {
		t.Fatalf("List = %+v, %v; want alpha, beta", l, err)
	}
	h, err := s.History("alpha")
	if err != nil || len(h) != 1 || h[0].Author != "hostplan" || h[0].Note != "example scenario" {
		t.Errorf("seeded history = %+v, %v", h, err)
	}
}

func TestSeedDoesNotResurrect(t *testing.T) {
	s := mustOpen(t)
	path := s.Path()
	if _, err := s.Seed(examples(t), "scenarios"); err != nil {
		t.Fatal(err)
	}
	if err := s.Delete("alpha"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = mustOpenPath(t, path) // the next start
	n, err := s.Seed(examples(t), "scenarios")
	if err != nil || n != 0 {
		t.Errorf("Seed on the next start = %d, %v; want 0", n, err)
	}
	l, _ := s.List()
	if len(l) != 1 || l[0].ID != "beta" {
		t.Errorf("List = %+v, want only beta", l)
	}
}

func TestSeedKeepsUserScenario(t *testing.T) {
	s := mustOpen(t)
	mine := testScenario(t, "alpha", "My alpha")
	mustSave(t, s, mine, scenario.RevisionMeta{Author: "ana"})
	n, err := s.Seed(examples(t), "scenarios")
	if err != nil || n != 1 {
		t.Fatalf("Seed = %d, %v; want 1 (beta only)", n, err)
	}
	got, rev, err := s.Get("alpha")
	if err != nil {
		t.Fatal(err)
	}
	if got.Name != "My alpha" || rev.Number != 1 || rev.Author != "ana" {
		t.Errorf("the example replaced the user's scenario: %q %+v", got.Name, rev)
	}
}

func TestSeedBadExampleWritesNothing(t *testing.T) {
	s := mustOpen(t)
	bad := examples(t)
	bad["scenarios/broken.json"] = &fstest.MapFile{Data: []byte(`{"schema_version": 1, "id": "broken"`)}
	before := mustRead(t, s.Path())
	n, err := s.Seed(bad, "scenarios")
	if err == nil || n != 0 {
		t.Fatalf("Seed with a broken example = %d, %v; want an error", n, err)
	}
	if !strings.Contains(err.Error(), "broken.json") {
		t.Errorf("error %q does not name the file", err)
	}
	if !bytes.Equal(before, mustRead(t, s.Path())) {
		t.Error("a failed Seed changed the store file")
	}

	dup := examples(t)
	dup["scenarios/copy.json"] = dup["scenarios/alpha.json"]
	if _, err := s.Seed(dup, "scenarios"); err == nil || !strings.Contains(err.Error(), "same id") {
		t.Errorf("Seed with two examples of one id: %v, want a same-id error", err)
	}
	if _, err := s.Seed(examples(t), "missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Seed of a missing directory: %v, want fs.ErrNotExist", err)
	}

	// Not marked seeded: the next start tries again and succeeds.
	if n, err := s.Seed(examples(t), "scenarios"); err != nil || n != 2 {
		t.Errorf("Seed after fixing the examples = %d, %v; want 2", n, err)
	}
}
