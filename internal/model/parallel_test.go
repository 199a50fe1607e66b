package model

import (
	"context"
	"math"
	"testing"

	"hostplan/internal/catalog"

	"hostplan/internal/scenario"
)

// The pipeline bubble of interleaved 1F1B is (p−1)/(v·m+p−1) of the
// pipeline's time (Narayanan et al. 2021, §2.2.2), m the micro-batches of
// a step in each pipeline and v the chunks of each stage: 1,024
// sequences of 4,096 tokens a step over 8 data-parallel pipelines of 4
// stages → m = 128; 32 layers over 4 stages allow the default v = 8 →
// bubble 3/1,027. A stage of 64 layers' model over 32 stages holds 2
// layers: v = 2.
func TestPipelineBubble(t *testing.T) {
	z := &size{training: true, paramsB: 7, activeB: 7, layers: 32, hidden: 4096, seqLen: 4096, microBatch: 1, batchWork: 1 << 22}
	l := z.newLayout(2, 4, 8)
	if l.micro != 128 || !near(l.bubble, 3.0/1027, 1e-12) {
		t.Errorf("layout %+v, want 128 micro-batches and a bubble of 3/1,027", l)
	}
	if v := z.virtualStages(16); v != 2 {
		t.Errorf("32 layers over 16 stages: %d chunks each, want 2", v)
	}
	if v := z.virtualStages(1); v != 1 {
		t.Errorf("no pipeline: %d chunks, want 1", v)
	}
	// More pipelines than sequences: one part-empty micro-batch each.
	l = z.newLayout(1, 1, 4096)
	if m, fill := z.microBatches(4096); l.micro != 1 || m != 1 || fill != 0.25 {
		t.Errorf("1,024 sequences over 4,096 copies: %d micro-batches, fill %g; want 1 and 0.25", m, fill)
	}
}

// The data-parallel exchange hides behind the backward pass of the last
// micro-batch, two thirds of its compute (Megatron overlap-grad-reduce);
// ZeRO-3 prefetches behind the whole step (FSDP).
func TestDataParallelOverlap(t *testing.T) {
	z := &size{sharding: "zero1"}
	if got := z.dpExposed(1.0, 30, 10); !near(got, 0, 1e-12) {
		t.Errorf("1 s under a 2 s window: %.3f s exposed, want 0", got)
	}
	if got := z.dpExposed(5.0, 30, 10); !near(got, 3, 1e-12) {
		t.Errorf("5 s over a 2 s window: %.3f s exposed, want 3", got)
	}
	z.sharding = "zero3"
	if got := z.dpExposed(35, 30, 10); !near(got, 5, 1e-12) {
		t.Errorf("ZeRO-3, 35 s over 30 s of compute: %.3f s exposed, want 5", got)
	}
}

// Memory of a layout (Korthikanti et al. 2022, §4.2): GPT-3 175B (96
// layers, h 12,288), s 2,048, b 1, on tensor parallel 8 × pipeline 8 with
// 64 micro-batches: each GPU holds 1/64 of the model (16 bytes a
// parameter, not sharded: 43.75 GB) and the first stage 12 layers of 8
// micro-batches in flight at 34·s·b·h/8 bytes each (10.27 GB), 1 + 7/64
// times that under the interleaved schedule of 8 chunks (§4.2.3), plus
// 2 GB of overhead.
func TestLayoutMemory(t *testing.T) {
	z := &size{training: true, paramsB: 175, activeB: 175, layers: 96, hidden: 12288, seqLen: 2048, microBatch: 1,
		sharding: "replicated", batchWork: 2048 * 64}
	l := z.newLayout(8, 8, 1)
	sbh := 2048.0 * 12288
	want := 16*175e9/64/1e9 + 12*8*(1+7.0/64)*34*sbh/8/1e9 + gpuOverheadGB
	if got := z.layoutMemGB(l); !near(got, want, 1e-12) {
		t.Errorf("%.3f GB, want %.3f", got, want)
	}
	// Data parallel alone on 64 GPUs keeps every layer's activations:
	// 96 × 34·s·b·h = 82.1 GB, more than an 80 GB GPU.
	if got := z.activationsGB(z.newLayout(1, 1, 64)); !near(got, 96*34*sbh/1e9, 1e-12) {
		t.Errorf("data parallel activations %.2f GB, want %.2f", got, 96*34*sbh/1e9)
	}
}

