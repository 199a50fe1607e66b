package model

import (
	"testing"

	"hostplan/internal/scenario"
)

// EstimateServe sizes a catalog model as a scenario naming it as its
// preset does (size.takeModel): a mixture of experts' decode step reads the
// experts its batch uses, not every weight. DeepSeek-V3 at batch 1 on 8 ×
// H200 reads its shared weights and 8 of 256 experts a layer — some 6 % of
// the 671 B — so its step is several times shorter than the same model
// described as dense.
func TestEstimateServeReadsTheModelAsAScenarioDoes(t *testing.T) {
	c := cat(t)
	g, _ := c.GPU("h200-sxm")
	req := ServeRequest{Bits: 8, KVBits: 8, GPUs: 8, Batch: 1, TokensIn: 1000, TokensOut: 200, LatencyMS: 10000, MFU: DefaultMFU}
	for _, m := range c.Models {
		s := base()
		s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "fp8", Model: scenario.Model{Preset: m.ID},
			Traffic: &scenario.Traffic{PeakRPS: scenario.Known(1), MeanRPS: scenario.Known(1), TokensIn: scenario.Known(1000), TokensOut: scenario.Known(200)}}
		z, err := sizeWorkload(s, c, false, nil)
		if err != nil {
			t.Fatal(err)
		}
		var e size
		e.takeModel(m)
		if e.paramsB != z.paramsB || e.activeB != z.activeB || e.layers != z.layers || e.hidden != z.hidden || e.heads != z.heads ||
			e.kvHeads != z.kvHeads || e.headDim != z.headDim || e.kvLatent != z.kvLatent || e.window != z.window ||
			e.windowLayers != z.windowLayers || e.experts != z.experts || e.expertsK != z.expertsK || e.moeLayers != z.moeLayers || e.name != z.name {
			t.Errorf("%s: the estimate's model %+v differs from the scenario's %+v", m.ID, e, *z)
		}
	}
	ds, ok := c.Model("deepseek-v3")
	if !ok {
		t.Fatal("no deepseek-v3 in the catalog")
	}
	moe, err := EstimateServe(ds, g, req)
	if err != nil {
		t.Fatal(err)
	}
	dense := ds
	dense.Experts, dense.ExpertsPerToken, dense.MoELayers = 0, 0, 0
	all, err := EstimateServe(dense, g, req)
	if err != nil {
		t.Fatal(err)
	}
	if !(moe.StepMS < all.StepMS/4) {
		t.Errorf("DeepSeek-V3 decode step at batch 1: %.2f ms as a mixture of experts, %.2f ms described as dense; want several times shorter", moe.StepMS, all.StepMS)
	}
}
