package export

import (
	"fmt"
	"strconv"
	"strings"

	"hostplan/internal/costid"
	"hostplan/internal/present"
)

// The Compare sheet is live for its drivers: each scenario's runs per
// month and horizon, and each direction's four figures the cost identity
// reads (and its GPU-hours per run), are named inputs in the scenario's
// own currency; the costs over the horizon and per run, and the cheapest
// feasible direction, are formulas of them by the cost identity
// (costid.Definition), converted into the comparison's currency — the
// first scenario's — at exchange rates that are inputs too, each stated
// with its date and source. What drives those four figures (prices,
// staff, hardware) is live in each scenario's own workbook.

// compareInputs are the drivers of a direction on the Compare sheet: the
// cost identity's inputs of a direction (as the Costs sheet's columns).
var compareInputs = []costid.Driver{costid.GPUHoursPerRun, costid.VariablePricePerGPUHour, costid.OtherCostPerRun, costid.MonthlyFixedCost, costid.OneOffCost}

// compareName is the defined name of driver x of direction dir (""
// for the scenario's own) of the i-th scenario (from 0).
func compareName(i int, dir string, x costid.Driver) string {
	if dir == "" {
		return "s" + strconv.Itoa(i+1) + "_" + x.String()
	}
	return "s" + strconv.Itoa(i+1) + "_" + dir + "_" + x.String()
}

// compareRateName is the defined name of the rate from currency from into
// the comparison's currency to.
func compareRateName(from, to string) string {
	return "compare_rate_" + strings.ToLower(from) + "_" + strings.ToLower(to)
}

// compareRate is the rate that converts from into to, from the reports'
// exchange rates (either way round), with its date and source; ok false
// when no report has one.
func compareRate(entries []Entry, from, to string) (rate float64, asOf, source string, ok bool) {
	for _, e := range entries {
		for _, x := range e.Report.ExchangeRates {
			switch {
			case x.From == from && x.To == to && x.Rate > 0:
				return x.Rate, x.AsOf, x.Source, true
			case x.From == to && x.To == from && x.Rate > 0:
				return 1 / x.Rate, x.AsOf, "the inverse of " + to + " → " + from + " " + strconv.FormatFloat(x.Rate, 'g', -1, 64) + ": " + x.Source, true
			}
		}
	}
	return 0, "", "", false
}

// compareCosts is each direction's figure x (the cost over the horizon or
// per run) of scenario i as a formula of the Compare sheet's drivers, in
// the comparison's currency when rate names the rate into it.
func compareCost(i int, dir string, x costid.Driver, rate string) string {
	f := costid.Definition(x).Formula(func(d costid.Driver) string {
		switch d {
		case costid.RunsPerMonth, costid.HorizonMonths:
			return compareName(i, "", d)
		case costid.VariableCostPerRun, costid.MonthlySpend:
			return "" // written out
		}
		return compareName(i, dir, d)
	})
	if rate != "" {
		return "(" + f + ")*" + rate
	}
	return f
}

// compareCurrency is what the rows of money of scenario e are in: the
// comparison's currency base, converted at the named rate, or e's own
// when no rate converts it (rate "").
func compareCurrency(b *book, e Entry, base string) (currency, rate string) {
	cur := e.Report.Currency
	if cur == base {
		return base, ""
	}
	if _, ok := b.names[compareRateName(cur, base)]; ok {
		return base, compareRateName(cur, base)
	}
	return cur, ""
}

// writeCompareRates writes, from row on, the exchange rates into base of
// every other currency of the entries, each a named input with its date
// and source. It returns the next free row.
func writeCompareRates(b *book, entries []Entry, base string, row int) int {
	const sh = sheetCompare
	seen := map[string]bool{base: true}
	first := true
	for _, e := range entries {
		cur := e.Report.Currency
		if seen[cur] {
			continue
		}
		seen[cur] = true
		if first {
			row++
			b.title(sh, 1, row, "Exchange rates: money below is in "+base)
			row++
			first = false
		}
		rate, asOf, source, ok := compareRate(entries, cur, base)
		b.spanText(sh, row, 1, 1, "1 "+cur+" in "+base, textStyle{bold: true})
		if !ok {
			b.spanText(sh, row, colFirstScenario, colFirstScenario+len(entries)-1,
				"No report gives a rate between "+cur+" and "+base+": the "+cur+" scenarios' money stays in "+cur+", not comparable with the rest.", textStyle{})
			row++
			continue
		}
		name := compareRateName(cur, base)
		b.num(sh, colFirstScenario, row, rate, b.numFmt("0.000000", false), name)
		b.name(name, sh, colFirstScenario, row)
		b.spanText(sh, row, colFirstScenario+1, max(colFirstScenario+1, colFirstScenario+len(entries)-1), "as of "+orDash(asOf)+"; "+orDash(source), textStyle{})
		row++
	}
	return row
}

