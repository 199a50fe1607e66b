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
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return revs, nil
}
