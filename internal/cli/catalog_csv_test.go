package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/celltext"
	"hostplan/internal/testtool"
)

// hyperlinkSource is a catalog source a spreadsheet would run as a formula.
const hyperlinkSource = `=HYPERLINK("http://example.invalid/prices","Lambda quote")`

// exportWithHyperlink imports a price whose source is a formula and
// returns the path of the catalog export written after it.
func exportWithHyperlink(t *testing.T, db string) string {
	t.Helper()
	in := writeCSV(t, `cloud,lambda-h100,spot,2.10,2026-10-01,"`+strings.ReplaceAll(hyperlinkSource, `"`, `""`)+`"`)
	mustRun(t, db, "catalog", "import", in)
	out := filepath.Join(t.TempDir(), "catalog.csv")
	mustRun(t, db, "catalog", "export", "-o", out)
	return out
}

// TestCatalogExportEscapesFormulas: no cell of an exported catalog starts
// like a formula, and importing the export into a new store gives the same
// catalog (the same export, byte for byte).
func TestCatalogExportEscapesFormulas(t *testing.T) {
	db := tempDB(t)
	out := exportWithHyperlink(t, db)
	body, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(string(body))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for i, row := range rows {
		for _, c := range row {
			if celltext.FormulaLike(c) {
				t.Errorf("row %d: cell %q starts like a formula", i+1, c)
			}
			if c == "'"+hyperlinkSource {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("the export has no escaped source '%s", hyperlinkSource)
	}

	db2 := tempDB(t)
	mustRun(t, db2, "catalog", "import", out)
	again := filepath.Join(t.TempDir(), "again.csv")
	mustRun(t, db2, "catalog", "export", "-o", again)
	body2, err := os.ReadFile(again)
	if err != nil {
		t.Fatal(err)
	}
	if string(body2) != string(body) {
		t.Error("export → import → export changed the catalog")
	}
	quoted, _ := json.Marshal(hyperlinkSource)
	if src := mustRun(t, db2, "catalog", "show", "cloud/lambda-h100"); !strings.Contains(src, `"source": `+string(quoted)) {
		t.Errorf("the imported source is not %s as given:\n%s", hyperlinkSource, src)
	}
}

// TestLibreOfficeOpensCatalogExportAsText opens an exported catalog in
// LibreOffice, as a user double-clicking it would (the default CSV import,
// which evaluates formulas): the escaped source is text, not a live link.
// Skipped with -short or when soffice is not installed.
func TestLibreOfficeOpensCatalogExportAsText(t *testing.T) {
	soffice := testtool.Need(t, "soffice", "make test-workbook")
	out := exportWithHyperlink(t, tempDB(t))
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, soffice, "-env:UserInstallation=file://"+filepath.ToSlash(home),
		"--headless", "--norestore", "--convert-to", "xlsx", "--outdir", dir, out)
	cmd.Env = append(os.Environ(), "HOME="+home)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	f, err := excelize.OpenFile(filepath.Join(dir, "catalog.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sh := f.GetSheetName(0)
	rows, err := f.GetRows(sh)
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for r, row := range rows {
		for c, v := range row {
			ref, _ := excelize.CoordinatesToCellName(c+1, r+1)
			if fo, _ := f.GetCellFormula(sh, ref); fo != "" {
				t.Errorf("%s holds the formula %q", ref, fo)
			}
			if strings.Contains(v, "HYPERLINK") {
				found++
				if typ, _ := f.GetCellType(sh, ref); typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString {
					t.Errorf("%s = %q is of type %v, not text", ref, v, typ)
				}
			}
		}
	}
	if found == 0 {
		t.Error("LibreOffice's copy has no cell with the source text")
	}
}
