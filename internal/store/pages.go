package store

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
)

// walkPages is the page-structure part of bbolt's Tx.Check, done on the
// file's bytes rather than through bbolt, and fast enough to run on every
// Open: one pass over the pages with two bitsets, no maps, no bucket
// objects and no key-order pass (on 10,000 scenarios with 50,000 revisions
// it takes about a third of Tx.Check's time, most of it the page faults of
// touching each page once). It reports the damage that makes writing to a
// file unsafe:
//
//   - a page reachable from the root bucket that is not a branch or leaf
//     page, does not name itself, lies past the high-water mark, or is
//     referenced twice;
//   - an element (key, value, child) that points outside its page;
//   - a freelist that lists a page twice, a page in use or a page past the
//     mark, and a page below the mark that is neither reachable nor free
//     (when the file keeps a freelist);
//
// bbolt would otherwise hand a page that is still in use to the next write,
// or fault on a page past the end. Key order is not checked; Store.Check
// runs bbolt's full check.
//
// The layout, as go.etcd.io/bbolt v1.5.0 writes it (internal/common): a page
// starts with a 16-byte header, id u64 | flags u16 | count u16 | overflow
// u32, in native byte order, and spans 1+overflow pages. A branch page holds
// count elements pos u32 | ksize u32 | pgid u64; a leaf page count elements
// flags u32 | pos u32 | ksize u32 | vsize u32; pos counts from the element.
// A leaf element with flag bucketLeafFlag is a bucket: its value starts with
// root pgid u64 | sequence u64 and, when root is 0, an inline leaf page
// follows. A freelist page lists count page ids u64, or, when count is
// 0xFFFF, the first u64 is the count.
const (
	branchPageFlag   = 0x01
	leafPageFlag     = 0x02
	freelistPageFlag = 0x10
	bucketLeafFlag   = 0x01
	elementSize      = 16
	bucketHeaderSize = 16
)

// where names what a page belongs to in a problem: the root bucket, the
// freelist or a bucket by its key (formatted only when there is a problem).
type where struct {
	kind string // "root bucket", "freelist" or "bucket"
	key  []byte
}

func (x where) String() string {
	if x.kind == "bucket" {
		return fmt.Sprintf("bucket %q", x.key)
	}
	return x.kind
}

type pageWalker struct {
	data     []byte // the file, at least m.pgid pages
	m        boltMeta
	ps       uint64
	used     []uint64 // bitset: reachable pages (the metas and the freelist included)
	free     []uint64 // bitset: pages on the freelist
	problems []error
}

func (w *pageWalker) problem(format string, a ...any) {
	if len(w.problems) < maxBoltProblems {
		w.problems = append(w.problems, fmt.Errorf(format, a...))
	}
}

func has(set []uint64, i uint64) bool { return set[i/64]&(1<<(i%64)) != 0 }
func put(set []uint64, i uint64)      { set[i/64] |= 1 << (i % 64) }

// walkPages checks the page structure of a bbolt file's bytes, data, whose
// meta page in use is m (checkHeader has checked m and that data holds
// every page below its high-water mark).
func walkPages(data []byte, m boltMeta) error {
	w := &pageWalker{data: data, m: m, ps: uint64(m.pageSize)}
	if uint64(len(data)) < m.pgid*w.ps {
		return fmt.Errorf("%d bytes hold fewer than %d pages", len(data), m.pgid)
	}
	words := (m.pgid + 63) / 64
	w.used, w.free = make([]uint64, words), make([]uint64, words)
	put(w.used, 0)
	put(w.used, 1)
	if m.freelist != noFreelist {
		w.freelist()
	}
	w.visit(m.root, where{kind: "root bucket"})
	if m.freelist != noFreelist {
		for id := uint64(2); id < m.pgid; id++ {
			if !has(w.used, id) && !has(w.free, id) {
				w.problem("page %d: unreachable unfreed", id)
			}
		}
	}
	return errors.Join(w.problems...)
}

// page returns the whole of page id (1+overflow pages) after checking its
// header, or nil after a problem.
func (w *pageWalker) page(id uint64, what where) []byte {
	if id < 2 || id >= w.m.pgid {
		w.problem("%s: page %d is out of bounds (high-water mark %d)", what, id, w.m.pgid)
		return nil
	}
	b := w.data[id*w.ps:]
	ne := binary.NativeEndian
	if got := ne.Uint64(b); got != id {
		w.problem("%s: page %d names itself page %d", what, id, got)
		return nil
	}
	overflow := uint64(ne.Uint32(b[12:]))
	if overflow >= w.m.pgid-id {
		w.problem("%s: page %d runs past the high-water mark (%d overflow pages)", what, id, overflow)
		return nil
	}
	return b[:(1+overflow)*w.ps]
}

