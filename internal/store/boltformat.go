package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"os"
	"sync"

	bolt "go.etcd.io/bbolt"
)

// Page trees.
//
// bbolt follows a branch page's elements down to the pages they name, and
// checks that each of those names itself, but not that the tree leads
// down: an element naming the page itself or one of its ancestors makes a
// cursor's First descend for ever, its stack of pages growing until memory
// runs out, and a search recurse until the goroutine's stack overflows,
// which ends the program (no recover catches that). Nor does it check that
// an element's key and value lie within its page: it copies a bucket's
// value of the size the element claims when it opens the bucket (when the
// value is not aligned), and a write copies every key and value of a page
// it changes, so a size of gigabytes is copied and written to the file.
// And it keeps a small bucket inline, its one leaf page inside the bucket's
// value, whose cursor reads any other page as a branch whose elements all
// lead back to that page.
//
// So the store checks the page trees before bbolt reads them. Open checks
// the tree that holds the top-level buckets (a store whose tree or meta
// bucket is damaged is not one: its marker cannot be read) and each
// top-level bucket's tree or inline page (checkStructure): a damaged
// bucket opens the store read-only, and every method that reads that
// bucket returns the damage (Store.readable). A scenario's revisions
// bucket, with pages of its own, is checked when it is opened
// (revisionsOf); Check checks every bucket it walks (readAll).
//
// bbolt's API cannot say where a branch element points, so this file is the
// one place the package reads bbolt's format itself: page headers (page id,
// flags, element count, overflow count), branch elements (key position,
// key size, page id), leaf elements (flags, key position, key size, value
// size), a bucket's header (root page, sequence), and for the freelist
// (below) the meta pages and the freelist page, in the machine's byte order
// as bbolt writes them, read from the file with read(2). The pages of a
// tree are not rewritten while a transaction that can reach them is open,
// so what the file holds is what the transaction sees.

// boltFormatModule at boltFormatVersion is the bbolt whose file format
// this file reads. The format is not part of bbolt's API: when go.mod moves
// bbolt to another version, TestBoltFormatVersion fails until the layout
// above and below has been checked against that version's page.go,
// node.go, bucket.go and meta code (internal/common) and this version
// moved with it.
const (
	boltFormatModule  = "go.etcd.io/bbolt"
	boltFormatVersion = "v1.5.0"
)

const (
	pageHeaderSize  = 16
	elementSize     = 16 // a branch or a leaf element
	branchPageFlag  = 0x01
	leafPageFlag    = 0x02
	bucketLeafFlag  = 0x01 // a leaf element that holds a bucket
	bucketHeaderLen = 16   // a bucket's value: its root page and sequence, then an inline bucket's page
)

// pageFile reads the pages of the file a transaction reads.
type pageFile struct {
	f      *os.File
	shared bool   // f is the store's (pageFiles), not this pageFile's to close
	ps     uint64 // the page size
	pages  uint64 // the high-water mark: the file's pages are 0 to pages-1
}

// pageFiles holds, for the bbolt file of each open Store, the handle its
// page checks read through (sharePages, unsharePages): opening the file
// for every revisions bucket a reader opens cost five system calls a
// scenario (a reprice of 10,000 opened the file 6,700 times). ReadAt is
// safe for concurrent use.
var pageFiles sync.Map // *bolt.DB → *os.File

// sharePages opens the handle the page checks of db share; without one
// (the file cannot be opened again) each check opens the file itself.
func sharePages(db *bolt.DB) {
	if f, err := os.Open(db.Path()); err == nil {
		pageFiles.Store(db, f)
	}
}

// unsharePages closes db's shared handle; db is closed, so no transaction
// reads through it any more.
func unsharePages(db *bolt.DB) {
	if f, ok := pageFiles.LoadAndDelete(db); ok {
		_ = f.(*os.File).Close()
	}
}

func openPages(tx *bolt.Tx) (*pageFile, error) {
	ps := uint64(tx.DB().Info().PageSize)
	pf := &pageFile{ps: ps, pages: uint64(tx.Size()) / ps}
	if f, ok := pageFiles.Load(tx.DB()); ok {
		pf.f, pf.shared = f.(*os.File), true
		return pf, nil
	}
	f, err := os.Open(tx.DB().Path())
	if err != nil {
		return nil, err
	}
	pf.f = f
	return pf, nil
}

func (pf *pageFile) close() {
	if !pf.shared {
		_ = pf.f.Close()
	}
}

// bucketFunc is given each leaf element that holds a bucket: its key and
// its value (the bucket's header, and an inline bucket's page).
type bucketFunc func(k, v []byte) error

