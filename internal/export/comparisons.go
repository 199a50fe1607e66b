package export

import (
	"fmt"
	"math"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// What a break-even month cell shows when the two directions' cumulative
// costs do not cross inside the horizon: the engine lists no month then
// (model.Comparisons, internal/model/compare.go).
const (
	breakEvenNone   = "no crossing"
	breakEvenBeyond = "after the horizon"
)

// breakEvenFormula is the month from which direction a is cumulatively
// cheaper than b, from the named Costs cells, as model.Comparisons
// (internal/model/compare.go) finds it: two lines one-off + m × monthly
// spend (the cost identity's cumulative cost, internal/costid/identity.go)
// cross at m = (one-off a − one-off b) ÷ (monthly spend b − monthly spend
// a) when a has the higher one-off cost and the lower monthly spend; a
// crossing past the horizon is not one the engine lists.
func breakEvenFormula(a, b string) string {
	spend := func(dir string) string {
		named := costRefs(func(c costColumn) string { return dir + "_" + c.suffix })
		return "(" + costid.Definition(costid.MonthlySpend).Formula(named) + ")"
	}
	m := fmt.Sprintf("(%[1]s_one_off_cost-%[2]s_one_off_cost)/(%[3]s-%[4]s)", a, b, spend(b), spend(a))
	return fmt.Sprintf(`IF(AND(%[1]s_one_off_cost>%[2]s_one_off_cost,%[3]s-%[4]s>0),IF(%[5]s<=%[6]s,%[5]s,"%[7]s"),"%[8]s")`,
		a, b, spend(b), spend(a), m, nameHorizonMonths, breakEvenBeyond, breakEvenNone)
}

// breakEvenPairs are the ordered pairs of r's directions, in the order of
// the rows of the break-even months: every pair, whether or not its costs
// cross at export, so that a crossing an edit makes shows.
func breakEvenPairs(r *model.Report) [][2]int {
	var out [][2]int
	for i := range r.Directions {
		for j := range r.Directions {
			if i != j {
				out = append(out, [2]int{i, j})
			}
		}
	}
	return out
}

// rowBreakEven is the first row of the break-even months on Comparisons.
const rowBreakEven = 5

// breakEvenAtExport is what the break-even month of a cheaper than b shows
// at export: the engine's month (and its index in the report's list), or
// why it lists none.
func breakEvenAtExport(r *model.Report, a, b *model.DirectionResult) (result, int) {
	for i, be := range r.Comparisons.BreakEvenMonths {
		if be.Cheaper == a.Direction && be.Than == b.Direction {
			return numResult(be.Month), i
		}
	}
	runs := r.Workload.RunsPerMonth
	if a.OneOffCost > b.OneOffCost && b.MonthlyFixedCost+runs*b.VariableCostPerRun > a.MonthlyFixedCost+runs*a.VariableCostPerRun {
		return textResult(breakEvenBeyond), -1
	}
	return textResult(breakEvenNone), -1
}

// writeComparisons writes the break-even points between directions: the
// month from which one becomes cheaper, the utilisation at which owned
// hardware costs what renting does, and the traffic at which self-hosting
// beats per-token pricing.
func writeComparisons(b *book, s *scenario.Scenario, r *model.Report) {
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
	b.headerRow(sh, row, "Cheaper", "Than", "From month (the engine, at export)", "From month (recalculated from Costs)")
	row++
	if row != rowBreakEven {
		b.fail(fmt.Errorf("export: the break-even months start on row %d, not %d", row, rowBreakEven))
	}
	for _, p := range breakEvenPairs(r) {
		da, db := &r.Directions[p[0]], &r.Directions[p[1]]
		b.str(sh, 1, row, directionTitle(r, da.Direction))
		b.str(sh, 2, row, directionTitle(r, db.Direction))
		v, i := breakEvenAtExport(r, da, db)
		what := directionTitle(r, da.Direction) + " cheaper than " + directionTitle(r, db.Direction) + " from month"
		if v.kind == 'n' {
			b.num(sh, 3, row, v.num, b.numFmt(fmtMonths, false), fmt.Sprintf("comparisons.break_even_months[%d].month", i))
			b.audited(sh, 4, row, what, v.num)
		} else {
			b.str(sh, 3, row, v.text)
			b.auditedText(sh, 4, row, what, v.text)
		}
		// Live: follows the drivers finance changes.
		b.formula(sh, 4, row, breakEvenFormula(da.Direction, db.Direction), b.numFmt(fmtMonths, false), v)
		row++
	}
	row++
	b.title(sh, 1, row, "Owned hardware: utilisation at which an owned GPU-hour costs the rented price")
	row++
	b.headerRow(sh, row, "Owned", "Rented", "Utilisation needed", "Breaks even (at or below 100 %)", "Utilisation needed (recalculated from Costs)")
	row++
	if u := c.Utilisation; u != nil {
		live := utilisationFormula(b, r, u, row)
		b.str(sh, 1, row, directionTitle(r, u.Owned))
		b.str(sh, 2, row, directionTitle(r, u.Rented))
		// Exactly 0 is the model's "no margin"; anything else, NaN
		// included, goes through num and its finiteness check.
		if u.Utilisation != 0 {
			b.num(sh, 3, row, u.Utilisation, b.numFmt(fmtPercent, false), "comparisons.break_even_utilisation.utilisation")
		} else {
			b.str(sh, 3, row, "never: power alone costs more than renting")
		}
		if !live {
			b.str(sh, 4, row, present.YesNo(u.Exists))
		} else {
			// The verdict follows the recalculated utilisation.
			b.formula(sh, 4, row, fmt.Sprintf(`IF(AND(ISNUMBER(%[1]s),%[1]s<=1),"%[2]s","%[3]s")`, cell(5, row), present.YesNo(true), present.YesNo(false)),
				0, textResult(present.YesNo(u.Exists)))
			b.auditedText(sh, 4, row, "owned hardware breaks even at or below 100 % utilisation", present.YesNo(u.Exists))
		}
	} else {
		b.str(sh, 1, row, "Needs both an on-premises and a cloud direction.")
	}
	row += 2

	b.title(sh, 1, row, "Interactive inference: mean traffic above which self-hosting beats per-token pricing")
	row++
	b.headerRow(sh, row, "Self-hosted", "Per-token", "Mean requests/s", "Crossing found ("+num.Format(trafficSearchFrom)+"–"+num.Format(trafficSearchTo)+" requests/s)",
		"Mean requests/s (recalculated from Costs)", "Per-token cost per request/s ("+r.Currency+"/month)",
		"Self-hosted cost per GPU-month ("+r.Currency+")", "Requests/s one replica serves (the engine's plan)",
		"GPUs per replica (the engine's plan)", "GPUs (the engine's plan)", "Peak requests/s (the scenario's likely)")
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
		if trafficFormula(b, s, r, tb, row, i) {
			b.formula(sh, 4, row, fmt.Sprintf(`IF(ISNUMBER(%s),"%s","%s")`, cell(5, row), present.YesNo(true), present.YesNo(false)),
				0, textResult(present.YesNo(tb.Exists)))
			b.auditedText(sh, 4, row, directionTitle(r, tb.SelfHosted)+" cheaper than "+directionTitle(r, tb.PerToken)+": crossing found", present.YesNo(tb.Exists))
		} else {
			b.str(sh, 4, row, present.YesNo(tb.Exists))
		}
		row++
	}
	if len(c.Traffic) > 0 {
		// The search's grid, named: the engine's (model.Comparisons).
		row++
		b.str(sh, 1, row, "The search starts at (requests/s)")
		b.num(sh, 3, row, trafficSearchFrom, b.numFmt(fmtSeconds, false), "traffic search start")
		b.figure(nameTrafficFrom, sh, 3, row)
		row++
		b.str(sh, 1, row, "Each step of the search multiplies the rate by")
		b.num(sh, 3, row, trafficSearchFactor, b.numFmt(fmtRatio, false), "traffic search factor")
		b.figure(nameTrafficFactor, sh, 3, row)
	}
	b.widths(sh, 30, 30, 20, 36, 22, 22, 22, 18, 14, 12, 14)
	// Printed: the tables, not the traffic search beside them.
	b.printArea(sh, colTraffic-1, row)
	b.freeze(sh, 1)
}

