package model

import (
	"fmt"
	"math"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// The hours of a month (8,760 h ÷ 12) and the time to stage one file, as
// the cost identity counts them.
const (
	hoursPerMonth  = costid.HoursPerMonth
	perFileSeconds = costid.PerFileSeconds
)

// Assumptions the model makes where the scenario is silent. Each is reported
// in the report's warnings or a direction's notes where it is used; the
// exported ones are the defaults of scenario fields, which the fields'
// help (package present) states from these constants.
const (
	DefaultMFU            = 0.40 // inference and non-LLM work: within the 44–52 % Narayanan et al. (2021, Table 1) report for large dense training on A100, rounded down for smaller jobs; training by size, GPU class and method (mfu.go)
	DefaultStorageGBps    = 1.0  // GB/s from the source storage when data.storage_gbps is not given (estimate)
	maxBatch              = MaxBatch
	DefaultSequenceLength = 4096
	// MaxBatch is the most sequences a replica decodes together: vLLM's
	// default max_num_seqs (vLLM engine arguments).
	MaxBatch = 256
	// Llama 2 and 3 pre-training used global batches of about 4 M tokens
	// (Touvron et al. 2023, §2.2); fine-tuning runs use far smaller ones.
	DefaultTrainingBatchTokens   = 1 << 22
	DefaultFineTuningBatchTokens = 1 << 17
	DefaultBatchInferenceTokens  = 1 << 20
	DefaultBatchItems            = 256
	DefaultEfficiencyThreshold   = 0.70
	DefaultMicroBatch            = 1 // sequences per GPU and micro-step
	DefaultEpochs                = 1 // passes over the data per run
	maxTableGPUs                 = 4096
)

// kvCacheBytes is the bytes of one cached key or value: the scenario's
// workload.kv_cache_precision, or by default 1 when the work runs in FP8
// — TensorRT-LLM's FP8 engines keep an FP8 KV cache (--fp8_kv_cache in
// every FP8 build of its published performance tables, NVIDIA
// TensorRT-LLM docs/source/performance.md, v0.6.1) — and 2 otherwise.
func kvCacheBytes(kv, precision string) float64 {
	switch {
	case kv == "fp8", kv == "" && precision == "fp8":
		return 1
	}
	return 2
}

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
	name                 string
	preset               string  // the catalog model the work runs, "" when none or the scenario changes its figures
	paramsB, activeB     float64 // total and per-token (mixture of experts) parameters, billions
	layers, hidden       int
	heads                int
	kvHeads, headDim     int
	kvLatent             int     // values cached per token and layer by compressed attention (0: 2 × kv_heads × head_dim)
	window, windowLayers int     // windowed attention: the tokens a windowed layer attends over, and how many layers are windowed (0, 0: none)
	experts, expertsK    int     // a mixture of experts' routed experts per layer and those a token uses (0: dense)
	moeLayers            int     // the layers with experts (0: every layer)
	kvBytes              float64 // bytes per cached value: workload.kv_cache_precision
	factor               float64 // k in k·P·D
	flops                float64 // per run
	tokens               float64 // per run
	items                bool    // non-LLM work counted in items
	work                 float64 // tokens or items per run: what a trial's throughput measures
	runsPerMonth         float64
	weightsGB            float64
	mfu                  float64 // the scenario's, or DefaultMFU (training: mfuFor)
	mfuSet               bool    // the scenario gives workload.mfu
	precision            string
	training             bool
	method               string
	sharding             string
	recompute            bool
	seqLen, microBatch   int
	batchWork            float64 // tokens or items per optimizer step
	gradBytes            float64 // gradient bytes all-reduced per step
	serialFraction       float64
	threshold            float64
	dataReadGB           float64 // bytes read from storage during one run
	serving              bool
	peakRPS, meanRPS     float64
	tokensIn, tokensOut  float64
	latencyMS            float64
	outputGB             float64
	stagingGB            float64
	files                float64
	sourceGBs            float64
	location             string        // data.location: where the data lives ("" unstated)
	searches             int           // layout searches made (bestLayout), which TestOneLayoutSearchPerPoint counts
	mins                 []minFound    // minTrainGPUs' answers so far
	layoutsFound         []layoutFound // bestLayout's answers so far
	uplinkGBs            float64       // the site's uplink in GB/s (data.uplink_gbit_s ÷ 8); 0: no limit
	trial                []Point       // the trial's points (full evaluations only)
	hasTrial             bool          // the scenario gives trial points
	trialGPU             string
	notes                []Note // warnings about the whole workload (none in a quiet evaluation)
}