// tree reads the page tree rooted at page root, each page once with its
// overflow, and returns a *faultError at the first page that lies outside
// the file (pages 0 and 1 are bbolt's meta pages), is in the tree already,
// does not name itself, claims overflow pages past the end of the file, or
// is not sound (pageSound). Each element that holds a bucket goes to
// bucket; with a nil bucket, an inline bucket's page must be sound
// (inlineSound).
func (pf *pageFile) tree(root uint64, bucket bucketFunc) error {
	if bucket == nil {
		bucket = func(_, v []byte) error { return inlineSound(v) }
	}
	seen := map[uint64]bool{}
	todo := []uint64{root}
	var (
		hdr [pageHeaderSize]byte
		buf []byte
	)
	for len(todo) > 0 {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		switch {
		case id < 2 || id >= pf.pages:
			return damagef("a page tree names page %d, outside the file (pages 2 to %d)", id, pf.pages-1)
		case seen[id]:
			return damagef("page %d is named twice in one page tree (a branch leads back up)", id)
		}
		seen[id] = true
		if _, err := pf.f.ReadAt(hdr[:], int64(id*pf.ps)); err != nil {
			return damagef("page %d: %v", id, err)
		}
		if self := binary.NativeEndian.Uint64(hdr[0:]); self != id {
			return damagef("page %d names itself page %d", id, self)
		}
		overflow := uint64(binary.NativeEndian.Uint32(hdr[12:]))
		if overflow >= pf.pages-id {
			return damagef("page %d claims %d overflow pages, past the end of the file (%d pages)", id, overflow, pf.pages)
		}
		buf = append(buf[:0], make([]byte, (1+overflow)*pf.ps)...)
		if _, err := pf.f.ReadAt(buf, int64(id*pf.ps)); err != nil {
			return damagef("page %d: %v", id, err)
		}
		children, err := pageSound(buf, bucket)
		if err != nil {
			return damagef("page %d: %v", id, err)
		}
		todo = append(todo, children...)
	}
	return nil
}

// pageSound checks a branch or leaf page p (with its overflow, or an
// inline bucket's page) and returns the pages a branch names: a branch has
// elements, every element lies within p, and so does its key and value (an
// element's key starts at its position, counted from the element). An
// element that holds a bucket holds at least a bucket's header, and goes
// to bucket.
func pageSound(p []byte, bucket bucketFunc) (children []uint64, err error) {
	if len(p) < pageHeaderSize {
		return nil, fmt.Errorf("a page of %d bytes, too short for its header", len(p))
	}
	flags := binary.NativeEndian.Uint16(p[8:])
	count := int(binary.NativeEndian.Uint16(p[10:]))
	switch {
	case flags != branchPageFlag && flags != leafPageFlag:
		return nil, fmt.Errorf("it is neither a branch nor a leaf page (flags %#x)", flags)
	case flags == branchPageFlag && count == 0:
		return nil, errors.New("a branch page without elements")
	case pageHeaderSize+count*elementSize > len(p):
		return nil, fmt.Errorf("its %d elements do not fit in the page", count)
	}
	for i := range count {
		at := pageHeaderSize + i*elementSize
		e := p[at:]
		if flags == branchPageFlag { // position, key size, page
			pos, ksize := uint64(binary.NativeEndian.Uint32(e[0:])), uint64(binary.NativeEndian.Uint32(e[4:]))
			if uint64(at)+pos+ksize > uint64(len(p)) {
				return nil, fmt.Errorf("the key of element %d (%d bytes) lies past the end of the page", i, ksize)
			}
			children = append(children, binary.NativeEndian.Uint64(e[8:]))
			continue
		}
		// flags, position, key size, value size
		pos, ksize, vsize := uint64(binary.NativeEndian.Uint32(e[4:])), uint64(binary.NativeEndian.Uint32(e[8:])), uint64(binary.NativeEndian.Uint32(e[12:]))
		start := uint64(at) + pos
		if start+ksize+vsize > uint64(len(p)) {
			return nil, fmt.Errorf("the key and value of element %d (%d and %d bytes) lie past the end of the page", i, ksize, vsize)
		}
		if binary.NativeEndian.Uint32(e[0:])&bucketLeafFlag == 0 {
			continue
		}
		if vsize < bucketHeaderLen {
			return nil, fmt.Errorf("element %d holds a bucket of %d bytes, too short for its header", i, vsize)
		}
		if err := bucket(p[start:start+ksize], p[start+ksize:start+ksize+vsize]); err != nil {
			return nil, fmt.Errorf("element %d: %v", i, err)
		}
	}
	return children, nil
}