// utilisationFormula writes in row the break-even utilisation recalculated
// from the Costs cells: the owned cost per month over the GPUs' hours at
// the margin of the cloud's rate over the power per GPU-hour, as
// model.Comparisons has it (internal/model/compare.go). It reports whether
// it wrote the formula.
func utilisationFormula(b *book, r *model.Report, u *model.UtilisationBreakEven, row int) bool {
	op, cl := r.Direction(u.Owned), r.Direction(u.Rented)
	if op == nil || cl == nil || op.CostModel == costid.NoCostModel || cl.CostModel == costid.NoCostModel || op.OwnedCost == nil {
		return false
	}
	rate := inputNamed(cl, costid.GPUHourPrice)
	power := op.Direction + "_" + costid.VariablePricePerGPUHour.String()
	gpus := inputNamed(op, costid.Nodes) + "*" + inputNamed(op, costid.GPUsPerNode)
	margin := rate + "-" + power
	f := fmt.Sprintf(`IF(%s>0,%s/(%s*%s*(%s)),"never")`, margin, op.Direction+"_"+costid.OwnedFixedPerMonth.String(), gpus, costid.MonthHours, margin)
	v := textResult("never")
	if u.Utilisation != 0 {
		v = numResult(u.Utilisation)
		b.audited(sheetComparisons, 5, row, "break-even utilisation of owned hardware", u.Utilisation)
	} else {
		b.auditedText(sheetComparisons, 5, row, "break-even utilisation of owned hardware", "never")
	}
	b.formula(sheetComparisons, 5, row, f, b.numFmt(fmtPercent, false), v)
	return true
}