// sizeWorkload resolves the model and computes FLOPs, tokens and memory.
// dst, when not nil, is filled instead of a new size (the Monte Carlo
// reuses one per worker).
func sizeWorkload(s *scenario.Scenario, cat *catalog.Catalog, quiet bool, dst *size) (*size, error) {
	w := s.Workload
	z := dst
	if z == nil {
		z = new(size)
	}
	mins, found := z.mins[:0], z.layoutsFound[:0]
	*z = size{mins: mins, layoutsFound: found, precision: w.Precision, mfu: w.MFU.Or(DefaultMFU), mfuSet: w.MFU.IsSet(), runsPerMonth: w.RunsPerMonth.Or(1),
		method: w.Method, sharding: w.Sharding, recompute: w.Recompute,
		seqLen: w.SequenceLength, microBatch: w.MicroBatch, serialFraction: w.SerialFraction.Or(0),
		threshold: w.EfficiencyThreshold.Or(DefaultEfficiencyThreshold), trialGPU: w.TrialGPU}
	m := w.Model
	if m.Preset != "" {
		p, ok := cat.Model(m.Preset)
		if !ok {
			return nil, scenario.Errors{{Path: "workload.model.preset", Problem: fmt.Sprintf("%q is not in the catalog", m.Preset), Allowed: strings.Join(cat.IDs(catalog.KindModel), ", ")}}
		}
		z.takeModel(p)
	}
	// A preset the scenario changes any figure of (workload.model's
	// numbers beside the preset) is no longer the preset.
	changed := m.Preset != "" && (m.ParamsB > 0 && m.ParamsB != z.paramsB || m.ActiveParamsB > 0 && m.ActiveParamsB != z.activeB ||
		m.Layers > 0 && m.Layers != z.layers || m.HiddenSize > 0 && m.HiddenSize != z.hidden ||
		m.KVHeads > 0 && m.KVHeads != z.kvHeads || m.HeadDim > 0 && m.HeadDim != z.headDim ||
		m.Heads > 0 && m.Heads != z.heads || m.KVLatentDim > 0 && m.KVLatentDim != z.kvLatent ||
		m.SlidingWindow > 0 && m.SlidingWindow != z.window || m.WindowLayers > 0 && m.WindowLayers != z.windowLayers ||
		m.Experts > 0 && m.Experts != z.experts || m.ExpertsPerToken > 0 && m.ExpertsPerToken != z.expertsK ||
		m.MoELayers > 0 && m.MoELayers != z.moeLayers)
	if m.ParamsB > 0 {
		z.paramsB, z.activeB = m.ParamsB, m.ParamsB
		if z.name == "" {
			z.name = "custom"
			if !quiet {
				z.name = fmt.Sprintf("custom %.3g B", m.ParamsB)
			}
		}
	}
	if m.ActiveParamsB > 0 {
		z.activeB = m.ActiveParamsB
	}
	preset := z.name
	for _, f := range []struct {
		v   int
		dst *int
	}{{m.Layers, &z.layers}, {m.HiddenSize, &z.hidden}, {m.Heads, &z.heads}, {m.KVHeads, &z.kvHeads}, {m.HeadDim, &z.headDim}, {m.KVLatentDim, &z.kvLatent},
		{m.SlidingWindow, &z.window}, {m.WindowLayers, &z.windowLayers},
		{m.Experts, &z.experts}, {m.ExpertsPerToken, &z.expertsK}, {m.MoELayers, &z.moeLayers}} {
		if f.v > 0 {
			*f.dst = f.v
		}
	}
	if err := z.windowSound(); err != nil {
		return nil, err
	}
	if !changed {
		z.preset = m.Preset
	}
	if changed {
		// The report names the model as derived from the preset.
		z.name = "custom"
		if !quiet {
			z.name = fmt.Sprintf("custom %.3g B derived from %s", z.paramsB, preset)
		}
	}
	if z.trialGPU != "" {
		if _, ok := cat.GPU(z.trialGPU); !ok {
			return nil, scenario.Errors{{Path: "workload.trial_gpu", Problem: fmt.Sprintf("%q is not in the catalog", z.trialGPU), Allowed: strings.Join(cat.IDs(catalog.KindGPU), ", ")}}
		}
		// A quiet evaluation uses the pinned fit and never the points:
		// they are not copied into every draw.
		z.hasTrial = len(w.Trial) > 0
		if !quiet {
			z.trial = trialPoints(w)
		}
	}
	if z.sharding == "" {
		z.sharding = "zero3"
	}
	z.kvBytes = kvCacheBytes(w.KVCachePrecision, w.Precision)
	if z.seqLen == 0 {
		z.seqLen = DefaultSequenceLength
	}
	if z.microBatch == 0 {
		z.microBatch = DefaultMicroBatch
	}
	A := z.activeB * 1e9
	P := z.paramsB * 1e9
	epochs := w.Epochs.Or(DefaultEpochs)

	switch w.Shape {
	case scenario.ShapeTraining, scenario.ShapeFineTuning:
		z.training = true
		if m.GFLOPsPerItem > 0 {
			// Non-LLM work: the user gives forward+backward GFLOPs per item.
			if !quiet {
				z.name = fmt.Sprintf("custom (%.3g GFLOPs per item)", m.GFLOPsPerItem)
			}
			z.items = true
			z.factor = 1
			z.work = w.ItemsPerRunM.Or(0) * 1e6
			z.flops = m.GFLOPsPerItem * 1e9 * z.work
			z.gradBytes = m.GradientGB * 1e9
			if m.GradientGB == 0 {
				z.gradBytes = 1e9
				if !quiet {
					z.notes = append(z.notes, newNote(NoteGradientSizeAssumed, []string{"workload.model.gradient_gb"},
						"gradient size 1 GB assumed (give the size of the gradients exchanged per step)"))
				}
			}
			z.batchWork = float64(orInt(w.GlobalBatchItems, DefaultBatchItems))
			break
		}
		if z.layers == 0 || z.hidden == 0 {
			return nil, scenario.Errors{{Path: "workload.model", Problem: "training needs layers and hidden_size for the activation memory", Allowed: "a catalog preset, or layers and hidden_size with params_b"}}
		}
		z.tokens = w.TokensPerRunB.Or(0) * 1e9
		z.work = z.tokens
		switch w.Method {
		case "lora", "qlora":
			// Frozen base: forward (2·P) and the backward pass through the
			// activations (2·P), but no weight gradients (another 2·P in the
			// 6·P·D count of Kaplan et al. 2020) — so ≈ 4·P·D (Hu et al. 2021,
			// LoRA §4.2: no gradients or optimizer state for frozen weights).
			z.factor = 4
			z.gradBytes = adapterFraction * P * 2
		default:
			// Training compute C = 6·P·D (Kaplan et al. 2020, §2.1), with P
			// the parameters active per token; full activation recomputation
			// adds a forward pass: 8·P·D (Narayanan et al. 2021, §5.1).
			z.factor = 6
			z.gradBytes = P * 2 // 16-bit gradients
		}
		if z.recompute {
			z.factor += 2
		}
		z.flops = z.factor * A * z.tokens
		z.weightsGB = P * 2 / 1e9
		def := DefaultTrainingBatchTokens
		if w.Shape == scenario.ShapeFineTuning {
			def = DefaultFineTuningBatchTokens
		}
		z.batchWork = float64(orInt(w.GlobalBatchTokens, def))
	case scenario.ShapeBatch:
		// Inference ≈ 2·P FLOPs per token (Kaplan et al. 2020, Table 1).
		z.factor = 2
		z.tokens = w.TokensPerRunB.Or(0) * 1e9
		z.work = z.tokens
		z.flops = 2 * A * z.tokens
		z.weightsGB = P * bytesPerParam(w.Precision) / 1e9
		z.batchWork = float64(orInt(w.GlobalBatchTokens, DefaultBatchInferenceTokens))
		if t := w.Traffic; t != nil {
			// The split between input and output tokens per item: it
			// prices managed tokens and divides prefill from decode.
			z.tokensIn, z.tokensOut = t.TokensIn.Or(0), t.TokensOut.Or(0)
		}
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
		if z.layers == 0 || z.kvLatent == 0 && (z.kvHeads == 0 || z.headDim == 0) {
			return nil, scenario.Errors{{Path: "workload.model", Problem: "interactive inference needs layers, kv_heads and head_dim (or kv_latent_dim) for the KV cache", Allowed: "a catalog preset or those numbers"}}
		}
	}
	if !w.MFU.IsSet() && !quiet {
		z.notes = append(z.notes, newNote(NoteMFUAssumed, []string{"workload.mfu"}, z.mfuWords()))
	}
	if _, _, assumed := z.batchSplit(); z.inferBatch() && assumed && !quiet {
		z.notes = append(z.notes, newNote(NoteTokenSplitAssumed, []string{"workload.traffic.tokens_in", "workload.traffic.tokens_out"},
			fmt.Sprintf("batch items of %d input and %d output tokens assumed for prefill, decode and the KV cache (give the tokens in and out per item)", defaultBatchContext/2, defaultBatchContext/2)))
	}
	if z.flops <= 0 && !z.serving {
		return nil, scenario.Errors{{Path: "workload", Problem: "describes no work (zero FLOPs per run)", Allowed: "tokens_per_run_b with a model, or items_per_run_m with gflops_per_item"}}
	}

	d := s.Data
	z.outputGB = d.OutputGB.Or(0)
	z.stagingGB = d.VolumeGB.Or(0)
	z.dataReadGB = z.stagingGB * epochs
	z.files = d.FileCount.Or(0)
	z.sourceGBs = d.StorageGBps.Or(DefaultStorageGBps)
	z.location = d.Location
	z.uplinkGBs = d.UplinkGbitS.Or(0) / 8 // 8 bits a byte
	if !d.StorageGBps.IsSet() && !quiet {
		z.notes = append(z.notes, newNote(NoteStorageAssumed, []string{"data.storage_gbps"},
			fmt.Sprintf("source storage throughput %.0f GB/s assumed for staging (give the throughput of the storage the data comes from)", DefaultStorageGBps)))
	}
	return z, nil
}

