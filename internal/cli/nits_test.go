package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRefusalsSayWhy(t *testing.T) {
	db := tempDB(t)
	storeRun(t, db, "list")
	dir := t.TempDir()
	link := filepath.Join(dir, "link.md")
	if err := os.Symlink(filepath.Join(dir, "real.md"), link); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc := "../../scenarios/qlora-legal-70b.json"
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"show", "qlora-legal-70b", "--rev", "0"}, "revisions start at 1"},
		{[]string{"brief", sc, "-o", link}, "is a symbolic link"},
		{[]string{"brief", sc, "-o", filepath.Join(dir, "missing", "x.md")}, "no such file or directory"},
		{[]string{"save", sc, bad}, "save: nothing was saved: " + bad + " has problems"},
	} {
		code, _, errs := run(t, db, c.args...)
		if code != ExitUsage || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d %q, want exit 2 and %q", c.args, code, errs, c.want)
		}
	}
	if out := storeRun(t, db, "history", "qlora-legal-70b"); strings.Count(out, "\n") != 2 {
		t.Errorf("a refused save wrote a revision:\n%s", out)
	}
}