// inputNamed is the name of d's input x.
func inputNamed(d *model.DirectionResult, x costid.Driver) string {
	for _, in := range d.CostInputs {
		if in.Driver == x {
			return in.Name
		}
	}
	return x.String()
}

// trafficFormula writes in row the traffic break-even recalculated from
// the Costs cells by the engine's own search (model.Comparisons,
// internal/model/compare.go), written out step by step to the right of the
// table (trafficSearch): per-token pricing costs c per request/s of mean
// traffic a month, self-hosting its staff plus a GPU-month pg for each GPU
// of each replica needed at the peak, which grows with the mean — or, when
// the rented replicas follow the load over the day, the fixed part of pg
// for the peak's replicas and the hours at the variable price for the
// replicas each stretch of the scaled day needs.
//
// It reports whether it wrote the formula.
func trafficFormula(b *book, s *scenario.Scenario, r *model.Report, tb model.TrafficBreakEven, row, block int) bool {
	const sh = sheetComparisons
	d, man := r.Direction(tb.SelfHosted), r.Direction(tb.PerToken)
	if man == nil {
		return false
	}
	// The per-token cost a month: the managed service's own, or, when
	// the workbook takes the cheaper pricing, the per-token one's.
	perToken := man.Direction + "_" + costid.OtherCostPerRun.String()
	if sw := b.pricing; sw != nil && tb.PerToken == scenario.Managed {
		man, perToken = sw.perToken, namePerTokenMonth
	}
	t := s.Workload.Traffic
	if d == nil || man == nil || d.Serving == nil || d.CostModel == costid.NoCostModel || man.CostModel != costid.ManagedInteractiveCosts || t == nil || d.GPUs == 0 {
		return false
	}
	staff := d.Drivers[costid.StaffPerMonth]
	ts := trafficInputs{
		cost: model.SelfHosting{Staff: staff, FixedPerGPUMonth: (d.MonthlyFixedCost - staff) / float64(d.GPUs),
			PricePerGPUHour: d.VariablePricePerGPUHour, RequestsPerReplica: d.Serving.RequestsPerSec,
			GPUsPerReplica: float64(d.Serving.GPUsPerReplica), PeakToMean: t.PeakRPS.Or(0) / t.MeanRPS.Or(0)},
		c:    man.OtherCostPerRun / t.MeanRPS.Or(0),
		peak: t.PeakRPS.Or(0),
	}
	if d.Direction == scenario.Cloud {
		ts.cost.Day, ts.cost.Margin = model.FollowedDay(s)
	}
	pg := ts.cost.FixedPerGPUMonth + costid.HoursPerMonth*ts.cost.PricePerGPUHour
	name := func(x costid.Driver) string { return d.Direction + "_" + x.String() }
	// The plan figures the search reads, each in a named cell.
	plan := func(col int, x float64, id, what, unit string) string {
		if _, ok := b.names[id]; ok && id != namePeakRPS {
			b.fail(fmt.Errorf("export: the name %s is taken", id))
		}
		b.num(sh, col, row, x, b.numFmt(unitFormat(unit), false), what)
		if _, ok := b.names[id]; !ok {
			b.figure(id, sh, col, row)
		}
		return id
	}
	rps := costid.Unit(costid.MeanRPS, "")
	perReplica := plan(8, ts.cost.RequestsPerReplica, d.Direction+"_requests_per_replica", "serving.requests_per_sec", rps)
	gpusPerReplica := plan(9, ts.cost.GPUsPerReplica, d.Direction+"_"+costid.GPUsPerReplica.String(), "serving.gpus_per_replica", costid.Unit(costid.GPUsPerReplica, ""))
	gpus := plan(10, float64(d.GPUs), d.Direction+"_gpus", "gpus", costid.Unit(costid.GPUsPerReplica, ""))
	peak := plan(11, ts.peak, namePeakRPS, "workload.traffic.peak_rps", rps)
	C, PG := cell(6, row), cell(7, row)
	b.formula(sh, 6, row, perToken+"/"+inputNamed(man, costid.MeanRPS), b.money, numResult(ts.c))
	b.audited(sh, 6, row, directionTitle(r, tb.PerToken)+": per-token cost per request/s", ts.c)
	b.formula(sh, 7, row, fmt.Sprintf("(%s-%s)/%s+%s*%s", name(costid.MonthlyFixedCost), name(costid.StaffPerMonth), gpus, costid.MonthHours, name(costid.VariablePricePerGPUHour)), b.money, numResult(pg))
	b.audited(sh, 7, row, d.Title+": self-hosted cost per GPU-month", pg)
	cells := trafficCells{staff: name(costid.StaffPerMonth), mean: inputNamed(man, costid.MeanRPS), c: C, pg: PG, price: name(costid.VariablePricePerGPUHour),
		peak: peak, perReplica: perReplica, gpusPerReplica: gpusPerReplica}
	result := trafficSearch(b, s, d, ts, cells, block)
	v := textResult("never")
	if tb.Exists {
		v = numResult(tb.MeanRPS)
		b.audited(sh, 5, row, d.Title+" cheaper than "+directionTitle(r, tb.PerToken)+" from mean requests/s", tb.MeanRPS)
	} else {
		b.auditedText(sh, 5, row, d.Title+" cheaper than "+directionTitle(r, tb.PerToken)+" from mean requests/s", "never")
	}
	b.formula(sh, 5, row, result, b.numFmt("#,##0.000", false), v)
	return true
}

