package export

import (
	"fmt"
	"math"
	"strings"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// The Checks sheet: the workbook's integrity, as formulas of the workbook
// itself — each total equals its parts by the cost identity, Summary's
// copies equal Costs, Monthly's cumulative cost at the horizon equals the
// cost over the horizon, every driver's values lie within its scenario
// (or catalog) bounds, and low ≤ likely ≤ high for every estimate. Each
// check counts its problems; their sum, the named cell
// integrity_problems, shows on Summary: 0 after any valid edit, above 0
// after an inconsistent one (a formula overwritten, a value out of
// bounds, a low above its high). The Audit sheet, which compares with the
// engine's values at export, measures drift instead, which any edit
// causes.

// checkedDriver is a driver row of Drivers and its bounds.
type checkedDriver struct {
	row         int
	label, name string
	rng         scenario.Range
	bounded     bool
	byCase      bool // Low and High are the engine's at each case, in no order
}

// nameIntegrity is the defined name of the sum of the Checks sheet's
// problems.
const nameIntegrity = "integrity_problems"

// Layout of the Checks sheet.
const (
	rowChkTotal  = 3
	rowChkHeader = 5
)

// Columns of the Checks sheet.
const (
	colChkWhat = 1 + iota
	colChkWhere
	colChkProblems
	colChkMin
	colChkMax
	colChkNote
)

func writeChecks(b *book, r *model.Report) {
	const sh = sheetChecks
	b.title(sh, 1, 1, "Integrity checks: the workbook against itself (0 after any valid edit)")
	b.str(sh, 1, 2, "Each check counts its problems. Unlike the Audit sheet (drift from the exported state, which any edit moves), these stay at 0 while the workbook is consistent.")
	b.headerRow(sh, rowChkHeader, "Check", "Cells", "Problems", "Minimum", "Maximum", "Note")
	row := rowChkHeader + 1
	check := func(what, where, formula string) {
		b.str(sh, colChkWhat, row, what)
		b.str(sh, colChkWhere, row, where)
		b.formula(sh, colChkProblems, row, formula, b.count, numResult(0))
		row++
	}
	// Totals equal their parts.
	differs := func(x, parts string) string {
		return fmt.Sprintf("IFERROR(IF(ABS(%[1]s-(%[2]s))/MAX(1,ABS(%[1]s))>%[3]s,1,0),1)", x, parts, tolerance)
	}
	for i, d := range r.Directions {
		ref := costRefs(func(c costColumn) string { return costRef(c.col, i) })
		for _, x := range []costid.Driver{costid.VariableCostPerRun, costid.CostPerRun, costid.CostHorizon} {
			c := ref(x)
			check(d.Title+": "+costid.Label(x)+" equals its parts ("+costWords(x)+")", c,
				differs(c, costid.Definition(x).Formula(ref)))
		}
		horizon := costRef(colHorizon, i)
		monthly := sheetMonthly + "!" + absCell(i+2, 2) + ":" + absCell(i+2, maxHorizonMonths+1)
		check(d.Title+": Monthly's cumulative cost at the horizon equals the cost over the horizon", monthly,
			differs(horizon, "INDEX("+monthly+","+nameHorizonMonths+")"))
		for _, c := range []struct {
			col, sum int
			what     string
		}{{colPerRun, colSumPerRun, "cost per run"}, {colHorizon, colSumHorizon, "cost over the horizon"}} {
			at := sheetSummary + "!" + absCell(c.sum, summaryTableRow+1+i)
			check(d.Title+": Summary's "+c.what+" equals Costs'", at, differs(costRef(c.col, i), at))
		}
	}
	// Summary's ranks by cost: 1 … the number of feasible directions, each
	// once (their sum and sum of squares are those of 1 … k).
	if n := len(r.Directions); n > 0 {
		ranks := sheetSummary + "!" + absCell(colSumRank, summaryTableRow+1) + ":" + absCell(colSumRank, summaryTableRow+n)
		feasible := sheetSummary + "!" + absCell(colSumIfFeasible, summaryTableRow+1) + ":" + absCell(colSumIfFeasible, summaryTableRow+n)
		check("Summary's ranks by cost are 1 to the number of feasible directions, each once", ranks,
			fmt.Sprintf("IF(COUNT(%[1]s)<>COUNT(%[2]s),1,IF(COUNT(%[1]s)=0,0,IF(AND(MIN(%[1]s)=1,MAX(%[1]s)=COUNT(%[1]s),SUM(%[1]s)=COUNT(%[1]s)*(COUNT(%[1]s)+1)/2,SUMSQ(%[1]s)=COUNT(%[1]s)*(COUNT(%[1]s)+1)*(2*COUNT(%[1]s)+1)/6),0,1)))", ranks, feasible))
	}
	// Every driver within its bounds; low ≤ likely ≤ high. The sheet's
	// data validation refuses an entry that breaks either (validate).
	for _, d := range b.checked {
		low, likely, high := sheetDrivers+"!"+absCell(colDrvLow, d.row), sheetDrivers+"!"+absCell(colDrvLikely, d.row), sheetDrivers+"!"+absCell(colDrvHigh, d.row)
		where := sheetDrivers + "!" + cell(colDrvLow, d.row) + ":" + cell(colDrvHigh, d.row)
		if !d.byCase {
			check(d.label+": low ≤ likely ≤ high", where,
				fmt.Sprintf("IF(AND(ISNUMBER(%[1]s),ISNUMBER(%[2]s)),IF(%[1]s>%[2]s,1,0),0)+IF(AND(ISNUMBER(%[2]s),ISNUMBER(%[3]s)),IF(%[2]s>%[3]s,1,0),0)+IF(AND(ISNUMBER(%[1]s),ISNUMBER(%[3]s)),IF(%[1]s>%[3]s,1,0),0)", low, likely, high))
		}
		if !d.bounded {
			b.validate(d, func(string) string { return "TRUE" }, "a number")
			continue
		}
		bound := b.boundCells(row, d.rng)
		b.validate(d, bound, d.rng.String())
		var parts []string
		for _, c := range []string{low, likely, high} {
			blank := "0"
			if c == likely {
				blank = "1" // the costs need a likely value
			}
			parts = append(parts, fmt.Sprintf("IF(ISBLANK(%s),%s,IF(ISNUMBER(%s),IF(%s,0,1),1))", c, blank, c, bound(c)))
		}
		check(d.label+": within the scenario's bounds", where, parts[0]+"+"+parts[1]+"+"+parts[2])
	}
	last := max(row-1, rowChkHeader+1)
	b.title(sh, 1, rowChkTotal, "Integrity problems")
	b.formula(sh, colChkProblems, rowChkTotal, "SUM("+absCell(colChkProblems, rowChkHeader+1)+":"+absCell(colChkProblems, last)+")",
		b.numFmt(fmtGeneral, true), numResult(0))
	b.name(nameIntegrity, sh, colChkProblems, rowChkTotal)
	b.widths(sh, 70, 26, 10, 16, 16, 40)
	b.freeze(sh, rowChkHeader)
}

// boundCells writes range rng's limits in row of the Checks sheet and
// returns the condition that a number in cell c lies within it.
func (b *book) boundCells(row int, rng scenario.Range) func(c string) string {
	const sh = sheetChecks
	var conds []string
	// Named by sheet: the data validation on Drivers reads them too.
	minCell, maxCell := sh+"!"+absCell(colChkMin, row), sh+"!"+absCell(colChkMax, row)
	if !math.IsInf(rng.Min, 0) && rng.Min > -math.MaxFloat64 {
		b.num(sh, colChkMin, row, rng.Min, b.numFmt(fmtGeneral, false), "bound")
		op := ">="
		if rng.MinOpen {
			op = ">"
		}
		conds = append(conds, "%[1]s"+op+minCell)
	}
	if !math.IsInf(rng.Max, 0) && rng.Max < math.MaxFloat64 {
		b.num(sh, colChkMax, row, rng.Max, b.numFmt(fmtGeneral, false), "bound")
		conds = append(conds, "%[1]s<="+maxCell)
	}
	if rng.Whole {
		conds = append(conds, "%[1]s=INT(%[1]s)")
	}
	note := rng.Why
	if rng.Zero != "" {
		note = "0: " + rng.Zero + ". " + note
	}
	b.str(sh, colChkNote, row, note)
	return func(c string) string {
		s := "TRUE"
		if len(conds) > 0 {
			s = "AND("
			for i, k := range conds {
				if i > 0 {
					s += ","
				}
				s += fmt.Sprintf(k, c)
			}
			s += ")"
		}
		if rng.Zero != "" {
			s = "OR(" + c + "=0," + s + ")"
		}
		return s
	}
}

// validate adds data validation to the Low, Likely and High cells of
// driver d on Drivers: a number for which within (the condition of the
// Checks sheet's bound cells, boundCells) holds, and low ≤ likely ≤ high
// where the three are an estimate's; an entry that is not is refused with
// a message naming the driver and what it allows. A formula (a converted
// price) is not typed over, so has none.
func (b *book) validate(d checkedDriver, within func(c string) string, allowed string) {
	const sh = sheetDrivers
	low, likely, high := absCell(colDrvLow, d.row), absCell(colDrvLikely, d.row), absCell(colDrvHigh, d.row)
	for _, c := range []struct {
		col   int
		order string
		what  string
	}{
		{colDrvLow, fmt.Sprintf("OR(NOT(ISNUMBER(%[2]s)),%[1]s<=%[2]s)", low, likely), "low, at most the likely value"},
		{colDrvLikely, fmt.Sprintf("OR(NOT(ISNUMBER(%[2]s)),%[1]s>=%[2]s),OR(NOT(ISNUMBER(%[3]s)),%[1]s<=%[3]s)", likely, low, high), "likely, from the low to the high value"},
		{colDrvHigh, fmt.Sprintf("OR(NOT(ISNUMBER(%[2]s)),%[1]s>=%[2]s)", high, likely), "high, at least the likely value"},
	} {
		if b.written[sh][d.row][c.col] == "=" {
			continue
		}
		x := absCell(c.col, d.row)
		conds := []string{"ISNUMBER(" + x + ")", within(x)}
		msg := d.label + " (" + c.what + "): " + allowed
		if !d.byCase {
			conds = append(conds, c.order)
		}
		if d.rng.Why != "" {
			msg += " — " + d.rng.Why
		}
		dv := excelize.NewDataValidation(c.col != colDrvLikely)
		dv.Sqref = cell(c.col, d.row)
		dv.Type = "custom"
		formula := "AND(" + strings.Join(conds, ",") + ")"
		// Escaped for the XML, as excelize's own setters escape theirs.
		dv.Formula1 = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(formula)
		dv.SetError(excelize.DataValidationErrorStyleStop, "Not allowed", truncateRunes(msg, maxValidationMessage))
		b.fail(b.f.AddDataValidation(sh, dv))
		b.validations = append(b.validations, validation{cellAt{sh, c.col, d.row}, formula, msg})
	}
}

// maxValidationMessage is the longest error message of a data validation
// Excel accepts, in characters.
const maxValidationMessage = 225

// truncateRunes is s cut to at most n characters, with an ellipsis when cut.
func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// validation is the data validation of one input cell: the condition its
// value must meet and the message a refused entry shows.
type validation struct {
	at      cellAt
	formula string
	message string
}
