package store

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"time"

	bolt "go.etcd.io/bbolt"
)

// Stored results: what an evaluation of a revision found, kept so that
// reprice, list and the window read it instead of evaluating again. A
// result is derived data — the store keeps it opaque (its owner encodes
// it) and keyed by everything it was derived from: the revision's input
// hash, a hash of the catalog it was evaluated on and the engine's
// version. A result that is lost or damaged costs only an evaluation.

// ResultKey names one stored result.
type ResultKey struct {
	Input   string // the revision's input hash (hex sha256, as Revision.InputHash)
	Catalog string // the catalog's hash (hex sha256)
	Engine  string // the version of the engine that made the result
}

// MaxResultsPerRevision is how many results the store keeps per revision
// (one per catalog and engine version); saving one more drops the oldest.
const MaxResultsPerRevision = 4

// key is input ‖ catalog (32 bytes each) ‖ engine: every result of a
// revision shares its first 32 bytes.
func (k ResultKey) key() ([]byte, error) {
	in, err := hex.DecodeString(k.Input)
	if err != nil || len(in) != 32 {
		return nil, fmt.Errorf("result key: input hash %q is not a sha256", k.Input)
	}
	cat, err := hex.DecodeString(k.Catalog)
	if err != nil || len(cat) != 32 {
		return nil, fmt.Errorf("result key: catalog hash %q is not a sha256", k.Catalog)
	}
	if k.Engine == "" {
		return nil, fmt.Errorf("result key: no engine version")
	}
	return append(append(in, cat...), k.Engine...), nil
}

// A stored value is the time it was saved (8 bytes, Unix nanoseconds, big
// endian) and then the owner's bytes.
const resultStamp = 8

// GetResults returns the stored result of each key, nil where there is
// none. A store without the results bucket (an older layout opened
// read-only) has none; a damaged results bucket is an error.
func (s *Store) GetResults(keys []ResultKey) ([][]byte, error) {
	out := make([][]byte, len(keys))
	if err := s.readable(bucketResults); err != nil {
		return nil, fmt.Errorf("get results: %w", err)
	}
	err := s.view(func(tx *bolt.Tx) error {
		b := tx.Bucket(bucketResults)
		if b == nil {
			return nil
		}
		for i, k := range keys {
			key, err := k.key()
			if err != nil {
				return err
			}
			if v := b.Get(key); len(v) > resultStamp {
				out[i] = bytes.Clone(v[resultStamp:]) // bbolt's bytes live only as long as the transaction
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("get results: %w", err)
	}
	return out, nil
}

// PutResults stores each result under its key in one transaction,
// replacing any before, and keeps at most MaxResultsPerRevision results
// per revision (the newest). Empty data is not stored.
func (s *Store) PutResults(keys []ResultKey, data [][]byte) error {
	if len(keys) != len(data) {
		return fmt.Errorf("put results: %d keys for %d results", len(keys), len(data))
	}
	err := s.update(func(tx *bolt.Tx) error {
		return putResults(tx, keys, data, s.now())
	})
	if err != nil {
		return fmt.Errorf("put results: %w", err)
	}
	return nil
}

// putResults writes results inside the caller's transaction.
func putResults(tx *bolt.Tx, keys []ResultKey, data [][]byte, now time.Time) error {
	b := tx.Bucket(bucketResults)
	if b == nil {
		return fmt.Errorf("the store has no %s bucket", bucketResults)
	}
	for i, k := range keys {
		if len(data[i]) == 0 {
			continue
		}
		key, err := k.key()
		if err != nil {
			return err
		}
		v := make([]byte, resultStamp, resultStamp+len(data[i]))
		binary.BigEndian.PutUint64(v, uint64(now.UnixNano()))
		if err := b.Put(key, append(v, data[i]...)); err != nil {
			return err
		}
		if err := pruneResults(b, key[:32]); err != nil {
			return err
		}
	}
	return nil
}

// pruneResults drops the oldest results of the revision whose input hash
// is prefix beyond MaxResultsPerRevision.
func pruneResults(b *bolt.Bucket, prefix []byte) error {
	type kept struct {
		key  []byte
		when uint64
	}
	var all []kept
	c := b.Cursor()
	for k, v := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, v = c.Next() {
		var when uint64
		if len(v) >= resultStamp {
			when = binary.BigEndian.Uint64(v)
		}
		all = append(all, kept{bytes.Clone(k), when})
	}
	for len(all) > MaxResultsPerRevision {
		oldest := 0
		for i := range all {
			if all[i].when < all[oldest].when {
				oldest = i
			}
		}
		if err := b.Delete(all[oldest].key); err != nil {
			return err
		}
		all = append(all[:oldest], all[oldest+1:]...)
	}
	return nil
}