// inlineSound checks the page of an inline bucket (a bucket whose root
// page, in its header, is 0; v is the bucket's value): a sound leaf page
// holding no buckets, as bbolt keeps only those inline.
func inlineSound(v []byte) error {
	if binary.NativeEndian.Uint64(v) != 0 {
		return nil // a bucket with pages of its own
	}
	p := v[bucketHeaderLen:]
	if len(p) >= pageHeaderSize && binary.NativeEndian.Uint16(p[8:]) != leafPageFlag {
		return errors.New("an inline bucket whose page is not a leaf page")
	}
	_, err := pageSound(p, func(_, _ []byte) error { return errors.New("an inline bucket holds a bucket") })
	if err != nil {
		return fmt.Errorf("an inline bucket: %v", err)
	}
	return nil
}

// checkStructure checks the page tree that holds the top-level buckets
// (which must hold buckets only) and returns a *faultError if it is
// damaged; then each top-level bucket's own tree or inline page, and
// returns the damage of each damaged one by name.
func checkStructure(tx *bolt.Tx) (broken map[string]error, err error) {
	pf, err := openPages(tx)
	if err != nil {
		return nil, err
	}
	defer pf.close()
	tops := map[string][]byte{}
	err = pf.tree(uint64(tx.Cursor().Bucket().Root()), func(k, v []byte) error {
		tops[string(k)] = bytes.Clone(v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	n := 0
	c := tx.Cursor()
	for k, _ := c.First(); k != nil; k, _ = c.Next() {
		n++
	}
	if n != len(tops) {
		return nil, damagef("the page tree of the top-level buckets holds %d entries, %d of them buckets with names of their own", n, len(tops))
	}
	for name, v := range tops {
		var err error
		if root := binary.NativeEndian.Uint64(v); root == 0 {
			if err = inlineSound(v); err != nil {
				err = damagef("%v", err)
			}
		} else {
			err = pf.tree(root, nil)
		}
		if err != nil {
			if broken == nil {
				broken = map[string]error{}
			}
			broken[name] = err
		}
	}
	return broken, nil
}

// subBucketSound checks the page tree of b, a bucket inside a top-level
// bucket, if it has pages of its own (an inline one was checked with its
// parent's page).
func subBucketSound(tx *bolt.Tx, b *bolt.Bucket) error {
	if b.Root() == 0 {
		return nil
	}
	pf, err := openPages(tx)
	if err != nil {
		return err
	}
	defer pf.close()
	return pf.tree(uint64(b.Root()), nil)
}

// The freelist.
//
// bbolt loads its list of free pages when it opens a file for writing, and
// for reading when asked to (the store asks, so that Check's Tx.Check does
// not load it in a goroutine where a fault ends the program). It trusts the
// freelist page the meta page names: a damaged one makes it panic or
// fault inside bolt.Open, which leaves the file mapped for as long as the
// program runs (bbolt never gets to unmap it, and the caller never gets the
// DB that could; the file's space is not freed either), and a free page
// outside the file would be written to. So Open reads the freelist first
// (freelistSound) and lets bbolt load only a sound one.

const (
	metaMagic        = 0xED0CDAED
	metaVersion      = 2
	noFreelist       = ^uint64(0) // a meta page of a file that keeps no freelist
	freelistPageFlag = 0x10
)

// metaPage is what the store needs of the meta page bbolt reads.
type metaPage struct{ freelist, pages, txid uint64 }

// readMeta returns the meta page bbolt reads from a file of ps-byte pages:
// of the two (pages 0 and 1) that are valid (bbolt's magic and version, and
// the FNV-1a checksum of the fields before it), the one with the higher
// transaction id, the first on a tie. The fields follow the page header:
// magic, version, page size, flags (uint32 each), the root bucket (page,
// sequence), the freelist page, the high-water page, the transaction id and
// the checksum (uint64 each). bad says, for each of the two, why it is not
// valid ("" for a valid one).
func readMeta(f io.ReaderAt, ps uint64) (best metaPage, found bool, bad [2]string) {
	var buf [pageHeaderSize + 64]byte
	for id := range uint64(2) {
		if _, err := f.ReadAt(buf[:], int64(id*ps)); err != nil {
			bad[id] = fmt.Sprintf("it cannot be read (%v)", unwrapPath(err))
			continue
		}
		m := buf[pageHeaderSize:]
		h := fnv.New64a()
		h.Write(m[:56])
		switch {
		case binary.NativeEndian.Uint32(m[0:]) != metaMagic:
			bad[id] = fmt.Sprintf("its magic number is %#x, not bbolt's %#x", binary.NativeEndian.Uint32(m[0:]), metaMagic)
		case binary.NativeEndian.Uint32(m[4:]) != metaVersion:
			bad[id] = fmt.Sprintf("its format version is %d, not %d", binary.NativeEndian.Uint32(m[4:]), metaVersion)
		case binary.NativeEndian.Uint64(m[56:]) != h.Sum64():
			bad[id] = "its checksum does not match its content"
		}
		if bad[id] != "" {
			continue
		}
		mp := metaPage{freelist: binary.NativeEndian.Uint64(m[32:]), pages: binary.NativeEndian.Uint64(m[40:]), txid: binary.NativeEndian.Uint64(m[48:])}
		if !found || mp.txid > best.txid {
			best, found = mp, true
		}
	}
	return best, found, bad
}

// damagedMeta describes each damaged meta page of the file db has open,
// with the transaction of the valid one bbolt reads instead; nil when
// both are valid. bbolt falls back to the other meta page silently, so the
// store reads and writes as before, but a second fault would leave none.
func damagedMeta(db *bolt.DB) ([]string, error) {
	f, err := os.Open(db.Path())
	if err != nil {
		return nil, err
	}
	defer f.Close()
	m, ok, bad := readMeta(f, uint64(db.Info().PageSize))
	if !ok {
		return nil, damagef("neither meta page is valid")
	}
	var out []string
	for id, why := range bad {
		if why != "" {
			out = append(out, fmt.Sprintf("its meta page %d is damaged: %s; bbolt reads meta page %d (transaction %d) instead", id, why, 1-id, m.txid))
		}
	}
	return out, nil
}

// freelistSound returns a *faultError unless the freelist that bbolt would
// load from the file db has open is one it can load and use: the page the
// meta page names lies in the file, is a freelist page and names itself,
// its list of page ids (after the header; after a count in its first
// eight bytes when the header's count is 0xFFFF) ends within the page and
// its overflow and within the file, and every page it lists is one of the
// file's, not a meta page.
func freelistSound(db *bolt.DB) error {
	f, err := os.Open(db.Path())
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	ps := uint64(db.Info().PageSize)
	m, ok, _ := readMeta(f, ps)
	switch {
	case !ok:
		return damagef("neither meta page is valid")
	case m.pages > uint64(fi.Size())/ps:
		return damagef("it is truncated: %d bytes, but its meta page claims %d pages of %d", fi.Size(), m.pages, ps)
	case m.freelist == noFreelist:
		return damagef("the file keeps no freelist (bbolt would rebuild it by reading every page)")
	case m.freelist < 2 || m.freelist >= m.pages:
		return damagef("its freelist is page %d, outside the file (pages 2 to %d)", m.freelist, m.pages-1)
	}
	var hdr [pageHeaderSize + 8]byte
	if _, err := f.ReadAt(hdr[:], int64(m.freelist*ps)); err != nil {
		return damagef("its freelist, page %d: %v", m.freelist, err)
	}
	self := binary.NativeEndian.Uint64(hdr[0:])
	flags := binary.NativeEndian.Uint16(hdr[8:])
	first, n := uint64(0), uint64(binary.NativeEndian.Uint16(hdr[10:]))
	overflow := uint64(binary.NativeEndian.Uint32(hdr[12:]))
	if n == 0xFFFF {
		first, n = 1, binary.NativeEndian.Uint64(hdr[pageHeaderSize:])
	}
	switch {
	case self != m.freelist || flags != freelistPageFlag:
		return damagef("its freelist, page %d, is not a freelist page (it names itself page %d, flags %#x)", m.freelist, self, flags)
	case n > m.pages*ps/8 || (first+n)*8 > (1+overflow)*ps-pageHeaderSize || m.freelist+1+overflow > m.pages:
		return damagef("its freelist, page %d, claims %d free pages, more than it or the file holds", m.freelist, n)
	}
	ids := make([]byte, n*8)
	if _, err := f.ReadAt(ids, int64(m.freelist*ps+pageHeaderSize+first*8)); err != nil {
		return damagef("its freelist, page %d: %v", m.freelist, err)
	}
	for i := range n {
		if id := binary.NativeEndian.Uint64(ids[i*8:]); id < 2 || id >= m.pages {
			return damagef("its freelist lists page %d as free, outside the file (pages 2 to %d)", id, m.pages-1)
		}
	}
	return nil
}
