package model

import (
	"math"
	"slices"

	"hostplan/internal/catalog"
)

// hardware is what one direction offers the run.
type hardware struct {
	gpu        catalog.GPU
	perNode    int     // GPUs per node
	intraGBs   float64 // per-GPU link bandwidth inside a node (NVLink or PCIe), GB/s
	netGBs     float64 // per-GPU bandwidth between nodes, GB/s
	storageGBs float64 // read throughput from storage to the job, GB/s
	maxGPUs    int     // 0: no stated limit
}

// busGBs is the all-reduce bus bandwidth inside a node of GPU g whose
// link carries linkGBs per GPU: the bus bandwidth nccl-tests measures for
// the GPU (catalog allreduce_bus_gbs; 450 GB/s for H100 where NVLink's
// 900 GB/s counts both directions), at most the link's; with none
// measured, half the link figure, which counts both directions.
func busGBs(g catalog.GPU, linkGBs float64) float64 {
	if g.AllReduceBusGBs > 0 {
		return math.Min(g.AllReduceBusGBs, linkGBs)
	}
	return linkGBs / 2
}

func (hw hardware) limit() int {
	if hw.maxGPUs <= 0 {
		return maxTableGPUs
	}
	return min(hw.maxGPUs, maxTableGPUs)
}

// stepParts is one optimizer step (or one batch step for inference) on n GPUs.
type stepParts struct {
	compute, comm, serial, data, total float64 // seconds
	bubble                             float64 // seconds the pipeline's stages stand idle (1F1B)
	decode                             float64 // seconds of compute that are memory-bound decode (batch inference)
}

// steps is the number of steps in one run.
func (z *size) steps() float64 {
	return math.Max(1, z.work/z.batchWork)
}

// allReduceSeconds is the time of a ring all-reduce of S bytes over n GPUs
// at bus bandwidth B: t = (S/B) · 2(n−1)/n (nccl-tests doc/PERFORMANCE.md,
// the busbw factor). ZeRO stage 3 moves 1.5× the data of plain data
// parallelism — a reduce-scatter plus two all-gathers, 3Ψ instead of 2Ψ
// (Rajbhandari et al. 2020, §7).
func allReduceSeconds(bytes, busGBs float64, n int, sharding string) float64 {
	if n <= 1 || bytes == 0 {
		return 0
	}
	N := float64(n)
	t := bytes / (busGBs * 1e9) * 2 * (N - 1) / N
	if sharding == "zero3" {
		t *= 1.5
	}
	return t
}

// step is the step time on n GPUs (DESIGN.md, Scaling): the parallel
// compute divided by n, plus the exposed communication (no overlap with
// the backward pass is assumed: conservative), plus the serial part
// (Amdahl), floored by the time to read the step's input from storage.
// Training takes the fastest layout of n GPUs that fits memory
// (bestLayout, parallel.go): its tensor-parallel all-reduces, pipeline
// sends and bubble, and the data-parallel all-reduce of the gradients at
// the intra-node bus bandwidth (busGBs) while n fits in one node and at
// the network bandwidth beyond.
//
// Batch inference is not all compute: its output tokens are decoded, a
// memory-bound step per token (batchSeconds).
func (z *size) step(hw hardware, n int) stepParts {
	if z.training {
		l, _ := z.bestLayout(hw, n)
		return z.layoutStep(hw, l)
	}
	N := float64(n)
	st := z.stepperOn(&hw) // one step on one GPU, and the storage read
	one := st.one
	decode := 0.0
	if z.inferBatch() {
		perToken, dec := z.batchSecondsOn(hw, n)
		one = perToken * z.work / z.steps()
		decode = dec * z.work / z.steps()
	}
	var p stepParts
	p.compute = (1 - z.serialFraction) * one / N
	p.decode = (1 - z.serialFraction) * decode / N
	p.serial = z.serialFraction * one
	p.data = st.data
	p.total = math.Max(p.compute+p.comm+p.serial, p.data)
	return p
}

func (p stepParts) bottleneck() Bottleneck {
	if p.data >= p.compute+p.comm+p.bubble+p.serial {
		return BottleneckDataPath
	}
	// A pipeline's bubble is time spent waiting on other stages: it
	// counts with the communication.
	switch math.Max(p.compute, math.Max(p.comm+p.bubble, p.serial)) {
	case p.comm + p.bubble:
		return BottleneckCommunication
	case p.serial:
		return BottleneckSerial
	}
	if p.decode > p.compute/2 {
		return BottleneckMemoryBandwidth // most of the compute time is memory-bound decode
	}
	return BottleneckCompute
}

// curve evaluates the run on n GPUs of a direction: the analytic step model,
// or the fitted USL when the scenario's trial ran on this GPU type.
type curve struct {
	z   *size
	hw  hardware
	usl *Fit
	pin *layout // a training layout held fixed (Monte Carlo draws), or nil
}

