package export

import (
	"slices"
	"testing"

	"hostplan/internal/model"
)

// TestIntegrityAsExported: every example's workbook, recalculated by
// excelize, has no integrity problem as exported, and one after an
// inconsistent edit: an estimate's low above its high, a cost overwritten.
func TestIntegrityAsExported(t *testing.T) {
	for _, ex := range exampleReports(t) {
		t.Run(ex.name, func(t *testing.T) {
			f := mustWorkbook(t, ex.s, ex.r)
			at := namedRow(t, f, sheetChecks, nameIntegrity)
			total := cell(colChkProblems, at)
			if got := calc(t, f, sheetChecks, total); got != 0 {
				rows, _ := f.GetRows(sheetChecks)
				for i, r := range rows {
					if i >= rowChkHeader && len(r) >= colChkProblems && r[colChkProblems-1] != "0" {
						v, _ := f.CalcCellValue(sheetChecks, cell(colChkProblems, i+1))
						if v != "0" {
							t.Errorf("check %q: %s", r[0], v)
						}
					}
				}
				t.Fatalf("integrity problems = %v as exported", got)
			}
			if got := calc(t, f, sheetSummary, "E1"); got != 0 {
				t.Errorf("Summary!E1 = %v, want the integrity problems, 0", got)
			}
			if ex.name != "qlora-legal-70b" && testing.Short() {
				return // the inconsistent edits: one example is enough
			}
			// Inconsistent: the first driver's low above its likely value.
			first := rowDrvHeader + 1
			likely := calc(t, f, sheetDrivers, cell(colDrvUsed, first))
			if err := f.SetCellValue(sheetDrivers, cell(colDrvLow, first), likely+10); err != nil {
				t.Fatal(err)
			}
			if got := calc(t, f, sheetChecks, total); got == 0 {
				t.Errorf("Drivers!%s low %v above likely %v: no integrity problem", cell(colDrvLow, first), likely+10, likely)
			}
			// And a cost overwritten with a number.
			if err := f.SetCellValue(sheetDrivers, cell(colDrvLow, first), nil); err != nil {
				t.Fatal(err)
			}
			if err := f.SetCellValue(sheetCosts, cell(colHorizon, costRow(0)), 1.0); err != nil {
				t.Fatal(err)
			}
			if got := calc(t, f, sheetChecks, total); got == 0 {
				t.Errorf("Costs!%s overwritten: no integrity problem", cell(colHorizon, costRow(0)))
			}
			// A rank overwritten: ranks are no longer 1 … k.
			g := mustWorkbook(t, ex.s, ex.r)
			rank := cell(colSumRank, summaryTableRow+1+slices.IndexFunc(ex.r.Directions, func(d model.DirectionResult) bool { return d.Feasible }))
			if err := g.SetCellValue(sheetSummary, rank, 7); err != nil {
				t.Fatal(err)
			}
			if got := calc(t, g, sheetChecks, total); got == 0 {
				t.Errorf("Summary!%s rank overwritten with 7: no integrity problem", rank)
			}
		})
	}
}
