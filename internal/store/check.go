package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"runtime"
	"slices"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/scenario"
)

// checkFile checks an open bbolt file before the store uses it: the file
// is as long as the pages its bbolt header claims (bbolt itself does not
// check this, and would fault on the first page past the end of a
// truncated file), and it carries the hostplan marker (verify). empty
// reports a bbolt file with no buckets at all (a store whose first write
// never happened); broken, the top-level buckets whose page trees are
// damaged (checkStructure).
func checkFile(db *bolt.DB, path string) (empty bool, broken map[string]error, err error) {
	if err := checkLength(db, path); err != nil {
		return false, nil, err
	}
	return verify(db)
}

// checkLength reports a file shorter than its bbolt header claims: a copy
// cut short, a file truncated by another program. Starting a transaction
// reads only the header, which bbolt has already validated.
func checkLength(db *bolt.DB, path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	return db.View(func(tx *bolt.Tx) error {
		if need := tx.Size(); fi.Size() < need {
			return fmt.Errorf("it is truncated: %d bytes, but its bbolt header claims %d", fi.Size(), need)
		}
		return nil
	})
}

// verify checks the page trees of an open bbolt file (checkStructure) and
// reads the store marker, which needs the tree of the top-level buckets and
// the meta bucket sound. empty reports a bbolt file with no buckets at all;
// broken, the other top-level buckets whose trees are damaged. Faults and
// panics while reading a damaged file are returned as errors.
func verify(db *bolt.DB) (empty bool, broken map[string]error, err error) {
	err = guarded(func() error {
		return db.View(func(tx *bolt.Tx) error {
			var err error
			if broken, err = checkStructure(tx); err != nil {
				return err
			}
			if err := broken[string(bucketMeta)]; err != nil {
				return fmt.Errorf("its meta bucket: %w", err)
			}
			if k, _ := tx.Cursor().First(); k == nil {
				empty = true
				return nil
			}
			return checkMeta(tx)
		})
	})
	return empty, broken, err
}

// findDamage reports what makes writing to an open store unsafe, which
// Open looks for before it writes: a page whose header claims overflow pages
// past the end of the file (overflowWithin: freeing it would take minutes),
// and a scenario record that does not decode (every save, delete and list
// reads the records). It reads every record, as List does. (Damage to the
// page trees, which a write would copy, Open has found before:
// checkStructure.)
func findDamage(db *bolt.DB) error {
	return db.View(func(tx *bolt.Tx) error {
		if err := overflowWithin(tx); err != nil {
			return err
		}
		return tx.Bucket(bucketScenarios).ForEach(func(k, v []byte) error {
			if v == nil {
				return fmt.Errorf("scenario %q: a bucket where its record should be", k)
			}
			if _, err := decodeRecord(v); err != nil {
				return fmt.Errorf("scenario %q: its record is not readable: %v", k, err)
			}
			return nil
		})
	})
}

// maxBoltProblems caps the bbolt problems Check lists: one damaged page can
// produce thousands.
const maxBoltProblems = 20

// Check reads the whole store, runs bbolt's consistency check (Tx.Check)
// and then verifies the store's own invariants, in one read transaction,
// returning every problem found, or nil for a consistent store. bbolt's
// check finds, among others, pages bbolt lost track of ("unreachable
// unfreed": leaked pages, which waste space and harm nothing else), pages
// referenced twice or both used and free, and keys out of order. The
// invariants: the meta bucket marks a hostplan store of a layout this build
// reads and holds that layout's buckets; every scenario record points at
// its last revision and its name and shape are that revision's; its
// revision keys run 1…current with no gap; each revision records its own
// number, its input hash matches its bytes, and the bytes decode (upgraded
// if of an older schema) to a scenario of that id; every revisions bucket
// and checklist belongs to a scenario record; stored checklists and catalog
// overrides are JSON. They are checked also when bbolt found problems: they
// say what the store's readers get from the file.
//
// A meta page whose magic, version or checksum is bad is reported too
// (damagedMeta): bbolt reads the other one without a word.
//
// If reading the store panics or faults, Check reports that and does not
// run Tx.Check, which could end the program on the same damage (see
// guard.go). Check reads every revision, so it takes time in proportion to
// the file; Open does not run it. The store may be read-only.
func (s *Store) Check() []error {
	var problems []error
	add := func(format string, a ...any) { problems = append(problems, fmt.Errorf(format, a...)) }
	for _, name := range slices.Sorted(maps.Keys(s.broken)) {
		add("its %s bucket: %w", name, s.broken[name])
	}
	err := s.db.View(func(tx *bolt.Tx) error {
		if metas, err := damagedMeta(tx.DB()); err != nil {
			add("its meta pages: %w", err)
		} else {
			for _, m := range metas {
				add("%s. The store reads as of that transaction and no page is lost, but it has one meta page left: back it up (hostplan store backup NEW.db, which checks the copy) and put the copy in the store's place", m)
			}
		}
		if err := guarded(func() error { return readAll(tx, s.broken) }); err != nil {
			add("the store cannot be read, so bbolt's consistency check did not run (it could end the program on such damage): %w", err)
			return nil
		}
		switch {
		case s.freelistErr != nil:
			add("bbolt cannot load its freelist (%w), so bbolt's consistency check did not run", s.freelistErr)
		case len(s.broken) > 0:
			add("bbolt's consistency check did not run: it would read the damaged buckets' pages for ever")
		default:
			if err := guarded(func() error { return pagesWithin(tx) }); err != nil {
				add("%w, so bbolt's consistency check did not run (it would take as long as that many pages)", err)
			} else {
				boltCheck(tx, add)
			}
		}
		err := guarded(func() error {
			if err := checkMeta(tx); err != nil {
				add("%w", err)
				return nil
			}
			checkInvariants(tx, add, s.broken)
			return nil
		})
		if err != nil {
			add("checking the store's records: %w", err)
		}
		return nil
	})
	if err != nil {
		problems = append(problems, err)
	}
	return problems
}

