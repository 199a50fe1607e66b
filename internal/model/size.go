package model

import (
	"fmt"
	"math"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// Assumptions the first-cut model makes where the scenario is silent. Each
// is reported in the notes of the directions that use it.
const (
	defaultMFU        = 0.40 // within the 44–52 % Narayanan et al. (2021, Table 1) report for large dense training on A100, rounded down for smaller jobs
	memoryHeadroom    = 0.80 // usable fraction of GPU memory after activations, buffers and fragmentation (estimate)
	adamBytesPerParam = 16   // mixed-precision Adam: 2 weights + 2 gradients + 12 optimizer (Rajbhandari et al. 2020, ZeRO §3)
	kvBytes           = 2    // KV cache kept at 16 bit
	hoursPerMonth     = 730  // 8,760 h ÷ 12
	defaultStorageGBs = 1.0  // GB/s from storage to compute when data.storage_gbps is not given (estimate)
	perFileSeconds    = 0.005
	maxBatch          = 256
)

// bytesPerParam is the storage size of one weight at a precision.
func bytesPerParam(precision string) float64 {
	switch precision {
	case "fp32":
		return 4
	case "fp8", "int8":
		return 1
	case "int4":
		return 0.5
	}
	return 2
}

// size is the work of one run, independent of where it runs.
type size struct {
	name         string
	paramsB      float64 // total parameters, billions
	activeB      float64 // parameters used per token (mixture of experts), billions
	layers       int
	kvHeads      int
	headDim      int
	factor       float64 // k in k·P·D
	flops        float64 // per run
	tokens       float64 // per run
	runsPerMonth float64
	stateGB      float64 // accelerator memory the run needs in total
	weightsGB    float64
	mfu          float64
	precision    string
	serving      bool
	peakRPS      float64
	meanRPS      float64
	tokensIn     float64
	tokensOut    float64
	latencyMS    float64
	outputGB     float64
	stagingGB    float64
	files        float64
	storageGBs   float64
	notes        []string
}

// sizeWorkload resolves the model and computes FLOPs, tokens and memory.
func sizeWorkload(s *scenario.Scenario, cat *catalog.Catalog) (*size, error) {
	w := s.Workload
	z := &size{precision: w.Precision, mfu: w.MFU.Or(defaultMFU), runsPerMonth: w.RunsPerMonth.Or(1)}
	m := w.Model
	if m.Preset != "" {
		p, ok := cat.Model(m.Preset)
		if !ok {
			return nil, scenario.Errors{{Path: "workload.model.preset", Problem: fmt.Sprintf("%q is not in the catalog", m.Preset), Allowed: join(cat.IDs("models"))}}
		}
		z.name, z.paramsB, z.activeB = p.Name, p.ParamsB, p.ActiveParamsB
		z.layers, z.kvHeads, z.headDim = p.Layers, p.KVHeads, p.HeadDim
	}
	if m.ParamsB > 0 {
		z.paramsB, z.activeB = m.ParamsB, m.ParamsB
		if z.name == "" {
			z.name = fmt.Sprintf("custom %.3g B", m.ParamsB)
		}
	}
	if m.ActiveParamsB > 0 {
		z.activeB = m.ActiveParamsB
	}
	if m.Layers > 0 {
		z.layers = m.Layers
	}
	if m.KVHeads > 0 {
		z.kvHeads = m.KVHeads
	}
	if m.HeadDim > 0 {
		z.headDim = m.HeadDim
	}
	if !w.MFU.IsSet() {
		z.notes = append(z.notes, fmt.Sprintf("MFU %.0f %% assumed (Narayanan et al. 2021 report 44–52 %% for large dense training); set workload.mfu from a trial", defaultMFU*100))
	}
	P := z.paramsB * 1e9
	A := z.activeB * 1e9

	switch w.Shape {
	case scenario.ShapeTraining, scenario.ShapeFineTuning:
		if m.GFLOPsPerItem > 0 {
			// Non-LLM work: the user gives forward+backward GFLOPs per item.
			z.name = fmt.Sprintf("custom (%.3g GFLOPs per item)", m.GFLOPsPerItem)
			z.factor = 1
			z.flops = m.GFLOPsPerItem * 1e9 * w.ItemsPerRunM.Or(0) * 1e6
			grad := m.GradientGB
			if grad == 0 {
				grad = 1
				z.notes = append(z.notes, "gradient size 1 GB assumed (set workload.model.gradient_gb)")
			}
			z.stateGB = grad / 2 * adamBytesPerParam // gradients are 2 bytes per parameter
			break
		}
		z.tokens = w.TokensPerRunB.Or(0) * 1e9
		switch w.Method {
		case "lora", "qlora":
			// Frozen base: forward (2·P) and the backward pass through the
			// activations (2·P), but no weight gradients (another 2·P in the
			// 6·P·D count of Kaplan et al. 2020) — so ≈ 4·P·D (Hu et al. 2021,
			// LoRA §4.2: no gradients or optimizer state for frozen weights).
			z.factor = 4
			base := 2.0
			if w.Method == "qlora" {
				base = 0.5 // 4-bit NormalFloat base weights (Dettmers et al. 2023)
			}
			// Adapters ≈ 1 % of the parameters, with full Adam state (estimate).
			z.stateGB = P*base/1e9 + 0.01*P*adamBytesPerParam/1e9
		default:
			// Training compute C = 6·P·D (Kaplan et al. 2020, §2.1) with P the
			// parameters active per token.
			z.factor = 6
			z.stateGB = P * adamBytesPerParam / 1e9
		}
		z.flops = z.factor * A * z.tokens
		z.weightsGB = P * 2 / 1e9
	case scenario.ShapeBatch:
		// Inference ≈ 2·P FLOPs per token (Kaplan et al. 2020, Table 1).
		z.factor = 2
		z.tokens = w.TokensPerRunB.Or(0) * 1e9
		z.flops = 2 * A * z.tokens
		z.weightsGB = P * bytesPerParam(w.Precision) / 1e9
		z.stateGB = z.weightsGB / memoryHeadroom
	case scenario.ShapeInteractive:
		t := w.Traffic
		z.serving = true
		z.factor = 2
		z.peakRPS, z.meanRPS = t.PeakRPS.Or(0), t.MeanRPS.Or(0)
		z.tokensIn, z.tokensOut = t.TokensIn.Or(0), t.TokensOut.Or(0)
		z.latencyMS = t.LatencyTargetMS.Or(0)
		z.runsPerMonth = 1 // a run is a month of service
		z.tokens = z.meanRPS * (z.tokensIn + z.tokensOut) * hoursPerMonth * 3600
		z.flops = 2 * A * z.tokens
		z.weightsGB = P * bytesPerParam(w.Precision) / 1e9
		z.stateGB = z.weightsGB / memoryHeadroom
		if z.layers == 0 || z.kvHeads == 0 || z.headDim == 0 {
			return nil, scenario.Errors{{Path: "workload.model", Problem: "interactive inference needs layers, kv_heads and head_dim for the KV cache", Allowed: "a catalog preset or all three numbers"}}
		}
	}
	if z.flops <= 0 && !z.serving {
		return nil, scenario.Errors{{Path: "workload", Problem: "describes no work (zero FLOPs per run)", Allowed: "tokens_per_run_b with a model, or items_per_run_m with gflops_per_item"}}
	}

	d := s.Data
	z.outputGB = d.OutputGB.Or(0)
	z.stagingGB = d.VolumeGB.Or(0)
	z.files = d.FileCount.Or(0)
	z.storageGBs = d.StorageGBps.Or(defaultStorageGBs)
	if !d.StorageGBps.IsSet() {
		z.notes = append(z.notes, fmt.Sprintf("storage throughput %.0f GB/s assumed (set data.storage_gbps)", defaultStorageGBs))
	}
	return z, nil
}

// stagingHours is the time to copy data to compute storage: volume over
// throughput plus a per-file overhead, because many small files cost more
// than their bytes (seed: "millions of very small files can create more
// overhead"). The 5 ms per file is an estimate.
func (z *size) stagingHours(gb float64) float64 {
	return (gb/z.storageGBs + z.files*perFileSeconds) / 3600
}

// minGPUs is the smallest GPU count whose memory holds the run's state when
// it is sharded evenly across GPUs (ZeRO stage 3 for training; tensor
// parallel for inference), keeping memoryHeadroom of each GPU.
func (z *size) minGPUs(g catalog.GPU) int {
	return max(1, int(math.Ceil(z.stateGB/(g.MemoryGB*memoryHeadroom))))
}

// computeHours is the elapsed time of the run's FLOPs on n GPUs of type g,
// at the achieved throughput X = peak × MFU (Narayanan et al. 2021). The
// first cut assumes linear scaling; communication and the serial part come
// with the scaling model.
func (z *size) computeHours(g catalog.GPU, n int) float64 {
	x := g.PeakTFLOPs(z.precision) * 1e12 * z.mfu
	return z.flops / (float64(n) * x) / 3600
}

// serving sizes an interactive service on GPU g: a replica is tp GPUs that
// hold the weights plus the KV cache of its batch. Decode is memory-bound:
// one step reads the weights and the batch's KV cache once; prefill is
// compute-bound (DESIGN.md, Serving). The batch is the largest that meets the
// latency target.
type servingPlan struct {
	tp, batch, replicas int
	stepMS, rpsPerRep   float64
	ok                  bool
	why                 string
}

func (z *size) serve(g catalog.GPU) servingPlan {
	tp := z.minGPUs(g)
	ctx := z.tokensIn + z.tokensOut
	kvPerSeq := 2 * float64(z.layers*z.kvHeads*z.headDim) * kvBytes * ctx / 1e9 // GB; 2 = keys and values
	bw := g.BandwidthGBs
	compute := g.PeakTFLOPs(z.precision) * 1e12 * z.mfu
	A := z.activeB * 1e9
	budgetMS := math.Inf(1)
	if z.latencyMS > 0 {
		budgetMS = z.latencyMS
	}
	best := servingPlan{tp: tp}
	for ; tp <= 64; tp *= 2 {
		free := float64(tp)*g.MemoryGB*memoryHeadroom - z.weightsGB
		for b := 1; b <= maxBatch; b++ {
			if float64(b)*kvPerSeq > free {
				break
			}
			stepS := math.Max((z.weightsGB+float64(b)*kvPerSeq)/(bw*float64(tp)), 2*A*float64(b)/(compute*float64(tp)))
			prefillS := 2 * A * z.tokensIn / (compute * float64(tp))
			latencyMS := (prefillS + z.tokensOut*stepS) * 1000
			if latencyMS > budgetMS {
				break
			}
			rps := float64(b) / (prefillS*float64(b) + z.tokensOut*stepS)
			if rps > best.rpsPerRep {
				best = servingPlan{tp: tp, batch: b, stepMS: stepS * 1000, rpsPerRep: rps, ok: true}
			}
		}
		if best.ok {
			break
		}
	}
	if !best.ok {
		best.why = fmt.Sprintf("no batch on up to 64 × %s meets the %.0f ms latency target", g.ID, z.latencyMS)
		return best
	}
	best.replicas = max(1, int(math.Ceil(z.peakRPS/best.rpsPerRep)))
	return best
}

func join(xs []string) string {
	out := ""
	for i, x := range xs {
		if i > 0 {
			out += ", "
		}
		out += x
	}
	return out
}
