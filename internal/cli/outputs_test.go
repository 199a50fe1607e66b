package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestOverwriteRule: every command that writes a file the user names
// follows the one rule (outputs.go): a new file is written; an existing
// one is refused with exit 2 naming it and --force, and keeps its content;
// --force replaces it and says so on stderr; a symbolic link or a folder
// is refused even with --force.
func TestOverwriteRule(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list") // creates and seeds the store
	sc := "../../scenarios/constrained-snapshot-training.json"
	for _, c := range []struct {
		name string
		file string
		args func(path string) []string
	}{
		{"export", "out.xlsx", func(p string) []string { return []string{"export", sc, "--draws", "200", "-o", p} }},
		{"export", "cmp.xlsx", func(p string) []string {
			return []string{"export", sc, "qlora-legal-70b", "--draws", "200", "-o", p}
		}},
		{"brief", "brief.md", func(p string) []string { return []string{"brief", sc, "-o", p} }},
		{"catalog export", "cat.csv", func(p string) []string { return []string{"catalog", "export", "-o", p} }},
		{"store backup", "backup.db", func(p string) []string { return []string{"store", "backup", p} }},
	} {
		dir := t.TempDir()
		path := filepath.Join(dir, c.file)
		storeRun(t, db, c.args(path)...)
		if err := os.WriteFile(path, []byte("mine"), 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := run(t, db, c.args(path)...)
		if want := c.name + ": " + path + " exists; not replaced (--force replaces it)"; code != ExitUsage || !strings.Contains(errs, want) {
			t.Errorf("%s over an existing file: exit %d %q, want 2 and %q", c.name, code, errs, want)
		}
		if b, _ := os.ReadFile(path); string(b) != "mine" {
			t.Errorf("%s replaced an existing file without --force", c.name)
		}
		code, _, errs = run(t, db, append(c.args(path), "--force")...)
		if want := c.name + ": replaced " + path + " (--force)\n"; code != ExitOK || errs != want {
			t.Errorf("%s --force: exit %d stderr %q, want %q", c.name, code, errs, want)
		}
		if b, _ := os.ReadFile(path); string(b) == "mine" {
			t.Errorf("%s --force did not replace the file", c.name)
		}
		victim := filepath.Join(dir, "victim")
		if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(dir, "link-"+c.file)
		if err := os.Symlink(victim, link); err != nil {
			t.Fatal(err)
		}
		code, _, errs = run(t, db, append(c.args(link), "--force")...)
		if code != ExitUsage || !strings.Contains(errs, link+" is a symbolic link") || !strings.Contains(errs, "even with --force") {
			t.Errorf("%s --force onto a symlink: exit %d %q", c.name, code, errs)
		}
		if b, _ := os.ReadFile(victim); string(b) != "keep me" {
			t.Errorf("%s wrote through a symlink", c.name)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("%s replaced the symlink", c.name)
		}
		folder := filepath.Join(dir, "folder-"+c.file)
		if err := os.Mkdir(folder, 0o755); err != nil {
			t.Fatal(err)
		}
		code, _, errs = run(t, db, append(c.args(folder), "--force")...)
		if code != ExitUsage || !strings.Contains(errs, folder+" exists and is not a regular file") {
			t.Errorf("%s --force onto a folder: exit %d %q", c.name, code, errs)
		}
		if ents, _ := filepath.Glob(filepath.Join(dir, ".hostplan-*")); len(ents) != 0 {
			t.Errorf("%s left temporary files: %v", c.name, ents)
		}
	}
}

// TestExportChecksEveryFileFirst: export -o with --charts checks the
// workbook and every chart file before writing any, so one existing chart
// file leaves no workbook behind; --force replaces it.
func TestExportChecksEveryFileFirst(t *testing.T) {
	db := tempDB(t)
	sc := "../../scenarios/constrained-snapshot-training.json"
	dir := t.TempDir()
	charts := filepath.Join(dir, "charts")
	xlsx := filepath.Join(dir, "out.xlsx")
	storeRun(t, db, "export", sc, "--draws", "200", "--charts", charts)
	pngs, _ := filepath.Glob(filepath.Join(charts, "*.png"))
	if len(pngs) == 0 {
		t.Fatal("no charts written")
	}
	code, _, errs := run(t, db, "export", sc, "--draws", "200", "-o", xlsx, "--charts", charts)
	if code != ExitUsage || !strings.Contains(errs, "files refused; nothing was written") || !strings.Contains(errs, pngs[0]+" exists") {
		t.Errorf("export over existing charts: exit %d %q", code, errs)
	}
	if _, err := os.Stat(xlsx); err == nil {
		t.Error("a refused export wrote the workbook")
	}
	code, _, errs = run(t, db, "export", sc, "--draws", "200", "-o", xlsx, "--charts", charts, "--force")
	if code != ExitOK || !strings.Contains(errs, "export: replaced "+pngs[0]+" (--force)") || strings.Contains(errs, "replaced "+xlsx) {
		t.Errorf("export --force: exit %d %q", code, errs)
	}
}

// TestExportScenariosAllOrNothing: export-scenarios --force into a folder
// where one destination is a symbolic link writes no file at all (it used
// to write the files before the link and stop there).
func TestExportScenariosAllOrNothing(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list")
	dir := t.TempDir()
	victim := filepath.Join(t.TempDir(), "victim.json")
	if err := os.WriteFile(victim, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "qlora-legal-70b.json")
	if err := os.Symlink(victim, link); err != nil {
		t.Fatal(err)
	}
	edited := filepath.Join(dir, "constrained-snapshot-training.json")
	if err := os.WriteFile(edited, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, db, "export-scenarios", dir, "--force")
	if code != ExitUsage || !strings.Contains(errs, link+" is a symbolic link") || !strings.Contains(errs, "nothing was written") || out != "" {
		t.Errorf("export-scenarios onto a link: exit %d stdout %q stderr %q", code, out, errs)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 2 {
		t.Errorf("a refused export-scenarios left %d entries, want the 2 it found", len(ents))
	}
	if b, _ := os.ReadFile(edited); !bytes.Equal(b, []byte("{}\n")) {
		t.Error("a refused export-scenarios replaced a file")
	}
	if b, _ := os.ReadFile(victim); string(b) != "keep me" {
		t.Error("export-scenarios wrote through a link")
	}
	// Without the link, --force replaces the edited file and says so.
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	code, out, errs = run(t, db, "export-scenarios", dir, "--force")
	if code != ExitOK || errs != "export-scenarios: replaced "+edited+" (--force)\n" || !strings.Contains(out, "wrote "+strconv.Itoa(len(examples(t)))+" scenario files") {
		t.Errorf("export-scenarios --force: exit %d stdout %q stderr %q", code, out, errs)
	}
}
