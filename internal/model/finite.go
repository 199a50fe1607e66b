package model

import (
	"fmt"
	"math"
)

// NonFiniteError is a report figure that came out NaN or infinite. The
// scenario's ranges (scenario.Validate) are chosen so that no valid input
// gets here: it is a guard against a bug, and the report is withheld
// rather than shown with a number that is not one.
type NonFiniteError struct {
	Direction string // the direction whose figure it is; "" for the workload summary
	Figure    string // the figure, in words: "cost per run", "scaling at 8 GPUs"
	Value     float64
}

func (e *NonFiniteError) Error() string {
	where := "the workload summary"
	if e.Direction != "" {
		where = "the " + e.Direction + " direction"
	}
	return fmt.Sprintf("model: %s of %s is %v, not a finite number", e.Figure, where, e.Value)
}

// checkFinite refuses a report with NaN or Inf anywhere: a bug must not
// reach a user as a number. The error names the first such figure (a
// second pass, on the error path only: the Monte Carlo calls this for
// every draw).
func checkFinite(r *Report) error {
	bad := func(xs ...float64) bool {
		for _, x := range xs {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return true
			}
		}
		return false
	}
	w := r.Workload
	if bad(w.ParamsB, w.ActiveParamsB, w.FLOPsPerRun, w.TokensPerRun, w.RunsPerMonth, w.WeightsGB, w.MemoryNeededGB) {
		return nonFinite("", []figure{{"parameters", w.ParamsB}, {"active parameters", w.ActiveParamsB}, {"FLOPs per run", w.FLOPsPerRun},
			{"tokens per run", w.TokensPerRun}, {"runs per month", w.RunsPerMonth}, {"weights (GB)", w.WeightsGB}, {"memory needed (GB)", w.MemoryNeededGB}})
	}
	for i := range r.Directions {
		d := &r.Directions[i]
		if bad(d.PricePerGPUHour, d.GPUHoursPerRun, d.ComputeHours, d.TimeToResultHours, d.LeadTimeDays,
			d.VariablePricePerGPUHour, d.OtherCostPerRun, d.VariableCostPerRun, d.MonthlyFixedCost, d.OneOffCost,
			d.CostPerRun, d.CostHorizon, d.MemoryPerGPUGB) || bad(d.CumulativeByMonth...) {
			figs := []figure{{"price per GPU-hour", d.PricePerGPUHour}, {"GPU-hours per run", d.GPUHoursPerRun}, {"compute hours", d.ComputeHours},
				{"time to result", d.TimeToResultHours}, {"lead time", d.LeadTimeDays}, {"variable price per GPU-hour", d.VariablePricePerGPUHour},
				{"other cost per run", d.OtherCostPerRun}, {"variable cost per run", d.VariableCostPerRun}, {"monthly fixed cost", d.MonthlyFixedCost},
				{"one-off cost", d.OneOffCost}, {"cost per run", d.CostPerRun}, {"cost over the horizon", d.CostHorizon}, {"memory per GPU", d.MemoryPerGPUGB}}
			for m, x := range d.CumulativeByMonth {
				figs = append(figs, figure{fmt.Sprintf("cumulative cost in month %d", m+1), x})
			}
			return nonFinite(d.Direction, figs)
		}
		for _, l := range d.Breakdown {
			if bad(l.Amount) {
				return &NonFiniteError{Direction: d.Direction, Figure: "cost line " + l.Item, Value: l.Amount}
			}
		}
		for _, p := range d.Scaling {
			if bad(p.StepSeconds, p.Speedup, p.Efficiency, p.TimeToResultHours, p.CommSeconds, p.DataSeconds) {
				return nonFinite(d.Direction, []figure{{fmt.Sprintf("step time at %d GPUs", p.GPUs), p.StepSeconds}, {fmt.Sprintf("speedup at %d GPUs", p.GPUs), p.Speedup},
					{fmt.Sprintf("efficiency at %d GPUs", p.GPUs), p.Efficiency}, {fmt.Sprintf("time to result at %d GPUs", p.GPUs), p.TimeToResultHours},
					{fmt.Sprintf("communication time at %d GPUs", p.GPUs), p.CommSeconds}, {fmt.Sprintf("data time at %d GPUs", p.GPUs), p.DataSeconds}})
			}
		}
	}
	return nil
}

// figure is a named report figure, for NonFiniteError.
type figure struct {
	name string
	x    float64
}

// nonFinite is the error for the first figure of figs that is not finite.
func nonFinite(direction string, figs []figure) error {
	for _, f := range figs {
		if math.IsNaN(f.x) || math.IsInf(f.x, 0) {
			return &NonFiniteError{Direction: direction, Figure: f.name, Value: f.x}
		}
	}
	return &NonFiniteError{Direction: direction, Figure: "a figure", Value: math.NaN()}
}
