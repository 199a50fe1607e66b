// Package store keeps hostplan's scenarios in one bbolt file. Every save is
// a new immutable revision carrying its lineage (who, when, note, model and
// catalog version); the scenario's current pointer moves in the same
// transaction. Beside the scenarios it keeps each scenario's checklist
// state, the user's settings and the catalog overrides. A file that is not a
// hostplan store is refused and never written to; a store of an older layout
// is upgraded when opened for writing, and stored revisions of an older
// scenario schema are upgraded when read. The file is bbolt's own: the
// package reads it through bbolt's API, but for the page trees it checks
// before bbolt walks them (boltformat.go). A damaged store that bbolt can
// read opens; Check says what is wrong with it and Backup copies it, and a
// panic or fault of bbolt on a damaged page is an error, not a crash
// (guard.go). The package imports nothing of the GUI.
package store

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"syscall"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"

	"hostplan/internal/atomicfile"
)

// SchemaVersion is the version of the store layout this build writes.
//
//	1  meta, scenarios (JSON records), revisions
//	2  binary scenario records (record.go); adds checklists, settings and
//	   catalog (for the catalog overrides)
//
// Open upgrades an older layout in one transaction (see upgrades); a build
// refuses a store of a newer layout with ErrNewer.
const SchemaVersion = 3

// DefaultTimeout is how long Open waits for another hostplan to release the
// file before it returns ErrInUse.
const DefaultTimeout = 1 * time.Second

// formatMarker in the meta bucket tells a hostplan store from any other bbolt
// file.
const formatMarker = "hostplan-store"

// Buckets and meta keys.
var (
	bucketMeta      = []byte("meta")      // format, version, created, seeded
	bucketScenarios = []byte("scenarios") // id → record (record.go)
	bucketRevisions = []byte("revisions") // id → nested bucket: be32(n) → revisionRecord (JSON)
	// Since layout 2:
	bucketChecklists = []byte("checklists") // id → checklist state (JSON, opaque to the store)
	bucketSettings   = []byte("settings")   // key → value (text)
	bucketCatalog    = []byte("catalog")    // keyOverrides → catalog overrides (JSON, opaque to the store)
	// Since layout 3:
	bucketResults = []byte("results") // ResultKey → stamp ‖ result (opaque to the store; results.go)

	keyOverrides = []byte("overrides")

	keyFormat  = []byte("format")
	keyVersion = []byte("version")
	keyCreated = []byte("created")
	keySeeded  = []byte("seeded")
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrInUse means another hostplan (another window or process) holds the
	// store file. The error returned by Open names the file.
	ErrInUse = errors.New("store is in use by another hostplan")
	// ErrNotStore means the file exists but is not a hostplan store: it is
	// corrupt, truncated, not a bbolt file, or a bbolt file of another program.
	// Such a file is left exactly as it was.
	ErrNotStore = errors.New("not a hostplan store")
	// ErrNewer means the store was written by a newer hostplan whose layout
	// this build does not know.
	ErrNewer = errors.New("store was written by a newer hostplan")
	// ErrNotFound means the scenario, the revision or the setting does not
	// exist (or the scenario is deleted).
	ErrNotFound = errors.New("not found")
	// ErrNotDeleted means Purge was asked to remove a scenario that is not
	// deleted; only deleted scenarios can be purged.
	ErrNotDeleted = errors.New("scenario is not deleted (delete it first)")
	// ErrNotJSON means a checklist or catalog overrides value is not valid
	// JSON; nothing was written.
	ErrNotJSON = errors.New("not valid JSON")
	// ErrDamaged means the store was opened for writing but is damaged, so
	// it was opened read-only instead and nothing is written to it (see
	// Open and Store.Damaged).
	ErrDamaged = errors.New("store is damaged")
	// ErrRevisionDamaged means a stored revision is damaged: its bytes are
	// not those its sha256 was computed from, or its record does not read.
	// Every read of a revision refuses it (a *RevisionDamagedError).
	ErrRevisionDamaged = errors.New("revision is damaged")
)

// RevisionDamagedError is a revision that a read refused as damaged. It
// matches ErrRevisionDamaged and says what to do.
type RevisionDamagedError struct {
	ID     string // the scenario
	Number int    // the revision
	Why    string // what is wrong with it
}

func (e *RevisionDamagedError) Error() string {
	return fmt.Sprintf("scenario %q revision %d is damaged (%s), so hostplan does not use it: run hostplan store check to list the damage, and restore the store from your last backup (the file hostplan store backup wrote)", e.ID, e.Number, e.Why)
}

func (e *RevisionDamagedError) Unwrap() error { return ErrRevisionDamaged }

// damagedError says why a store opened for writing was opened read-only,
// and what to do.
type damagedError struct {
	path  string
	cause error
}

