package cli

import (
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hostplan/internal/export"
)

// TestExportCompare exports two examples and a stored scenario into one
// workbook: a Compare sheet with a column each, in the order given.
func TestExportCompare(t *testing.T) {
	db := tempDB(t)
	ex := examples(t)
	storeRun(t, db, "save", ex[2])
	stored := strings.TrimSuffix(filepath.Base(ex[2]), ".json")
	out := filepath.Join(t.TempDir(), "compare.xlsx")
	got := storeRun(t, db, "export", ex[0], ex[1], stored, "-o", out, "--draws", "100")
	if want := "wrote " + out + " (3 scenarios side by side)\n"; got != want {
		t.Errorf("export said %q, want %q", got, want)
	}
	f := openXLSX(t, out)
	if sheets := f.GetSheetList(); !slices.Equal(sheets, []string{"Compare"}) {
		t.Fatalf("sheets %v, want [Compare]", sheets)
	}
	ids := []string{
		strings.TrimSuffix(filepath.Base(ex[0]), ".json"),
		strings.TrimSuffix(filepath.Base(ex[1]), ".json"),
		stored,
	}
	cellsAre(t, f, "Compare", map[string]string{"B5": ids[0], "C5": ids[1], "D5": ids[2]})
	src, _ := f.GetCellValue("Compare", "D6")
	if !strings.Contains(src, "revision 1 (the current one) of scenario "+stored) {
		t.Errorf("the stored scenario's source is %q", src)
	}
}

// TestExportCharts writes the charts of one scenario without a workbook:
// a PNG and an SVG per chart, named by the scenario id.
func TestExportCharts(t *testing.T) {
	db := tempDB(t)
	dir := filepath.Join(t.TempDir(), "slides") // made by the command
	ex := examples(t)[0]
	id := strings.TrimSuffix(filepath.Base(ex), ".json")
	got := storeRun(t, db, "export", ex, "--charts", dir, "--draws", "100")
	if want := "wrote 3 charts to " + dir + ", each as PNG and SVG\n"; got != want {
		t.Errorf("export said %q, want %q", got, want)
	}
	for _, name := range []string{"cumulative-cost", "efficiency", "tornado"} {
		p := filepath.Join(dir, id+"-"+name+".png")
		fh, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := png.Decode(fh); err != nil {
			t.Errorf("%s: %v", p, err)
		}
		fh.Close()
		if fi, err := os.Stat(filepath.Join(dir, id+"-"+name+".svg")); err != nil || fi.Size() == 0 {
			t.Errorf("%s.svg: %v", name, err)
		}
	}
}

// Bad requests are refused before anything is written.
func TestExportRefuses(t *testing.T) {
	ex := examples(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.xlsx")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"export", ex[0]}, "-o OUT.xlsx, --charts DIR or both"},
		{append(append([]string{"export"}, tooMany(ex, export.MaxCompared+1)...), "-o", out), "give 1 to 16,383 scenario files"},
		{[]string{"export", ex[0], "--charts", file}, "is a file, not a directory"},
		{[]string{"export", ex[0], "no-such-scenario", "-o", out}, "no-such-scenario: no such file"},
	} {
		code, _, errs := run(t, tempDB(t), tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q; want a usage error with %q", tc.args[1:], code, errs, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a refused export left %s behind (%v)", out, err)
	}
}

// tooMany is n scenario files, the examples over and over.
func tooMany(ex []string, n int) []string {
	var out []string
	for len(out) < n {
		out = append(out, ex[len(out)%len(ex)])
	}
	return out
}