// pagesWithin reports page headers whose overflow counts claim more pages
// than the file holds. Tx.Check marks every page of a page's overflow as
// reachable, one at a time, so a damaged count (up to four billion) would
// keep it busy for minutes and fill memory with its map. The pages of the
// buckets, counted with their overflow (Bucket.Stats, which reads the pages
// Tx.Check's walk reads, and which readAll has read without fault before),
// must fit in the file, and so must every page (overflowWithin).
func pagesWithin(tx *bolt.Tx) error {
	all := tx.Size() / int64(tx.DB().Info().PageSize)
	st := tx.Cursor().Bucket().Stats()
	if used := st.BranchPageN + st.BranchOverflowN + st.LeafPageN + st.LeafOverflowN; used < 0 || int64(used) > all {
		return fmt.Errorf("its buckets' pages and the overflow pages their headers claim come to %d pages, more than the %d of the file: a page header is damaged", used, all)
	}
	return overflowWithin(tx)
}

// overflowWithin reports a page whose header claims overflow pages past the
// end of the file. When a write replaces a page, bbolt frees it and its
// overflow pages one by one, and each commit frees the freelist page it
// replaces: a damaged count there makes a write run for minutes. The walk
// reads bbolt's page information (Tx.Page) from page to page: from each
// page in use to the one after its overflow, and from each free page to
// the next, which in a sound file are exactly the pages that begin a run.
// It needs the freelist, which a store opened for writing has loaded.
func overflowWithin(tx *bolt.Tx) error {
	all := tx.Size() / int64(tx.DB().Info().PageSize)
	for id := int64(2); id < all; {
		p, err := tx.Page(int(id))
		if err != nil || p == nil {
			return err
		}
		if p.Type == "free" {
			id++
			continue
		}
		end := id + int64(p.OverflowCount)
		if end >= all {
			return fmt.Errorf("its page %d (%s) claims %d overflow pages, past the end of the file (%d pages): its header is damaged", id, p.Type, p.OverflowCount, all)
		}
		id = end + 1
	}
	return nil
}

// boltCheck runs bbolt's Tx.Check and reports its first maxBoltProblems
// problems through add.
func boltCheck(tx *bolt.Tx, add func(format string, a ...any)) {
	n := 0
	for err := range tx.Check(bolt.WithKVStringer(shortHex{})) { // drained to the end: its goroutine uses tx
		if n < maxBoltProblems {
			add("bbolt consistency check: %w", err)
		}
		n++
	}
	if n > maxBoltProblems {
		add("bbolt consistency check: %d more problems", n-maxBoltProblems)
	}
}

// shortHex shows keys and values in Tx.Check's messages as hex of at most
// 32 bytes. bbolt's own stringer encodes the whole key, which on a damaged
// page can claim gigabytes.
type shortHex struct{}

func (shortHex) KeyToString(b []byte) string   { return shortHexString(b) }
func (shortHex) ValueToString(b []byte) string { return shortHexString(b) }

func shortHexString(b []byte) string {
	if len(b) > 32 {
		return hex.EncodeToString(b[:32]) + fmt.Sprintf("…(%d bytes)", len(b))
	}
	return hex.EncodeToString(b)
}

