package model

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"time"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// Version identifies the model's formulas; it is stored with every report.
const Version = "0.11.0"

// Evaluate computes the report for a valid scenario. A reference the catalog
// cannot resolve is returned as scenario.Errors naming the field.
func Evaluate(s *scenario.Scenario, cat *catalog.Catalog) (*Report, error) {
	if errs := scenario.Validate(s); errs != nil {
		return nil, errs
	}
	return EvaluateValid(s, cat)
}

// EvaluateValid is Evaluate for a scenario that scenario.Validate has
// passed (the planner's checks run it first, with the checks against the
// catalog): it does not validate again. An invalid scenario gives an
// error or a report without meaning.
func EvaluateValid(s *scenario.Scenario, cat *catalog.Catalog) (*Report, error) {
	return evaluateValid(s, cat, false)
}

// EvaluateLean is EvaluateValid without the report's words: no notes, no
// cost lines, no sources. Every number, verdict, reason, cost input and
// price read is the full report's (TestLeanReportIsTheFullOnesNumbers);
// what the words cost — formatting them, most of all — a caller that
// keeps only those (app's stored outcomes, thousands at a time) does not
// pay.
func EvaluateLean(s *scenario.Scenario, cat *catalog.Catalog) (*Report, error) {
	return evaluateValid(s, cat, true)
}

func evaluateValid(s *scenario.Scenario, cat *catalog.Catalog, lean bool) (*Report, error) {
	eff, err := scenarioCatalog(s, cat)
	if err != nil {
		return nil, err
	}
	r, err := evaluateWith(s, eff, nil, nil, lean)
	if err == nil {
		readsOn(r, s, cat, eff)
	}
	return r, err
}

// readsOn finishes r's PriceReads: the cloud choice's prices in the
// catalog's currency. A scenario that sets a cloud price of its own
// makes every cloud price matter (the choice compared its price, not the
// catalog's).
func readsOn(r *Report, s *scenario.Scenario, orig, eff *catalog.Catalog) {
	if r.PriceReads == nil {
		return
	}
	if c := r.PriceReads.Cloud; c != nil {
		for _, o := range s.PriceOverrides {
			if catalog.Kind(o.Kind) == catalog.KindCloud {
				c.Fallback = true
			}
		}
	}
	finishReads(r.PriceReads, s, orig, eff)
}

// evaluate computes the report of s. With pins it is quiet: a Monte Carlo
// draw or a tornado point of a pinned plan, with the full report's numbers
// and verdicts but no words, tables or comparisons, written into buf's
// storage. This is the one place that decides whether words are written.
func evaluate(s *scenario.Scenario, cat *catalog.Catalog, pin *pins, buf *scratch) (*Report, error) {
	return evaluateWith(s, cat, pin, buf, false)
}

