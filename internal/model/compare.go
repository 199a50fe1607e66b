package model

import (
	"math"

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
	Exists  bool    `json:"exists"` // false: no crossing between 0.001 and 100,000 requests/s
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
// steps of one replica on top of its fixed cost.
func (e *evaluator) trafficBreakEven(r *Report) []TrafficBreakEven {
	out := []TrafficBreakEven{}
	man := r.Direction(scenario.Managed)
	z := e.z
	if man == nil || man.OtherCostPerRun <= 0 || z.meanRPS <= 0 {
		return out
	}
	tokenCostPerRPS := man.OtherCostPerRun / z.meanRPS // per month, per request/s of mean traffic
	for _, d := range []string{scenario.Cloud, scenario.OnPrem} {
		res := r.Direction(d)
		if res == nil || res.Serving == nil {
			continue
		}
		sv := res.Serving
		// Per GPU: its share of the non-staff monthly cost (hardware,
		// commitments, storage) plus its hours at the variable price; the
		// staff cost stays whatever the traffic. For owned hardware this
		// spreads whole nodes over the GPUs used: an approximation.
		staff := e.staffCost[d]
		perGPUMonth := (res.MonthlyFixedCost-staff)/float64(res.GPUs) + hoursPerMonth*res.VariablePricePerGPUHour
		fixed := staff
		selfHosted := func(mean float64) float64 {
			peak := mean * z.peakRPS / z.meanRPS
			replicas := math.Max(1, math.Ceil(peak/sv.RequestsPerSec))
			return fixed + replicas*float64(sv.GPUsPerReplica)*perGPUMonth
		}
		diff := func(mean float64) float64 { return selfHosted(mean) - tokenCostPerRPS*mean }
		tb := TrafficBreakEven{SelfHosted: d, PerToken: scenario.Managed}
		// Scan a log grid for the first rate where self-hosting is cheaper,
		// then bisect between the grid points.
		lo := 1e-3
		if diff(lo) <= 0 {
			tb.MeanRPS, tb.Exists = lo, true
		} else {
			for hi := lo * 1.25; hi <= 1e5; lo, hi = hi, hi*1.25 {
				if diff(hi) <= 0 {
					for k := 0; k < 60; k++ {
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
