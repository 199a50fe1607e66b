package export

import (
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/testtool"
)

// TestLibreOfficeRecalculates opens workbooks as a user would: LibreOffice
// loads them, recalculates every formula and exports each sheet as CSV.
// The recalculated costs must equal the Report's, for a hand-made report
// with awkward numbers and for the model's report of every example
// scenario. Skipped with -short or when soffice is not installed.
func TestLibreOfficeRecalculates(t *testing.T) {
	soffice := testtool.Need(t, "soffice", "make test-workbook")
	dir := t.TempDir()
	home := filepath.Join(dir, "home") // a private profile: no fight with a running soffice
	out := filepath.Join(dir, "csv")
	path := filepath.Join(dir, "plan.xlsx")
	s, r := testScenario(), awkwardReport(2.7, 36)
	s.Name = "=1+1"
	// Cheaper to own, so that on-premises breaks even inside the 36
	// months: monthly spend 98.77 + 2.7 × 0.2000123 ≈ 99.31 against
	// cloud's ≈ 997 and managed's ≈ 3333.
	r.Directions[2].OneOffCost, r.Directions[2].MonthlyFixedCost = 12345.6789, 98.7654321
	r.DeriveCosts()
	addAnalysis(r) // hand-made spread and tornado: here only their plumbing counts
	if len(r.Comparisons.BreakEvenMonths) == 0 {
		t.Fatal("test report has no break-even month to recalculate")
	}
	if err := WriteWorkbook(path, s, r); err != nil {
		t.Fatal(err)
	}
	examples := exampleReports(t)
	paths := []string{path}
	for _, ex := range examples {
		p := filepath.Join(dir, ex.name+".xlsx")
		if err := WriteWorkbook(p, ex.s, ex.r); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}

	convertCSV(t, soffice, home, out, paths...)

	sheets := map[string][][]string{}
	for _, sh := range []string{sheetSummary, sheetCosts, sheetMonthly, sheetComparisons, sheetScaling, sheetUncertainty, sheetSensitivity} {
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
			case sheetComparisons, sheetSensitivity:
				show = i < 10
			case sheetScaling:
				show = i >= 7 && i < 13
			case sheetUncertainty:
				show = i == 0 || i >= 12
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
		got, err := csvNumber(sheets[sheet], col, row)
		if err != nil {
			t.Errorf("LibreOffice %s!%s: %v", sheet, cell(col, row), err)
			return
		}
		if !closeTo(got, want, relTol) {
			t.Errorf("LibreOffice %s!%s = %.12g, want %.12g", sheet, cell(col, row), got, want)
		}
	}

	if got := at(sheetSummary, 2, 1); got != "=1+1" {
		t.Errorf("LibreOffice Summary!B1 = %q, want the literal text =1+1", got)
	}
	// The cost figures, and the break-even months recalculated from Costs
	// (column D, a formula), equal the report's.
	for _, c := range costCells(r) {
		check(c.sheet, c.col, c.row, c.want)
	}
	// The engine's break-even months (column C) arrive as written; the
	// tornado's chart series (formulas) are the bars less the base;
	// simulated and scaling values arrive as written.
	for _, be := range r.Comparisons.BreakEvenMonths {
		check(sheetComparisons, 3, breakEvenRow(r, be.Cheaper, be.Than), be.Month)
	}
	tor := r.Tornado
	for i, bar := range tor.Bars {
		check(sheetSensitivity, colSensLowDelta, rowSensHeader+1+i, bar.Low-tor.Base)
		check(sheetSensitivity, colSensHighDelta, rowSensHeader+1+i, bar.High-tor.Base)
	}
	if got := at(sheetUncertainty, 1, 1); sheets[sheetUncertainty] != nil && got != "Monte Carlo simulation: simulated values, not formulas" {
		t.Errorf("LibreOffice Uncertainty!A1 = %q", got)
	}
	for i, d := range r.Uncertainty.Directions {
		check(sheetUncertainty, 3, 14+i, d.CostP50)
		check(sheetUncertainty, 8, 14+i, d.ProbCheapest)
	}
	// Cloud's chosen row (8 GPUs) is row 12 of Scaling.
	p := r.Directions[1].Scaling[3]
	check(sheetScaling, 1, 12, float64(p.GPUs))
	check(sheetScaling, 2, 12, p.StepSeconds)
	check(sheetScaling, 8, 12, p.Efficiency)

	// Every example: the model's report, recalculated.
	for _, ex := range examples {
		t.Run(ex.name, func(t *testing.T) {
			sheets := map[string][][]string{}
			for _, sh := range []string{sheetSummary, sheetCosts, sheetMonthly, sheetComparisons} {
				rows, err := readCSV(filepath.Join(out, ex.name+"-"+sh+".csv"))
				if errors.Is(err, os.ErrNotExist) && sh == sheetSummary {
					rows, err = readCSV(filepath.Join(out, ex.name+".csv"))
				}
				if errors.Is(err, os.ErrNotExist) {
					t.Logf("no CSV for %s (LibreOffice before 7.2 exports the first sheet only)", sh)
					continue
				}
				if err != nil {
					t.Fatal(err)
				}
				sheets[sh] = rows
			}
			for _, c := range costCells(ex.r) {
				if sheets[c.sheet] == nil {
					continue
				}
				got, err := csvNumber(sheets[c.sheet], c.col, c.row)
				if err != nil {
					t.Errorf("LibreOffice %s!%s (%s): %v", c.sheet, cell(c.col, c.row), c.what, err)
				} else if !closeTo(got, c.want, relTol) {
					t.Errorf("LibreOffice %s!%s (%s) = %.12g, report %.12g", c.sheet, cell(c.col, c.row), c.what, got, c.want)
				}
			}
		})
	}
}

