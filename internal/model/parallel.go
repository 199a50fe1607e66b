package model

import (
	"math"

	"hostplan/internal/catalog"
)

// Parallel layouts. A training run on n GPUs is split n = tp · pp · dp
// ways: tensor parallelism (Megatron-LM, Shoeybi et al. 2019) inside a
// node, whose GPUs each hold 1/tp of every layer and all-reduce the
// activations of each layer over the node's bus; pipeline parallelism
// (Narayanan et al. 2021), whose pp stages each hold 1/pp of the layers
// and pass activations to the next stage, running m micro-batches per
// optimizer step under the interleaved 1F1B schedule — each stage holding
// v chunks of layers (virtualStages) — with a bubble of
// (pp−1)/(v·m+pp−1) of the pipeline's time; and data parallelism over the
// dp copies of that, sharded as the scenario says (ZeRO), its gradient
// all-reduce overlapped with the backward pass (dpExposed). The planner
// takes, at each
// GPU count, the layout with the shortest step among those that fit
// memory (bestLayout).
//
// A serving replica of G GPUs is tensor parallel inside a node; when it
// needs more than a node it is either tensor parallel over the fabric or
// a pipeline of one stage per node, whichever serves more requests
// (serve).

// layout is one way of splitting a run over GPUs.
type layout struct {
	tp, pp, dp int
	micro      int     // micro-batches per optimizer step in each pipeline (m); 1 for serving
	bubble     float64 // share of the pipeline's time its stages stand idle: (pp−1)/(v·m+pp−1)
}

func (l layout) gpus() int { return l.tp * l.pp * l.dp }

// report is the layout as the report shows it.
func (l layout) report() *Layout {
	return &Layout{Tensor: l.tp, Pipeline: l.pp, Data: l.dp, MicroBatches: l.micro, Bubble: l.bubble}
}

// maxTensorParallel caps tp: Megatron keeps tensor parallelism inside a
// node of 8 GPUs, where its per-layer all-reduces run over NVLink
// (Narayanan et al. 2021, §3.3 and Takeaway #1).
const maxTensorParallel = 8

// NCCL's own latency model for a ring all-reduce with its low-latency
// protocol: a base latency plus a latency per step of the ring, 2(n−1)
// steps for n GPUs (NVIDIA NCCL, src/graph/tuning.cc: baseLat ring LL
// 3.6 µs; hwLat ring LL 0.47 µs over NVLink, 1.0 µs over PCIe, 2.7 µs
// over the network). Recent releases raise the base to 6.6 µs and
// NVLink's step to 0.6 µs; the model keeps the lower figures, so if
// anything it understates communication. Small messages — the
// activations of one decode step — are bound by these latencies, not by
// bandwidth.
const (
	ncclBaseLatencyS = 3.6e-6
	ncclHopNVLinkS   = 0.47e-6
	ncclHopPCIeS     = 1.0e-6
	ncclHopNetS      = 2.7e-6
	// pcieLinkGBs: a node whose GPU link is slower than this has no
	// NVLink — its GPUs talk over PCIe (Gen5 x16: 64 GB/s each way).
	pcieLinkGBs = 100
)

// link is how a group of GPUs exchanges data: the all-reduce bus
// bandwidth (GB/s) and the latency of one step of the ring.
type link struct {
	busGBs float64
	hopS   float64
}

// intraLink is the link among GPUs of one node: the measured all-reduce
// bus bandwidth (busGBs) and NVLink's or PCIe's latency.
func (hw hardware) intraLink() link {
	bw := hw.intraGBs
	if bw <= 0 {
		bw = hw.gpu.AllReduceBusGBs * 2 // not given: the measured bus is all there is
	}
	l := link{busGBs: busGBs(hw.gpu, bw), hopS: ncclHopNVLinkS}
	if bw < pcieLinkGBs || (hw.gpu.AllReduceBusGBs > 0 && hw.gpu.AllReduceBusGBs < pcieLinkGBs/2) {
		l.hopS = ncclHopPCIeS
	}
	return l
}