// Issue 12: a full fine-tune of Llama 3.1 70B without activation
// recomputation was declared infeasible on 4,096 H100s: data parallelism
// keeps all 80 layers' activations on every GPU, 80 × 34 × 4,096 × 8,192
// bytes = 91.3 GB, whatever ZeRO shards. Tensor parallelism of 8 inside
// the node splits them (11.4 GB) and the model state over the 8: 16 ×
// 70.6e9 ÷ 24 = 47.1 GB on 24 GPUs, 60.5 GB with the overhead, within the
// 72 GB usable — the fewest GPUs that hold the run. On those 24 the
// planner takes tensor parallelism of 4 × 6 data-parallel copies: a
// quarter of the activations (22.8 GB), the same 47.1 GB of state, 71.9
// GB in all, and half the tensor-parallel all-reduces' hops, while
// ZeRO-3's exchange hides behind the compute (FSDP prefetch).
func TestSeventyBFullFineTuneWithoutRecomputation(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeFineTuning, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-70b"},
		TokensPerRunB: scenario.Known(1), RunsPerMonth: scenario.Known(1), Sharding: "zero3", Method: "full"}
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100"}
	r := eval(t, s)
	c := r.Direction(scenario.Cloud)
	if !c.Feasible || c.Layout == nil || c.Layout.Tensor != 4 || c.Layout.Data != 6 || c.GPUs != 24 {
		t.Fatalf("cloud: feasible %v on %d GPUs, layout %+v, reasons %+v; want feasible on 24 with tensor parallelism of 4", c.Feasible, c.GPUs, c.Layout, c.Reasons)
	}
	if !near(c.MemoryPerGPUGB, 16*70.6e9/24/1e9+80*34*4096*8192/4/1e9+2, 1e-9) || c.MemoryPerGPUGB > 72 {
		t.Errorf("memory %.2f GB per GPU", c.MemoryPerGPUGB)
	}
	z, _ := sizeWorkload(s, cat(t), true, nil)
	if n := z.minTrainGPUs(h100(t), 4096, 8); n != 24 {
		t.Errorf("fewest GPUs %d, want 24 (tensor parallelism of 8 × 3)", n)
	}
	if m := z.layoutMemGB(z.newLayout(8, 1, 3)); !near(m, 16*70.6e9/24/1e9+80*34*4096*8192/8/1e9+2, 1e-9) {
		t.Errorf("tensor parallel 8 × 3: %.2f GB per GPU", m)
	}
	if m := z.activationsGB(z.newLayout(1, 1, 4096)); m < 72 {
		t.Errorf("data parallel activations %.1f GB: should not fit 72 GB", m)
	}
	found := false
	for _, n := range c.Notes {
		found = found || n.Code == NoteParallelLayout
	}
	if !found {
		t.Errorf("no %s note", NoteParallelLayout)
	}
}

// A published layout: BLOOM 176B (70 layers, h 14,336, 112 heads) trained
// on 384 A100 80GB — 48 nodes of 8 with NVLink and a 200 Gb/s port per
// GPU, as the catalog's DGX A100 — with TP 4, PP 12, DP 8, micro-batches
// of 2 and global batches of 2,048 sequences of 2,048 tokens (m = 128),
// activation checkpointing and ZeRO stage 1: 104.70 s an iteration at
// 149.77 TFLOPs per GPU counted with recomputation (8·P·D), at iteration
// 85,376 (bigscience-workshop/bigscience, train/tr11-176B-ml/README.md,
// "Replica setup" and "Important checkpoints", 2022). With the default
// kernel utilisation for ≥ 100 B on A100 (56 %, from Narayanan et al.
// 2021 — a different source) the model gives about 95 s: 88 s of compute,
// the interleaved bubble of 11/(5·128) and 6 s of communication.
// Tolerance ±25 %.
func TestBLOOMPublishedLayout(t *testing.T) {
	c := cat(t)
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeTraining, Precision: "bf16", Model: scenario.Model{ParamsB: 176, Layers: 70, HiddenSize: 14336},
		TokensPerRunB: scenario.Known(450), RunsPerMonth: scenario.Known(1), Sharding: "zero1", Recompute: true,
		SequenceLength: 2048, MicroBatch: 2, GlobalBatchTokens: 2048 * 2048}
	z, err := sizeWorkload(s, c, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	z.heads = 112
	node, _ := c.Node("dgx-a100")
	g, _ := c.GPU(node.GPU)
	hw := hardware{gpu: g, perNode: node.GPUs, intraGBs: node.IntraNodeGBs, netGBs: node.NetworkGBs}
	l := z.newLayout(4, 12, 8)
	if l.micro != 128 || !z.fitsLayout(g, l) {
		t.Fatalf("layout %+v (%.1f GB per GPU): want 128 micro-batches that fit", l, z.layoutMemGB(l))
	}
	p := z.layoutStep(hw, l)
	tflops := z.flops / z.steps() / p.total / 384 / 1e12
	t.Logf("iteration %.1f s (compute %.1f, communication %.1f, bubble %.1f), %.1f TFLOPs per GPU; published 104.70 s, 149.77", p.total, p.compute, p.comm, p.bubble, tflops)
	if math.Abs(p.total/104.70-1) > 0.25 || math.Abs(tflops/149.77-1) > 0.25 {
		t.Errorf("iteration %.1f s at %.1f TFLOPs; published 104.70 s at 149.77 (±25 %%)", p.total, tflops)
	}
	// The planner's own choice for 384 GPUs is no slower than the
	// published layout.
	best, ok := z.bestLayout(hw, 384)
	if !ok || z.layoutStep(hw, best).total > p.total {
		t.Errorf("best layout %+v (fits %v) is slower than the published one", best, ok)
	}
}

