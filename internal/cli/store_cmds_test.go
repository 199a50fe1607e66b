package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/app"
	"hostplan/internal/store"
)

func TestStoreCheckAndBackup(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list") // creates and seeds the store
	if out := storeRun(t, db, "store", "check"); out != "ok\n" {
		t.Errorf("store check: %q", out)
	}
	dst := filepath.Join(t.TempDir(), "backup.db")
	if out := storeRun(t, db, "store", "backup", dst); !strings.Contains(out, "backed up "+db+" to "+dst) {
		t.Errorf("store backup: %q", out)
	}
	fi, err := os.Stat(dst)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v, want 0600", fi.Mode().Perm())
	}
	if out := storeRun(t, dst, "store", "check"); out != "ok\n" {
		t.Errorf("store check of the backup: %q", out)
	}
	if a, b := storeRun(t, db, "list"), storeRun(t, dst, "list"); a != b {
		t.Errorf("the backup lists differently:\n%s\n%s", a, b)
	}
	before, _ := os.ReadFile(dst)
	code, _, errs := run(t, db, "store", "backup", dst)
	if code != ExitUsage || !strings.Contains(errs, "exists; not replaced (--force replaces it)") {
		t.Errorf("backup over an existing file: exit %d %q", code, errs)
	}
	if after, _ := os.ReadFile(dst); !bytes.Equal(before, after) {
		t.Error("a refused backup changed the existing file")
	}

	// A file that is not a store: reported, exit 1, never changed.
	junk := filepath.Join(t.TempDir(), "junk.db")
	content := bytes.Repeat([]byte("not a database "), 1000)
	if err := os.WriteFile(junk, content, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, junk, "store", "check")
	if code != ExitFail || !strings.Contains(out, "not a hostplan store") {
		t.Errorf("store check of junk: exit %d %q", code, out)
	}
	if code, _, errs := run(t, junk, "list"); code != ExitFail || !strings.Contains(errs, "not a hostplan store") {
		t.Errorf("list on junk: exit %d %q", code, errs)
	}
	if got, _ := os.ReadFile(junk); !bytes.Equal(got, content) {
		t.Error("a command changed a file that is not a store")
	}
	missing := filepath.Join(t.TempDir(), "missing.db")
	if code, _, errs := run(t, missing, "store", "check"); code != ExitFail || !strings.Contains(errs, "no store at "+missing) {
		t.Errorf("store check of a missing store: exit %d %q", code, errs)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("store check created a store")
	}
	for _, args := range [][]string{{"store"}, {"store", "fix"}, {"store", "backup"}, {"store", "check", "x"}} {
		if code, _, _ := run(t, db, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// While another hostplan holds the store, a command waits a second and
// says so instead of hanging.
func TestStoreInUseMessage(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list")
	st, err := store.Open(db, nil) // bbolt's lock belongs to the open file: this process counts as another
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	code, _, errs := run(t, db, "history", "qlora-legal-70b")
	if code != ExitFail || !strings.Contains(errs, "is in use by another hostplan") {
		t.Errorf("history while the store is held: exit %d %q", code, errs)
	}
}

// An empty file given as --db is not a store hostplan made: every command
// refuses it and leaves it as it was, mode included.
func TestEmptyDBRefused(t *testing.T) {
	db := tempDB(t)
	if err := os.WriteFile(db, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"list"}, {"save", "../../scenarios/qlora-legal-70b.json"}, {"eval", "qlora-legal-70b"}, {"store", "check"}} {
		code, out, errs := run(t, db, args...)
		if code != ExitFail || !strings.Contains(out+errs, "the file is empty") || !strings.Contains(out+errs, db) {
			t.Errorf("%v on an empty --db: exit %d %q %q", args, code, out, errs)
		}
	}
	fi, err := os.Stat(db)
	if err != nil || fi.Size() != 0 || runtime.GOOS != "windows" && fi.Mode().Perm() != 0o644 {
		t.Errorf("the empty file is now %v (%v)", fi, err)
	}
}

// A store whose records do not decode is read read-only: reads work with a
// note that says what to do, writes are refused with the same words, and
// nothing is written.
func TestDamagedStoreReadOnly(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list") // creates and seeds the store
	damageRecord(t, db, "support-assistant-70b")
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, db, "show", "flood-simulation-ensemble")
	if code != ExitOK || !strings.Contains(out, "flood") || !strings.Contains(errs, "hostplan: note: store "+db+" is damaged") ||
		!strings.Contains(errs, "hostplan store check") || !strings.Contains(errs, "hostplan store backup") {
		t.Errorf("show on a damaged store: exit %d\n%s\n%s", code, out, errs)
	}
	code, _, errs = run(t, db, "delete", "flood-simulation-ensemble")
	if code != ExitFail || !strings.Contains(errs, "read-only and writes nothing") || strings.Count(errs, "is damaged") != 1 {
		t.Errorf("delete on a damaged store: exit %d %q", code, errs)
	}
	if after, _ := os.ReadFile(db); !bytes.Equal(before, after) {
		t.Error("a command wrote to the damaged store")
	}
	code, out, _ = run(t, db, "store", "check")
	if code != ExitFail || !strings.Contains(out, `scenario "support-assistant-70b": its record is not readable`) {
		t.Errorf("store check: exit %d %q", code, out)
	}
	dst := filepath.Join(t.TempDir(), "copy.db")
	// The backup copies the store as it is, checks the copy and says that
	// it holds the damage: exit 1, the copy kept for a repair.
	code, out, errs = run(t, db, "store", "backup", dst)
	if code != ExitFail || !strings.Contains(out, dst+`: scenario "support-assistant-70b": its record is not readable`) ||
		!strings.Contains(errs, "do not restore from it") {
		t.Errorf("store backup of the damaged store: exit %d %q %q", code, out, errs)
	}
	if _, err := os.Stat(dst); err != nil {
		t.Errorf("the copy of the damaged store is not kept: %v", err)
	}
}

