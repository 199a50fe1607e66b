package export

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// The Audit sheet: one row per formula cell of the cost sheets (Costs,
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

// rowAudHeader is the Audit sheet's header row.
const rowAudHeader = 5

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

func writeAudit(b *book) {
	const sh = sheetAudit
	first, last := rowAudHeader+1, rowAudHeader+len(b.audit)
	b.title(sh, 1, 1, "Audit: every formula cell of the cost sheets against the engine's value")
	b.str(sh, 1, 2, fmt.Sprintf("A difference above %g of the engine's value is flagged. At export every difference is 0; after you change a driver, the flagged cells are the ones that moved.", auditTolerance))
	b.title(sh, 1, 3, "Cells flagged")
	flags := fmt.Sprintf(`COUNTIF(%s:%s,"differs")`, absCell(colAudFlag, first), absCell(colAudFlag, max(first, last)))
	b.formula(sh, 2, 3, flags, b.count, numResult(0))
	b.headerRow(sh, rowAudHeader, "Sheet", "Cell", "What", "Engine value", "Workbook value (live)", "Difference", "Measured against", "Flag")
	for i, a := range b.audit {
		row := first + i
		ref := a.sheet + "!" + absCell(a.col, a.row)
		b.str(sh, colAudSheet, row, a.sheet)
		b.str(sh, colAudCell, row, cell(a.col, a.row))
		b.str(sh, colAudWhat, row, a.what)
		live := numResult(a.engine)
		if a.none {
			live = textResult(a.shows)
			if a.shows == "#N/A" {
				live = notAvailable()
			}
		} else {
			b.num(sh, colAudEngine, row, a.engine, b.money, "audit "+ref)
		}
		b.formula(sh, colAudLive, row, ref, b.money, live)
		// Both numbers: their difference; neither: 0; one: moved.
		e, l := cell(colAudEngine, row), cell(colAudLive, row)
		diff := fmt.Sprintf(`IF(ISNUMBER(%[2]s),IF(ISNUMBER(%[1]s),%[2]s-%[1]s,"moved"),IF(ISNUMBER(%[1]s),"moved",0))`, e, l)
		b.formula(sh, colAudDiff, row, diff, b.numFmt(fmtGeneral, false), numResult(0))
		d := cell(colAudDiff, row)
		b.num(sh, colAudScale, row, max(math.Abs(a.engine), a.scale), b.money, "audit scale "+ref)
		flag := fmt.Sprintf(`IF(ISNUMBER(%s),IF(ABS(%s)>%s*%s,"differs",""),"differs")`, d, d, tolerance, cell(colAudScale, row))
		b.formula(sh, colAudFlag, row, flag, b.count, textResult(""))
	}
	b.widths(sh, 14, 8, 60, 18, 20, 14, 16, 10)
	b.freeze(sh, rowAudHeader)
}