// pointLink is the link a point-to-point transfer between two GPUs of a
// node uses (a pipeline send, an expert all-to-all): the link itself,
// not the all-reduce bus intraLink gives.
func (hw hardware) pointLink() link {
	l := hw.intraLink()
	l.busGBs = math.Max(l.busGBs, hw.intraGBs)
	return l
}

// netLink is the link among GPUs of different nodes: each GPU's share of
// the fabric.
func (hw hardware) netLink() link { return link{busGBs: hw.netGBs, hopS: ncclHopNetS} }

// ringAllReduce is the time of a ring all-reduce of bytes over n GPUs:
// NCCL's latency plus the bytes over the bus bandwidth times 2(n−1)/n
// (nccl-tests doc/PERFORMANCE.md). A link with no bandwidth given moves
// nothing in finite time: +Inf, which rules the layout out.
func ringAllReduce(bytes float64, l link, n int) float64 {
	if n <= 1 {
		return 0
	}
	if l.busGBs <= 0 {
		return math.Inf(1)
	}
	N := float64(n)
	return ncclBaseLatencyS + 2*(N-1)*l.hopS + bytes/(l.busGBs*1e9)*2*(N-1)/N
}

// sendSeconds is one point-to-point send of bytes between pipeline stages.
func sendSeconds(bytes float64, l link) float64 {
	if l.busGBs <= 0 {
		return math.Inf(1)
	}
	return ncclBaseLatencyS + l.hopS + bytes/(l.busGBs*1e9)
}

// hiddenSize is the model width: given, or estimated from the parameters
// as a dense transformer has about 12·L·h² of them (Kaplan et al. 2020,
// §2.1).
func (z *size) hiddenSize() float64 {
	if z.hidden > 0 {
		return float64(z.hidden)
	}
	if z.layers <= 0 {
		return 0
	}
	return math.Sqrt(z.paramsB * 1e9 / (12 * float64(z.layers)))
}

// seqsPerStep is the sequences of one optimizer step.
func (z *size) seqsPerStep() float64 {
	return z.batchWork / float64(max(z.seqLen, 1))
}

// microBatches is m for dp data-parallel pipelines: the step's sequences
// over dp·b, at least 1; and the share of a micro-batch each pipeline
// really has (below 1 when there are fewer sequences than pipelines:
// the GPUs then wait on a part-empty micro-batch).
func (z *size) microBatches(dp int) (m int, fill float64) {
	raw := z.seqsPerStep() / float64(dp*max(z.microBatch, 1))
	if z.items || raw >= 1 {
		return max(1, int(raw)), 1
	}
	return 1, raw
}

// defaultVirtualStages is the number of model chunks each pipeline stage
// holds under the interleaved 1F1B schedule (Narayanan et al. 2021,
// §2.2.2: the bubble falls from (p−1)/m to (p−1)/(v·m) of the busy time,
// for v times the pipeline's sends). 8 is what NVIDIA's own Llama 3.1
// 405B recipe on H100 uses (NVIDIA/dgxc-benchmarking, llama3.1/README.md:
// TP 8, PP 8, VP 8, 126 layers); Meta trained Llama 3 405B with an
// interleaved schedule too (Dubey et al. 2024, §3.3.2), and its
// published throughput fits a v of about 6: 430 TFLOP/s per GPU with 32
// micro-batches per pipeline against 400 with 16 (ibid. Table 4) is a
// bubble of 0.16 at m = 16, 15/(16 v).
const defaultVirtualStages = 8

// virtualStages is v for a pipeline of pp stages: defaultVirtualStages,
// but each chunk holds at least one layer (at most ⌊layers/pp⌋); 1
// without pipeline parallelism.
func (z *size) virtualStages(pp int) int {
	if pp <= 1 || z.layers <= 0 {
		return 1
	}
	return max(1, min(defaultVirtualStages, z.layers/pp))
}

