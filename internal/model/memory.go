package model

import "hostplan/internal/catalog"

// Memory assumptions (estimates, reported in notes where they matter).
const (
	gpuOverheadGB   = 2.0  // CUDA context, communication buffers and workspace per GPU
	usableFraction  = 0.90 // share of GPU memory usable before fragmentation bites
	adapterFraction = 0.01 // LoRA adapters ≈ 1 % of the base parameters (Hu et al. 2021 use far less; 1 % is a generous rank)
)

// stateBytes is the per-GPU model-state memory for Ψ parameters trained with
// mixed-precision Adam — 2 bytes of fp16/bf16 weights, 2 of gradients and 12
// of optimizer state (fp32 master weights, momentum, variance) — sharded over
// n data-parallel GPUs as in ZeRO (Rajbhandari et al. 2020, §5 and Figure 1):
//
//	replicated 16Ψ, stage 1 4Ψ + 12Ψ/n, stage 2 2Ψ + 14Ψ/n, stage 3 16Ψ/n.
func stateBytes(psi float64, sharding string, n int) float64 {
	N := float64(n)
	switch sharding {
	case "replicated":
		return 16 * psi
	case "zero1":
		return 4*psi + 12*psi/N
	case "zero2":
		return 2*psi + 14*psi/N
	}
	return 16 * psi / N
}

// activationBytes is the activation memory of one GPU holding a micro-batch
// of b sequences of s tokens through L layers of width h, in 16 bit.
// Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
// Transformer Models", §4) give 34·s·b·h bytes per layer when the attention
// core is recomputed (selective recomputation, as flash-attention kernels do);
// with full recomputation only each layer's input (2·s·b·h) is kept, plus one
// layer's full activations while it is recomputed.
func activationBytes(s, b, h, L int, recompute bool) float64 {
	sbh := float64(s) * float64(b) * float64(h)
	if recompute {
		return float64(L)*2*sbh + 34*sbh
	}
	return float64(L) * 34 * sbh
}

// statePerGPU is the model-state memory (GB) of one training GPU whose
// copy of the model is split over shards GPUs (tensor × pipeline
// parallel: each holds 1/shards of the parameters) and sharded over n
// data-parallel copies as configured: weights, gradients and optimizer
// state.
func (z *size) statePerGPU(shards, n int) float64 {
	N := float64(n)
	if z.items {
		// Non-LLM: the gradient size gives the parameter count (2 bytes each).
		return stateBytes(z.gradBytes/2, z.sharding, n) / 1e9
	}
	P := z.paramsB * 1e9 / float64(max(shards, 1))
	switch z.method {
	case "lora", "qlora":
		base := 2.0
		if z.method == "qlora" {
			base = 0.5 // 4-bit NormalFloat base (Dettmers et al. 2023)
		}
		w := P * base
		if z.sharding == "zero3" {
			w /= N
		}
		return (w + stateBytes(adapterFraction*P, z.sharding, n)) / 1e9
	}
	return stateBytes(P, z.sharding, n) / 1e9
}

// activationsGB is the activation memory of one training GPU of layout l;
// unknown (0) for non-LLM work, where the usable-memory margin has to
// cover it. With tensor and sequence parallelism every activation is
// split tp ways (Korthikanti et al. 2022, §4.2.2: 34·s·b·h/t per layer);
// under 1F1B the first stage holds its ⌈L/pp⌉ layers for up to pp
// micro-batches in flight (min(pp, m); ibid. §4.2.3, Narayanan et al.
// 2021, §2.2.1), and the interleaved schedule of v chunks
// 1 + (pp−1)/(pp·v) times that (Korthikanti et al. 2022, §4.2.3). One GPU with no model parallelism keeps L layers of one
// micro-batch: activationBytes.
func (z *size) activationsGB(l layout) float64 {
	if z.items {
		return 0
	}
	tp := max(l.tp, 1)
	layers := (z.layers + max(l.pp, 1) - 1) / max(l.pp, 1)
	inFlight := float64(min(max(l.pp, 1), max(l.micro, 1)))
	if v := z.virtualStages(l.pp); v > 1 {
		inFlight *= 1 + float64(l.pp-1)/float64(l.pp*v)
	}
	sbh := float64(z.seqLen) * float64(z.microBatch) * float64(z.hidden)
	if z.recompute {
		return (float64(layers)*inFlight*2*sbh + 34*sbh) / float64(tp) / 1e9
	}
	return float64(layers) * inFlight * 34 * sbh / float64(tp) / 1e9
}