// trafficInputs are the figures of the traffic break-even of one
// self-hosted direction: its monthly cost as the engine has it, the
// per-token cost per request/s of mean traffic, and the peak rate.
type trafficInputs struct {
	cost    model.SelfHosting
	c, peak float64
}

// trafficCells name the cells the traffic search reads: the staff per
// month, the mean traffic, the per-token cost per request/s, the cost per
// GPU-month at the peak all day, the variable price per GPU-hour, and the
// plan figures: the peak rate, the requests/s one replica serves and its
// GPUs.
type trafficCells struct {
	staff, mean, c, pg, price        string
	peak, perReplica, gpusPerReplica string
}

// Defined names of the traffic search's figures shared by the directions.
const (
	namePeakRPS       = "peak_rps"
	nameTrafficFrom   = "traffic_search_from"
	nameTrafficFactor = "traffic_search_factor"
)

// The engine's search for the traffic break-even (model.Comparisons):
// its grid and halvings, stated once in the model.
const (
	trafficSearchFrom   = model.TrafficSearchFrom
	trafficSearchFactor = model.TrafficSearchFactor
	trafficSearchTo     = model.TrafficSearchTo
)

// diff is the self-hosted monthly cost less the per-token one at mean
// traffic x, as the engine computes it.
func (ts trafficInputs) diff(x float64) float64 {
	return ts.cost.Monthly(x) - ts.c*x
}

// scale is the size of the two monthly costs diff compares at x.
func (ts trafficInputs) scale(x float64) float64 {
	return math.Max(math.Abs(ts.diff(x)+ts.c*x), math.Abs(ts.c*x))
}

