package export

import (
	"fmt"
	"strings"

	"hostplan/internal/model"
	"hostplan/internal/present"
)

// Columns of the Costs sheet. Row costRow(i) holds r.Directions[i].
const (
	colDirection = 1 + iota // direction id
	colTitle
	colFeasible
	colGPUHours // values: what finance changes
	colPrice
	colOther
	colFixed
	colOneOff
	colVariable // formulas
	colPerRun
	colHorizon
)

func costRow(i int) int { return 2 + i }

// costColumns binds the cost identity's drivers (internal/model/cost.go) to
// the Costs sheet: the values finance changes, then the figures the
// identity defines, each with the suffix of its defined name
// (<direction>_<suffix>) and its words, which head the column and spell
// the formulas under the table.
var costColumns = []costColumn{
	{model.GPUHoursPerRun, colGPUHours, "gpu_hours_per_run", "GPU-hours per run"},
	{model.VariablePricePerGPUHour, colPrice, "price_per_gpu_hour", "variable price per GPU-hour"},
	{model.OtherCostPerRun, colOther, "other_cost_per_run", "other cost per run"},
	{model.MonthlyFixedCost, colFixed, "monthly_fixed_cost", "monthly fixed cost"},
	{model.OneOffCost, colOneOff, "one_off_cost", "one-off cost"},
	{model.VariableCostPerRun, colVariable, "variable_cost_per_run", "variable cost per run"},
	{model.CostPerRun, colPerRun, "cost_per_run", "cost per run"},
	{model.CostHorizon, colHorizon, "cost_horizon", "cost over horizon"},
}

type costColumn struct {
	d      model.Driver
	col    int
	suffix string
	words  string
}

// costRefs maps each driver of the identity to of(its Costs column), runs
// per month and the horizon to their named cells on Inputs, and the rest to
// "": monthly spend, which has no cell, is written out where it is used,
// and the month is only Monthly's.
func costRefs(of func(costColumn) string) func(model.Driver) string {
	return func(d model.Driver) string {
		switch d {
		case model.RunsPerMonth:
			return nameRunsPerMonth
		case model.HorizonMonths:
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

// costFormula is the identity's definition of d for Costs row row.
func costFormula(d model.Driver, row int) string {
	return model.Definition(d).Formula(costRefs(func(c costColumn) string { return cell(c.col, row) }))
}

// costWords spells the identity's definition of d in the columns' words.
func costWords(d model.Driver) string {
	words := costRefs(func(c costColumn) string { return c.words })
	return upperFirst(words(d)) + " = " + model.Definition(d).Words(words) + "."
}

// cumulativeFormula is the total spent by the end of the month in cell
// monthCell, for the direction in Costs row costsRow.
func cumulativeFormula(costsRow int, monthCell string) string {
	refs := costRefs(func(c costColumn) string { return sheetCosts + "!" + absCell(c.col, costsRow) })
	return model.Definition(model.CumulativeCost).Formula(func(d model.Driver) string {
		if d == model.Month {
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

func writeCosts(b *book, r *model.Report) {
	const sh = sheetCosts
	cur := r.Currency
	headers := []string{"Direction", "Title", "Feasible"}
	for _, c := range costColumns {
		h := upperFirst(c.words)
		if c.d != model.GPUHoursPerRun {
			h += " (" + cur + ")"
		}
		headers = append(headers, h)
	}
	b.headerRow(sh, 1, headers...)
	for i, d := range r.Directions {
		row := costRow(i)
		field := func(name string) string { return "directions[" + d.Direction + "]." + name }
		b.str(sh, colDirection, row, d.Direction)
		b.str(sh, colTitle, row, d.Title)
		b.str(sh, colFeasible, row, present.YesNo(d.Feasible))
		b.num(sh, colGPUHours, row, d.GPUHoursPerRun, b.gpuHours, field("gpu_hours_per_run"))
		b.num(sh, colPrice, row, d.VariablePricePerGPUHour, b.price, field("variable_price_per_gpu_hour"))
		b.num(sh, colOther, row, d.OtherCostPerRun, b.price, field("other_cost_per_run"))
		b.num(sh, colFixed, row, d.MonthlyFixedCost, b.money, field("monthly_fixed_cost"))
		b.num(sh, colOneOff, row, d.OneOffCost, b.money, field("one_off_cost"))
		for _, c := range costColumns {
			if model.Defined(c.d) {
				b.formula(sh, c.col, row, costFormula(c.d, row), b.costStyle(c.d))
			}
			b.name(d.Direction+"_"+c.suffix, sh, c.col, row)
		}
	}

	// The formulas in words, from the same identity.
	row := costRow(len(r.Directions)) + 1
	for _, c := range costColumns {
		if model.Defined(c.d) {
			b.str(sh, 1, row, costWords(c.d))
			row++
		}
	}
	b.str(sh, 1, row, "Change the values in columns D–H or the named cells on Inputs; the formulas follow.")
	row++

	row++
	b.str(sh, 1, row, "Cost breakdown over the horizon")
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

	b.widths(sh, 12, 34, 14, 12, 14, 14, 14, 14, 14, 14, 16)
	b.freeze(sh, 1)
}
