package model

import (
	"fmt"
	"math"

	"hostplan/internal/catalog"
	"hostplan/internal/present/num"
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

// ServeRequest is what `hostplan estimate serve` asks: a model at a
// weight precision of Bits (16, 8 or 4) with TokensIn and TokensOut per
// request — or, with TokensOut 0, a context of TokensIn tokens per
// sequence and decode only — optionally on GPUs GPUs (0: the fewest that
// hold the weights, a power of two) at a batch of Batch (0: the largest
// that fits and meets LatencyMS, the per-token decode budget; 0: none),
// with a KV cache of KVBits (0: 8 for 8-bit weights, else 16) and the
// compute roof at MFU.
type ServeRequest struct {
	Bits, KVBits, GPUs, Batch int
	TokensIn, TokensOut       float64
	LatencyMS, MFU            float64
}

// Throughput bases: what ServeEstimate.TokensPerSecond counts.
const (
	// BasisEndToEnd: output tokens per second with each request's
	// prefill counted, as a load test at saturation measures it.
	BasisEndToEnd = "end_to_end"
	// BasisDecodeOnly: output tokens per second of decode steps alone,
	// at the given context (no split between prompt and output given).
	BasisDecodeOnly = "decode_only"
)

// ServeEstimate is the answer of `hostplan estimate serve`: one replica
// of a model, its batch, its decode step and what it serves.
type ServeEstimate struct {
	GPUs  int `json:"gpus"` // GPUs per replica (tensor parallel)
	Batch int `json:"batch"`
	// TokensPerSecond is the replica's output tokens/s on the basis
	// TokensPerSecondBasis names: end to end when the request's split is
	// given, decode only otherwise.
	TokensPerSecond       float64 `json:"tokens_per_second"`
	TokensPerSecondPerGPU float64 `json:"tokens_per_second_per_gpu"`
	TokensPerSecondBasis  string  `json:"tokens_per_second_basis"`
	// DecodeTokensPerSecond is batch ÷ decode step: the decode steps
	// alone, at the mean context.
	DecodeTokensPerSecond float64 `json:"decode_tokens_per_second"`
	// RequestsPerSecond and RequestLatencyMS (prefill and every decode
	// step of one request) when the split is given; 0 otherwise.
	RequestsPerSecond float64 `json:"requests_per_second"`
	RequestLatencyMS  float64 `json:"request_latency_ms"`
	PrefillMS         float64 `json:"prefill_ms"` // one request's prompt, on the replica
	StepMS            float64 `json:"step_ms"`    // one decode step
	MemoryGBPerGPU    float64 `json:"memory_gb_per_gpu"`
	MemoryBound       bool    `json:"memory_bound"` // decode limited by memory bandwidth, not compute
	KVBits            int     `json:"kv_bits"`
	// MeetsLatency is false when a batch or GPU count the request fixed
	// makes a decode step longer than its latency budget.
	MeetsLatency bool `json:"meets_latency"`
}

// EstimateServe sizes one replica of catalog model m on GPU g as the
// scenario's serving plan does (size.servePlan: prefill and decode with
// attention, the KV cache at its precision, tensor parallelism's
// all-reduces in a node of 8 and over the fabric beyond; referenceNode).
// It returns an error when the model does not fit, the GPU count cannot
// hold it or split its heads, or no batch meets the latency.
func EstimateServe(m catalog.Model, g catalog.GPU, r ServeRequest) (ServeEstimate, error) {
	prec := map[int]string{16: "bf16", 8: "fp8", 4: "int4"}[r.Bits]
	kv := map[int]string{16: "bf16", 8: "fp8"}[r.KVBits]
	z := &size{precision: prec, mfu: r.MFU, tokensIn: r.TokensIn, tokensOut: r.TokensOut,
		weightsGB: m.ParamsB * 1e9 * bytesPerParam(prec) / 1e9, kvBytes: kvCacheBytes(kv, prec)}
	z.takeModel(m)
	hw := referenceNode(g)
	tp := r.GPUs
	if tp == 0 {
		tp = nextPow2(z.minGPUs(g, 64)) // tensor-parallel degrees divide the heads
		if tp == 0 {
			return ServeEstimate{}, fmt.Errorf("%s at %d bit (%s GB of weights) does not fit 64 × %s", m.ID, r.Bits, num.Fixed(z.weightsGB, 1), g.ID)
		}
	} else {
		if m.Heads > 0 && m.Heads%tp != 0 {
			return ServeEstimate{}, fmt.Errorf("%d GPUs cannot split the %d attention heads of %s evenly (tensor parallelism needs a divisor of %d)", tp, m.Heads, m.ID, m.Heads)
		}
		if !z.fits(g, tp, 1) {
			return ServeEstimate{}, fmt.Errorf("%s at %d bit does not fit %d × %s: %s GB per GPU for one sequence, of %s GB usable",
				m.ID, r.Bits, tp, g.ID, num.Fixed(z.memPerGPU(tp, 1), 1), num.Fixed(g.MemoryGB*usableFraction, 1))
		}
	}
	budget := math.Inf(1)
	if r.LatencyMS > 0 {
		budget = r.LatencyMS
	}
	var p servingPlan
	if r.Batch > 0 {
		if !z.fits(g, tp, r.Batch) {
			return ServeEstimate{}, fmt.Errorf("a batch of %d does not fit %d × %s: %s GB per GPU, of %s GB usable",
				r.Batch, tp, g.ID, num.Fixed(z.memPerGPU(tp, r.Batch), 1), num.Fixed(g.MemoryGB*usableFraction, 1))
		}
		p = z.servePlan(hw, tp, 1, r.Batch)
	} else {
		step := func(b int) float64 { s, _ := z.decodeStep(hw, tp, 1, b); return s * 1000 }
		if step(1) > budget {
			return ServeEstimate{}, fmt.Errorf("one decode step of %s on %d × %s takes %s ms, above the %s ms target", m.ID, tp, g.ID, num.Fixed(step(1), 1), num.Format(r.LatencyMS))
		}
		b := 1
		for b < maxBatch && z.fits(g, tp, b+1) && step(b+1) <= budget {
			b++
		}
		p = z.servePlan(hw, tp, 1, b)
	}
	e := ServeEstimate{GPUs: tp, Batch: p.batch, DecodeTokensPerSecond: p.tokensPerSecond, StepMS: p.stepMS,
		MemoryGBPerGPU: z.memPerGPU(tp, p.batch), MemoryBound: p.memoryBound, KVBits: int(8 * z.kvBytes), MeetsLatency: p.stepMS <= budget}
	pre, _ := z.prefill(hw, tp, 1)
	e.PrefillMS = pre * 1000
	e.TokensPerSecond, e.TokensPerSecondBasis = e.DecodeTokensPerSecond, BasisDecodeOnly
	if r.TokensOut > 0 {
		e.RequestsPerSecond, e.RequestLatencyMS = p.rpsPerRep, p.latencyMS
		e.TokensPerSecond, e.TokensPerSecondBasis = p.rpsPerRep*r.TokensOut, BasisEndToEnd
	}
	e.TokensPerSecondPerGPU = e.TokensPerSecond / float64(tp)
	return e, nil
}