// convertCSV has LibreOffice, with its profile in home, open the workbooks
// at paths, recalculate them and write each sheet as CSV into out, as
// <name>-<sheet>.csv.
func convertCSV(t *testing.T, soffice, home, out string, paths ...string) {
	convertSheetCSV(t, soffice, home, out, -1, paths...)
}

// convertSheetCSV has LibreOffice, with its profile in home, open the
// workbooks at paths, recalculate every formula (the profile says so: by
// default LibreOffice shows the results a file caches) and write sheet
// number sheet (from 1; -1 for each to its own file) as CSV into out, as
// <name>-<sheet name>.csv.
func convertSheetCSV(t *testing.T, soffice, home, out string, sheet int, paths ...string) {
	t.Helper()
	recalcProfile(t, home)
	// One soffice run converts at most convertBatch files: LibreOffice 7.4
	// stops after about 246 of a longer list and still exits 0.
	for len(paths) > 0 {
		n := min(len(paths), convertBatch)
		convertBatchCSV(t, soffice, home, out, sheet, paths[:n])
		paths = paths[n:]
	}
}

// convertBatch is the most files one soffice run converts.
const convertBatch = 100

// convertBatchCSV is one soffice run of convertSheetCSV.
func convertBatchCSV(t *testing.T, soffice, home, out string, sheet int, paths []string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	// CSV filter options: comma, double quote, UTF-8, from line 1, default
	// cell formats, language 0, quoted fields not forced to text, detect
	// special numbers, raw values (not as shown), no formulas, no trimming,
	// the sheet (LibreOffice 7.2+).
	args := []string{"-env:UserInstallation=file://" + filepath.ToSlash(home),
		"--headless", "--norestore",
		"--convert-to", "csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,false,false,false," + strconv.Itoa(sheet),
		"--outdir", out}
	cmd := exec.CommandContext(ctx, soffice, append(args, paths...)...)
	cmd.Env = append(os.Environ(), "HOME="+home)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
}

// recalcProfile makes home a LibreOffice profile that recalculates every
// formula of an .xlsx file it loads (Calc > Formula > Recalculation on
// file load, Excel 2007 and newer: always).
func recalcProfile(t testing.TB, home string) {
	if err := os.MkdirAll(filepath.Join(home, "user"), 0o755); err != nil {
		t.Fatal(err)
	}
	xcu := `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse"><value>0</value></prop></item>
</oor:items>
`
	if err := os.WriteFile(filepath.Join(home, "user", "registrymodifications.xcu"), []byte(xcu), 0o644); err != nil {
		t.Fatal(err)
	}
}

