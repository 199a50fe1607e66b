package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	bolt "go.etcd.io/bbolt"
)

// Backup writes a consistent copy of the store to a new file at path, mode
// 0600, while the store stays usable: the copy is one read transaction's
// view (bbolt's Tx.WriteTo). It never replaces a file: if path exists the
// error matches fs.ErrExist and nothing is written. The copy is written to
// a temporary file beside path, synced, and then linked to path, so path
// holds either the whole copy or nothing.
func (s *Store) Backup(path string) error {
	if err := s.backup(path); err != nil {
		return fmt.Errorf("back up store %s to %s: %w", s.path, path, err)
	}
	return nil
}

func (s *Store) backup(path string) (err error) {
	if _, err := os.Lstat(path); err == nil {
		return fs.ErrExist // the early answer; the link below is the one that counts
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp") // mode 0600
	if err != nil {
		return err
	}
	defer func() {
		if cerr := tmp.Close(); err == nil && !errors.Is(cerr, os.ErrClosed) {
			err = cerr
		}
		if rerr := os.Remove(tmp.Name()); err == nil {
			err = rerr
		}
	}()
	if err := tmp.Chmod(0o600); err != nil {
		return err
	}
	err = s.db.View(func(tx *bolt.Tx) error {
		_, err := tx.WriteTo(tmp)
		return err
	})
	if err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil { // fails if path exists: never replaces
		var le *os.LinkError
		if errors.As(err, &le) && errors.Is(le.Err, fs.ErrExist) {
			return fs.ErrExist
		}
		return err
	}
	return syncDir(dir)
}

// syncDir makes a new directory entry durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, os.ErrInvalid) {
		return err // some systems cannot sync a directory; the copy itself is synced
	}
	return nil
}
