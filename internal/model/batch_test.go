package model

import (
	"math"
	"testing"

	"hostplan/internal/scenario"
)

// Batch inference, by hand: Llama 3.1 8B in bf16 on the cloud's 8 × H100
// (989 TFLOP/s dense, 3,350 GB/s, 80 GB), MFU 0.5, 1 B tokens a batch.
// Prefill is compute-bound: per input token 2 × 8.03e9 FLOPs for the
// weights and, causally, attention over half the prompt on average —
// 4 × 32 heads × 128 × 32 layers = 524,288 FLOPs a pair, 125 pairs at 250
// tokens — at 1.4 × 494.5 = 692.3 TFLOP/s (prefillMFUShare). Decode is memory-bound (DESIGN.md, Serving):
// a step reads the 16.06 GB of weights and the batch's KV cache (2 × 32
// layers × 8 KV heads × 128 × 2 bytes = 131,072 bytes a token) at each
// sequence's mean context, the prompt and half the output (250 + 1,500
// tokens = 0.229 GB a sequence; memory holds the whole 3,250), once for
// every sequence of the batch, at 80 % of the datasheet bandwidth
// (decodeBandwidthShare). On 2 GPUs (the smallest tensor-parallel degree
// with room for vLLM's 256 sequences) a step moves 16.06 + 256 × 0.229 GB
// at 2 × 3,350 × 0.8 GB/s = 13.95 ms for 256 tokens — its FLOPs, 256 ×
// (16.06 GFLOPs + 1,750 × 524,288) at 2 × 494.5 × 0.75 TFLOP/s, take 5.9
// ms — and the two GPUs all-reduce the batch's activations twice per
// layer (256 × 4,096 × 2 bytes = 2.1 MB, 64 times a step): NCCL's
// latency, 3.6 µs + 2 × 0.47 µs, plus 2.1 MB at the H100's measured 450
// GB/s bus × 2(n−1)/n = 4.66 µs → 0.59 ms. So 3,000 output tokens per 250
// input take about 29.6 GPU-hours a batch and the mirror split 10.1, 2.9
// times — TensorRT-LLM's published Llama 3.1 8B throughput on an H100
// has 2.4 (128 in / 2,048 out: 41 µs a token; 2,048 / 128: 17 µs). Before
// decode was modelled every token cost 2·P FLOPs and both took 9.02.
func TestBatchDecodeIsMemoryBound(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeBatch, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
		TokensPerRunB: scenario.Known(1), RunsPerMonth: scenario.Known(1), MFU: scenario.Known(0.5),
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(1), MeanRPS: scenario.Known(1), TokensIn: scenario.Known(250), TokensOut: scenario.Known(3000)}}
	const pair = 4 * 32 * 128 * 32 // attention FLOPs of one query token against one cached token
	X := 989e12 * 0.5
	prefill := func(in float64) float64 { return (2*8.03e9 + pair*in/2) / (X * prefillMFUShare) }
	// A step reads each sequence's KV cache at its mean context (the
	// prompt and half the output); memory holds the whole context.
	allReduce := 64 * (3.6e-6 + 2*0.47e-6 + 256*4096*2/450e9)
	decode := func(in, out float64) float64 {
		ctx := in + out/2
		mem := (16.06 + 256*131072*ctx/1e9) / (2 * 3350 * decodeBandwidthShare)
		comp := 256 * (2*8.03e9 + pair*ctx) / (2 * X * decodeMFUShare)
		return (math.Max(mem, comp) + allReduce) * 2 / 256
	}
	hours := func(in, out float64) float64 { return 1e9 * (in*prefill(in) + out*decode(in, out)) / (in + out) / 3600 }
	outHeavy := eval(t, s).Direction(scenario.Cloud)
	s.Workload.Traffic.TokensIn, s.Workload.Traffic.TokensOut = scenario.Known(3000), scenario.Known(250)
	inHeavy := eval(t, s).Direction(scenario.Cloud)
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"output-heavy GPU-hours", outHeavy.GPUHoursPerRun, hours(250, 3000)},
		{"input-heavy GPU-hours", inHeavy.GPUHoursPerRun, hours(3000, 250)},
	} {
		if !near(c.got, c.want, 1e-9) {
			t.Errorf("%s = %.4f, want %.4f", c.name, c.got, c.want)
		}
	}
	if outHeavy.GPUs != 8 || outHeavy.Bottleneck != BottleneckMemoryBandwidth || inHeavy.Bottleneck != BottleneckCompute {
		t.Errorf("bottlenecks %s (output-heavy, %d GPUs) and %s (input-heavy); want memory bandwidth on 8 GPUs and compute",
			outHeavy.Bottleneck, outHeavy.GPUs, inHeavy.Bottleneck)
	}
}

// The node choice weighs memory as well as FLOPs, and buys whole nodes:
// serving Llama 3.1 70B in FP8 with a 16-bit KV cache, 1,000 tokens in and
// 500 out within 4 s a request, is bound by memory bandwidth and size.
// Among the Hopper servers, the H200 (4,800 GB/s, 141 GB) serves a peak
// of 40 requests/s on 2 replicas of 8 (20.9 requests/s each): two 8-GPU
// nodes, 674,000 $; the H100 (3,350 GB/s, 80 GB) needs 3 replicas of 8
// (15.8 requests/s each): three DGX H100 class nodes, 810,000 $ — though
// its price per dense TFLOP/s is the lower. With the whole catalog the
// B200 server (8,000 GB/s, 180 GB, priced as an estimate at the H200
// server's 337,000 $) serves it and trains best; not the GB200 NVL72 rack,
// the lowest price per dense TFLOP/s, whose 72 GPUs neither can use.
func TestNodeChoiceWeighsMemory(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "fp8", Model: scenario.Model{Preset: "llama-3.1-70b"},
		MFU: scenario.Known(0.5), KVCachePrecision: "bf16", Traffic: &scenario.Traffic{PeakRPS: scenario.Known(40), MeanRPS: scenario.Known(20),
			TokensIn: scenario.Known(1000), TokensOut: scenario.Known(500), LatencyTargetMS: scenario.Known(4000)}}
	s.Options.Cloud = scenario.CloudOptions{}
	hopper := *cat(t)
	hopper.Nodes = nil
	for _, n := range cat(t).Nodes {
		if n.ID == "dgx-h100" || n.ID == "hgx-h200" {
			hopper.Nodes = append(hopper.Nodes, n)
		}
	}
	r, err := Evaluate(s, &hopper)
	if err != nil {
		t.Fatal(err)
	}
	if op := r.Direction(scenario.OnPrem); op.Offer != "hgx-h200" {
		t.Errorf("serving 70B on Hopper servers chose %s, want hgx-h200", op.Offer)
	}
	if op := eval(t, s).Direction(scenario.OnPrem); op.Offer != "hgx-b200" {
		t.Errorf("serving 70B on-premises chose %s, want hgx-b200", op.Offer)
	}
	if op := eval(t, base()).Direction(scenario.OnPrem); op.Offer != "hgx-b200" {
		t.Errorf("training chose %s, want hgx-b200", op.Offer)
	}
}
