package export

import (
	"math"
	"strconv"
	"strings"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// The Drivers sheet: every figure a cost depends on, as a named cell the
// cost formulas read (the cost models' inputs, model.CostInput). A driver
// has Low, Likely and High cells; the case selector at the top chooses
// which column drives the costs (a blank Low or High uses Likely). Plan
// figures — GPU-hours, nodes, tokens per run — follow: they are the
// engine's for this plan and named too.

// Layout of the Drivers sheet.
const (
	rowDrvCase   = 2 // the case selector, in column B
	rowDrvHeader = 5
)

// Columns of the Drivers sheet.
const (
	colDrvLabel = 1 + iota
	colDrvUsed  // the value the costs use (a formula of the case)
	colDrvLow
	colDrvLikely
	colDrvHigh
	colDrvUnit
	colDrvSource
	colDrvAsOf
	colDrvName
	colDrvUsers
)

// nameCase is the defined name of the case selector.
const nameCase = "driver_case"

// cases are the values of the case selector.
var cases = []string{"low", "likely", "high"}

// A driverRow is one named input of the cost models: its first
// occurrence, and the directions that read it. A driver of the verdicts
// (the budget cap, the team's staff) has its own label and unit.
type driverRow struct {
	in          model.CostInput
	users       []string
	label, unit string
	// likely, when set, is the formula of the Likely cell (a converted
	// catalog price: its price in its own currency times the rate);
	// source, when set, says where the value came from.
	likely, source string
}

// rateName is the defined name of the exchange rate from currency from
// into to.
func rateName(from, to string) string {
	return "exchange_rate_" + strings.ToLower(from) + "_" + strings.ToLower(to)
}

// withRates is drivers with each converted catalog price (its
// FromCurrency) read as a formula: its price in its own currency, a named
// input on the row after it, times the exchange rate, a named driver
// after the others (one per rate of r.ExchangeRates that a price went
// through, with its date and source).
func withRates(r *model.Report, drivers []*driverRow) []*driverRow {
	rates := map[string]model.ExchangeRate{}
	for _, x := range r.ExchangeRates {
		rates[x.From] = x
	}
	var out []*driverRow
	used := map[string][]string{}
	for _, d := range drivers {
		x, ok := rates[convertedFrom(d.in)]
		if !ok || d.in.Follows != "" || d.in.Estimate || x.Rate == 0 {
			out = append(out, d)
			continue
		}
		from := x.From
		p := unconverted(d.in.Value, x.Rate)
		own := &driverRow{
			in: model.CostInput{Driver: d.in.Driver, Owner: d.in.Owner, Name: d.in.Name + "_" + strings.ToLower(from),
				Value: p, Low: p, High: p, Catalog: d.in.Catalog, AsOf: d.in.AsOf, Source: d.in.Source},
			users:  d.users,
			label:  inputLabel(d.in, committedRate(r, d.in)) + ", in " + from,
			unit:   costid.Unit(d.in.Driver, from),
			source: "catalog " + strings.ReplaceAll(d.in.Catalog, "/", " ") + ": " + d.in.Source + ", in " + from + " as published",
		}
		c := *d
		c.in.FromCurrency = from
		c.likely = own.in.Name + "*" + rateName(from, x.To)
		out = append(out, &c, own)
		for _, u := range d.users {
			used[from] = appendNew(used[from], u)
		}
	}
	for _, x := range r.ExchangeRates {
		if len(used[x.From]) == 0 {
			continue
		}
		src := "catalog rate table: " + orDash(x.Source)
		if x.Given {
			src = "scenario: exchange_rates (" + x.From + ")" + map[bool]string{true: ": " + x.Source, false: ""}[x.Source != ""]
		}
		out = append(out, &driverRow{
			in:    model.CostInput{Name: rateName(x.From, x.To), Value: x.Rate, Low: x.Rate, High: x.Rate, AsOf: x.AsOf},
			users: used[x.From], label: "Exchange rate: " + x.To + " per " + x.From, unit: x.To + "/" + x.From,
			source: src + "; every catalog price in " + x.From + " is its price in " + x.From + " times this rate",
		})
	}
	return out
}

// convertedFrom is the currency the catalog price in was converted from:
// its FromCurrency, or for an amount of money of the catalog's own
// entries (not an HPC partition's, which has its own currency) that the
// report does not mark, the catalog's currency (the model converts every
// one; the site's staff cost reaches the report unmarked).
func convertedFrom(in model.CostInput) string {
	if in.FromCurrency != "" || in.Set || in.Catalog == "" {
		return in.FromCurrency
	}
	parts := strings.Split(in.Catalog, "/")
	if len(parts) == 3 && parts[0] != "hpc" && catalog.IsMoney(parts[0], parts[2]) {
		return catalog.PriceCurrency
	}
	return ""
}

// unconverted is the price p in its own currency that the engine
// converted into x at rate: the shortest number whose product with rate
// is x, as the engine computed it.
func unconverted(x, rate float64) float64 {
	p := x / rate
	best, bestLen := p, 0
	for _, c := range []float64{p, math.Nextafter(p, math.Inf(1)), math.Nextafter(p, math.Inf(-1)),
		math.Nextafter(math.Nextafter(p, math.Inf(1)), math.Inf(1)), math.Nextafter(math.Nextafter(p, math.Inf(-1)), math.Inf(-1))} {
		if c*rate != x {
			continue
		}
		if n := len(strconv.FormatFloat(c, 'g', -1, 64)); bestLen == 0 || n < bestLen {
			best, bestLen = c, n
		}
	}
	return best
}

// collectDrivers lists the report's named inputs in the order the
// directions read them, the workload's first: the drivers (given and
// estimated inputs) and the plan's figures. Another direction's figures
// (the cloud's cost per run, which the bridge reads) are that direction's
// cells on Costs. A report made by hand, with no cost models, has only the
// runs per month and the horizon.
func collectDrivers(s *scenario.Scenario, r *model.Report) (drivers, plan []*driverRow) {
	byName := map[string]*driverRow{}
	add := func(in model.CostInput, title string) {
		if row, ok := byName[in.Name]; ok {
			row.users = appendNew(row.users, title)
			return
		}
		row := &driverRow{in: in, users: []string{title}}
		byName[in.Name] = row
		switch {
		case in.Kind == model.InputFigure || in.Driver == costid.GPUHoursPerRun:
			// Cells of Costs.
		case in.Kind == model.InputPlan:
			plan = append(plan, row)
		default:
			drivers = append(drivers, row)
		}
	}
	// The workload's inputs first, then each direction's.
	for _, global := range []bool{true, false} {
		for _, d := range r.Directions {
			for _, in := range d.CostInputs {
				if (in.Owner == "") == global {
					add(in, d.Title)
				}
			}
		}
	}
	if _, ok := byName[nameRunsPerMonth]; !ok {
		runs := s.Workload.RunsPerMonth
		in := model.CostInput{Driver: costid.RunsPerMonth, Name: nameRunsPerMonth, Value: r.Workload.RunsPerMonth,
			Low: r.Workload.RunsPerMonth, High: r.Workload.RunsPerMonth, Field: "workload.runs_per_month"}
		if runs.IsSet() && runs.Likely == r.Workload.RunsPerMonth {
			in.Set = true
			if runs.IsEstimate() {
				in.Low, in.High, in.Estimate = runs.Low, runs.High, true
			}
		}
		add(in, "")
	}
	if _, ok := byName[nameHorizonMonths]; !ok {
		h := float64(r.HorizonMonths)
		add(model.CostInput{Driver: costid.HorizonMonths, Name: nameHorizonMonths, Value: h, Low: h, High: h,
			Field: horizonField, Set: true}, "")
	}
	// The drivers of the verdicts: a direction over the budget cap, or
	// needing more staff than the team has, is ruled out.
	verdict := func(name, label, unit, field string, v scenario.Value) {
		in := model.CostInput{Name: name, Field: field, Value: v.Likely, Low: v.Low, High: v.High, Estimate: v.IsEstimate(), Set: true}
		drivers = append(drivers, &driverRow{in: in, users: []string{"Summary: feasible"}, label: label, unit: unit})
	}
	if v := s.Dimensions.Economics.BudgetCap; v.IsSet() {
		verdict(nameBudgetCap, "Budget cap over the horizon", "¤", "dimensions.economics.budget_cap", v)
	}
	if v := s.Dimensions.Operations.StaffFTE; v.IsSet() {
		verdict(nameTeamFTE, "Operations staff the team has", "FTE", "dimensions.operations.staff_fte", v)
	}
	return drivers, plan
}

// Defined names of the drivers of the verdicts.
const (
	nameBudgetCap = "budget_cap"
	nameTeamFTE   = "team_staff_fte"
)

func appendNew(xs []string, x string) []string {
	for _, y := range xs {
		if y == x {
			return xs
		}
	}
	return append(xs, x)
}

// inputLabel is the label of a named input: its driver's, after the title
// of the direction that owns it; committed says the rate is a commitment's.
func inputLabel(in model.CostInput, committed bool) string {
	label := costid.Label(in.Driver)
	switch {
	case in.Driver == costid.StorageGB && in.Owner == scenario.Hybrid:
		label = "snapshot kept in cloud storage while a run lasts"
	case in.Driver == costid.BurstStaffFTE:
		label = costid.Label(costid.StaffFTE)
	case in.Driver == costid.GPUHourPrice && committed:
		label = "committed rate per GPU-hour"
	}
	if in.Owner == "" {
		return upperFirst(label)
	}
	return present.DirectionTitle(in.Owner) + ": " + label
}

// inputSource says where a named input's value came from.
func inputSource(in model.CostInput) string {
	switch {
	case in.Kind == model.InputPlan && in.Field != "":
		return "the engine's plan (scenario field " + in.Field + ")"
	case in.Kind == model.InputPlan:
		return "the engine's plan"
	case in.Kind == model.InputEstimate && in.Field != "":
		return "the model's estimate; the scenario field " + in.Field + " replaces it"
	case in.Kind == model.InputEstimate:
		return "the model's estimate"
	case in.Follows != "":
		return "follows " + in.Follows + " while the scenario leaves " + in.Field + " out"
	case in.Set && in.Estimate:
		return "scenario estimate: " + in.Field
	case in.Set:
		return "scenario: " + in.Field
	case in.Catalog != "":
		s := "catalog " + strings.ReplaceAll(in.Catalog, "/", " ") + ": " + in.Source
		if in.FromCurrency != "" {
			s += "; converted from " + in.FromCurrency + ": its price in " + in.FromCurrency + " (the row below) times the exchange rate (below the drivers)"
		}
		if in.Field != "" {
			s += " (the scenario field " + in.Field + " overrides it)"
		}
		return s
	case in.Field != "":
		return "none: the scenario leaves " + in.Field + " out"
	}
	return ""
}

// writeDrivers writes the Drivers sheet and names its cells.
func writeDrivers(b *book, s *scenario.Scenario, r *model.Report, cs *Cases) {
	const sh = sheetDrivers
	drivers, plan := collectDrivers(s, r)
	drivers = withRates(r, drivers)
	cur := r.Currency
	b.title(sh, 1, 1, "Cost drivers: every figure the costs depend on. Change the shaded cells; every cost follows.")
	b.title(sh, 1, rowDrvCase, "Case that drives the costs")
	b.str(sh, colDrvUsed, rowDrvCase, "likely")
	b.style(sh, cell(colDrvUsed, rowDrvCase), cell(colDrvUsed, rowDrvCase), b.inputStyle(0))
	b.name(nameCase, sh, colDrvUsed, rowDrvCase)
	dv := excelize.NewDataValidation(true)
	dv.Sqref = cell(colDrvUsed, rowDrvCase)
	b.fail(dv.SetDropList(cases))
	dv.SetError(excelize.DataValidationErrorStyleStop, "Not allowed", "The case is one of: "+strings.Join(cases, ", ")+".")
	b.fail(b.f.AddDataValidation(sh, dv))
	b.str(sh, colDrvLow, rowDrvCase, "low, likely or high: every estimate at that end (a blank Low or High uses Likely)")
	b.str(sh, 1, rowDrvCase+1, "Column B is what the costs use. Plan figures, below the drivers, are the engine's for this plan: change the scenario and export again to re-plan.")
	b.headerRow(sh, rowDrvHeader, "Driver", "Used (case in "+cell(colDrvUsed, rowDrvCase)+")", "Low", "Likely", "High", "Unit", "Source", "As of", "Defined name", "Used by")
	row := rowDrvHeader + 1
	for _, d := range drivers {
		in := d.in
		low, likely, high := cell(colDrvLow, row), cell(colDrvLikely, row), cell(colDrvHigh, row)
		label, unit := inputLabel(in, committedRate(r, in)), costid.Unit(in.Driver, cur)
		if d.label != "" {
			label, unit = d.label, strings.ReplaceAll(d.unit, "¤", cur)
		}
		b.str(sh, colDrvLabel, row, label)
		// In its unit's format; money as a price, so that 0.083572 shows,
		// not 0.08.
		format := driverFormat(in.Driver)
		if d.label != "" {
			format = unitFormat(d.unit)
		}
		input := b.inputStyle(b.numFmt(format, false))
		switch {
		case d.likely != "":
			b.formula(sh, colDrvLikely, row, d.likely, input, numResult(in.Value))
		case in.Follows != "":
			b.formula(sh, colDrvLikely, row, in.Follows, input, numResult(in.Value))
		default:
			b.num(sh, colDrvLikely, row, in.Value, input, inputField(in))
		}
		b.style(sh, low, low, input)
		b.style(sh, high, high, input)
		// A driver that is no estimate but differs at a case (the engine
		// chose another offer there): the engine's value at each case.
		caseLow, caseHigh, byCases := caseValues(cs, "", in.Name, in.Value)
		byCases = byCases && !in.Estimate && d.label == ""
		switch {
		case in.Estimate:
			b.num(sh, colDrvLow, row, in.Low, input, inputField(in)+" (low)")
			b.num(sh, colDrvHigh, row, in.High, input, inputField(in)+" (high)")
		case byCases:
			b.num(sh, colDrvLow, row, caseLow, input, inputField(in)+" (low case)")
			b.num(sh, colDrvHigh, row, caseHigh, input, inputField(in)+" (high case)")
		}
		used := byCase(low, likely, high)
		b.formula(sh, colDrvUsed, row, used, b.numFmt(format, true), numResult(in.Value))
		b.name(in.Name, sh, colDrvUsed, row)
		rng, bounded := driverBound(in)
		b.checked = append(b.checked, checkedDriver{row: row, label: label, name: in.Name, rng: rng, bounded: bounded, byCase: byCases})
		b.str(sh, colDrvUnit, row, unit)
		source := inputSource(in)
		if d.source != "" {
			source = d.source
		}
		if byCases {
			source += "; Low and High: the engine's value at each case, where it chooses another offer"
		}
		// The source itself once, on Sources; here its id.
		source, at := b.citing(source, in.Source, label)
		b.str(sh, colDrvSource, row, source)
		if at > 0 {
			b.fail(b.f.SetCellHyperLink(sh, cell(colDrvSource, row), sheetSources+"!"+cell(1, at), "Location"))
		}
		b.date(sh, colDrvAsOf, row, in.AsOf)
		b.str(sh, colDrvName, row, in.Name)
		b.str(sh, colDrvUsers, row, strings.Join(d.users, ", "))
		row++
	}
	row = writeConstants(b, row)
	if len(plan) > 0 || cs != nil {
		row++
		b.title(sh, 1, row, "Plan figures: the engine's for this plan (change the scenario and export again to re-plan)")
		row++
		if cs != nil {
			b.headerRow(sh, row, "Figure", "Value (case in "+cell(colDrvUsed, rowDrvCase)+")", "Low case", "Likely case", "High case", "Unit", "Source", "", "Defined name", "Used by")
		} else {
			b.headerRow(sh, row, "Figure", "Value", "", "", "", "Unit", "Source", "", "Defined name", "Used by")
		}
		row++
		for _, d := range plan {
			in := d.in
			b.str(sh, colDrvLabel, row, inputLabel(in, false))
			b.planByCase(row, in.Owner, in.Name, in.Value, inputField(in), driverFormat(in.Driver), cs)
			b.figure(in.Name, sh, colDrvUsed, row)
			b.str(sh, colDrvUnit, row, costid.Unit(in.Driver, cur))
			b.str(sh, colDrvSource, row, inputSource(in))
			b.str(sh, colDrvName, row, in.Name)
			b.str(sh, colDrvUsers, row, strings.Join(d.users, ", "))
			row++
		}
		// Each direction's GPU-hours per run, when they differ by case:
		// the Costs sheet reads them here.
		for _, d := range r.Directions {
			if d.CostModel == costid.NoCostModel {
				continue
			}
			if _, _, ok := caseValues(cs, d.Direction, "", d.GPUHoursPerRun); !ok {
				continue
			}
			name := d.Direction + "_" + costid.GPUHoursPerRun.String() + "_by_case"
			b.str(sh, colDrvLabel, row, present.DirectionTitle(d.Direction)+": "+costid.Label(costid.GPUHoursPerRun))
			b.planByCase(row, d.Direction, "", d.GPUHoursPerRun, "directions["+d.Direction+"].gpu_hours_per_run", driverFormat(costid.GPUHoursPerRun), cs)
			b.figure(name, sh, colDrvUsed, row)
			b.str(sh, colDrvUnit, row, costid.Unit(costid.GPUHoursPerRun, cur))
			b.str(sh, colDrvSource, row, "the engine's plan; Costs column D reads it")
			b.str(sh, colDrvName, row, name)
			b.str(sh, colDrvUsers, row, d.Title)
			row++
		}
	}
	b.widths(sh, 52, 14, 12, 14, 12, 16, 70, 12, 34, 40)
	b.freeze(sh, rowDrvHeader)
}

// writeConstants writes, from the row after row, the constants the
// engine's definitions and plan share (costid.Constants: the hours in a
// month …), each a named cell the formulas read instead of restating its
// value. It returns the next free row.
func writeConstants(b *book, row int) int {
	const sh = sheetDrivers
	row++
	b.title(sh, 1, row, "Constants of the engine: its definitions and its plan use these values")
	row++
	b.headerRow(sh, row, "Constant", "Value", "", "", "", "Unit", "Source", "", "Defined name", "Used by")
	row++
	for _, d := range costid.Constants() {
		k, _ := costid.Constant(d)
		b.str(sh, colDrvLabel, row, upperFirst(costid.Label(d)))
		b.num(sh, colDrvUsed, row, k, b.inputStyle(b.numFmt(driverFormat(d), false)), d.String())
		b.name(d.String(), sh, colDrvUsed, row)
		b.str(sh, colDrvUnit, row, costid.Unit(d, b.currency))
		b.str(sh, colDrvSource, row, costid.Help(d)+" (every formula follows a change; the plan figures stay the engine's, made with this value)")
		b.str(sh, colDrvName, row, d.String())
		b.str(sh, colDrvUsers, row, "the formulas that name it")
		row++
	}
	return row
}

// driverBound is the range a driver's values must lie in: its scenario
// field's (scenario.BoundOf), else its catalog field's.
func driverBound(in model.CostInput) (scenario.Range, bool) {
	r, ok := fieldBound(in)
	if ok && r.Zero == "" && !in.Set && in.Value == 0 {
		// The value a field left out stands for.
		r.Zero = "the scenario leaves " + in.Field + " out"
	}
	return r, ok
}

func fieldBound(in model.CostInput) (scenario.Range, bool) {
	if in.Field != "" {
		if r, ok := scenario.BoundOf(in.Field); ok {
			return r, true
		}
	}
	if p := strings.Split(in.Catalog, "/"); len(p) == 3 {
		return scenario.CatalogBound(p[0], p[2])
	}
	if strings.HasPrefix(in.Name, "exchange_rate_") {
		return scenario.BoundOf("exchange_rates[].rate")
	}
	return scenario.Range{}, false
}

// planByCase writes in row the plan figure name of direction dir (name
// "": its GPU-hours per run), likely at export: with the engine's values
// at each case beside it, Low, Likely and High, and the value the case
// selector chooses; else the value alone.
func (b *book) planByCase(row int, dir, name string, likely float64, field, format string, cs *Cases) {
	const sh = sheetDrivers
	low, high, ok := caseValues(cs, dir, name, likely)
	if !ok {
		b.num(sh, colDrvUsed, row, likely, b.numFmt(format, false), field)
		return
	}
	plain := b.numFmt(format, false)
	b.num(sh, colDrvLow, row, low, plain, field+" (low case)")
	b.num(sh, colDrvLikely, row, likely, plain, field)
	b.num(sh, colDrvHigh, row, high, plain, field+" (high case)")
	b.formula(sh, colDrvUsed, row, byCase(cell(colDrvLow, row), cell(colDrvLikely, row), cell(colDrvHigh, row)), plain, numResult(likely))
}

// byCase is the formula of the value the case selector chooses among the
// cells low, likely and high (a blank low or high: likely).
func byCase(low, likely, high string) string {
	return "IF(" + nameCase + `="low",IF(ISBLANK(` + low + `),` + likely + `,` + low + `),IF(` + nameCase + `="high",IF(ISBLANK(` + high + `),` + likely + `,` + high + `),` + likely + `))`
}

// caseValues are the engine's values of plan figure name of direction dir
// (name "": its GPU-hours per run) at the low and the high case, when the
// cases are given and either differs from likely.
func caseValues(c *Cases, dir, name string, likely float64) (low, high float64, ok bool) {
	if c == nil || c.Low == nil || c.High == nil {
		return 0, 0, false
	}
	at := func(r *model.Report) (float64, bool) {
		for _, d := range r.Directions {
			if name == "" {
				if d.Direction == dir {
					return d.GPUHoursPerRun, true
				}
				continue
			}
			for _, in := range d.CostInputs {
				if in.Name == name {
					return in.Value, true
				}
			}
		}
		return 0, false
	}
	low, okLow := at(c.Low)
	high, okHigh := at(c.High)
	return low, high, okLow && okHigh && (low != likely || high != likely)
}

// committedRate reports whether the rate in is is paid under a commitment
// by a direction that reads it.
func committedRate(r *model.Report, in model.CostInput) bool {
	if in.Driver != costid.GPUHourPrice {
		return false
	}
	for _, d := range r.Directions {
		for _, x := range d.CostInputs {
			if x.Name == in.Name && d.Drivers != nil && d.Drivers[costid.CommittedGPUs] > 0 {
				return true
			}
		}
	}
	return false
}

// inputField names an input in an error: its scenario field, or its name.
func inputField(in model.CostInput) string {
	if in.Field != "" {
		return in.Field
	}
	return in.Name
}