// newLayout completes a training layout with its micro-batches and bubble.
func (z *size) newLayout(tp, pp, dp int) layout {
	m, _ := z.microBatches(dp)
	v := z.virtualStages(pp)
	return layout{tp: tp, pp: pp, dp: dp, micro: m, bubble: float64(pp-1) / float64(v*m+pp-1)}
}

// layouts are the training layouts of n GPUs with tp at most maxTP (a
// node): tp and pp powers of two dividing n, tp dividing the attention
// heads, pp at most the layers. Non-LLM work is data parallel only.
func (z *size) layouts(n, maxTP int, buf *[maxShapes + 1]layout) []layout {
	out := append(buf[:0], z.newLayout(1, 1, max(n, 1)))
	var shapes [maxShapes][2]int
	for _, s := range z.shapes(n, maxTP, &shapes) {
		if n%(s[0]*s[1]) == 0 {
			out = append(out, z.newLayout(s[0], s[1], n/(s[0]*s[1])))
		}
	}
	return out
}

// maxShapes bounds the shapes: tp in 2^0…2^3 (a node of 8), pp in
// 2^0…2^16 — more than any model's layers.
const maxShapes = 4 * 17

// shapes are the model-parallel shapes (tp, pp) beyond (1, 1) with
// tp·pp at most n GPUs, in buf: tp and pp powers of two, tp at most maxTP
// (a node) and dividing the attention heads, pp at most the layers.
// Non-LLM work has none: it is data parallel only. Evaluations call it
// for every GPU count of every scaling table, so it allocates nothing.
func (z *size) shapes(n, maxTP int, buf *[maxShapes][2]int) [][2]int {
	if z.items || n <= 1 {
		return nil
	}
	out := buf[:0]
	for tp := 1; tp <= min(maxTP, maxTensorParallel, n); tp *= 2 {
		if z.heads > 0 && z.heads%tp != 0 {
			break
		}
		for pp := 1; tp*pp <= n && pp <= z.layers && len(out) < cap(out); pp *= 2 {
			if tp > 1 || pp > 1 {
				out = append(out, [2]int{tp, pp})
			}
		}
	}
	return out
}

// layoutMemGB is the memory one GPU of a training layout needs: model
// state split over the tp·pp GPUs that share a copy of the model and
// sharded as configured over the dp copies, the activations of its stage,
// and the overhead.
func (z *size) layoutMemGB(l layout) float64 {
	return z.statePerGPU(l.tp*l.pp, l.dp) + z.activationsGB(l) + gpuOverheadGB
}

// fitsLayout reports whether a training layout fits GPU g.
func (z *size) fitsLayout(g catalog.GPU, l layout) bool {
	return z.layoutMemGB(l) <= g.MemoryGB*usableFraction
}

// leastMemory is the layout of n GPUs (tp up to maxTP) that needs the
// least memory per GPU.
func (z *size) leastMemory(n, maxTP int) layout {
	var buf [maxShapes + 1]layout
	ls := z.layouts(n, maxTP, &buf)
	best := ls[0]
	for _, l := range ls[1:] {
		if z.layoutMemGB(l) < z.layoutMemGB(best) {
			best = l
		}
	}
	return best
}

// memOn is the least memory per GPU the run needs on n GPUs of hw: for
// training, in the layout that needs the least there.
func (z *size) memOn(hw hardware, n int) float64 {
	if z.training {
		return z.layoutMemGB(z.leastMemory(n, hw.perNode))
	}
	return z.memPerGPU(n, 1)
}

// bestLayout is the layout of n GPUs on hw with the shortest step among
// those that fit memory, and whether any fits; when none does, the plain
// data-parallel layout (whose figures then show the gap).
func (z *size) bestLayout(hw hardware, n int) (layout, bool) {
	k := layoutKey{gpu: hw.gpu.ID, perNode: hw.perNode, intraGBs: hw.intraGBs, netGBs: hw.netGBs, storageGBs: hw.storageGBs, n: n}
	for _, f := range z.layoutsFound {
		if f.layoutKey == k {
			return f.l, f.ok
		}
	}
	l, ok := z.searchLayout(hw, n)
	z.layoutsFound = append(z.layoutsFound, layoutFound{k, l, ok})
	return l, ok
}

