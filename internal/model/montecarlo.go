package model

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/stat/distuv"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// DefaultDraws is the Monte Carlo sample size when none is asked for.
const DefaultDraws = 10000

// Uncertainty is the spread of cost and time from the scenario's estimates.
type Uncertainty struct {
	Draws        int    `json:"draws"`
	Seed         uint64 `json:"seed"`
	Distribution string `json:"distribution"` // triangular or pert
	// Inputs are the estimates sampled (scenario paths, and catalog
	// estimates such as an HPC queue wait, marked "(catalog)").
	Inputs []string `json:"inputs"`
	// Ranges are the sampled estimates with their low, likely and high, in
	// the order of Inputs (catalog estimates included).
	Ranges     []InputRange      `json:"ranges"`
	Directions []DirectionSpread `json:"directions"`
	// ProbNoneFeasible is the share of draws in which no direction is
	// feasible.
	ProbNoneFeasible float64 `json:"prob_none_feasible"`
}

// InputRange is one sampled estimate.
type InputRange struct {
	Input  string  `json:"input"`
	Low    float64 `json:"low"`
	Likely float64 `json:"likely"`
	High   float64 `json:"high"`
}

// DirectionSpread is one direction's percentiles and probabilities.
type DirectionSpread struct {
	Direction string  `json:"direction"`
	CostP10   float64 `json:"cost_p10"` // cost over the horizon
	CostP50   float64 `json:"cost_p50"`
	CostP90   float64 `json:"cost_p90"`
	// CostLikely is the report's cost over the horizon (every estimate at
	// its likely value) and CostLikelyPercentile where it sits in the
	// draws: the share, in percent, that cost at most as much. The
	// likely value of a skewed spread can sit far from the median.
	CostLikely           float64 `json:"cost_likely"`
	CostLikelyPercentile float64 `json:"cost_likely_percentile"`
	TimeP10              float64 `json:"time_p10"` // time to result of one run, hours
	TimeP50              float64 `json:"time_p50"`
	TimeP90              float64 `json:"time_p90"`
	// ProbCheapest is the share of draws in which this direction is the
	// cheapest feasible one.
	ProbCheapest float64 `json:"prob_cheapest"`
	ProbFeasible float64 `json:"prob_feasible"`
	// ProbDeadline and ProbBudget are the shares of draws meeting the
	// deadline and the budget cap (1 when the scenario sets none).
	ProbDeadline float64 `json:"prob_deadline"`
	ProbBudget   float64 `json:"prob_budget"`
}

// sampler draws one estimate.
type sampler struct {
	path string
	ptr  *scenario.Value
	v    scenario.Value // the original estimate
	tri  distuv.Triangle
	beta *distuv.Beta
	fix  bool // low == high: a constant
}

func newSampler(path string, ptr *scenario.Value, v scenario.Value, dist string) sampler {
	sm := sampler{path: path, ptr: ptr, v: v}
	if v.High <= v.Low {
		sm.fix = true
		return sm
	}
	if dist == "pert" {
		// PERT: Beta(α, β) on [low, high] with mean (low + 4·likely + high)/6,
		// α = 1 + 4(m − a)/(b − a), β = 1 + 4(b − m)/(b − a) (Malcolm et al.
		// 1959; Vose, Risk Analysis, 2008).
		a, b, m := v.Low, v.High, v.Likely
		sm.beta = &distuv.Beta{Alpha: 1 + 4*(m-a)/(b-a), Beta: 1 + 4*(b-m)/(b-a)}
		return sm
	}
	sm.tri = distuv.NewTriangle(v.Low, v.High, v.Likely, nil)
	return sm
}

func (sm *sampler) draw(rng *rand.Rand) float64 {
	switch {
	case sm.fix:
		return sm.v.Likely
	case sm.beta != nil:
		b := *sm.beta
		b.Src = rng
		return sm.v.Low + (sm.v.High-sm.v.Low)*b.Rand()
	}
	// Inverse-CDF sampling from the caller's generator: no allocation.
	return sm.tri.Quantile(rng.Float64())
}

func (sm *sampler) set(x float64) { *sm.ptr = scenario.Known(x) }

