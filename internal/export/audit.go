package export

import (
	"fmt"
	"strings"
)

// The Audit sheet: one row per formula cell of the cost sheets (Costs,
// Monthly, Comparisons, Summary) with the engine's value, a live formula
// reading the cell, their difference and a flag when it exceeds 1e-9 of
// the engine's value. At export every difference is 0; after a
// spreadsheet recalculates, they show that its arithmetic is the engine's;
// after a driver is changed, they show what moved.

// auditCell is a formula cell of a cost sheet and the engine's value of it.
type auditCell struct {
	sheet    string
	col, row int
	what     string
	engine   float64
}

// audited lists a formula cell for the Audit sheet.
func (b *book) audited(sheet string, col, row int, what string, engine float64) {
	b.audit = append(b.audit, auditCell{sheet, col, row, what, engine})
}

// auditTolerance is the relative difference the Audit sheet flags.
const auditTolerance = 1e-9

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
	b.headerRow(sh, rowAudHeader, "Sheet", "Cell", "What", "Engine value", "Workbook value (live)", "Difference", "Flag")
	for i, a := range b.audit {
		row := first + i
		ref := a.sheet + "!" + absCell(a.col, a.row)
		b.str(sh, colAudSheet, row, a.sheet)
		b.str(sh, colAudCell, row, cell(a.col, a.row))
		b.str(sh, colAudWhat, row, a.what)
		b.num(sh, colAudEngine, row, a.engine, b.money, "audit "+ref)
		b.formula(sh, colAudLive, row, ref, b.money, numResult(a.engine))
		diff := cell(colAudLive, row) + "-" + cell(colAudEngine, row)
		b.formula(sh, colAudDiff, row, diff, b.numFmt(fmtGeneral, false), numResult(0))
		flag := fmt.Sprintf(`IF(ABS(%s)>%g*ABS(%s),"differs","")`, cell(colAudDiff, row), auditTolerance, cell(colAudEngine, row))
		b.formula(sh, colAudFlag, row, strings.ReplaceAll(flag, "e-09", "E-09"), b.count, textResult(""))
	}
	b.widths(sh, 14, 8, 60, 18, 20, 14, 10)
	b.freeze(sh, rowAudHeader)
}