// quoteShort quotes a value read from the file, at most 32 bytes of it.
func quoteShort(b []byte) string {
	if len(b) > 32 {
		return fmt.Sprintf("%q…(%d bytes)", b[:32], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// readAll reads the whole store through bbolt's cursors in the calling
// goroutine, so that the pages Tx.Check reads in its own goroutine are read
// here first, where guarded catches a fault (see guard.go). It visits every
// key and value of every bucket, nested ones included: each is touched at
// both ends and every 512 bytes between (less than any page), so every page
// a value spans is read. It also seeks every key, which compares it with
// the keys of the branch pages on its path: a seek for the first key below
// a branch element compares that element's key, which a cursor walking the
// tree does not read and Tx.Check's key-order check does. It leaves out
// the top-level buckets in broken, and checks the page tree of every bucket
// inside one before it walks it (subBucketSound).
func readAll(tx *bolt.Tx, broken map[string]error) error {
	var sum byte
	touch := func(b []byte) {
		for i := 0; i < len(b); i += 512 {
			sum += b[i]
		}
		if len(b) > 0 {
			sum += b[len(b)-1]
		}
	}
	var walk func(b *bolt.Bucket, top bool) error
	walk = func(b *bolt.Bucket, top bool) error {
		c, seek := b.Cursor(), b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			if top && broken[string(k)] != nil {
				continue
			}
			touch(k)
			seek.Seek(k)
			if v != nil {
				touch(v)
			} else if nested := b.Bucket(k); nested != nil {
				if !top {
					if err := subBucketSound(tx, nested); err != nil {
						return fmt.Errorf("bucket %s: %w", quoteShort(k), err)
					}
				}
				if err := walk(nested, false); err != nil {
					return err
				}
			}
		}
		return nil
	}
	err := walk(tx.Cursor().Bucket(), true) // the root bucket, which holds the top-level buckets
	runtime.KeepAlive(sum)                  // the reads are the point
	return err
}

// checkInvariants reports every broken store invariant of tx through add,
// leaving out what needs a top-level bucket in broken.
func checkInvariants(tx *bolt.Tx, add func(format string, a ...any), broken map[string]error) {
	for _, name := range [][]byte{bucketScenarios, bucketRevisions} {
		if broken[string(name)] != nil {
			return // every invariant left needs the scenarios
		}
	}
	scenarios := tx.Bucket(bucketScenarios)
	revisions := tx.Bucket(bucketRevisions)
	_ = scenarios.ForEach(func(k, v []byte) error {
		id := string(k)
		if v == nil {
			add("scenario %q: a bucket where its record should be", id)
			return nil
		}
		rec, err := decodeRecord(v)
		if err != nil {
			add("scenario %q: its record is not readable: %v", id, err)
			return nil
		}
		b, err := revisionsOf(tx, k)
		if err != nil {
			add("scenario %q revisions: %w", id, err)
			return nil
		}
		if b == nil {
			add("scenario %q: it has no revisions", id)
			return nil
		}
		want := 1
		var (
			last     *scenario.Scenario
			lastHash string
		)
		_ = b.ForEach(func(rk, rv []byte) error {
			if len(rk) != 4 || rv == nil {
				add("scenario %q: revisions bucket holds a key %x that is not a revision", id, rk)
				return nil
			}
			n := int(binary.BigEndian.Uint32(rk))
			if n != want {
				add("scenario %q: revision %d follows revision %d", id, n, want-1)
			}
			want = n + 1
			var rr revisionRecord
			if err := json.Unmarshal(rv, &rr); err != nil {
				add("scenario %q revision %d: its record is not readable: %v", id, n, err)
				return nil
			}
			if rr.Number != n {
				add("scenario %q revision %d: it records number %d", id, n, rr.Number)
			}
			sum := sha256.Sum256([]byte(rr.Scenario))
			if hex.EncodeToString(sum[:]) != rr.InputHash {
				add("scenario %q revision %d: its input hash does not match its bytes", id, n)
			}
			lastHash = rr.InputHash
			sc, err := decode(rr)
			if err != nil {
				add("scenario %q: %v", id, err)
				last = nil
				return nil
			}
			if sc.ID != id {
				add("scenario %q revision %d: it holds scenario %q", id, n, sc.ID)
			}
			last = sc
			return nil
		})
		switch {
		case rec.Current != want-1:
			add("scenario %q: its current revision is %d, but its last revision is %d", id, rec.Current, want-1)
		case rec.Hash != "" && rec.Hash != lastHash: // "" in a layout 1 record
			add("scenario %q: its record's input hash is not its current revision's", id)
		case last != nil && (last.Name != rec.Name || last.Workload.Shape != rec.Shape):
			add("scenario %q: its record says %q (%q), its current revision %q (%q)", id, rec.Name, rec.Shape, last.Name, last.Workload.Shape)
		}
		return nil
	})
	_ = revisions.ForEach(func(k, v []byte) error {
		if v != nil {
			add("revisions bucket: key %q is not a scenario's bucket", k)
		} else if scenarios.Get(k) == nil {
			add("scenario %q: it has revisions but no record", k)
		}
		return nil
	})
	if b := tx.Bucket(bucketChecklists); b != nil && broken[string(bucketChecklists)] == nil {
		_ = b.ForEach(func(k, v []byte) error {
			if scenarios.Get(k) == nil {
				add("checklist of scenario %q: there is no such scenario", k)
			}
			if !json.Valid(v) {
				add("checklist of scenario %q: %v", k, ErrNotJSON)
			}
			return nil
		})
	}
	if b := tx.Bucket(bucketResults); b != nil && broken[string(bucketResults)] == nil {
		_ = b.ForEach(func(k, v []byte) error {
			if len(k) <= 64 || len(v) <= resultStamp {
				add("results bucket: key %x… is not a stored result", k[:min(len(k), 8)])
			}
			return nil
		})
	}
	if b := tx.Bucket(bucketCatalog); b != nil && broken[string(bucketCatalog)] == nil {
		if v := b.Get(keyOverrides); v != nil && !json.Valid(v) {
			add("catalog overrides: %v", ErrNotJSON)
		}
	}
}
