package atomicfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// entries returns the names in dir, sorted.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// assertEntries fails unless dir holds exactly the names want.
func assertEntries(t *testing.T, dir string, want ...string) {
	t.Helper()
	if want == nil {
		want = []string{}
	}
	if got := entries(t, dir); !reflect.DeepEqual(got, want) {
		t.Errorf("%s holds %q, want %q", dir, got, want)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func writeString(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

func TestWriteCreatesAndReplaces(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.txt")
	if err := WriteFile(path, []byte("first"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "first" {
		t.Errorf("content %q", got)
	}
	if err := Write(path, 0o600, writeString("second, longer")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "second, longer" {
		t.Errorf("replaced content %q", got)
	}
	assertEntries(t, dir, "plan.txt")
}

// An error from the write function leaves the target as it was (absent or
// with its old content) and no temporary file; the error is the write
// function's, in an *fs.PathError that names the target.
func TestWriteErrorLeavesNothing(t *testing.T) {
	boom := errors.New("boom")
	failing := func(w io.Writer) error {
		if _, err := w.Write(bytes.Repeat([]byte("x"), 100_000)); err != nil {
			return err
		}
		return boom
	}
	for _, tc := range []struct {
		name     string
		existing bool
		write    func(string, fs.FileMode, func(io.Writer) error) error
	}{
		{"Write, new file", false, Write},
		{"Write over a file", true, Write},
		{"WriteNew", false, WriteNew},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "plan.txt")
			if tc.existing {
				if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := tc.write(path, 0o644, failing)
			if !errors.Is(err, boom) {
				t.Errorf("error %v, want the write function's", err)
			}
			var pe *fs.PathError
			if !errors.As(err, &pe) || pe.Path != path || pe.Op != "write" {
				t.Errorf("error %v is not a write error naming %s", err, path)
			}
			if !tc.existing {
				assertEntries(t, dir)
				return
			}
			assertEntries(t, dir, "plan.txt")
			if got := readFile(t, path); got != "old" {
				t.Errorf("the old file now holds %q", got)
			}
		})
	}
	// A panic in the write function leaves nothing either.
	dir := t.TempDir()
	func() {
		defer func() { _ = recover() }()
		_ = Write(filepath.Join(dir, "p"), 0o644, func(io.Writer) error { panic("write function") })
	}()
	assertEntries(t, dir)
}

func TestWriteRefusesSymlinks(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("symbolic links need privileges")
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "real.txt")
	if err := os.WriteFile(target, []byte("real"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.txt")
	dangling := filepath.Join(dir, "dangling.txt")
	if err := os.Symlink("real.txt", link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("nowhere.txt", dangling); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{link, dangling} {
		for name, w := range map[string]func(string, fs.FileMode, func(io.Writer) error) error{"Write": Write, "WriteNew": WriteNew} {
			err := w(p, 0o644, writeString("through the link"))
			if !errors.Is(err, ErrSymlink) {
				t.Errorf("%s(%s) = %v, want ErrSymlink", name, filepath.Base(p), err)
			}
			if err != nil && !strings.Contains(err.Error(), p) {
				t.Errorf("error %q does not name the path", err)
			}
		}
	}
	if got := readFile(t, target); got != "real" {
		t.Errorf("the linked file now holds %q", got)
	}
	for _, p := range []string{link, dangling} {
		if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a link: %v", p, err)
		}
	}
	assertEntries(t, dir, "dangling.txt", "link.txt", "real.txt")
}

func TestWriteRefusesNonRegular(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.xlsx")
	if err := os.MkdirAll(filepath.Join(path, "keep"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(path, 0o644, writeString("x")); !errors.Is(err, ErrNotRegular) {
		t.Errorf("Write over a directory = %v, want ErrNotRegular", err)
	}
	assertEntries(t, dir, "plan.xlsx")
	assertEntries(t, path, "keep")

	missing := filepath.Join(dir, "no-such-dir", "plan.xlsx")
	if err := Write(missing, 0o644, writeString("x")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Write into a missing directory = %v, want fs.ErrNotExist", err)
	}
}

func TestWriteNew(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "backup.db")
	if err := WriteNew(path, 0o600, writeString("copy")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "copy" {
		t.Errorf("content %q", got)
	}
	// An existing file is refused before anything is written.
	called := false
	err := WriteNew(path, 0o600, func(io.Writer) error { called = true; return nil })
	if !errors.Is(err, fs.ErrExist) || called {
		t.Errorf("WriteNew over a file = %v (write called: %v), want fs.ErrExist before writing", err, called)
	}
	// A file that appears while the content is written is not replaced: the
	// link that puts the copy in place fails.
	late := filepath.Join(dir, "late.db")
	err = WriteNew(late, 0o600, func(w io.Writer) error {
		if err := os.WriteFile(late, []byte("someone else's"), 0o644); err != nil {
			return err
		}
		_, err := io.WriteString(w, "mine")
		return err
	})
	if !errors.Is(err, fs.ErrExist) {
		t.Errorf("WriteNew when the file appears meanwhile = %v, want fs.ErrExist", err)
	}
	if got := readFile(t, late); got != "someone else's" {
		t.Errorf("the file that appeared now holds %q", got)
	}
	assertEntries(t, dir, "backup.db", "late.db")
}

// WriteNewPath gives make an empty temporary file's path in the target's
// directory and puts what make left there in place; an error, or a file
// that exists, leaves nothing of the write.
func TestWriteNewPath(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "store.db")
	var seen string
	err := WriteNewPath(path, 0o600, func(tmp string) error {
		seen = tmp
		if filepath.Dir(tmp) != dir || readFile(t, tmp) != "" {
			t.Errorf("temporary file %s in %s, holding %q", tmp, filepath.Dir(tmp), readFile(t, tmp))
		}
		return os.WriteFile(tmp, []byte("made by a library"), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "made by a library" {
		t.Errorf("content %q", got)
	}
	if _, err := os.Stat(seen); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the temporary file %s is still there: %v", seen, err)
	}
	called := false
	err = WriteNewPath(path, 0o600, func(string) error { called = true; return nil })
	if !errors.Is(err, fs.ErrExist) || called {
		t.Errorf("WriteNewPath over a file = %v (make called: %v), want fs.ErrExist before making", err, called)
	}
	failed := filepath.Join(dir, "failed.db")
	boom := errors.New("library failed")
	if err := WriteNewPath(failed, 0o600, func(tmp string) error {
		os.WriteFile(tmp, []byte("half"), 0o600)
		return boom
	}); !errors.Is(err, boom) {
		t.Errorf("a failing make: %v", err)
	}
	assertEntries(t, dir, "store.db")
}

// The temporary file's name does not grow with the target's: a target whose
// name is as long as a name can be is written.
func TestWriteLongName(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, strings.Repeat("n", 250)+".xlsx") // 255 bytes, NAME_MAX on Linux
	if err := WriteFile(path, []byte("long"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, path); got != "long" {
		t.Errorf("content %q", got)
	}
	assertEntries(t, dir, filepath.Base(path))
}

// Concurrent writers to one target: the target ends with one writer's
// whole content, and no temporary file is left.
func TestWriteConcurrent(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "plan.txt")
	contents := map[string]bool{}
	var wg sync.WaitGroup
	for i := range 8 {
		c := strings.Repeat(fmt.Sprintf("writer %d ", i), 5000)
		contents[c] = true
		wg.Go(func() {
			if err := WriteFile(path, []byte(c), 0o644); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := readFile(t, path); !contents[got] {
		t.Errorf("the file holds %d bytes that no writer wrote whole", len(got))
	}
	assertEntries(t, dir, "plan.txt")
	inflight.Lock()
	defer inflight.Unlock()
	if len(inflight.files) != 0 {
		t.Errorf("%d temporary files still registered", len(inflight.files))
	}
}