func (w *pageWalker) freelist() {
	id := w.m.freelist
	b := w.page(id, where{kind: "freelist"})
	if b == nil {
		return
	}
	ne := binary.NativeEndian
	if flags := ne.Uint16(b[8:]); flags != freelistPageFlag {
		w.problem("freelist: page %d has flags %#x, not a freelist's", id, flags)
		return
	}
	for i := range uint64(len(b)) / w.ps {
		put(w.used, id+i)
	}
	count, ids := uint64(ne.Uint16(b[10:])), b[pageHeaderSize:]
	if count == 0xFFFF {
		count, ids = ne.Uint64(ids), ids[8:]
	}
	if count > uint64(len(ids))/8 {
		w.problem("freelist: page %d lists %d pages but has room for %d", id, count, len(ids)/8)
		return
	}
	for i := range count {
		p := ne.Uint64(ids[8*i:])
		switch {
		case p < 2 || p >= w.m.pgid:
			w.problem("freelist: page %d is out of bounds (high-water mark %d)", p, w.m.pgid)
		case has(w.free, p):
			w.problem("freelist: page %d is listed twice", p)
		case has(w.used, p):
			w.problem("freelist: page %d is the freelist itself", p)
		default:
			put(w.free, p)
		}
	}
}

// visit checks page id, marks its pages reachable and visits its children
// and the buckets it holds.
func (w *pageWalker) visit(id uint64, what where) {
	b := w.page(id, what)
	if b == nil {
		return
	}
	ne := binary.NativeEndian
	flags, count := ne.Uint16(b[8:]), uint64(ne.Uint16(b[10:]))
	if flags != branchPageFlag && flags != leafPageFlag {
		w.problem("%s: page %d has flags %#x, not a branch or leaf page's", what, id, flags)
		return
	}
	for i := range uint64(len(b)) / w.ps {
		switch p := id + i; {
		case has(w.used, p):
			w.problem("%s: page %d is referenced more than once", what, p)
			return
		case has(w.free, p):
			w.problem("%s: page %d is in use and on the freelist", what, p)
		default:
			put(w.used, p)
		}
	}
	if pageHeaderSize+count*elementSize > uint64(len(b)) {
		w.problem("%s: page %d has %d elements, more than it has room for", what, id, count)
		return
	}
	if flags == leafPageFlag {
		w.leaf(b, id, count, what)
		return
	}
	for i := range count {
		off := pageHeaderSize + i*elementSize
		e := b[off:]
		if off+uint64(ne.Uint32(e))+uint64(ne.Uint32(e[4:])) > uint64(len(b)) {
			w.problem("%s: page %d element %d: its key runs past the page", what, id, i)
			return
		}
		w.visit(ne.Uint64(e[8:]), what)
	}
}

// leaf checks the elements of a leaf page, b, and visits the buckets it
// holds. id is 0 for an inline bucket's page.
func (w *pageWalker) leaf(b []byte, id, count uint64, what where) {
	ne := binary.NativeEndian
	for i := range count {
		off := pageHeaderSize + i*elementSize
		e := b[off:]
		pos, ksize, vsize := uint64(ne.Uint32(e[4:])), uint64(ne.Uint32(e[8:])), uint64(ne.Uint32(e[12:]))
		end := off + pos + ksize + vsize
		if end > uint64(len(b)) {
			w.problem("%s: page %d element %d: its key or value runs past the page", what, id, i)
			return
		}
		if ne.Uint32(e)&bucketLeafFlag == 0 {
			continue
		}
		key, v := b[off+pos:off+pos+ksize], b[off+pos+ksize:end]
		name := where{kind: "bucket", key: key}
		if len(v) < bucketHeaderSize {
			w.problem("%s: page %d element %d: %s has a value of %d bytes", what, id, i, name, len(v))
			return
		}
		if root := ne.Uint64(v); root != 0 {
			w.visit(root, name)
		} else {
			w.inline(v[bucketHeaderSize:], name)
		}
	}
}

// inline checks an inline bucket's page, which lives inside its parent's
// value and is always a leaf.
func (w *pageWalker) inline(p []byte, what where) {
	if len(p) < pageHeaderSize {
		w.problem("%s: its inline page is %d bytes", what, len(p))
		return
	}
	ne := binary.NativeEndian
	if flags := ne.Uint16(p[8:]); flags != leafPageFlag {
		w.problem("%s: its inline page has flags %#x, not a leaf page's", what, flags)
		return
	}
	count := uint64(ne.Uint16(p[10:]))
	if pageHeaderSize+count*elementSize > uint64(len(p)) {
		w.problem("%s: its inline page has %d elements, more than it has room for", what, count)
		return
	}
	w.leaf(p, 0, count, what)
}

// checkPages maps (or reads) the first m.pgid pages of f and walks them.
// A fault while reading the mapping (the file shrank under us) is an error.
func checkPages(f *os.File, m boltMeta) error {
	data, unmap, err := mapFile(f, int(m.pgid*uint64(m.pageSize)))
	if err != nil {
		return err
	}
	err = guarded(func() error { return walkPages(data, m) })
	if uerr := unmap(); err == nil {
		err = uerr
	}
	return err
}

// readFile is mapFile where there is no mmap: it reads the n bytes.
func readFile(f *os.File, n int) ([]byte, func() error, error) {
	b := make([]byte, n)
	if _, err := io.ReadFull(io.NewSectionReader(f, 0, int64(n)), b); err != nil {
		return nil, nil, err
	}
	return b, func() error { return nil }, nil
}
