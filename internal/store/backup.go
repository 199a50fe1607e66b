package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/atomicfile"
)

// Backup writes a consistent copy of the store to a new file at path, mode
// 0600 (less the umask), while the store stays usable: the copy is one read
// transaction's view (bbolt's Tx.WriteTo), written through
// atomicfile.WriteNew, so path holds either the whole copy or nothing. It
// never replaces a file: if path exists the error matches fs.ErrExist and
// nothing is written. Tx.WriteTo reads the file, not bbolt's map of it, so
// a damaged store that opens (read-only) can be copied as it is; the copy
// has the same damage, and Check tells what it is.
func (s *Store) Backup(path string) error {
	return s.backup(path, atomicfile.WriteNew)
}

// BackupReplace is Backup onto a file that may exist: an existing regular
// file at path is replaced atomically (it holds its old content or the
// whole copy, never a part). A symbolic link or a file that is not a
// regular file is still refused (atomicfile.ErrSymlink, ErrNotRegular).
func (s *Store) BackupReplace(path string) error {
	return s.backup(path, atomicfile.Write)
}

func (s *Store) backup(path string, write func(string, fs.FileMode, func(io.Writer) error) error) error {
	err := write(path, 0o600, func(w io.Writer) error {
		return s.view(func(tx *bolt.Tx) error {
			_, err := tx.WriteTo(w)
			return err
		})
	})
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) && pe.Path == path {
			err = pe.Err // the message names path already
		}
		return fmt.Errorf("back up store %s to %s: %w", s.path, path, err)
	}
	return nil
}
