package store

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"hostplan/internal/scenario"
)

func TestBackup(t *testing.T) {
	s := mustOpen(t)
	for _, id := range []string{"a", "b"} {
		mustSave(t, s, testScenario(t, id, "Backed up "+id), scenario.RevisionMeta{Author: "ana"})
	}
	if err := s.PutChecklist("a", []byte(`{"x": 1}`)); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	dst := filepath.Join(dir, "backup.db")
	if err := s.Backup(dst); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dst)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v, want 0600", fi.Mode().Perm())
	}
	// Only the backup is left in the directory: no temporary file.
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("directory holds %d entries after the backup", len(entries))
	}
	// The store stays usable, and the copy is a consistent store with the
	// same content.
	mustSave(t, s, testScenario(t, "c", "After the backup"), scenario.RevisionMeta{})
	b, err := Open(dst, &Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("the backup does not open: %v", err)
	}
	defer b.Close()
	if p := b.Check(); p != nil {
		t.Errorf("backup check: %v", p)
	}
	l, _ := b.List()
	if len(l) != 2 {
		t.Errorf("backup lists %d scenarios, want the 2 before it", len(l))
	}
	if c, _ := b.GetChecklist("a"); string(c) != `{"x": 1}` {
		t.Errorf("backup checklist %q", c)
	}

	// Never over an existing file, and the file is untouched.
	existing := filepath.Join(dir, "existing.db")
	if err := os.WriteFile(existing, []byte("precious"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(existing); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Backup over an existing file = %v, want fs.ErrExist", err)
	}
	if got := mustRead(t, existing); !bytes.Equal(got, []byte("precious")) {
		t.Error("Backup changed an existing file")
	}
	if err := s.Backup(dst); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a second Backup to the same path = %v, want fs.ErrExist", err)
	}
	if err := s.Backup(filepath.Join(dir, "no-such-dir", "b.db")); err == nil {
		t.Error("Backup into a missing directory succeeded")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("directory holds %d entries after the refused backups, want 2", len(entries))
	}
}
