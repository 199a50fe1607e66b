package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// damageRevision changes the bytes of revision n of scenario id in the
// closed store at db, leaving its sha256 as it was: what a flipped bit
// does.
func damageRevision(t *testing.T, db, id string, n int, old, new string) {
	t.Helper()
	bdb, err := bolt.Open(db, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	err = bdb.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("revisions")).Bucket([]byte(id))
		key := []byte{0, 0, 0, byte(n)}
		var rr map[string]any
		if err := json.Unmarshal(b.Get(key), &rr); err != nil {
			return err
		}
		body := rr["scenario"].(string)
		if !strings.Contains(body, old) {
			t.Fatalf("%q is not in revision %d", old, n)
		}
		rr["scenario"] = strings.Replace(body, old, new, 1)
		v, err := json.Marshal(rr)
		if err != nil {
			return err
		}
		return b.Put(key, v)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// No command serves a damaged revision: each refuses it with exit 1 and
// says what to do.
func TestDamagedRevisionCommands(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list") // creates and seeds the store
	f, _ := changedExample(t, "qlora-legal-70b.json", `"seed": 3`, `"seed": 4`)
	storeRun(t, db, "save", f)
	damageRevision(t, db, "qlora-legal-70b", 1, `"seed": 3`, `"seed": 9`)
	out := t.TempDir()
	for _, args := range [][]string{
		{"show", "qlora-legal-70b", "--rev", "1"},
		{"restore", "qlora-legal-70b", "1"},
		{"diff", "qlora-legal-70b", "1", "2"},
		{"history", "qlora-legal-70b"},
		{"store", "backup", filepath.Join(out, "backup.db")},
	} {
		code, stdout, stderr := run(t, db, args...)
		if code != ExitFail || !strings.Contains(stderr, "hostplan store check") {
			t.Errorf("%v: exit %d, want 1\nstdout: %s\nstderr: %s", args, code, stdout, stderr)
		}
		if args[0] != "store" && (!strings.Contains(stderr, `scenario "qlora-legal-70b" revision 1 is damaged`) || strings.Contains(stdout, `"seed": 9`)) {
			t.Errorf("%v: does not refuse revision 1\nstdout: %s\nstderr: %s", args, stdout, stderr)
		}
	}
	// The current revision is sound: it reads.
	if code, _, errs := run(t, db, "eval", "qlora-legal-70b"); code != ExitOK {
		t.Errorf("eval of the sound current revision: exit %d %s", code, errs)
	}
	damageRevision(t, db, "qlora-legal-70b", 2, `"seed": 4`, `"seed": 8`)
	for _, args := range [][]string{
		{"show", "qlora-legal-70b"},
		{"eval", "qlora-legal-70b", "--format", "table"},
		{"export-scenarios", filepath.Join(out, "exported")},
	} {
		code, stdout, stderr := run(t, db, args...)
		if code != ExitFail || !strings.Contains(stderr, `scenario "qlora-legal-70b" revision 2 is damaged`) {
			t.Errorf("%v: exit %d, want 1\nstdout: %s\nstderr: %s", args, code, stdout, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "exported")); err == nil {
		t.Error("export-scenarios wrote files from a damaged store")
	}
}