// Llama 3 405B (126 layers, h 16,384, 128 heads) on 16,384 H100 in nodes
// of 8 with NVLink, sequences of 8,192 and batches of 16 M tokens: Meta
// used tensor parallelism of 8 — a whole node (Dubey et al. 2024, The
// Llama 3 Herd of Models, Table 4: TP 8, PP 16, DP 128, 41 % MFU). The
// planner keeps tensor parallelism to the node and chooses 8 too; data
// parallelism alone fits at no count (126 layers of activations). Its
// pipeline is shallower than Meta's: plain 1F1B with 16 micro-batches
// would idle 15/31 of a 16-stage pipeline, where Meta's interleaved
// schedule does not.
func TestLlama3TensorParallelOfANode(t *testing.T) {
	c := cat(t)
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeTraining, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-405b"},
		TokensPerRunB: scenario.Known(15600), RunsPerMonth: scenario.Known(1), Sharding: "zero1", Recompute: true,
		SequenceLength: 8192, GlobalBatchTokens: 16 << 20}
	z, err := sizeWorkload(s, c, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	o, _ := c.CloudOffer("aws-p5-h100")
	g, _ := c.GPU(o.GPU)
	hw := offerHardware(o, g)
	l, ok := z.bestLayout(hw, 16384)
	if !ok || l.tp != 8 || l.gpus() != 16384 {
		t.Errorf("layout %+v (fits %v), want tensor parallelism of 8", l, ok)
	}
	if z.fitsLayout(g, z.newLayout(1, 1, 16384)) {
		t.Error("data parallelism alone fits")
	}
	if pub := z.newLayout(8, 16, 128); pub.micro != 16 || !z.fitsLayout(g, pub) {
		t.Errorf("the published layout %+v does not fit (%.1f GB)", pub, z.layoutMemGB(pub))
	}
}

// Issue 12: Llama 3.1 405B in 16 bit was served across 32 L40S "at full
// speed", as if their 32 × 864 GB/s of memory worked as one with no cost
// to talk: a GPU of it served 2.7 times fewer requests than one of 16
// H100s, less than the datasheets' memory bandwidth ratio (3,350 ÷ 864 =
// 3.88) that bounds memory-bound decode. The L40S has no NVLink: its
// all-reduces cross PCIe at about 14 GB/s of bus bandwidth (catalog, after
// NVIDIA/nccl issue 1639) and the g6e's nodes share 400 Gb/s among 8 GPUs
// (6.25 GB/s each, catalog). The plan is a pipeline over nodes; a GPU of
// it serves fewer requests than the bandwidth ratio alone says, and its
// links make a decode step at least a quarter longer than moving its
// memory.
func Test405BOnL40SSlowerThanH100(t *testing.T) {
	c := cat(t)
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-405b"},
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(2), MeanRPS: scenario.Known(1), TokensIn: scenario.Known(1000), TokensOut: scenario.Known(250)}}
	z, err := sizeWorkload(s, c, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	plan := func(offer string) servingPlan {
		o, _ := c.CloudOffer(offer)
		g, _ := c.GPU(o.GPU)
		return z.serve(offerHardware(o, g))
	}
	l40s, h100 := plan("aws-g6e-l40s"), plan("aws-p5-h100")
	if !l40s.ok || !h100.ok || l40s.gpus() != 32 || l40s.pp < 2 {
		t.Fatalf("plans %+v and %+v; want 32 L40S across nodes", l40s, h100)
	}
	perGPU := func(p servingPlan) float64 { return p.rpsPerRep / float64(p.gpus()) }
	ratio := perGPU(h100) / perGPU(l40s)
	t.Logf("requests/s per GPU: H100 %.3f (%d × %d), L40S %.4f (%d × %d): %.1f times", perGPU(h100), h100.tp, h100.pp, perGPU(l40s), l40s.tp, l40s.pp, ratio)
	if ratio < 3350/864.0 {
		t.Errorf("an H100 serves %.1f times an L40S's requests; want at least the bandwidth ratio 3.88", ratio)
	}
	// The L40S step without its links: pp stages each moving 1/pp of the
	// weights and of k = min(pp, b) micro-batches' KV cache over tp GPUs.
	g, _ := c.GPU("l40s")
	k := float64(min(l40s.pp, l40s.batch))
	P, T := float64(l40s.pp), float64(l40s.tp)
	memory := P * (z.weightsGB/P + float64(l40s.batch)/k*z.kvReadPerSeqGB()/P) / (g.BandwidthGBs * T)
	if l40s.stepMS/1000 < 1.25*memory {
		t.Errorf("L40S decode step %.1f ms, memory alone %.1f ms: the links should add at least a quarter", l40s.stepMS, memory*1000)
	}
}

