package model

// A direction's costs follow from its cost drivers by the cost identity
// (package costid): each direction's file sets the drivers of its cost
// model (DirectionResult.Drivers) from the plan, and DeriveCosts evaluates
// the identity's generated code over them.

import "hostplan/internal/costid"

// DeriveCosts sets d's cost figures from its drivers, runsPerMonth and
// horizonMonths, by the cost identity; with byMonth also its cumulative
// cost by month. With a cost model and its drivers (Drivers) the four
// figures it defines (price per GPU-hour, other cost per run, monthly fixed
// and one-off cost) are derived too and written to d; otherwise d's own
// values of them are the inputs.
func (d *DirectionResult) DeriveCosts(runsPerMonth float64, horizonMonths int, byMonth bool) {
	var own costid.Values
	v := d.Drivers
	if v == nil || d.CostModel == costid.NoCostModel {
		v = &own
		v[costid.GPUHoursPerRun], v[costid.VariablePricePerGPUHour], v[costid.OtherCostPerRun] = d.GPUHoursPerRun, d.VariablePricePerGPUHour, d.OtherCostPerRun
		v[costid.MonthlyFixedCost], v[costid.OneOffCost] = d.MonthlyFixedCost, d.OneOffCost
		v[costid.RunsPerMonth], v[costid.HorizonMonths] = runsPerMonth, float64(horizonMonths)
	} else {
		// Through d.Drivers, not v: own must not escape to the heap.
		dv := d.Drivers
		dv[costid.GPUHoursPerRun], dv[costid.RunsPerMonth], dv[costid.HorizonMonths] = d.GPUHoursPerRun, runsPerMonth, float64(horizonMonths)
		d.CostModel.DeriveParts(dv)
		if byMonth {
			d.CostModel.DeriveInfo(dv)
		}
	}
	costid.DeriveFigures(v)
	d.VariablePricePerGPUHour, d.OtherCostPerRun = v[costid.VariablePricePerGPUHour], v[costid.OtherCostPerRun]
	d.MonthlyFixedCost, d.OneOffCost = v[costid.MonthlyFixedCost], v[costid.OneOffCost]
	d.VariableCostPerRun, d.CostPerRun, d.CostHorizon = v[costid.VariableCostPerRun], v[costid.CostPerRun], v[costid.CostHorizon]
	if !byMonth {
		return
	}
	d.CumulativeByMonth = make([]float64, max(horizonMonths, 0))
	for m := range d.CumulativeByMonth {
		v[costid.Month] = float64(m + 1)
		costid.DeriveByMonth(v)
		d.CumulativeByMonth[m] = v[costid.CumulativeCost]
	}
}

// deriveParts sets every figure of d's cost model from its drivers, with
// its GPU-hours per run, runsPerMonth and horizonMonths.
func (d *DirectionResult) deriveParts(runsPerMonth float64, horizonMonths int) {
	v := d.Drivers
	v[costid.GPUHoursPerRun], v[costid.RunsPerMonth], v[costid.HorizonMonths] = d.GPUHoursPerRun, runsPerMonth, float64(horizonMonths)
	d.CostModel.DeriveParts(v)
	d.CostModel.DeriveInfo(v)
}

// DeriveCosts sets every direction's derived cost figures, cumulative by
// month included, from its drivers and the report's runs per month and
// horizon: for a report made or edited by hand.
func (r *Report) DeriveCosts() {
	for i := range r.Directions {
		r.Directions[i].DeriveCosts(r.Workload.RunsPerMonth, r.HorizonMonths, true)
	}
}
