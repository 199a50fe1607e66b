package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"hostplan/internal/atomicfile"
	"hostplan/internal/store"
)

// ErrNoStore is returned by CheckStore and BackupStore when there is no
// store file to work on; the error names the path.
var ErrNoStore = errors.New("no store")

// OpenError is a store file that CheckStore could not open at all: it is
// damaged beyond reading, is not a hostplan store, or is in use.
type OpenError struct {
	Path string
	Err  error
}

func (e *OpenError) Error() string { return e.Path + ": " + e.Err.Error() }
func (e *OpenError) Unwrap() error { return e.Err }

// maintained returns the path of the store file for the maintenance
// commands, which work on the file as it is and never create one.
func (p *Planner) maintained() (string, error) {
	path, err := p.Path()
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return "", fmt.Errorf("%w at %s", ErrNoStore, path)
	}
	return path, nil
}

// CheckStore opens the store file read-only (store.Open checks its
// structure) without creating, seeding or upgrading it, and returns every
// problem bbolt's consistency check and the store's own invariants find;
// none is nil. A file that does not open is an *OpenError.
func (p *Planner) CheckStore() ([]error, error) {
	path, err := p.maintained()
	if err != nil {
		return nil, err
	}
	st, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		return nil, &OpenError{Path: path, Err: err}
	}
	defer st.Close()
	return st.Check(), nil
}

// RemoveStaleTemps removes the temporary files of interrupted writes
// (atomicfile's .hostplan-XXXXXXXX.tmp, older than atomicfile.StaleAge)
// from the store's folder, where a killed store backup or export leaves
// copies of the store, and returns those it removed. Only that folder is
// looked at.
func (p *Planner) RemoveStaleTemps() ([]atomicfile.Stale, error) {
	path, err := p.maintained()
	if err != nil {
		return nil, err
	}
	return atomicfile.RemoveStale(filepath.Dir(path), atomicfile.StaleAge, time.Now())
}

// BackupStore copies the store file, opened read-only, to dst, a new file
// (mode 0600), and checks the copy: it opens as a store and the store's
// check (store.Check) finds nothing, else the error is a *DamagedCopyError
// and the copy is left in place. It returns the copy's size. Without
// replace, a dst that exists is never replaced: the error matches
// fs.ErrExist. With replace, an existing regular file at dst is replaced
// atomically (store.BackupReplace); a symbolic link or a non-regular file
// is refused either way.
func (p *Planner) BackupStore(dst string, replace bool) (int64, error) {
	path, err := p.maintained()
	if err != nil {
		return 0, err
	}
	if _, err := os.Lstat(dst); err == nil && !replace {
		return 0, fmt.Errorf("%s: %w", dst, fs.ErrExist)
	}
	st, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		return 0, err
	}
	defer st.Close()
	backup := st.Backup
	if replace {
		backup = st.BackupReplace
	}
	if err := backup(dst); err != nil {
		return 0, err
	}
	// The copy opens as a store (header, page structure and marker) and
	// passes the store's check, which reads every revision against its
	// sha256: a copy of a damaged store is kept, as the store was, but is
	// not a backup to restore from.
	b, err := store.Open(dst, &store.Options{ReadOnly: true})
	if err != nil {
		return 0, fmt.Errorf("store backup: the copy at %s does not open: %w", dst, err)
	}
	problems := b.Check()
	b.Close()
	if len(problems) > 0 {
		return 0, &DamagedCopyError{Path: dst, Problems: problems}
	}
	fi, err := os.Stat(dst)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// DamagedCopyError is a backup whose copy has problems: the store it was
// copied from is damaged. The copy is kept, as the store was.
type DamagedCopyError struct {
	Path     string
	Problems []error
}

func (e *DamagedCopyError) Error() string {
	return fmt.Sprintf("store backup: the copy at %s has %s (the first: %v): it holds the store's damage as it is; keep it for a repair, but do not restore from it (hostplan store check lists the damage)", e.Path, Plural(len(e.Problems), "problem"), e.Problems[0])
}

// Plural is "1 problem", "2 problems": a count with its noun.
func Plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