// trialPoints are the throughputs measured on workload.trial_gpu, none
// when no trial GPU is named.
func trialPoints(w scenario.Workload) []Point {
	if w.TrialGPU == "" {
		return nil
	}
	out := make([]Point, 0, len(w.Trial))
	for _, p := range w.Trial {
		out = append(out, Point{N: float64(p.GPUs), X: p.Throughput})
	}
	return out
}

func orInt(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// stagingOver is the time to copy gb GB to compute storage over a path of
// gbs GB/s: volume over throughput plus a per-file overhead, because many
// small files cost more than their bytes (seed: "millions of very small
// files can create more overhead"). The 5 ms per file is an estimate.
func (z *size) stagingOver(gb, gbs float64) float64 {
	return (gb/gbs + z.files*perFileSeconds) / 3600
}

// stagingPath is how data living at from reaches compute at to: moved
// says whether it is copied at all (not when it already lives there), gbs
// the throughput of the copy, uplink whether the site's uplink limits it.
// With the location unstated every direction stages from the source
// storage, as before model 0.7.0. A copy that leaves or enters the site
// goes no faster than the slower of the source storage and the uplink: a
// transfer's throughput is its narrowest link's (the bottleneck bandwidth
// of a path; Jain & Dovrolis 2002, "End-to-end available bandwidth").
func (z *size) stagingPath(from, to string) (gbs float64, moved, uplink bool) {
	if from == "" {
		return z.sourceGBs, true, false
	}
	if from == to {
		return 0, false, false
	}
	gbs = z.sourceGBs
	if z.uplinkGBs > 0 && z.uplinkGBs < gbs && (from == scenario.LocationOnSite || to == scenario.LocationOnSite) {
		return z.uplinkGBs, true, true
	}
	return gbs, true, false
}

// achieved is the FLOP/s one GPU of type g sustains: X = peak × MFU
// (Narayanan et al. 2021).
func (z *size) achieved(g catalog.GPU) float64 {
	return g.PeakTFLOPs(z.precision) * 1e12 * z.mfuFor(g)
}

// inferBatch reports whether the run is batch inference of a language
// model: prefill and decode rather than FLOPs alone.
func (z *size) inferBatch() bool { return !z.training && !z.serving && !z.items }

// defaultBatchContext is the tokens per item assumed when a batch gives no
// split between input and output tokens: half of each, as the mean price
// managed batch pricing assumes (DESIGN.md's default sequence length).
const defaultBatchContext = DefaultSequenceLength

// batchSplit is the tokens in and out per item of batch inference, and
// whether they are assumed (no split given: half each of
// defaultBatchContext).
func (z *size) batchSplit() (in, out float64, assumed bool) {
	if z.tokensIn+z.tokensOut > 0 {
		return z.tokensIn, z.tokensOut, false
	}
	return defaultBatchContext / 2, defaultBatchContext / 2, true
}

// batchSeconds is the GPU-seconds one token of batch inference takes on
// GPU g with n GPUs to spread over, and of those the memory-bound decode's
// share, in a reference node of g (referenceNode). Prefill is
// compute-bound: 2·A FLOPs per input token at X = peak × MFU. Decode is
// memory-bound at the batch sizes memory allows: each step moves the
// weights and the batch's KV cache once for one token of every sequence,
// plus its tensor-parallel all-reduces (DESIGN.md, Serving; decodeStep).
// The batch is the largest that fits beside the weights, at most vLLM's
// default of 256 sequences (max_num_seqs, vLLM engine arguments); the
// tensor-parallel degree the one, from the smallest that holds the weights
// up to a node of 8 (and n), with the fewest GPU-seconds per output token.
func (z *size) batchSeconds(g catalog.GPU, n int) (perToken, decodeShare float64) {
	return z.batchSecondsOn(referenceNode(g), n)
}

// referenceNode is a node of 8 GPUs g as the catalog's servers have: the
// GPUs' measured all-reduce bus inside it (or no bandwidth limit where
// none is measured: latency only) and 50 GB/s of fabric per GPU (one
// 400 Gb/s port each). For choices and estimates made before a
// direction's own hardware is known.
func referenceNode(g catalog.GPU) hardware {
	intra := math.Inf(1)
	if g.AllReduceBusGBs > 0 {
		intra = 2 * g.AllReduceBusGBs
	}
	return hardware{gpu: g, perNode: 8, intraGBs: intra, netGBs: 50}
}

// batchSecondsOn is batchSeconds on a direction's hardware.
func (z *size) batchSecondsOn(hw hardware, n int) (perToken, decodeShare float64) {
	g := hw.gpu
	in, out, _ := z.batchSplit()
	prefill := z.prefillFLOPs(in) / in / z.prefillRate(g) // per input token
	tp0 := nextPow2(z.minGPUs(g, 64))
	if tp0 == 0 {
		tp0 = 64 // holds nothing: the figures of the largest degree, for the scale of the gap
	}
	decode := math.Inf(1)
	for tp := tp0; tp == tp0 || tp <= min(max(n, tp0), 8); tp *= 2 {
		b := z.batchFits(g, tp)
		stepS, _ := z.decodeStep(hw, tp, 1, b)
		if d := stepS * float64(tp) / float64(b); d < decode {
			decode = d
		}
	}
	dec := out / (in + out) * decode
	return in/(in+out)*prefill + dec, dec
}

// batchFits is the most sequences (1 … maxBatch) whose KV cache fits on tp
// GPUs of type g beside the weights: memPerGPU(tp, b) within the usable
// memory; 1 when not even one does (fits then says so).
func (z *size) batchFits(g catalog.GPU, tp int) int {
	kv := z.kvPerSeqGB()
	if kv <= 0 {
		return maxBatch
	}
	room := (g.MemoryGB*usableFraction-gpuOverheadGB)*float64(tp) - z.weightsGB
	return max(1, min(maxBatch, int(math.Floor(room/kv))))
}

// gpuHoursPerWork is what choosing hardware hw (GPU g) costs the
// work, in GPUs × time for one unit of it, and whether g can hold it at
// all: the measure the offer and node choices multiply by a price per
// GPU-hour. Serving counts the GPUs its plan needs for the peak; batch
// inference the GPU-seconds of a token, decode's memory-bound share
// included; training the inverse of the dense peak. So the memory's size
// and bandwidth weigh with the FLOPs: memory-bound work can choose an
// H200 over an H100.
func (z *size) gpuHoursPerWork(hw hardware) (float64, bool) {
	g := hw.gpu
	switch {
	case z.serving:
		p := z.serve(hw)
		return float64(p.gpus() * p.replicas), p.ok
	case z.inferBatch():
		perToken, _ := z.batchSecondsOn(hw, hw.perNode)
		return perToken, z.minGPUs(g, maxTableGPUs) > 0
	}
	return 1 / g.PeakTFLOPs(z.precision), z.minGPUs(g, maxTableGPUs) > 0
}

// takeModel sets the model's architecture from catalog model p: a
// scenario's preset and `estimate serve` both size a model this way.
func (z *size) takeModel(p catalog.Model) {
	z.name, z.paramsB, z.activeB = p.Name, p.ParamsB, p.ActiveParamsB
	z.layers, z.hidden, z.heads, z.kvHeads, z.headDim, z.kvLatent = p.Layers, p.HiddenSize, p.Heads, p.KVHeads, p.HeadDim, p.KVLatentDim
	z.window, z.windowLayers = p.SlidingWindow, p.WindowLayers
	z.experts, z.expertsK, z.moeLayers = p.Experts, p.ExpertsPerToken, p.MoELayers
}

// windowSound checks the windowed attention the model describes (a window
// and the layers it applies to go together, and no more layers are
// windowed than the model has) and its layers with experts (no more than
// it has, and only with experts).
func (z *size) windowSound() error {
	switch {
	case (z.window > 0) != (z.windowLayers > 0):
		path := "workload.model.window_layers"
		if z.window == 0 {
			path = "workload.model.sliding_window"
		}
		return scenario.Errors{{Path: path, Problem: "an attention window and the layers it applies to go together",
			Allowed: "both sliding_window and window_layers, or neither (every layer attends over the whole context)"}}
	case z.layers > 0 && z.windowLayers > z.layers:
		return scenario.Errors{{Path: "workload.model.window_layers", Problem: fmt.Sprintf("%d windowed layers in a model of %d layers", z.windowLayers, z.layers),
			Allowed: fmt.Sprintf("0 to %d, the model's layers", z.layers)}}
	case z.layers > 0 && z.moeLayers > z.layers:
		return scenario.Errors{{Path: "workload.model.moe_layers", Problem: fmt.Sprintf("%d layers with experts in a model of %d layers", z.moeLayers, z.layers),
			Allowed: fmt.Sprintf("0 to %d, the model's layers", z.layers)}}
	case z.moeLayers > 0 && z.experts <= 0:
		return scenario.Errors{{Path: "workload.model.moe_layers", Problem: "layers with experts in a model without routed experts",
			Allowed: "0 for a dense model, or give workload.model.experts and experts_per_token"}}
	}
	return nil
}
