package store

// The store's layouts: the buckets of each version, the upgrades from one
// to the next, a new store's first transaction, and the marker that says
// which layout a file holds.

import (
	"errors"
	"fmt"
	"strconv"
	"time"

	bolt "go.etcd.io/bbolt"
)

// layoutBuckets lists the top-level buckets of each layout version.
var layoutBuckets = map[int][][]byte{
	1: {bucketMeta, bucketScenarios, bucketRevisions},
	2: {bucketMeta, bucketScenarios, bucketRevisions, bucketChecklists, bucketSettings, bucketCatalog},
	3: {bucketMeta, bucketScenarios, bucketRevisions, bucketChecklists, bucketSettings, bucketCatalog, bucketResults},
}

// upgrades[v] upgrades a store of layout v to layout v+1 inside the caller's
// transaction.
var upgrades = map[int]func(tx *bolt.Tx) error{
	1: func(tx *bolt.Tx) error { // 1 → 2: binary records, the state buckets
		for _, name := range [][]byte{bucketChecklists, bucketSettings, bucketCatalog} {
			if _, err := tx.CreateBucketIfNotExists(name); err != nil {
				return err
			}
		}
		// Collect first: a bucket must not be written while ForEach walks it.
		var ids []string
		err := tx.Bucket(bucketScenarios).ForEach(func(k, _ []byte) error {
			ids = append(ids, string(k))
			return nil
		})
		if err != nil {
			return err
		}
		for _, id := range ids {
			rec, _, err := getRecord(tx, id)
			if err != nil {
				return fmt.Errorf("scenario %q: %w", id, err)
			}
			if err := putRecord(tx, id, rec); err != nil { // fills in the hash
				return fmt.Errorf("scenario %q: %w", id, err)
			}
		}
		return nil
	},
	2: func(tx *bolt.Tx) error { // 2 → 3: the stored results
		_, err := tx.CreateBucketIfNotExists(bucketResults)
		return err
	},
}

// upgrade brings a valid store of an older layout to SchemaVersion in one
// transaction: all steps or none. A current store is not written to (an
// empty bbolt commit would still write a meta page).
func upgrade(db *bolt.DB) error {
	var v int
	err := db.View(func(tx *bolt.Tx) (err error) {
		v, err = layoutVersion(tx)
		return err
	})
	if err != nil || v >= SchemaVersion {
		return err
	}
	return db.Update(func(tx *bolt.Tx) error {
		for v := v; v < SchemaVersion; v++ {
			if err := upgrades[v](tx); err != nil {
				return fmt.Errorf("upgrade store layout %d to %d: %w", v, v+1, err)
			}
		}
		return tx.Bucket(bucketMeta).Put(keyVersion, []byte(strconv.Itoa(SchemaVersion)))
	})
}

// initStore writes the marker and the empty buckets of a new store.
func initStore(tx *bolt.Tx) error {
	meta, err := tx.CreateBucket(bucketMeta)
	if err != nil {
		return err
	}
	for k, v := range map[string]string{
		string(keyFormat):  formatMarker,
		string(keyVersion): strconv.Itoa(SchemaVersion),
		string(keyCreated): time.Now().UTC().Format(time.RFC3339),
	} {
		if err := meta.Put([]byte(k), []byte(v)); err != nil {
			return err
		}
	}
	for _, name := range layoutBuckets[SchemaVersion][1:] {
		if _, err := tx.CreateBucket(name); err != nil {
			return err
		}
	}
	return nil
}

// layoutVersion reads the store layout version from the meta bucket.
func layoutVersion(tx *bolt.Tx) (int, error) {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return 0, errors.New("it has no hostplan meta bucket")
	}
	b := meta.Get(keyVersion)
	v, err := strconv.Atoi(string(b))
	if err != nil || v < 1 {
		return 0, fmt.Errorf("its store version %s is not a version", quoteShort(b))
	}
	return v, nil
}

// checkMeta reports whether tx holds a hostplan store this build can read.
func checkMeta(tx *bolt.Tx) error {
	meta := tx.Bucket(bucketMeta)
	if meta == nil {
		return errors.New("it has no hostplan meta bucket")
	}
	if f := meta.Get(keyFormat); string(f) != formatMarker {
		return fmt.Errorf("its format marker is %s, want %q", quoteShort(f), formatMarker)
	}
	v, err := layoutVersion(tx)
	if err != nil {
		return err
	}
	if v > SchemaVersion {
		return fmt.Errorf("%w (store version %d, this build reads %d)", ErrNewer, v, SchemaVersion)
	}
	for _, name := range layoutBuckets[v] {
		if tx.Bucket(name) == nil {
			return fmt.Errorf("it has no %s bucket", name)
		}
	}
	return nil
}
