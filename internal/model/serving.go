package model

import (
	"hostplan/internal/catalog"
	"math"
)

// Serving: an interactive service sized on a direction's hardware — the
// replica's layout, its decode step and prefill, the batch and the replicas
// the load needs.

// servingPlan sizes an interactive service on a direction's hardware: a
// replica is tp × pp GPUs that hold the weights plus the KV cache of its
// batch. Decode is memory-bound: one step reads the weights and the
// batch's KV cache once; prefill is compute-bound (DESIGN.md, Serving);
// tensor parallelism adds two all-reduces per layer to both. The batch is
// the largest that meets the latency target.
type servingPlan struct {
	tp, pp, batch     int
	replicas          int // for the peak load
	meanReplicas      int // for the mean load
	stepMS, rpsPerRep float64
	tokensPerSecond   float64 // output tokens/s per replica
	latencyMS         float64
	memoryBound       bool
	ok                bool
	capped            bool // replicas is maxReplicas: the load needs more
	// fail says why no plan serves the load when !ok:
	// ReasonWeightsDoNotFit or ReasonLatencyTargetMissed.
	fail ReasonCode
}

// gpus is the GPUs of one replica.
func (p servingPlan) gpus() int { return p.tp * max(p.pp, 1) }

// decodeStep is the time of one decode step for a batch of b on a replica
// of tp × pp GPUs of hw: pp stages (one per node), each with tp GPUs. The
// batch runs as k = min(pp, b) micro-batches in flight, so a step is pp
// stage times, a stage time of one micro-batch of b/k sequences being the
// larger of moving its share of the weights and KV cache through memory
// and doing its FLOPs (2·A per sequence and the attention over its
// context, attnLayerFLOPs over layersOver) — each at the share of its roof decode reaches
// (decodeBandwidthShare, decodeMFUShare) — plus its tensor-parallel
// all-reduces — 2 per layer of the micro-batch's b/k × hidden 16-bit
// activations (Shoeybi et al. 2019, §3) over the node's bus, or over the
// fabric when a tensor-parallel group spans nodes — plus the send to the
// next stage. One GPU, or tp in a node with pp = 1, is the plain
// roofline plus the all-reduces.
func (z *size) decodeStep(hw hardware, tp, pp, b int) (seconds float64, memoryBound bool) {
	g := hw.gpu
	pp = max(pp, 1)
	T, P := float64(tp), float64(pp)
	k := float64(min(pp, b))
	seqs := float64(b) / k
	mem := (z.weightsReadGB(seqs)/P + seqs*z.kvReadPerSeqGB()/P) / (g.BandwidthGBs * decodeBandwidthShare * T)
	comp := (2*z.activeB*1e9 + z.attnLayerFLOPs()*z.layersOver(z.contextRead())) / P * seqs / (z.achieved(g) * decodeMFUShare * T)
	act := seqs * z.hiddenSize() * 2
	stage := math.Max(mem, comp) + 2*math.Ceil(float64(z.layers)/P)*ringAllReduce(act, z.tpLink(hw, tp), tp)
	if pp > 1 {
		stage += sendSeconds(act, hw.netLink())
	}
	return P * stage, mem >= comp
}

// tpLink is the link of a tensor-parallel group of tp GPUs on hw: the
// node's, or the fabric's when the group spans nodes.
func (z *size) tpLink(hw hardware, tp int) link {
	if tp > hw.perNode {
		return hw.netLink()
	}
	return hw.intraLink()
}

