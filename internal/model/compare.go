package model

import (
	"math"

	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// Comparisons are the break-even points between directions.
type Comparisons struct {
	// BreakEvenMonths lists, for each pair whose cumulative costs cross
	// inside the horizon, the month from which the first becomes cheaper.
	BreakEvenMonths []BreakEven `json:"break_even_months"`
	// Utilisation is the break-even utilisation of owned hardware against
	// renting the same GPU-hours in the cloud; nil without both directions.
	Utilisation *UtilisationBreakEven `json:"break_even_utilisation,omitempty"`
	// Traffic is, for interactive inference, the mean request rate above
	// which self-hosting beats per-token pricing.
	Traffic []TrafficBreakEven `json:"traffic_break_even"`
}

// BreakEven says that Cheaper costs less than Than, cumulatively, from Month
// (fractional, 0 < Month ≤ horizon) on.
type BreakEven struct {
	Cheaper string  `json:"cheaper"`
	Than    string  `json:"than"`
	Month   float64 `json:"month"`
}

// UtilisationBreakEven compares owned hardware with the cloud rate.
type UtilisationBreakEven struct {
	Owned  string `json:"owned"`  // on_prem
	Rented string `json:"rented"` // cloud
	// Utilisation is the share of the owned GPUs' hours that must be used
	// for an owned GPU-hour to cost the rented price; Exists is false when
	// owning never breaks even (power alone costs more than renting).
	Utilisation float64 `json:"utilisation"`
	Exists      bool    `json:"exists"`
}

// TrafficBreakEven is the mean traffic at which a self-hosted direction
// costs the same per month as per-token pricing.
type TrafficBreakEven struct {
	SelfHosted string `json:"self_hosted"`
	PerToken   string `json:"per_token"`
	// MeanRPS is the mean request rate (peak scaled in proportion) above
	// which self-hosting is cheaper and below which per-token pricing is.
	MeanRPS float64 `json:"mean_rps"`
	Exists  bool    `json:"exists"` // false: no crossing between TrafficSearchFrom and TrafficSearchTo requests/s
}

// perMonth is a direction's spend per month under the cost identities.
func perMonth(d *DirectionResult, runs float64) float64 {
	return d.MonthlyFixedCost + runs*d.VariableCostPerRun
}

// compare fills the break-even points from a finished report.
func (e *evaluator) compare(r *Report) *Comparisons {
	c := &Comparisons{BreakEvenMonths: []BreakEven{}, Traffic: []TrafficBreakEven{}}
	runs := e.z.runsPerMonth
	months := float64(r.HorizonMonths)
	// Two straight lines a0 + a·m and b0 + b·m cross at m = (b0 − a0)/(a − b):
	// the one with the higher one-off cost and lower monthly spend is
	// cheaper from then on.
	for i := range r.Directions {
		for j := range r.Directions {
			a, b := &r.Directions[i], &r.Directions[j]
			if i == j || a.OneOffCost <= b.OneOffCost {
				continue
			}
			slopeA, slopeB := perMonth(a, runs), perMonth(b, runs)
			if slopeA >= slopeB {
				continue
			}
			m := (a.OneOffCost - b.OneOffCost) / (slopeB - slopeA)
			if m > 0 && m <= months {
				c.BreakEvenMonths = append(c.BreakEvenMonths, BreakEven{Cheaper: a.Direction, Than: b.Direction, Month: m})
			}
		}
	}
	// Owned GPU-hour = fixed / (G · 730 · u) + power; rented = cloud rate.
	// Equal at u* = fixed / (G · 730 · (rate − power)).
	if op, cl := r.Direction(scenario.OnPrem), r.Direction(scenario.Cloud); op != nil && cl != nil && op.OwnedCost != nil {
		rate := cl.PricePerGPUHour
		ub := &UtilisationBreakEven{Owned: scenario.OnPrem, Rented: scenario.Cloud}
		if margin := rate - op.VariablePricePerGPUHour; margin > 0 {
			u := op.OwnedCost.FixedPerMonth / (float64(op.OwnedCost.GPUs) * hoursPerMonth * margin)
			ub.Utilisation, ub.Exists = u, u <= 1
		}
		c.Utilisation = ub
	}
	if e.z.serving {
		c.Traffic = e.trafficBreakEven(r)
	}
	return c
}

// trafficBreakEven scales the traffic (peak and mean together) and finds
// where each self-hosted direction's monthly cost meets the managed
// service's: per-token cost grows in proportion to traffic, self-hosting in
// steps of one replica on top of its fixed cost. Replicas rented by the
// hour that follow the load over the day (autoscale.go) are paid for the
// replica-hours the scaled day needs; owned and committed ones for the
// peak's replicas all day.
func (e *evaluator) trafficBreakEven(r *Report) []TrafficBreakEven {
	out := []TrafficBreakEven{}
	man := r.Direction(scenario.Managed)
	z := e.z
	if man == nil || man.OtherCostPerRun <= 0 || z.meanRPS <= 0 {
		return out
	}
	tokenCostPerRPS := man.OtherCostPerRun / z.meanRPS // per month, per request/s of mean traffic
	if man.CostModel == costid.ManagedDedicatedCosts {
		// Per-token pricing is what self-hosting is weighed against.
		if e.tokensPerMonth <= 0 {
			return out
		}
		tokenCostPerRPS = e.tokensPerMonth / z.meanRPS
	}
	for _, d := range []string{scenario.Cloud, scenario.OnPrem} {
		res := r.Direction(d)
		if res == nil || res.Serving == nil || res.GPUs == 0 {
			continue
		}
		sv := res.Serving
		// Per GPU: its share of the non-staff monthly cost (hardware,
		// commitments, storage) plus its hours at the variable price; the
		// staff cost stays whatever the traffic. For owned hardware this
		// spreads whole nodes over the GPUs used: an approximation.
		staff := e.staffCost[d]
		c := SelfHosting{
			Staff: staff, FixedPerGPUMonth: (res.MonthlyFixedCost - staff) / float64(res.GPUs),
			PricePerGPUHour: res.VariablePricePerGPUHour, RequestsPerReplica: sv.RequestsPerSec,
			GPUsPerReplica: float64(sv.GPUsPerReplica), PeakToMean: z.peakRPS / z.meanRPS,
		}
		if d == scenario.Cloud {
			c.Day, c.Margin = FollowedDay(e.s)
		}
		selfHosted := c.Monthly
		diff := func(mean float64) float64 { return selfHosted(mean) - tokenCostPerRPS*mean }
		tb := TrafficBreakEven{SelfHosted: d, PerToken: scenario.Managed}
		// Scan a log grid for the first rate where self-hosting is cheaper,
		// then bisect between the grid points.
		lo := TrafficSearchFrom
		if diff(lo) <= 0 {
			tb.MeanRPS, tb.Exists = lo, true
		} else {
			for hi := lo * TrafficSearchFactor; hi <= TrafficSearchTo; lo, hi = hi, hi*TrafficSearchFactor {
				if diff(hi) <= 0 {
					for k := 0; k < TrafficSearchHalvings; k++ {
						mid := (lo + hi) / 2
						if diff(mid) <= 0 {
							hi = mid
						} else {
							lo = mid
						}
					}
					tb.MeanRPS, tb.Exists = hi, true
					break
				}
			}
		}
		out = append(out, tb)
	}
	return out
}

// The search for the traffic break-even: a grid of mean rates from
// TrafficSearchFrom requests/s, a factor TrafficSearchFactor a step, up to
// TrafficSearchTo, then TrafficSearchHalvings bisections between the grid
// points around the first crossing. The workbook's search writes the same
// grid from these.
const (
	TrafficSearchFrom     = 1e-3
	TrafficSearchFactor   = 1.25
	TrafficSearchTo       = 1e5
	TrafficSearchHalvings = 60
)

// SelfHosting is the monthly cost of a self-hosted service as a function
// of its mean traffic, for the traffic break-even: the staff, then per GPU
// of the replicas the peak needs a share of the fixed costs, and the GPU-
// hours used at the variable price — all day at the peak's replicas, or,
// when the replicas follow the load over the day (Day set), the replicas
// each stretch of the scaled day needs with the scale-up margin, at least
// one and at most the peak's.
type SelfHosting struct {
	Staff, FixedPerGPUMonth, PricePerGPUHour float64
	RequestsPerReplica, GPUsPerReplica       float64
	PeakToMean                               float64 // the peak rate over the mean
	// Day is the load over a typical day as shares of the mean rate, with
	// the hours each lasts; nil when the replicas do not follow the load.
	Day    []DayLoad
	Margin float64 // the scale-up margin when Day is set
}

// DayLoad is one stretch of a typical day: its request rate as a share of
// the day's mean rate, and its length in hours.
type DayLoad struct{ Share, Hours float64 }

// PeakReplicas is the replicas the peak of a mean rate of mean requests/s
// needs (at least one).
func (c SelfHosting) PeakReplicas(mean float64) float64 {
	return math.Max(1, math.Ceil(mean*c.PeakToMean/c.RequestsPerReplica))
}

// ReplicaHoursPerDay is the replica-hours a day at a mean rate of mean
// requests/s: the peak's replicas all day, or the sum over the day's
// stretches of the replicas each needs.
func (c SelfHosting) ReplicaHoursPerDay(mean float64) float64 {
	peak := c.PeakReplicas(mean)
	if c.Day == nil {
		return 24 * peak
	}
	h := 0.0
	for _, x := range c.Day {
		n := math.Max(1, math.Ceil(x.Share*mean*(1+c.Margin)/c.RequestsPerReplica))
		h += math.Min(n, peak) * x.Hours
	}
	return h
}

// Monthly is the self-hosted cost of a month at a mean rate of mean
// requests/s.
func (c SelfHosting) Monthly(mean float64) float64 {
	return c.Staff + c.PeakReplicas(mean)*c.GPUsPerReplica*c.FixedPerGPUMonth +
		c.PricePerGPUHour*c.GPUsPerReplica*c.ReplicaHoursPerDay(mean)*hoursPerMonth/24
}

// FollowedDay is the load over the day that s's rented cloud replicas
// follow, as shares of the mean rate, with the scale-up margin; nil when
// they do not: no load over the day, a commitment, or mixed pricing (whose
// committed base is sized by the load: the break-even prices it whole).
// The workbook's traffic search reads it too.
func FollowedDay(s *scenario.Scenario) ([]DayLoad, float64) {
	t := s.Workload.Traffic
	mode := s.Options.Cloud.Pricing
	if t == nil || s.Workload.Shape != scenario.ShapeInteractive || (mode != "" && mode != scenario.PricingOnDemand && mode != scenario.PricingSpot) {
		return nil, 0
	}
	peak, mean := t.PeakRPS.Or(0), t.MeanRPS.Or(0)
	var buf [24]load
	d := dayLoads(t, peak, mean, &buf)
	if d == nil || mean <= 0 {
		return nil, 0
	}
	out := make([]DayLoad, len(d))
	for i, x := range d {
		out[i] = DayLoad{Share: x.rps / mean, Hours: x.hours}
	}
	return out, t.ScaleUpMargin.Or(DefaultScaleUpMargin)
}