// Columns of the traffic search, to the right of the Comparisons tables:
// a block of colTrafficWidth columns per self-hosted direction.
const (
	colTraffic      = 12
	colTrafficWidth = 6
	rowTraffic      = 3
	trafficHalvings = model.TrafficSearchHalvings // the engine's bisection steps
)

// trafficDay writes, from row on in the columns of the traffic search at
// col, the load over the day the rented replicas of d follow: each
// stretch's rate as a share of the mean — a formula of the mean traffic
// (the cell mean) and the peak rate, as model.FollowedDay has it — and its
// hours, plan figures of the engine. It returns the ranges of the shares
// and the hours and the cell of the scale-up margin, all "" when the
// replicas do not follow the load.
func trafficDay(b *book, d *model.DirectionResult, s *scenario.Scenario, c model.SelfHosting, col, row int, mean, peak string) (shares, hours, margin string) {
	const sh = sheetComparisons
	t := s.Workload.Traffic
	if c.Day == nil || t == nil {
		return "", "", ""
	}
	first, last := row+2, row+1+len(c.Day)
	hour := func(i int) string { return absCell(col+2, first+i) }
	// The formula of each stretch's share, in model.FollowedDay's order,
	// from the stretches' hours and (hourly) the load the scenario gives.
	share := make([]string, len(c.Day))
	var given []float64
	assumed := model.AssumedDay(t) && len(c.Day) == 2
	switch {
	case (t.PeakHoursPerDay.IsSet() || assumed) && len(c.Day) == 2:
		share[0] = fmt.Sprintf("%s/%s", peak, mean)
		share[1] = fmt.Sprintf("IF(%s>0,MIN(%s,MAX(0,(24*%s-%s*%s)/%s)),0)/%s", hour(1), peak, mean, hour(0), peak, hour(1), mean)
	case len(t.HourlyLoad) == len(c.Day):
		given = t.HourlyLoad
		loads := absCell(col+4, first) + ":" + absCell(col+4, last)
		for i := range t.HourlyLoad {
			share[i] = fmt.Sprintf("MIN(%s,%s*24*%s/SUM(%s))/%s", peak, mean, absCell(col+4, first+i), loads, mean)
		}
	default:
		b.fail(fmt.Errorf("export: the load over the day of %s has %d stretches the traffic does not give", d.Direction, len(c.Day)))
		return "", "", ""
	}
	b.title(sh, col, row, d.Title+": replicas follow the load over the day")
	head := []string{"Stretch", "Share of the mean rate", "Hours a day", "Scale-up margin"}
	switch {
	case given != nil:
		head = append(head, "Load given (workload.traffic.hourly_load)")
	case assumed:
		head = append(head, "Peak hours a day, assumed (no day given)")
	}
	b.headerRow2(sh, col, row+1, head...)
	b.num(sh, col+3, row+2, c.Margin, b.numFmt(fmtPercent, false), "scale-up margin")
	// The assumed day (model.AssumedPeakHours): at the peak for at most
	// model.DefaultPeakHours, fewer when the mean is below what a quiet rest
	// of the day allows; the rest of the day carries the rest of the mean.
	dayHours := make([]string, len(c.Day))
	if assumed {
		b.num(sh, col+4, row+2, model.DefaultPeakHours, b.numFmt("0.##", false), "assumed peak hours a day")
		dayHours[0] = fmt.Sprintf("MIN(%s,24*%s/%s)", absCell(col+4, row+2), mean, peak)
		dayHours[1] = fmt.Sprintf("24-%s", hour(0))
	}
	for i, x := range c.Day {
		r := row + 2 + i
		b.num(sh, col, r, float64(i+1), b.count, "stretch")
		b.formula(sh, col+1, r, share[i], b.numFmt("0.000", false), numResult(x.Share))
		b.audited(sh, col+1, r, fmt.Sprintf("%s: load over the day, stretch %d, share of the mean", d.Title, i+1), x.Share)
		if dayHours[i] != "" {
			b.formula(sh, col+2, r, dayHours[i], b.numFmt("0.##", false), numResult(x.Hours))
			b.audited(sh, col+2, r, fmt.Sprintf("%s: load over the day, stretch %d, hours (assumed)", d.Title, i+1), x.Hours)
			continue
		}
		b.num(sh, col+2, r, x.Hours, b.numFmt("0.##", false), "hours a day")
		if given != nil {
			b.num(sh, col+4, r, given[i], b.numFmt(fmtGeneral, false), "workload.traffic.hourly_load")
		}
	}
	return absCell(col+1, row+2) + ":" + absCell(col+1, last), absCell(col+2, row+2) + ":" + absCell(col+2, last), absCell(col+3, row+2)
}