// evaluateWith is evaluate, lean without the report's words
// (EvaluateLean).
func evaluateWith(s *scenario.Scenario, cat *catalog.Catalog, pin *pins, buf *scratch, lean bool) (*Report, error) {
	quiet := pin != nil
	var zbuf *size
	r := &Report{}
	if quiet {
		zbuf, r = &buf.z, &buf.report
	}
	z, err := sizeWorkload(s, cat, quiet, zbuf)
	if err != nil {
		return nil, err
	}
	e := &evaluator{s: s, cat: cat, z: z, pin: pin, quiet: quiet, lean: lean && !quiet}
	estimates := []string{}
	if quiet {
		e.trial = pin.trial
	} else {
		e.staffCost = map[string]float64{}
		estimates = nonNil(scenario.Estimates(s))
		e.reads = &PriceReads{}
		// Every direction reads the site's figures (on-premises, hybrid,
		// the bridge), and a scenario in another currency the rates.
		e.weigh(catalog.KindSite, catalog.SiteID)
	}
	*r = Report{
		ScenarioID:          s.ID,
		ScenarioName:        s.Name,
		ModelVersion:        Version,
		Currency:            s.Currency,
		Shape:               s.Workload.Shape,
		HorizonMonths:       s.Dimensions.Economics.HorizonMonths,
		RunUnit:             runUnit(s.Workload.Shape),
		Warnings:            []Note{},
		EfficiencyThreshold: z.threshold,
		Workload: WorkloadSummary{
			Model: z.name, ParamsB: z.paramsB, ActiveParamsB: z.activeB,
			FLOPsPerRun: z.flops, FLOPsFactor: z.factor, TokensPerRun: z.tokens,
			RunsPerMonth: z.runsPerMonth, WeightsGB: z.weightsGB, MemoryNeededGB: z.totalStateGB(),
			Estimates: estimates,
		},
	}
	if quiet {
		// Reuse the previous draw's storage: the caller has read it.
		r.Directions = buf.dirs[:0]
		defer func() { buf.dirs = r.Directions }()
	} else {
		r.Directions = make([]DirectionResult, 0, len(scenario.Directions))
	}
	var errs scenario.Errors
	if quiet && len(buf.vals) < len(scenario.Directions) {
		buf.vals = make([]costid.Values, len(scenario.Directions))
	}
	for i, d := range scenario.Directions {
		r.Directions = append(r.Directions, DirectionResult{})
		res := &r.Directions[len(r.Directions)-1]
		var vals *costid.Values
		if quiet {
			vals = &buf.vals[i]
			*vals = costid.Values{}
		} else {
			vals = new(costid.Values)
		}
		if err := e.direction(res, d, vals); err != nil {
			r.Directions = r.Directions[:len(r.Directions)-1]
			if fe, ok := err.(scenario.Errors); ok {
				errs = append(errs, fe...)
				continue
			}
			return nil, err
		}
		e.finish(res)
		e.energy(res)
		if d == scenario.Cloud {
			e.cloudRun = res.Drivers[costid.RentalCostPerRun]
			e.cloudFeasible = res.Feasible
		}
	}
	if errs != nil {
		return nil, errs
	}
	r.CatalogAsOf = e.oldestAsOf
	best := math.Inf(1)
	for _, d := range r.Directions {
		if d.Feasible && d.CostHorizon < best {
			best, r.Cheapest = d.CostHorizon, d.Direction
		}
	}
	if !quiet {
		r.Comparisons = e.compare(r)
		r.Workload.FitByGPU = fitByGPU(z, cat)
	}
	if len(z.notes) > 0 {
		r.Warnings = append(r.Warnings, z.notes...)
	}
	if !quiet {
		r.ExchangeRates = e.exchangeRates()
		r.trial = e.trial
		r.PriceReads = e.reads
	}
	if e.currencyWarn != nil {
		r.Warnings = append(r.Warnings, *e.currencyWarn)
	}
	if err := checkFinite(r); err != nil {
		return nil, err
	}
	return r, nil
}

func runUnit(shape string) string {
	switch shape {
	case scenario.ShapeInteractive:
		return "month of service"
	case scenario.ShapeBatch:
		return "batch"
	case scenario.ShapeFineTuning:
		return "fine-tuning run"
	}
	return "training run"
}

type evaluator struct {
	s            *scenario.Scenario
	cat          *catalog.Catalog
	z            *size
	currencyWarn *Note
	rates        map[string]ExchangeRate // the exchange rates used, by the currency converted from
	staffCost    map[string]float64      // monthly staff cost by direction
	// tokensPerMonth is a month of interactive traffic at the managed
	// per-token prices, whichever pricing the managed direction took (0
	// without a per-token offer): the traffic break-even's managed cost.
	tokensPerMonth float64
	// The cloud direction's cost of a run rented by the hour and its
	// verdict: on-premises rents it as bridge capacity while its hardware
	// is on order.
	cloudRun      float64
	cloudFeasible bool
	pin           *pins          // nil for a full report
	quiet         bool           // a pinned plan's evaluation: numbers and verdicts only
	lean          bool           // no words: notes, cost lines and sources left out (EvaluateLean)
	trial         *trialFit      // the trial's fit, once made (see fit)
	refDate       *refDate       // the catalog's date (catalogDate), once found
	reads         *PriceReads    // what the evaluation read of the prices (nil when quiet)
	staffSource   string         // the staff cost's source, once joined (staff)
	dataHome      dataHome       // the cloud storage the data lives in, once the cloud direction took an offer (provider set)
	citations     []citation     // the sources cited so far (citation)
	shares        *costid.Values // costShareIn's scratch, shared by the directions (priceDates)
	oldestAsOf    string         // the oldest as_of of a price in use (dated)
}

