package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"hostplan/internal/model"

	"hostplan/internal/store"
)

// changedExample writes a copy of an example with one edit and returns its
// path and the original bytes.
func changedExample(t *testing.T, name, old, new string) (path string, orig []byte) {
	t.Helper()
	orig, err := os.ReadFile("../../scenarios/" + name)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(orig), old, new, 1)
	if changed == string(orig) {
		t.Fatalf("%q is not in %s", old, name)
	}
	path = filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, orig
}

func storeRun(t *testing.T, db string, args ...string) string {
	t.Helper()
	code, out, errs := run(t, db, args...)
	if code != ExitOK {
		t.Fatalf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errs)
	}
	return out
}

func TestHistoryDiffRestore(t *testing.T) {
	db := tempDB(t)
	f, orig := changedExample(t, "qlora-legal-70b.json", `"likely": 4,`, `"likely": 6,`)
	out := storeRun(t, db, "import", f, "--note", "six runs a month", "--author", "ana")
	if !strings.Contains(out, "saved qlora-legal-70b revision 2") {
		t.Fatalf("import: %q", out)
	}

	out = storeRun(t, db, "history", "qlora-legal-70b")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "REV") || !strings.Contains(lines[0], "CATALOG AS OF") {
		t.Fatalf("history:\n%s", out)
	}
	row := regexp.MustCompile(`^2 +\d{4}-\d\d-\d\d \d\d:\d\d +ana +six runs a month +\S+ +\d{4}-\d\d-\d\d +[0-9a-f]{12}$`)
	if !row.MatchString(lines[2]) {
		t.Errorf("history row 2 %q does not show time, author, note, model, catalog as_of and hash", lines[2])
	}

	out = storeRun(t, db, "diff", "qlora-legal-70b", "1", "2")
	for _, want := range []string{
		"qlora-legal-70b: revision 1 → revision 2",
		"FIELD",
		"workload.runs_per_month.likely  4           6",
		"Headline figures",
		"Cheapest feasible over the horizon:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	for _, title := range []string{"Managed service", "Cloud IaaS", "On-premises", "Shared HPC", "Hybrid"} {
		if !regexp.MustCompile(`(?m)^` + title + ` +feasible +(yes|no) +(yes|no)`).MatchString(out) {
			t.Errorf("diff has no feasible row for %s:\n%s", title, out)
		}
	}
	for _, fig := range []string{"time to result (h)", "cost per fine-tuning run (USD)", "cost over the horizon (USD)"} {
		if strings.Count(out, fig) != 5 {
			t.Errorf("diff shows %q %d times, want once per direction", fig, strings.Count(out, fig))
		}
	}
	// More runs a month: the cost over the horizon of every direction moves.
	if !regexp.MustCompile(`cost over the horizon \(USD\) +[\d,]+ +[\d,]+ +\+[\d,]+ \(\+[\d.]+%\)`).MatchString(out) {
		t.Errorf("diff shows no increase of the cost over the horizon:\n%s", out)
	}
	if same := storeRun(t, db, "diff", "qlora-legal-70b", "2", "2"); !strings.Contains(same, "No field differs.") {
		t.Errorf("diff of a revision with itself:\n%s", same)
	}

	out = storeRun(t, db, "restore", "qlora-legal-70b", "1")
	if !strings.Contains(out, "restored revision 1 as revision 3 (restored from revision 1)") {
		t.Errorf("restore: %q", out)
	}
	if got := storeRun(t, db, "show", "qlora-legal-70b"); got != string(orig) {
		t.Error("after restore the current content is not revision 1's")
	}
	if h := storeRun(t, db, "history", "qlora-legal-70b"); strings.Count(h, "\n") != 4 || !strings.Contains(h, "six runs a month") {
		t.Errorf("history after restore (nothing rewritten, one added):\n%s", h)
	}
	if out := storeRun(t, db, "restore", "qlora-legal-70b", "3"); !strings.Contains(out, "nothing written") {
		t.Errorf("restore of the current content: %q", out)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "qlora-legal-70b", "1"}, "give a scenario id and two revision numbers"},
		{[]string{"diff", "qlora-legal-70b", "1", "x"}, `revision "x" is not a revision number`},
		{[]string{"diff", "qlora-legal-70b", "0", "1"}, `revision "0" is not a revision number`},
		{[]string{"diff", "qlora-legal-70b", "1", "9"}, "revision 9: not found"},
		{[]string{"diff", "no-such", "1", "2"}, `"no-such"`},
		{[]string{"history", "no-such"}, `history of scenario "no-such": not found`},
		{[]string{"history"}, "give exactly one scenario id"},
		{[]string{"restore", "qlora-legal-70b", "7"}, "revision 7: not found"},
	} {
		code, _, errs := run(t, db, tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestDeleteUndeletePurge(t *testing.T) {
	db := tempDB(t)
	const id = "nightly-document-batch"
	if out := storeRun(t, db, "delete", id); !strings.Contains(out, "deleted "+id) || !strings.Contains(out, "undelete") {
		t.Errorf("delete: %q", out)
	}
	if out := storeRun(t, db, "list"); strings.Contains(out, id) {
		t.Errorf("list shows a deleted scenario:\n%s", out)
	}
	if code, _, _ := run(t, db, "history", id); code != ExitUsage {
		t.Errorf("history of a deleted scenario: exit %d, want 2", code)
	}
	if out := storeRun(t, db, "delete", id); !strings.Contains(out, "already deleted") {
		t.Errorf("second delete: %q", out)
	}
	if code, _, errs := run(t, db, "undelete"); code != ExitUsage || !strings.Contains(errs, "deleted: "+id) {
		t.Errorf("undelete without an id: exit %d %q; want 2 and the deleted ids", code, errs)
	}
	if out := storeRun(t, db, "undelete", id); !strings.Contains(out, "undeleted "+id+" (current revision 1)") {
		t.Errorf("undelete: %q", out)
	}
	if out := storeRun(t, db, "list"); !strings.Contains(out, id) {
		t.Errorf("list after undelete lacks %s", id)
	}
	if out := storeRun(t, db, "undelete", id); !strings.Contains(out, "is not deleted") {
		t.Errorf("undelete of a live scenario: %q", out)
	}

	// Purge refuses a live scenario and removes a deleted one for good.
	code, _, errs := run(t, db, "purge", id)
	if code != ExitUsage || !strings.Contains(errs, "is not deleted") {
		t.Errorf("purge of a live scenario: exit %d %q", code, errs)
	}
	if out := storeRun(t, db, "show", id); !strings.Contains(out, `"id": "`+id+`"`) {
		t.Error("a refused purge removed the scenario")
	}
	storeRun(t, db, "delete", id)
	if out := storeRun(t, db, "purge", id); !strings.Contains(out, "purged "+id+" and its 1 revisions") {
		t.Errorf("purge: %q", out)
	}
	for _, args := range [][]string{{"undelete", id}, {"purge", id}, {"show", id}, {"delete", id}} {
		if code, _, _ := run(t, db, args...); code != ExitUsage {
			t.Errorf("%v after purge: exit %d, want 2", args, code)
		}
	}
	if out := storeRun(t, db, "store", "check"); out != "ok\n" {
		t.Errorf("store check after purge: %q", out)
	}
}

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
	if code != ExitUsage || !strings.Contains(errs, edited+": exists and differs from the store") {
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

func TestStoreCheckAndBackup(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list") // creates and seeds the store
	if out := storeRun(t, db, "store", "check"); out != "ok\n" {
		t.Errorf("store check: %q", out)
	}
	dst := filepath.Join(t.TempDir(), "backup.db")
	if out := storeRun(t, db, "store", "backup", dst); !strings.Contains(out, "backed up "+db+" to "+dst) {
		t.Errorf("store backup: %q", out)
	}
	fi, err := os.Stat(dst)
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600 {
		t.Errorf("backup mode %v, want 0600", fi.Mode().Perm())
	}
	if out := storeRun(t, dst, "store", "check"); out != "ok\n" {
		t.Errorf("store check of the backup: %q", out)
	}
	if a, b := storeRun(t, db, "list"), storeRun(t, dst, "list"); a != b {
		t.Errorf("the backup lists differently:\n%s\n%s", a, b)
	}
	before, _ := os.ReadFile(dst)
	code, _, errs := run(t, db, "store", "backup", dst)
	if code != ExitUsage || !strings.Contains(errs, "exists; a backup never replaces a file") {
		t.Errorf("backup over an existing file: exit %d %q", code, errs)
	}
	if after, _ := os.ReadFile(dst); !bytes.Equal(before, after) {
		t.Error("a refused backup changed the existing file")
	}

	// A file that is not a store: reported, exit 1, never changed.
	junk := filepath.Join(t.TempDir(), "junk.db")
	content := bytes.Repeat([]byte("not a database "), 1000)
	if err := os.WriteFile(junk, content, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := run(t, junk, "store", "check")
	if code != ExitFail || !strings.Contains(out, "not a hostplan store") {
		t.Errorf("store check of junk: exit %d %q", code, out)
	}
	if code, _, errs := run(t, junk, "list"); code != ExitFail || !strings.Contains(errs, "not a hostplan store") {
		t.Errorf("list on junk: exit %d %q", code, errs)
	}
	if got, _ := os.ReadFile(junk); !bytes.Equal(got, content) {
		t.Error("a command changed a file that is not a store")
	}
	missing := filepath.Join(t.TempDir(), "missing.db")
	if code, _, errs := run(t, missing, "store", "check"); code != ExitFail || !strings.Contains(errs, "no store at "+missing) {
		t.Errorf("store check of a missing store: exit %d %q", code, errs)
	}
	if _, err := os.Stat(missing); err == nil {
		t.Error("store check created a store")
	}
	for _, args := range [][]string{{"store"}, {"store", "fix"}, {"store", "backup"}, {"store", "check", "x"}} {
		if code, _, _ := run(t, db, args...); code != ExitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// While another hostplan holds the store, a command waits a second and
// says so instead of hanging.
func TestStoreInUseMessage(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list")
	st, err := store.Open(db, nil) // bbolt's lock belongs to the open file: this process counts as another
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	code, _, errs := run(t, db, "history", "qlora-legal-70b")
	if code != ExitFail || !strings.Contains(errs, "is in use by another hostplan") {
		t.Errorf("history while the store is held: exit %d %q", code, errs)
	}
}

func TestDiffJSON(t *testing.T) {
	a, err := decodeOrdered([]byte(`{"b": 1, "a": {"low": 1, "likely": 2, "high": 3}, "l": [1, 2], "s": "x<y", "gone": true}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := decodeOrdered([]byte(`{"b": 1, "a": 2, "l": [1, 3, 4], "s": "x<z", "new": null}`))
	if err != nil {
		t.Fatal(err)
	}
	var got []fieldChange
	diffJSON("", a, b, &got)
	want := []fieldChange{
		{"a", `{"low": 1, "likely": 2, "high": 3}`, "2"},
		{"l[1]", "2", "3"},
		{"l[2]", absent, "4"},
		{"s", `"x<y"`, `"x<z"`},
		{"gone", "true", absent},
		{"new", absent, "null"},
	}
	if len(got) != len(want) {
		t.Fatalf("diff = %v\nwant   %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d = %v, want %v", i, got[i], want[i])
		}
	}
	if c := clip(strings.Repeat("é", 100)); len([]rune(c)) != 72 || !strings.HasSuffix(c, "…") {
		t.Errorf("clip = %q", c)
	}
}

// A new store's examples record the model version and the catalog date of
// their reports, so the lineage says what they were evaluated with.
func TestSeededExamplesHaveLineage(t *testing.T) {
	db := tempDB(t)
	code, out, errs := run(t, db, "history", "constrained-snapshot-training")
	if code != ExitOK {
		t.Fatalf("history: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, model.Version) || !strings.Contains(out, "2023-05-01") {
		t.Errorf("history of a seeded example lacks the model version or catalog date:\n%s", out)
	}
}