// attnLayerFLOPs is the attention FLOPs of one query token against one
// cached token in one layer: the scores (q·k, 2·d_k per head) and the
// weighted values (2·d_v per head), d_k = d_v = head_dim, so 4 · heads ·
// head_dim a layer — heads · head_dim is the hidden size in the Llama
// family; the hidden size stands in when the heads are not given (Kaplan
// et al. 2020, Table 1: 2·n_layer·n_ctx·d_attn per token forward, per
// operand). Under multi-head latent attention every head attends over the
// cached latent (kv_latent_dim values) for its scores and values alike
// (DeepSeek-AI 2024, §2.1.1, the absorbed form used in decoding): 4 ·
// heads · kv_latent_dim a layer. The weights' 2·A FLOPs per token leave
// this out, which matters at long contexts: at 128k tokens it doubles a
// Llama 3.1 8B prefill. A windowed layer attends over its window only
// (layersOver, prefillPairs).
func (z *size) attnLayerFLOPs() float64 {
	perHead := 2 * float64(z.headDim) // d_k + d_v
	if z.kvLatent > 0 {
		perHead = 2 * float64(z.kvLatent)
	}
	width := float64(z.heads) * perHead
	if z.heads == 0 || perHead == 0 {
		width = 2 * z.hiddenSize()
	}
	return 2 * width
}

// prefillPairs is the (query, cached token) pairs a prefill of s prompt
// tokens attends over, summed over the layers: causally s²/2 in a layer
// that sees the whole context; in a windowed one each token sees at most
// the window W before it, s²/2 while s ≤ W and W·s − W²/2 beyond.
func (z *size) prefillPairs(s float64) float64 {
	w, W := z.windowed()
	windowed := s * s / 2
	if s > W {
		windowed = W*s - W*W/2
	}
	return float64(z.layers-w)*s*s/2 + float64(w)*windowed
}

// contextRead is the context one decode step attends over, on average over
// a request's output: the prompt and half the output (kvReadPerSeqGB).
func (z *size) contextRead() float64 {
	in, out := z.tokensIn, z.tokensOut
	if in+out == 0 && z.inferBatch() {
		in, out, _ = z.batchSplit()
	}
	return in + out/2
}

// prefillFLOPs is the FLOPs of a prefill of s prompt tokens: 2·A per
// token for the weights and, causally, each token attending over the
// ones before it: s²/2 pairs a layer (attnLayerFLOPs, prefillPairs).
func (z *size) prefillFLOPs(s float64) float64 {
	return 2*z.activeB*1e9*s + z.attnLayerFLOPs()*z.prefillPairs(s)
}

// prefill is the time of one request's prefill on a replica: its FLOPs
// (prefillFLOPs) over the tp GPUs of each stage, plus two all-reduces
// per layer of the prompt's activations; the latency passes every stage
// in turn, and with pp stages working on pp requests at once a replica
// finishes one every latency/pp (throughput).
func (z *size) prefill(hw hardware, tp, pp int) (latency, throughput float64) {
	pp = max(pp, 1)
	act := z.tokensIn * z.hiddenSize() * 2
	latency = z.prefillFLOPs(z.tokensIn)/(z.prefillRate(hw.gpu)*float64(tp)) +
		2*float64(z.layers)*ringAllReduce(act, z.tpLink(hw, tp), tp) + float64(pp-1)*sendSeconds(act, hw.netLink())
	return latency, latency / float64(pp)
}

// prefillRate is the FLOP/s one GPU of type g reaches in a prefill: the
// work's MFU times prefillMFUShare, at most the GPU's peak.
func (z *size) prefillRate(g catalog.GPU) float64 {
	return math.Min(z.achieved(g)*prefillMFUShare, g.PeakTFLOPs(z.precision)*1e12)
}

// servingShapes are the ways to lay out a replica of G GPUs on hw: tensor
// parallel when G fits a node; beyond a node, tensor parallel over the
// fabric, or a pipeline of G/perNode stages each tensor parallel inside
// its node.
func servingShapes(hw hardware, G int) [][2]int {
	if G <= hw.perNode || hw.perNode <= 0 || G%hw.perNode != 0 {
		return [][2]int{{G, 1}}
	}
	return [][2]int{{G, 1}, {hw.perNode, G / hw.perNode}}
}

