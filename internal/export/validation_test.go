package export

import (
	"archive/zip"
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/scenario"
	"hostplan/internal/testtool"
)

// validationHolds is what excelize computes for the data validation v of
// a cell holding value: the condition written into a spare cell of the
// same sheet.
func validationHolds(t *testing.T, f *excelize.File, v validation, value any) string {
	t.Helper()
	ref := cell(v.at.col, v.at.row)
	old, _ := f.GetCellValue(v.at.sheet, ref, excelize.Options{RawCellValue: true})
	oldF, _ := f.GetCellFormula(v.at.sheet, ref)
	if err := f.SetCellValue(v.at.sheet, ref, value); err != nil {
		t.Fatal(err)
	}
	spare := cell(60, 1)
	if err := f.SetCellFormula(v.at.sheet, spare, v.formula); err != nil {
		t.Fatal(err)
	}
	got, err := f.CalcCellValue(v.at.sheet, spare)
	if err != nil && got == "" {
		got = err.Error()
	}
	f.SetCellValue(v.at.sheet, spare, nil)
	if oldF != "" {
		f.SetCellFormula(v.at.sheet, ref, oldF)
	} else if old == "" {
		f.SetCellValue(v.at.sheet, ref, nil)
	} else {
		var x float64
		fmt.Sscan(old, &x)
		f.SetCellValue(v.at.sheet, ref, x)
	}
	return got
}

// TestDriversValidated: every input cell of every driver on Drivers has
// data validation with an error alert that names the driver and what it
// allows; the values exported pass it, and text, a value out of the
// scenario's bounds and a low above the likely value are refused. The
// horizon's bound is the Monthly sheet's length.
func TestDriversValidated(t *testing.T) {
	for _, ex := range exampleReports(t) {
		t.Run(ex.name, func(t *testing.T) {
			b := build(ex.s, ex.r, nil)
			if b.err != nil {
				t.Fatal(b.err)
			}
			f := b.f
			likely := map[int]bool{}
			for _, v := range b.validations {
				if v.at.col == colDrvLikely {
					likely[v.at.row] = true
				}
			}
			for _, d := range b.checked {
				if !likely[d.row] && b.written[sheetDrivers][d.row][colDrvLikely] != "=" {
					t.Errorf("%s: Drivers!%s has no data validation", d.label, cell(colDrvLikely, d.row))
				}
			}
			refused := 0
			for _, v := range b.validations {
				where := fmt.Sprintf("Drivers!%s", cell(v.at.col, v.at.row))
				if !strings.Contains(v.message, ": ") {
					t.Errorf("%s: message %q names no driver and what it allows", where, v.message)
				}
				if raw, _ := f.GetCellValue(sheetDrivers, cell(v.at.col, v.at.row), excelize.Options{RawCellValue: true}); raw != "" {
					var x float64
					fmt.Sscan(raw, &x)
					if got := validationHolds(t, f, v, x); got != "TRUE" {
						t.Errorf("%s: the exported value %v is refused (%s): %s", where, x, v.formula, got)
					}
				}
				if got := validationHolds(t, f, v, "abc"); got == "TRUE" {
					t.Errorf("%s: text is accepted: %s", where, v.formula)
				} else {
					refused++
				}
			}
			for _, d := range b.checked {
				if !d.bounded || math.IsInf(d.rng.Max, 0) || d.rng.Max >= math.MaxFloat64/2 {
					continue
				}
				for _, v := range b.validations {
					if v.at.row == d.row && v.at.col == colDrvLikely {
						if got := validationHolds(t, f, v, d.rng.Max*2+1); got == "TRUE" {
							t.Errorf("%s: %v above its bound %v accepted", d.label, d.rng.Max*2+1, d.rng.Max)
						}
					}
				}
			}
			if refused == 0 {
				t.Fatal("no validation refused anything")
			}
			// The horizon: at most the Monthly sheet's months.
			hr, _ := scenario.BoundOf(horizonField)
			if int(hr.Max) != maxHorizonMonths {
				t.Errorf("horizon bound %v, Monthly holds %d months", hr.Max, maxHorizonMonths)
			}
			for _, v := range b.validations {
				if v.at.row == b.names[nameHorizonMonths].row && v.at.col == colDrvLikely {
					if got := validationHolds(t, f, v, float64(maxHorizonMonths+1)); got == "TRUE" {
						t.Errorf("horizon %d accepted", maxHorizonMonths+1)
					}
					if got := validationHolds(t, f, v, float64(maxHorizonMonths)); got != "TRUE" {
						t.Errorf("horizon %d refused: %s", maxHorizonMonths, got)
					}
				}
			}
			// An estimate's low above its likely value.
			for _, d := range b.checked {
				if d.byCase {
					continue
				}
				lo, _ := f.GetCellValue(sheetDrivers, cell(colDrvLow, d.row), excelize.Options{RawCellValue: true})
				li, _ := f.GetCellValue(sheetDrivers, cell(colDrvLikely, d.row), excelize.Options{RawCellValue: true})
				if lo == "" || li == "" {
					continue
				}
				var x float64
				fmt.Sscan(li, &x)
				for _, v := range b.validations {
					if v.at.row == d.row && v.at.col == colDrvLow {
						if got := validationHolds(t, f, v, x+1); got == "TRUE" {
							t.Errorf("%s: low %v above likely %v accepted", d.label, x+1, x)
						}
					}
				}
				break
			}
		})
	}
}

