package export

import (
	"strconv"

	"hostplan/internal/model"
	"hostplan/internal/present"
)

// Rows of the Uncertainty sheet's facts; the direction table follows the
// sampled inputs.
const (
	rowUncDraws = 4 + iota
	rowUncSeed
	rowUncDistribution
	rowUncNoneFeasible
	rowUncInputs
)

// noUncertainty is the Uncertainty sheet of a report made without the
// Monte Carlo run (model.Evaluate rather than model.Analyze).
const noUncertainty = "Run with Monte Carlo (hostplan export uses it by default) to see the spread"

// writeUncertainty writes the Monte Carlo spread: percentiles of cost and
// time, and the share of draws in which each direction is cheapest,
// feasible, on time and within budget. They are simulated, so they are
// values that do not follow a change of a driver.
func writeUncertainty(b *book, r *model.Report) {
	const sh = sheetUncertainty
	u := r.Uncertainty
	if u == nil {
		b.str(sh, 1, 1, noUncertainty)
		b.widths(sh, 90)
		return
	}
	b.title(sh, 1, 1, "Monte Carlo simulation: simulated values, not formulas")
	b.str(sh, 1, 2, "Each draw samples every estimate between its low and high value. Changing the drivers does not change these numbers; re-run the analysis in hostplan.")

	b.str(sh, 1, rowUncDraws, "Draws")
	b.num(sh, 2, rowUncDraws, float64(u.Draws), b.numFmt(fmtWhole, false), "uncertainty.draws")
	b.str(sh, 1, rowUncSeed, "Random seed")
	// Text: a seed may exceed the 15 significant digits a cell keeps.
	b.str(sh, 2, rowUncSeed, strconv.FormatUint(u.Seed, 10))
	b.str(sh, 1, rowUncDistribution, "Distribution of estimates")
	b.str(sh, 2, rowUncDistribution, u.Distribution)
	b.str(sh, 1, rowUncNoneFeasible, "Probability that no direction is feasible")
	b.num(sh, 2, rowUncNoneFeasible, u.ProbNoneFeasible, b.numFmt(fmtPercent, false), "uncertainty.prob_none_feasible")

	row := rowUncInputs
	b.title(sh, 1, row, "Sampled inputs")
	b.str(sh, 2, row, "Field")
	b.style(sh, cell(2, row), cell(2, row), b.bold)
	row++
	if len(u.Inputs) == 0 {
		b.str(sh, 1, row, "None: every input is known")
		row++
	}
	for _, in := range u.Inputs {
		b.str(sh, 1, row, present.InputTitle(in, r.Currency))
		b.str(sh, 2, row, in) // overflows into the empty cells to its right
		row++
	}

	row++
	cur := r.Currency
	b.headerRow(sh, row, "Direction",
		"Cost over horizon P10 ("+cur+")", "Cost P50 ("+cur+")", "Cost P90 ("+cur+")",
		"Time to result P10 (h)", "Time P50 (h)", "Time P90 (h)",
		"Probability cheapest", "Probability feasible", "Probability meeting deadline", "Probability within budget",
		"Likely cost ("+cur+")", "Likely cost's percentile")
	row++
	money, hours, pct := b.numFmt(fmtMoneyWhole, false), b.numFmt(fmtHours, false), b.numFmt(fmtPercent, false)
	for _, d := range u.Directions {
		field := func(name string) string { return "uncertainty.directions[" + d.Direction + "]." + name }
		b.str(sh, 1, row, directionTitle(r, d.Direction))
		for k, v := range []struct {
			x     float64
			style int
			name  string
		}{
			{d.CostP10, money, "cost_p10"}, {d.CostP50, money, "cost_p50"}, {d.CostP90, money, "cost_p90"},
			{d.TimeP10, hours, "time_p10"}, {d.TimeP50, hours, "time_p50"}, {d.TimeP90, hours, "time_p90"},
			{d.ProbCheapest, pct, "prob_cheapest"}, {d.ProbFeasible, pct, "prob_feasible"},
			{d.ProbDeadline, pct, "prob_deadline"}, {d.ProbBudget, pct, "prob_budget"},
			{d.CostLikely, money, "cost_likely"}, {d.CostLikelyPercentile / 100, pct, "cost_likely_percentile"},
		} {
			b.num(sh, k+2, row, v.x, v.style, field(v.name))
		}
		row++
	}
	b.str(sh, 1, row+1, "P10, P50, P90: 10 %, 50 % and 90 % of the draws cost (or take) at most this much. Likely cost: the report's, every estimate at its likely value; its percentile: the share of draws that cost at most as much.")
	b.widths(sh, 40, 16, 16, 16, 14, 12, 12, 13, 13, 13, 13, 16, 14)
	b.freeze(sh, 2)
}
