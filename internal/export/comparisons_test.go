package export

import (
	"fmt"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// costInput is the first cost input of r that driver d names.
func costInput(t *testing.T, r *model.Report, d costid.Driver) model.CostInput {
	t.Helper()
	for _, dir := range r.Directions {
		for _, in := range dir.CostInputs {
			if in.Driver == d {
				return in
			}
		}
	}
	t.Fatalf("no cost input of driver %s", d)
	return model.CostInput{}
}

// example is the example scenario named name with its report.
func exampleNamed(t *testing.T, name string) example {
	t.Helper()
	for _, ex := range exampleReports(t) {
		if ex.name == name {
			return ex
		}
	}
	t.Fatalf("no example %s", name)
	return example{}
}

// TestBreakEvenFollowsEdits: the edits, each typed into a driver's
// Likely cell and recalculated by excelize, give every ordered pair of
// directions the break-even month the engine finds on the same change —
// crossings the export did not have included — or the text of why there
// is none; the rows do not depend on the horizon, their formulas do.
func TestBreakEvenFollowsEdits(t *testing.T) {
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		example string
		driver  costid.Driver
		x       float64
		// a crossing the engine must find after the edit, and about when
		cheaper, than string
		month         float64
	}{
		{"qlora-legal-70b", costid.RunsPerMonth, 5, scenario.OnPrem, scenario.Managed, 2.11},
		{"qlora-legal-70b", costid.NodePrice, 20000, scenario.OnPrem, "", 0.62},
		{"support-assistant-70b", costid.HorizonMonths, 12, "", "", 0},
	} {
		t.Run(fmt.Sprintf("%s/%s=%v", c.example, c.driver, c.x), func(t *testing.T) {
			ex := exampleNamed(t, c.example)
			pinned := scenario.Clone(ex.s)
			pinOffers(pinned, ex.r)
			in := costInput(t, ex.r, c.driver)
			want := evaluate(t, change(t, pinned, in, c.x), cat)
			b := build(ex.s, ex.r, nil)
			if b.err != nil {
				t.Fatal(b.err)
			}
			f := b.f
			at := b.names[in.Name]
			if err := f.SetCellFloat(sheetDrivers, cell(colDrvLikely, at.row), c.x, -1, 64); err != nil {
				t.Fatal(err)
			}
			found, beyond := false, 0
			for _, p := range breakEvenPairs(want) {
				a, o := &want.Directions[p[0]], &want.Directions[p[1]]
				ref := cell(4, breakEvenRow(ex.r, a.Direction, o.Direction))
				v, _ := breakEvenAtExport(want, a, o)
				got, err := f.CalcCellValue(sheetComparisons, ref, excelize.Options{RawCellValue: true})
				if err != nil {
					t.Fatal(err)
				}
				if v.kind == 'n' {
					if !closeTo(parse(t, got), v.num, 1e-9) {
						t.Errorf("%s cheaper than %s from month %q, the engine %.6g", a.Direction, o.Direction, got, v.num)
					}
					if a.Direction == c.cheaper && (c.than == "" || o.Direction == c.than) && closeTo(v.num, c.month, 0.01) {
						found = true
					}
				} else if beyond += boolInt(got == breakEvenBeyond); got != v.text {
					t.Errorf("%s cheaper than %s: %q, the engine %q", a.Direction, o.Direction, got, v.text)
				}
			}
			if c.driver == costid.HorizonMonths && beyond == 0 {
				t.Error("a shorter horizon leaves no crossing after it")
			}
			if c.cheaper != "" && !found {
				t.Errorf("the engine has no crossing of %s with %s near month %v: %+v", c.cheaper, c.than, c.month, want.Comparisons.BreakEvenMonths)
			}
		})
	}
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
