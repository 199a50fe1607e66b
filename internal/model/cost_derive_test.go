package model

import "testing"

// TestDeriveCosts: a direction's derived figures are the identity's, the
// cumulative cost ends at the cost over the horizon, and the Monte Carlo
// form (no months) sets the same figures.
func TestDeriveCosts(t *testing.T) {
	d := DirectionResult{GPUHoursPerRun: 120, VariablePricePerGPUHour: 0.4, OtherCostPerRun: 5, MonthlyFixedCost: 2000, OneOffCost: 60000}
	d.DeriveCosts(4, 12, true)
	// 120 × 0.40 + 5 = 53; 53 + 2000 ÷ 4 = 553; 60 000 + 12 × (2000 + 4 × 53) = 86 544.
	if d.VariableCostPerRun != 53 || d.CostPerRun != 553 || d.CostHorizon != 86544 {
		t.Errorf("variable %g, per run %g, horizon %g; want 53, 553, 86544", d.VariableCostPerRun, d.CostPerRun, d.CostHorizon)
	}
	if len(d.CumulativeByMonth) != 12 || d.CumulativeByMonth[0] != 62212 || d.CumulativeByMonth[11] != d.CostHorizon {
		t.Errorf("cumulative %v", d.CumulativeByMonth)
	}
	q := DirectionResult{GPUHoursPerRun: 120, VariablePricePerGPUHour: 0.4, OtherCostPerRun: 5, MonthlyFixedCost: 2000, OneOffCost: 60000}
	q.DeriveCosts(4, 12, false)
	if q.CumulativeByMonth != nil || q.CostHorizon != d.CostHorizon || q.CostPerRun != d.CostPerRun {
		t.Errorf("without months: %+v", q)
	}
	// No runs: no share of the fixed cost per run.
	d.DeriveCosts(0, 6, true)
	if d.CostPerRun != 53 || d.CostHorizon != 60000+6*2000 {
		t.Errorf("no runs: per run %g, horizon %g", d.CostPerRun, d.CostHorizon)
	}
}