// use records a price entry: its as_of counts towards the report's
// CatalogAsOf (the oldest price in use).
func (e *evaluator) use(r *DirectionResult, what string, en catalog.Entry) {
	if r.quiet {
		return
	}
	e.dated(r, what, en)
	e.cite(r, what, en)
}

// dated records a price r used, what, dated by en's as_of, without citing
// en (the caller cites the entry once for several of its figures).
func (e *evaluator) dated(r *DirectionResult, what string, en catalog.Entry) {
	if r.quiet {
		return
	}
	e.oldestAsOf = catalog.OlderAsOf(e.oldestAsOf, en.AsOf)
	r.prices = append(r.prices, usedPrice{what, en.AsOf})
	e.converted(r, en)
}

// stalePriceMonths is how old a used price may be before a note says so:
// twelve months, after which GPU prices have moved by tens of per cent
// (H100 on-demand rates fell from about 8 to 2–4 $ an hour between 2023
// and 2025; the catalog's own offers show the spread).
const stalePriceMonths = catalog.StaleMonths

// priceDates sets r's PricesAsOf, the oldest date among the prices it
// used, and notes each used price dated more than stalePriceMonths before
// the reference date: the newest price date in the catalog in use (the
// catalog's own date, which an override or import dated today moves).
func (e *evaluator) priceDates(r *DirectionResult) {
	if r.quiet || len(r.prices) == 0 {
		return
	}
	seen := map[string]bool{}
	for _, p := range r.prices {
		r.PricesAsOf = catalog.OlderAsOf(r.PricesAsOf, p.asOf)
	}
	ref, ok := e.catalogDate()
	if !ok || r.lean { // the rest is the stale_price note's
		return
	}
	// Dates are YYYY-MM-DD, whose text sorts as the days do: only one
	// before the limit's text is parsed, to skip a malformed one.
	limit := ref.AddDate(0, -stalePriceMonths, 0).Format(time.DateOnly)
	// The stale prices this direction's cost leans on: each catalog input
	// dated before the limit whose driver carries at least
	// staleMaterialShare of the cost over the horizon (its elasticity: a
	// 1 % change of it moves the cost by that share of 1 %). A figure the
	// cost hardly reads is not named: a note on every direction teaches
	// readers to skip it.
	type stale struct {
		what, asOf string
		share      float64
	}
	var found []stale
	for _, in := range r.CostInputs {
		if in.Catalog == "" || seen[in.Catalog] {
			continue
		}
		if !(in.AsOf < limit) {
			continue
		}
		if _, err := time.Parse(time.DateOnly, in.AsOf); err != nil {
			continue
		}
		seen[in.Catalog] = true
		if e.shares == nil {
			e.shares = new(costid.Values)
		}
		if x := r.costShareIn(in.Driver, e.shares); x >= staleMaterialShare {
			found = append(found, stale{fmt.Sprintf("%s (%s)", costid.Label(in.Driver), in.Catalog), in.AsOf, x})
		}
	}
	if len(found) == 0 {
		return
	}
	slices.SortStableFunc(found, func(a, b stale) int { return cmp.Compare(b.share, a.share) })
	words := make([]string, len(found))
	for i, f := range found {
		words[i] = fmt.Sprintf("%s as of %s (%.0f %% of the cost)", f.what, f.asOf, 100*f.share)
	}
	r.note(NoteStalePrice, []string{"price_overrides"}, "catalog figures more than %d months older than its newest price (%s) that this cost leans on: %s; check them against current quotes",
		stalePriceMonths, ref.Format(time.DateOnly), strings.Join(words, "; "))
}

// staleMaterialShare is the share of a direction's cost a stale price must
// carry for the stale_price note to name it.
const staleMaterialShare = 0.01

// costShare is the elasticity of r's cost over the horizon in driver d:
// how much of a relative change of d reaches the cost (1 for a cost
// proportional to it, 0 for one it does not enter), by the cost identity.
func (r *DirectionResult) costShare(d costid.Driver) float64 {
	var v costid.Values
	return r.costShareIn(d, &v)
}