// pins hold a plan's discrete choices fixed while the Monte Carlo and the
// tornado vary its numbers: GPU counts, the serving batch and
// tensor-parallel degree, and the trial's fitted curve (fitting is costly,
// and the trial's points are not sampled). They are computed once, before
// any draw, and then only read — by every worker at once. Offers are pinned
// by writing them into each plan's working scenario.
type pins struct {
	gpus   map[string]int
	serve  map[string][3]int  // tp, pp, batch
	layout map[string]*layout // a training run's parallel layout (shared, read only)
	trial  *trialFit          // nil when the scenario has no trial
}

// newPins takes the choices of the base report of s.
func newPins(s *scenario.Scenario, base *Report) *pins {
	p := &pins{gpus: map[string]int{}, serve: map[string][3]int{}, layout: map[string]*layout{}}
	for _, d := range base.Directions {
		if d.GPUs > 0 {
			p.gpus[d.Direction] = d.GPUs
		}
		if d.Serving != nil {
			tp, pp := d.Serving.GPUsPerReplica, 1
			if l := d.Layout; l != nil {
				tp, pp = l.Tensor, l.Pipeline
			}
			p.serve[d.Direction] = [3]int{tp, pp, d.Serving.Batch}
		} else if l := d.trainLayout; l != nil {
			p.layout[d.Direction] = l
		}
	}
	p.trial = base.trial
	if p.trial == nil {
		if pts := trialPoints(s.Workload); len(pts) > 0 {
			f, err := FitUSL(pts)
			p.trial = &trialFit{fit: f, err: err}
		}
	}
	return p
}

// scratch is one worker's storage, reused from draw to draw: a quiet
// evaluation writes its report here instead of allocating a new one.
type scratch struct {
	z      size
	report Report
	dirs   []DirectionResult
	vals   []costid.Values // each direction's cost drivers
}

// plan is a working copy of a scenario with its discrete choices pinned,
// ready to be evaluated many times with different numbers.
type plan struct {
	base     *Report
	work     *scenario.Scenario
	cat      *catalog.Catalog
	pins     *pins // shared by every plan of one analysis
	samplers []sampler
	buf      scratch
}

// newPlan copies s, pins the offers the base report chose (and the
// choices in pin), and finds every estimate to sample — the scenario's, and
// the catalog's queue-wait estimate for an HPC partition the scenario does
// not override.
func newPlan(s *scenario.Scenario, cat *catalog.Catalog, base *Report, pin *pins) *plan {
	w := cloneWork(s)
	pinOffer := func(d string, dst *string) {
		if res := base.Direction(d); res != nil && *dst == "" && res.Offer != "" {
			*dst = res.Offer
		}
	}
	pinOffer(scenario.Managed, &w.Options.Managed.Offer)
	pinOffer(scenario.Cloud, &w.Options.Cloud.Offer)
	pinOffer(scenario.OnPrem, &w.Options.OnPrem.Node)
	pinOffer(scenario.HPC, &w.Options.HPC.Partition)
	p := &plan{base: base, work: w, cat: cat, pins: pin}
	dist := s.Distribution
	if dist == "" {
		dist = "triangular"
	}
	for _, ref := range scenario.EstimateRefs(w) {
		p.samplers = append(p.samplers, newSampler(ref.Path, ref.Ptr, *ref.Ptr, dist))
	}
	if !w.Options.HPC.QueueWaitHours.IsSet() {
		if part, ok := cat.Partition(w.Options.HPC.Partition); ok {
			q := part.QueueWaitHours
			v := scenario.Estimate(q[0], q[1], q[2])
			w.Options.HPC.QueueWaitHours = v
			p.samplers = append(p.samplers, newSampler("options.hpc.queue_wait_hours (catalog)", &w.Options.HPC.QueueWaitHours, v, dist))
		}
	}
	return p
}

// likely puts every sampled input at its likely value.
func (p *plan) likely() {
	for i := range p.samplers {
		p.samplers[i].set(p.samplers[i].v.Likely)
	}
}

func (p *plan) eval() (*Report, error) { return evaluate(p.work, p.cat, p.pins, &p.buf) }

