package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/model"
)

func TestSafeText(t *testing.T) {
	for _, c := range []struct {
		in        string
		keepLines bool
		want      string
	}{
		{"Legal QLoRA — 70 B", false, "Legal QLoRA — 70 B"},
		{"\x1b]0;owned\a\x1b[2J", false, `\u001b]0;owned\u0007\u001b[2J`},
		{"a\u202eb\u202cc\u2066d\u200f", false, `a\u202eb\u202cc\u2066d\u200f`},
		{"a\tb\nc\r", false, `a\u0009b\u000ac\u000d`},
		{"a\tb\nc\r", true, "a\tb\nc\\u000d"},
		{"\x00\x7f\u009b", true, `\u0000\u007f\u009b`},
		{"bad \x9b byte", false, `bad \x9b byte`},
	} {
		if got := safeText(c.in, c.keepLines); got != c.want {
			t.Errorf("safeText(%q, %v) = %q, want %q", c.in, c.keepLines, got, c.want)
		}
	}
	// A JSON string escaped so reads back as the same string.
	in := `{"name": "a` + "\u202e\u0085" + `b"}`
	var v struct{ Name string }
	if err := json.Unmarshal([]byte(safeText(in, true)), &v); err != nil || v.Name != "a\u202e\u0085b" {
		t.Errorf("escaped JSON reads back as %q, %v", v.Name, err)
	}
}

// storeRawName gives revision 1 of scenario id in the closed store at db
// the name and note given, with a matching sha256: a revision saved by a
// hostplan that did not refuse control characters.
func storeRawName(t *testing.T, db, id, name, note string) {
	t.Helper()
	bdb, err := bolt.Open(db, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer bdb.Close()
	err = bdb.Update(func(tx *bolt.Tx) error {
		b := tx.Bucket([]byte("revisions")).Bucket([]byte(id))
		key := []byte{0, 0, 0, 1}
		var rr map[string]any
		if err := json.Unmarshal(b.Get(key), &rr); err != nil {
			return err
		}
		var sc map[string]any
		if err := json.Unmarshal([]byte(rr["scenario"].(string)), &sc); err != nil {
			return err
		}
		sc["name"] = name
		body, err := json.MarshalIndent(sc, "", "  ")
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		rr["scenario"], rr["input_hash"], rr["note"] = string(body), hex.EncodeToString(sum[:]), note
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

// renameRecord gives the record of scenario id (the store's binary
// layout, internal/store/record.go) the name given, as a hostplan that
// did not refuse control characters would have written it.
func renameRecord(t *testing.T, tx *bolt.Tx, id, name string) {
	t.Helper()
	b := tx.Bucket([]byte("scenarios"))
	v := b.Get([]byte(id))
	rest := v[2:]
	for range 3 { // current revision, seconds, nanoseconds
		_, n := binary.Uvarint(rest)
		rest = rest[n:]
	}
	head := v[:len(v)-len(rest)]
	l, n := binary.Uvarint(rest)
	rest = rest[n+int(l):]
	rec := binary.AppendUvarint(bytes.Clone(head), uint64(len(name)))
	rec = append(append(rec, name...), rest...)
	if err := b.Put([]byte(id), rec); err != nil {
		t.Fatal(err)
	}
}

// Text a store holds from before control characters were refused reaches
// the terminal escaped, whichever command prints it; a command that
// validates it names the field, escaped too.
func TestStoredControlCharactersEscaped(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list") // creates and seeds the store
	f, _ := changedExample(t, "qlora-legal-70b.json", `"seed": 3`, `"seed": 4`)
	storeRun(t, db, "save", f)
	const evil = "\x1b]0;owned\a\x1b[2J\x1b[31mLegal \u202eAROLQ\u202c\r"
	storeRawName(t, db, "qlora-legal-70b", evil, "note \x1b[31m\u2066")
	bdb, err := bolt.Open(db, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := bdb.Update(func(tx *bolt.Tx) error { renameRecord(t, tx, "qlora-legal-70b", evil); return nil }); err != nil {
		t.Fatal(err)
	}
	bdb.Close()
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"list"}, ExitOK},
		{[]string{"show", "qlora-legal-70b", "--rev", "1"}, ExitOK},
		{[]string{"history", "qlora-legal-70b"}, ExitOK},
		{[]string{"diff", "qlora-legal-70b", "1", "2"}, ExitFail}, // revision 1 no longer validates
		{[]string{"eval", "qlora-legal-70b"}, ExitOK},             // the current revision is sound
		{[]string{"restore", "qlora-legal-70b", "1"}, ExitUsage},
	} {
		code, out, errs := run(t, db, c.args...)
		if code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, code, c.code, errs)
		}
		if strings.ContainsAny(out+errs, "\x1b\a\r\u202e\u202c\u2066") {
			t.Errorf("%v prints control characters raw:\n%q\n%q", c.args, out, errs)
		}
		if c.args[0] != "eval" && c.args[0] != "history" && c.args[0] != "restore" && !strings.Contains(out+errs, `\u202eAROLQ`) {
			t.Errorf("%v does not show the name escaped:\n%s\n%s", c.args, out, errs)
		}
	}
}

// The text printers escape what they print of a report.
func TestPrintersEscape(t *testing.T) {
	const evil = "\x1b[2JLegal \u202eAROLQ"
	var b bytes.Buffer
	printTable(&b, &model.Report{ScenarioName: evil, ScenarioID: "x\ry"})
	if strings.ContainsAny(b.String(), "\x1b\r\u202e") || !strings.Contains(b.String(), `\u001b[2JLegal \u202eAROLQ (x\u000dy)`) {
		t.Errorf("printTable:\n%q", b.String())
	}
}