func (e *damagedError) Error() string {
	return fmt.Sprintf("store %s is damaged (%v), so hostplan opened it read-only and writes nothing to it: hostplan store check lists the damage, and hostplan store backup copies the file as it is before you repair or replace it", e.path, e.cause)
}

func (e *damagedError) Unwrap() []error { return []error{ErrDamaged, e.cause} }

// inUseError carries the path for the message and matches ErrInUse and the
// bbolt timeout underneath.
type inUseError struct {
	path  string
	cause error
}

func (e *inUseError) Error() string {
	return fmt.Sprintf("store %s is in use by another hostplan (close the other window or pass --db PATH)", e.path)
}

func (e *inUseError) Unwrap() []error { return []error{ErrInUse, e.cause} }

func notStore(path string, cause error) error {
	return fmt.Errorf("open store %s: %w: %w", path, ErrNotStore, cause)
}

// Options configure Open. A nil *Options means the defaults.
type Options struct {
	// Timeout is how long to wait for the file lock; 0 means DefaultTimeout.
	Timeout time.Duration
	// ReadOnly opens the store for reading; it then shares the file with
	// other read-only openers. The store must already exist.
	ReadOnly bool
}

// Store is an open hostplan store. Its methods are safe for concurrent use.
type Store struct {
	db   *bolt.DB
	path string
	now  func() time.Time // revision timestamps; replaced in tests
	// freelistErr is why bbolt could not load the freelist of a read-only
	// store (Open); Check reports it and does not run Tx.Check.
	freelistErr error
	// broken holds the damage Open found in the page trees of top-level
	// buckets (checkStructure), by name: a store with any is read-only,
	// and what reads those buckets returns the damage (readable).
	broken map[string]error
	// damage is why a store opened for writing was opened read-only
	// (Open); every write returns it.
	damage error
	// wrote: opened to write and found sound (or left so by this
	// process); lastTx is the transaction that left the file as this
	// Store knows it — at Open, then each of its own writes (update).
	// Close records the generation it leaves as sound when the file's
	// last transaction is still lastTx: no write but its own came after.
	wrote  bool
	lastTx atomic.Int64
}

// Damaged returns why the store, opened for writing, was opened read-only
// instead (an error matching ErrDamaged that says what to do), or nil.
func (s *Store) Damaged() error { return s.damage }

// CheckDamage looks, in a store opened read-only, for the damage Open
// looks for before a write (a record that does not decode, an overflow
// page beyond the file) and, when it finds some, marks the store damaged
// (Damaged) as Open would have. It reads every record: a command checks
// once, a window that reads often does not.
func (s *Store) CheckDamage() error {
	if s.damage != nil {
		return s.damage
	}
	if cause := guarded(func() error { return findDamage(s.db) }); cause != nil {
		s.damage = &damagedError{path: s.path, cause: cause}
	}
	return s.damage
}

// DefaultPath returns the store's place in the user's configuration
// directory, creating the hostplan directory (mode 0700) if needed.
func DefaultPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("default store path: %w", err)
	}
	dir = filepath.Join(dir, "hostplan")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("default store path: %w", err)
	}
	return filepath.Join(dir, "hostplan.db"), nil
}

