package export

import (
	"fmt"
	"strings"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// summaryTableRow is the header row of the Summary's direction table; row
// summaryTableRow+1+i holds r.Directions[i].
const summaryTableRow = 11

// rowRecommended is the Summary row of the recommendation, below the facts
// and above the direction table; empty without a decision.
const rowRecommended = summaryTableRow - 1

func writeSummary(b *book, s *scenario.Scenario, r *model.Report, dec *decide.Decision) {
	const sh = sheetSummary
	cheapest := "None is feasible"
	if d := r.Direction(r.Cheapest); d != nil {
		cheapest = d.Title
	}
	facts := []struct {
		label, value string
	}{
		{"Scenario", s.Name},
		{"Scenario id", s.ID},
		{"Currency", r.Currency},
		{"Workload shape", r.Shape},
		{"Run unit", r.RunUnit},
		{"Horizon (months)", ""}, // a number, below
		{"Model version", r.ModelVersion},
		{"Prices as of (oldest catalog entry used)", r.CatalogAsOf},
		{"Cheapest feasible direction", cheapest},
	}
	for i, fa := range facts {
		row := i + 1
		b.str(sh, 1, row, fa.label)
		b.style(sh, cell(1, row), cell(1, row), b.bold)
		if fa.label == "Horizon (months)" {
			b.num(sh, 2, row, float64(r.HorizonMonths), b.count, "horizon_months")
			continue
		}
		b.str(sh, 2, row, fa.value)
	}
	if dec != nil {
		rec := "None is feasible"
		if d := dec.For(dec.Recommendation); d != nil {
			rec = fmt.Sprintf("%s (score %.2f of 1; see Decision)", d.Title, d.Total)
		}
		b.title(sh, 1, rowRecommended, "Recommended by the weights")
		b.str(sh, 2, rowRecommended, rec)
	}

	cur := r.Currency
	b.headerRow(sh, summaryTableRow,
		"Direction", "Feasible", "Why not feasible", "GPU", "GPUs", "Time to result (h)",
		"Cost per run ("+cur+")", "Cost over horizon ("+cur+")")
	for i, d := range r.Directions {
		row := summaryTableRow + 1 + i
		b.str(sh, 1, row, d.Title)
		b.str(sh, 2, row, present.YesNo(d.Feasible))
		b.str(sh, 3, row, strings.Join(model.ReasonTexts(d.Reasons), "; "))
		b.style(sh, cell(3, row), cell(3, row), b.wrap)
		b.wrapsText(sh, row)
		b.str(sh, 4, row, d.GPU)
		if d.GPU != "" || d.GPUs != 0 {
			b.num(sh, 5, row, float64(d.GPUs), b.count, fmt.Sprintf("directions[%s].gpus", d.Direction))
		}
		b.num(sh, 6, row, d.TimeToResultHours, b.hours, fmt.Sprintf("directions[%s].time_to_result_hours", d.Direction))
		// Formulas, not copies: the Summary follows any change made on Costs.
		b.formula(sh, 7, row, costRef(colPerRun, i), b.money, numResult(d.CostPerRun))
		b.formula(sh, 8, row, costRef(colHorizon, i), b.money, numResult(d.CostHorizon))
		b.audited(sh, 7, row, d.Title+": cost per run on Summary", d.CostPerRun)
		b.audited(sh, 8, row, d.Title+": cost over the horizon on Summary", d.CostHorizon)
	}
	b.widths(sh, 40, 24, 48, 14, 8, 12, 16, 18)
}
