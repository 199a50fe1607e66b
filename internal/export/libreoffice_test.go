package export

import (
	"context"
	"encoding/csv"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// TestLibreOfficeRecalculates opens the workbook as a user would: LibreOffice
// loads it, recalculates every formula and exports each sheet as CSV. The
// recalculated costs must equal the Report's. Skipped with -short or when
// soffice is not installed.
func TestLibreOfficeRecalculates(t *testing.T) {
	if testing.Short() {
		t.Skip("starts LibreOffice")
	}
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		t.Skip("soffice not on PATH")
	}
	dir := t.TempDir()
	home := filepath.Join(dir, "home") // a private profile: no fight with a running soffice
	out := filepath.Join(dir, "csv")
	path := filepath.Join(dir, "plan.xlsx")
	s, r := testScenario(), awkwardReport(2.7, 36)
	s.Name = "=1+1"
	if err := WriteWorkbook(path, s, r); err != nil {
		t.Fatal(err)
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// CSV filter options: comma, double quote, UTF-8, from line 1, default
	// cell formats, language 0, quoted fields not forced to text, detect
	// special numbers, raw values (not as shown), no formulas, no trimming,
	// sheet -1 = every sheet to its own file (LibreOffice 7.2+).
	cmd := exec.CommandContext(ctx, soffice,
		"-env:UserInstallation=file://"+filepath.ToSlash(home),
		"--headless", "--norestore",
		"--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false,-1",
		"--outdir", out, path)
	cmd.Env = append(os.Environ(), "HOME="+home)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}

	sheets := map[string][][]string{}
	for _, sh := range []string{sheetSummary, sheetCosts, sheetMonthly} {
		rows, err := readCSV(filepath.Join(out, "plan-"+sh+".csv"))
		if errors.Is(err, os.ErrNotExist) && sh == sheetSummary {
			// Before 7.2 only the first sheet is exported, as plan.csv.
			rows, err = readCSV(filepath.Join(out, "plan.csv"))
		}
		if errors.Is(err, os.ErrNotExist) {
			t.Logf("no CSV for %s (LibreOffice before 7.2 exports the first sheet only)", sh)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sheets[sh] = rows
		for i, row := range rows {
			show := i < 4
			switch sh {
			case sheetSummary:
				show = i == 0 || i >= summaryTableRow-1
			case sheetMonthly:
				show = i < 3 || i == len(rows)-1
			}
			if show {
				t.Logf("%s.csv row %d: %q", sh, i+1, row)
			}
		}
	}

	at := func(sheet string, col, row int) string {
		rows := sheets[sheet]
		if row-1 >= len(rows) || col-1 >= len(rows[row-1]) {
			return ""
		}
		return rows[row-1][col-1]
	}
	check := func(sheet string, col, row int, want float64) {
		t.Helper()
		if sheets[sheet] == nil {
			return
		}
		s := at(sheet, col, row)
		got, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Errorf("LibreOffice %s!%s = %q, not a number", sheet, cell(col, row), s)
			return
		}
		if !closeTo(got, want, relTol) {
			t.Errorf("LibreOffice %s!%s = %.12g, want %.12g", sheet, cell(col, row), got, want)
		}
	}

	if got := at(sheetSummary, 2, 1); got != "=1+1" {
		t.Errorf("LibreOffice Summary!B1 = %q, want the literal text =1+1", got)
	}
	for i, d := range r.Directions {
		check(sheetCosts, colVariable, costRow(i), d.VariableCostPerRun)
		check(sheetCosts, colPerRun, costRow(i), d.CostPerRun)
		check(sheetCosts, colHorizon, costRow(i), d.CostHorizon)
		check(sheetSummary, 7, summaryTableRow+1+i, d.CostPerRun)
		check(sheetSummary, 8, summaryTableRow+1+i, d.CostHorizon)
		for m, want := range d.CumulativeByMonth {
			check(sheetMonthly, i+2, m+2, want)
		}
	}
}

func readCSV(path string) ([][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1
	return cr.ReadAll()
}
