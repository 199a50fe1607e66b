package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	bolt "go.etcd.io/bbolt"
)

// The state beside the scenarios: each scenario's checklist, the user's
// settings and the catalog overrides. The store keeps checklists and
// overrides as opaque JSON (their owners decode them) and checks only that
// they are JSON. A store of layout 1 opened read-only has none of these
// buckets and reads as empty.

// GetChecklist returns the checklist state of scenario id, or nil when none
// has been stored. A scenario that does not exist or is deleted is
// ErrNotFound.
func (s *Store) GetChecklist(id string) ([]byte, error) {
	var out []byte
	err := s.readable(bucketScenarios, bucketChecklists)
	if err == nil {
		err = s.view(func(tx *bolt.Tx) error {
			if _, err := liveRecord(tx, id); err != nil {
				return err
			}
			if b := tx.Bucket(bucketChecklists); b != nil {
				out = bytes.Clone(b.Get([]byte(id))) // bbolt's bytes live only as long as the transaction
			}
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("get checklist of scenario %q: %w", id, err)
	}
	return out, nil
}

// PutChecklist stores the checklist state of scenario id, replacing any
// before; empty data removes it. Data must be JSON (else ErrNotJSON) and the
// scenario must exist and not be deleted (else ErrNotFound). The state
// belongs to the scenario, not to a revision: it is not versioned, is kept
// while the scenario is deleted and goes when it is purged.
func (s *Store) PutChecklist(id string, data []byte) error {
	err := s.putJSON(data, func(tx *bolt.Tx) (*bolt.Bucket, []byte, error) {
		if _, err := liveRecord(tx, id); err != nil {
			return nil, nil, err
		}
		return tx.Bucket(bucketChecklists), []byte(id), nil
	})
	if err != nil {
		return fmt.Errorf("put checklist of scenario %q: %w", id, err)
	}
	return nil
}

// GetCatalogOverrides returns the catalog overrides, or nil when none are
// stored.
func (s *Store) GetCatalogOverrides() ([]byte, error) {
	var out []byte
	err := s.readable(bucketCatalog)
	if err == nil {
		err = s.view(func(tx *bolt.Tx) error {
			if b := tx.Bucket(bucketCatalog); b != nil {
				out = bytes.Clone(b.Get(keyOverrides))
			}
			return nil
		})
	}
	if err != nil {
		return nil, fmt.Errorf("get catalog overrides: %w", err)
	}
	return out, nil
}

// PutCatalogOverrides stores the catalog overrides, replacing any before;
// empty data removes them. Data must be JSON (else ErrNotJSON).
func (s *Store) PutCatalogOverrides(data []byte) error {
	err := s.putJSON(data, func(tx *bolt.Tx) (*bolt.Bucket, []byte, error) {
		return tx.Bucket(bucketCatalog), keyOverrides, nil
	})
	if err != nil {
		return fmt.Errorf("put catalog overrides: %w", err)
	}
	return nil
}

// putJSON writes data (or deletes the key when data is empty) at the bucket
// and key where returns, in one transaction.
func (s *Store) putJSON(data []byte, where func(*bolt.Tx) (*bolt.Bucket, []byte, error)) error {
	if len(data) > 0 && !json.Valid(data) {
		return ErrNotJSON
	}
	return s.update(func(tx *bolt.Tx) error {
		b, key, err := where(tx)
		if err != nil {
			return err
		}
		if len(data) == 0 {
			return b.Delete(key)
		}
		return b.Put(key, data)
	})
}

// GetSetting returns the value of setting key, or ErrNotFound when it was
// never set.
func (s *Store) GetSetting(key string) (string, error) {
	var (
		v     string
		found bool
	)
	err := s.readable(bucketSettings)
	if err == nil {
		err = s.view(func(tx *bolt.Tx) error {
			if b := tx.Bucket(bucketSettings); b != nil {
				if x := b.Get([]byte(key)); x != nil {
					v, found = string(x), true
				}
			}
			if !found {
				return ErrNotFound
			}
			return nil
		})
	}
	if err != nil {
		return "", fmt.Errorf("get setting %q: %w", key, err)
	}
	return v, nil
}

// PutSetting sets setting key to value. The key must not be empty.
func (s *Store) PutSetting(key, value string) error {
	err := errors.New("a setting needs a key")
	if key != "" {
		err = s.update(func(tx *bolt.Tx) error {
			return tx.Bucket(bucketSettings).Put([]byte(key), []byte(value))
		})
	}
	if err != nil {
		return fmt.Errorf("put setting %q: %w", key, err)
	}
	return nil
}
