package model

import (
	"fmt"
	"math"

	"hostplan/internal/catalog"
)

// TrainEstimate is the back-of-envelope answer of `hostplan estimate train`.
type TrainEstimate struct {
	FLOPs    float64 `json:"flops"`
	GPUHours float64 `json:"gpu_hours"`
	Days     float64 `json:"days"` // elapsed, at linear scaling on the given GPUs
	// ModelStateGBPerGPU is mixed-precision Adam state per GPU (GB = 1e9
	// bytes) under each sharding: replicated, zero1, zero2, zero3.
	ModelStateGBPerGPU map[string]float64 `json:"model_state_gb_per_gpu"`
}

// EstimateTrain sizes a training run of params parameters on tokens tokens
// over gpus GPUs each sustaining achieved FLOP/s: C = k·P·D with k = 6, or 8
// with full activation recomputation (Kaplan et al. 2020; Narayanan et al.
// 2021); ideal time C / (N·X); model state per GPU as in ZeRO (Rajbhandari et
// al. 2020). Arguments must be positive and finite.
func EstimateTrain(params, tokens float64, gpus int, achieved float64, recompute bool) TrainEstimate {
	for _, v := range []float64{params, tokens, achieved} {
		if !(v > 0) || math.IsInf(v, 0) {
			panic(fmt.Sprintf("model: EstimateTrain: %v out of range (allowed: a finite number > 0)", v))
		}
	}
	if gpus < 1 {
		panic(fmt.Sprintf("model: EstimateTrain: gpus %d out of range (allowed: ≥ 1)", gpus))
	}
	k := 6.0
	if recompute {
		k = 8
	}
	c := k * params * tokens
	gh := c / achieved / 3600
	est := TrainEstimate{FLOPs: c, GPUHours: gh, Days: gh / float64(gpus) / 24, ModelStateGBPerGPU: map[string]float64{}}
	for _, sh := range []string{"replicated", "zero1", "zero2", "zero3"} {
		est.ModelStateGBPerGPU[sh] = stateBytes(params, sh, gpus) / 1e9
	}
	return est
}

// ServeEstimate is the answer of `hostplan estimate serve`: one replica of a
// model on the fewest GPUs that hold it, at the largest batch whose decode
// step meets the per-token latency.
type ServeEstimate struct {
	GPUs                  int     `json:"gpus"` // GPUs per replica (tensor parallel)
	Batch                 int     `json:"batch"`
	TokensPerSecond       float64 `json:"tokens_per_second"`         // output tokens/s of the replica
	TokensPerSecondPerGPU float64 `json:"tokens_per_second_per_gpu"` // the same, per GPU
	StepMS                float64 `json:"step_ms"`                   // one decode step
	MemoryGBPerGPU        float64 `json:"memory_gb_per_gpu"`         // weights + KV cache + overhead
	MemoryBound           bool    `json:"memory_bound"`              // decode limited by memory bandwidth, not compute
}

// EstimateServe sizes decode for a catalog model on a catalog GPU at a
// weight precision of bits (16, 8 or 4), a context of ctx tokens per
// sequence and a per-token latency budget of latencyMS, with the roofline of
// DESIGN.md (Serving) and the all-reduces of tensor parallelism in a node
// of 8 (referenceNode). It returns an error when the model does not fit 64
// GPUs or no batch meets the latency.
func EstimateServe(m catalog.Model, g catalog.GPU, bits int, ctx, latencyMS, mfu float64) (ServeEstimate, error) {
	prec := map[int]string{16: "bf16", 8: "fp8", 4: "int4"}[bits]
	z := &size{paramsB: m.ParamsB, activeB: m.ActiveParamsB, layers: m.Layers, hidden: m.HiddenSize, kvHeads: m.KVHeads, headDim: m.HeadDim,
		precision: prec, mfu: mfu, tokensIn: ctx, weightsGB: m.ParamsB * 1e9 * bytesPerParam(prec) / 1e9}
	tp := nextPow2(z.minGPUs(g, 64)) // tensor-parallel degrees divide the heads
	if tp == 0 {
		return ServeEstimate{}, fmt.Errorf("%s at %d bit (%.0f GB) does not fit 64 × %s", m.ID, bits, z.weightsGB, g.ID)
	}
	var best ServeEstimate
	hw := referenceNode(g)
	for b := 1; b <= maxBatch && z.fits(g, tp, b); b++ {
		step, memBound := z.decodeStep(hw, tp, 1, b)
		if step*1000 > latencyMS {
			break
		}
		best = ServeEstimate{GPUs: tp, Batch: b, TokensPerSecond: float64(b) / step, StepMS: step * 1000,
			MemoryGBPerGPU: z.memPerGPU(tp, b), MemoryBound: memBound}
	}
	if best.Batch == 0 {
		step, _ := z.decodeStep(hw, tp, 1, 1)
		return best, fmt.Errorf("one decode step of %s on %d × %s takes %.1f ms, above the %.0f ms target", m.ID, tp, g.ID, step*1000, latencyMS)
	}
	best.TokensPerSecondPerGPU = best.TokensPerSecond / float64(best.GPUs)
	return best, nil
}
