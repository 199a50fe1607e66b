package model

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// nccl-tests doc/PERFORMANCE.md: a ring all-reduce of S bytes at bus
// bandwidth B takes t = (S/B) · 2(n−1)/n. 1 GB at 100 GB/s on 8 GPUs:
// 0.01 s × 14/8 = 0.0175 s; ZeRO-3 moves 1.5× that (Rajbhandari et al. 2020).
func TestAllReduceFactor(t *testing.T) {
	for _, tc := range []struct {
		n        int
		sharding string
		want     float64
	}{
		{1, "replicated", 0},
		{2, "replicated", 0.01},
		{8, "replicated", 0.0175},
		{8, "zero3", 0.02625},
		{1024, "replicated", 0.01 * 2 * 1023 / 1024},
	} {
		if got := allReduceSeconds(1e9, 100, tc.n, tc.sharding); !near(got, tc.want, 1e-12) {
			t.Errorf("n=%d %s: %g s, want %g", tc.n, tc.sharding, got, tc.want)
		}
	}
}

// Horovod's benchmark page: on 512 GPUs (128 servers × 4 Pascal GPUs,
// 25 Gbit/s RoCE) Inception V3 and ResNet-101 reach 90 % scaling efficiency,
// VGG-16 68 %. VGG-16 has far more gradient per unit of compute, so the
// analytic model must rank it last. Per-image training FLOPs are 3 × the
// forward pass (Inception V3 5.7, ResNet-101 7.8, VGG-16 15.5 GFLOPs);
// gradients are fp32 (23.8 M, 44.5 M, 138 M parameters × 4 bytes). The model
// overlaps no communication with compute, so its efficiencies are lower
// than Horovod's; only the ordering is asserted.
func TestHorovodOrdering(t *testing.T) {
	p100 := catalog.GPU{ID: "p100", BF16TFLOPs: 21.2, MemoryGB: 16, BandwidthGBs: 732}
	hw := hardware{gpu: p100, perNode: 4, intraGBs: 10, netGBs: 25.0 / 8 / 4, maxGPUs: 512}
	eff := map[string]float64{}
	for _, m := range []struct {
		name            string
		gflops, paramsM float64
	}{{"inception-v3", 5.7, 23.8}, {"resnet-101", 7.8, 44.5}, {"vgg-16", 15.5, 138}} {
		z := &size{training: true, items: true, flops: 3 * m.gflops * 1e9 * 64 * 512 * 1000, work: 64 * 512 * 1000,
			batchWork: 64 * 512, gradBytes: m.paramsM * 1e6 * 4, mfu: 0.4, precision: "fp16", sharding: "replicated"}
		eff[m.name] = (curve{z: z, hw: hw}).at(512).Efficiency
		t.Logf("%s: efficiency at 512 GPUs %.0f %%", m.name, eff[m.name]*100)
	}
	if !(eff["vgg-16"] < eff["resnet-101"] && eff["vgg-16"] < eff["inception-v3"]) {
		t.Errorf("VGG-16 should scale worst: %v", eff)
	}
}

// Properties over random valid training runs: efficiency in (0, 1], times
// never negative, and under ZeRO stage 3 more GPUs never need more memory
// per GPU.
func TestScalingProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 3))
	c := cat(t)
	for i := 0; i < 200; i++ {
		g := c.GPUs[rng.IntN(len(c.GPUs))]
		z := &size{training: true, paramsB: math.Pow(10, rng.Float64()*3-1), layers: 8 + rng.IntN(120),
			hidden: 1024 * (1 + rng.IntN(16)), seqLen: 512 * (1 + rng.IntN(16)), microBatch: 1 + rng.IntN(4),
			mfu: 0.1 + rng.Float64()*0.5, precision: "bf16", sharding: "zero3", recompute: rng.IntN(2) == 0,
			serialFraction: rng.Float64() * 0.1, dataReadGB: rng.Float64() * 1e4}
		z.activeB = z.paramsB
		z.work = math.Pow(10, 9+rng.Float64()*4)
		z.batchWork = float64(int(1) << (16 + rng.IntN(8)))
		z.flops = 6 * z.activeB * 1e9 * z.work
		z.gradBytes = 2 * z.paramsB * 1e9
		hw := hardware{gpu: g, perNode: 8, intraGBs: 100 + rng.Float64()*800, netGBs: 1 + rng.Float64()*50, storageGBs: 0.5 + rng.Float64()*20, maxGPUs: 1024}
		prevMem := math.Inf(1)
		for _, p := range (curve{z: z, hw: hw}).table() {
			if !(p.Efficiency > 0 && p.Efficiency <= 1) || p.TimeToResultHours < 0 || p.StepSeconds < 0 {
				t.Fatalf("case %d at %d GPUs: %+v", i, p.GPUs, p)
			}
			m := z.memPerGPU(p.GPUs, 1)
			if m > prevMem+1e-9 {
				t.Fatalf("case %d: %.3f GB per GPU at %d GPUs, more than %.3f at fewer", i, m, p.GPUs, prevMem)
			}
			prevMem = m
		}
	}
}