// The Monte Carlo holds each direction's layout: the pins take the full
// report's (tensor parallel 4 × data parallel 6 for the 70B fine-tune on
// 24 H100s), and a draw computes its time with the pinned layout, not a
// new choice — here one swapped for tensor 4 × pipeline 2 × data 3.
func TestMonteCarloHoldsTheLayout(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeFineTuning, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-70b"},
		TokensPerRunB: scenario.Estimate(0.5, 1, 2), RunsPerMonth: scenario.Known(1), Sharding: "zero3", Method: "full",
		FailuresPerMillionGPUHours: scenario.Known(0)}
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100"}
	full := eval(t, s)
	pin := newPins(s, full)
	got := pin.layout[scenario.Cloud]
	if got == nil || got.tp != 4 || got.pp != 1 || got.dp != 6 {
		t.Fatalf("pinned layout %+v, want 4 × 1 × 6", got)
	}
	c := cat(t)
	z, _ := sizeWorkload(s, c, true, nil)
	o, _ := c.CloudOffer("aws-p5-h100")
	g, _ := c.GPU(o.GPU)
	other := z.newLayout(4, 2, 3)
	pin.layout[scenario.Cloud] = &other
	r, err := evaluate(s, c, pin, &scratch{})
	if err != nil {
		t.Fatal(err)
	}
	want := z.steps() * z.layoutStep(offerHardware(o, g), other).total / 3600
	if d := r.Direction(scenario.Cloud); !near(d.ComputeHours, want, 1e-12) {
		t.Errorf("a draw took %.4f h, want %.4f h on the pinned layout", d.ComputeHours, want)
	}
	a, err := Analyze(context.Background(), s, c, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range a.Uncertainty.Directions {
		if d.Direction == scenario.Cloud && d.ProbFeasible != 1 {
			t.Errorf("cloud feasible in %.0f %% of draws", d.ProbFeasible*100)
		}
	}
}

// A decode step of a pipeline across nodes, by hand: Llama 3.1 405B in 16
// bit (810 GB of weights, 126 layers, hidden 16,384) as 2 stages of 8 H100
// (3,350 GB/s; 450 GB/s all-reduce bus; 50 GB/s of fabric per GPU), a
// batch of 16 with 128 tokens in and 2 out (a KV read of 129 tokens × 516
// kB). Two micro-batches of 8 are in flight; a stage moves half the
// weights and half the layers' cache of its micro-batch over 8 GPUs at
// 80 % of their bandwidth, (405 + 8 × 0.0666 / 2) GB ÷ 21,440 GB/s = 18.9
// ms (more than its FLOPs, 2 × 202.5e9 × 8 ÷ (8 × 395.6e12 × 0.75) = 1.4
// ms with attention's few), plus 2 × 63
// all-reduces of 8 × 16,384 × 2 bytes (3.6 µs + 14 × 0.47 µs + 262 kB ÷
// 450 GB/s × 14/8 = 11.2 µs each) and a send of the same over the fabric
// (3.6 + 2.7 µs + 5.2 µs); a step is the two stages in turn.
func TestPipelineDecodeStep(t *testing.T) {
	c := cat(t)
	g, _ := c.GPU("h100-sxm")
	hw := hardware{gpu: g, perNode: 8, intraGBs: 900, netGBs: 50}
	z := &size{paramsB: 405, activeB: 405, layers: 126, hidden: 16384, kvHeads: 8, headDim: 128, mfu: 0.4, precision: "bf16",
		weightsGB: 810, tokensIn: 128, tokensOut: 2, serving: true, kvBytes: 2}
	kv := 2 * 126 * 8 * 128 * 2 * 129.0 / 1e9
	act := 8 * 16384 * 2.0
	ar := 3.6e-6 + 14*0.47e-6 + act/450e9*14/8
	send := 3.6e-6 + 2.7e-6 + act/50e9
	stage := (405+8*kv/2)/(3350*0.8*8) + 2*63*ar + send
	got, memBound := z.decodeStep(hw, 8, 2, 16)
	if !near(got, 2*stage, 1e-12) || !memBound {
		t.Errorf("step %.4f ms (memory-bound %v), want %.4f ms", got*1000, memBound, 2*stage*1000)
	}
}

func h100(t *testing.T) catalog.GPU {
	g, ok := cat(t).GPU("h100-sxm")
	if !ok {
		t.Fatal("no h100-sxm in the catalog")
	}
	return g
}