// Analyze evaluates s and adds the Monte Carlo spread (draws ≤ 0: the
// default 10,000) and the tornado of the cheapest feasible direction's cost
// over the horizon. The same scenario and seed give the same numbers. When
// ctx ends first, Analyze stops — the draws between chunks of chunkDraws,
// the tornado between inputs — and returns ctx.Err().
func Analyze(ctx context.Context, s *scenario.Scenario, cat *catalog.Catalog, draws int) (*Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if errs := scenario.Validate(s); errs != nil {
		return nil, errs
	}
	return AnalyzeValid(ctx, s, cat, draws)
}

// AnalyzeValid is Analyze for a scenario that scenario.Validate has passed
// (see EvaluateValid): it does not validate again.
func AnalyzeValid(ctx context.Context, s *scenario.Scenario, cat *catalog.Catalog, draws int) (*Report, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The scenario's own rates and prices, and the conversion into its
	// currency, applied once for the report and the draws.
	orig := cat
	cat, err := scenarioCatalog(s, cat)
	if err != nil {
		return nil, err
	}
	r, err := evaluate(s, cat, nil, nil)
	if err != nil {
		return nil, err
	}
	readsOn(r, s, orig, cat)
	if draws <= 0 {
		draws = DefaultDraws
	}
	seed := s.Seed
	p := newPlan(s, cat, r, newPins(s, r))
	u, err := monteCarlo(ctx, s, cat, r, p, draws, seed)
	if err != nil {
		return nil, err
	}
	r.Uncertainty = u
	ref := r.Cheapest
	if ref == "" {
		ref = scenario.Cloud
	}
	t, err := p.tornado(ctx, ref)
	if err != nil {
		return nil, err
	}
	r.Tornado = t
	return r, nil
}

// chunkDraws is the number of draws that share one random stream. Chunks
// are seeded from (seed, chunk index), so the result depends on the seed and
// the number of draws only — not on how many cores ran them.
const chunkDraws = 512

// outcome is one draw's numbers for one direction.
type outcome struct {
	cost, time         float64
	feasible, deadline bool
	budget             bool
}

// monteCarlo samples every estimate draws times and summarises the spread.
// Workers evaluate chunks of draws in parallel, each on its own copy of the
// plan; results are stored by draw index, so the summary is deterministic.
// Before each chunk a worker stops if ctx has ended or another worker's
// draw failed; monteCarlo returns once every worker has stopped.
func monteCarlo(ctx context.Context, s *scenario.Scenario, cat *catalog.Catalog, base *Report, first *plan, draws int, seed uint64) (*Uncertainty, error) {
	nd := len(base.Directions)
	out := make([]outcome, draws*nd)
	chunks := (draws + chunkDraws - 1) / chunkDraws
	workers := min(runtime.GOMAXPROCS(0), chunks)
	plans := make([]*plan, workers)
	plans[0] = first
	for w := 1; w < workers; w++ {
		plans[w] = newPlan(s, cat, base, first.pins)
	}
	next := make(chan int, chunks)
	for c := 0; c < chunks; c++ {
		next <- c
	}
	close(next)
	errs := make([]error, workers)
	var failed atomic.Bool
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func(p *plan, errp *error) {
			defer wg.Done()
			defer func() {
				// A panic here would end the process past any caller's
				// recover: it becomes this worker's error.
				if v := recover(); v != nil {
					*errp = fmt.Errorf("internal error in the Monte Carlo: %v", v)
				}
			}()
			for c := range next {
				if failed.Load() || ctx.Err() != nil {
					return
				}
				rng := rand.New(rand.NewPCG(seed, uint64(c)+0x9e3779b97f4a7c15))
				for k := c * chunkDraws; k < min(draws, (c+1)*chunkDraws); k++ {
					for i := range p.samplers {
						p.samplers[i].set(p.samplers[i].draw(rng))
					}
					r, err := p.eval()
					if err != nil {
						*errp = fmt.Errorf("monte carlo draw %d: %w", k, err)
						failed.Store(true)
						return
					}
					w := p.work
					for i := range r.Directions {
						d := &r.Directions[i]
						dl, bc := w.Workload.DeadlineHours, w.Dimensions.Economics.BudgetCap
						out[k*nd+i] = outcome{cost: d.CostHorizon, time: d.TimeToResultHours, feasible: d.Feasible,
							deadline: !dl.IsSet() || r.Shape == scenario.ShapeInteractive || d.TimeToResultHours <= dl.Likely,
							budget:   !bc.IsSet() || d.CostHorizon <= bc.Likely}
					}
				}
			}
		}(plans[w], &errs[w])
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	first.likely()

	dist := s.Distribution
	if dist == "" {
		dist = "triangular"
	}
	u := &Uncertainty{Draws: draws, Seed: seed, Distribution: dist, Inputs: []string{}}
	u.Ranges = []InputRange{}
	for _, sm := range first.samplers {
		u.Inputs = append(u.Inputs, sm.path)
		u.Ranges = append(u.Ranges, InputRange{Input: sm.path, Low: sm.v.Low, Likely: sm.v.Likely, High: sm.v.High})
	}
	cheapest := make([]int, nd)
	none := 0
	for k := 0; k < draws; k++ {
		best, bestCost := -1, math.Inf(1)
		for i := 0; i < nd; i++ {
			if o := out[k*nd+i]; o.feasible && o.cost < bestCost {
				best, bestCost = i, o.cost
			}
		}
		if best < 0 {
			none++
		} else {
			cheapest[best]++
		}
	}
	n := float64(draws)
	cost := make([]float64, draws)
	time := make([]float64, draws)
	for i, d := range base.Directions {
		var feas, dl, bud int
		for k := 0; k < draws; k++ {
			o := out[k*nd+i]
			cost[k], time[k] = o.cost, o.time
			feas += b2i(o.feasible)
			dl += b2i(o.deadline)
			bud += b2i(o.budget)
		}
		likely, below := d.CostHorizon, 0
		for _, c := range cost {
			below += b2i(c <= likely*(1+1e-9))
		}
		c10, c50, c90 := deciles(cost)
		t10, t50, t90 := deciles(time)
		u.Directions = append(u.Directions, DirectionSpread{
			Direction: d.Direction,
			CostP10:   c10, CostP50: c50, CostP90: c90,
			CostLikely: likely, CostLikelyPercentile: 100 * float64(below) / n,
			TimeP10: t10, TimeP50: t50, TimeP90: t90,
			ProbCheapest: float64(cheapest[i]) / n, ProbFeasible: float64(feas) / n,
			ProbDeadline: float64(dl) / n, ProbBudget: float64(bud) / n,
		})
	}
	u.ProbNoneFeasible = float64(none) / n
	return u, nil
}