// ZeRO memory per GPU (Rajbhandari et al. 2020, Figure 1): Ψ = 7.5 B
// parameters on 64 GPUs — replicated 16Ψ = 120 GB, stage 1 4Ψ + 12Ψ/64 =
// 31.4 GB, stage 2 2Ψ + 14Ψ/64 = 16.6 GB, stage 3 16Ψ/64 = 1.875 GB.
func TestZeROStages(t *testing.T) {
	psi := 7.5e9
	for _, tc := range []struct {
		sharding string
		want     float64
	}{{"replicated", 120e9}, {"zero1", 31.40625e9}, {"zero2", 16.640625e9}, {"zero3", 1.875e9}} {
		if got := stateBytes(psi, tc.sharding, 64); !near(got, tc.want, 1e-12) {
			t.Errorf("%s: %g bytes, want %g", tc.sharding, got, tc.want)
		}
	}
}

// Activations (Korthikanti et al. 2022): 34·s·b·h bytes per layer, or 2·s·b·h
// per layer plus one layer's 34·s·b·h with full recomputation. s = 2048,
// b = 1, h = 12,288, L = 96 (GPT-3 175B): 34 × 2048 × 12288 × 96 = 82.1 GB;
// recomputed 2 × … × 96 + 34 × … = 4.83 + 0.86 = 5.69 GB.
func TestActivationMemory(t *testing.T) {
	sbh := 2048.0 * 12288
	if got := activationBytes(2048, 1, 12288, 96, false); !near(got, 34*sbh*96, 1e-12) {
		t.Errorf("no recompute: %g", got)
	}
	if got := activationBytes(2048, 1, 12288, 96, true); !near(got, 2*sbh*96+34*sbh, 1e-12) {
		t.Errorf("recompute: %g", got)
	}
}

// With full recomputation the FLOPs factor is 8 (Narayanan et al. 2021).
func TestRecomputeFactor(t *testing.T) {
	s := base()
	s.Workload.Recompute = true
	r := eval(t, s)
	if r.Workload.FLOPsFactor != 8 || !near(r.Workload.FLOPsPerRun, 8*1e9*10e9, 1e-12) {
		t.Errorf("factor %g, FLOPs %g; want 8 and 8e19", r.Workload.FLOPsFactor, r.Workload.FLOPsPerRun)
	}
}

// A trial on the direction's GPU replaces the analytic curve with the fitted
// USL: the scaling table's speedups follow X(N)/X(1).
func TestTrialCalibratesCurve(t *testing.T) {
	truth := USL{Lambda: 5000, Sigma: 0.03, Kappa: 0.0005}
	s := base()
	s.Workload.TrialGPU = "h100-sxm"
	for _, n := range []int{1, 2, 4, 8, 16} {
		s.Workload.Trial = append(s.Workload.Trial, scenario.TrialPoint{GPUs: n, Throughput: truth.Throughput(float64(n))})
	}
	c := eval(t, s).Direction(scenario.Cloud)
	if c.Calibration == nil {
		t.Fatal("no calibration on the trial's GPU")
	}
	if !near(c.Calibration.Sigma, 0.03, 1e-3) || !near(c.Calibration.Kappa, 0.0005, 1e-2) {
		t.Errorf("fit %+v", c.Calibration)
	}
	for _, p := range c.Scaling {
		want := truth.Throughput(float64(p.GPUs)) / truth.Throughput(1)
		if !near(p.Speedup, want, 1e-3) {
			t.Errorf("N=%d: speedup %.4f, want %.4f", p.GPUs, p.Speedup, want)
		}
	}
	// 10e9 tokens at X(8) tokens/s on 8 GPUs.
	if want := 10e9 / truth.Throughput(8) / 3600; !near(c.ComputeHours, want, 1e-3) {
		t.Errorf("compute %.3f h, want %.3f", c.ComputeHours, want)
	}
	// The on-premises direction also runs H100s: calibrated too; HPC (A100) is not.
	if eval(t, s).Direction(scenario.HPC).Calibration != nil {
		t.Error("the A100 partition used the H100 trial")
	}
}

