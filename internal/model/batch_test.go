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
// (2 × 32 layers × 8 KV heads × 128 × 2 bytes = 131,072 bytes a token, ×
// 3,250 tokens of context = 0.426 GB a sequence) once for every sequence
// of the batch. On 2 GPUs (the smallest tensor-parallel degree with room
// for vLLM's 256 sequences) a step moves 16.06 + 256 × 0.426 GB at 2 ×
// 3,350 GB/s = 18.67 ms for 256 tokens: 1.459e-4 GPU-seconds an output
// token, 4.5 times a prefill token. So 3,000 output tokens per 250 input
// take 38.1 GPU-hours a batch and the mirror split 11.4: before, every
// token cost 2·P FLOPs and both took 9.02.
func TestBatchDecodeIsMemoryBound(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeBatch, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
		TokensPerRunB: scenario.Known(1), RunsPerMonth: scenario.Known(1), MFU: scenario.Known(0.5),
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(1), MeanRPS: scenario.Known(1), TokensIn: scenario.Known(250), TokensOut: scenario.Known(3000)}}
	prefill := 2 * 8.03e9 / (989e12 * 0.5)
	kv := 131072 * 3250 / 1e9
	decode := (16.06 + 256*kv) / (2 * 3350) * 2 / 256
	hours := func(in, out float64) float64 { return 1e9 * (in*prefill + out*decode) / (in + out) / 3600 }
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
