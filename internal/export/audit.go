package export

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// The Audit sheet, the drift from the exported state: one row per formula cell of the cost sheets (Costs,
// Monthly, Comparisons, Summary) with the engine's value, a live formula
// reading the cell, their difference and a flag when it exceeds 1e-9 of
// the engine's value. At export every difference is 0; after a
// spreadsheet recalculates, they show that its arithmetic is the engine's;
// after a driver is changed, they show what moved.

// auditCell is a formula cell of a cost sheet and the engine's value of it
// (none: the cell shows nothing, as a month past the horizon does).
type auditCell struct {
	sheet    string
	col, row int
	what     string
	engine   float64
	none     bool
	// scale is what a difference is measured against, when more than the
	// engine's value: the size of two costs whose difference the cell is.
	scale float64
	shows string // with none: the text the cell shows ("" for nothing)
}

// audited lists a formula cell for the Audit sheet.
func (b *book) audited(sheet string, col, row int, what string, engine float64) {
	b.audit = append(b.audit, auditCell{sheet: sheet, col: col, row: row, what: what, engine: engine})
}

// auditedAgainst lists a formula cell whose value is the difference of
// amounts of about scale: a difference is measured against scale.
func (b *book) auditedAgainst(sheet string, col, row int, what string, engine, scale float64) {
	b.audit = append(b.audit, auditCell{sheet: sheet, col: col, row: row, what: what, engine: engine, scale: scale})
}

// auditedEmpty lists a formula cell that shows nothing at export.
func (b *book) auditedEmpty(sheet string, col, row int, what string) {
	b.audit = append(b.audit, auditCell{sheet: sheet, col: col, row: row, what: what, none: true})
}

// auditedText lists a formula cell that shows a text, no number, at
// export ("never", #N/A).
func (b *book) auditedText(sheet string, col, row int, what, shows string) {
	b.audit = append(b.audit, auditCell{sheet: sheet, col: col, row: row, what: what, none: true, shows: shows})
}

// auditTolerance is the relative difference the Audit sheet flags.
const auditTolerance = 1e-9

// tolerance is auditTolerance in a formula.
var tolerance = strings.ToUpper(strconv.FormatFloat(auditTolerance, 'g', -1, 64))

// rowAudHeader is the Audit sheet's header row; rowAudPrinted the last
// row printed by default: the counts above the cells.
const (
	rowAudHeader  = 5
	rowAudPrinted = 4
)

// Columns of the Audit sheet.
const (
	colAudSheet = 1 + iota
	colAudCell
	colAudWhat
	colAudEngine
	colAudLive
	colAudDiff
	colAudScale
	colAudFlag
)

