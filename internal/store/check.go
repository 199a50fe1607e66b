package store

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"runtime/debug"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/scenario"
)

// The bbolt file header, as laid out by go.etcd.io/bbolt v1.5.0
// (internal/common/page.go and meta.go): pages 0 and 1 each hold a 16-byte
// page header followed by a meta record in native byte order:
//
//	0 magic u32 | 4 version u32 | 8 pageSize u32 | 12 flags u32 |
//	16 root pgid u64 | 24 root sequence u64 | 32 freelist pgid u64 |
//	40 pgid (high-water mark) u64 | 48 txid u64 | 56 checksum u64
//
// The checksum is FNV-1a 64 over bytes 0–55.
const (
	boltMagic      = 0xED0CDAED
	boltVersion    = 2
	pageHeaderSize = 16
	metaSize       = 64
	noFreelist     = ^uint64(0) // common.PgidNoFreelist
	minPageSize    = 1024
)

// boltMeta is the part of a meta page that checkHeader needs.
type boltMeta struct {
	pageSize             uint32
	root, freelist, pgid uint64
	txid                 uint64
}

// parseMeta decodes the meta record of a page that starts at b[0]; ok is
// false when the page is not a valid bbolt meta page.
func parseMeta(b []byte) (m boltMeta, ok bool) {
	if len(b) < pageHeaderSize+metaSize {
		return m, false
	}
	r := b[pageHeaderSize : pageHeaderSize+metaSize]
	ne := binary.NativeEndian
	if ne.Uint32(r[0:]) != boltMagic || ne.Uint32(r[4:]) != boltVersion {
		return m, false
	}
	h := fnv.New64a()
	h.Write(r[:56])
	if h.Sum64() != ne.Uint64(r[56:]) {
		return m, false
	}
	return boltMeta{
		pageSize: ne.Uint32(r[8:]),
		root:     ne.Uint64(r[16:]),
		freelist: ne.Uint64(r[32:]),
		pgid:     ne.Uint64(r[40:]),
		txid:     ne.Uint64(r[48:]),
	}, true
}

// readAt reads up to n bytes at off; a short read at the end of the file is
// not an error.
func readAt(f *os.File, off int64, n int) ([]byte, error) {
	b := make([]byte, n)
	k, err := f.ReadAt(b, off)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b[:k], nil
}

// readMetas finds the meta pages the way bbolt's getPageSize and mmap do:
// page 0 at offset 0 gives the page size and page 1 follows it; if page 0 is
// damaged, page 1 is searched for at the page sizes bbolt supports.
func readMetas(f *os.File, size int64) (m0, m1 boltMeta, ok0, ok1 bool, err error) {
	b, err := readAt(f, 0, 0x1000)
	if err != nil {
		return m0, m1, false, false, err
	}
	m0, ok0 = parseMeta(b)
	if ok0 {
		b, err = readAt(f, int64(m0.pageSize), 0x1000)
		if err != nil {
			return m0, m1, ok0, false, err
		}
		m1, ok1 = parseMeta(b)
		return m0, m1, ok0, ok1, nil
	}
	for i := range 15 { // 1 KiB … 16 MiB, as bbolt's getPageSizeFromSecondMeta
		pos := int64(minPageSize) << i
		if pos >= size-minPageSize {
			break
		}
		if b, err = readAt(f, pos, 0x1000); err != nil {
			return m0, m1, false, false, err
		}
		if m1, ok1 = parseMeta(b); ok1 {
			break
		}
	}
	return m0, m1, false, ok1, nil
}