// TestBadDriverDoesNotBlankSummary: a driver typed as text, or one that
// divides by zero, shows on Summary as a message that names the problem,
// never as an error value, and the integrity problems count it.
func TestBadDriverDoesNotBlankSummary(t *testing.T) {
	ex := exampleNamed(t, "qlora-legal-70b")
	for _, c := range []struct {
		name  string
		value any
	}{{"on_prem_life_years", 0.0}, {"runs_per_month", "abc"}, {"cloud_price_per_gpu_hour", "abc"}} {
		t.Run(fmt.Sprintf("%s=%v", c.name, c.value), func(t *testing.T) {
			b := build(ex.s, ex.r, nil)
			at, ok := b.names[c.name]
			if !ok {
				t.Skipf("no driver %s", c.name)
			}
			f := b.f
			if err := f.SetCellValue(sheetDrivers, cell(colDrvLikely, at.row), c.value); err != nil {
				t.Fatal(err)
			}
			rows, _ := f.GetRows(sheetSummary)
			shown := false
			for r, row := range rows {
				for col := range row {
					ref := cell(col+1, r+1)
					if fo, _ := f.GetCellFormula(sheetSummary, ref); fo == "" {
						continue
					}
					got, err := f.CalcCellValue(sheetSummary, ref)
					if err != nil || strings.HasPrefix(got, "#") {
						t.Errorf("Summary!%s = %q (%v)", ref, got, err)
					}
					shown = shown || got == notKnown
				}
			}
			if !shown {
				t.Error("Summary does not say a driver is not valid")
			}
			if got := calc(t, f, sheetChecks, cell(colChkProblems, rowChkTotal)); got == 0 {
				t.Error("no integrity problem")
			}
		})
	}
}

// TestSheetsProtected: every sheet is protected without a password, and
// the Drivers sheet's inputs are unlocked (TestInputsStyled checks every
// input's style).
func TestSheetsProtected(t *testing.T) {
	ex := exampleNamed(t, "support-assistant-70b")
	f := mustWorkbook(t, ex.s, ex.r)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	for sheet, part := range sheetXML(t, buf.Bytes()) {
		m := regexp.MustCompile(`<sheetProtection[^>]*>`).FindString(part)
		if m == "" {
			t.Errorf("%s is not protected", sheet)
		} else if strings.Contains(m, "assword") || strings.Contains(m, "hashValue") {
			t.Errorf("%s is protected with a password: %s", sheet, m)
		}
	}
}

// sheetXML is the XML of each sheet of the workbook in b, by sheet name.
func sheetXML(t *testing.T, b []byte) map[string]string {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range f.GetSheetList() {
		part := sheetPart(t, zr, name)
		for _, zf := range zr.File {
			if zf.Name == part {
				rc, err := zf.Open()
				if err != nil {
					t.Fatal(err)
				}
				x, _ := io.ReadAll(rc)
				rc.Close()
				out[name] = string(x)
			}
		}
	}
	return out
}

// TestCaseSelectorRefusesOthers: the case selector offers low, likely and
// high and refuses anything else with an error alert.
func TestCaseSelectorRefusesOthers(t *testing.T) {
	ex := exampleNamed(t, "qlora-legal-70b")
	f := mustWorkbook(t, ex.s, ex.r)
	dvs, err := f.GetDataValidations(sheetDrivers)
	if err != nil {
		t.Fatal(err)
	}
	at := cell(colDrvUsed, rowDrvCase)
	for _, dv := range dvs {
		if dv.Sqref != at {
			continue
		}
		if dv.Type != "list" || !strings.Contains(dv.Formula1, strings.Join(cases, ",")) || !dv.ShowErrorMessage || dv.ErrorStyle == nil || *dv.ErrorStyle != "stop" {
			t.Errorf("case selector validation %+v: want a list of %v with a stop alert", dv, cases)
		}
		return
	}
	t.Fatalf("no data validation on the case selector %s", at)
}

