package store

import (
	"fmt"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/scenario"
)

// Batched is one scenario of SaveBatch with its lineage.
type Batched struct {
	Scenario *scenario.Scenario
	Meta     scenario.RevisionMeta
	// Result, when not empty, is stored as the saved revision's result on
	// the catalog and engine Catalog and Engine name (PutResults), in the
	// same transaction.
	Result          []byte
	Catalog, Engine string
}

// SaveBatch saves many scenarios in one transaction — one write to disk
// instead of one each — as Save saves each: a revision each (none when
// its content is the current one), in order. Every scenario is validated
// first; a problem with any writes none of them.
func (s *Store) SaveBatch(items []Batched) ([]scenario.Revision, error) {
	for _, it := range items {
		if it.Scenario == nil {
			panic("store: SaveBatch of a nil scenario")
		}
		if errs := scenario.Validate(it.Scenario); errs != nil {
			return nil, fmt.Errorf("save scenario %q: %w", it.Scenario.ID, errs)
		}
	}
	revs := make([]scenario.Revision, len(items))
	err := s.update(func(tx *bolt.Tx) error {
		now := s.now()
		for i, it := range items {
			rev, err := save(tx, it.Scenario, it.Meta, now)
			if err != nil {
				return fmt.Errorf("save scenario %q: %w", it.Scenario.ID, err)
			}
			revs[i] = rev
			if len(it.Result) > 0 {
				k := ResultKey{Input: rev.InputHash, Catalog: it.Catalog, Engine: it.Engine}
				if err := putResults(tx, []ResultKey{k}, [][]byte{it.Result}, now); err != nil {
					return fmt.Errorf("save the result of scenario %q: %w", it.Scenario.ID, err)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return revs, nil
}
