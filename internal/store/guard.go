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
//     past the end of the file; then it reads the hostplan marker.
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
//     Tx.Check a stringer that reads at most 32 bytes of a key it reports. A read-only store loads bbolt's freelist at
//     Open, under guarded (openExisting), rather than in Tx.Check's
//     goroutine. Not covered: damage that Tx.Check reads and the reads in
//     the calling goroutine pass over (a branch key that no seek compares,
//     which takes several damaged keys on one page), and a page that refers
//     back to one of its ancestors, on which bbolt's reads never end.
//   - Backup copies with Tx.WriteTo, which reads the file with read(2), not
//     through the map: a short file is an error there, never a fault.
//
//   - bbolt also trusts the sizes in a page's element headers. On a page
//     of the map a damaged size runs into the end of the map, and reading
//     there faults. But bbolt copies an inline bucket (one kept inside its
//     parent's value) out of the map when its bytes are not aligned, and a
//     damaged size in the copy reaches on into the program's own memory,
//     where nothing faults: quoting, copying or decoding such a key or
//     value took seconds and gigabytes. So every key and value the package
//     uses is read through get or forEach, which refuse one that claims
//     more bytes than the whole file (fits) as a faultError.
//   - bbolt keeps a small bucket inline, its one page inside its parent's
//     value, and only ever a leaf page. Its cursor reads any page that is
//     not a leaf as a branch, whose elements point at pages; in an inline
//     bucket every page number leads back to the same page, so a read of it
//     never ends (leafIfInline). A bucket with pages of its own has the
//     same trouble when a branch page leads back up (pagetree.go). Open
//     checks every top-level bucket (topLevelReadable), a scenario's
//     revisions bucket is opened through revisionsOf, which checks it, and
//     readAll checks every bucket it walks (readableBucket).
//
// A writer that shrinks the file under an open store is outside all of
// this; bbolt's lock keeps other hostplans out, not other programs.

// faultError is a panic or a memory fault while bbolt read the file, or a
// key or value whose size reaches past the end of it.
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
	return s.damaged(guarded(func() error { return s.db.Update(fn) }))
}

// damaged names the store in an error that came from a damaged page.
func (s *Store) damaged(err error) error {
	if isFault(err) {
		return fmt.Errorf("store %s is damaged (hostplan store check lists the damage): %w", s.path, err)
	}
	return err
}

// fits returns a *faultError if a key or value read in tx claims more
// bytes than the whole file holds, which only a damaged page can make it
// claim (see above). Every value read from the file lies within it; a value
// written in tx itself may be larger, and is not read back through here.
func fits(tx *bolt.Tx, k, v []byte) error {
	size := tx.Size()
	for _, b := range [2][]byte{k, v} {
		if int64(len(b)) > size {
			return damagef("a key or value claims %d bytes, more than the whole file (%d bytes): a page is damaged", len(b), size)
		}
	}
	return nil
}

// get is b.Get(key) for a value that fits in the file.
func get(tx *bolt.Tx, b *bolt.Bucket, key []byte) ([]byte, error) {
	v := b.Get(key)
	return v, fits(tx, nil, v)
}

// forEach is b.ForEach over keys and values that fit in the file: it stops
// with fits's error at the first that does not.
func forEach(tx *bolt.Tx, b *bolt.Bucket, fn func(k, v []byte) error) error {
	return b.ForEach(func(k, v []byte) error {
		if err := fits(tx, k, v); err != nil {
			return err
		}
		return fn(k, v)
	})
}

// leafIfInline returns a *faultError if b, named name, is kept inline and
// its page is not a leaf (see above). bbolt's Stats reads only the page of
// an inline bucket, and counts its bytes in use only if it is a leaf page,
// where they include the page header.
func leafIfInline(name []byte, b *bolt.Bucket) error {
	if b.Root() == 0 && b.Stats().InlineBucketInuse == 0 {
		return damagef("bucket %s is kept inline, but its page is not a leaf page: a page is damaged", quoteShort(name))
	}
	return nil
}

// readableBucket returns a *faultError if the bucket b, named name, cannot
// be read safely: an inline bucket whose page is not a leaf
// (leafIfInline), or another whose page tree does not lead down
// (checkTrees).
func readableBucket(tx *bolt.Tx, name []byte, b *bolt.Bucket) error {
	if b.Root() == 0 {
		return leafIfInline(name, b)
	}
	if err := checkTrees(tx, uint64(b.Root())); err != nil {
		return fmt.Errorf("bucket %s: %w", quoteShort(name), err)
	}
	return nil
}

// topLevelReadable checks the page tree that holds the top-level buckets,
// and then each of them with readableBucket and its name with fits.
func topLevelReadable(tx *bolt.Tx) error {
	if err := checkTrees(tx, uint64(tx.Cursor().Bucket().Root())); err != nil {
		return err
	}
	return tx.ForEach(func(name []byte, b *bolt.Bucket) error {
		if err := fits(tx, name, nil); err != nil {
			return err
		}
		return readableBucket(tx, name, b)
	})
}

// revisionsOf returns the revisions bucket of scenario id, nil if there is
// none, checked with readableBucket.
func revisionsOf(tx *bolt.Tx, id []byte) (*bolt.Bucket, error) {
	b := tx.Bucket(bucketRevisions).Bucket(id)
	if b == nil {
		return nil, nil
	}
	return b, readableBucket(tx, id, b)
}
