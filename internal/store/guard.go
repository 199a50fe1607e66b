package store

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"

	bolt "go.etcd.io/bbolt"
)

// Reading a damaged file.
//
// bbolt reads the file through a memory map and trusts what it finds. On a
// damaged page it panics (its own assertions: a page that does not name
// itself, an unknown page type, a freelist page that is not one) or faults
// (SIGBUS for a page past the end of the file, SIGSEGV for an offset
// outside the map). Go turns a fault into a panic only in a goroutine that
// asked for it with debug.SetPanicOnFault, which goroutines it starts do not
// inherit; anywhere else a fault ends the process. What covers what:
//
//   - Open: bbolt checks the header (the meta pages' magic, version and
//     checksum); Open checks that the file is as long as the pages the
//     header claims (checkLength), so no page below the high-water mark lies
//     past the end of the file, that bbolt can load the freelist
//     (freelistSound) before it lets bbolt load it, and that the page trees
//     of the top-level buckets lead down (see below); then it reads the
//     hostplan marker.
//   - Every bbolt call the package makes in the caller's goroutine runs under
//     guarded: bolt.Open (openBolt), each transaction of Open and of the
//     Store's methods (Store.view, Store.update) and Check's reading. A
//     panic or fault there becomes an error (faultError); bbolt rolls the
//     transaction back, and openBolt unlocks and closes the file a failed
//     bolt.Open left open.
//   - Tx.Check runs in a goroutine bbolt starts. bbolt recovers a panic
//     there and reports it as a problem; a fault there cannot be caught. So
//     Check first reads the whole store under guarded (readAll: every key
//     and value through bbolt's cursors, and a seek of every key, which
//     reads the keys of the branch pages on its path), which reads the
//     pages and keys Tx.Check reads, and runs Tx.Check only if that read
//     succeeded, and if the overflow pages that the headers of the
//     buckets' pages and of the freelist page claim fit in the file
//     (pagesWithin) — Tx.Check marks each claimed overflow page one by
//     one, and a damaged count claims up to four billion; and it gives
//     Tx.Check a stringer that reads at most 32 bytes of a key it reports. A
//     read-only store loads bbolt's freelist at Open, under guarded
//     (openExisting), rather than in Tx.Check's goroutine. Not covered:
//     damage that Tx.Check reads and the reads in the calling goroutine
//     pass over (a branch key that no seek compares, which takes several
//     damaged keys on one page).
//   - Backup copies with Tx.WriteTo, which reads the file with read(2), not
//     through the map: a short file is an error there, never a fault.
//   - bbolt trusts the page trees themselves: a branch page that leads
//     back up makes its reads go on for ever, a key or value that lies past
//     the end of its page is read and copied at the size it claims (in an
//     inline bucket that bbolt copied out of the map, on through the
//     program's own memory, where nothing faults), and an inline bucket
//     whose page is not a leaf is read for ever. The store checks the trees
//     before bbolt reads them (boltformat.go).
//
// A writer that shrinks the file under an open store is outside all of
// this; bbolt's lock keeps other hostplans out, not other programs.

// faultError is a panic or a memory fault while bbolt read the file, or
// damage the package found before bbolt read it (damagef).
type faultError struct{ value any }

func (e *faultError) Error() string { return fmt.Sprintf("reading it failed: %v", e.value) }

// damagef is a *faultError for damage the package finds itself.
func damagef(format string, a ...any) error {
	return &faultError{value: fmt.Sprintf(format, a...)}
}

// guarded runs f in the calling goroutine, turning a panic or a memory
// fault into a *faultError.
func guarded(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = &faultError{value: r}
		}
	}()
	return f()
}

// isFault reports whether err is a panic or fault caught by guarded.
func isFault(err error) bool {
	var fe *faultError
	return errors.As(err, &fe)
}

// openBolt is bolt.Open under guarded. bbolt does not close the file when
// it panics inside Open, so the file it opened is unlocked and closed here.
// (Closing alone would not release the lock: bbolt's map of the file keeps
// the open file alive, and the map stays, since bbolt holds the only
// reference to it.)
func openBolt(path string, o bolt.Options) (*bolt.DB, error) {
	var file *os.File
	o.OpenFile = func(name string, flag int, perm os.FileMode) (*os.File, error) {
		f, err := os.OpenFile(name, flag, perm)
		file = f
		return f, err
	}
	var db *bolt.DB
	err := guarded(func() (err error) {
		db, err = bolt.Open(path, 0o600, &o)
		return err
	})
	if isFault(err) && file != nil {
		unlock(file)
		_ = file.Close()
	}
	return db, err
}

// view runs fn in a read transaction under guarded.
func (s *Store) view(fn func(*bolt.Tx) error) error {
	return s.damaged(guarded(func() error { return s.db.View(fn) }))
}

// update runs fn in a write transaction under guarded; a damaged store
// (Damaged) is not written to.
func (s *Store) update(fn func(*bolt.Tx) error) error {
	if s.damage != nil {
		return s.damage
	}
	var id int
	err := s.damaged(guarded(func() error {
		return s.db.Update(func(tx *bolt.Tx) error {
			if err := fn(tx); err != nil {
				return err
			}
			id = tx.ID()
			return nil
		})
	}))
	if err == nil {
		s.lastTx.Store(int64(id))
	}
	return err
}

// damaged names the store in an error that came from a damaged page.
func (s *Store) damaged(err error) error {
	if isFault(err) {
		return fmt.Errorf("store %s is damaged (hostplan store check lists the damage): %w", s.path, err)
	}
	return err
}

// revisionsOf returns the revisions bucket of scenario id, nil if there is
// none, its page tree checked (subBucketSound).
func revisionsOf(tx *bolt.Tx, id []byte) (*bolt.Bucket, error) {
	b := tx.Bucket(bucketRevisions).Bucket(id)
	if b == nil {
		return nil, nil
	}
	if err := subBucketSound(tx, b); err != nil {
		return nil, fmt.Errorf("the revisions of scenario %s: %w", quoteShort(id), err)
	}
	return b, nil
}

// readable returns the damage Open found in any of the top-level buckets
// named (checkStructure), as the error of a damaged store.
func (s *Store) readable(names ...[]byte) error {
	for _, name := range names {
		if err := s.broken[string(name)]; err != nil {
			return s.damaged(fmt.Errorf("its %s bucket: %w", name, err))
		}
	}
	return nil
}
