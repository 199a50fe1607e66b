// Package model turns a scenario and a catalog into a Report: the work's
// size, and for each of the five hosting directions whether it is feasible,
// its time to result and its cost per run and over the horizon. It is pure
// computation (no GUI, no storage); every formula cites its source.
//
// The report's words are data (reason.go): every reason a direction is
// ruled out, every note and every bottleneck has a stable code, a kind and
// the scenario fields it concerns, beside a sentence in plain words; the
// faces key on the codes and never parse the sentences.
package model

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// catalogCurrency is the currency of the built-in catalog's prices (HPC
// partitions state their own).
const catalogCurrency = "USD"

// Version identifies the model's formulas; it is stored with every report.
const Version = "0.4.0"

// Staff each direction needs, in full-time equivalents (estimates, labelled
// as such in the notes; a user can override on-premises and hybrid).
const (
	staffManaged = 0.05
	staffCloud   = 0.25
	staffOnPrem  = 1.0
	staffHPC     = 0.1
	staffHybrid  = 0.25 // on top of the burst target's own
)

// Evaluate computes the report for a valid scenario. A reference the catalog
// cannot resolve is returned as scenario.Errors naming the field.
func Evaluate(s *scenario.Scenario, cat *catalog.Catalog) (*Report, error) {
	if errs := scenario.Validate(s); errs != nil {
		return nil, errs
	}
	cat, err := withScenarioPrices(s, cat)
	if err != nil {
		return nil, err
	}
	return evaluate(s, cat, nil)
}

// withScenarioPrices applies the scenario's own price overrides to the
// catalog; a bad one is reported as a field error of price_overrides.
func withScenarioPrices(s *scenario.Scenario, cat *catalog.Catalog) (*catalog.Catalog, error) {
	if len(s.PriceOverrides) == 0 {
		return cat, nil
	}
	var o catalog.Overrides
	for i, p := range s.PriceOverrides {
		o.Rows = append(o.Rows, catalog.OverrideRow{Kind: p.Kind, ID: p.ID, Field: p.Field, Value: p.Value, AsOf: p.AsOf, Source: p.Source, Line: i + 1})
	}
	out, err := cat.Apply(o)
	if err == nil {
		return out, nil
	}
	var oe catalog.OverrideErrors
	if !errors.As(err, &oe) {
		return nil, err
	}
	var fe scenario.Errors
	for _, e := range oe {
		path := "price_overrides"
		if e.Line > 0 {
			path = fmt.Sprintf("price_overrides[%d]", e.Line-1)
		}
		fe = append(fe, scenario.FieldError{Path: path, Problem: e.Msg})
	}
	return nil, fe
}

// pins hold a plan's discrete choices fixed while Monte Carlo and the
// tornado vary its numbers: GPU counts, serving batch and tensor-parallel
// degree, and the trial's fitted curves (fitting is costly). Offers are
// pinned by writing them into the working scenario's options.
type pins struct {
	gpus   map[string]int
	serve  map[string][2]int // tp, batch
	fits   map[string]*Fit   // by GPU id; nil entry: the fit failed
	quiet  bool              // skip tables, comparisons and the estimate list
	dirs   []DirectionResult // reused between quiet evaluations
	z      size              // reused between quiet evaluations
	report Report            // reused between quiet evaluations
}

func newPins(base *Report) *pins {
	p := &pins{gpus: map[string]int{}, serve: map[string][2]int{}, fits: map[string]*Fit{}, quiet: true}
	for _, d := range base.Directions {
		if d.GPUs > 0 {
			p.gpus[d.Direction] = d.GPUs
		}
		if d.Serving != nil {
			p.serve[d.Direction] = [2]int{d.Serving.GPUsPerReplica, d.Serving.Batch}
		}
	}
	return p
}

