package store

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// The bbolt this package is built with is the one boltformat.go was
// written against: its reading of bbolt's pages is not bbolt's API, so an
// upgrade must be checked against the new version's format first.
func TestBoltFormatVersion(t *testing.T) {
	// A test binary's build information lists no modules, so the version
	// is go.mod's (go build and go test read it from there too).
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(mod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "require "))
		if len(f) < 2 || f[0] != boltFormatModule {
			continue
		}
		if f[1] != boltFormatVersion {
			t.Fatalf("go.mod requires bbolt %s, but boltformat.go reads the page format of %s: check its layout against %s's sources, then set boltFormatVersion", f[1], boltFormatVersion, f[1])
		}
		return
	}
	t.Fatalf("go.mod does not require %s", boltFormatModule)
}

// What boltformat.go reads agrees with what bbolt says of the same file
// through its API: the meta page's transaction id, high-water page and
// freelist page, and the headers of the pages Tx.Page describes.
func TestBoltFormatAgreesWithBbolt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "b.db")
	db, err := bolt.Open(path, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for i := range 40 {
		if err := db.Update(func(tx *bolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists([]byte("b"))
			if err != nil {
				return err
			}
			return b.Put(binary.BigEndian.AppendUint32(nil, uint32(i)), make([]byte, 300))
		}); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ps := uint64(db.Info().PageSize)
	m, ok, bad := readMeta(f, ps)
	if !ok {
		t.Fatal("readMeta found no valid meta page in a file bbolt just wrote")
	}
	if bad != [2]string{} {
		t.Errorf("readMeta calls meta pages of a sound file damaged: %q", bad)
	}
	err = db.View(func(tx *bolt.Tx) error {
		if m.txid != uint64(tx.ID()) {
			t.Errorf("meta transaction id %d, bbolt's %d", m.txid, tx.ID())
		}
		if want := uint64(tx.Size()) / ps; m.pages != want {
			t.Errorf("meta high-water page %d, bbolt's file size says %d", m.pages, want)
		}
		if p, err := tx.Page(int(m.freelist)); err != nil || p == nil || p.Type != "freelist" {
			t.Errorf("meta freelist page %d: bbolt says %+v (%v)", m.freelist, p, err)
		}
		flags := map[string]uint16{"branch": branchPageFlag, "leaf": leafPageFlag, "freelist": freelistPageFlag}
		seen := map[string]bool{}
		for id := uint64(2); id < m.pages; id++ {
			p, err := tx.Page(int(id))
			if err != nil || p == nil {
				return err
			}
			want, known := flags[p.Type]
			if !known {
				continue
			}
			var hdr [pageHeaderSize]byte
			if _, err := f.ReadAt(hdr[:], int64(id*ps)); err != nil {
				return err
			}
			if got := binary.NativeEndian.Uint64(hdr[0:]); got != id {
				t.Errorf("page %d names itself %d", id, got)
			}
			if got := binary.NativeEndian.Uint16(hdr[8:]); got != want {
				t.Errorf("page %d (%s): flags %#x, want %#x", id, p.Type, got, want)
			}
			if p.Type != "freelist" {
				if got := int(binary.NativeEndian.Uint16(hdr[10:])); got != p.Count {
					t.Errorf("page %d (%s): count %d, bbolt's %d", id, p.Type, got, p.Count)
				}
			}
			if got := int(binary.NativeEndian.Uint32(hdr[12:])); got != p.OverflowCount {
				t.Errorf("page %d (%s): overflow %d, bbolt's %d", id, p.Type, got, p.OverflowCount)
			}
			seen[p.Type] = true
		}
		for _, kind := range []string{"branch", "leaf", "freelist"} {
			if !seen[kind] {
				t.Errorf("no %s page in the test file: it checks nothing of that kind", kind)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := freelistSound(db); err != nil {
		t.Fatalf("freelistSound on a sound file: %v", err)
	}
}
