package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"hostplan/internal/catalog"
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
	Inputs     []string          `json:"inputs"`
	Directions []DirectionSpread `json:"directions"`
	// ProbNoneFeasible is the share of draws in which no direction is
	// feasible.
	ProbNoneFeasible float64 `json:"prob_none_feasible"`
}

// DirectionSpread is one direction's percentiles and probabilities.
type DirectionSpread struct {
	Direction string  `json:"direction"`
	CostP10   float64 `json:"cost_p10"` // cost over the horizon
	CostP50   float64 `json:"cost_p50"`
	CostP90   float64 `json:"cost_p90"`
	TimeP10   float64 `json:"time_p10"` // time to result of one run, hours
	TimeP50   float64 `json:"time_p50"`
	TimeP90   float64 `json:"time_p90"`
	// ProbCheapest is the share of draws in which this direction is the
	// cheapest feasible one.
	ProbCheapest float64 `json:"prob_cheapest"`
	ProbFeasible float64 `json:"prob_feasible"`
	// ProbDeadline and ProbBudget are the shares of draws meeting the
	// deadline and the budget cap (1 when the scenario sets none).
	ProbDeadline float64 `json:"prob_deadline"`
	ProbBudget   float64 `json:"prob_budget"`
}

// Tornado is the one-at-a-time sensitivity of one metric.
type Tornado struct {
	Metric    string  `json:"metric"`    // e.g. "cost_horizon"
	Direction string  `json:"direction"` // whose metric
	Base      float64 `json:"base"`      // with every input at its likely value
	Bars      []Bar   `json:"bars"`      // largest swing first
}

// Bar is the metric with one estimate at its low and at its high end.
type Bar struct {
	Input string  `json:"input"`
	Low   float64 `json:"at_low"`
	High  float64 `json:"at_high"`
	Swing float64 `json:"swing"` // |at_high − at_low|
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

func newSampler(path string, ptr *scenario.Value, v scenario.Value, dist string, src rand.Source) sampler {
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
		sm.beta = &distuv.Beta{Alpha: 1 + 4*(m-a)/(b-a), Beta: 1 + 4*(b-m)/(b-a), Src: src}
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
		return sm.v.Low + (sm.v.High-sm.v.Low)*sm.beta.Rand()
	}
	// Inverse-CDF sampling from the caller's generator: no allocation.
	return sm.tri.Quantile(rng.Float64())
}

func (sm *sampler) set(x float64) { *sm.ptr = scenario.Known(x) }

// plan is a working copy of a scenario with its discrete choices pinned,
// ready to be evaluated many times with different numbers.
type plan struct {
	base     *Report
	work     *scenario.Scenario
	cat      *catalog.Catalog
	pins     *pins
	samplers []sampler
}