// layoutKey is what bestLayout's answer depends on besides the run: the
// GPU (one figure per id within an evaluation, whose catalog is fixed),
// the node, its links and its storage, and the count. Directions on the same hardware
// — hybrid's on-premises part and its burst, the on-premises direction —
// ask the same questions.
type layoutKey struct {
	gpu                          string
	perNode                      int
	intraGBs, netGBs, storageGBs float64
	n                            int
}

// layoutFound is one answer of bestLayout, kept for the size's lifetime.
type layoutFound struct {
	layoutKey
	l  layout
	ok bool
}

// searchLayout is bestLayout without the memo.
func (z *size) searchLayout(hw hardware, n int) (layout, bool) {
	z.searches++
	var buf [maxShapes + 1]layout
	ls := z.layouts(n, hw.perNode, &buf)
	st := z.stepperOn(&hw)
	best, bestT, ok := ls[0], math.Inf(1), false
	for _, l := range ls {
		if !z.fitsLayout(hw.gpu, l) {
			continue
		}
		if t := st.step(l).total; t < bestT {
			best, bestT, ok = l, t, true
		}
	}
	return best, ok
}

// minTrainGPUs is the fewest training GPUs (up to maxCount) that hold the
// run in some layout with tp at most maxTP, or 0. Memory per GPU never
// grows with dp, so for each tp and pp a binary search finds the fewest
// data-parallel copies.
func (z *size) minTrainGPUs(g catalog.GPU, maxCount, maxTP int) int {
	k := minKey{memGB: g.MemoryGB, maxCount: maxCount, maxTP: maxTP}
	for _, m := range z.mins {
		if m.minKey == k {
			return m.n
		}
	}
	n := z.searchMinTrainGPUs(g, maxCount, maxTP)
	z.mins = append(z.mins, minFound{k, n})
	return n
}

// minKey is what minTrainGPUs depends on besides the run: the memory of
// one GPU (fitsLayout reads no other figure of it) and the two limits.
type minKey struct {
	memGB           float64
	maxCount, maxTP int
}

// minFound is one answer of minTrainGPUs, kept for the size's lifetime:
// the directions, the GPU fits and the estimates ask the same questions.
type minFound struct {
	minKey
	n int
}

// searchMinTrainGPUs is minTrainGPUs without the memo.
func (z *size) searchMinTrainGPUs(g catalog.GPU, maxCount, maxTP int) int {
	best := 0
	var buf [maxShapes + 1][2]int
	buf[0] = [2]int{1, 1}
	shapes := append(buf[:1], z.shapes(maxCount, maxTP, (*[maxShapes][2]int)(buf[1:]))...)
	for _, s := range shapes {
		tp, pp := s[0], s[1]
		shape := tp * pp
		hiDP := maxCount / shape
		if best > 0 {
			// Only fewer GPUs than the best so far would change the answer.
			hiDP = min(hiDP, (best-1)/shape)
		}
		if hiDP < 1 {
			continue
		}
		if !z.fitsLayout(g, z.newLayout(tp, pp, hiDP)) {
			continue
		}
		lo, hi := 1, hiDP
		for lo < hi {
			mid := (lo + hi) / 2
			if z.fitsLayout(g, z.newLayout(tp, pp, mid)) {
				hi = mid
			} else {
				lo = mid + 1
			}
		}
		if n := lo * shape; best == 0 || n < best {
			best = n
		}
	}
	return best
}

