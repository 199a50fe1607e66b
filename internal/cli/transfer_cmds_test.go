package cli

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	bolt "go.etcd.io/bbolt"
)

// Import then export gives back every example file byte for byte.
func TestImportExportRoundTrip(t *testing.T) {
	db := tempDB(t)
	// Start from an empty store: remove the seeded examples for good, so
	// the import writes them.
	for _, f := range examples(t) {
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		storeRun(t, db, "delete", id)
		storeRun(t, db, "purge", id)
	}
	out := storeRun(t, db, "import", "../../scenarios", "--author", "ana")
	if n := strings.Count(out, "revision 1\n"); n != len(examples(t)) {
		t.Errorf("import saved %d files, want %d:\n%s", n, len(examples(t)), out)
	}
	dir := filepath.Join(t.TempDir(), "out")
	out = storeRun(t, db, "export-scenarios", dir)
	if !strings.Contains(out, "wrote 6 scenario files") && !strings.Contains(out, "scenario files to") {
		t.Errorf("export: %q", out)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != len(examples(t)) {
		t.Errorf("export wrote %d files, want %d", len(entries), len(examples(t)))
	}
	for _, f := range examples(t) {
		want, _ := os.ReadFile(f)
		got, err := os.ReadFile(filepath.Join(dir, filepath.Base(f)))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s does not round-trip byte for byte", filepath.Base(f))
		}
	}
	// Importing the export again changes nothing.
	out = storeRun(t, db, "import", dir)
	if strings.Count(out, "unchanged (revision 1)") != len(examples(t)) {
		t.Errorf("re-import of the export:\n%s", out)
	}
	// A second export to the same directory writes nothing.
	if out := storeRun(t, db, "export-scenarios", dir); !strings.Contains(out, "wrote 0 scenario files") {
		t.Errorf("second export: %q", out)
	}
}

func TestExportScenariosNeverClobbers(t *testing.T) {
	db := tempDB(t)
	dir := t.TempDir()
	storeRun(t, db, "export-scenarios", dir)
	edited := filepath.Join(dir, "qlora-legal-70b.json")
	mine := []byte("{\"my\": \"unsaved edit\"}\n")
	if err := os.WriteFile(edited, mine, 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, db, "export-scenarios", dir)
	if code != ExitUsage || !strings.Contains(errs, "export-scenarios: "+edited+" exists; not replaced (--force replaces it)") {
		t.Errorf("export over an edited file: exit %d %q", code, errs)
	}
	if got, _ := os.ReadFile(edited); !bytes.Equal(got, mine) {
		t.Error("export replaced an edited file without --force")
	}
	storeRun(t, db, "export-scenarios", dir, "--force")
	want, _ := os.ReadFile("../../scenarios/qlora-legal-70b.json")
	if got, _ := os.ReadFile(edited); !bytes.Equal(got, want) {
		t.Error("--force did not replace the file")
	}
	if entries, _ := os.ReadDir(dir); len(entries) != len(examples(t)) {
		t.Errorf("%d entries in the directory: temporary files left?", len(entries))
	}
}