// checkHeader reads the bbolt meta pages of the file at path (without
// bbolt, which maps the file and would fault on a page past its end) and
// checks that the file is long enough for every page the meta page in use
// claims. A truncated store fails here. With deep set it then checks the
// page structure (walkPages), which needs the caller to hold bbolt's lock.
func checkHeader(path string, deep bool) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	size := fi.Size()
	m0, m1, ok0, ok1, err := readMetas(f, size)
	if err != nil {
		return err
	}
	// Pick the meta page bbolt would use (DB.meta): the valid one with the
	// higher transaction id.
	var m boltMeta
	switch {
	case ok0 && ok1 && m1.txid > m0.txid:
		m = m1
	case ok0:
		m = m0
	case ok1:
		m = m1
	default:
		return errors.New("it has no valid bbolt meta page")
	}
	ps := uint64(m.pageSize)
	if ps < minPageSize || ps&(ps-1) != 0 {
		return fmt.Errorf("its bbolt page size %d is not a power of two ≥ %d", ps, minPageSize)
	}
	if m.pgid < 2 || m.root >= m.pgid || (m.freelist >= m.pgid && m.freelist != noFreelist) {
		return fmt.Errorf("its bbolt meta page is inconsistent (root %d, freelist %d, high-water mark %d)", m.root, m.freelist, m.pgid)
	}
	if m.pgid > uint64(size)/ps {
		return fmt.Errorf("it is truncated: %d bytes, but its bbolt meta page claims %d pages of %d bytes", size, m.pgid, ps)
	}
	if !deep {
		return nil
	}
	if err := checkPages(f, m); err != nil {
		return fmt.Errorf("its bbolt pages are damaged: %w", err)
	}
	return nil
}

// verify reads the store marker of an open bbolt file. empty reports a bbolt
// file with no buckets at all (a store whose first write never happened).
// Faults and panics while reading a damaged file are returned as errors.
func verify(db *bolt.DB) (empty bool, err error) {
	err = guarded(func() error {
		return db.View(func(tx *bolt.Tx) error {
			if k, _ := tx.Cursor().First(); k == nil {
				empty = true
				return nil
			}
			return checkMeta(tx)
		})
	})
	return empty, err
}

// guarded runs f, turning a panic or a memory fault in the mapped file into
// an error.
func guarded(f func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("reading it failed: %v", r)
		}
	}()
	return f()
}

// maxBoltProblems caps the bbolt problems Check lists: one damaged page can
// produce thousands.
const maxBoltProblems = 20

// Check runs bbolt's consistency check and then verifies the store's own
// invariants in one read transaction, returning every problem found, or nil
// for a consistent store. The invariants: the meta bucket marks a hostplan
// store of a layout this build reads and holds that layout's buckets; every
// scenario record points at its last revision and its name and shape are
// that revision's; its revision keys run 1…current with no gap; each
// revision records its own number, its input hash matches its bytes, and the
// bytes decode (upgraded if of an older schema) to a scenario of that id;
// every revisions bucket and checklist belongs to a scenario record; stored
// checklists and catalog overrides are JSON. Check reads every revision, so
// it takes time in proportion to the file; Open does not run it.
func (s *Store) Check() []error {
	var problems []error
	add := func(format string, a ...any) { problems = append(problems, fmt.Errorf(format, a...)) }
	err := guarded(func() error {
		return s.db.View(func(tx *bolt.Tx) error {
			n := 0
			for err := range tx.Check() { // drained to the end: its goroutine uses tx
				if n < maxBoltProblems {
					add("bbolt consistency check: %w", err)
				}
				n++
			}
			if n > maxBoltProblems {
				add("bbolt consistency check: %d more problems", n-maxBoltProblems)
			}
			if n > 0 {
				return nil // the pages are damaged; reading records from them would mislead
			}
			if err := checkMeta(tx); err != nil {
				add("%w", err)
				return nil
			}
			checkInvariants(tx, add)
			return nil
		})
	})
	if err != nil {
		problems = append(problems, err)
	}
	return problems
}

// checkInvariants reports every broken store invariant of tx through add.
func checkInvariants(tx *bolt.Tx, add func(format string, a ...any)) {
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
		b := revisions.Bucket(k)
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
			add("scenario %q: its record says %q (%s), its current revision %q (%s)", id, rec.Name, rec.Shape, last.Name, last.Workload.Shape)
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
	if b := tx.Bucket(bucketChecklists); b != nil {
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
	if b := tx.Bucket(bucketCatalog); b != nil {
		if v := b.Get(keyOverrides); v != nil && !json.Valid(v) {
			add("catalog overrides: %v", ErrNotJSON)
		}
	}
}