// Open opens the store at path, creating it when the file does not exist:
// a new store is made whole under a temporary name in the same directory
// (mode 0600 less the umask) and linked into place (create), so a store
// file hostplan made is never empty or without its marker. An existing
// file is first opened read-only and checked before anything opens it for
// writing: bbolt checks its header (the meta pages), Open checks that the
// file is as long as the header claims and that it carries the hostplan
// marker. A file that fails — an empty file or a bbolt file without buckets
// among them: hostplan did not make it — is reported as ErrNotStore and is
// not modified. Open does not read every page: it checks the page trees of
// the top-level buckets (boltformat.go), and a file bbolt opens and whose
// marker reads is a store, also one with pages bbolt lost track of (leaked
// pages) or damaged pages that Open does not read; Check reports them. A
// read-only store also loads bbolt's freelist at Open, and opens without it
// if it is damaged (Check reports that), so that a damaged store can still
// be checked and backed up; opened for writing, such a store is refused
// with ErrNotStore.
//
// Opened for writing, a store whose scenario records do not decode, whose
// pages claim more of the file than there is, or a top-level bucket of
// which is damaged (damage that a write would trip over; a read of such a
// bucket returns the damage, in any store) is opened read-only instead:
// Damaged says why, and
// every write returns that error, which matches ErrDamaged and names
// hostplan store check and hostplan store backup. Nothing is written to it.
// A store of an older layout is upgraded (unless ReadOnly, which reads it as
// it is, or damaged); a newer one is refused with ErrNewer. If another
// hostplan holds the file for longer than the timeout, Open returns an
// error matching ErrInUse.
func Open(path string, opt *Options) (*Store, error) {
	o := Options{Timeout: DefaultTimeout}
	if opt != nil {
		o = *opt
		if o.Timeout <= 0 {
			o.Timeout = DefaultTimeout
		}
	}

	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) && !o.ReadOnly {
		// Another hostplan may create it at the same moment: then its
		// store is opened.
		if err := create(path, o.Timeout); err != nil && !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("create store %s: %w", path, unwrapPath(err))
		}
		fi, err = os.Stat(path)
	}
	switch {
	case err != nil:
		return nil, fmt.Errorf("open store %s: %w", path, err)
	case !fi.Mode().IsRegular():
		return nil, notStore(path, errors.New("not a regular file"))
	case fi.Size() == 0:
		return nil, notStore(path, errors.New("the file is empty, and hostplan never leaves its store empty (remove the file, or give --db the path of a store or of a file that does not exist)"))
	}
	ro, empty, broken, freelistErr, err := openExisting(path, o.Timeout, o.ReadOnly)
	if err != nil {
		return nil, err
	}
	if empty {
		_ = ro.Close()
		return nil, notStore(path, errNoBuckets)
	}
	if o.ReadOnly {
		s := newStore(ro, path)
		s.freelistErr, s.broken = freelistErr, broken
		return s, nil
	}
	if err := ro.Close(); err != nil {
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	if freelistErr != nil { // bbolt would load it to open the file for writing
		return nil, notStore(path, freelistErr)
	}
	if len(broken) > 0 {
		return openDamaged(path, o.Timeout, firstBroken(broken))
	}

	db, err := openBolt(path, bolt.Options{Timeout: o.Timeout})
	if err != nil {
		return nil, boltOpenError(path, err)
	}
	// Holding the exclusive lock now: check the file again (it may have
	// changed since the read-only check), then look for damage that a
	// write would trip over, and upgrade an older layout — unless this
	// process left the file so, sound, and it has not changed since.
	if gen, ok := generationOf(db, path); ok {
		if v, found := verified.Load(path); found && v.(verifiedFile).sound && v.(verifiedFile).same(gen) {
			if err := guarded(func() error { return upgrade(db) }); err != nil {
				_ = db.Close()
				return nil, fmt.Errorf("open store %s: %w", path, err)
			}
			return writerStore(db, path), nil
		}
	}
	writeChecks.Add(1)
	empty, broken, err = checkFile(db, path)
	if err == nil && empty {
		err = errNoBuckets
	}
	if err == nil && len(broken) > 0 { // it changed since the read-only check
		err = firstBroken(broken)
	}
	if err != nil {
		_ = db.Close()
		if errors.Is(err, ErrNewer) {
			return nil, fmt.Errorf("open store %s: %w", path, err)
		}
		return nil, notStore(path, err)
	}
	if damage := guarded(func() error { return findDamage(db) }); damage != nil {
		if err := db.Close(); err != nil {
			return nil, fmt.Errorf("open store %s: %w", path, err)
		}
		return openDamaged(path, o.Timeout, damage)
	}
	if err := guarded(func() error { return upgrade(db) }); err != nil {
		_ = db.Close()
		return nil, fmt.Errorf("open store %s: %w", path, err)
	}
	return writerStore(db, path), nil
}

// writerStore is the Store of db, opened to write and found sound: its
// Close may record the generation it leaves (Store.wrote).
func writerStore(db *bolt.DB, path string) *Store {
	s := newStore(db, path)
	if gen, ok := generationOf(db, path); ok {
		s.wrote = true
		s.lastTx.Store(int64(gen.txid))
	}
	return s
}

// openDamaged opens the store at path read-only, as damaged by cause:
// Damaged returns it, and every write is refused with it.
func openDamaged(path string, timeout time.Duration, cause error) (*Store, error) {
	ro, _, broken, freelistErr, err := openExisting(path, timeout, true)
	if err != nil {
		return nil, err
	}
	s := newStore(ro, path)
	s.freelistErr, s.broken = freelistErr, broken
	s.damage = &damagedError{path: path, cause: cause}
	return s, nil
}

// firstBroken names the damaged top-level bucket that sorts first.
func firstBroken(broken map[string]error) error {
	names := slices.Sorted(maps.Keys(broken))
	return fmt.Errorf("its %s bucket: %w", names[0], broken[names[0]])
}

// errNoBuckets is a bbolt file with nothing in it: another program's, since
// hostplan makes its store whole (create).
var errNoBuckets = errors.New("it is a bbolt file with no buckets, which hostplan never leaves (it makes a new store whole before it gives it its name)")