// csvNumber is the number in a CSV export's cell (1-based column and row);
// a percentage's % sign is read as ÷ 100.
func csvNumber(rows [][]string, col, row int) (float64, error) {
	if row-1 >= len(rows) || col-1 >= len(rows[row-1]) {
		return 0, fmt.Errorf("no such cell")
	}
	s := rows[row-1][col-1]
	// Raw values still carry the % of a percentage format.
	num, pct := strings.CutSuffix(s, "%")
	x, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if pct {
		x /= 100
	}
	return x, nil
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

// TestLibreOfficeOpensExtras opens the workbook with every extra sheet in
// LibreOffice: merged cells, rich text and date cells arrive as written,
// and the cost formulas still equal the report's. Skipped with -short or
// when soffice is not installed.
func TestLibreOfficeOpensExtras(t *testing.T) {
	soffice := testtool.Need(t, "soffice", "make test-workbook")
	dir := t.TempDir()
	home, out, path := filepath.Join(dir, "home"), filepath.Join(dir, "csv"), filepath.Join(dir, "plan.xlsx")
	c := newConstrained(t)
	if err := WriteWorkbookWith(path, c.s, c.r, c.x); err != nil {
		t.Fatal(err)
	}
	convertCSV(t, soffice, home, out, path)
	read := func(sheet string) [][]string {
		t.Helper()
		rows, err := readCSV(filepath.Join(out, "plan-"+sheet+".csv"))
		if errors.Is(err, os.ErrNotExist) {
			t.Skipf("no CSV for %s (LibreOffice before 7.2 exports the first sheet only)", sheet)
		}
		if err != nil {
			t.Fatal(err)
		}
		return rows
	}
	at := func(rows [][]string, c string) string {
		col, row, err := excelize.CellNameToCoordinates(c)
		if err != nil {
			t.Fatal(err)
		}
		if row-1 >= len(rows) || col-1 >= len(rows[row-1]) {
			return ""
		}
		return rows[row-1][col-1]
	}
	num := func(rows [][]string, c string) float64 {
		t.Helper()
		x, err := strconv.ParseFloat(at(rows, c), 64)
		if err != nil {
			t.Fatalf("%s = %q, not a number", c, at(rows, c))
		}
		return x
	}

	dec := read(sheetDecision)
	if got := at(dec, "A1"); got != "Decision: Hybrid is recommended" {
		t.Errorf("LibreOffice Decision!A1 = %q", got)
	}
	// The ranking: header on row 6, weights on 7, hybrid on 8.
	if got := at(dec, "A8"); got != "Hybrid" {
		t.Fatalf("LibreOffice Decision!A8 = %q, want Hybrid", got)
	}
	if got := num(dec, "C8"); !closeTo(got, c.d.For("hybrid").Total, relTol) {
		t.Errorf("LibreOffice Decision!C8 = %g, want %g", got, c.d.For("hybrid").Total)
	}

	br := read(sheetBrief)
	if got := at(br, "A1"); got != "Compute Readiness Brief: Case-record classifier: snapshot training" {
		t.Errorf("LibreOffice Brief!A1 = %q", got)
	}
	found := false
	for _, row := range br {
		if len(row) > 2 && row[1] == "Hybrid" && row[0] == "1" {
			found = true
		}
	}
	if !found {
		t.Error("LibreOffice Brief has no ranking row 1, Hybrid")
	}

	ck := read(sheetChecklist)
	if n := len(ck) - rowCkHeader; n != len(c.x.Checklist) {
		t.Errorf("LibreOffice Checklist has %d items, want %d", n, len(c.x.Checklist))
	}
	lin := read(sheetLineage)
	if got := at(lin, "C8"); got != "@bob" {
		t.Errorf("LibreOffice Lineage!C8 = %q, want the text @bob", got)
	}
	// A date cell: LibreOffice shows it in its format, in UTC as written.
	if got := at(lin, "B7"); got != "2026-03-01 09:30:00" {
		t.Errorf("LibreOffice Lineage!B7 = %q, want 2026-03-01 09:30:00", got)
	}
	sum := read(sheetSummary)
	for i, d := range c.r.Directions {
		if got := num(sum, cell(8, summaryTableRow+1+i)); !closeTo(got, d.CostHorizon, relTol) {
			t.Errorf("LibreOffice Summary cost over horizon of %s = %g, want %g", d.Direction, got, d.CostHorizon)
		}
	}
}
