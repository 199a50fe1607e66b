package app

import (
	"errors"
	"io/fs"
	"testing"
)

// A window's planner (OpenShared) holds no store: another hostplan writes
// and reads beside it — a command's planner opens the store for writing,
// saves and lists — and the window then reads what it saved.
func TestReadersAndWritersBesideTheWindow(t *testing.T) {
	path := tempPath(t)
	window, err := OpenShared(path)
	if err != nil {
		t.Fatal(err)
	}
	items, err := window.List()
	if err != nil || len(items) == 0 {
		t.Fatalf("the window lists %d scenarios, %v", len(items), err)
	}
	cmd := New(path)
	if err := cmd.Open(); err != nil {
		t.Fatalf("a command cannot open the store beside the window: %v", err)
	}
	s, _, err := cmd.Load(items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Name += " (edited)"
	if _, err := cmd.Save(s, Lineage{Author: "cli"}); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Close(); err != nil {
		t.Fatal(err)
	}
	got, _, err := window.Load(s.ID)
	if err != nil || got.Name != s.Name {
		t.Errorf("the window reads %q, %v; want the command's save %q", got.Name, err, s.Name)
	}
	// And the window writes, then lets go.
	got.Name = "renamed in the window"
	if _, err := window.Save(got, Lineage{Author: "window"}); err != nil {
		t.Fatal(err)
	}
	reader := New(path)
	if again, _, err := reader.Load(s.ID); err != nil || again.Name != "renamed in the window" {
		t.Errorf("a reader beside the window reads %q, %v", again.Name, err)
	}
}

// A store the user may read but not write (a colleague's, a read-only
// share) lists and shows; a write is refused naming the reason, and
// nothing changes.
func TestReadOnlyStoreReads(t *testing.T) {
	path := tempPath(t)
	p, err := OpenShared(path)
	if err != nil {
		t.Fatal(err)
	}
	before, _ := p.List()
	old := writable
	writable = func(string) bool { return false }
	defer func() { writable = old }()
	r := New(path)
	items, err := r.List()
	if err != nil || len(items) != len(before) || !r.ReadOnlyFile() {
		t.Fatalf("a read-only store lists %d of %d, %v, read-only %v", len(items), len(before), err, r.ReadOnlyFile())
	}
	s, _, err := r.Load(items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	s.Name = "changed"
	if _, err := r.Save(s, Lineage{}); !errors.Is(err, fs.ErrPermission) {
		t.Errorf("a save to a read-only store: %v", err)
	}
	if again, _, _ := r.Load(s.ID); again.Name == "changed" {
		t.Error("the refused save changed the store")
	}
}
