// Package app is the planner that hostplan's faces share: the command line
// (internal/cli) and the window (internal/ui) both reach the store, the
// catalog and the model through a Planner.
//
// A Planner opens the store (creating a new one and seeding it with the
// example scenarios of ./scenarios), loads the catalog in use (the embedded
// one with the store's price overrides applied), saves scenarios as new
// revisions only when they validate and evaluate against that catalog, with
// their lineage (author, note, model version, catalog date), and evaluates
// and analyses scenarios under a context.Context. Check is the one check
// that validate, eval, save, import and the window all run, so a scenario
// it passes evaluates. It also assembles what both faces write or compute
// the same way: a scenario's workbook with its decision, brief, checklist
// and lineage (export.go), a quick recommendation per stored scenario, and
// the calculators' checked inputs (estimates.go). It holds no
// presentation: the faces decide what to print or draw.
package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"time"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
	"hostplan/scenarios"
)

// ErrClosed is returned by the methods that need the store while it is not
// open (see Planner.Open).
var ErrClosed = errors.New("app: the store is not open")

// Planner is hostplan's application layer over one store file. The store
// is opened with Open and closed with Close; the catalog in use is read
// once, from the open store or, while it is closed, from a read-only look
// at the file, and kept. Its methods are safe for concurrent use.
type Planner struct {
	db string // the store path as given; "" for store.DefaultPath

	mu      sync.Mutex
	path    string           // the store path once resolved
	st      *store.Store     // the open store, or nil
	cat     *catalog.Catalog // the catalog in use, once loaded
	catHash string           // CatalogHash of cat, once found
	damage  error            // why the store last opened is read-only (store.Store.Damaged)
	// unwritable is set once a read finds the store file not writable
	// by this user: reads go on, read-only (ReadOnlyFile).
	unwritable bool
	// CheckOnRead makes the first read of a store this planner does not
	// hold look for damage (store.Store.CheckDamage) as a write's open
	// does: a command reads a few times and says so; a window reads
	// often and does not.
	CheckOnRead bool
	// OnBusy, when set, is told that the store is held by another
	// hostplan and that Open waits up to wait for it before giving up.
	OnBusy     func(path string, wait time.Duration)
	damageRead bool // the damage check has run
}

// New returns a Planner for the store at path ("" for the default path in
// the user's config directory). Nothing is opened or created yet.
func New(path string) *Planner { return &Planner{db: path} }

// Open returns a Planner with its store open (created and seeded when new)
// and its catalog loaded, held until Close: what a command that writes
// many times needs (the window shares the store instead: OpenShared). On
// error nothing is left open.
func Open(path string) (*Planner, error) {
	p := New(path)
	if err := p.Open(); err != nil {
		return nil, err
	}
	if _, err := p.Catalog(); err != nil {
		p.Close()
		return nil, err
	}
	return p, nil
}

// Open waits busyFirst for another hostplan's lock, then busyWait more
// after telling OnBusy.
const (
	busyFirst = 250 * time.Millisecond
	busyWait  = 5 * time.Second
)

// OpenShared returns a Planner whose store exists (created and seeded when
// new) but is not held: every read opens it read-only for the call and
// every write for the call, so other hostplans — list, show, diff, a save
// — work beside it (the window's way). A store the user may read but not
// write is shared read-only (ReadOnlyFile). On error nothing is open.
func OpenShared(path string) (*Planner, error) {
	p := New(path)
	err := p.Open()
	if err == nil {
		damage := p.damage
		err = p.Close()
		p.damage = damage
	} else if errors.Is(err, fs.ErrPermission) {
		p.mu.Lock()
		ok, xerr := p.exists()
		p.mu.Unlock()
		if xerr != nil || !ok {
			return nil, err
		}
		p.unwritable, err = true, nil
	}
	if err != nil {
		return nil, err
	}
	if _, err := p.Catalog(); err != nil {
		return nil, err
	}
	return p, nil
}

// ReadOnlyFile reports whether the store file is one this user may read
// but not write, found by a read of a planner that holds no store: reads
// work, and every write is refused with the system's error.
func (p *Planner) ReadOnlyFile() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.unwritable
}

// Path returns the store file's path: the one given to New, or the default
// path (whose directory it creates).
func (p *Planner) Path() (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.resolve()
}

func (p *Planner) resolve() (string, error) {
	if p.path != "" {
		return p.path, nil
	}
	if p.db != "" {
		p.path = p.db
		return p.path, nil
	}
	path, err := store.DefaultPath()
	if err != nil {
		return "", err
	}
	p.path = path
	return path, nil
}

