// Package export writes a scenario and its model report as an .xlsx workbook
// finance can work in: the cost of each hosting direction is rebuilt from
// value cells with formulas, so a spreadsheet that recalculates reproduces the
// engine's numbers and follows any input a reader changes. It imports nothing
// of the GUI.
package export

import (
	"fmt"
	"math"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Sheet names, in workbook order.
const (
	sheetSummary = "Summary"
	sheetInputs  = "Inputs"
	sheetCosts   = "Costs"
	sheetMonthly = "Monthly"
	sheetNotes   = "Notes"
)

// Defined names of the workload values every cost formula uses.
const (
	nameRunsPerMonth  = "runs_per_month"
	nameHorizonMonths = "horizon_months"
)

// Workbook builds the workbook for scenario s and its report r. The caller
// closes the returned file. It fails when r is not the report of s or holds
// a number that is not finite (the model never produces one).
func Workbook(s *scenario.Scenario, r *model.Report) (*excelize.File, error) {
	if s == nil || r == nil {
		panic("export: Workbook needs a scenario and a report")
	}
	if s.ID != r.ScenarioID {
		return nil, fmt.Errorf("export: report is for scenario %q, not %q", r.ScenarioID, s.ID)
	}
	f := excelize.NewFile()
	b := &book{f: f}
	b.init()
	b.sheet(sheetSummary)
	b.sheet(sheetInputs)
	b.sheet(sheetCosts)
	b.sheet(sheetMonthly)
	b.sheet(sheetNotes)
	// Inputs and Costs first: they own the cells the other sheets refer to.
	writeInputs(b, s, r)
	writeCosts(b, r)
	writeSummary(b, s, r)
	writeMonthly(b, r)
	writeNotes(b, r)
	if b.err != nil {
		f.Close()
		return nil, b.err
	}
	return f, nil
}

// book wraps the file being built and keeps the first error, so the sheet
// writers read as a list of cells (the sticky-error pattern of bufio.Writer).
type book struct {
	f   *excelize.File
	err error

	header, bold, wrap     int // text styles
	money, hours, gpuHours int // number styles
	count                  int // plain number, General
}

func (b *book) fail(err error) {
	if b.err == nil && err != nil {
		b.err = err
	}
}

func (b *book) init() {
	// Recalculate every formula when Excel or LibreOffice opens the file:
	// excelize stores formulas without cached results.
	full := true
	b.fail(b.f.SetCalcProps(&excelize.CalcPropsOptions{FullCalcOnLoad: &full}))
	// A font given without a family falls back to the viewer's default
	// (a serif in LibreOffice): name the workbook's own.
	family, err := b.f.GetDefaultFont()
	b.fail(err)
	boldFont := &excelize.Font{Bold: true, Family: family}
	b.header = b.newStyle(&excelize.Style{
		Font:      boldFont,
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"E7E6E6"}},
		Border:    []excelize.Border{{Type: "bottom", Color: "7F7F7F", Style: 1}},
		Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"},
	})
	b.bold = b.newStyle(&excelize.Style{Font: boldFont})
	b.wrap = b.newStyle(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	b.money = b.numStyle("#,##0.00")
	b.hours = b.numStyle("0.0")
	b.gpuHours = b.numStyle("#,##0.00")
	b.count = b.newStyle(&excelize.Style{NumFmt: 0})
}

func (b *book) newStyle(s *excelize.Style) int {
	id, err := b.f.NewStyle(s)
	b.fail(err)
	return id
}

func (b *book) numStyle(format string) int {
	return b.newStyle(&excelize.Style{CustomNumFmt: &format})
}

// sheet adds a sheet named name; the first one renames the default sheet.
func (b *book) sheet(name string) {
	if b.f.SheetCount == 1 && b.f.GetSheetName(0) == "Sheet1" {
		b.fail(b.f.SetSheetName("Sheet1", name))
		return
	}
	_, err := b.f.NewSheet(name)
	b.fail(err)
}

// cell returns the A1 name of column col, row row (both from 1).
func cell(col, row int) string {
	c, err := excelize.CoordinatesToCellName(col, row)
	if err != nil {
		panic("export: " + err.Error())
	}
	return c
}

// absCell returns the absolute reference $A$1 of column col, row row.
func absCell(col, row int) string {
	c, err := excelize.CoordinatesToCellName(col, row, true)
	if err != nil {
		panic("export: " + err.Error())
	}
	return c
}

// str writes text. SetCellStr stores it as a shared string, so text that
// starts with = + - or @ stays text and is never read as a formula.
func (b *book) str(sheet string, col, row int, text string) {
	b.fail(b.f.SetCellStr(sheet, cell(col, row), text))
}

// num writes a number with a style; field names the number in the error
// when it is not finite.
func (b *book) num(sheet string, col, row int, x float64, style int, field string) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		b.fail(fmt.Errorf("export: %s is %v, not a finite number", field, x))
		return
	}
	c := cell(col, row)
	b.fail(b.f.SetCellFloat(sheet, c, x, -1, 64))
	b.style(sheet, c, c, style)
}

// formula writes a formula (without the leading =) with a style.
func (b *book) formula(sheet string, col, row int, formula string, style int) {
	c := cell(col, row)
	b.fail(b.f.SetCellFormula(sheet, c, formula))
	b.style(sheet, c, c, style)
}

func (b *book) style(sheet, from, to string, style int) {
	b.fail(b.f.SetCellStyle(sheet, from, to, style))
}

// headerRow writes titles from column 1 of row and styles them as a header.
func (b *book) headerRow(sheet string, row int, titles ...string) {
	for i, t := range titles {
		b.str(sheet, i+1, row, t)
	}
	b.style(sheet, cell(1, row), cell(len(titles), row), b.header)
}

// widths sets the width of columns A, B, … in turn.
func (b *book) widths(sheet string, ws ...float64) {
	for i, w := range ws {
		col, err := excelize.ColumnNumberToName(i + 1)
		if err != nil {
			panic("export: " + err.Error())
		}
		b.fail(b.f.SetColWidth(sheet, col, col, w))
	}
}

// freeze keeps the top rows of sheet in view while scrolling.
func (b *book) freeze(sheet string, rows int) {
	top := cell(1, rows+1)
	b.fail(b.f.SetPanes(sheet, &excelize.Panes{
		Freeze:      true,
		YSplit:      rows,
		TopLeftCell: top,
		ActivePane:  "bottomLeft",
		Selection:   []excelize.Selection{{SQRef: top, ActiveCell: top, Pane: "bottomLeft"}},
	}))
}

// name defines a workbook-wide name for one cell.
func (b *book) name(name, sheet string, col, row int) {
	b.fail(b.f.SetDefinedName(&excelize.DefinedName{Name: name, RefersTo: sheet + "!" + absCell(col, row)}))
}

func yesNo(v bool) string {
	if v {
		return "Yes"
	}
	return "No"
}