// trafficSearch writes, in the block-th block of columns, the engine's
// search for the traffic break-even as formulas: the mean rate on a grid
// from 0.001 requests/s, a factor 1.25 a step up to 100,000, with the
// difference of the monthly costs at each; then 60 halvings of the first
// step where self-hosting is no dearer. It returns the formula of the
// result: 0.001 when self-hosting is no dearer there already, the last
// upper end of the halvings, or "never". staff, mean, c and pg name the
// cells of the staff per month, the mean traffic, the per-token cost per
// request/s and the cost per GPU-month.
func trafficSearch(b *book, s *scenario.Scenario, d *model.DirectionResult, ts trafficInputs, in trafficCells, block int) string {
	const sh = sheetComparisons
	col := colTraffic + block*colTrafficWidth
	var grid []float64
	for x := trafficSearchFrom; x <= trafficSearchTo; x *= trafficSearchFactor {
		grid = append(grid, x)
	}
	// Below the search (its header, the grid, a blank row, the first step
	// no dearer, halving 0 and the halvings), after two blank rows.
	day, dayHours, margin := trafficDay(b, d, s, ts.cost, col, rowTraffic+len(grid)+3+trafficHalvings+3, in.mean, in.peak)
	diff := func(x string) string {
		replicas := fmt.Sprintf("MAX(1,CEILING(%s*%s/%s/%s,1))", x, in.peak, in.mean, in.perReplica)
		if day == "" {
			return fmt.Sprintf("%s+%s*%s*%s-%s*%s", in.staff, replicas, in.gpusPerReplica, in.pg, in.c, x)
		}
		// The replicas of each stretch of the scaled day, c, within
		// [1, the peak's] as arithmetic the array product takes:
		// c + (c<1) − (c>peak)·(c−peak), c a whole number ≥ 0.
		c := fmt.Sprintf("CEILING(%s*%s*(1+%s)/%s,1)", day, x, margin, in.perReplica)
		hours := fmt.Sprintf("SUMPRODUCT(%s,%s+(%s<1)-(%s>%s)*(%s-%s))", dayHours, c, c, c, replicas, c, replicas)
		h := costid.MonthHours.String()
		return fmt.Sprintf("%s+%s*%s*(%s-%s*%s)+%s*%s*%s/24*%s-%s*%s", in.staff, replicas, in.gpusPerReplica, in.pg, h, in.price,
			in.price, in.gpusPerReplica, h, hours, in.c, x)
	}
	row := rowTraffic
	for i, w := range []float64{8, 14, 18, 14, 14} {
		name, err := excelize.ColumnNumberToName(col + i)
		b.fail(err)
		b.fail(b.f.SetColWidth(sh, name, name, w))
	}
	b.title(sh, col, row-1, d.Title+": the engine's search for the traffic break-even")
	b.headerRow2(sh, col, row, "Step", "Mean requests/s", "Self-hosted less per-token (per month)", "Low end (no dearer: 1)", "High end")
	// The grid, each step marked 1 where self-hosting is no dearer.
	first := row + 1
	k := 0 // the first step after the first where self-hosting is no dearer
	for n, x := range grid {
		r := first + n
		b.num(sh, col, r, float64(n), b.count, "step")
		if n == 0 {
			b.formula(sh, col+1, r, nameTrafficFrom, b.numFmt(fmtSeconds, false), numResult(x))
		} else {
			b.formula(sh, col+1, r, cell(col+1, r-1)+"*"+nameTrafficFactor, b.numFmt(fmtSeconds, false), numResult(x))
			b.audited(sh, col+1, r, fmt.Sprintf("%s: traffic search, grid step %d", d.Title, n), x)
		}
		dx := ts.diff(x)
		b.formula(sh, col+2, r, diff(cell(col+1, r)), b.money, numResult(dx))
		b.auditedAgainst(sh, col+2, r, fmt.Sprintf("%s: traffic search, difference at grid step %d", d.Title, n), dx, ts.scale(x))
		no := 0.0
		if dx <= 0 {
			no = 1
			if k == 0 && n > 0 {
				k = n
			}
		}
		b.formula(sh, col+3, r, fmt.Sprintf("IF(%s<=0,1,0)", cell(col+2, r)), b.count, numResult(no))
		b.audited(sh, col+3, r, fmt.Sprintf("%s: traffic search, no dearer at grid step %d", d.Title, n), no)
	}
	last := first + len(grid) - 1
	// The first step no dearer, and the halvings between it and the one
	// before.
	at := last + 2
	b.str(sh, col, at, "First step no dearer")
	const noStep = "none"
	kv := textResult(noStep)
	if k > 0 {
		kv = numResult(float64(k))
		b.audited(sh, col+1, at, d.Title+": traffic search, first step no dearer", float64(k))
	} else {
		b.auditedText(sh, col+1, at, d.Title+": traffic search, first step no dearer", noStep)
	}
	b.formula(sh, col+1, at, fmt.Sprintf(`IFERROR(MATCH(1,%s:%s,0),"%s")`, absCell(col+3, first+1), absCell(col+3, last), noStep), b.count, kv)
	step := cell(col+1, at)
	lo, hi := 0.0, 0.0
	if k > 0 {
		lo, hi = grid[k-1], grid[k]
	}
	grid1 := absCell(col+1, first) + ":" + absCell(col+1, last)
	top := at + 1
	b.str(sh, col, top, "Halving 0")
	bound := func(c, r int, f string, ok bool, x float64, what string) {
		b.formula(sh, c, r, f, b.numFmt(fmtSeconds, false), valueOrBlank(ok, x))
		if ok {
			b.audited(sh, c, r, d.Title+": traffic search, "+what, x)
		} else {
			b.auditedEmpty(sh, c, r, d.Title+": traffic search, "+what)
		}
	}
	bound(col+3, top, fmt.Sprintf(`IFERROR(INDEX(%s,%s),"")`, grid1, step), k > 0, lo, "low end before halving")
	bound(col+4, top, fmt.Sprintf(`IFERROR(INDEX(%s,%s+1),"")`, grid1, step), k > 0, hi, "high end before halving")
	for i := 1; i <= trafficHalvings; i++ {
		r := top + i
		mid := (lo + hi) / 2
		dm := ts.diff(mid)
		b.num(sh, col, r, float64(i), b.count, "halving")
		pl, ph := cell(col+3, r-1), cell(col+4, r-1)
		what := fmt.Sprintf("halving %d", i)
		bound(col+1, r, fmt.Sprintf(`IF(ISNUMBER(%s),(%s+%s)/2,"")`, ph, pl, ph), k > 0, mid, what+", middle")
		m := cell(col+1, r)
		b.formula(sh, col+2, r, fmt.Sprintf(`IF(ISNUMBER(%s),%s,"")`, m, diff(m)), b.money, valueOrBlank(k > 0, dm))
		if k > 0 {
			b.auditedAgainst(sh, col+2, r, d.Title+": traffic search, "+what+", difference", dm, ts.scale(mid))
			if dm <= 0 {
				hi = mid
			} else {
				lo = mid
			}
		} else {
			b.auditedEmpty(sh, col+2, r, d.Title+": traffic search, "+what+", difference")
		}
		dc := cell(col+2, r)
		bound(col+3, r, fmt.Sprintf(`IF(ISNUMBER(%s),IF(%s<=0,%s,%s),"")`, m, dc, pl, m), k > 0, lo, what+", low end")
		bound(col+4, r, fmt.Sprintf(`IF(ISNUMBER(%s),IF(%s<=0,%s,%s),"")`, m, dc, m, ph), k > 0, hi, what+", high end")
	}
	end := cell(col+4, top+trafficHalvings)
	return fmt.Sprintf(`IF(%s<=0,%s,IF(ISNUMBER(%s),%s,"never"))`, cell(col+2, first), cell(col+1, first), end, end)
}

// valueOrBlank is x when ok, else an empty text.
func valueOrBlank(ok bool, x float64) result {
	if ok {
		return numResult(x)
	}
	return textResult("")
}