// create makes a new store at path: a bbolt file with the marker and the
// empty buckets, made under a temporary name in path's directory and linked
// to path, which must not exist (an error matching fs.ErrExist otherwise).
// A failure or a signal leaves nothing (see atomicfile).
func create(path string, timeout time.Duration) error {
	return atomicfile.WriteNewPath(path, 0o600, func(tmp string) error {
		db, err := openBolt(tmp, bolt.Options{Timeout: timeout})
		if err != nil {
			return err
		}
		if err := db.Update(initStore); err != nil {
			_ = db.Close()
			return err
		}
		return db.Close()
	})
}

// unwrapPath returns the cause inside an *fs.PathError, whose path the
// caller's message names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func newStore(db *bolt.DB, path string) *Store {
	sharePages(db)
	return &Store{db: db, path: path, now: func() time.Time { return time.Now().UTC() }}
}

// openExisting opens a non-empty file read-only (a shared lock, so a running
// hostplan still yields ErrInUse) and checks it (checkFile) before anything
// opens it for writing. The read-only open never writes. empty reports a
// valid bbolt file with no buckets at all, which Open may initialise.
// freelistErr says what is wrong with the file's freelist (freelistSound),
// which bbolt loads when it opens a file for writing. With loadFreelist and
// a sound freelist, the file is opened a second time, for bbolt to load
// its freelist here, under the guard, instead of in Tx.Check's goroutine.
func openExisting(path string, timeout time.Duration, loadFreelist bool) (db *bolt.DB, empty bool, broken map[string]error, freelistErr, err error) {
	o := bolt.Options{Timeout: timeout, ReadOnly: true}
	db, err = openBolt(path, o)
	if err == nil {
		freelistErr = freelistSound(db)
		if loadFreelist && freelistErr == nil {
			if err := db.Close(); err != nil {
				return nil, false, nil, nil, fmt.Errorf("open store %s: %w", path, err)
			}
			o.PreLoadFreelist = true
			db, err = openBolt(path, o)
			if isFault(err) { // not seen: freelistSound checks what bbolt's load reads
				freelistErr = err
				o.PreLoadFreelist = false
				db, err = openBolt(path, o)
			}
		}
	}
	if err != nil {
		return nil, false, nil, nil, boltOpenError(path, err)
	}
	// Under bbolt's shared lock now: no hostplan writes while we read. A
	// file this process has verified, unchanged since (the same file, size,
	// modification time and last transaction), is not walked again: the
	// walk reads every page (some 30 ms for 10,000 scenarios), and a
	// window that opens the store for each read would pay it every time.
	gen, genOK := generationOf(db, path)
	if v, ok := verified.Load(path); genOK && ok && v.(verifiedFile).same(gen) {
		vf := v.(verifiedFile)
		return db, vf.empty, vf.broken, freelistErr, nil
	}
	readOnlyWalks.Add(1)
	empty, broken, err = checkFile(db, path)
	if err == nil && genOK {
		verified.Store(path, verifiedFile{gen: gen, empty: empty, broken: broken})
	}
	if err != nil {
		_ = db.Close()
		if errors.Is(err, ErrNewer) {
			return nil, false, nil, nil, fmt.Errorf("open store %s: %w", path, err)
		}
		return nil, false, nil, nil, notStore(path, err)
	}
	return db, empty, broken, freelistErr, nil
}

// boltOpenError classifies an error from bolt.Open on an existing file.
// bbolt's verdicts on the content — no valid meta page (ErrInvalid), another
// format version (ErrVersionMismatch), a bad checksum (ErrChecksum), a file
// shorter than two pages, a panic or fault while reading it — make it not a
// store; the system's refusals (permissions, locks, memory), which say
// nothing about the content, are passed on as they are.
func boltOpenError(path string, err error) error {
	var (
		pathErr *fs.PathError
		errno   syscall.Errno
	)
	switch {
	case errors.Is(err, bolterrors.ErrTimeout):
		return &inUseError{path: path, cause: err}
	case isFault(err):
		return notStore(path, err)
	case errors.As(err, &pathErr), errors.As(err, &errno):
		return fmt.Errorf("open store %s: %w", path, err)
	}
	return notStore(path, err)
}

// Close releases the file.
func (s *Store) Close() error {
	gen, genOK := generation{}, false
	if s.wrote && s.damage == nil {
		gen, genOK = generationOf(s.db, s.path)
		genOK = genOK && int64(gen.txid) == s.lastTx.Load()
	}
	err := s.db.Close()
	unsharePages(s.db)
	if err == nil && genOK {
		verified.Store(s.path, verifiedFile{gen: gen, sound: true})
	}
	if err != nil {
		return fmt.Errorf("close store %s: %w", s.path, err)
	}
	return nil
}

// Path returns the file the store was opened from.
func (s *Store) Path() string { return s.path }