// costShareIn is costShare working in v, whose values it replaces: a
// caller that asks for many shares gives one v for all (a Values is some
// hundreds of bytes, and each call made one).
func (r *DirectionResult) costShareIn(d costid.Driver, v *costid.Values) float64 {
	if r.Drivers == nil || r.CostModel == costid.NoCostModel || !(r.CostHorizon > 0) || !(r.Drivers[d] != 0) {
		return 0
	}
	*v = *r.Drivers
	v[d] *= 1.01
	r.CostModel.DeriveParts(v)
	costid.DeriveFigures(v)
	x := math.Abs(v[costid.CostHorizon]/r.CostHorizon-1) / 0.01
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0
	}
	return x
}

// catalogDate is the newest as_of among the catalog's prices (cloud
// offers, data prices, nodes, the site, HPC partitions, managed offers):
// the date the catalog in use speaks for.
func (e *evaluator) catalogDate() (time.Time, bool) {
	if e.refDate == nil {
		d, ok := e.cat.NewestPrice()
		e.refDate = &refDate{d, ok}
	}
	return e.refDate.t, e.refDate.ok
}

// refDate is the catalog's date, once found.
type refDate struct {
	t  time.Time
	ok bool
}

// cite records a specification (GPU datasheet, model architecture) as a
// source without letting its date count as a price date.
func (e *evaluator) cite(r *DirectionResult, what string, en catalog.Entry) {
	if r.quiet || r.lean {
		return
	}
	r.Sources = append(r.Sources, e.citation(what, en))
	if en.Note != "" {
		r.Notes = append(r.Notes, newNote(NoteCatalogEntry, nil, what+": "+en.Note))
	}
}

// citation is cite's words for what from en, made once per evaluation:
// the directions cite the same entries (the site, a GPU), and a source is
// long.
func (e *evaluator) citation(what string, en catalog.Entry) string {
	for _, c := range e.citations {
		if c.what == what && c.asOf == en.AsOf && c.source == en.Source {
			return c.text
		}
	}
	text := what + " (as of " + en.AsOf + "): " + en.Source
	e.citations = append(e.citations, citation{what, en.AsOf, en.Source, text})
	return text
}

// citation is one source's words as cite made them.
type citation struct{ what, asOf, source, text string }

// direction fills r for direction d, with vals (zero) for its cost
// drivers.
func (e *evaluator) direction(r *DirectionResult, d string, vals *costid.Values) error {
	*r = DirectionResult{Direction: d, Title: scenario.DirectionTitle[d], Feasible: true,
		Reasons: []Reason{}, Notes: []Note{}, Sources: []string{}, Breakdown: []CostLine{},
		Drivers: vals, quiet: e.quiet, lean: e.lean}
	if !e.quiet {
		// The examples' directions record 7–22 inputs: one allocation.
		r.CostInputs = make([]CostInput, 0, 24)
	}
	var err error
	switch d {
	case scenario.Managed:
		err = e.managed(r)
	case scenario.Cloud:
		err = e.cloud(r, false)
	case scenario.OnPrem:
		err = e.onPrem(r)
	case scenario.HPC:
		err = e.hpc(r, false)
	case scenario.Hybrid:
		err = e.hybrid(r)
	}
	if err != nil {
		return err
	}
	if disabled(e.s.Options, d) {
		r.Feasible = false
		if !r.quiet {
			r.Reasons = append([]Reason{newReason(ReasonExcluded, []string{"options." + d + ".disabled"},
				"the scenario sets this direction aside")}, r.Reasons...)
		}
	}
	return nil
}

func disabled(o scenario.Options, d string) bool {
	switch d {
	case scenario.Managed:
		return o.Managed.Disabled
	case scenario.Cloud:
		return o.Cloud.Disabled
	case scenario.OnPrem:
		return o.OnPrem.Disabled
	case scenario.HPC:
		return o.HPC.Disabled
	}
	return o.Hybrid.Disabled
}

// line adds an item to the horizon breakdown.
func (r *DirectionResult) line(item string, amount float64, basis string, a ...any) {
	if !r.quiet && !r.lean {
		r.Breakdown = append(r.Breakdown, CostLine{Item: item, Amount: amount, Basis: fmt.Sprintf(basis, a...)})
	}
}