// TestNoErrorShown: no cell a reader sees caches an error value (#N/A,
// #DIV/0!): only the hidden chart data on Monthly does, where #N/A leaves
// a gap in a line.
func TestNoErrorShown(t *testing.T) {
	errCell := regexp.MustCompile(`<c r="([A-Z]+)([0-9]+)"[^>]*t="e"[^>]*>`)
	for _, ex := range append(exampleReports(t), daytime(t, mustCatalog(t))) {
		f := mustWorkbook(t, ex.s, ex.r)
		var buf bytes.Buffer
		if err := f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		for sheet, x := range sheetXML(t, buf.Bytes()) {
			for _, m := range errCell.FindAllStringSubmatch(x, -1) {
				col, _ := excelize.ColumnNameToNumber(m[1])
				if sheet == sheetMonthly && col >= colMonChart {
					if v, _ := f.GetColVisible(sheet, m[1]); !v {
						continue
					}
				}
				t.Errorf("%s: %s!%s%s caches an error", ex.name, sheet, m[1], m[2])
			}
		}
	}
}

// TestLibreOfficeKeepsValidation: LibreOffice reads the data validation
// of every driver, the case selector's list and the sheet protection: a
// workbook it saves again still refuses what the export's refused, and
// its formula cells stay locked.
func TestLibreOfficeKeepsValidation(t *testing.T) {
	soffice := testtool.Need(t, "soffice", "make test-workbook")
	ex := exampleNamed(t, "qlora-legal-70b")
	dir := t.TempDir()
	in := filepath.Join(dir, "in", "plan.xlsx")
	if err := os.MkdirAll(filepath.Dir(in), 0o755); err != nil {
		t.Fatal(err)
	}
	b := build(ex.s, ex.r, nil)
	if b.err != nil {
		t.Fatal(b.err)
	}
	if err := b.f.SaveAs(in); err != nil {
		t.Fatal(err)
	}
	home, out := filepath.Join(dir, "home"), filepath.Join(dir, "out")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, soffice, "-env:UserInstallation=file://"+filepath.ToSlash(home),
		"--headless", "--norestore", "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", out, in)
	cmd.Env = append(os.Environ(), "HOME="+home)
	if o, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, o)
	}
	g, err := excelize.OpenFile(filepath.Join(out, "plan.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	dvs, err := g.GetDataValidations(sheetDrivers)
	if err != nil {
		t.Fatal(err)
	}
	custom, list := 0, false
	for _, dv := range dvs {
		switch dv.Type {
		case "custom":
			if dv.ShowErrorMessage && dv.Error != nil && *dv.Error != "" {
				custom += len(strings.Fields(dv.Sqref))
			}
		case "list":
			list = list || dv.Sqref == cell(colDrvUsed, rowDrvCase)
		}
	}
	if custom < len(b.validations) || !list {
		t.Errorf("after LibreOffice: %d cells with a custom validation and its alert (the export wrote %d), case list %v", custom, len(b.validations), list)
	}
	var buf bytes.Buffer
	if err := g.Write(&buf); err != nil {
		t.Fatal(err)
	}
	for _, sh := range []string{sheetDrivers, sheetCosts, sheetSummary} {
		if !strings.Contains(sheetXML(t, buf.Bytes())[sh], "<sheetProtection") {
			t.Errorf("after LibreOffice, %s is not protected", sh)
		}
	}
}

// TestSummarySaysWhichVerdictsFollow: the Feasible column's heading says
// which limits its formula decides again (the budget cap, the team's
// staff) and that the others are the engine's at export: a runs per
// month the capacity cannot take rules a direction out in the engine, not
// in the workbook.
func TestSummarySaysWhichVerdictsFollow(t *testing.T) {
	ex := exampleNamed(t, "qlora-legal-70b")
	f := mustWorkbook(t, ex.s, ex.r)
	h, _ := f.GetCellValue(sheetSummary, cell(colSumFeasible, summaryTableRow))
	for _, w := range []string{"budget cap", "staff", "at export"} {
		if !strings.Contains(h, w) {
			t.Errorf("Summary's Feasible heading %q does not say %q", h, w)
		}
	}
}