// stepAt is the step on n GPUs: the pinned layout's when there is one.
func (c curve) stepAt(n int) stepParts {
	if c.pin != nil && c.z.training && c.pin.gpus() == n {
		return c.z.layoutStep(c.hw, *c.pin)
	}
	return c.z.step(c.hw, n)
}

// layoutAt is the training layout on n GPUs and whether it fits memory.
func (c curve) layoutAt(n int) (layout, bool) {
	if c.pin != nil && c.pin.gpus() == n {
		return *c.pin, c.z.fitsLayout(c.hw.gpu, *c.pin)
	}
	return c.z.bestLayout(c.hw, n)
}

// at returns the scaling point for n GPUs (time to result is compute only).
func (c curve) at(n int) ScalingPoint {
	pt, _ := c.point(n, c.oneStep())
	return pt
}

// oneStep is the step time on one GPU, the base of every point's speedup
// (0 on a fitted curve, which does not use it).
func (c curve) oneStep() float64 {
	if c.usl != nil {
		return 0
	}
	return c.z.step(c.hw, 1).total
}

// point is the scaling point for n GPUs given the one-GPU step t1, and
// for training the layout it took: each point searches the layouts once
// (layoutAt), and its step is that layout's.
func (c curve) point(n int, t1 float64) (ScalingPoint, layout) {
	z := c.z
	pt := ScalingPoint{GPUs: n}
	var l layout
	if z.training {
		l, pt.Fits = c.layoutAt(n)
	} else {
		pt.Fits = z.fits(c.hw.gpu, n, 1)
	}
	if c.usl != nil {
		// Measured throughput X(n) in work units per second (Gunther's USL).
		x := c.usl.Throughput(float64(n))
		pt.StepSeconds = z.batchWork / x
		pt.ComputeSeconds = pt.StepSeconds
		pt.Speedup = x / c.usl.Throughput(1)
		pt.TimeToResultHours = z.work / x / 3600
		pt.Bottleneck = BottleneckMeasured
		if n > 1 && pt.Speedup/float64(n) < z.threshold {
			pt.Bottleneck = BottleneckCommunication
			if c.usl.Sigma > c.usl.Kappa*float64(n) {
				pt.Bottleneck = BottleneckSerial
			}
		}
	} else {
		// The layout found above is the one stepAt would search again.
		var p stepParts
		if z.training {
			p = z.layoutStep(c.hw, l)
		} else {
			p = z.step(c.hw, n)
		}
		pt.StepSeconds, pt.ComputeSeconds, pt.CommSeconds = p.total, p.compute, p.comm
		pt.SerialSeconds, pt.DataSeconds, pt.BubbleSeconds = p.serial, p.data, p.bubble
		pt.Speedup = t1 / p.total
		pt.TimeToResultHours = z.steps() * p.total / 3600
		pt.Bottleneck = p.bottleneck()
	}
	pt.Efficiency = math.Min(1, pt.Speedup/float64(n))
	if !pt.Fits {
		pt.Bottleneck = BottleneckMemoryCapacity
	}
	return pt, l
}

// hours is the compute time of one run on n GPUs: at(n).TimeToResultHours
// without the rest of the point (the Monte Carlo's fast path).
func (c curve) hours(n int) float64 {
	if c.usl != nil {
		return c.z.work / c.usl.Throughput(float64(n)) / 3600
	}
	return c.z.steps() * c.stepAt(n).total / 3600
}

// table returns the curve at 1, 2, 4, … up to the direction's limit, with
// extra counts (the chosen one) merged in.
func (c curve) table(extra ...int) []ScalingPoint {
	return c.tableWith(c.oneStep(), ScalingPoint{}, extra...)
}

// tableWith is table with the one-GPU step t1 found once, and known, a
// point already computed (GPUs 0: none), taken as it is.
func (c curve) tableWith(t1 float64, known ScalingPoint, extra ...int) []ScalingPoint {
	var ns []int
	for n := 1; n <= c.hw.limit(); n *= 2 {
		ns = append(ns, n)
	}
	for _, n := range extra {
		if n > 0 && !slices.Contains(ns, n) {
			ns = append(ns, n)
		}
	}
	slices.Sort(ns)
	out := make([]ScalingPoint, len(ns))
	for i, n := range ns {
		if n == known.GPUs {
			out[i] = known
			continue
		}
		out[i], _ = c.point(n, t1)
	}
	return out
}

// maxEfficient is the largest n in the table whose efficiency is at least
// the threshold.
func maxEfficient(table []ScalingPoint, threshold float64) int {
	best := 0
	for _, p := range table {
		if p.Efficiency >= threshold && p.GPUs > best {
			best = p.GPUs
		}
	}
	return best
}
