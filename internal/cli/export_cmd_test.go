package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

// openXLSX opens a written workbook and closes it with the test.
func openXLSX(t *testing.T, path string) *excelize.File {
	t.Helper()
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// cellsAre checks text cells of a sheet.
func cellsAre(t *testing.T, f *excelize.File, sheet string, want map[string]string) {
	t.Helper()
	for c, w := range want {
		if got, _ := f.GetCellValue(sheet, c); got != w {
			t.Errorf("%s!%s = %q, want %q", sheet, c, got, w)
		}
	}
}

// TestExportLineage saves a scenario twice, records a checklist item and
// exports it by id: the workbook carries both revisions oldest first, the
// recorded checklist state, the decision and the brief. The same content
// exported from its file has one lineage row, with the stored revision's
// input hash.
func TestExportLineage(t *testing.T) {
	db := tempDB(t)
	orig, err := os.ReadFile("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		t.Fatal(err)
	}
	first := strings.Replace(string(orig), `"id": "constrained-snapshot-training"`, `"id": "export-lineage"`, 1)
	second := strings.Replace(first, `"seed": 42`, `"seed": 43`, 1)
	if first == string(orig) || second == first {
		t.Fatal("the example's id or seed is not where the test expects it")
	}
	f := writeFile(t, "export-lineage.json", first)
	storeRun(t, db, "save", f, "--author", "ana", "--note", "first draft")
	if err := os.WriteFile(f, []byte(second), 0o644); err != nil {
		t.Fatal(err)
	}
	storeRun(t, db, "save", f, "--author", "=bob", "--note", "new seed")
	storeRun(t, db, "checklist", "export-lineage", "--set", "before.quota=done:Platform team")

	out := filepath.Join(t.TempDir(), "stored.xlsx")
	if got := storeRun(t, db, "export", "export-lineage", "-o", out, "--draws", "200"); got != "wrote "+out+"\n" {
		t.Errorf("export said %q", got)
	}
	// The store was opened once and closed: the next command gets it.
	storeRun(t, db, "list")

	st, err := store.Open(db, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	hist, err := st.History("export-lineage")
	st.Close()
	if err != nil || len(hist) != 2 {
		t.Fatalf("history: %v, %d revisions", err, len(hist))
	}

	wb := openXLSX(t, out)
	sheets := wb.GetSheetList()
	for _, sh := range []string{"Summary", "Decision", "Options", "Costs", "Brief", "Checklist", "Lineage"} {
		if !slices.Contains(sheets, sh) {
			t.Errorf("no %s sheet in %v", sh, sheets)
		}
	}
	cellsAre(t, wb, "Lineage", map[string]string{
		"B3": "export-lineage",
		"B4": "revision 2 (the current one) of scenario export-lineage in the store hostplan.db",
		"A7": "1", "C7": "ana", "D7": "first draft", "E7": model.Version, "G7": hist[0].InputHash,
		"A8": "2", "C8": "=bob", "D8": "new seed", "E8": model.Version, "G8": hist[1].InputHash,
		"A9": "",
		"B7": hist[0].Time.UTC().Format("2006-01-02 15:04:05"),
	})
	if typ, _ := wb.GetCellType("Lineage", "C8"); typ != excelize.CellTypeSharedString {
		t.Errorf("Lineage!C8 (=bob) has type %v, want text", typ)
	}
	if hist[0].InputHash == hist[1].InputHash || !regexp.MustCompile(`^[0-9a-f]{64}$`).MatchString(hist[1].InputHash) {
		t.Errorf("input hashes %q, %q", hist[0].InputHash, hist[1].InputHash)
	}

	// The recorded checklist state reaches the Checklist and the Brief.
	rows, err := wb.GetRows("Checklist")
	if err != nil {
		t.Fatal(err)
	}
	var quota []string
	for _, r := range rows {
		if len(r) == 6 && r[5] == "before.quota" {
			quota = r
		}
	}
	if quota == nil || quota[3] != "done" || quota[4] != "Platform team" {
		t.Errorf("Checklist row of before.quota = %q, want done by Platform team", quota)
	}
	brief, err := wb.GetRows("Brief")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(brief, func(r []string) bool {
		return len(r) > 0 && strings.HasPrefix(r[0], "• [x] Ask for GPU quota") && strings.Contains(r[0], "owner: Platform team")
	}) {
		t.Error("the Brief does not show before.quota as done by Platform team")
	}
	cellsAre(t, wb, "Decision", map[string]string{"A1": "Decision: Hybrid is recommended"})

	// The file of revision 2, exported: one row, the same input hash.
	fout := filepath.Join(t.TempDir(), "file.xlsx")
	storeRun(t, db, "export", f, "-o", fout, "--draws", "0")
	fb := openXLSX(t, fout)
	s, err := loadScenario(f)
	if err != nil {
		t.Fatal(err)
	}
	body, err := scenario.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	// Neither the file's folders nor the login name show: the file's
	// name, and no author unless one is given.
	cellsAre(t, fb, "Lineage", map[string]string{
		"B4": "the file " + filepath.Base(f) + ", not the store",
		"A7": "file",
		"C7": "—",
		"D7": "exported from the file " + filepath.Base(f) + ", not from the store: no revisions are recorded",
		"G7": hex.EncodeToString(sum[:]),
		"A8": "",
	})
	if p, err := fb.GetDocProps(); err != nil || p.Creator != "hostplan" {
		t.Errorf("document creator %q (%v), want hostplan", p.Creator, err)
	}
	aout := filepath.Join(t.TempDir(), "author.xlsx")
	storeRun(t, db, "export", f, "-o", aout, "--draws", "0", "--author", "Finance team")
	ab := openXLSX(t, aout)
	cellsAre(t, ab, "Lineage", map[string]string{"C7": "Finance team"})
	if p, err := ab.GetDocProps(); err != nil || p.Creator != "Finance team" {
		t.Errorf("document creator with --author %q (%v), want Finance team", p.Creator, err)
	}
	// A comparison names the author too (--author was dropped there).
	cout := filepath.Join(t.TempDir(), "compare.xlsx")
	storeRun(t, db, "export", f, f, "-o", cout, "--draws", "0", "--author", "Finance team")
	if p, err := openXLSX(t, cout).GetDocProps(); err != nil || p.Creator != "Finance team" {
		t.Errorf("comparison's creator with --author %q (%v), want Finance team", p.Creator, err)
	}
	if got, _ := fb.GetCellValue("Lineage", "G7"); got != hist[1].InputHash {
		t.Errorf("file export's input hash %s, want revision 2's %s", got, hist[1].InputHash)
	}
	// A file has the default checklist state: every item open.
	cellsAre(t, fb, "Checklist", map[string]string{"D5": "open"})
}

// TestExportThinScenario: a scenario with too few fields for a brief still
// exports; its Brief sheet lists the fields to fill.
func TestExportThinScenario(t *testing.T) {
	f := writeFile(t, "thin.json", `{
  "schema_version": 1, "id": "thin-draft", "name": "Thin draft", "currency": "USD",
  "purpose": {"decision": "TBD", "success_measure": "TBD", "owner": "TBD"},
  "workload": {"shape": "training", "model": {"params_b": 1, "layers": 16, "hidden_size": 2048},
    "precision": "bf16", "tokens_per_run_b": 1, "runs_per_month": 1},
  "data": {"volume_gb": 0, "classification": "internal", "personal_data": false, "residency": "any",
    "movement": "any", "provider_may_process": false},
  "dimensions": {"sovereignty": {"weight": 1}, "workload_shape": {"weight": 0},
    "operations": {"weight": 0, "staff_fte": 1}, "economics": {"weight": 0, "horizon_months": 12},
    "optionality": {"weight": 0, "exit_required": false}},
  "options": {"managed": {}, "cloud": {}, "on_prem": {}, "hpc": {}, "hybrid": {}}
}`)
	out := filepath.Join(t.TempDir(), "thin.xlsx")
	storeRun(t, tempDB(t), "export", f, "-o", out, "--draws", "0")
	wb := openXLSX(t, out)
	cellsAre(t, wb, "Brief", map[string]string{
		"A1":  "Compute Readiness Brief: not written yet",
		"A4":  "• Decision supported (purpose.decision)",
		"A12": "• Retention and clean-up owner (data.retention_owner)",
		"A13": "",
	})
	if v, _ := wb.GetCellValue("Brief", "A2"); !strings.Contains(v, "this scenario fills 6") {
		t.Errorf("Brief!A2 = %q", v)
	}
}

func TestExportUnknownID(t *testing.T) {
	db := tempDB(t)
	out := filepath.Join(t.TempDir(), "x.xlsx")
	code, _, errs := run(t, db, "export", "no-such-scenario", "-o", out)
	if code != ExitUsage || !strings.Contains(errs, "no-such-scenario: no such file, and no scenario with that id in "+db) {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("%s was written: %v", out, err)
	}
}
