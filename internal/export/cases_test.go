package export

import (
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/model"
)

// TestCaseSelectorMovesEveryEstimate: with the engine's reports at each
// case (Extras.Cases), the case selector at low or high moves every
// direction's cost over the horizon to the engine's with every estimate
// at that end — the plan figures (GPU-hours, tokens per run, traffic)
// included — as excelize recalculates it; the integrity problems stay 0.
func TestCaseSelectorMovesEveryEstimate(t *testing.T) {
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, ex := range exampleReports(t) {
		// -short: the examples whose cases choose other offers or move
		// the traffic and the tokens (the others too without it).
		if testing.Short() && ex.name != "qlora-legal-70b" && ex.name != "support-assistant-70b" && ex.name != "nightly-document-batch-eur" {
			continue
		}
		t.Run(ex.name, func(t *testing.T) {
			cs := &Cases{}
			for _, end := range []string{"low", "high"} {
				r, err := model.Evaluate(CaseScenario(ex.s, end), cat)
				if err != nil {
					t.Fatal(err)
				}
				if end == "low" {
					cs.Low = r
				} else {
					cs.High = r
				}
			}
			f, err := WorkbookWith(ex.s, ex.r, &Extras{Cases: cs})
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			for _, end := range []string{"low", "high", "likely"} {
				want := map[string]*model.Report{"low": cs.Low, "high": cs.High, "likely": ex.r}[end]
				if err := f.SetCellStr(sheetDrivers, cell(colDrvUsed, rowDrvCase), end); err != nil {
					t.Fatal(err)
				}
				for i, d := range ex.r.Directions {
					w := want.Direction(d.Direction)
					if d.CostModel == costid.NoCostModel || w == nil {
						continue
					}
					got := calc(t, f, sheetCosts, cell(colHorizon, costRow(i)))
					if !closeTo(got, w.CostHorizon, relTol) {
						t.Errorf("case %s: %s cost over the horizon %.2f in the workbook, the engine %.2f", end, d.Direction, got, w.CostHorizon)
					}
					if w.CostHorizon != d.CostHorizon {
						moved++
					}
				}
				at := namedRow(t, f, sheetChecks, nameIntegrity)
				if n := calc(t, f, sheetChecks, cell(colChkProblems, at)); n != 0 {
					t.Errorf("case %s: %v integrity problems", end, n)
				}
			}
		})
	}
	if moved == 0 {
		t.Error("no cost moved with the case")
	}
}
