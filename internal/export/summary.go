package export

import (
	"fmt"
	"strconv"
	"strings"

	"hostplan/internal/costid"
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

// Columns of the Summary's direction table.
const (
	colSumTitle = 1 + iota
	colSumFeasible
	colSumWhy
	colSumGPU
	colSumGPUs
	colSumTime
	colSumPerRun
	colSumHorizon
	colSumIfFeasible // the cost over the horizon of a feasible direction, else ""
	colSumRank       // its rank by that cost, the cheapest 1
)

// rowCheapest is the Summary row of the cheapest feasible direction.
const rowCheapest = 9

// checkedReasons are the reasons the Summary's Feasible formula decides
// again from the drivers; any other reason rules a direction out for good.
var checkedReasons = map[model.ReasonCode]bool{model.ReasonBudgetCapExceeded: true, model.ReasonStaffShort: true}

// feasibleFormula is the formula of direction i's Feasible cell on
// Summary, "" when the engine ruled it out for a reason the drivers do not
// decide: within the budget cap and the team's staff.
func feasibleFormula(s *scenario.Scenario, d *model.DirectionResult, i int) string {
	checked := d.Feasible
	for _, re := range d.Reasons {
		if !checkedReasons[re.Code] {
			return ""
		}
		checked = true
	}
	if !checked {
		return "" // a report made by hand: ruled out, for no stated reason
	}
	var conds []string
	if s.Dimensions.Economics.BudgetCap.IsSet() {
		conds = append(conds, cell(colSumHorizon, summaryTableRow+1+i)+"<="+nameBudgetCap)
	}
	if s.Dimensions.Operations.StaffFTE.IsSet() {
		fte := strconv.FormatFloat(d.StaffFTE, 'g', -1, 64)
		for _, in := range d.CostInputs {
			if in.Driver == costid.StaffFTE {
				fte = in.Name
			}
		}
		if d.CostModel.Defines(costid.StaffFTE) {
			fte = d.Direction + "_" + costid.StaffFTE.String()
		}
		conds = append(conds, fte+"<="+nameTeamFTE+"+1E-09")
	}
	if len(conds) == 0 {
		return `"Yes"`
	}
	return `IF(AND(` + strings.Join(conds, ",") + `),"Yes","No")`
}

// notKnown is what Summary shows for a figure a driver that is not a
// valid number (text, or one that divides by zero) keeps from being known.
const notKnown = "Not known: a driver is not valid (see Checks)"

// guarded is the number in cell ref, or notKnown when it holds none (an
// error, or text).
func guarded(ref string) string { return `IF(ISNUMBER(` + ref + `),` + ref + `,"` + notKnown + `")` }

func writeSummary(b *book, s *scenario.Scenario, r *model.Report, dec *decide.Decision) {
	const sh = sheetSummary
	cheapest := "None is feasible"
	if d := r.Direction(r.Cheapest); d != nil {
		cheapest = d.Title
	}
	facts := []struct {
		label, value string
		date         bool
	}{
		{"Scenario", s.Name, false},
		{"Scenario id", s.ID, false},
		{"Currency", r.Currency, false},
		{"Workload shape", r.Shape, false},
		{"Run unit", r.RunUnit, false},
		{"Horizon (months)", "", false}, // a number, below
		{"Model version", r.ModelVersion, false},
		{"Prices as of (oldest any direction used; each direction's on Costs)", r.CatalogAsOf, true},
	}
	for i, fa := range facts {
		row := i + 1
		b.str(sh, 1, row, fa.label)
		b.style(sh, cell(1, row), cell(1, row), b.bold)
		switch fa.label {
		case "Horizon (months)":
			b.formula(sh, 2, row, nameHorizonMonths, b.count, numResult(float64(r.HorizonMonths)))
			continue
		}
		if fa.date {
			b.date(sh, 2, row, fa.value)
			continue
		}
		b.str(sh, 2, row, fa.value)
	}

	// The workbook's integrity (Checks), which any valid edit keeps at 0,
	// and its drift from the exported state (Audit), which any edit moves.
	b.title(sh, 4, 1, "Integrity problems (Checks sheet; 0 = consistent)")
	b.formula(sh, 5, 1, nameIntegrity, b.numFmt(fmtGeneral, true), numResult(0))
	b.str(sh, 4, 2, "Drift from the exported state (cells, Audit sheet; moves with any edit)")
	b.formula(sh, 5, 2, sheetAudit+"!"+absCell(2, 3), b.count, numResult(0))

	n := len(r.Directions)
	first, last := summaryTableRow+1, summaryTableRow+max(n, 1)
	col := func(c int) string { return absCell(c, first) + ":" + absCell(c, last) }
	// The cheapest feasible direction by formula: the first of the lowest
	// cost among the feasible, as the engine chooses; and a note when the
	// drivers changed it from the one the engine saw (and the decision
	// weighed).
	b.title(sh, 1, rowCheapest, "Cheapest feasible direction (formula)")
	ifFeasible := col(colSumIfFeasible)
	b.formula(sh, 2, rowCheapest, `IF(COUNT(`+col(colSumHorizon)+`)<`+strconv.Itoa(n)+`,"`+notKnown+`",IF(COUNT(`+ifFeasible+`)=0,"None is feasible",INDEX(`+col(colSumTitle)+`,MATCH(MIN(`+ifFeasible+`),`+ifFeasible+`,0))))`,
		0, textResult(cheapest))
	note := `IF(` + cell(2, rowCheapest) + `<>"` + cheapest + `","Changed by the drivers: the engine found ` + cheapest + ` cheapest, and its recommendation weighed that","")`
	b.formula(sh, 3, rowCheapest, note, b.bold, textResult(""))
	if dec != nil {
		rec := "None: no direction was feasible at export"
		if d := dec.For(dec.Recommendation); d != nil {
			rec = fmt.Sprintf("%s (score %.2f of 1; see Decision)", d.Title, d.Total)
		}
		b.title(sh, 1, rowRecommended, "Recommended (the engine's decision at export; the drivers do not change it)")
		b.str(sh, 2, rowRecommended, rec)
	}

	cur := r.Currency
	b.headerRow(sh, summaryTableRow,
		"Direction", "Feasible (formula of the budget cap and the team's staff; other limits — capacity, deadline, residency — as the engine found them at export)", "Why not feasible (the engine's reasons at export)", "GPU", "GPUs", "Time to result (h, the engine's)",
		"Cost per run ("+cur+")", "Cost over horizon ("+cur+")", "Cost if feasible ("+cur+")", "Rank by cost")
	rank := costRanks(r)
	for i := range r.Directions {
		d := &r.Directions[i]
		row := summaryTableRow + 1 + i
		b.str(sh, colSumTitle, row, d.Title)
		if f := feasibleFormula(s, d, i); f != "" {
			f = `IF(ISNUMBER(` + cell(colSumHorizon, row) + `),` + f + `,"` + notKnown + `")`
			b.formula(sh, colSumFeasible, row, f, 0, textResult(present.YesNo(d.Feasible)))
		} else {
			b.str(sh, colSumFeasible, row, present.YesNo(d.Feasible))
		}
		b.str(sh, colSumWhy, row, strings.Join(model.ReasonTexts(d.Reasons), "; "))
		b.style(sh, cell(colSumWhy, row), cell(colSumWhy, row), b.wrap)
		b.wrapsText(sh, row)
		b.str(sh, colSumGPU, row, d.GPU)
		if d.GPU != "" || d.GPUs != 0 {
			b.num(sh, colSumGPUs, row, float64(d.GPUs), b.count, fmt.Sprintf("directions[%s].gpus", d.Direction))
		}
		b.num(sh, colSumTime, row, d.TimeToResultHours, b.hours, fmt.Sprintf("directions[%s].time_to_result_hours", d.Direction))
		// Formulas, not copies: the Summary follows any change made on Costs.
		// A driver that is not a number, or a division by zero, shows as a
		// message here, not as an error that blanks the verdicts below.
		b.formula(sh, colSumPerRun, row, guarded(costRef(colPerRun, i)), b.price, numResult(d.CostPerRun))
		b.formula(sh, colSumHorizon, row, guarded(costRef(colHorizon, i)), b.money, numResult(d.CostHorizon))
		b.audited(sh, colSumPerRun, row, d.Title+": cost per run on Summary", d.CostPerRun)
		b.audited(sh, colSumHorizon, row, d.Title+": cost over the horizon on Summary", d.CostHorizon)
		feasible, here := cell(colSumFeasible, row), cell(colSumIfFeasible, row)
		cost := textResult("")
		if d.Feasible {
			cost = numResult(d.CostHorizon)
		}
		b.formula(sh, colSumIfFeasible, row, `IF(`+feasible+`="Yes",`+cell(colSumHorizon, row)+`,"")`, b.money, cost)
		// The rank among the feasible; equal costs in the engine's order.
		ranked := textResult("")
		if rank[i] > 0 {
			ranked = numResult(float64(rank[i]))
			b.audited(sh, colSumRank, row, d.Title+": rank by cost on Summary", float64(rank[i]))
		} else {
			b.auditedEmpty(sh, colSumRank, row, d.Title+": rank by cost on Summary")
		}
		b.formula(sh, colSumRank, row, `IF(ISNUMBER(`+here+`),RANK(`+here+`,`+ifFeasible+`,1)+COUNTIF(`+absCell(colSumIfFeasible, first)+`:`+here+`,`+here+`)-1,"")`,
			b.count, ranked)
	}

	// The ranking, cheapest first, by formula.
	row := last + 2
	b.title(sh, 1, row, "Feasible directions by cost over the horizon (formulas)")
	row++
	b.headerRow(sh, row, "Rank", "Direction", "Cost over horizon ("+cur+")")
	order := make([]int, n)
	for i, k := range rank {
		if k > 0 {
			order[k-1] = i + 1
		}
	}
	for k := 1; k <= n; k++ {
		row++
		b.num(sh, 1, row, float64(k), b.count, "rank")
		match := `MATCH(` + strconv.Itoa(k) + `,` + col(colSumRank) + `,0)`
		name, cost := textResult(""), textResult("")
		if i := order[k-1]; i > 0 {
			name, cost = textResult(r.Directions[i-1].Title), numResult(r.Directions[i-1].CostHorizon)
		}
		b.formula(sh, 2, row, `IFERROR(INDEX(`+col(colSumTitle)+`,`+match+`),"")`, 0, name)
		b.formula(sh, 3, row, `IFERROR(INDEX(`+col(colSumHorizon)+`,`+match+`),"")`, b.money, cost)
	}
	b.widths(sh, 40, 24, 48, 14, 8, 12, 16, 18, 18, 10)
	b.freeze(sh, summaryTableRow)
}

// costRanks is each direction's rank by cost over the horizon among the
// feasible ones, the cheapest 1 and equal costs in the report's order; 0
// for a direction ruled out.
func costRanks(r *model.Report) []int {
	rank := make([]int, len(r.Directions))
	for i, d := range r.Directions {
		if !d.Feasible {
			continue
		}
		rank[i] = 1
		for j, e := range r.Directions {
			if e.Feasible && (e.CostHorizon < d.CostHorizon || e.CostHorizon == d.CostHorizon && j < i) {
				rank[i]++
			}
		}
	}
	return rank
}
