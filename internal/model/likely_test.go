package model

import (
	"testing"

	"hostplan/internal/scenario"
)

// TestLikelyCostPercentile: the report's headline cost is every estimate
// at its likely value, which in a skewed spread can be the P10 (the
// support example with its peak estimated at 10–30 requests/s, likely 12:
// the cloud's likely 910k is its P10, the P50 1.31M, as replicas come in
// whole steps). The spread says where it sits: the share of draws
// costing at most as much, counted from the draws (here about 45 %:
// below the median, which the percentiles alone do not say).
func TestLikelyCostPercentile(t *testing.T) {
	s, err := scenario.Load("../../scenarios/support-assistant-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	s.Workload.Traffic.PeakRPS = scenario.Estimate(10, 12, 30)
	r := analyze(t, s, 2000)
	skewed := false
	for i, d := range r.Uncertainty.Directions {
		det := r.Directions[i]
		if d.CostLikely != det.CostHorizon {
			t.Errorf("%s: likely cost %g, the report's %g", d.Direction, d.CostLikely, det.CostHorizon)
		}
		p := d.CostLikelyPercentile
		if p < 0 || p > 100 {
			t.Errorf("%s: percentile %g outside 0–100", d.Direction, p)
		}
		// Empirical deciles (deciles): below the P10 at most 10 % of the
		// draws cost as little; at or above the P90, at least 90 %.
		if d.CostLikely < d.CostP10 && p > 10 {
			t.Errorf("%s: likely %g below P10 %g but at P%g", d.Direction, d.CostLikely, d.CostP10, p)
		}
		if d.CostLikely >= d.CostP90 && p < 90 {
			t.Errorf("%s: likely %g at or above P90 %g but at P%g", d.Direction, d.CostLikely, d.CostP90, p)
		}
		if d.CostLikely <= d.CostP10 && d.CostLikely < d.CostP50 && p < 50 {
			skewed = true
		}
	}
	if !skewed {
		t.Errorf("no direction's likely cost is its P10 below the median; the example no longer shows the skew: %+v", r.Uncertainty.Directions)
	}
}