// Serving: the chosen batch meets the latency target, and replicas cover the
// peak load.
func TestServingPlanMeetsLatency(t *testing.T) {
	c := cat(t)
	g, _ := c.GPU("h100-sxm")
	for _, target := range []float64{2000, 5000, 20000} {
		z := &size{serving: true, paramsB: 70.6, activeB: 70.6, layers: 80, kvHeads: 8, headDim: 128, mfu: 0.4, precision: "fp8",
			weightsGB: 70.6, tokensIn: 1000, tokensOut: 200, latencyMS: target, peakRPS: 10, meanRPS: 3}
		p := z.serve(referenceNode(g))
		if !p.ok {
			t.Fatalf("target %g: no plan (%s)", target, p.fail)
		}
		if p.latencyMS > target {
			t.Errorf("target %g ms: latency %.0f ms", target, p.latencyMS)
		}
		if float64(p.replicas)*p.rpsPerRep < z.peakRPS || p.meanReplicas > p.replicas {
			t.Errorf("target %g: %d replicas × %.2f rps for a peak of 10 (mean needs %d)", target, p.replicas, p.rpsPerRep, p.meanReplicas)
		}
	}
}

// Every example's report carries a scaling table for each direction that
// runs GPUs (not per-token services, not always-on serving).
func TestExamplesHaveScalingTables(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.json")
	for _, f := range files {
		s, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		r := eval(t, s)
		for _, d := range r.Directions {
			gpuRun := d.GPU != "" && r.Shape != scenario.ShapeInteractive
			if gpuRun && (len(d.Scaling) == 0 || d.MaxEfficientGPUs < 1 || d.Bottleneck == "") {
				t.Errorf("%s %s: %d scaling points, max efficient %d, bottleneck %q", s.ID, d.Direction, len(d.Scaling), d.MaxEfficientGPUs, d.Bottleneck)
			}
			if r.Shape == scenario.ShapeInteractive && d.GPU != "" && d.Serving == nil && d.Feasible {
				t.Errorf("%s %s: no serving plan", s.ID, d.Direction)
			}
		}
	}
}

// The smallest count per GPU type: Llama 3.1 70B at 16 bit for serving needs
// 141.2 GB of weights + 2 GB overhead per GPU within 90 % of memory:
// one MI300X (192 GB: 143.2 ≤ 172.8); H200 (141 GB: 126.9 usable) needs 2;
// H100 and A100 (80 GB) need 141.2/n + 2 ≤ 72 → n = 3 → a power of two: 4;
// L40S (48 GB): 141.2/n + 2 ≤ 43.2 → n = 4.
func TestFitByGPU(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-70b"},
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(1), MeanRPS: scenario.Known(1), TokensIn: scenario.Known(100), TokensOut: scenario.Known(100)}}
	want := map[string]int{"h100-sxm": 4, "h200-sxm": 2, "mi300x": 1, "l40s": 4, "a100-80gb": 4}
	for _, f := range eval(t, s).Workload.FitByGPU {
		if w, ok := want[f.GPU]; ok && f.MinGPUs != w {
			t.Errorf("%s: %d GPUs, want %d", f.GPU, f.MinGPUs, w)
		}
	}
}

// Narayanan et al. 2021 (Megatron-LM, §5.1): end-to-end training time
// ≈ 8·T·P / (n·X). GPT-3 (175 B parameters) on 300 B tokens with 1,024 A100s
// at X = 140 TFLOP/s per GPU: 8 × 300e9 × 175e9 / (1024 × 140e12) = 2.93e6 s
// = 33.9 days — the paper's "about 34 days". Tolerance: 0.5 day (the paper
// rounds).
func TestMegatronGPT3Days(t *testing.T) {
	est := EstimateTrain(175e9, 300e9, 1024, 140e12, true)
	if math.Abs(est.Days-34) > 0.5 {
		t.Errorf("GPT-3 on 1,024 A100 at 140 TFLOP/s: %.2f days, want about 34", est.Days)
	}
	// Same paper: 1 T parameters on 450 B tokens, 3,072 GPUs at 163 TFLOP/s →
	// about 84 days.
	est = EstimateTrain(1e12, 450e9, 3072, 163e12, true)
	if math.Abs(est.Days-84) > 1 {
		t.Errorf("1 T model: %.2f days, want about 84", est.Days)
	}
}

// Meta's Llama 3 paper (Dubey et al. 2024, §3.3): the 405 B flagship was
// trained with 3.8 × 10^25 FLOPs on 15.6 T tokens; 6·N·D = 6 × 405e9 ×
// 15.6e12 = 3.79e25. Tolerance 1 % (the paper rounds to two figures).
func TestLlama3FlagshipFLOPs(t *testing.T) {
	est := EstimateTrain(405e9, 15.6e12, 16384, 400e12, false)
	if math.Abs(est.FLOPs-3.8e25)/3.8e25 > 0.01 {
		t.Errorf("Llama 3 405B: %.3g FLOPs, want 3.8e25", est.FLOPs)
	}
}