func evaluate(s *scenario.Scenario, cat *catalog.Catalog, pin *pins) (*Report, error) {
	var zbuf *size
	if pin != nil && pin.quiet {
		zbuf = &pin.z
	}
	z, err := sizeWorkload(s, cat, pin != nil && pin.quiet, zbuf)
	if err != nil {
		return nil, err
	}
	e := &evaluator{s: s, cat: cat, z: z, pin: pin}
	if pin == nil {
		e.staffCost = map[string]float64{}
	}
	estimates := []string{}
	if pin == nil {
		estimates = nonNil(scenario.Estimates(s))
	}
	r := &Report{}
	if pin != nil && pin.quiet {
		r = &pin.report
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
	if pin != nil && pin.quiet {
		// Reuse the previous draw's storage: the caller has read it.
		r.Directions = pin.dirs[:0]
		defer func() { pin.dirs = r.Directions }()
	} else {
		r.Directions = make([]DirectionResult, 0, len(scenario.Directions))
	}
	var errs scenario.Errors
	for _, d := range scenario.Directions {
		r.Directions = append(r.Directions, DirectionResult{})
		res := &r.Directions[len(r.Directions)-1]
		if err := e.direction(res, d); err != nil {
			r.Directions = r.Directions[:len(r.Directions)-1]
			if fe, ok := err.(scenario.Errors); ok {
				errs = append(errs, fe...)
				continue
			}
			return nil, err
		}
		e.finish(res)
		if d == scenario.Cloud {
			e.cloudRun = res.VariableCostPerRun
			e.cloudFeasible = res.Feasible
		}
	}
	if errs != nil {
		return nil, errs
	}
	if len(e.entries) > 0 {
		r.CatalogAsOf = catalog.OldestAsOf(e.entries...)
	}
	best := math.Inf(1)
	for _, d := range r.Directions {
		if d.Feasible && d.CostHorizon < best {
			best, r.Cheapest = d.CostHorizon, d.Direction
		}
	}
	if pin == nil {
		r.Comparisons = e.compare(r)
		r.Workload.FitByGPU = fitByGPU(z, cat)
	}
	if len(z.notes) > 0 {
		r.Warnings = append(r.Warnings, z.notes...)
	}
	if s.Currency != catalogCurrency && (pin == nil || !pin.quiet) {
		r.Warnings = append(r.Warnings, newNote(NoteCatalogCurrency, []string{"currency"},
			fmt.Sprintf("catalog prices are in %s and the scenario is in %s: no exchange rate is applied, so enter prices as options overrides in %s", catalogCurrency, s.Currency, s.Currency)))
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
	entries      []catalog.Entry
	currencyWarn *Note
	staffCost    map[string]float64 // monthly staff cost by direction
	// The cloud direction's variable cost per run and verdict: on-premises
	// rents it as bridge capacity while its hardware is on order.
	cloudRun      float64
	cloudFeasible bool
	pin           *pins // nil for a full report
}

// use records a price entry: its as_of counts towards the report's
// CatalogAsOf (the oldest price in use).
func (e *evaluator) use(r *DirectionResult, what string, en catalog.Entry) {
	if r.quiet {
		return
	}
	e.entries = append(e.entries, en)
	e.cite(r, what, en)
}

// cite records a specification (GPU datasheet, model architecture) as a
// source without letting its date count as a price date.
func (e *evaluator) cite(r *DirectionResult, what string, en catalog.Entry) {
	if r.quiet {
		return
	}
	r.Sources = append(r.Sources, fmt.Sprintf("%s (as of %s): %s", what, en.AsOf, en.Source))
	if en.Note != "" {
		r.Notes = append(r.Notes, newNote(NoteCatalogEntry, nil, what+": "+en.Note))
	}
}

// direction fills r for direction d.
func (e *evaluator) direction(r *DirectionResult, d string) error {
	*r = DirectionResult{Direction: d, Title: scenario.DirectionTitle[d], Feasible: true,
		Reasons: []Reason{}, Notes: []Note{}, Sources: []string{}, Breakdown: []CostLine{},
		quiet: e.pin != nil && e.pin.quiet}
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
	if !r.quiet {
		r.Breakdown = append(r.Breakdown, CostLine{Item: item, Amount: amount, Basis: fmt.Sprintf(basis, a...)})
	}
}

// residencyOK reports whether a provider jurisdiction satisfies data.residency.
func (e *evaluator) residencyOK(jurisdiction string) bool {
	res := e.s.Data.Residency
	return res == "any" || res == "" || res == jurisdiction
}

// place chooses a GPU count on the direction's hardware and computes the
// run's compute time, scaling curve and bottleneck. fixed > 0 is the user's
// count; otherwise the smallest count that fits memory and fills a node, and
// with a deadline the first doubling that meets it (or the fastest one).
// overheadH is the time outside compute (staging, queue waits).
func (e *evaluator) place(r *DirectionResult, hw hardware, fixed int, overheadH float64) {
	z := e.z
	g := hw.gpu
	r.GPU = g.ID
	limit := hw.limit()
	if z.serving {
		var p servingPlan
		if pv, ok := e.pinnedServe(r.Direction); ok {
			p = z.servePinned(g, pv[0], pv[1])
		} else {
			p = z.serve(g)
		}
		if !p.ok {
			if r.ruleOut() {
				e.servingFailed(r, p, g)
			}
			r.GPUs = p.tp
			r.Bottleneck = BottleneckMemoryCapacity
			return
		}
		r.GPUs = p.tp * p.replicas
		if r.GPUs > limit {
			if r.ruleOut() {
				more := ""
				if p.capped {
					more = "more than "
				}
				r.infeasible(ReasonReplicasOverCapacity, []string{"workload.traffic.peak_rps", e.countField(r.Direction)},
					"needs %s%d GPUs (%s × %d) at the peak of %s requests/s; at most %d are available", more, r.GPUs, plural(p.replicas, "replica"), p.tp, countWords(z.peakRPS), limit)
			}
		}
		r.ComputeHours = hoursPerMonth
		r.GPUHoursPerRun = float64(r.GPUs) * hoursPerMonth
		r.TimeToResultHours = hoursPerMonth
		r.MemoryPerGPUGB = z.memPerGPU(p.tp, p.batch)
		r.Bottleneck = BottleneckCompute
		if p.memoryBound {
			r.Bottleneck = BottleneckMemoryBandwidth
		}
		r.Serving = &Serving{GPUsPerReplica: p.tp, Batch: p.batch, ReplicasPeak: p.replicas, ReplicasMean: p.meanReplicas,
			DecodeStepMS: p.stepMS, TokensPerSecond: p.tokensPerSecond, RequestsPerSec: p.rpsPerRep, LatencyMS: p.latencyMS, MemoryBound: p.memoryBound}
		if !r.quiet {
			r.note(NoteServingPlan, []string{"workload.traffic.peak_rps", "workload.traffic.mean_rps", "workload.traffic.latency_target_ms"},
				"serving: %d replica(s) of %d × %s for the peak (%d for the mean load), batch %d, decode step %.1f ms, %.2f requests/s per replica", p.replicas, p.tp, gpuWords(g), p.meanReplicas, p.batch, p.stepMS, p.rpsPerRep)
		}
		return
	}
	c := curve{z: z, hw: hw}
	if len(z.trial) > 0 && z.trialGPU == g.ID {
		if fit, err := e.fit(g.ID); err == nil {
			c.usl = &fit
			r.Calibration = calibration(fit)
			if !r.quiet {
				r.note(NoteScalingFromTrial, []string{"workload.trial"},
					"scaling from the trial: Universal Scalability Law fitted to %d points (σ %.4g, κ %.4g, R² %.4f)", fit.Points, fit.Sigma, fit.Kappa, fit.R2)
			}
		} else {
			if !r.quiet {
				r.note(NoteTrialNotFitted, []string{"workload.trial", "workload.trial_gpu"},
					"the trial on %s could not be fitted (%v): the analytic curve is used", gpuWords(g), err)
			}
		}
	}
	n := fixed
	if pn, ok := e.pinnedGPUs(r.Direction); ok && n == 0 {
		n = pn
	}
	if r.quiet && n > 0 {
		// A Monte Carlo draw of a pinned plan: the count is given; only
		// whether it still fits matters.
		if !z.fits(g, n, 1) || n > limit {
			r.ruleOut()
		}
		e.finishPlace(r, c, n, overheadH)
		return
	}
	need := z.minGPUs(g, limit)
	if need == 0 {
		if r.ruleOut() {
			r.infeasible(ReasonStateDoesNotFit, []string{"workload.model", "workload.precision", "workload.sharding", e.countField(r.Direction)},
				"the run needs %.0f GB per GPU even on %d × %s (%.0f GB each, %.0f %% usable; %s)", z.memPerGPU(limit, 1), limit, gpuWords(g), g.MemoryGB, usableFraction*100, shardingWords(z.sharding))
		}
		need = min(hw.perNode, limit) // figures for one node, to show the scale of the gap
	}
	if n == 0 {
		n = max(need, min(hw.perNode, limit))
		if dl := e.s.Workload.DeadlineHours; dl.IsSet() {
			best, bestT := n, c.at(n).TimeToResultHours
			for m := n; ; m = min(m*2, limit) {
				t := c.at(m).TimeToResultHours
				if t < bestT {
					best, bestT = m, t
				}
				if t+overheadH <= dl.Likely || m == limit {
					if t+overheadH <= dl.Likely {
						best = m
					}
					break
				}
			}
			n = best
		}
	} else {
		if n < need {
			if r.ruleOut() {
				r.infeasible(ReasonTooFewGPUs, []string{e.countField(r.Direction)},
					"%s %s chosen but the run needs %.0f GB per GPU there; at least %d × %s fit it", plural(n, "GPU"), agree(n, "was", "were"), z.memPerGPU(n, 1), need, gpuWords(g))
			}
		}
		if n > limit {
			if r.ruleOut() {
				r.infeasible(ReasonTooManyGPUs, []string{e.countField(r.Direction)}, "%s %s chosen; at most %d are available", plural(n, "GPU"), agree(n, "was", "were"), limit)
			}
		}
	}
	e.finishPlace(r, c, n, overheadH)
}

// finishPlace sets the run's figures on n GPUs along the curve.
func (e *evaluator) finishPlace(r *DirectionResult, c curve, n int, overheadH float64) {
	z, hw := e.z, c.hw
	if r.quiet {
		h := c.hours(n)
		r.GPUs, r.ComputeHours, r.GPUHoursPerRun, r.TimeToResultHours = n, h, h*float64(n), h+overheadH
		return
	}
	pt := c.at(n)
	r.GPUs = n
	r.ComputeHours = pt.TimeToResultHours
	r.GPUHoursPerRun = r.ComputeHours * float64(n)
	r.TimeToResultHours = r.ComputeHours + overheadH
	r.MemoryPerGPUGB = z.memPerGPU(n, 1)
	if e.pin == nil || !e.pin.quiet {
		r.Scaling = c.table(n)
		r.MaxEfficientGPUs = maxEfficient(r.Scaling, z.threshold)
	}
	r.Bottleneck = pt.Bottleneck
	if pt.Efficiency < z.threshold && r.Scaling != nil {
		if !r.quiet {
			r.note(NoteBelowEfficiencyThreshold, []string{"workload.efficiency_threshold", e.countField(r.Direction)},
				"scaling efficiency at %d GPUs is %.0f %%, below the %.0f %% threshold; the largest efficient count is %d", n, pt.Efficiency*100, z.threshold*100, r.MaxEfficientGPUs)
		}
	}
	if hw.storageGBs > 0 && r.ComputeHours > 0 && !r.quiet {
		r.DataPath = &DataPath{NeededGBs: z.dataReadGB / (r.ComputeHours * 3600), AvailableGBs: hw.storageGBs}
	}
}

// calibration turns a fit into its report form (N_max 0 when there is none).
func calibration(f Fit) *Calibration {
	nmax, ok := f.NMaxFinite()
	if !ok {
		nmax = 0
	}
	return &Calibration{Lambda: f.Lambda, Sigma: f.Sigma, Kappa: f.Kappa, R2: f.R2, NMax: nmax}
}

// deadline marks r infeasible when one run takes longer than allowed.
func (e *evaluator) deadline(r *DirectionResult) {
	if dl := e.s.Workload.DeadlineHours; dl.IsSet() && !e.z.serving && r.TimeToResultHours > dl.Likely {
		if r.ruleOut() {
			r.infeasible(ReasonDeadlineMissed, []string{"workload.deadline_hours"}, "a run takes %.1f h; the deadline is %.1f h", r.TimeToResultHours, dl.Likely)
		}
	}
}

// staff adds the operating effort as a monthly cost and checks it against
// the team (dimensions.operations.staff_fte).
func (e *evaluator) staff(r *DirectionResult, fte float64, basis string) {
	r.StaffFTE = fte
	team := e.s.Dimensions.Operations.StaffFTE.Or(0)
	if fte > team+1e-9 {
		if r.ruleOut() {
			r.infeasible(ReasonStaffShort, e.staffFields(r.Direction), "needs %.2f FTE of operations (%s); the team has %.2f", fte, basis, team)
		}
	}
	e.skills(r)
	site := e.cat.Site
	monthly := fte * site.StaffCostPerFTE / 12
	if e.staffCost != nil {
		e.staffCost[r.Direction] = monthly
	}
	r.MonthlyFixedCost += monthly
	if !r.quiet {
		r.line("Operations staff", monthly*float64(e.months()), "%.2f FTE (%s, estimate) × %.0f per year loaded ÷ 12 × %d months", fte, basis, site.StaffCostPerFTE, e.months())
	}
	if !r.quiet {
		e.use(r, "staff cost", catalog.Entry{AsOf: site.AsOf, Source: "BLS systems administrator pay + 30 % benefits (" + site.Source + ")"})
	}
}

func (e *evaluator) months() int { return e.s.Dimensions.Economics.HorizonMonths }

// finish derives the cost figures from the parts each direction set, in the
// form the workbook reproduces (see DirectionResult), and checks the budget.
func (e *evaluator) finish(r *DirectionResult) {
	runs := e.z.runsPerMonth
	months := float64(e.months())
	r.VariableCostPerRun = r.GPUHoursPerRun*r.VariablePricePerGPUHour + r.OtherCostPerRun
	r.CostPerRun = r.VariableCostPerRun
	if runs > 0 {
		r.CostPerRun += r.MonthlyFixedCost / runs
	}
	perMonth := r.MonthlyFixedCost + runs*r.VariableCostPerRun
	r.CostHorizon = r.OneOffCost + months*perMonth
	if !r.quiet {
		r.CumulativeByMonth = make([]float64, e.months())
		for m := range r.CumulativeByMonth {
			r.CumulativeByMonth[m] = r.OneOffCost + float64(m+1)*perMonth
		}
	}
	if r.PricePerGPUHour == 0 && r.GPUHoursPerRun > 0 {
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
	if cap := e.s.Dimensions.Economics.BudgetCap; cap.IsSet() && r.CostHorizon > cap.Likely {
		if r.ruleOut() {
			r.infeasible(ReasonBudgetCapExceeded, []string{"dimensions.economics.budget_cap"},
				"costs %s %s over %d months; the budget cap is %s", Grouped(r.CostHorizon), e.s.Currency, e.months(), Grouped(cap.Likely))
		}
	}
	e.deadline(r)
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}

// Grouped formats an amount with no decimals and thousands separators.
func Grouped(x float64) string {
	s := fmt.Sprintf("%.0f", math.Abs(x))
	var b strings.Builder
	if x < 0 {
		b.WriteByte('-')
	}
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}

func (e *evaluator) pinnedGPUs(d string) (int, bool) {
	if e.pin == nil {
		return 0, false
	}
	n, ok := e.pin.gpus[d]
	return n, ok
}

func (e *evaluator) pinnedServe(d string) ([2]int, bool) {
	if e.pin == nil {
		return [2]int{}, false
	}
	v, ok := e.pin.serve[d]
	return v, ok
}

// fit fits the trial once per GPU type and evaluation plan.
func (e *evaluator) fit(gpu string) (Fit, error) {
	if e.pin != nil {
		if f, ok := e.pin.fits[gpu]; ok {
			if f == nil {
				return Fit{}, ErrDegenerateFit
			}
			return *f, nil
		}
	}
	f, err := FitUSL(e.z.trial)
	if e.pin != nil {
		if err != nil {
			e.pin.fits[gpu] = nil
		} else {
			e.pin.fits[gpu] = &f
		}
	}
	return f, err
}

// coreSkill is the one skill a team must have to operate a direction at
// all (dimensions.operations.skills); other useful skills only lower the
// decision's operations score.
func (e *evaluator) coreSkill(d string) string {
	switch d {
	case scenario.Cloud:
		return "cloud"
	case scenario.OnPrem:
		if e.s.Options.OnPrem.Existing {
			return "gpu_cluster"
		}
		return "datacentre"
	case scenario.HPC:
		return "hpc_scheduler"
	case scenario.Hybrid:
		if e.s.Options.Hybrid.BurstTo == scenario.HPC {
			return "hpc_scheduler"
		}
		return "cloud"
	}
	return ""
}

// skills rules a direction out when the team lists its skills and lacks the
// direction's core one. A scenario that lists no skills is not judged.
func (e *evaluator) skills(r *DirectionResult) {
	have := e.s.Dimensions.Operations.Skills
	need := e.coreSkill(r.Direction)
	if len(have) == 0 || need == "" || slices.Contains(have, need) {
		return
	}
	if r.ruleOut() {
		words := make([]string, len(have))
		for i, h := range have {
			words[i] = skillWords(h)
		}
		r.infeasible(ReasonSkillMissing, []string{"dimensions.operations.skills"}, "needs the %s skill; the team lists %s", skillWords(need), strings.Join(words, ", "))
	}
}

// fitByGPU sizes the run on every GPU type of the catalog.
func fitByGPU(z *size, cat *catalog.Catalog) []GPUFit {
	out := make([]GPUFit, 0, len(cat.GPUs))
	for _, g := range cat.GPUs {
		n := z.minGPUs(g, maxTableGPUs)
		if !z.training && n > 0 {
			n = nextPow2(n) // tensor-parallel degrees divide the heads
		}
		f := GPUFit{GPU: g.ID, MinGPUs: n}
		if n > 0 {
			f.MemoryPerGPUGB = z.memPerGPU(n, 1)
		}
		out = append(out, f)
	}
	return out
}