// servePlan is the plan for a replica of tp × pp GPUs at batch b.
func (z *size) servePlan(hw hardware, tp, pp, b int) servingPlan {
	stepS, memBound := z.decodeStep(hw, tp, pp, b)
	preLat, preThr := z.prefill(hw, tp, pp)
	rps := float64(b) / (preThr*float64(b) + z.tokensOut*stepS)
	return servingPlan{tp: tp, pp: pp, batch: b, stepMS: stepS * 1000, rpsPerRep: rps, ok: true,
		tokensPerSecond: float64(b) / stepS, latencyMS: (preLat + z.tokensOut*stepS) * 1000, memoryBound: memBound}
}

func (z *size) serve(hw hardware) servingPlan {
	g := hw.gpu
	// Tensor-parallel degrees are powers of two so they divide the heads.
	G := nextPow2(z.minGPUs(g, 64))
	if G == 0 {
		return servingPlan{fail: ReasonWeightsDoNotFit}
	}
	budgetMS := math.Inf(1)
	if z.latencyMS > 0 {
		budgetMS = z.latencyMS
	}
	// Every replica size from the fewest GPUs that hold the weights up to
	// 64, each at the batch that serves the most requests within the
	// latency target; of those, the plan that needs the fewest GPUs for
	// the peak (then for the mean load, then the smaller replica). A
	// bigger replica has more memory for the KV cache and a faster step,
	// and can serve the load on fewer GPUs in all (at 128k tokens of
	// context, 2 replicas of 8 H200s where 10 of 2 meet the target).
	best := servingPlan{tp: G, pp: 1}
	for ; G <= 64; G *= 2 {
		if best.ok && best.replicas*best.gpus() <= G {
			break // a replica of G GPUs, or more, cannot use fewer in all
		}
		for _, sh := range servingShapes(hw, G) {
			top := z.largestBatch(hw, sh[0], sh[1], budgetMS)
			if !top.ok {
				continue
			}
			top.replicas, top.capped = replicasFor(z.peakRPS, top.rpsPerRep)
			top.meanReplicas, _ = replicasFor(z.meanRPS, top.rpsPerRep)
			if !best.ok || fewerGPUs(top, best) {
				best = top
			}
		}
	}
	if !best.ok {
		best.fail = ReasonLatencyTargetMissed
	}
	return best
}

