package model

import (
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// A TPU is a platform change (JAX or PyTorch/XLA): the cloud choice never
// takes one on its own, and a scenario that names a TPU offer is planned
// on it with the catalog's sourced figures — here Llama 3.1 8B served on
// Trillium (v6e) chips at 2.70 a chip-hour, BF16 (the TPU has no FP8
// path, so FP8 work runs at its BF16 peak).
func TestTPUOffersWhenNamed(t *testing.T) {
	c := cat(t)
	s := diurnal()
	s.Workload.Model = scenario.Model{Preset: "llama-3.1-8b"}
	s.Options = scenario.Options{}
	for _, r := range []*Report{eval(t, s), eval(t, base())} {
		for _, d := range r.Directions {
			if g, _ := c.GPU(d.GPU); g.Stack == catalog.StackXLA {
				t.Errorf("%s %s: took the TPU offer %s unasked", r.ScenarioID, d.Direction, d.Offer)
			}
		}
	}
	s.Options.Cloud.Offer = "gcp-tpu-v6e"
	r := eval(t, s)
	d := r.Direction(scenario.Cloud)
	if d.GPU != "tpu-v6e" || d.PricePerGPUHour != 2.7 || d.Serving == nil || d.Serving.ReplicasPeak < 1 {
		t.Fatalf("on gcp-tpu-v6e: %s at %v, serving %+v", d.GPU, d.PricePerGPUHour, d.Serving)
	}
	sourced := false
	for _, in := range d.CostInputs {
		if in.Catalog == "cloud/gcp-tpu-v6e/on_demand" {
			sourced = strings.Contains(in.Source, "skypilot-catalog") && in.AsOf != ""
		}
	}
	if !sourced {
		t.Errorf("the TPU's price is not the catalog's sourced figure: %+v", d.CostInputs)
	}
	if !d.Feasible {
		t.Errorf("Llama 3.1 8B on v6e infeasible: %+v", d.Reasons)
	}
}
