package export

import (
	"fmt"

	"hostplan/internal/model"
	"hostplan/internal/present"
)

// breakEvenFormula is the month from which direction a, with the higher
// one-off cost, is cumulatively cheaper than b, from the named Costs cells:
// two lines one-off + m × monthly spend (the cost identity's cumulative
// cost, internal/model/cost.go) cross at m = (one-off a − one-off b) ÷
// (monthly spend b − monthly spend a), as in model.Comparisons
// (internal/model/compare.go). "never" when a's monthly spend is not lower.
func breakEvenFormula(a, b string) string {
	spend := func(dir string) string {
		named := costRefs(func(c costColumn) string { return dir + "_" + c.suffix })
		return "(" + model.Definition(model.MonthlySpend).Formula(named) + ")"
	}
	return fmt.Sprintf(`IF(%[3]s-%[4]s>0,(%[1]s_one_off_cost-%[2]s_one_off_cost)/(%[3]s-%[4]s),"never")`,
		a, b, spend(b), spend(a))
}

// writeComparisons writes the break-even points between directions: the
// month from which one becomes cheaper, the utilisation at which owned
// hardware costs what renting does, and the traffic at which self-hosting
// beats per-token pricing.
func writeComparisons(b *book, r *model.Report) {
	const sh = sheetComparisons
	b.title(sh, 1, 1, "Break-even points at the likely inputs")
	c := r.Comparisons
	if c == nil {
		b.str(sh, 1, 3, "This report has no comparisons (made by a model before 0.3.0).")
		b.widths(sh, 70)
		return
	}

	row := 3
	b.title(sh, 1, row, "Cumulative cost: from which month one direction is cheaper than another")
	row++
	b.headerRow(sh, row, "Cheaper", "Than", "From month (engine)", "From month (recalculated from Costs)")
	row++
	if len(c.BreakEvenMonths) == 0 {
		b.str(sh, 1, row, "No two directions' cumulative costs cross inside the horizon.")
		row++
	}
	for i, be := range c.BreakEvenMonths {
		b.str(sh, 1, row, directionTitle(r, be.Cheaper))
		b.str(sh, 2, row, directionTitle(r, be.Than))
		b.num(sh, 3, row, be.Month, b.hours, fmt.Sprintf("comparisons.break_even_months[%d].month", i))
		if r.Direction(be.Cheaper) != nil && r.Direction(be.Than) != nil {
			// Live: follows the values finance changes on Costs and Inputs.
			b.formula(sh, 4, row, breakEvenFormula(be.Cheaper, be.Than), b.hours, numResult(be.Month))
			b.audited(sh, 4, row, directionTitle(r, be.Cheaper)+" cheaper than "+directionTitle(r, be.Than)+" from month", be.Month)
		}
		row++
	}

	row++
	b.title(sh, 1, row, "Owned hardware: utilisation at which an owned GPU-hour costs the rented price")
	row++
	b.headerRow(sh, row, "Owned", "Rented", "Utilisation needed", "Breaks even (at or below 100 %)")
	row++
	if u := c.Utilisation; u != nil {
		b.str(sh, 1, row, directionTitle(r, u.Owned))
		b.str(sh, 2, row, directionTitle(r, u.Rented))
		// Exactly 0 is the model's "no margin"; anything else, NaN
		// included, goes through num and its finiteness check.
		if u.Utilisation != 0 {
			b.num(sh, 3, row, u.Utilisation, b.numFmt(fmtPercent, false), "comparisons.break_even_utilisation.utilisation")
		} else {
			b.str(sh, 3, row, "never: power alone costs more than renting")
		}
		b.str(sh, 4, row, present.YesNo(u.Exists))
	} else {
		b.str(sh, 1, row, "Needs both an on-premises and a cloud direction.")
	}
	row += 2

	b.title(sh, 1, row, "Interactive inference: mean traffic above which self-hosting beats per-token pricing")
	row++
	b.headerRow(sh, row, "Self-hosted", "Per-token", "Mean requests/s", "Crossing found (0.001–100,000 requests/s)")
	row++
	if len(c.Traffic) == 0 {
		b.str(sh, 1, row, "Not an interactive-inference scenario, or no per-token service to compare with.")
	}
	for i, tb := range c.Traffic {
		b.str(sh, 1, row, directionTitle(r, tb.SelfHosted))
		b.str(sh, 2, row, directionTitle(r, tb.PerToken))
		if tb.Exists {
			b.num(sh, 3, row, tb.MeanRPS, b.numFmt("#,##0.000", false), fmt.Sprintf("comparisons.traffic_break_even[%d].mean_rps", i))
		}
		b.str(sh, 4, row, present.YesNo(tb.Exists))
		row++
	}
	b.widths(sh, 30, 30, 20, 36)
}
