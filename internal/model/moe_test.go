package model

import (
	"math"
	"testing"

	"hostplan/internal/scenario"
)

// DeepSeek-V3's compressed (MLA) cache from the catalog: 61 layers × 576
// values a token (kv_lora_rank 512 + a 64-value RoPE key), 70,272 bytes
// at 16 bit — where 2 × 128 heads × 128 × 61 at 16 bit would be 57 times
// that. On 8 × H200 in FP8 with 1,000 tokens in and out the cache no
// longer limits the batch (vLLM's 256), where the plain cache held about
// 40 sequences.
func TestCompressedKVCache(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "fp8", KVCachePrecision: "bf16", Model: scenario.Model{Preset: "deepseek-v3"},
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(10), MeanRPS: scenario.Known(5), TokensIn: scenario.Known(1000), TokensOut: scenario.Known(1000)}}
	z, err := sizeWorkload(s, cat(t), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := z.kvPerToken(); got != 61*576*2 {
		t.Errorf("%g bytes a token, want %d", got, 61*576*2)
	}
	g, _ := cat(t).GPU("h200-sxm")
	if b := z.batchFits(g, 8); b != MaxBatch {
		t.Errorf("batch %d on 8 × H200, want the engine's %d", b, MaxBatch)
	}
	plain := *z
	plain.kvLatent = 0
	if b := plain.batchFits(g, 8); b > 60 {
		t.Errorf("a plain cache of 128 KV heads still fits %d sequences", b)
	}
	if r := plain.kvPerToken() / z.kvPerToken(); math.Abs(r-2*128*128.0/576) > 1e-9 {
		t.Errorf("plain cache %.1f times the compressed one", r)
	}
}

// A mixture of experts' decode step reads the shared weights and the
// experts its tokens use: DeepSeek-V3 (256 experts, 8 a token; 95 % of
// its 671 B parameters in the experts) reads 8/256 of them for one token
// and nearly all for 256; a dense model reads everything either way.
func TestMoEDecodeReadsTheExpertsUsed(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "fp8", Model: scenario.Model{Preset: "deepseek-v3"},
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(10), MeanRPS: scenario.Known(5), TokensIn: scenario.Known(1000), TokensOut: scenario.Known(1000)}}
	z, err := sizeWorkload(s, cat(t), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	x := 256 * (671 - 37) / 248.0 / 671
	if !near(z.expertShare(), x, 1e-12) {
		t.Errorf("expert share %g, want %g", z.expertShare(), x)
	}
	if got, want := z.weightsReadGB(1), z.weightsGB*(1-x+x*8/256); !near(got, want, 1e-12) {
		t.Errorf("one token reads %g GB, want %g", got, want)
	}
	if got := z.weightsReadGB(256) / z.weightsGB; got < 0.999 {
		t.Errorf("256 tokens read %.4f of the weights", got)
	}
	// Decode at batch 1 on 8 × H200 is far faster than reading all 671 GB.
	g, _ := cat(t).GPU("h200-sxm")
	step, _ := z.decodeStep(referenceNode(g), 8, 1, 1)
	if all := z.weightsGB / (8 * 4800 * decodeBandwidthShare); step > all/3 {
		t.Errorf("a one-token step takes %.1f ms, reading every weight %.1f ms", step*1000, all*1000)
	}
	dense := *z
	dense.experts, dense.expertsK = 0, 0
	if dense.weightsReadGB(1) != dense.weightsGB {
		t.Error("a dense model reads less than its weights")
	}
}

// Training a mixture of experts spreads the experts over the
// data-parallel copies (expert parallelism): each micro-batch pays four
// all-to-alls a layer, and each GPU exchanges the gradients of its own
// experts only. On 64 H100s in 8 nodes, 64-way: the all-to-all goes over
// the fabric.
func TestExpertParallelTraining(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeTraining, Precision: "bf16", Model: scenario.Model{Preset: "qwen3-30b-a3b"},
		TokensPerRunB: scenario.Known(100), RunsPerMonth: scenario.Known(1), Sharding: "zero3"}
	z, err := sizeWorkload(s, cat(t), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := cat(t).GPU("h100-sxm")
	hw := hardware{gpu: g, perNode: 8, intraGBs: 900, netGBs: 50}
	l := z.newLayout(1, 1, 64)
	if ep := z.expertParallel(l); ep != 64 {
		t.Fatalf("expert parallelism %d on 64 data-parallel GPUs, want 64", ep)
	}
	tokens := float64(z.seqLen * z.microBatch)
	wantA2A := 4 * 48 * (tokens*8*2048*2*63/64/50e9 + 63*ncclHopNetS)
	if got := z.allToAllSeconds(hw, l, 64); !near(got, wantA2A, 1e-12) {
		t.Errorf("all-to-all %.4f s a micro-batch, want %.4f", got, wantA2A)
	}
	moe := z.layoutStep(hw, l)
	dense := *z
	dense.experts, dense.expertsK = 0, 0
	plain := dense.layoutStep(hw, l)
	if !(moe.comm > plain.comm) {
		t.Errorf("communication %.3f s with experts, %.3f s without: the all-to-all is missing", moe.comm, plain.comm)
	}
	// With every second layer dense (Llama 4 Maverick: 24 of 48 route to
	// experts), half the layers pay the all-to-all.
	half := *z
	half.moeLayers = 24
	if got := half.allToAllSeconds(hw, l, 64); !near(got, wantA2A/2, 1e-12) {
		t.Errorf("all-to-all with 24 of 48 layers with experts %.4f s, want %.4f", got, wantA2A/2)
	}
	// A dense model, and one GPU, have no expert parallelism.
	if dense.expertParallel(l) != 1 || z.expertParallel(z.newLayout(1, 1, 1)) != 1 {
		t.Error("expert parallelism without experts or without copies")
	}
}
