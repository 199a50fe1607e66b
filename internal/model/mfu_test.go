package model

import (
	"math"
	"testing"

	"hostplan/internal/scenario"
)

// Published training GPU-hours reproduced within ±10 % with the default
// MFU (no workload.mfu given): Llama 2 7B and 70B on A100-80GB, 2 T tokens
// each, 184,320 and 1,720,320 GPU-hours (Touvron et al. 2023, Table 2);
// Llama 3 8B on H100-80GB, 15 T tokens, 1.3 M GPU-hours (Llama 3 model
// card). One node of 8 GPUs, where the exposed all-reduce adds well under
// 1 %: the figure tests the FLOPs, 6·P·D, and the default MFU.
func TestPublishedTrainingGPUHours(t *testing.T) {
	for _, c := range []struct {
		name           string
		paramsB        float64
		layers, hidden int
		tokensB        float64
		offer          string
		want           float64
	}{
		{"Llama 2 7B on A100", 6.74, 32, 4096, 2000, "lambda-a100", 184320},
		{"Llama 2 70B on A100", 70, 80, 8192, 2000, "lambda-a100", 1720320},
		// torchtitan, Llama 3.1 8B on one node of 8 × H100: 5,762 to
		// 6,667 tokens/s per GPU (docs/performance.md, Table 1); 15 T
		// tokens at their middle, 6,215, take 670,422 GPU-hours.
		{"Llama 3.1 8B on 8 H100 (torchtitan)", 8.03, 32, 4096, 15000, "lambda-h100", 15e12 / 6214.5 / 3600},
	} {
		s := base()
		s.Workload.MFU = scenario.Value{}
		s.Workload.Model = scenario.Model{ParamsB: c.paramsB, Layers: c.layers, HiddenSize: c.hidden}
		s.Workload.TokensPerRunB = scenario.Known(c.tokensB)
		s.Workload.Sharding = "zero3"
		s.Options.Cloud = scenario.CloudOptions{Offer: c.offer, GPUs: 8}
		r := eval(t, s)
		got := r.Direction(scenario.Cloud).GPUHoursPerRun
		t.Logf("%s: %.0f GPU-hours, published %.0f (%+.1f %%)", c.name, got, c.want, 100*(got/c.want-1))
		if math.Abs(got/c.want-1) > 0.10 {
			t.Errorf("%s: %.0f GPU-hours, published %.0f (%+.1f %%)", c.name, got, c.want, 100*(got/c.want-1))
		}
		found := false
		for _, n := range r.Warnings {
			found = found || n.Code == NoteMFUAssumed
		}
		if !found {
			t.Errorf("%s: no %s warning", c.name, NoteMFUAssumed)
		}
	}
}

