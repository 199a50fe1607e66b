package model

import (
	"testing"

	"hostplan/internal/scenario"
)

// TestZeroCloudPriceOnePrice: a cloud price of 0 (credits, a grant) is
// the price the costs use, and the break-even utilisation of owned
// hardware uses the same: the owned GPU-hour never beats a free one, so
// no break-even exists. Before 0.7.0 the report's price per GPU-hour
// fell back to the cost of a used GPU-hour (storage and staff included,
// 14.17 in the nightly example) and the break-even was computed on that.
func TestZeroCloudPriceOnePrice(t *testing.T) {
	s, err := scenario.Load("../../scenarios/nightly-document-batch.json")
	if err != nil {
		t.Fatal(err)
	}
	s.Options.Cloud.PricePerGPUHr = scenario.Known(0)
	r := eval(t, s)
	cl := r.Direction(scenario.Cloud)
	if cl.PricePerGPUHour != 0 || cl.VariablePricePerGPUHour != 0 {
		t.Errorf("cloud price per GPU-hour %g, variable %g; want the given 0 for both", cl.PricePerGPUHour, cl.VariablePricePerGPUHour)
	}
	u := r.Comparisons.Utilisation
	if u == nil || u.Exists || u.Utilisation != 0 {
		t.Errorf("break-even utilisation %+v; want none against a free GPU-hour", u)
	}

	// At 2 per GPU-hour the break-even is the owned fixed cost over the
	// margin: u* = fixed ÷ (GPUs × 730 × (2 − owned variable price)).
	s.Options.Cloud.PricePerGPUHr = scenario.Known(2)
	r = eval(t, s)
	op := r.Direction(scenario.OnPrem)
	want := op.OwnedCost.FixedPerMonth / (float64(op.OwnedCost.GPUs) * 730 * (2 - op.VariablePricePerGPUHour))
	if got := r.Comparisons.Utilisation; got == nil || !near(got.Utilisation, want, 1e-9) || r.Direction(scenario.Cloud).PricePerGPUHour != 2 {
		t.Errorf("break-even %+v, want utilisation %g at the cloud's 2", got, want)
	}
}
