package model

import "math"

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
// and doing its FLOPs (2·A per sequence), plus its tensor-parallel
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
	mem := (z.weightsGB/P + seqs*z.kvReadPerSeqGB()/P) / (g.BandwidthGBs * T)
	comp := 2 * z.activeB * 1e9 / P * seqs / (z.achieved(g) * T)
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

// prefill is the time of one request's prefill on a replica: 2·A FLOPs
// per input token over the tp GPUs of each stage, plus two all-reduces
// per layer of the prompt's activations; the latency passes every stage
// in turn, and with pp stages working on pp requests at once a replica
// finishes one every latency/pp (throughput).
func (z *size) prefill(hw hardware, tp, pp int) (latency, throughput float64) {
	pp = max(pp, 1)
	act := z.tokensIn * z.hiddenSize() * 2
	latency = 2*z.activeB*1e9*z.tokensIn/(z.achieved(hw.gpu)*float64(tp)) +
		2*float64(z.layers)*ringAllReduce(act, z.tpLink(hw, tp), tp) + float64(pp-1)*sendSeconds(act, hw.netLink())
	return latency, latency / float64(pp)
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
	best := servingPlan{tp: G, pp: 1}
	for ; G <= 64; G *= 2 {
		for _, sh := range servingShapes(hw, G) {
			for b := 1; b <= maxBatch; b++ {
				if !z.fits(g, G, b) {
					break
				}
				p := z.servePlan(hw, sh[0], sh[1], b)
				if p.latencyMS > budgetMS {
					break
				}
				if p.rpsPerRep > best.rpsPerRep {
					best = p
				}
			}
		}
		if best.ok {
			break
		}
	}
	if !best.ok {
		best.fail = ReasonLatencyTargetMissed
		return best
	}
	best.replicas, best.capped = replicasFor(z.peakRPS, best.rpsPerRep)
	best.meanReplicas, _ = replicasFor(z.meanRPS, best.rpsPerRep)
	return best
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