// newPlan copies s, pins the offers and GPU counts the base report chose,
// and finds every estimate to sample — the scenario's, and the catalog's
// queue-wait estimate for an HPC partition the scenario does not override.
func newPlan(s *scenario.Scenario, cat *catalog.Catalog, base *Report, src rand.Source) *plan {
	w := scenario.Clone(s)
	pinOffer := func(d string, dst *string) {
		if res := base.Direction(d); res != nil && *dst == "" && res.Offer != "" {
			*dst = res.Offer
		}
	}
	pinOffer(scenario.Managed, &w.Options.Managed.Offer)
	pinOffer(scenario.Cloud, &w.Options.Cloud.Offer)
	pinOffer(scenario.OnPrem, &w.Options.OnPrem.Node)
	pinOffer(scenario.HPC, &w.Options.HPC.Partition)
	p := &plan{base: base, work: w, cat: cat, pins: newPins(base)}
	dist := s.Distribution
	if dist == "" {
		dist = "triangular"
	}
	for _, ref := range scenario.EstimateRefs(w) {
		p.samplers = append(p.samplers, newSampler(ref.Path, ref.Ptr, *ref.Ptr, dist, src))
	}
	if !w.Options.HPC.QueueWaitHours.IsSet() {
		if part, ok := cat.Partition(w.Options.HPC.Partition); ok {
			q := part.QueueWaitHours
			v := scenario.Estimate(q[0], q[1], q[2])
			w.Options.HPC.QueueWaitHours = v
			p.samplers = append(p.samplers, newSampler("options.hpc.queue_wait_hours (catalog)", &w.Options.HPC.QueueWaitHours, v, dist, src))
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

func (p *plan) eval() (*Report, error) { return evaluate(p.work, p.cat, p.pins) }

// Analyze evaluates s and adds the Monte Carlo spread (draws ≤ 0: the
// default 10,000) and the tornado of the cheapest feasible direction's cost
// over the horizon. The same scenario and seed give the same numbers.
func Analyze(s *scenario.Scenario, cat *catalog.Catalog, draws int) (*Report, error) {
	r, err := Evaluate(s, cat)
	if err != nil {
		return nil, err
	}
	if draws <= 0 {
		draws = DefaultDraws
	}
	seed := s.Seed
	src := rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)
	rng := rand.New(src)
	p := newPlan(s, cat, r, src)
	u, err := p.monteCarlo(draws, rng)
	if err != nil {
		return nil, err
	}
	u.Seed = seed
	r.Uncertainty = u
	ref := r.Cheapest
	if ref == "" {
		ref = scenario.Cloud
	}
	t, err := p.tornado(ref)
	if err != nil {
		return nil, err
	}
	r.Tornado = t
	return r, nil
}

func (p *plan) monteCarlo(draws int, rng *rand.Rand) (*Uncertainty, error) {
	nd := len(p.base.Directions)
	cost := make([][]float64, nd)
	time := make([][]float64, nd)
	for i := range cost {
		cost[i] = make([]float64, 0, draws)
		time[i] = make([]float64, 0, draws)
	}
	cheapest := make([]int, nd)
	feasible := make([]int, nd)
	deadline := make([]int, nd)
	budget := make([]int, nd)
	none := 0
	s := p.work
	dist := s.Distribution
	if dist == "" {
		dist = "triangular"
	}
	u := &Uncertainty{Draws: draws, Distribution: dist, Inputs: []string{}}
	for _, sm := range p.samplers {
		u.Inputs = append(u.Inputs, sm.path)
	}
	for k := 0; k < draws; k++ {
		for i := range p.samplers {
			p.samplers[i].set(p.samplers[i].draw(rng))
		}
		r, err := p.eval()
		if err != nil {
			return nil, fmt.Errorf("monte carlo draw %d: %w", k, err)
		}
		best, bestCost := -1, math.Inf(1)
		for i, d := range r.Directions {
			cost[i] = append(cost[i], d.CostHorizon)
			time[i] = append(time[i], d.TimeToResultHours)
			if d.Feasible {
				feasible[i]++
				if d.CostHorizon < bestCost {
					best, bestCost = i, d.CostHorizon
				}
			}
			if dl := s.Workload.DeadlineHours; !dl.IsSet() || r.Shape == scenario.ShapeInteractive || d.TimeToResultHours <= dl.Likely {
				deadline[i]++
			}
			if bc := s.Dimensions.Economics.BudgetCap; !bc.IsSet() || d.CostHorizon <= bc.Likely {
				budget[i]++
			}
		}
		if best < 0 {
			none++
		} else {
			cheapest[best]++
		}
	}
	p.likely()
	n := float64(draws)
	for i, d := range p.base.Directions {
		slices.Sort(cost[i])
		slices.Sort(time[i])
		q := func(x []float64, pr float64) float64 { return stat.Quantile(pr, stat.Empirical, x, nil) }
		u.Directions = append(u.Directions, DirectionSpread{
			Direction: d.Direction,
			CostP10:   q(cost[i], 0.1), CostP50: q(cost[i], 0.5), CostP90: q(cost[i], 0.9),
			TimeP10: q(time[i], 0.1), TimeP50: q(time[i], 0.5), TimeP90: q(time[i], 0.9),
			ProbCheapest: float64(cheapest[i]) / n, ProbFeasible: float64(feasible[i]) / n,
			ProbDeadline: float64(deadline[i]) / n, ProbBudget: float64(budget[i]) / n,
		})
	}
	u.ProbNoneFeasible = float64(none) / n
	return u, nil
}

// tornado swings each estimate to its low and high end with the others at
// their likely values and records direction d's cost over the horizon.
func (p *plan) tornado(d string) (*Tornado, error) {
	p.likely()
	t := &Tornado{Metric: "cost_horizon", Direction: d, Bars: []Bar{}}
	at := func() (float64, error) {
		r, err := p.eval()
		if err != nil {
			return 0, err
		}
		return r.Direction(d).CostHorizon, nil
	}
	base, err := at()
	if err != nil {
		return nil, err
	}
	t.Base = base
	for i := range p.samplers {
		sm := &p.samplers[i]
		if sm.fix {
			continue
		}
		sm.set(sm.v.Low)
		lo, err := at()
		if err != nil {
			return nil, err
		}
		sm.set(sm.v.High)
		hi, err := at()
		if err != nil {
			return nil, err
		}
		sm.set(sm.v.Likely)
		t.Bars = append(t.Bars, Bar{Input: sm.path, Low: lo, High: hi, Swing: math.Abs(hi - lo)})
	}
	sort.SliceStable(t.Bars, func(i, j int) bool { return t.Bars[i].Swing > t.Bars[j].Swing })
	return t, nil
}