// layoutStep is one optimizer step of a training layout on hw:
//
//   - compute: the step's FLOPs over the n GPUs at X = peak × MFU, no
//     less than one whole micro-batch per pipeline;
//   - tensor-parallel all-reduces: 4 per layer per micro-batch (2 in the
//     forward pass, 2 in the backward; Shoeybi et al. 2019, §3 and
//     Figure 4), 6 with full recomputation, each of the s·b·h 16-bit
//     activations over the node's bus (with sequence parallelism they are
//     a reduce-scatter and an all-gather of the same volume; Korthikanti
//     et al. 2022, §4.2.2);
//   - pipeline sends: each micro-batch's activations forward and their
//     gradients back, s·b·h·2/tp bytes per GPU (Narayanan et al. 2021,
//     §4.1), over the fabric when the pipeline spans nodes, once per
//     model chunk: v times under the interleaved schedule (ibid. §2.2.2);
//   - the interleaved 1F1B bubble: (pp−1)/(v·m) of the stages' busy time
//     (Narayanan et al. 2021, §2.2.2; plain 1F1B is v = 1, §2.2.1);
//   - the data-parallel all-reduce of each GPU's gradients, 1/(tp·pp) of
//     them (allReduceSeconds), less what the backward pass hides
//     (dpExposed).
//
// The tensor-parallel all-reduces and pipeline sends are counted in full:
// they sit on the critical path of every layer and stage.
func (z *size) layoutStep(hw hardware, l layout) stepParts {
	st := z.stepperOn(&hw)
	return st.step(l)
}

// stepper holds what layoutStep reads of a run on one kind of hardware
// that is the same for every layout and costs the most to find (the
// one-GPU step reads the MFU table): a layout search makes it once and
// times each layout with it.
type stepper struct {
	z    *size
	hw   *hardware
	one  float64 // one step on one GPU, seconds
	data float64 // the step's read from storage, seconds (0: not limited)
}

// stepperOn is the stepper of the run on hw.
func (z *size) stepperOn(hw *hardware) stepper {
	st := stepper{z: z, hw: hw, one: z.flops / z.steps() / z.achieved(hw.gpu)}
	if hw.storageGBs > 0 {
		st.data = z.dataReadGB / z.steps() / hw.storageGBs
	}
	return st
}

// step is layoutStep of layout l.
func (st *stepper) step(l layout) stepParts {
	z, hw := st.z, st.hw
	n := l.gpus()
	N := float64(n)
	var p stepParts
	_, fill := z.microBatches(l.dp)
	p.compute = (1 - z.serialFraction) * st.one / N / fill
	p.serial = z.serialFraction * st.one
	m := float64(l.micro)
	if !z.items && (l.tp > 1 || l.pp > 1) {
		act := float64(z.seqLen) * float64(max(z.microBatch, 1)) * z.hiddenSize() * 2 // bytes of one layer's activations
		perLayer := 4.0
		if z.recompute {
			perLayer = 6
		}
		stageLayers := math.Ceil(float64(z.layers) / float64(l.pp))
		tpComm := perLayer * stageLayers * ringAllReduce(act, hw.intraLink(), l.tp)
		send := 0.0
		if l.pp > 1 {
			lk := hw.pointLink()
			if l.tp*l.pp > hw.perNode {
				lk = hw.netLink()
			}
			send = 2 * float64(z.virtualStages(l.pp)) * sendSeconds(act/float64(l.tp), lk)
		}
		p.comm = m * (tpComm + send)
		p.bubble = (p.compute + p.comm) * float64(l.pp-1) / (float64(z.virtualStages(l.pp)) * m)
	}
	if z.training {
		bw := busGBs(hw.gpu, hw.intraGBs)
		if n > hw.perNode {
			bw = hw.netGBs
		}
		grads := z.gradBytes
		if ep := z.expertParallel(l); ep > 1 {
			// Each GPU holds 1/ep of the experts: their gradients are
			// exchanged only among the dp/ep copies of the same experts.
			x := z.expertShare()
			grads *= 1 - x + x/float64(ep)
			p.comm += m * z.allToAllSeconds(*hw, l, ep)
		}
		p.comm += z.dpExposed(allReduceSeconds(grads/float64(l.tp*l.pp), bw, l.dp, z.sharding), p.compute, m)
	}
	p.data = st.data
	p.total = math.Max(p.compute+p.comm+p.bubble+p.serial, p.data)
	return p
}

