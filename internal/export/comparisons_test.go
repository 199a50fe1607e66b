package export

import (
	"fmt"
	"slices"
	"strings"
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
		// A crossing the export does not have: one and a half runs a
		// month make owning cheaper than renting within the horizon.
		{"foundation-7b-pretraining", costid.RunsPerMonth, 1.5, scenario.OnPrem, scenario.Cloud, 0},
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
					// The month was the engine's of its day; the
					// engine's own now is what the workbook must show.
					if a.Direction == c.cheaper && (c.than == "" || o.Direction == c.than) {
						found = true
						t.Logf("%s cheaper than %s from month %.4g (the issue's month, on an older model: %v)", a.Direction, o.Direction, v.num, c.month)
					}
				} else if beyond += boolInt(got == breakEvenBeyond); got != v.text {
					t.Errorf("%s cheaper than %s: %q, the engine %q", a.Direction, o.Direction, got, v.text)
				}
			}
			if c.driver == costid.HorizonMonths && beyond == 0 {
				t.Error("a shorter horizon leaves no crossing after it")
			}
			if c.month == 0 && c.cheaper != "" {
				for _, be := range ex.r.Comparisons.BreakEvenMonths {
					if be.Cheaper == c.cheaper && be.Than == c.than {
						t.Errorf("the export has the crossing of %s with %s already", c.cheaper, c.than)
					}
				}
			}
			if c.cheaper != "" && !found {
				t.Errorf("the engine has no crossing of %s with %q (the issue: month %v): %+v", c.cheaper, c.than, c.month, want.Comparisons.BreakEvenMonths)
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

// TestManagedPricingSwitches: with the engine's report of the other
// pricing (Extras.Pricing), the support example's workbook takes per token
// or a dedicated deployment, whichever costs less, as the engine does:
// raising the input price to 20 per million makes the engine switch to a
// dedicated deployment, and the workbook's managed cost and pricing follow.
func TestManagedPricingSwitches(t *testing.T) {
	cat := mustCatalog(t)
	ex := exampleNamed(t, "support-assistant-70b")
	other := OtherPricing(ex.s, ex.r)
	if other == nil {
		t.Fatal("the support example: no other pricing to weigh")
	}
	x := &Extras{Pricing: evaluate(t, other, cat)}
	b := build(ex.s, ex.r, x)
	if b.err != nil {
		t.Fatal(b.err)
	}
	if b.pricing == nil {
		t.Fatal("no pricing switch with the other pricing's report")
	}
	f := b.f
	i := slices.IndexFunc(ex.r.Directions, func(d model.DirectionResult) bool { return d.Direction == scenario.Managed })
	horizon := cell(colHorizon, costRow(i))
	if got, want := calc(t, f, sheetCosts, horizon), ex.r.Directions[i].CostHorizon; !closeTo(got, want, 1e-9) {
		t.Fatalf("managed cost over the horizon as exported %v, the engine %v", got, want)
	}
	// The engine on the same change: the pricing taken made dear (the
	// input price per token to 20/M, or a dedicated GPU-hour ×5), the
	// offers kept, the pricing left to it.
	taken := ex.r.Directions[i]
	driver, factor, otherModel, otherWords := costid.PriceInPerM, 0.0, costid.ManagedDedicatedCosts, "a dedicated deployment"
	if taken.CostModel == costid.ManagedDedicatedCosts {
		driver, factor, otherModel, otherWords = costid.GPUHourPrice, 5, costid.ManagedInteractiveCosts, "per token"
	}
	in := costInput(t, ex.r, driver)
	dear := 20.0
	if factor > 0 {
		dear = in.Value * factor
	}
	changed := scenario.Clone(ex.s)
	if factor == 0 { // a named dedicated offer would be a dedicated deployment whatever it costs
		changed.Options.Managed.Offer = taken.Offer
	}
	want := evaluate(t, change(t, changed, in, dear), cat)
	wm := want.Direction(scenario.Managed)
	if wm.CostModel != otherModel {
		t.Fatalf("the engine at %s = %v: %s, want %s", in.Name, dear, wm.CostModel, otherWords)
	}
	if err := f.SetCellFloat(sheetDrivers, cell(colDrvLikely, b.names[in.Name].row), dear, -1, 64); err != nil {
		t.Fatal(err)
	}
	t.Logf("the engine at %s = %v: %s, %.2f over the horizon (%s at export: %.2f)", in.Name, dear, otherWords, wm.CostHorizon, taken.CostModel, taken.CostHorizon)
	if got := calc(t, f, sheetCosts, horizon); !closeTo(got, wm.CostHorizon, 1e-9) {
		t.Errorf("managed cost over the horizon at %s = %v: %v, the engine %v (%s)", in.Name, dear, got, wm.CostHorizon, otherWords)
	}
	for _, a := range b.audit {
		if a.what == "managed service: pricing taken" {
			if got, _ := f.CalcCellValue(a.sheet, cell(a.col, a.row)); got != otherWords {
				t.Errorf("pricing taken at %s = %v: %q, want %q", in.Name, dear, got, otherWords)
			}
		}
	}
	// Without the other pricing's report the workbook says it does not switch.
	plain := build(ex.s, ex.r, nil)
	found := false
	for _, cols := range plain.written[sheetCosts] {
		for _, w := range cols {
			found = found || strings.Contains(w, "does not switch to the other pricing")
		}
	}
	if !found {
		t.Error("without the other pricing's report Costs does not say the pricing stays")
	}
	// A pricing the scenario fixes is no choice of the engine's: nothing
	// to say, nothing to switch.
	fixed := scenario.Clone(ex.s)
	fixed.Options.Managed.Pricing = pricingPerToken
	if OtherPricing(fixed, ex.r) != nil {
		t.Error("OtherPricing of a scenario that fixes the pricing")
	}
	fb := build(fixed, evaluate(t, fixed, cat), nil)
	for _, cols := range fb.written[sheetCosts] {
		for _, w := range cols {
			if strings.Contains(w, "does not switch to the other pricing") {
				t.Errorf("a scenario that fixes the pricing: %q", w)
			}
		}
	}
}
