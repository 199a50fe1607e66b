package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

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
	if code != ExitUsage || !strings.Contains(errs, "exists; a backup never replaces a file") {
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