// dpExposed is the part of a data-parallel gradient exchange of dpS
// seconds that the compute does not hide, for a step whose compute per
// GPU is compute seconds over m micro-batches. The published systems
// overlap it: Megatron-LM's --overlap-grad-reduce starts each bucket's
// reduce-scatter (or all-reduce) as soon as the last micro-batch's
// backward pass has produced its gradients (Megatron-Core
// DistributedDataParallelConfig.overlap_grad_reduce), as PyTorch DDP does
// on its last accumulation step (Li et al. 2020, PyTorch Distributed,
// §3.2.3); so the window is the backward pass — two thirds of the
// training FLOPs, 2·P of 6·P per token (Kaplan et al. 2020) — of one
// micro-batch. ZeRO-3 (FSDP) also gathers the parameters of every layer
// ahead of its use in the forward and backward passes of every
// micro-batch (FSDP forward and backward prefetch; Zhao et al. 2023,
// PyTorch FSDP, §3.3.3), so its exchange hides behind the whole step's
// compute. What the window cannot hold is exposed.
func (z *size) dpExposed(dpS, compute, m float64) float64 {
	window := compute * 2 / 3 / math.Max(m, 1)
	if z.sharding == "zero3" {
		window = compute
	}
	return math.Max(0, dpS-window)
}

// expertParallel is the expert-parallel degree of a training layout of
// a mixture of experts: the routed experts spread over the data-parallel
// copies, as many as divide both (GShard, Lepikhin et al. 2020, §2.2;
// DeepSeek-V3 trains with 64-way expert parallelism over 8 nodes,
// DeepSeek-AI 2024, §3.2); 1 for a dense model.
func (z *size) expertParallel(l layout) int {
	if z.expertShare() == 0 || l.dp <= 1 {
		return 1
	}
	ep := 1
	for ep*2 <= l.dp && l.dp%(ep*2) == 0 && z.experts%(ep*2) == 0 {
		ep *= 2
	}
	return ep
}

// allToAllSeconds is one micro-batch's expert all-to-all on a training
// layout: in every MoE layer each token's activations go to the GPUs of
// its k experts and come back (dispatch and combine), in the forward and
// the backward pass — 4 all-to-alls a layer of the micro-batch's tokens
// × k × hidden 16-bit values, of which (ep−1)/ep leave the GPU (Lepikhin
// et al. 2020, §2.2) — in each layer with experts (expertLayers) of the
// stage. Over the node's links when the ep GPUs share a node,
// else over the fabric, with NCCL's per-peer latency. The tokens are the
// micro-batch's share of this GPU (its tensor-parallel group splits the
// sequence).
func (z *size) allToAllSeconds(hw hardware, l layout, ep int) float64 {
	tokens := float64(z.seqLen*max(z.microBatch, 1)) / float64(max(l.tp, 1))
	bytes := tokens * float64(z.expertsK) * z.hiddenSize() * 2 * float64(ep-1) / float64(ep)
	lk := hw.pointLink()
	if ep*l.tp*l.pp > hw.perNode {
		lk = hw.netLink()
	}
	layers := math.Ceil(float64(z.expertLayers()) / float64(max(l.pp, 1)))
	return 4 * layers * (bytes/(lk.busGBs*1e9) + float64(ep-1)*lk.hopS)
}

// expertLayers is the layers of a mixture of experts that route tokens to
// experts: moe_layers, or every layer when it is not given (DeepSeek-V3's
// first 3 of 61 and Llama 4 Maverick's alternate layers are dense).
func (z *size) expertLayers() int {
	if z.moeLayers > 0 {
		return z.moeLayers
	}
	return z.layers
}
