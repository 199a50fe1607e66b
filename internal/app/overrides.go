package app

import (
	"encoding/json"
	"fmt"
	"io/fs"

	"hostplan/internal/catalog"
	"hostplan/internal/store"
)

// Overrides returns the catalog override rows kept in the store: from the
// open store, or else from the file opened read-only for the moment. No
// store means none, and none is created.
func (p *Planner) Overrides() (catalog.Overrides, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	b, _, err := p.overrides(func(err error) error { return err })
	if err != nil {
		return catalog.Overrides{}, err
	}
	return catalog.DecodeOverrides(b)
}

// OverridesImport is the outcome of ImportOverrides.
type OverridesImport struct {
	Kept    catalog.Overrides // the rows the store keeps now
	Changed int               // catalog entries that differ from the embedded catalog
	Added   int               // of which new entries the embedded catalog lacks
	// Before is the catalog that was in use before the import: the
	// baseline to reprice the stored scenarios against (Reprice).
	Before *catalog.Catalog
}

// ImportOverrides merges rows over the stored overrides and keeps the rows
// of the entries that then differ from the embedded catalog; the catalog
// in use becomes the result. Rows that do not apply are refused whole (an
// error holding catalog.OverrideErrors) and nothing is written: in
// particular a refused import into a store that does not exist yet does
// not create it. Otherwise the store is opened (created and seeded when
// new) unless it is open already.
func (p *Planner) ImportOverrides(rows catalog.Overrides) (OverridesImport, error) {
	p.mu.Lock()
	ok, err := p.exists()
	p.mu.Unlock()
	if err != nil {
		return OverridesImport{}, err
	}
	if !ok {
		// Check against an empty store before creating one.
		if _, _, err := planOverrides(nil, rows); err != nil {
			return OverridesImport{}, err
		}
	}
	var out OverridesImport
	err = p.using(func(st *store.Store) error {
		stored, err := st.GetCatalogOverrides()
		if err != nil {
			return err
		}
		keep, eff, err := planOverrides(stored, rows)
		if err != nil {
			return err
		}
		// planOverrides has read the stored rows, so they apply.
		if out.Before, err = catalog.Effective(stored); err != nil {
			return err
		}
		blob, err := json.Marshal(keep)
		if err != nil {
			return err
		}
		if len(keep.Rows) == 0 {
			blob = nil
		}
		if err := st.PutCatalogOverrides(blob); err != nil {
			return err
		}
		p.mu.Lock()
		p.cat, p.catHash = eff, ""
		p.mu.Unlock()
		def, err := catalog.Default()
		if err != nil {
			return err
		}
		out.Kept = keep
		for _, it := range eff.Items("") {
			if it.Entry.Overridden {
				out.Changed++
				if _, ok := def.Item(it.Kind, it.ID); !ok {
					out.Added++
				}
			}
		}
		return nil
	})
	return out, err
}

// planOverrides merges new rows over the stored ones and checks the result
// on the embedded catalog: what to store (the rows of entries that differ
// from the embedded catalog) and the catalog that results.
func planOverrides(stored []byte, rows catalog.Overrides) (catalog.Overrides, *catalog.Catalog, error) {
	prev, err := catalog.DecodeOverrides(stored)
	if err != nil {
		return catalog.Overrides{}, nil, fmt.Errorf("%w (drop them with hostplan catalog reset)", err)
	}
	def, err := catalog.Default()
	if err != nil {
		return catalog.Overrides{}, nil, err
	}
	all := prev.Merge(rows)
	eff, err := def.Apply(all)
	if err != nil {
		return catalog.Overrides{}, nil, err
	}
	keep, err := def.Prune(all)
	return keep, eff, err
}

// ResetOverrides removes every catalog override from the store and returns
// what was stored (nil when there was nothing: no store, which is not
// created, or no overrides). The built-in catalog is in use afterwards.
// The store is opened unless it is open already.
func (p *Planner) ResetOverrides() (removed []byte, err error) {
	p.mu.Lock()
	ok, err := p.exists()
	p.mu.Unlock()
	if err != nil || !ok {
		return nil, err
	}
	err = p.using(func(st *store.Store) error {
		b, err := st.GetCatalogOverrides()
		if err != nil || len(b) == 0 {
			return err
		}
		if err := st.PutCatalogOverrides(nil); err != nil {
			return err
		}
		removed = b
		p.mu.Lock()
		p.cat, p.catHash = nil, "" // read again when next needed
		p.mu.Unlock()
		return nil
	})
	return removed, err
}

// using runs f on the open store, or opens the store (creating and seeding
// it when new) for the call and closes it after.
func (p *Planner) using(f func(st *store.Store) error) error {
	if st, err := p.store(); err == nil {
		return f(st)
	}
	if p.ReadOnlyFile() {
		path, _ := p.Path()
		return fmt.Errorf("%s: the store is read-only for this user, so nothing can be written to it (%w); copy it with hostplan store backup, or pass --db PATH", path, fs.ErrPermission)
	}
	if err := p.Open(); err != nil {
		return err
	}
	st, err := p.store()
	if err == nil {
		err = f(st)
	}
	if cerr := p.Close(); err == nil {
		err = cerr
	}
	return err
}
