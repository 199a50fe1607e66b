package cli

import (
	"os"
	"path/filepath"
	"testing"

	"hostplan/internal/bom"
)

// withBOM writes a copy of file with a byte order mark first.
func withBOM(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), filepath.Base(file))
	if err := os.WriteFile(p, append([]byte(bom.Mark), b...), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// A file an editor saved with a byte order mark reads as without it, in
// every command that reads the user's files.
func TestByteOrderMarkAccepted(t *testing.T) {
	db := tempDB(t)
	sc := withBOM(t, "../../scenarios/qlora-legal-70b.json")
	csvFile := filepath.Join(t.TempDir(), "prices.csv")
	if err := os.WriteFile(csvFile, []byte(bom.Mark+"kind,id,field,value,as_of,source\ncloud,aws-p5-h100,on_demand,5.10,2026-10-01,list\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"validate", sc},
		{"eval", sc},
		{"save", sc},
		{"import", sc},
		{"fit", withBOM(t, "testdata/usl.csv")},
		{"catalog", "import", csvFile},
	} {
		if code, out, errs := run(t, db, args...); code != ExitOK {
			t.Errorf("%v: exit %d\n%s%s", args, code, out, errs)
		}
	}
}