// deciles returns the empirical P10, P50 and P90 of x (reordering x): the
// smallest value at or above a fraction p of the samples, as gonum's
// stat.Quantile with stat.Empirical gives on sorted data, found by
// selection in linear time instead of a full sort.
func deciles(x []float64) (p10, p50, p90 float64) {
	at := func(p float64) int { return max(0, int(math.Ceil(p*float64(len(x))))-1) }
	i10, i50, i90 := at(0.1), at(0.5), at(0.9)
	// Select the 50th percentile first; the others then lie in the halves.
	p50 = selectK(x, i50)
	p10 = selectK(x[:i50+1], i10)
	p90 = selectK(x[i50:], i90-i50)
	return
}

// selectK reorders x so that x[k] is the value a sort would put there, and
// returns it (Hoare's selection with a median-of-three pivot).
func selectK(x []float64, k int) float64 {
	lo, hi := 0, len(x)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		if x[mid] < x[lo] {
			x[mid], x[lo] = x[lo], x[mid]
		}
		if x[hi] < x[lo] {
			x[hi], x[lo] = x[lo], x[hi]
		}
		if x[hi] < x[mid] {
			x[hi], x[mid] = x[mid], x[hi]
		}
		pivot := x[mid]
		i, j := lo, hi
		for i <= j {
			for x[i] < pivot {
				i++
			}
			for pivot < x[j] {
				j--
			}
			if i <= j {
				x[i], x[j] = x[j], x[i]
				i++
				j--
			}
		}
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return x[k]
		}
	}
	return x[k]
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// cloneWork is scenario.Clone(s) with the trial points copied as they
// are, not through JSON: they hold only numbers, and a trial of 1,000
// points made the clone — one for each worker of an analysis — the
// largest part of what a trial added to it.
func cloneWork(s *scenario.Scenario) *scenario.Scenario {
	c := *s
	c.Workload.Trial = nil
	w := scenario.Clone(&c)
	w.Workload.Trial = slices.Clone(s.Workload.Trial)
	return w
}
