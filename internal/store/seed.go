package store

import (
	"fmt"
	"io/fs"
	"path"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/scenario"
)

// seedMeta is the lineage of an example scenario.
var seedMeta = scenario.RevisionMeta{Author: "hostplan", Note: "example scenario"}

// Seed stores the example scenarios once, on the store's first start: every
// *.json file in dir of fsys is parsed with scenario.Parse and saved, and the
// store remembers that it was seeded. Later calls do nothing and return 0,
// so an example the user deleted stays deleted. An example whose id the
// store already holds is skipped, never overwritten. If any example fails to
// parse, nothing is written and the next call tries again. Seed returns the
// number of scenarios it stored.
func (s *Store) Seed(fsys fs.FS, dir string) (int, error) {
	return s.SeedWith(fsys, dir, nil)
}

// SeedWith is Seed with the lineage of each example from lineage (for
// example the model version and catalog date its report used); nil gives
// author "hostplan" and note "example scenario" only. Author and note are
// always the seed's own.
func (s *Store) SeedWith(fsys fs.FS, dir string, lineage func(*scenario.Scenario) scenario.RevisionMeta) (int, error) {
	seeded := false
	err := s.view(func(tx *bolt.Tx) error {
		seeded = tx.Bucket(bucketMeta).Get(keySeeded) != nil
		return nil
	})
	if err != nil || seeded {
		return 0, err
	}

	examples, err := readExamples(fsys, dir)
	if err != nil {
		return 0, fmt.Errorf("seed store: %w", err)
	}
	n := 0
	err = s.update(func(tx *bolt.Tx) error {
		meta := tx.Bucket(bucketMeta)
		if meta.Get(keySeeded) != nil { // seeded since the check above
			return nil
		}
		now := s.now()
		for _, sc := range examples {
			if tx.Bucket(bucketScenarios).Get([]byte(sc.ID)) != nil {
				continue
			}
			rm := seedMeta
			if lineage != nil {
				l := lineage(sc)
				rm.ModelVersion, rm.CatalogAsOf = l.ModelVersion, l.CatalogAsOf
			}
			if _, err := save(tx, sc, rm, now); err != nil {
				return fmt.Errorf("example %q: %w", sc.ID, err)
			}
			n++
		}
		return meta.Put(keySeeded, []byte(now.Format(time.RFC3339)))
	})
	if err != nil {
		return 0, fmt.Errorf("seed store: %w", err)
	}
	return n, nil
}

// readExamples parses every *.json file directly in dir, in name order.
func readExamples(fsys fs.FS, dir string) ([]*scenario.Scenario, error) {
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, err
	}
	var out []*scenario.Scenario
	from := map[string]string{} // id → file name
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		name := path.Join(dir, e.Name())
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		sc, err := scenario.Parse(b)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		if prev, dup := from[sc.ID]; dup {
			return nil, fmt.Errorf("%s and %s have the same id %q", prev, name, sc.ID)
		}
		from[sc.ID] = name
		out = append(out, sc)
	}
	return out, nil
}