// writeAudit writes the Audit sheet through a stream writer: it is the
// largest sheet, and written row by row it costs a fraction of cell by
// cell. A stream writes each formula's result with it, so the sheet needs
// no cached results from cache.go.
func writeAudit(b *book) {
	const sh = sheetAudit
	first, last := rowAudHeader+1, rowAudHeader+len(b.audit)
	if b.frozen == nil {
		b.frozen = map[string]int{}
	}
	b.frozen[sh] = rowAudHeader // printed on every page too
	if b.streamed == nil {
		b.streamed = map[string]bool{}
	}
	b.streamed[sh] = true
	b.pageSetup(sh, b.page) // the stream writer keeps it
	// Protected before streaming: the stream writes the worksheet's
	// settings as they are when it starts.
	b.protectSheet(sh)
	sw, err := b.f.NewStreamWriter(sh)
	if err != nil {
		b.fail(err)
		return
	}
	// Widths from what the rows hold: the layout pass (fitColumns) reads
	// what the book wrote cell by cell, and a stream writes past it.
	widths := []float64{20, 8, 60, 18, 20, 14, 16, 10}
	money := b.resolve(fmtMoney)
	for _, a := range b.audit {
		widths[colAudWhat-1] = max(widths[colAudWhat-1], min(float64(utf8.RuneCountInString(a.what))+widthPad, maxAutoWidth+20))
		w := numberWidth(money, max(math.Abs(a.engine), a.scale)) + widthPad
		for _, c := range []int{colAudEngine, colAudLive, colAudScale} {
			widths[c-1] = max(widths[c-1], w)
		}
	}
	for i, w := range widths {
		b.fail(sw.SetColWidth(i+1, i+1, w))
	}
	top := cell(1, rowAudHeader+1)
	b.fail(sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: rowAudHeader, TopLeftCell: top, ActivePane: "bottomLeft",
		Selection: []excelize.Selection{{SQRef: top, ActiveCell: top, Pane: "bottomLeft"}}}))
	row := func(r int, cells ...any) { b.fail(sw.SetRow(cell(1, r), cells)) }
	bold := excelize.Cell{StyleID: b.bold}
	title := func(text string) excelize.Cell { c := bold; c.Value = text; return c }
	row(1, title("Drift from the exported state: every formula cell of the cost sheets against the engine's value at export"))
	row(2, fmt.Sprintf("A difference above %g of the engine's value (or of the amounts it is the difference of) is flagged. At export every difference is 0; after you change a driver, the flagged cells are the ones that moved, as expected. Whether the workbook is consistent is the Checks sheet's integrity problems (on Summary). Only rows 1–%d print (the print area); clear it to print every cell.", auditTolerance, rowAudPrinted))
	b.printArea(sh, colAudFlag, rowAudPrinted)
	flags := fmt.Sprintf(`COUNTIF(%s:%s,"differs")`, absCell(colAudFlag, first), absCell(colAudFlag, max(first, last)))
	row(3, title("Cells drifted"), excelize.Cell{StyleID: b.count, Formula: flags, Value: 0})
	// The workbook's integrity, for comparison: unlike the drift, 0 after
	// any valid edit.
	row(4, title("Integrity problems"), excelize.Cell{StyleID: b.count, Formula: nameIntegrity, Value: 0})
	var header []any
	for _, h := range []string{"Sheet", "Cell", "What", "Engine value", "Workbook value (live)", "Difference", "Measured against", "Flag"} {
		header = append(header, excelize.Cell{StyleID: b.header, Value: h})
	}
	row(rowAudHeader, header...)
	general := b.numFmt(fmtGeneral, false)
	// Each value in the number format of the cell it audits: a month in
	// months, a utilisation as a percentage, money in the currency.
	plain := map[int]int{}
	formatOf := func(a auditCell) int {
		id, err := b.f.GetCellStyle(a.sheet, cell(a.col, a.row))
		b.fail(err)
		if p, ok := plain[id]; ok {
			return p
		}
		st, err := b.f.GetStyle(id)
		b.fail(err)
		p := general
		if st != nil && st.CustomNumFmt != nil {
			p = b.numFmt(*st.CustomNumFmt, false)
		}
		plain[id] = p
		return p
	}
	for i, a := range b.audit {
		r := first + i
		ref := a.sheet + "!" + absCell(a.col, a.row)
		var engine, live any = a.engine, a.engine
		if a.none {
			engine, live = nil, a.shows
		} else if math.IsNaN(a.engine) || math.IsInf(a.engine, 0) {
			b.fail(fmt.Errorf("export: the engine's value of %s is %v, not a finite number", ref, a.engine))
			return
		}
		// Both numbers: their difference; neither: 0; one: moved.
		e, l, d := cell(colAudEngine, r), cell(colAudLive, r), cell(colAudDiff, r)
		diff := fmt.Sprintf(`IF(ISNUMBER(%[2]s),IF(ISNUMBER(%[1]s),%[2]s-%[1]s,"moved"),IF(ISNUMBER(%[1]s),"moved",0))`, e, l)
		flag := fmt.Sprintf(`IF(ISNUMBER(%s),IF(ABS(%s)>%s*%s,"differs",""),"differs")`, d, d, tolerance, cell(colAudScale, r))
		// A stream writes an empty text result as no result at all: the
		// cache filter adds it.
		if live == "" {
			b.cacheResult(sh, cell(colAudLive, r), textResult(""))
		}
		b.cacheResult(sh, cell(colAudFlag, r), textResult(""))
		f := formatOf(a)
		row(r, a.sheet, cell(a.col, a.row), a.what,
			excelize.Cell{StyleID: f, Value: engine},
			excelize.Cell{StyleID: f, Formula: ref, Value: live},
			excelize.Cell{StyleID: f, Formula: diff, Value: 0},
			excelize.Cell{StyleID: f, Value: max(math.Abs(a.engine), a.scale)},
			excelize.Cell{StyleID: b.count, Formula: flag, Value: ""})
	}
	b.fail(sw.Flush())
}
