package export

import (
	"fmt"
	"strings"

	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Columns of the Costs sheet. Row costRow(i) holds r.Directions[i].
const (
	colDirection = 1 + iota // direction id
	colTitle
	colFeasible
	colGPUHours // the plan's, a value
	colPrice    // formulas of the direction's cost model (values in a report made by hand)
	colOther
	colFixed
	colOneOff
	colVariable // formulas of the shared identity
	colPerRun
	colHorizon
	colPricesAsOf // the oldest price the direction used (its prices_as_of)
)

func costRow(i int) int { return 2 + i }

// costColumns binds the cost identity's drivers (internal/costid) to
// the Costs sheet: the values finance changes, then the figures the
// identity defines, each with the suffix of its defined name
// (<direction>_<suffix>) and its words, which head the column and spell
// the formulas under the table.
var costColumns = []costColumn{
	{costid.GPUHoursPerRun, colGPUHours, "gpu_hours_per_run", "GPU-hours per run"},
	{costid.VariablePricePerGPUHour, colPrice, "variable_price_per_gpu_hour", "variable price per GPU-hour"},
	{costid.OtherCostPerRun, colOther, "other_cost_per_run", "other cost per run"},
	{costid.MonthlyFixedCost, colFixed, "monthly_fixed_cost", "monthly fixed cost"},
	{costid.OneOffCost, colOneOff, "one_off_cost", "one-off cost"},
	{costid.VariableCostPerRun, colVariable, "variable_cost_per_run", "variable cost per run"},
	{costid.CostPerRun, colPerRun, "cost_per_run", "cost per run"},
	{costid.CostHorizon, colHorizon, "cost_horizon", "cost over horizon"},
}

type costColumn struct {
	d      costid.Driver
	col    int
	suffix string
	words  string
}

// costRefs maps each driver of the identity to of(its Costs column), runs
// per month and the horizon to their named cells on Drivers, and the rest to
// "": monthly spend, which has no cell, is written out where it is used,
// and the month is only Monthly's.
func costRefs(of func(costColumn) string) func(costid.Driver) string {
	return func(d costid.Driver) string {
		switch d {
		case costid.RunsPerMonth:
			return nameRunsPerMonth
		case costid.HorizonMonths:
			return nameHorizonMonths
		}
		for _, c := range costColumns {
			if c.d == d {
				return of(c)
			}
		}
		return ""
	}
}

// costWords spells the identity's definition of d in the columns' words.
func costWords(d costid.Driver) string {
	words := costRefs(func(c costColumn) string { return c.words })
	return upperFirst(words(d)) + " = " + costid.Definition(d).Words(words) + "."
}

// cumulativeFormula is the total spent by the end of the month in cell
// monthCell, for the direction in Costs row costsRow.
func cumulativeFormula(costsRow int, monthCell string) string {
	refs := costRefs(func(c costColumn) string { return sheetCosts + "!" + absCell(c.col, costsRow) })
	return costid.Definition(costid.CumulativeCost).Formula(func(d costid.Driver) string {
		if d == costid.Month {
			return monthCell
		}
		return refs(d)
	})
}

// costRef is an absolute reference to a Costs cell, for other sheets.
func costRef(col, i int) string { return sheetCosts + "!" + absCell(col, costRow(i)) }

// upperFirst upper-cases the first letter of the (ASCII) words of a column.
func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// figureRefs is how the formulas of direction d (Costs row row) refer to
// each driver: the shared identity's figures and the four it reads by
// their cells in the row, the GPU-hours too, the cost model's own figures
// by their names (<direction>_<figure>), its inputs by their names on
// Drivers, and monthly spend, which has no cell, written out.
func figureRefs(d *model.DirectionResult, row int) func(costid.Driver) string {
	inputs := map[costid.Driver]string{}
	for _, in := range d.CostInputs {
		inputs[in.Driver] = in.Name
	}
	return func(x costid.Driver) string {
		for _, c := range costColumns {
			if c.d == x {
				return cell(c.col, row)
			}
		}
		switch {
		case x == costid.MonthlySpend:
			return ""
		case x == costid.RunsPerMonth:
			return nameRunsPerMonth
		case x == costid.HorizonMonths:
			return nameHorizonMonths
		case d.CostModel.Defines(x):
			return d.Direction + "_" + x.String()
		}
		if n, ok := inputs[x]; ok {
			return n
		}
		return x.String()
	}
}

// detailFigures are the figures of d's cost model that have a row of their
// own below the table: all but the four the table shows.
func detailFigures(d *model.DirectionResult) []costid.Driver {
	var out []costid.Driver
	for _, x := range d.CostModel.Figures() {
		switch x {
		case costid.VariablePricePerGPUHour, costid.OtherCostPerRun, costid.MonthlyFixedCost, costid.OneOffCost:
			continue
		}
		if !costid.NoCostModel.Defines(x) {
			out = append(out, x)
		}
	}
	return out
}

// readsCloudVerdict reports whether a direction's formulas read the cloud
// direction's verdict (the on-premises bridge does).
func readsCloudVerdict(r *model.Report) bool {
	for _, d := range r.Directions {
		for _, in := range d.CostInputs {
			if in.Driver == costid.CloudFeasible {
				return true
			}
		}
	}
	return false
}

func writeCosts(b *book, r *model.Report) {
	const sh = sheetCosts
	cur := r.Currency
	headers := []string{"Direction", "Title", "Feasible"}
	for _, c := range costColumns {
		h := upperFirst(c.words)
		if c.d != costid.GPUHoursPerRun {
			h += " (" + cur + ")"
		}
		headers = append(headers, h)
	}
	headers = append(headers, "Prices as of (oldest used)")
	b.headerRow(sh, 1, headers...)
	for i := range r.Directions {
		d := &r.Directions[i]
		row := costRow(i)
		field := func(name string) string { return "directions[" + d.Direction + "]." + name }
		b.str(sh, colDirection, row, d.Direction)
		b.str(sh, colTitle, row, d.Title)
		// Summary's verdict, which the drivers move.
		b.formula(sh, colFeasible, row, sheetSummary+"!"+absCell(colSumFeasible, summaryTableRow+1+i), 0, textResult(present.YesNo(d.Feasible)))
		if byCase := d.Direction + "_" + costid.GPUHoursPerRun.String() + "_by_case"; b.names[byCase].sheet != "" {
			// The engine's value at the case chosen (Drivers).
			b.formula(sh, colGPUHours, row, byCase, b.gpuHours, numResult(d.GPUHoursPerRun))
		} else {
			b.num(sh, colGPUHours, row, d.GPUHoursPerRun, b.gpuHours, field("gpu_hours_per_run"))
		}
		b.date(sh, colPricesAsOf, row, orDash(d.PricesAsOf))
		ref := figureRefs(d, row)
		for _, c := range costColumns {
			switch {
			case c.d == costid.GPUHoursPerRun:
			case c.d == costid.OtherCostPerRun && b.pricing != nil && d == b.pricing.chosen:
				// Per token or dedicated, whichever costs less.
				b.formula(sh, c.col, row, cheaperFormula(), b.costStyle(c.d), numResult(figure(d, c.d)))
				b.audited(sh, c.col, row, d.Title+": "+c.words, figure(d, c.d))
			case costid.Defined(c.d) || d.CostModel.Defines(c.d):
				b.formula(sh, c.col, row, d.CostModel.Formula(c.d, ref), b.costStyle(c.d), numResult(figure(d, c.d)))
				b.audited(sh, c.col, row, d.Title+": "+c.words, figure(d, c.d))
			default:
				// A report made by hand: the four figures are values.
				b.num(sh, c.col, row, figure(d, c.d), b.costStyle(c.d), field(c.d.String()))
			}
			if c.d == costid.GPUHoursPerRun {
				// The engine's plan: named for the formulas, not an input.
				b.figure(d.Direction+"_"+c.suffix, sh, c.col, row)
			} else {
				b.name(d.Direction+"_"+c.suffix, sh, c.col, row)
			}
		}
	}

	// The formulas in words, from the same identity.
	row := costRow(len(r.Directions)) + 1
	for _, c := range costColumns {
		if costid.Defined(c.d) {
			b.str(sh, 1, row, costWords(c.d))
			row++
		}
	}
	b.str(sh, 1, row, "Change the drivers on the Drivers sheet (or a value in columns D–H of a report made by hand); the formulas follow.")
	row += 2
	row = writeCostModels(b, r, row)

	row++
	b.str(sh, 1, row, "Cost breakdown over the horizon (the engine's values at export: they do not follow the drivers)")
	b.style(sh, cell(1, row), cell(1, row), b.bold)
	row++
	b.headerRow(sh, row, "Direction", "Item", "Amount ("+cur+")", "Basis")
	row++
	for _, d := range r.Directions {
		for j, l := range d.Breakdown {
			b.str(sh, 1, row, d.Title)
			b.str(sh, 2, row, l.Item)
			b.num(sh, 3, row, l.Amount, b.money, fmt.Sprintf("directions[%s].breakdown[%d].amount", d.Direction, j))
			b.str(sh, 4, row, l.Basis)
			row++
		}
	}

	b.widths(sh, 12, 34, 14, 12, 14, 14, 14, 14, 14, 14, 16, 14)
	b.freeze(sh, 1)
}

// figure is the engine's value of figure x of d.
func figure(d *model.DirectionResult, x costid.Driver) float64 {
	switch x {
	case costid.GPUHoursPerRun:
		return d.GPUHoursPerRun
	case costid.VariablePricePerGPUHour:
		return d.VariablePricePerGPUHour
	case costid.OtherCostPerRun:
		return d.OtherCostPerRun
	case costid.MonthlyFixedCost:
		return d.MonthlyFixedCost
	case costid.OneOffCost:
		return d.OneOffCost
	case costid.VariableCostPerRun:
		return d.VariableCostPerRun
	case costid.CostPerRun:
		return d.CostPerRun
	case costid.CostHorizon:
		return d.CostHorizon
	}
	if d.Drivers != nil {
		return d.Drivers[x]
	}
	return 0
}

// writeCostModels writes, from row on, how each direction's four figures
// follow from its drivers: a block per direction with a row per figure of
// its cost model, each a named formula. It returns the next free row.
func writeCostModels(b *book, r *model.Report, row int) int {
	const sh = sheetCosts
	cur := r.Currency
	first := true
	for i := range r.Directions {
		d := &r.Directions[i]
		if d.CostModel == costid.NoCostModel {
			continue
		}
		if first {
			b.str(sh, 1, row, "How each direction's costs follow from its drivers (formulas over the named cells of Drivers)")
			b.style(sh, cell(1, row), cell(1, row), b.bold)
			row++
			first = false
		}
		b.str(sh, 1, row, d.Title)
		b.style(sh, cell(1, row), cell(1, row), b.bold)
		b.str(sh, 2, row, "cost model: "+strings.ReplaceAll(d.CostModel.String(), "_", " "))
		row++
		b.headerRow(sh, row, "Figure", "", "Value", "Unit", "Defined name", "", "Definition")
		row++
		ref := figureRefs(d, costRow(i))
		if d.Direction == scenario.Cloud && readsCloudVerdict(r) {
			// The cloud's verdict on Summary, which the drivers decide
			// too (the budget cap, the team's staff).
			b.str(sh, 1, row, upperFirst(costid.Label(costid.CloudFeasible)))
			v := 0.0
			if d.Feasible {
				v = 1
			}
			verdict := sheetSummary + "!" + absCell(colSumFeasible, summaryTableRow+1+i)
			b.formula(sh, 3, row, `IF(`+verdict+`="Yes",1,0)`, b.count, numResult(v))
			b.audited(sh, 3, row, d.Title+": "+costid.Label(costid.CloudFeasible), v)
			b.name(costid.CloudFeasible.String(), sh, 3, row)
			b.str(sh, 5, row, costid.CloudFeasible.String())
			row++
		}
		if d.Direction == scenario.Managed && b.pricing == nil && b.pricingChosen {
			b.str(sh, 1, row, "Priced "+map[bool]string{true: "per token", false: "as a dedicated deployment"}[d.CostModel == costid.ManagedInteractiveCosts]+
				", as the engine chose at export: this workbook does not switch to the other pricing when the drivers make it cheaper (export with the other pricing's report to have it switch).")
			row++
		}
		for _, x := range detailFigures(d) {
			name := d.Direction + "_" + x.String()
			b.str(sh, 1, row, upperFirst(costid.Label(x)))
			style := b.costStyle(x)
			if !costid.IsMoney(x) {
				style = b.numFmt(driverFormat(x), false)
			}
			b.formula(sh, 3, row, d.CostModel.Formula(x, ref), style, numResult(figure(d, x)))
			b.audited(sh, 3, row, d.Title+": "+costid.Label(x), figure(d, x))
			b.name(name, sh, 3, row)
			b.str(sh, 4, row, costid.Unit(x, cur))
			b.str(sh, 5, row, name)
			b.str(sh, 7, row, d.CostModel.Words(x, nil))
			row++
		}
		row++
		if sw := b.pricing; sw != nil && d == sw.chosen {
			row = writePricingSwitch(b, r, sw, i, row)
		}
	}
	return row
}
