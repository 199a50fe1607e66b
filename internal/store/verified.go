package store

// The checks a process need not repeat: openExisting walks every page of
// a store file to find damage, and a file this process has walked,
// unchanged since, gives the same verdict. A store this process opened to
// write, found sound and then wrote only through bbolt is sound as it left
// it: its Close records the generation it leaves (sound), and the next
// open — to read or to write — skips the walk, and a writer the reading of
// every record (findDamage) too.

import (
	"io/fs"
	"os"
	"sync"
	"sync/atomic"

	bolt "go.etcd.io/bbolt"
)

// generation identifies one state of a store file: the file, its size and
// modification time, and its last committed transaction.
type generation struct {
	fi   fs.FileInfo
	txid int
}

// verifiedFile is the verdict of checkFile on one generation; sound, that
// findDamage found nothing in it either (a generation a writer of this
// process left).
type verifiedFile struct {
	gen    generation
	empty  bool
	broken map[string]error
	sound  bool
}

func (v verifiedFile) same(g generation) bool {
	return os.SameFile(v.gen.fi, g.fi) && v.gen.fi.Size() == g.fi.Size() &&
		v.gen.fi.ModTime().Equal(g.fi.ModTime()) && v.gen.txid == g.txid
}

// readOnlyWalks counts the read-only opens that checked the file, and
// writeChecks the opens to write that checked it and read every record
// (tests).
var readOnlyWalks, writeChecks atomic.Int64

// verified holds, by path, the last generation of each store file this
// process has checked read-only, or left sound as a writer (Store.Close),
// with the verdict.
var verified sync.Map

// generationOf reads the generation of the file open in db; false when it
// cannot be told (then the file is checked).
func generationOf(db *bolt.DB, path string) (generation, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return generation{}, false
	}
	g := generation{fi: fi}
	err = guarded(func() error {
		return db.View(func(tx *bolt.Tx) error {
			g.txid = tx.ID()
			return nil
		})
	})
	return g, err == nil
}