// liveCosts writes a row per direction of figure x (the cost over the
// horizon or per run) of every entry as a formula of the drivers, in grey
// where the direction was not feasible at export; a dash where the
// scenario has no such direction, or it was ruled out before it was
// costed. It returns, per entry, the cell of each direction's figure.
func (w *compareWriter) liveCosts(dirs []string, x costid.Driver, format, base string) []map[string]string {
	const sh = sheetCompare
	cells := make([]map[string]string, len(w.entries))
	for i := range cells {
		cells[i] = map[string]string{}
	}
	for _, id := range dirs {
		w.b.spanText(sh, w.row, 1, 1, present.DirectionTitle(id), textStyle{indent: 1})
		for i, e := range w.entries {
			col := colFirstScenario + i
			d := e.Report.Direction(id)
			if d == nil || notCosted(d) {
				w.dash(col)
				continue
			}
			cur, rate := compareCurrency(w.b, e, base)
			v := figure(d, x)
			if rate != "" {
				r, _, _, _ := compareRate(w.entries, e.Report.Currency, base)
				v *= r
			}
			w.b.formula(sh, col, w.row, compareCost(i, id, x, rate), w.b.numIn(format, cur, !d.Feasible), numResult(v))
			cells[i][id] = cell(col, w.row)
		}
		w.row++
	}
	return cells
}

// cheapestFormula is the title of the cheapest of the directions feasible
// at export of entry e, whose costs over the horizon are in cells, or
// "None is feasible".
func cheapestFormula(e Entry, dirs []string, cells map[string]string) (title, cost string) {
	var feasible []string
	for _, id := range dirs {
		if d := e.Report.Direction(id); d != nil && d.Feasible && cells[id] != "" {
			feasible = append(feasible, id)
		}
	}
	if len(feasible) == 0 {
		return `"None is feasible"`, ""
	}
	var refs []string
	for _, id := range feasible {
		refs = append(refs, cells[id])
	}
	least := "MIN(" + strings.Join(refs, ",") + ")"
	title = `"` + directionTitle(e.Report, feasible[len(feasible)-1]) + `"`
	for k := len(feasible) - 2; k >= 0; k-- {
		title = fmt.Sprintf(`IF(%s=%s,"%s",%s)`, cells[feasible[k]], least, directionTitle(e.Report, feasible[k]), title)
	}
	return title, least
}

// writeCompareDrivers writes, from the writer's row on, each scenario's
// drivers: a row per direction and figure the cost identity reads, in the
// scenario's own currency, each a named input the costs above read.
func (w *compareWriter) writeCompareDrivers(dirs []string) {
	const sh = sheetCompare
	w.section("Drivers: each direction's figures in its scenario's own currency (change them; the costs above follow)")
	for _, id := range dirs {
		for _, x := range compareInputs {
			w.b.spanText(sh, w.row, 1, 1, present.DirectionTitle(id)+": "+costid.Label(x), textStyle{indent: 1})
			for i, e := range w.entries {
				col := colFirstScenario + i
				d := e.Report.Direction(id)
				if d == nil || notCosted(d) {
					w.dash(col)
					continue
				}
				format := driverFormat(x)
				if costid.IsMoney(x) {
					format = fmtPrice
				}
				w.b.num(sh, col, w.row, figure(d, x), w.b.numIn(format, e.Report.Currency, false), fmt.Sprintf("%s: directions[%s].%s", e.Scenario.ID, id, x))
				w.b.name(compareName(i, id, x), sh, col, w.row)
			}
			w.row++
		}
	}
}