// damageRecord overwrites the record of scenario id in the store at path
// with bytes that do not decode (the store's layout: a "scenarios" bucket
// of binary records, internal/store/record.go).
func damageRecord(t *testing.T, path, id string) {
	t.Helper()
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *bolt.Tx) error { return tx.Bucket([]byte("scenarios")).Put([]byte(id), []byte{1, 0, 0xff}) })
	if err := errors.Join(err, db.Close()); err != nil {
		t.Fatal(err)
	}
}

// TestStoreCheckReportsMetaAndStaleTemps: store check lists and removes
// the temporary files an interrupted write left beside the store (older
// than an hour; a younger one may be a write under way), and reports a
// damaged meta page, which bbolt itself passes over in silence.
func TestStoreCheckReportsMetaAndStaleTemps(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list")
	dir := filepath.Dir(db)
	stale := filepath.Join(dir, ".hostplan-0badc0de.tmp")
	young := filepath.Join(dir, ".hostplan-12345678.tmp")
	for _, p := range []string{stale, young} {
		if err := os.WriteFile(p, []byte("a copy of the store, cut short"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-3 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	out := storeRun(t, db, "store", "check")
	if !strings.HasPrefix(out, "removed "+stale+": a temporary file left by an interrupted write (30 bytes, ") || !strings.HasSuffix(out, "\nok\n") {
		t.Errorf("store check with a stale temporary file: %q", out)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("the stale temporary file is still there")
	}
	if _, err := os.Stat(young); err != nil {
		t.Error("store check removed a temporary file younger than an hour")
	}
	if out := storeRun(t, db, "store", "check"); out != "ok\n" {
		t.Errorf("the second check: %q", out)
	}

	// Meta page 0's checksum broken: bbolt reads page 1; the check says so.
	b, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	b[16+56] ^= 0xFF
	if err := os.WriteFile(db, b, 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, db, "store", "check")
	if want := db + ": its meta page 0 is damaged: its checksum does not match its content; bbolt reads meta page 1"; code != ExitFail || !strings.Contains(out, want) || !strings.Contains(out, "hostplan store backup NEW.db") || !strings.Contains(errs, "1 problem") {
		t.Errorf("store check of a damaged meta page: exit %d\n%s%s", code, out, errs)
	}
	storeRun(t, db, "list") // the store still reads
}

// A command that writes while another hostplan holds the store for a
// moment says so and waits for it (up to a few seconds), then writes; a
// read beside a window (which holds nothing) just reads.
func TestWriterWaitsForBusyStore(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list")
	holder, err := app.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		time.Sleep(700 * time.Millisecond)
		holder.Close()
	}()
	code, _, errs := run(t, db, "delete", "flood-simulation-ensemble")
	if code != ExitOK || !strings.Contains(errs, "is in use by another hostplan; waiting up to 5s for it") {
		t.Errorf("delete beside a busy store: exit %d %q", code, errs)
	}
	window, err := app.OpenShared(db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := window.List(); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := run(t, db, "list"); code != ExitOK || !strings.Contains(out, "support-assistant-70b") {
		t.Errorf("list beside the window: exit %d %q %q", code, out, errs)
	}
}