// A file that fails is reported line by line and nothing from it is
// written; the valid files are saved; the exit code is 2.
func TestImportReportsBadFilesAndSavesGoodOnes(t *testing.T) {
	db := tempDB(t)
	dir := t.TempDir()
	orig, _ := os.ReadFile("../../scenarios/qlora-legal-70b.json")
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("a-good.json", strings.Replace(string(orig), `"id": "qlora-legal-70b"`, `"id": "good-copy"`, 1))
	badFields := write("b-bad.json", strings.NewReplacer(`"id": "qlora-legal-70b"`, `"id": "half-good"`, `"currency": "USD"`, `"currency": "dollars"`,
		`"precision": "bf16"`, `"precision": "bf17"`).Replace(string(orig)))
	notJSON := write("c-not-json.json", `{"id": "x",`)
	dup := write("d-dup.json", strings.Replace(string(orig), `"id": "qlora-legal-70b"`, `"id": "good-copy"`, 1))
	write("notes.txt", "ignored")

	code, out, errs := run(t, db, "import", dir)
	if code != ExitUsage {
		t.Fatalf("exit %d, want 2\nstdout %s\nstderr %s", code, out, errs)
	}
	for _, want := range []string{
		badFields + `: currency: "dollars" is not a currency code`,
		badFields + `: workload.precision: "bf17" is not a known value`,
		notJSON + ": (file): is not valid JSON",
		dup + `: id: "good-copy" is also the id of ` + good,
		"import: 3 of 4 files have problems; nothing from them was written",
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	if !strings.Contains(out, good+": saved good-copy revision 1") || strings.Count(out, "\n") != 1 {
		t.Errorf("stdout %q: want only the good file saved", out)
	}
	if code, _, _ := run(t, db, "show", "half-good"); code != ExitUsage {
		t.Error("the file with problems was written")
	}
	if out := storeRun(t, db, "history", "good-copy"); !strings.Contains(out, "imported from a-good.json") {
		t.Errorf("history of the imported file:\n%s", out)
	}
	if code, _, errs := run(t, db, "import", filepath.Join(dir, "missing.json")); code != ExitUsage || !strings.Contains(errs, "cannot read") {
		t.Errorf("import of a missing file: exit %d %q", code, errs)
	}
	empty := t.TempDir()
	if code, _, errs := run(t, db, "import", empty); code != ExitUsage || !strings.Contains(errs, "no *.json files") {
		t.Errorf("import of an empty directory: exit %d %q", code, errs)
	}
}

// A schema 0 file validates, imports as schema 1 and exports as schema 1.
func TestImportSchema0File(t *testing.T) {
	db := tempDB(t)
	const v0 = "../scenario/testdata/v0.json"
	if out := storeRun(t, db, "validate", v0); !strings.Contains(out, "valid") {
		t.Errorf("validate of a schema 0 file: %q", out)
	}
	out := storeRun(t, db, "import", v0)
	if !strings.Contains(out, "saved contract-lora-v0 revision 1 (upgraded from scenario schema 0 to 1)") {
		t.Errorf("import of a schema 0 file: %q", out)
	}
	want, err := os.ReadFile("../scenario/testdata/v0-as-v1.json")
	if err != nil {
		t.Fatal(err)
	}
	if got := storeRun(t, db, "show", "contract-lora-v0"); got != string(want) {
		t.Errorf("stored form of the schema 0 file:\n%s", got)
	}
	dir := t.TempDir()
	storeRun(t, db, "export-scenarios", dir)
	if got, _ := os.ReadFile(filepath.Join(dir, "contract-lora-v0.json")); !bytes.Equal(got, want) {
		t.Errorf("exported form:\n%s", got)
	}
}

// A stored id that cannot be a file name (possible only in a damaged or
// foreign store: validation allows lower-case letters, digits and '-') is
// refused before any file is written, with every such id named.
func TestExportScenariosChecksEveryIDFirst(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list") // creates and seeds the store
	// Copy a scenario to unsafe ids (the store's layout: a "scenarios"
	// bucket of records and a "revisions" bucket of one bucket each). Its
	// name sorts after the others', so it is met last.
	bdb, err := bolt.Open(db, 0o600, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = bdb.Update(func(tx *bolt.Tx) error {
		const from = "support-assistant-70b"
		for _, id := range []string{"../escape", "a/b"} {
			if err := tx.Bucket([]byte("scenarios")).Put([]byte(id), tx.Bucket([]byte("scenarios")).Get([]byte(from))); err != nil {
				return err
			}
			revs, err := tx.Bucket([]byte("revisions")).CreateBucket([]byte(id))
			if err != nil {
				return err
			}
			if err := tx.Bucket([]byte("revisions")).Bucket([]byte(from)).ForEach(func(k, v []byte) error { return revs.Put(k, v) }); err != nil {
				return err
			}
		}
		return nil
	})
	if err := errors.Join(err, bdb.Close()); err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "out")
	code, out, errs := run(t, db, "export-scenarios", dir)
	if code != ExitFail || !strings.Contains(errs, `stored ids "../escape", "a/b" cannot be file names; nothing was written`) || out != "" {
		t.Errorf("export-scenarios: exit %d %q %q", code, out, errs)
	}
	if entries, err := os.ReadDir(parent); err != nil || len(entries) != 0 {
		t.Errorf("the export left %v (%v)", entries, err)
	}
}