// memPerGPU is the memory one GPU needs, in GB, when the run is spread over
// n GPUs. Training takes the layout of n GPUs (tensor parallel within a
// node of 8) that needs the least: model state split and sharded, and each
// GPU's activations (layoutMemGB); inference splits the weights n ways
// (tensor parallel) and the KV cache of kvSeqs sequences with them.
func (z *size) memPerGPU(n int, kvSeqs int) float64 {
	n = max(n, 1)
	if z.training {
		return z.layoutMemGB(z.leastMemory(n, maxTensorParallel))
	}
	return (z.weightsGB+float64(kvSeqs)*z.kvPerSeqGB())/float64(n) + gpuOverheadGB
}

// kvPerSeqGB is the KV cache of one sequence at full context:
// 2 (keys and values) · layers · kv_heads · head_dim · bytes · context
// (DESIGN.md, Memory); for batch inference with no split given, the
// context it assumes (batchSplit).
func (z *size) kvPerSeqGB() float64 {
	ctx := z.tokensIn + z.tokensOut
	if ctx == 0 && z.inferBatch() {
		ctx = defaultBatchContext
	}
	return z.kvBytesAt(ctx) / 1e9
}

// kvBytesAt is the KV cache of one sequence at ctx tokens of context: a
// windowed layer keeps no more than its window (local attention of span
// W caches the last W tokens; chunked attention at most one chunk), the
// others every token — kvPerToken at a context with no window.
func (z *size) kvBytesAt(ctx float64) float64 {
	return z.kvPerLayerToken() * z.layersOver(ctx)
}

// layersOver is the layers × tokens a sequence of ctx tokens keeps or
// attends over in each layer: the full context in every layer that is not
// windowed, at most the window in those that are (Beltagy et al. 2020,
// "Longformer", §3.1: local attention of window w costs O(n·w); Gemma 3
// technical report, 2025, §2.1: five local layers of span 1,024 to one
// global layer cut the KV cache at 32k tokens from some 60 % of the
// memory to under 15 %).
func (z *size) layersOver(ctx float64) float64 {
	w, W := z.windowed()
	return float64(z.layers-w)*ctx + float64(w)*min(ctx, W)
}

// windowed is the layers that attend over a window and the window's
// tokens; 0 layers when the model has none.
func (z *size) windowed() (layers int, window float64) {
	if z.window <= 0 || z.windowLayers <= 0 {
		return 0, 0
	}
	return min(z.windowLayers, z.layers), float64(z.window)
}

// kvPerToken is the bytes one token adds to the KV cache: per layer, the
// keys and values of its KV heads, 2 · kv_heads · head_dim values (fewer
// KV than query heads under grouped-query attention; Ainslie et al.
// 2023), or the compressed latent of multi-head latent attention
// (kv_latent_dim values: DeepSeek-V3's kv_lora_rank 512 and its decoupled
// RoPE key of 64; DeepSeek-AI 2024, §2.1.1); at the cache's precision.
func (z *size) kvPerToken() float64 {
	return float64(z.layers) * z.kvPerLayerToken()
}

// kvPerLayerToken is the bytes one token adds to one layer's KV cache
// (kvPerToken).
func (z *size) kvPerLayerToken() float64 {
	perLayer := 2 * float64(z.kvHeads*z.headDim)
	if z.kvLatent > 0 {
		perLayer = float64(z.kvLatent)
	}
	return perLayer * z.kvBytes
}

// kvReadPerSeqGB is the KV cache one decode step reads for one sequence,
// on average over its output: the context grows from the prompt to the
// full length, so a step reads the prompt and half the output. Memory
// must hold the full context (kvPerSeqGB); the time of a step follows
// what it reads.
// A batch that gives no split reads at the split it assumes (batchSplit).
func (z *size) kvReadPerSeqGB() float64 {
	return z.kvBytesAt(z.contextRead()) / 1e9
}

// fits reports whether n GPUs of type g hold the run.
func (z *size) fits(g catalog.GPU, n, kvSeqs int) bool {
	return z.memPerGPU(n, kvSeqs) <= g.MemoryGB*usableFraction
}

// minGPUs is the smallest GPU count on g that holds the run, or 0 when no
// count up to maxCount does (replicated state never shrinks). Training
// may split the model over a node of 8 (minTrainGPUs).
func (z *size) minGPUs(g catalog.GPU, maxCount int) int {
	if maxCount <= 0 {
		maxCount = maxTableGPUs
	}
	if z.training {
		return z.minTrainGPUs(g, maxCount, maxTensorParallel)
	}
	// Memory per GPU never grows with n, so a binary search finds the first fit.
	if !z.fits(g, maxCount, 1) {
		return 0
	}
	lo, hi := 1, maxCount
	for lo < hi {
		mid := (lo + hi) / 2
		if z.fits(g, mid, 1) {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// totalStateGB is the accelerator memory the run's model state (training)
// or weights (inference) needs in all, before sharding: memory_needed_gb.
func (z *size) totalStateGB() float64 {
	if z.training {
		return z.statePerGPU(1, 1)
	}
	return z.weightsGB
}