// Open opens the store for writing, creating it when the file does not
// exist and seeding a new store with the example scenarios. A damaged store
// opens read-only instead (see Damaged). A store that another hostplan
// holds is reported with an error matching store.ErrInUse after
// store.DefaultTimeout. Opening a store that is already open is an error.
func (p *Planner) Open() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.st != nil {
		return errors.New("app: the store is already open")
	}
	path, err := p.resolve()
	if err != nil {
		return err
	}
	// Another hostplan may be writing for a moment (a save, an import):
	// wait for it, saying so, before giving up.
	st, err := store.Open(path, &store.Options{Timeout: busyFirst})
	if errors.Is(err, store.ErrInUse) {
		if p.OnBusy != nil {
			p.OnBusy(path, busyWait)
		}
		st, err = store.Open(path, &store.Options{Timeout: busyWait})
	}
	if err != nil {
		return err
	}
	// A damaged store opens read-only (store.Open) and is not seeded.
	if p.damage = st.Damaged(); p.damage == nil {
		if _, err := st.SeedWith(scenarios.FS, ".", exampleLineage); err != nil {
			st.Close()
			return err
		}
	}
	p.st = st
	return nil
}

// Damaged returns why the store last opened is damaged, and so was opened
// read-only with every write refused: an error matching store.ErrDamaged
// that names the file and the commands that check and copy it. It is nil
// for a sound store, and stays set after Close until the next Open.
func (p *Planner) Damaged() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.damage
}

// Close closes the store if it is open. The catalog in use is kept.
func (p *Planner) Close() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.st == nil {
		return nil
	}
	err := p.st.Close()
	p.st = nil
	return err
}

// store returns the open store or ErrClosed.
func (p *Planner) store() (*store.Store, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.st == nil {
		return nil, ErrClosed
	}
	return p.st, nil
}

// exists reports whether there is a store to read: a missing or empty file
// has nothing in it, and reading must not create one. The caller holds mu.
func (p *Planner) exists() (bool, error) {
	path, err := p.resolve()
	if err != nil {
		return false, err
	}
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return fi.Size() > 0, nil
}

// overrides reads the stored catalog overrides and the path of the store
// they come from: from the open store, or else from the file opened
// read-only for the moment (neither created, seeded nor upgraded). With no
// store file there are none. An error opening the file is wrapped by
// openErr. The caller holds mu.
func (p *Planner) overrides(openErr func(error) error) (blob []byte, where string, err error) {
	st := p.st
	if st == nil {
		ok, err := p.exists()
		if err != nil || !ok {
			return nil, "", err
		}
		ro, err := store.Open(p.path, &store.Options{ReadOnly: true})
		if err != nil {
			return nil, "", openErr(err)
		}
		defer ro.Close()
		st = ro
	}
	blob, err = st.GetCatalogOverrides()
	return blob, st.Path(), err
}

// Catalog returns the catalog in use: the embedded one with the store's
// price overrides applied, read once and kept. While the store is closed
// it reads the overrides from the file opened read-only for the moment; a
// store that does not exist yet has none and is not created. Overrides
// that no longer apply to the embedded catalog are an error that says how
// to drop them.
func (p *Planner) Catalog() (*catalog.Catalog, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cat != nil {
		return p.cat, nil
	}
	blob, where, err := p.overrides(func(err error) error { return fmt.Errorf("reading the catalog overrides: %w", err) })
	if err != nil {
		return nil, err
	}
	cat, err := catalog.Effective(blob)
	if err != nil {
		if len(blob) == 0 {
			return nil, err
		}
		return nil, fmt.Errorf("the catalog overrides in %s no longer apply (import a corrected file, or drop them with hostplan catalog reset): %w", where, err)
	}
	p.cat = cat
	return cat, nil
}

// DefaultAuthor names who saves when no author is given: the login name
// from the environment, or "unknown".
func DefaultAuthor() string {
	for _, k := range []string{"USER", "USERNAME", "LOGNAME"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return "unknown"
}

// builtinCatalog decodes the embedded catalog once: seeding asks for it once
// per example.
var builtinCatalog = sync.OnceValues(catalog.Default)

// exampleLineage is the lineage of an example scenario seeded into a new
// store: the model version and the catalog date of its report with the
// built-in catalog (a new store has no overrides yet).
func exampleLineage(sc *scenario.Scenario) scenario.RevisionMeta {
	meta := scenario.RevisionMeta{ModelVersion: model.Version}
	if cat, err := builtinCatalog(); err == nil {
		if r, err := model.Evaluate(sc, cat); err == nil {
			meta.CatalogAsOf = r.CatalogAsOf
		}
	}
	return meta
}
