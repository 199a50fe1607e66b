package model

import (
	"testing"

	"hostplan/internal/scenario"
)

// Batch inference, by hand: Llama 3.1 8B in bf16 on the cloud's 8 × H100
// (989 TFLOP/s dense, 3,350 GB/s, 80 GB), MFU 0.5, 1 B tokens a batch.
// Prefill is compute-bound: 2 × 8.03e9 FLOPs per input token at 494.5
// TFLOP/s = 3.248e-5 GPU-seconds. Decode is memory-bound (DESIGN.md,
// Serving): a step reads the 16.06 GB of weights and the batch's KV cache
// (2 × 32 layers × 8 KV heads × 128 × 2 bytes = 131,072 bytes a token)
// at each sequence's mean context, the prompt and half the output (250 +
// 1,500 tokens = 0.229 GB a sequence; memory holds the whole 3,250), once
// for every sequence of the batch. On 2 GPUs (the smallest
// tensor-parallel degree with room for vLLM's 256 sequences) a step moves
// 16.06 + 256 × 0.229 GB at 2 × 3,350 GB/s = 11.16 ms for 256 tokens,
// and the two GPUs all-reduce the batch's activations twice per layer
// (256 × 4,096 × 2 bytes = 2.1 MB, 64 times a step): NCCL's latency,
// 3.6 µs + 2 × 0.47 µs, plus 2.1 MB at the H100's measured 450 GB/s bus
// × 2(n−1)/n = 4.66 µs → 0.59 ms; 11.75 ms a step is 9.18e-5
// GPU-seconds an output token, 2.8 times a prefill token. So 3,000
// output tokens per 250 input take 24.2 GPU-hours a batch and the mirror
// split 11.4: before, every token cost 2·P FLOPs and both took 9.02.
func TestBatchDecodeIsMemoryBound(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeBatch, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
		TokensPerRunB: scenario.Known(1), RunsPerMonth: scenario.Known(1), MFU: scenario.Known(0.5),
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(1), MeanRPS: scenario.Known(1), TokensIn: scenario.Known(250), TokensOut: scenario.Known(3000)}}
	prefill := 2 * 8.03e9 / (989e12 * 0.5)
	// A step reads each sequence's KV cache at its mean context (the
	// prompt and half the output); memory holds the whole context.
	allReduce := 64 * (3.6e-6 + 2*0.47e-6 + 256*4096*2/450e9)
	decode := func(in, out float64) float64 {
		kv := 131072 * (in + out/2) / 1e9
		return ((16.06+256*kv)/(2*3350) + allReduce) * 2 / 256
	}
	hours := func(in, out float64) float64 { return 1e9 * (in*prefill + out*decode(in, out)) / (in + out) / 3600 }
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

// The node choice weighs memory as well as FLOPs: serving Llama 3.1 70B
// in FP8 within 4 s a request is bound by memory bandwidth and size, where
// an H200 (4,800 GB/s, 141 GB) holds the weights on 2 GPUs with room for
// 129 sequences and an H100 (3,350 GB/s, 80 GB) on 2 with room for 40: the
// peak of 40 requests/s takes 10 H200s or 14 H100s. So the H200 node
// (337,000 $, 42,125 $ a GPU) serves it for less than the DGX H100 class
// node (270,000 $, 33,750 $ a GPU), which the lowest price per dense
// TFLOP/s chose before. Training, bound by FLOPs, keeps that node.
func TestNodeChoiceWeighsMemory(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "fp8", Model: scenario.Model{Preset: "llama-3.1-70b"},
		MFU: scenario.Known(0.5), Traffic: &scenario.Traffic{PeakRPS: scenario.Known(40), MeanRPS: scenario.Known(15),
			TokensIn: scenario.Known(1000), TokensOut: scenario.Known(300), LatencyTargetMS: scenario.Known(4000)}}
	s.Options.Cloud = scenario.CloudOptions{}
	if op := eval(t, s).Direction(scenario.OnPrem); op.Offer != "hgx-h200" {
		t.Errorf("serving 70B on-premises chose %s, want hgx-h200", op.Offer)
	}
	if op := eval(t, base()).Direction(scenario.OnPrem); op.Offer != "dgx-h100" {
		t.Errorf("training chose %s, want dgx-h100", op.Offer)
	}
}
