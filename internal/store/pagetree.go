package store

import (
	"encoding/binary"
	"io"
	"os"

	bolt "go.etcd.io/bbolt"
)

// Page trees.
//
// bbolt follows a branch page's elements down to the pages they name, and
// checks that each of those names itself, but not that the tree leads
// down: an element naming the page itself or one of its ancestors makes a
// cursor's First descend for ever, its stack of pages growing until memory
// runs out, and a search recurse until the goroutine's stack overflows,
// which ends the program (no recover catches that). So the store checks a
// bucket's page tree before it reads the bucket: the tree of the top-level
// buckets and of each of them when it opens the file (verify), a
// scenario's revisions bucket when it opens that (revisionsOf), and every
// bucket of Check's walk (readAll).
//
// bbolt's API cannot say where a branch element points, so this is the one
// place the package reads bbolt's format itself: page headers (page id,
// flags, element count, overflow count) and branch elements (key position,
// key size, page id), in the machine's byte order as bbolt writes them,
// read from the file with read(2). The pages of a tree are not rewritten
// while a transaction that can reach them is open, so what the file holds
// is what the transaction sees.

const (
	pageHeaderSize    = 16
	branchElementSize = 16
	branchPageFlag    = 0x01
	leafPageFlag      = 0x02
)

// checkTrees returns a *faultError if the page tree rooted at any of roots
// does not lead down (walkTree). It reads the file tx reads.
func checkTrees(tx *bolt.Tx, roots ...uint64) error {
	f, err := os.Open(tx.DB().Path())
	if err != nil {
		return err
	}
	defer f.Close()
	ps := uint64(tx.DB().Info().PageSize)
	pages := uint64(tx.Size()) / ps
	for _, root := range roots {
		if err := walkTree(f, ps, pages, root); err != nil {
			return err
		}
	}
	return nil
}

// walkTree reads the page tree rooted at page root of a file of pages
// pages of ps bytes, each page once (the header of a leaf, the header and
// elements of a branch), and returns a *faultError at the first page that
// lies outside the file (pages 0 and 1 are bbolt's meta pages), is in the
// tree already, does not name itself, is neither a branch nor a leaf, or is
// a branch without elements (a cursor would follow the element that is not
// there) or with elements past the end of the file.
func walkTree(f io.ReaderAt, ps, pages, root uint64) error {
	seen := map[uint64]bool{}
	todo := []uint64{root}
	var (
		hdr   [pageHeaderSize]byte
		elems []byte
	)
	for len(todo) > 0 {
		id := todo[len(todo)-1]
		todo = todo[:len(todo)-1]
		switch {
		case id < 2 || id >= pages:
			return damagef("a branch page names page %d, outside the file (pages 2 to %d)", id, pages-1)
		case seen[id]:
			return damagef("page %d is named twice in one page tree (a branch leads back up)", id)
		}
		seen[id] = true
		if _, err := f.ReadAt(hdr[:], int64(id*ps)); err != nil {
			return damagef("page %d: %v", id, err)
		}
		self := binary.NativeEndian.Uint64(hdr[0:])
		flags := binary.NativeEndian.Uint16(hdr[8:])
		count := int(binary.NativeEndian.Uint16(hdr[10:]))
		switch {
		case self != id:
			return damagef("page %d names itself page %d", id, self)
		case flags == leafPageFlag:
			continue
		case flags != branchPageFlag:
			return damagef("page %d of a page tree is neither a branch nor a leaf (flags %#x)", id, flags)
		case count == 0:
			return damagef("branch page %d has no elements", id)
		}
		elems = append(elems[:0], make([]byte, count*branchElementSize)...)
		if _, err := f.ReadAt(elems, int64(id*ps+pageHeaderSize)); err != nil {
			return damagef("branch page %d: its %d elements run past the end of the file", id, count)
		}
		for i := range count {
			todo = append(todo, binary.NativeEndian.Uint64(elems[i*branchElementSize+8:]))
		}
	}
	return nil
}