// The default MFU falls with the method: full fine-tuning of a 7 B model
// on H100 30 %, LoRA 0.83 of it (25 %), QLoRA 0.7 of LoRA's (17.5 %); a
// scenario's own MFU wins over all of them.
func TestDefaultMFUByMethod(t *testing.T) {
	c := cat(t)
	h100, _ := c.GPU("h100-sxm")
	a100, _ := c.GPU("a100-80gb")
	for _, x := range []struct {
		method string
		want   float64
	}{{"full", 0.30}, {"lora", 0.30 * 4 / 6 * 1.25}, {"qlora", 0.30 * 4 / 6 * 1.25 * 0.7}} {
		if got := defaultTrainingMFU(7, h100, x.method); !near(got, x.want, 1e-12) {
			t.Errorf("%s on H100: %.4f, want %.4f", x.method, got, x.want)
		}
	}
	if got := defaultTrainingMFU(405, a100, "full"); got != 0.56 {
		t.Errorf("405 B on A100: %.2f, want 0.56", got)
	}
	s := base()
	s.Workload.Shape, s.Workload.Method = scenario.ShapeFineTuning, "qlora"
	z, err := sizeWorkload(s, c, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := z.mfuFor(h100); got != 0.5 {
		t.Errorf("the scenario's MFU 0.5 gave %.3f", got)
	}
}

// Llama 3.1 405B (126 layers, h 16,384, 128 heads), 15.6 T tokens on
// 16,384 H100 in 30.84 M GPU-hours (Llama 3.1 model card, 2024), at
// Meta's published layout: TP 8, PP 16, DP 128, batches of 16 M tokens
// in sequences of 8,192 (Dubey et al. 2024, The Llama 3 Herd of Models,
// Table 4 and §3.3.2), with the default MFU. The engine's step holds the
// interleaved schedule's bubble and the tensor-parallel all-reduces; the
// data-parallel exchange hides behind the backward pass. Within ±15 %;
// and the step's own MFU (6·P·D over the step) stays at or below the
// 43 % Meta report for their best configuration, since the default also
// holds the run's restarts.
func TestLlama3405BPublishedGPUHours(t *testing.T) {
	c := cat(t)
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeTraining, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-405b"},
		TokensPerRunB: scenario.Known(15600), RunsPerMonth: scenario.Known(1), Sharding: "zero1",
		SequenceLength: 8192, GlobalBatchTokens: 16 << 20}
	z, err := sizeWorkload(s, c, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := c.CloudOffer("aws-p5-h100")
	g, _ := c.GPU(o.GPU)
	hw := offerHardware(o, g)
	l := z.newLayout(8, 16, 128)
	p := z.layoutStep(hw, l)
	got := z.steps() * p.total * 16384 / 3600
	stepMFU := 6 * z.activeB * 1e9 * float64(16<<20) / (g.BF16TFLOPs * 1e12 * 16384 * p.total)
	t.Logf("step %.2f s (compute %.2f, communication %.2f, bubble %.2f): %.2f M GPU-hours, published 30.84 M (%+.1f %%); step MFU %.1f %%",
		p.total, p.compute, p.comm, p.bubble, got/1e6, 100*(got/30.84e6-1), stepMFU*100)
	if math.Abs(got/30.84e6-1) > 0.15 {
		t.Errorf("%.2f M GPU-hours, published 30.84 M (±15 %%)", got/1e6)
	}
	if stepMFU > 0.43 {
		t.Errorf("step MFU %.1f %%, above Meta's best 43 %%", stepMFU*100)
	}
}

// Time and cost never fall as the model grows: a sweep of sizes for each
// method and GPU class on a fixed count of GPUs (before model 0.6.0 the
// table stepped at 13 B: LoRA of 13.0 B was cheaper than of 12.9 B).
func TestDefaultMFUMonotoneInSize(t *testing.T) {
	for _, offer := range []string{"aws-p5-h100", "aws-p4de-a100"} {
		for _, method := range []string{"full", "lora", "qlora"} {
			prevT, prevC, prevB := 0.0, 0.0, 0.0
			for b := 1.0; b <= 500; b *= 1.07 {
				s := base()
				s.Workload.Shape, s.Workload.Method = scenario.ShapeFineTuning, method
				s.Workload.MFU = scenario.Value{}
				s.Workload.Sharding = "zero3"
				s.Workload.TokensPerRunB = scenario.Known(1)
				s.Workload.Model = scenario.Model{ParamsB: b, Layers: 64, HiddenSize: int(math.Sqrt(b * 1e9 / (12 * 64)))}
				s.Options.Cloud = scenario.CloudOptions{Offer: offer, GPUs: 64}
				c := eval(t, s).Direction(scenario.Cloud)
				if c.ComputeHours < prevT*(1-1e-9) || c.CostPerRun < prevC*(1-1e-9) {
					t.Errorf("%s %s: %.3g B takes %.4g h and costs %.6g; %.3g B took %.4g h and cost %.6g", offer, method, b, c.ComputeHours, c.CostPerRun, prevB, prevT, prevC)
				}
				prevT, prevC, prevB = c.ComputeHours, c.CostPerRun, b
			}
		}
	}
	// The table itself is continuous at its points.
	for _, pts := range mfuTable {
		for _, p := range pts {
			if a, b := interpolateMFU(pts, p.paramsB*(1-1e-9)), interpolateMFU(pts, p.paramsB*(1+1e-9)); math.Abs(a-b) > 1e-6 {
				t.Errorf("MFU steps at %g B: %.6f to %.6f", p.paramsB, a, b)
			}
		}
	}
}

// FP8 speeds training up by the measured 1.28 (torchtitan: 8,532 against
// 6,667 tokens/s per GPU for Llama 3.1 8B on 8 × H100), not by the FP8
// peak's 2.
func TestFP8MeasuredGain(t *testing.T) {
	s := base()
	s.Workload.MFU = scenario.Value{}
	s.Workload.Model = scenario.Model{ParamsB: 8.03, Layers: 32, HiddenSize: 4096}
	s.Workload.Sharding = "zero3"
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100", GPUs: 8}
	bf16 := eval(t, s).Direction(scenario.Cloud)
	s.Workload.Precision = "fp8"
	fp8 := eval(t, s).Direction(scenario.Cloud)
	if g := bf16.ComputeHours / fp8.ComputeHours; g < 1.15 || g > 1.35 {
		t.Errorf("FP8 is %.2f times as fast as BF16; want about 1.28", g)
	}
}
