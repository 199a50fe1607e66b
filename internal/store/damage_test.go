package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"hostplan/internal/scenario"

	bolt "go.etcd.io/bbolt"
)

// boltProblems runs bbolt's own Tx.Check on the closed file at path.
func boltProblems(t *testing.T, path string) []error {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var out []error
	err = db.View(func(tx *bolt.Tx) error {
		for err := range tx.Check() {
			out = append(out, err)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// leakPages makes bbolt lose track of some pages of the store: bbolt
// v1.5.0 leaks the pages of a bucket that holds buckets when the bucket is
// written to and deleted in the same transaction (hostplan never does
// that: Purge deletes a revisions bucket, which holds only values). The
// pages are then neither reachable nor free ("unreachable unfreed"); the
// store's content is unchanged.
func leakPages(t *testing.T, s *Store) {
	t.Helper()
	value := bytes.Repeat([]byte("v"), 3000) // not inline: the buckets get pages of their own
	err := s.db.Update(func(tx *bolt.Tx) error {
		b, err := tx.CreateBucket([]byte("scratch"))
		if err != nil {
			return err
		}
		for i := range 3 {
			n, err := b.CreateBucket([]byte(fmt.Sprintf("nested-%d", i)))
			if err != nil {
				return err
			}
			for k := range 5 {
				if err := n.Put([]byte(fmt.Sprintf("k%d", k)), value); err != nil {
					return err
				}
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	err = s.db.Update(func(tx *bolt.Tx) error {
		if err := tx.Bucket([]byte("scratch")).Put([]byte("x"), []byte("y")); err != nil {
			return err
		}
		return tx.DeleteBucket([]byte("scratch"))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// onlyLeaks fails unless problems is not empty and every problem is a
// leaked page.
func onlyLeaks(t *testing.T, what string, problems []error) {
	t.Helper()
	if len(problems) == 0 {
		t.Errorf("%s: no problem reported, want the leaked pages", what)
	}
	for _, p := range problems {
		if !strings.Contains(p.Error(), "unreachable unfreed") {
			t.Errorf("%s: %v, want only leaked pages", what, p)
		}
	}
}

// A store with pages bbolt lost track of opens, for reading and for
// writing, and works; Check reports the leaked pages and nothing else;
// Backup copies it, leaks included.
func TestLeakedPages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostplan.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		mustSave(t, s, testScenario(t, fmt.Sprintf("s-%d", i), fmt.Sprintf("Scenario %d", i)), scenario.RevisionMeta{})
	}
	leakPages(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	bp := boltProblems(t, path)
	if len(bp) == 0 {
		t.Fatal("bbolt lost no pages: this bbolt no longer leaks them this way; leakPages needs another way")
	}
	onlyLeaks(t, "bbolt's check", bp)

	// Opens for writing, lists, saves.
	s, err = Open(path, nil)
	if err != nil {
		t.Fatalf("Open of a store with leaked pages: %v", err)
	}
	if l, err := s.List(); err != nil || len(l) != 3 {
		t.Errorf("List = %d scenarios, %v; want 3", len(l), err)
	}
	mustSave(t, s, testScenario(t, "s-3", "Saved after the leak"), scenario.RevisionMeta{})
	onlyLeaks(t, "Check (read-write)", s.Check())
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	// Opens read-only; check and backup do their job.
	ro, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only Open of a store with leaked pages: %v", err)
	}
	defer ro.Close()
	onlyLeaks(t, "Check (read-only)", ro.Check())
	dst := filepath.Join(t.TempDir(), "backup.db")
	if err := ro.Backup(dst); err != nil {
		t.Fatalf("Backup of a store with leaked pages: %v", err)
	}
	b, err := Open(dst, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	defer b.Close()
	if l, err := b.List(); err != nil || len(l) != 4 {
		t.Errorf("backup List = %d scenarios, %v; want 4", len(l), err)
	}
	onlyLeaks(t, "Check of the backup", b.Check())
}

// page kinds, as bbolt's Tx.Page reports them.
const (
	kindFree     = "free"
	kindOverflow = "overflow" // a page that continues the page before it
)

// fileLayout describes the closed bbolt file at path through bbolt's public
// API: its page size, the size its header claims, the root bucket's page,
// and the kind of each page below the high-water mark (meta, free,
// freelist, branch, leaf or overflow).
func fileLayout(t *testing.T, path string) (pageSize int, size int64, root int, kinds []string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, &bolt.Options{ReadOnly: true, PreLoadFreelist: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	pageSize = db.Info().PageSize
	err = db.View(func(tx *bolt.Tx) error {
		size = tx.Size()
		root = int(tx.Cursor().Bucket().Root())
		n := int(size) / pageSize
		kinds = make([]string, n)
		for id := 0; id < n; {
			info, err := tx.Page(id)
			if err != nil {
				return err
			}
			kinds[id] = info.Type
			if info.Type == kindFree {
				id++
				continue
			}
			for i := 1; i <= info.OverflowCount; i++ {
				kinds[id+i] = kindOverflow
			}
			id += 1 + info.OverflowCount
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pageSize, size, root, kinds
}

// bigStore returns the path of a closed store large enough for branch
// pages: 80 scenarios, two revisions each, the second with a description
// that spills over several pages.
func bigStore(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 80 {
		sc := testScenario(t, fmt.Sprintf("scenario-%03d", i), fmt.Sprintf("Scenario %d", i))
		mustSave(t, s, sc, scenario.RevisionMeta{Author: "ana"})
		if i%4 == 0 {
			sc.Description = strings.Repeat("a longer description ", 400)
			mustSave(t, s, sc, scenario.RevisionMeta{Author: "ana"})
		}
		if i%10 == 0 {
			if err := s.PutChecklist(sc.ID, []byte(`{"done": []}`)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.Delete("scenario-007"); err != nil { // frees its pages
		t.Fatal(err)
	}
	if err := s.Purge("scenario-007"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// Each page of a store in turn is damaged with random bytes, all of it or
// all but its first 16 bytes (bbolt's page header, so that the damage is
// in the elements and their offsets, which point anywhere). Whatever the
// damage, nothing ends the program: Open refuses the file and leaves it as
// it was, or opens it; a read-only store is checked and backed up (the
// copy holds the same pages); Check finds the damage to every page in use
// that is wholly overwritten and finds nothing when the page was free.
func TestDamagedPages(t *testing.T) {
	path := bigStore(t)
	good := mustRead(t, path)
	ps, size, _, kinds := fileLayout(t, path)
	counts := map[string]int{}
	for _, k := range kinds {
		counts[k]++
	}
	t.Logf("%d pages of %d bytes: %v", len(kinds), ps, counts)
	if counts["branch"] == 0 || counts[kindFree] == 0 || counts[kindOverflow] == 0 {
		t.Fatalf("the store has no branch, free or overflow pages (%v); the test needs all three", counts)
	}
	rng := rand.New(rand.NewPCG(5, 5))
	outcomes := map[string]int{}
	for id := 2; id < len(kinds); id++ {
		for _, from := range []int{0, 16} {
			bad := bytes.Clone(good)
			for i := id*ps + from; i < (id+1)*ps; i++ {
				bad[i] = byte(rng.Uint32())
			}
			p := filepath.Join(t.TempDir(), "bad.db")
			if err := os.WriteFile(p, bad, 0o600); err != nil {
				t.Fatal(err)
			}
			what := fmt.Sprintf("page %d (%s) from byte %d", id, kinds[id], from)
			outcomes[damaged(t, what, p, bad, size, ps, kinds[id], from == 0)]++
		}
	}
	t.Logf("outcomes: %v", outcomes)
}

// damaged opens, checks and backs up the damaged file p (holding bad) and
// returns what happened.
func damaged(t *testing.T, what, p string, bad []byte, size int64, ps int, kind string, whole bool) string {
	t.Helper()
	// Read-write: refused and untouched, or opened.
	outcome := "opens"
	if s, err := Open(p, nil); err != nil {
		if !errors.Is(err, ErrNotStore) {
			t.Errorf("%s: Open = %v, want ErrNotStore or a store", what, err)
		}
		outcome = "refused for writing"
	} else {
		_, _ = s.List() // reads through the guard: an error at most
		if err := s.Close(); err != nil {
			t.Errorf("%s: close: %v", what, err)
		}
	}
	if !bytes.Equal(mustRead(t, p), bad) {
		t.Fatalf("%s: opening it changed the file", what)
	}

	ro, err := Open(p, &Options{ReadOnly: true})
	if err != nil {
		if !errors.Is(err, ErrNotStore) {
			t.Errorf("%s: read-only Open = %v, want ErrNotStore or a store", what, err)
		}
		if kind == kindFree || kind == kindOverflow && !whole {
			t.Errorf("%s: read-only Open refuses it: %v", what, err)
		}
		return "refused"
	}
	defer ro.Close()
	problems := ro.Check()
	switch {
	case kind == kindFree && problems != nil:
		t.Errorf("%s: a damaged free page, and Check says %v", what, problems)
	case kind != kindFree && whole && problems == nil:
		t.Errorf("%s: Check finds nothing", what)
	}
	dst := filepath.Join(t.TempDir(), "backup.db")
	if err := ro.Backup(dst); err != nil {
		t.Errorf("%s: Backup: %v", what, err)
	} else if copied := mustRead(t, dst); int64(len(copied)) != size || !bytes.Equal(copied[2*ps:], bad[2*ps:size]) {
		t.Errorf("%s: the backup's pages differ from the store's", what)
	}
	if problems != nil {
		return outcome + ", problems found"
	}
	return outcome + ", consistent"
}

// A damaged freelist page: bbolt would panic loading it (inside bolt.Open,
// leaving the file mapped for as long as the program runs), so the store
// does not open for writing and bbolt is not asked to load it; the store
// opens read-only, Check reports the freelist, and Backup copies the store.
// No open leaves the file mapped.
func TestDamagedFreelist(t *testing.T) {
	path := bigStore(t)
	good := mustRead(t, path)
	ps, _, _, kinds := fileLayout(t, path)
	freelist := -1
	for id, k := range kinds {
		if k == "freelist" {
			freelist = id
		}
	}
	if freelist < 0 {
		t.Fatal("no freelist page")
	}
	bad := bytes.Clone(good)
	for i := freelist * ps; i < (freelist+1)*ps; i++ {
		bad[i] = 0xa5
	}
	p := filepath.Join(t.TempDir(), "bad.db")
	if err := os.WriteFile(p, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(p, nil); !errors.Is(err, ErrNotStore) || !strings.Contains(err.Error(), "is not a freelist page") {
		t.Errorf("Open for writing = %v, want ErrNotStore naming the freelist page", err)
	}
	if !bytes.Equal(mustRead(t, p), bad) {
		t.Fatal("Open changed the file")
	}
	if n := mappings(t, p); n != 0 {
		t.Errorf("the refused Open left %d mappings of the file", n)
	}
	ro, err := Open(p, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only Open: %v", err)
	}
	defer ro.Close()
	problems := ro.Check()
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "cannot load its freelist") {
		t.Errorf("Check = %v, want the freelist only", problems)
	}
	if l, err := ro.List(); err != nil || len(l) != 79 {
		t.Errorf("List = %d scenarios, %v; want 79", len(l), err)
	}
	if err := ro.Backup(filepath.Join(t.TempDir(), "backup.db")); err != nil {
		t.Errorf("Backup: %v", err)
	}
	if err := ro.Close(); err != nil {
		t.Fatal(err)
	}
	if n := mappings(t, p); n != 0 {
		t.Errorf("%d mappings of the file after Close", n)
	}
}

// mappings counts the memory mappings of the file at path in this process
// (on Linux, from /proc/self/maps; elsewhere the test is skipped).
func mappings(t *testing.T, path string) int {
	t.Helper()
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		t.Skipf("no /proc/self/maps: %v", err)
	}
	n := 0
	for line := range strings.Lines(string(maps)) {
		if strings.HasSuffix(strings.TrimSpace(line), " "+path) {
			n++
		}
	}
	return n
}

// A branch page whose keys point outside the file, its child page ids
// intact: walking the tree with cursors does not read a branch page's
// keys, Tx.Check does (and would fault in its own goroutine, ending the
// program); Check's seeks read them first, under the guard. The damage is
// crafted in bbolt v1.5.0's branch element layout (16-byte page header,
// then per element pos u32 | ksize u32 | pgid u64, pos counted from the
// element), known to this test only.
func TestDamagedBranchKeys(t *testing.T) {
	path := bigStore(t)
	good := mustRead(t, path)
	ps, size, _, kinds := fileLayout(t, path)
	branch := slices.Index(kinds, "branch")
	if branch < 0 {
		t.Fatal("no branch page")
	}
	count := int(binary.NativeEndian.Uint16(good[branch*ps+10:]))
	for _, elem := range []int{0, count / 2, count - 1} {
		t.Run(fmt.Sprintf("element %d of %d", elem, count), func(t *testing.T) {
			bad := bytes.Clone(good)
			binary.NativeEndian.PutUint32(bad[branch*ps+16+elem*16:], 1<<30) // 1 GiB past the element, outside the map
			p := filepath.Join(t.TempDir(), "bad.db")
			if err := os.WriteFile(p, bad, 0o600); err != nil {
				t.Fatal(err)
			}
			ro, err := Open(p, &Options{ReadOnly: true})
			if err != nil {
				t.Fatalf("read-only Open: %v", err)
			}
			defer ro.Close()
			problems := ro.Check()
			if problems == nil {
				t.Error("Check finds nothing")
			}
			t.Log(problems)
			dst := filepath.Join(t.TempDir(), "backup.db")
			if err := ro.Backup(dst); err != nil {
				t.Errorf("Backup: %v", err)
			} else if !bytes.Equal(mustRead(t, dst)[2*ps:], bad[2*ps:size]) {
				t.Error("the backup's pages differ from the store's")
			}
		})
	}
}

// damageValueSize makes every leaf element in the file at path whose key
// is key and whose value is len(value) bytes claim a value of claim bytes
// instead (in every copy of its page, free ones included), and returns
// how many it changed. A leaf element's header is its flags, position,
// key size and value size (four uint32 in the machine's byte order, as
// bbolt writes them), and its key follows at the position, counted from
// the header.
func damageValueSize(t *testing.T, path string, key []byte, value []byte, claim uint32) int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var hdr [8]byte
	binary.NativeEndian.PutUint32(hdr[:4], uint32(len(key)))
	binary.NativeEndian.PutUint32(hdr[4:], uint32(len(value)))
	n := 0
	for i := 8; i+8 <= len(data); i++ {
		if !bytes.Equal(data[i:i+8], hdr[:]) {
			continue
		}
		start := i - 8 + int(binary.NativeEndian.Uint32(data[i-4:i]))
		if start < 0 || start+len(key)+len(value) > len(data) ||
			!bytes.Equal(data[start:start+len(key)], key) || !bytes.Equal(data[start+len(key):start+len(key)+len(value)], value) {
			continue
		}
		binary.NativeEndian.PutUint32(data[i+4:i+8], claim)
		n++
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return n
}

// A value in an inline bucket (the catalog overrides) that claims nearly
// two gigabytes: bbolt gave out a slice of that length, which past a copy
// of the bucket bbolt made ran through the program's memory rather than
// into the end of the file (GetCatalogOverrides returned 1.8 GB of it, the
// meta bucket's marker quoted so took minutes). The store opens, read-only;
// reading the overrides is an error that says so, at once; Check reports
// it; the rest of the store reads as before.
func TestDamagedValueSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostplan.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, s, testScenario(t, "a", "A"), scenario.RevisionMeta{})
	overrides := []byte(`{"format":1,"rows":[]}`)
	if err := s.PutCatalogOverrides(overrides); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	const claim = 0x6e00000e
	if n := damageValueSize(t, path, keyOverrides, overrides, claim); n == 0 {
		t.Fatal("the overrides' element is not in the file")
	}
	for _, ro := range []bool{true, false} {
		s, err := Open(path, &Options{ReadOnly: ro})
		if err != nil {
			t.Fatalf("read-only %v: Open: %v", ro, err)
		}
		if d := s.Damaged(); !ro && d == nil {
			t.Error("Open for writing: the store is not damaged")
		}
		want := fmt.Sprintf("its catalog bucket: reading it failed: an inline bucket: the key and value of element 0 (9 and %d bytes) lie past the end of the page", claim)
		if _, err := s.GetCatalogOverrides(); err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "is damaged") {
			t.Errorf("read-only %v: GetCatalogOverrides: %v, want the damage (%s)", ro, err, want)
		}
		var found bool
		for _, p := range s.Check() {
			found = found || strings.Contains(p.Error(), want)
		}
		if !found {
			t.Errorf("read-only %v: Check: %v, want the damage (%s)", ro, s.Check(), want)
		}
		if _, _, err := s.Get("a"); err != nil {
			t.Errorf("read-only %v: Get of a sound scenario: %v", ro, err)
		}
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A write to an inline bucket copies every key and value in it, each as
// long as it claims to be: a checklist claiming nearly two gigabytes made
// saving another scenario's checklist run for seconds and write the
// program's memory into the file. Open finds such a claim in any top-level
// bucket and opens the store read-only, as damaged: writes are refused,
// the file is not touched, and the sound part reads as before.
func TestDamagedValueSizeWrite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostplan.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, s, testScenario(t, "a", "A"), scenario.RevisionMeta{})
	mustSave(t, s, testScenario(t, "b", "B"), scenario.RevisionMeta{})
	checklist := []byte(`{"items":{"x":true}}`)
	if err := s.PutChecklist("a", checklist); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if n := damageValueSize(t, path, []byte("a"), checklist, 0x6e00000e); n == 0 {
		t.Fatal("the checklist's element is not in the file")
	}
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err = Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := s.Damaged(); d == nil || !strings.Contains(d.Error(), "its checklists bucket") || !strings.Contains(d.Error(), "(1 and 1845493774 bytes) lie past the end of the page") {
		t.Errorf("Damaged() = %v, want the checklist's claim", d)
	}
	if err := s.PutChecklist("b", []byte(`{}`)); !errors.Is(err, ErrDamaged) {
		t.Errorf("PutChecklist: %v, want ErrDamaged", err)
	}
	if _, err := s.Save(testScenario(t, "c", "C"), scenario.RevisionMeta{}); !errors.Is(err, ErrDamaged) {
		t.Errorf("Save: %v, want ErrDamaged", err)
	}
	if l, err := s.List(); err != nil || len(l) != 2 {
		t.Errorf("List: %v, %v", l, err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if after, err := os.ReadFile(path); err != nil || !bytes.Equal(before, after) {
		t.Errorf("the file changed (%d bytes, was %d): %v", len(after), len(before), err)
	}
}

// A small bucket is kept inline, its one leaf page inside its parent's
// value. With the page's flags damaged bbolt reads the page as a branch
// whose every element leads back to the same page, and a read of the bucket
// never ends: reading the checklists bucket of such a store looped,
// growing its stack of pages, until the process was killed. The store
// opens, read-only, at once; reading a checklist names the damage; the
// scenarios read as before; Check reports the bucket; the file is as it
// was.
func TestDamagedInlinePage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostplan.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	mustSave(t, s, testScenario(t, "a", "A"), scenario.RevisionMeta{})
	checklist := []byte(`{"items":{"x":true}}`)
	if err := s.PutChecklist("a", checklist); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	// The checklist is the first element of the bucket's page: the page
	// header (id, then flags) comes right before its element header.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for i := 16; i+16+1+len(checklist) <= len(data); i++ {
		if binary.NativeEndian.Uint32(data[i+8:]) == 1 && binary.NativeEndian.Uint32(data[i+12:]) == uint32(len(checklist)) &&
			binary.NativeEndian.Uint32(data[i+4:]) == 16 && bytes.Equal(data[i+16:i+17+len(checklist)], append([]byte("a"), checklist...)) &&
			binary.NativeEndian.Uint16(data[i-8:]) == 0x02 { // a leaf page
			binary.NativeEndian.PutUint16(data[i-8:], 0)
			n++
		}
	}
	if n == 0 {
		t.Fatal("the checklists bucket's page is not in the file")
	}
	if err := errors.Join(os.WriteFile(path, data, 0o644), os.Chmod(path, 0o644)); err != nil {
		t.Fatal(err)
	}
	const want = "its checklists bucket: reading it failed: an inline bucket whose page is not a leaf page"
	for _, ro := range []bool{true, false} {
		within(t, hangTimeout, func() error {
			s, err := Open(path, &Options{ReadOnly: ro})
			if err != nil {
				return fmt.Errorf("read-only %v: Open: %v", ro, err)
			}
			defer s.Close()
			if d := s.Damaged(); !ro && (d == nil || !strings.Contains(d.Error(), want)) {
				return fmt.Errorf("Open for writing: Damaged() = %v, want %q", d, want)
			}
			if _, err := s.GetChecklist("a"); err == nil || !strings.Contains(err.Error(), want) {
				return fmt.Errorf("read-only %v: GetChecklist: %v, want %q", ro, err, want)
			}
			if _, _, err := s.Get("a"); err != nil {
				return fmt.Errorf("read-only %v: Get: %v", ro, err)
			}
			if p := fmt.Sprint(s.Check()); !strings.Contains(p, want) {
				return fmt.Errorf("read-only %v: Check: %v, want %q", ro, p, want)
			}
			return unchanged(path, data)
		})
	}
}

// Each branch page of a store in turn is made to lead back up: its first
// element names the page itself. bbolt would descend into it for ever (a
// cursor's stack of pages growing until memory ran out, a search
// recursing until the stack overflowed and the program ended). Whatever the
// page, what hostplan does with a --db file (FuzzOpenStore's check) ends,
// with clean errors; the damage is named, by Open's refusal or by Check.
func TestDamagedPageTree(t *testing.T) {
	// Small pages, so that the scenarios, the revisions and each
	// scenario's revisions have branch pages.
	path := smallPageStore(t, t.TempDir(), 12)
	good := mustRead(t, path)
	ps, _, _, kinds := fileLayout(t, path)
	n := 0
	for id, kind := range kinds {
		if kind != "branch" {
			continue
		}
		n++
		t.Run(fmt.Sprintf("page %d", id), func(t *testing.T) {
			bad := bytes.Clone(good)
			binary.NativeEndian.PutUint64(bad[id*ps+16+8:], uint64(id)) // the first element's page id, after the 16-byte page header
			p := filepath.Join(t.TempDir(), "bad.db")
			if err := errors.Join(os.WriteFile(p, bad, 0o644), os.Chmod(p, 0o644)); err != nil {
				t.Fatal(err)
			}
			within(t, hangTimeout, func() error { return checkStoreFile(p, bad) })
			const want = "is named twice in one page tree"
			s, err := Open(p, &Options{ReadOnly: true})
			if err != nil {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("Open: %v, want %q", err, want)
				}
				return
			}
			defer s.Close()
			problems := s.Check()
			if !strings.Contains(fmt.Sprint(problems), want) {
				t.Errorf("Check: %v, want %q", problems, want)
			}
		})
	}
	if n < 10 {
		t.Fatalf("%d branch pages; the test needs a store with more", n)
	}
}

// TestDamagedMetaPage: with one of the two meta pages damaged bbolt reads
// the other without a word; Check reports the damaged one, by number and
// cause, and the store still reads.
func TestDamagedMetaPage(t *testing.T) {
	for _, c := range []struct {
		page int
		at   int // offset in the page: 16 the magic, 20 the version, 72 the checksum
		want string
	}{
		{0, 72, "its meta page 0 is damaged: its checksum does not match its content; bbolt reads meta page 1"},
		{1, 16, "its meta page 1 is damaged: its magic number is"},
		{0, 20, "its meta page 0 is damaged: its format version is"},
	} {
		path := filepath.Join(t.TempDir(), "hostplan.db")
		s := mustOpenPath(t, path)
		mustSave(t, s, testScenario(t, "meta-test", "Meta"), scenario.RevisionMeta{})
		ps := s.db.Info().PageSize
		if err := s.Close(); err != nil {
			t.Fatal(err)
		}
		b := mustRead(t, path)
		b[c.page*ps+c.at] ^= 0xFF
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		ro, err := Open(path, &Options{ReadOnly: true})
		if err != nil {
			t.Fatalf("page %d: a store with one damaged meta page does not open: %v", c.page, err)
		}
		problems := ro.Check()
		ro.Close()
		if len(problems) != 1 || !strings.Contains(problems[0].Error(), c.want) || !strings.Contains(problems[0].Error(), "hostplan store backup") {
			t.Errorf("page %d at %d: Check = %v, want one problem %q", c.page, c.at, problems, c.want)
		}
	}
}

// TestPageChecksShareOneHandle: the page checks of a revisions bucket read
// through the handle the store opened with the file (pageFiles), not a new
// open of its path for each scenario read: the store reads its scenarios
// after its file was moved away, and Close lets the handle go.
func TestPageChecksShareOneHandle(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("an open file is not moved on Windows")
	}
	dir := t.TempDir()
	path := smallPageStore(t, dir, 3)
	s, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path, filepath.Join(dir, "moved.db")); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, _, err := s.Get(fmt.Sprintf("scenario-%02d", i)); err != nil {
			t.Errorf("Get after the file moved: %v", err)
		}
	}
	db := s.db
	if _, ok := pageFiles.Load(db); !ok {
		t.Error("no shared handle while the store is open")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, ok := pageFiles.Load(db); ok {
		t.Error("the shared handle outlives Close")
	}
}

// smallPageStore writes, in dir, a store of 512-byte pages (Open keeps the
// page size of the file it is given) holding n scenarios of five revisions
// each, so that its page trees have branch pages and each scenario's
// revisions a bucket of pages of its own; it returns the file's path.
func smallPageStore(t *testing.T, dir string, n int) string {
	t.Helper()
	path := filepath.Join(dir, "small.db")
	db, err := bolt.Open(path, 0o600, &bolt.Options{PageSize: 512})
	if err == nil {
		err = errors.Join(db.Update(initStore), db.Close())
	}
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		sc := testScenario(t, fmt.Sprintf("scenario-%02d", i), fmt.Sprintf("Scenario %d", i))
		for r := range 5 {
			sc.Description = fmt.Sprintf("revision %d", r)
			mustSave(t, s, sc, scenario.RevisionMeta{Author: "ana"})
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}
