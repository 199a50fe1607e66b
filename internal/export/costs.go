package export

import (
	"fmt"

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

// The formulas below are the cost form documented on model.DirectionResult
// (internal/model/report.go):
//
//	VariableCostPerRun = GPUHoursPerRun × VariablePricePerGPUHour + OtherCostPerRun
//	CostPerRun         = VariableCostPerRun + MonthlyFixedCost ÷ RunsPerMonth
//	CostHorizon        = OneOffCost + HorizonMonths × (MonthlyFixedCost + RunsPerMonth × VariableCostPerRun)
//	CumulativeByMonth[m-1] = OneOffCost + m × (MonthlyFixedCost + RunsPerMonth × VariableCostPerRun)
//
// CostPerRun is guarded against runs_per_month = 0 (no runs: no share of the
// fixed cost per run), so a reader who zeroes the runs sees a number, not
// #DIV/0!.

func variableFormula(row int) string {
	return fmt.Sprintf("%s*%s+%s", cell(colGPUHours, row), cell(colPrice, row), cell(colOther, row))
}

func perRunFormula(row int) string {
	v := cell(colVariable, row)
	return fmt.Sprintf("IF(%[1]s>0,%[2]s+%[3]s/%[1]s,%[2]s)", nameRunsPerMonth, v, cell(colFixed, row))
}

func horizonFormula(row int) string {
	return fmt.Sprintf("%s+%s*(%s+%s*%s)", cell(colOneOff, row), nameHorizonMonths,
		cell(colFixed, row), nameRunsPerMonth, cell(colVariable, row))
}

// cumulativeFormula is the total spent by the end of the month in cell
// monthCell, for the direction in Costs row costsRow.
func cumulativeFormula(costsRow int, monthCell string) string {
	ref := func(col int) string { return sheetCosts + "!" + absCell(col, costsRow) }
	return fmt.Sprintf("%s+%s*(%s+%s*%s)", ref(colOneOff), monthCell, ref(colFixed), nameRunsPerMonth, ref(colVariable))
}

// costRef is an absolute reference to a Costs cell, for other sheets.
func costRef(col, i int) string { return sheetCosts + "!" + absCell(col, costRow(i)) }

func writeCosts(b *book, r *model.Report) {
	const sh = sheetCosts
	cur := r.Currency
	b.headerRow(sh, 1,
		"Direction", "Title", "Feasible",
		"GPU-hours per run", "Variable price per GPU-hour ("+cur+")", "Other cost per run ("+cur+")",
		"Monthly fixed cost ("+cur+")", "One-off cost ("+cur+")",
		"Variable cost per run ("+cur+")", "Cost per run ("+cur+")", "Cost over horizon ("+cur+")")
	for i, d := range r.Directions {
		row := costRow(i)
		field := func(name string) string { return "directions[" + d.Direction + "]." + name }
		b.str(sh, colDirection, row, d.Direction)
		b.str(sh, colTitle, row, d.Title)
		b.str(sh, colFeasible, row, present.YesNo(d.Feasible))
		b.num(sh, colGPUHours, row, d.GPUHoursPerRun, b.gpuHours, field("gpu_hours_per_run"))
		b.num(sh, colPrice, row, d.VariablePricePerGPUHour, b.money, field("variable_price_per_gpu_hour"))
		b.num(sh, colOther, row, d.OtherCostPerRun, b.money, field("other_cost_per_run"))
		b.num(sh, colFixed, row, d.MonthlyFixedCost, b.money, field("monthly_fixed_cost"))
		b.num(sh, colOneOff, row, d.OneOffCost, b.money, field("one_off_cost"))
		b.formula(sh, colVariable, row, variableFormula(row), b.money)
		b.formula(sh, colPerRun, row, perRunFormula(row), b.money)
		b.formula(sh, colHorizon, row, horizonFormula(row), b.money)
		for _, n := range []struct {
			suffix string
			col    int
		}{
			{"gpu_hours_per_run", colGPUHours},
			{"price_per_gpu_hour", colPrice},
			{"other_cost_per_run", colOther},
			{"monthly_fixed_cost", colFixed},
			{"one_off_cost", colOneOff},
			{"variable_cost_per_run", colVariable},
			{"cost_per_run", colPerRun},
			{"cost_horizon", colHorizon},
		} {
			b.name(d.Direction+"_"+n.suffix, sh, n.col, row)
		}
	}

	row := costRow(len(r.Directions)) + 1
	for _, line := range []string{
		"Variable cost per run = GPU-hours per run × variable price per GPU-hour + other cost per run.",
		"Cost per run = variable cost per run + monthly fixed cost ÷ runs_per_month (Inputs).",
		"Cost over horizon = one-off cost + horizon_months × (monthly fixed cost + runs_per_month × variable cost per run).",
		"Change the values in columns D–H or the named cells on Inputs; the formulas follow.",
	} {
		b.str(sh, 1, row, line)
		row++
	}

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