func (e *evaluator) months() int { return e.s.Dimensions.Economics.HorizonMonths }

// finish derives the cost figures from the parts each direction set, by the
// cost identity the workbook also writes as formulas (package costid), and
// checks the budget.
func (e *evaluator) finish(r *DirectionResult) {
	runs := e.z.runsPerMonth
	months := float64(e.months())
	r.DeriveCosts(runs, e.months(), !r.quiet)
	if r.CostModel != costid.NoCostModel && !r.quiet {
		// The inputs every cost model reads.
		r.fromModel(costid.GPUHoursPerRun, r.Direction, costid.GPUHoursPerRun, InputPlan, "")
		if e.z.serving {
			r.fromModel(costid.RunsPerMonth, "", costid.RunsPerMonth, InputPlan, "workload.runs_per_month")
		} else {
			r.fromField(costid.RunsPerMonth, "", costid.RunsPerMonth, "workload.runs_per_month", e.s.Workload.RunsPerMonth, "estimate", "", "", catalog.Entry{})
		}
		r.fromField(costid.HorizonMonths, "", costid.HorizonMonths, "dimensions.economics.horizon_months", scenario.Known(months), "", "", "", catalog.Entry{})
	}
	if e.staffCost != nil && r.CostModel != costid.NoCostModel {
		e.staffCost[r.Direction] = r.Drivers[costid.StaffPerMonth]
	}
	if !r.quiet {
		e.costLines(r)
	}
	// A direction without a rate of its own (owned hardware) states the
	// cost of its GPU-hour; a rate the scenario or catalog gives, 0
	// included, stays the one its costs and the break-even use.
	if r.PricePerGPUHour == 0 && !r.rated && r.GPUHoursPerRun > 0 {
		r.PricePerGPUHour = (r.MonthlyFixedCost/math.Max(runs, 1e-9) + r.GPUHoursPerRun*r.VariablePricePerGPUHour) / r.GPUHoursPerRun
	}
	if r.GPUHoursPerRun > 0 {
		if !r.quiet {
			r.line("Compute", months*runs*r.GPUHoursPerRun*r.VariablePricePerGPUHour, "%.4g runs/month × %d months × %.1f GPU-hours × %.4g per GPU-hour", runs, e.months(), r.GPUHoursPerRun, r.VariablePricePerGPUHour)
		}
	}
	if !r.quiet {
		sort.SliceStable(r.Breakdown, func(i, j int) bool { return r.Breakdown[i].Amount > r.Breakdown[j].Amount })
	}
	e.priceDates(r)
	if cap := e.s.Dimensions.Economics.BudgetCap; cap.IsSet() && r.CostHorizon > cap.Likely {
		if r.ruleOut() {
			r.infeasible(ReasonBudgetCapExceeded, []string{"dimensions.economics.budget_cap"},
				"costs %s %s over %d months; the budget cap is %s", num.Whole(r.CostHorizon), e.s.Currency, e.months(), num.Whole(cap.Likely))
		}
	}
	e.deadline(r)
	e.schedule(r)
}

// costLines adds r's cost lines (but Compute, which finish adds), in the
// order its direction's costs were once added up: the breakdown keeps it
// among equal amounts.
func (e *evaluator) costLines(r *DirectionResult) {
	switch r.CostModel {
	case costid.ManagedFineTuningCosts, costid.ManagedInteractiveCosts, costid.ManagedBatchCosts:
		e.managedLines(r)
	case costid.ManagedDedicatedCosts:
		e.dedicatedLines(r)
	case costid.CloudCosts, costid.CloudCommittedCosts, costid.HybridCloudCosts, costid.HybridCloudServingCosts, costid.CloudMixedCosts, costid.HybridCloudMixedCosts, costid.HybridCloudServingMixedCosts:
		e.cloudLines(r)
	case costid.OnPremDepreciationCosts, costid.OnPremPurchaseCosts, costid.OnPremLeaseCosts, costid.OnPremExistingCosts:
		e.onPremLines(r)
		e.copyOutLine(r)
		return // with its staff line in place
	case costid.HPCCosts:
		e.copyOutLine(r)
	case costid.NoCostModel:
		return
	}
	e.staffLine(r)
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