// largestBatch is the plan of a replica of tp × pp GPUs at the largest
// batch (up to maxBatch) that fits memory and meets the latency budget,
// which serves the most requests: memory and latency only grow with the
// batch, and requests per second never fall with it. Not ok when not even
// one sequence does.
func (z *size) largestBatch(hw hardware, tp, pp int, budgetMS float64) servingPlan {
	ok := func(b int) bool {
		return z.fits(hw.gpu, tp*pp, b) && z.servePlan(hw, tp, pp, b).latencyMS <= budgetMS
	}
	if !ok(1) {
		return servingPlan{}
	}
	lo, hi := 1, maxBatch // ok(lo); find the largest
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if ok(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return z.servePlan(hw, tp, pp, lo)
}

// fewerGPUs reports whether plan a serves the load on fewer GPUs than b:
// at the peak, then at the mean; with no load given (both one replica),
// the one that serves more requests per GPU.
func fewerGPUs(a, b servingPlan) bool {
	ga, gb := a.replicas*a.gpus(), b.replicas*b.gpus()
	if ga != gb {
		return ga < gb
	}
	if ma, mb := a.meanReplicas*a.gpus(), b.meanReplicas*b.gpus(); ma != mb {
		return ma < mb
	}
	return a.rpsPerRep/float64(a.gpus()) > b.rpsPerRep/float64(b.gpus())
}

// nextPow2 rounds n ≥ 1 up to a power of two; 0 stays 0 (does not fit).
func nextPow2(n int) int {
	if n <= 0 {
		return 0
	}
	p := 1
	for p < n {
		p *= 2
	}
	return p
}

// servePinned evaluates a serving plan with the layout of a replica and
// the batch held fixed (Monte Carlo varies the traffic, not the plan).
func (z *size) servePinned(hw hardware, tp, pp, b int) servingPlan {
	p := z.servePlan(hw, tp, pp, b)
	p.replicas, p.capped = replicasFor(z.peakRPS, p.rpsPerRep)
	p.meanReplicas, _ = replicasFor(z.meanRPS, p.rpsPerRep)
	return p
}

// maxReplicas caps a replica count: far beyond any GPU limit (so the plan
// is ruled out), and small enough that replicas × the tensor-parallel
// degree (≤ 64) cannot overflow an int.
const maxReplicas = 1 << 30

// replicasFor is ⌈load ÷ perReplica⌉, at least 1, computed in floating
// point; a count above maxReplicas (or none at all, when perReplica is 0)
// comes back as maxReplicas with capped set.
func replicasFor(load, perReplica float64) (n int, capped bool) {
	x := math.Ceil(load / perReplica)
	if !(x <= maxReplicas) {
		return maxReplicas, true
	}
	return max(1, int(x)), false
}

// Decode runs below the datasheet's roofs: its memory traffic reaches
// decodeBandwidthShare of the GPU's bandwidth (kernels, paging of the KV
// cache, sampling and scheduling between steps) and its matrix products —
// at most a few hundred rows, one per sequence of the batch — run at
// decodeMFUShare of the work's MFU. Both are estimates fitted to NVIDIA's
// published TensorRT-LLM throughput (docs/source/performance/
// perf-overview.md, release 1.0: Llama 3.1 8B, 3.3 70B and 3.1 405B in
// FP8 on H100 and H200, 25 input/output lengths at maximum load) and the
// earlier static-batch tables (docs/source/performance.md, v0.5–v0.6.1:
// Llama 2 7B on H100, L40S and A100; Llama 2 70B on 4 × A100): with them
// every one of the 29 cases is within ±32 % (TestPublishedServing…);
// with neither, decode-heavy cases came out up to 62 % too fast.
//
// A prefill's matrix products are the opposite case — the whole prompt at
// once, thousands of rows — and run at prefillMFUShare of the work's MFU
// (0.56 with the default 0.40), at most the peak: fitted to the same
// tables, where prefill-heavy cases (2,048 in and 128 out, 5,000 in and
// 500 out) came out 15–28 % slow at the plain MFU and come out within
// ±5 % with it (the tables' root-mean-square log error 0.18 → 0.11).
const (
	decodeBandwidthShare = 0.80
	decodeMFUShare       = 0.75
	prefillMFUShare      = 1.4
)

// expertShare is the share of a mixture of experts' parameters in its
// routed experts, 0 for a dense model: with E experts a layer of which k
// serve each token, total P = shared + E·e and active A = shared + k·e,
// so the experts hold E·(P − A)/(E − k) (DeepSeek-V3: 256 experts, 8 a
// token, 671 B and 37 B — 95 % of the weights in its experts).
func (z *size) expertShare() float64 {
	E, k := float64(z.experts), float64(z.expertsK)
	if z.experts <= 0 || z.expertsK <= 0 || E <= k || z.paramsB <= z.activeB {
		return 0
	}
	return math.Min(1, E*(z.paramsB-z.activeB)/(E-k)/z.paramsB)
}

// expertsTouched is the expected share of a layer's routed experts that
// seqs tokens use together, each choosing k of E (routing taken as
// uniform): 1 − (1 − k/E)^seqs. One token reads k/E of them; a batch of
// 256 on DeepSeek-V3 reads nearly all.
func (z *size) expertsTouched(seqs float64) float64 {
	if z.expertShare() == 0 {
		return 1
	}
	return 1 - math.Pow(1-float64(z.expertsK)/float64(z.experts), seqs)
}

// weightsReadGB is the weights one decode step of seqs sequences reads:
// all of a dense model's; of a mixture of experts, the shared weights and
// the experts the batch's tokens use (expertsTouched).
func (z *size) weightsReadGB(seqs float64) float64 {
	x := z.expertShare()
	return z.weightsGB * (1 - x + x*z.expertsTouched(seqs))
}
