package scenario

import (
	"fmt"
	"math"
	"strings"
	"time"

	"hostplan/internal/present/num"
)

// Range is the allowed range of one number: of a scenario field, of a
// catalog field (and so of a price override or a catalog import), or of a
// command's flag that means the same. Every range has a physical meaning:
// Why says what its limits stand for. Validation, the JSON Schema
// (minimum, maximum), the catalog's checks and docs/report.md all read the
// ranges from the tables below, so they cannot disagree.
type Range struct {
	Min, Max float64
	MinOpen  bool // Min itself is not allowed
	Whole    bool // whole numbers only
	// Zero, when not empty, is what 0 means for a number that may be left
	// out or set to none ("the default", "none"); 0 is then allowed
	// besides [Min, Max].
	Zero string
	Why  string // the meaning of the limits, in one sentence
}

// Contains reports whether x is allowed: finite and within the range (or
// 0 where 0 has a meaning).
func (r Range) Contains(x float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return false
	}
	if x == 0 && r.Zero != "" {
		return true
	}
	if r.Whole && x != math.Trunc(x) {
		return false
	}
	if x > r.Max || x < r.Min || (r.MinOpen && x == r.Min) {
		return false
	}
	return true
}

// String says what the range allows, as a message's "allowed:" part:
// "a number > 0 and ≤ 100,000", "a whole number from 1 to 1,000,000, or 0
// for the default".
func (r Range) String() string {
	var s string
	switch {
	case r.Min == r.Max:
		s = "exactly " + Num(r.Min)
	case r.Whole:
		s = "a whole number from " + Num(r.Min) + " to " + Num(r.Max)
	case r.MinOpen:
		s = "a number > " + Num(r.Min) + " and ≤ " + Num(r.Max)
	default:
		s = "a number ≥ " + Num(r.Min) + " and ≤ " + Num(r.Max)
	}
	if r.Zero != "" {
		s += ", or 0 for " + r.Zero
	}
	return s
}

// Num writes a limit or a value for a message: whole numbers with
// thousands separators (100,000; 4,611,686,018,427,387,904), except that
// those of a billion or more that a power of ten writes shorter are
// written so (1e15, 2.5e9); others in the shortest form that reads back
// (0.001, 1e-300, 1e308).
func Num(x float64) string {
	g := num.Exp(x)
	whole := x == math.Trunc(x) && math.Abs(x) < 1e21
	if !whole || math.Abs(x) >= 1e9 && len(strings.Trim(strings.SplitN(g, "e", 2)[0], "-.")) <= 3 {
		return g
	}
	return num.Whole(x)
}

// Bound is one row of a bounds table: the field's path and its range.
type Bound struct {
	Path string
	Range
}

// Limits on the size of what hostplan reads, checked before a file is
// read whole, so that rejecting a large file takes little memory.
const (
	// MaxFileBytes is the largest scenario file (1 MiB): the largest
	// example is some 3 KB, and 1,000 trial points take some 40 KB.
	MaxFileBytes = 1 << 20
	// MaxTrialPoints is the most trial points a scenario (or a trial CSV
	// for hostplan fit) may hold: a trial measures a few GPU counts, and
	// fitting a thousand points takes milliseconds.
	MaxTrialPoints = 1000
	// AsOfTolerance is how far past today a price's or a rate's as_of may
	// lie: a day, for the time zones between the one who wrote it and the
	// one who reads it. A later date is a typing error (a price is
	// published, then used).
	AsOfTolerance = 24 * time.Hour
)

// Now is the clock the as_of checks read (FutureAsOf); tests replace it.
var Now = time.Now

// FutureAsOf reports whether the date d (YYYY-MM-DD, midnight UTC) lies
// beyond today and AsOfTolerance, and says what is allowed.
func FutureAsOf(d time.Time) (future bool, allowed string) {
	limit := Now().UTC().Add(AsOfTolerance)
	return d.After(limit), "a date no later than tomorrow: a price is published before it is used"
}

// Shared ranges: the same quantity has the same limits wherever it
// appears (a scenario option and the catalog field it overrides).
var (
	paramsB = Range{Min: 0, MinOpen: true, Max: 100_000,
		Why: "100 T parameters: some 50 times the largest published models"}
	layers = Range{Min: 1, Max: 10_000, Whole: true,
		Why: "the largest published models have some 130 layers"}
	hiddenSize = Range{Min: 1, Max: 1_000_000, Whole: true,
		Why: "the largest published models are some 25,000 wide"}
	heads = Range{Min: 1, Max: 10_000, Whole: true,
		Why: "the largest published models have some 130 attention heads"}
	headDim = Range{Min: 1, Max: 65_536, Whole: true,
		Why: "published models use 64 to 256 dimensions per head"}
	kvLatentDim = Range{Min: 1, Max: 1_000_000, Whole: true,
		Why: "DeepSeek-V3 caches 576 values per token and layer"}
	slidingWindow = Range{Min: 1, Max: 100_000_000, Whole: true,
		Why: "published windows span 128 (gpt-oss) to 8,192 tokens (Llama 4's chunks); a hundred million is past any context"}
	experts = Range{Min: 1, Max: 100_000, Whole: true,
		Why: "published mixtures of experts route among 8 to 256 experts a layer"}
	gpuCount = Range{Min: 1, Max: 1_000_000, Whole: true, Zero: "the model's choice",
		Why: "a million GPUs: ten times the largest clusters built"}
	gpusPerNode = Range{Min: 1, Max: 1024, Whole: true,
		Why: "a server holds 4 to 8 GPUs; rack-scale systems 72"}
	// Prices are in the scenario currency (the catalog's in USD): the
	// limits leave room for currencies worth a ten-thousandth of a dollar.
	unitPrice = Range{Min: 0, Max: 1e7,
		Why: "ten million per unit: a thousand times the highest list price in USD, in any currency"}
	bigPrice = Range{Min: 0, MinOpen: true, Max: 1e11,
		Why: "a hundred billion: a $10 M item in a currency worth a ten-thousandth of a dollar"}
	perMToken = Range{Min: 0, Max: 1e7,
		Why: "ten million per million tokens: a hundred thousand times the highest list price in USD, in any currency"}
	bandwidth = Range{Min: 0.001, Max: 100_000,
		Why: "1 MB/s to 100 TB/s: from a slow disk to far beyond the fastest links and file systems"}
	fte = Range{Min: 0, Max: 10_000,
		Why: "ten thousand full-time staff: more than any operations team"}
	hoursWait = Range{Min: 0, Max: 8760,
		Why: "a year of queueing"}
	lifeYears = Range{Min: 1, Max: 15,
		Why: "servers are written off over 3 to 7 years; 15 is the longest plausible life"}
	pue = Range{Min: 1, Max: 3,
		Why: "power usage effectiveness is 1 at best; old machine rooms reach 2.5"}
	gigabytes = Range{Min: 0, Max: 1e9,
		Why: "an exabyte: more than the largest data sets stored"}
	durationHours = Range{Min: 0, MinOpen: true, Max: 87_600,
		Why: "ten years, the longest planning horizon"}
	infrastructureShare = Range{Min: 0, Max: 5,
		Why: "a share of the node price: fabric, storage and installation add 5–20 %; 5 would cost five times the servers"}
	costOfCapital = Range{Min: 0, Max: 1,
		Why: "a yearly rate: 0 (cash that would earn nothing) to 100 %"}
	gridIntensity = Range{Min: 0, Max: 2000,
		Why: "grams of CO2e per kWh: 0 for wholly low-carbon supply to 2,000, above a lignite plant's 1,100 or so"}
	rackKW = Range{Min: 1, Max: 1000,
		Why: "1 kW to 1 MW per rack: air-cooled racks take 5–20 kW, liquid-cooled rack-scale systems some 130"}
)

// scenarioBounds is the range of every number of a scenario file, by JSON
// path ("[]" for any list index), in the file's field order.
var scenarioBounds = []Bound{
	{"schema_version", Range{Min: SchemaVersion, Max: SchemaVersion, Whole: true,
		Why: "the file format this build writes; older versions are upgraded when read"}},
	{"seed", Range{Min: 0, Max: 1<<53 - 1, Whole: true,
		Why: "2^53 − 1: larger whole numbers do not survive JSON tools exactly"}},
	{"purpose.acceptable_runtime_hours", durationHours},
	{"workload.model.params_b", withZero(paramsB, "the preset's count")},
	{"workload.model.active_params_b", withZero(paramsB, "all parameters active")},
	{"workload.model.layers", zeroDefault(layers)},
	{"workload.model.hidden_size", zeroDefault(hiddenSize)},
	{"workload.model.heads", zeroDefault(heads)},
	{"workload.model.kv_heads", zeroDefault(heads)},
	{"workload.model.head_dim", zeroDefault(headDim)},
	{"workload.model.kv_latent_dim", withZero(kvLatentDim, "a plain or grouped-query cache")},
	{"workload.model.sliding_window", withZero(slidingWindow, "every layer attends over the whole context, or the preset's")},
	{"workload.model.window_layers", withZero(layers, "no windowed layers, or the preset's")},
	{"workload.model.experts", withZero(experts, "a dense model, or the preset's")},
	{"workload.model.experts_per_token", withZero(experts, "a dense model, or the preset's")},
	{"workload.model.moe_layers", withZero(layers, "experts in every layer, or the preset's")},
	{"workload.model.gflops_per_item", Range{Min: 0, MinOpen: true, Max: 1e9, Zero: "none (a language model)",
		Why: "an exaFLOP per item: a second of the fastest supercomputer"}},
	{"workload.model.gradient_gb", zeroDefault(Range{Min: 0, MinOpen: true, Max: 1e6,
		Why: "a petabyte: the 16-bit gradients of 500 T parameters"})},
	{"workload.tokens_per_run_b", Range{Min: 0, MinOpen: true, Max: 1e7,
		Why: "ten quadrillion tokens: some 300 times the largest training corpora"}},
	{"workload.items_per_run_m", Range{Min: 0, MinOpen: true, Max: 1e9,
		Why: "a quadrillion items or steps per run"}},
	{"workload.runs_per_month", Range{Min: 0.001, Max: 100_000,
		Why: "from one run in 83 years to one every 26 seconds"}},
	{"workload.traffic.peak_rps", requestRate},
	{"workload.traffic.mean_rps", requestRate},
	{"workload.traffic.tokens_in", tokensPerRequest},
	{"workload.traffic.tokens_out", tokensPerRequest},
	{"workload.traffic.latency_target_ms", Range{Min: 0, MinOpen: true, Max: 3_600_000,
		Why: "an hour per request"}},
	{"workload.traffic.peak_hours_per_day", Range{Min: 0, MinOpen: true, Max: 24,
		Why: "hours of a day"}},
	{"workload.traffic.hourly_load[]", Range{Min: 0, Max: 1e7,
		Why: "a level in requests/s or a share of the peak: no more than the peak rate's own limit"}},
	{"workload.traffic.scale_up_margin", Range{Min: 0, Max: 4,
		Why: "capacity kept above the load, as a share of it: 4 keeps five times the load"}},
	{"workload.deadline_hours", durationHours},
	{"workload.mfu", Range{Min: 0.001, Max: 1,
		Why: "a share of the GPU's peak: 1 is the peak itself; below 0.1 % the figure no longer describes the hardware"}},
	{"workload.trial[].gpus", Range{Min: 1, Max: 1_000_000, Whole: true, Why: gpuCount.Why}},
	{"workload.trial[].throughput", Range{Min: 0, MinOpen: true, Max: 1e12,
		Why: "a trillion tokens or items per second: a thousand times what the largest clusters process"}},
	{"workload.sequence_length", zeroDefault(Range{Min: 1, Max: 10_000_000, Whole: true,
		Why: "ten million tokens: the longest context windows offered"})},
	{"workload.micro_batch", zeroDefault(Range{Min: 1, Max: 65_536, Whole: true,
		Why: "sequences held by one GPU at once"})},
	{"workload.global_batch_tokens", zeroDefault(Range{Min: 1, Max: 1e10, Whole: true,
		Why: "ten billion tokens per step: 2,500 times the batches of large pre-training"})},
	{"workload.global_batch_items", zeroDefault(Range{Min: 1, Max: 1e9, Whole: true,
		Why: "a billion items per step"})},
	{"workload.epochs", Range{Min: 0, MinOpen: true, Max: 10_000,
		Why: "ten thousand passes over the data"}},
	{"workload.serial_fraction", Range{Min: 0, Max: 0.99,
		Why: "a share of a step: below 1, or nothing would parallelise"}},
	{"workload.failures_per_million_gpu_hours", Range{Min: 0, Max: 10_000,
		Why: "a failure every 100 hours of each GPU: some 500 times Llama 3's fleet"}},
	{"workload.efficiency_threshold", Range{Min: 0, MinOpen: true, Max: 1,
		Why: "a share of linear scaling"}},
	{"data.volume_gb", gigabytes},
	{"data.file_count", Range{Min: 0, MinOpen: true, Max: 1e12,
		Why: "a trillion files: beyond the largest file systems"}},
	{"data.snapshot_gb", gigabytes},
	{"data.output_gb", gigabytes},
	{"data.storage_gbps", bandwidth},
	{"data.uplink_gbit_s", Range{Min: 0.001, Max: 100_000,
		Why: "1 Mbit/s to 100 Tbit/s: from a slow line to far beyond the fastest site links"}},
	{"dimensions.sovereignty.weight", weight},
	{"dimensions.workload_shape.weight", weight},
	{"dimensions.operations.weight", weight},
	{"dimensions.operations.staff_fte", fte},
	{"dimensions.economics.weight", weight},
	{"dimensions.economics.budget_cap", Range{Min: 0, MinOpen: true, Max: 1e15,
		Why: "a quadrillion: ten times world output in USD, room for any currency"}},
	{"dimensions.economics.horizon_months", Range{Min: 1, Max: 120, Whole: true,
		Why: "ten years: beyond it hardware, prices and the workload are guesses"}},
	{"dimensions.optionality.weight", weight},
	{"options.managed.price_in_per_m", perMToken},
	{"options.managed.price_out_per_m", perMToken},
	{"options.cloud.gpus", gpuCount},
	{"options.cloud.price_per_gpu_hour", unitPrice},
	{"options.cloud.storage_per_gb_month", unitPrice},
	{"options.cloud.egress_per_gb", unitPrice},
	{"options.cloud.spot_interruptions_per_month", Range{Min: 0, Max: 0.99,
		Why: "a share of instances a month: below 1, or no job would run"}},
	{"options.on_prem.nodes", Range{Min: 1, Max: 100_000, Whole: true, Zero: "the model's choice",
		Why: "a hundred thousand servers: the largest clusters have some 15,000"}},
	{"options.on_prem.electricity_per_kwh", unitPrice},
	{"options.on_prem.pue", pue},
	{"options.on_prem.life_years", zeroDefault(lifeYears)},
	{"options.on_prem.staff_fte", fte},
	{"options.on_prem.lease_per_node_month", bigPrice},
	{"options.on_prem.node_price", bigPrice},
	{"options.on_prem.expected_utilisation", Range{Min: 0.01, Max: 1,
		Why: "a share of the hardware's hours: below 1 % the price per GPU-hour used says nothing"}},
	{"options.on_prem.infrastructure_share", infrastructureShare},
	{"options.on_prem.cost_of_capital", costOfCapital},
	{"options.on_prem.rack_kw", rackKW},
	{"options.hpc.gpus", gpuCount},
	{"options.hpc.queue_wait_hours", hoursWait},
	{"options.hpc.granted_gpu_hours", Range{Min: 0, Max: 1e10,
		Why: "ten billion GPU-hours: a million GPUs busy for a year"}},
	{"options.hpc.price_per_gpu_hour", unitPrice},
	{"options.hpc.fair_share", fairShare},
	{"options.hybrid.extra_staff_fte", fte},
	{"options.energy.grid_g_co2e_per_kwh", gridIntensity},
	{"options.energy.managed_grid_g_co2e_per_kwh", gridIntensity},
	{"options.energy.cloud_grid_g_co2e_per_kwh", gridIntensity},
	{"options.energy.on_prem_grid_g_co2e_per_kwh", gridIntensity},
	{"options.energy.hpc_grid_g_co2e_per_kwh", gridIntensity},
	{"options.energy.hybrid_grid_g_co2e_per_kwh", gridIntensity},
	{"exchange_rates[].rate", exchangeRate},
}

var (
	requestRate = Range{Min: 0, MinOpen: true, Max: 1e7,
		Why: "ten million requests a second: a hundred times the largest web search load"}
	tokensPerRequest = Range{Min: 0, MinOpen: true, Max: 1e7,
		Why: "ten million tokens: the longest context windows offered"}
	weight = Range{Min: 0, Max: 100,
		Why: "weights are relative; 0 to 100 reads as a share in per cent"}
)

// zeroDefault is r with 0 meaning "the default" (a number left out).
func zeroDefault(r Range) Range {
	r.Zero = "the default"
	return r
}

// catalogBounds is the range of every number of the catalog, by
// "kind.field" as catalog overrides name them, in catalog order. The
// catalog checks its embedded files, every override row and every import
// against it.
var catalogBounds = []Bound{
	{"gpu.bf16_tflops", tflops},
	{"gpu.fp8_tflops", withZero(tflops, "no FP8 path")},
	{"gpu.memory_gb", Range{Min: 1, Max: 100_000,
		Why: "1 GB to 100 TB per GPU: GPUs hold 16 to 192 GB"}},
	{"gpu.bandwidth_gbs", Range{Min: 1, Max: 1_000_000,
		Why: "1 GB/s to 1 PB/s of memory bandwidth: GPUs move 0.3 to 8 TB/s"}},
	{"gpu.power_w", Range{Min: 0, Max: 100_000,
		Why: "100 kW per GPU: a hundred times the largest"}},
	{"gpu.allreduce_bus_gbs", withZero(bandwidth, "none measured (half the link bandwidth)")},
	{"model.params_b", paramsB},
	{"model.active_params_b", paramsB},
	{"model.layers", layers},
	{"model.hidden_size", hiddenSize},
	{"model.heads", heads},
	{"model.kv_heads", heads},
	{"model.head_dim", headDim},
	{"model.kv_latent_dim", withZero(kvLatentDim, "a plain or grouped-query cache")},
	{"model.sliding_window", withZero(slidingWindow, "every layer attends over the whole context")},
	{"model.window_layers", withZero(layers, "no windowed layers")},
	{"model.experts", withZero(experts, "a dense model")},
	{"model.experts_per_token", withZero(experts, "a dense model")},
	{"model.moe_layers", withZero(layers, "experts in every layer")},
	{"cloud.gpus_per_node", gpusPerNode},
	{"cloud.on_demand", Range{Min: 0, MinOpen: true, Max: unitPrice.Max, Why: unitPrice.Why}},
	{"cloud.commit_1y", withZero(Range{Min: 0, MinOpen: true, Max: unitPrice.Max, Why: unitPrice.Why}, "no published price")},
	{"cloud.commit_3y", withZero(Range{Min: 0, MinOpen: true, Max: unitPrice.Max, Why: unitPrice.Why}, "no published price")},
	{"cloud.spot", withZero(Range{Min: 0, MinOpen: true, Max: unitPrice.Max, Why: unitPrice.Why}, "no published price")},
	{"cloud.network_gbs_per_gpu", bandwidth},
	{"cloud.intra_node_gbs", bandwidth},
	{"cloud.max_gpus", withZero(gpuCount, "no stated limit")},
	{"cloud.storage_gbs", bandwidth},
	{"data.storage_per_gb_month", unitPrice},
	{"data.egress_per_gb", unitPrice},
	{"node.gpus", gpusPerNode},
	{"node.price", bigPrice},
	{"node.power_kw_max", nodePower},
	{"node.power_kw_typical", nodePower},
	{"node.lead_time_weeks", Range{Min: 0, Max: 520,
		Why: "ten years from order to first run"}},
	{"node.intra_node_gbs", bandwidth},
	{"node.network_gbs_per_gpu", bandwidth},
	{"node.storage_gbs", bandwidth},
	{"site.electricity_per_kwh", unitPrice},
	{"site.pue", pue},
	{"grid.g_co2e_per_kwh", gridIntensity},
	{"grid.year", Range{Min: 1990, Max: 2100, Whole: true,
		Why: "the year the figure describes, from 1990 to 2100"}},
	{"pue.pue", pue},
	{"site.colo_per_kw_month", unitPrice},
	{"site.life_years", lifeYears},
	{"site.maintenance_per_year", Range{Min: 0, Max: 1,
		Why: "a share of the purchase price a year: more than 1 would buy the hardware again every year"}},
	{"site.staff_cost_per_fte_year", Range{Min: 0, Max: 1e11, Why: bigPrice.Why}},
	{"site.idle_power_fraction", Range{Min: 0, Max: 1,
		Why: "a share of the typical draw"}},
	{"site.staff_fte_per_node", Range{Min: 0, Max: 10,
		Why: "ten full-time staff per server: far beyond any operations ratio"}},
	{"site.staff_fte_min", fte},
	{"site.infrastructure_share", infrastructureShare},
	{"site.cost_of_capital", costOfCapital},
	{"site.rack_kw", rackKW},
	{"hpc.gpus_per_node", gpusPerNode},
	{"hpc.max_gpus", Range{Min: 1, Max: 1_000_000, Whole: true, Why: gpuCount.Why}},
	{"hpc.price_per_gpu_hour", withZero(Range{Min: 0, MinOpen: true, Max: unitPrice.Max, Why: unitPrice.Why}, "an allocation without a price")},
	{"hpc.external_price_per_gpu_hour", withZero(Range{Min: 0, MinOpen: true, Max: unitPrice.Max, Why: unitPrice.Why}, "no rate for users from outside")},
	{"hpc.fair_share", withZero(fairShare, "not stated (the model assumes 0.25)")},
	{"hpc.walltime_hours", Range{Min: 0, MinOpen: true, Max: 8760,
		Why: "a year: centres allow 24 to 72 hours per job"}},
	{"hpc.queue_wait_hours", hoursWait},
	{"hpc.intra_node_gbs", bandwidth},
	{"hpc.network_gbs_per_gpu", bandwidth},
	{"hpc.storage_gbs", bandwidth},
	{"managed.max_params_b", paramsB},
	{"managed.price_in_per_m", perMToken},
	{"managed.price_out_per_m", perMToken},
	{"managed.train_per_m_tokens", perMToken},
	{"managed.gpu_hour_price", Range{Min: 0, Max: unitPrice.Max, Why: unitPrice.Why}},
	{"managed.reference_gpus", Range{Min: 1, Max: 1024, Whole: true,
		Why: "the GPUs a provider's throughput is estimated on: one server of 8, at most a few racks"}},
	{"rate.per_eur", exchangeRate},
}

var (
	// exchangeRate is units of one currency per unit of another.
	exchangeRate = Range{Min: 0, MinOpen: true, Max: 1e7,
		Why: "ten million units of one currency per unit of another: the euro buys some 17,000 rupiah and 30,000 dong"}
	// fairShare is the largest share of an HPC partition one project may
	// hold.
	fairShare = Range{Min: 1e-6, Max: 1,
		Why: "a share of the partition: 1 is all of it; a millionth is one GPU of a million-GPU machine, and a smaller share would grant a project less than one GPU"}
	tflops = Range{Min: 1, Max: 1_000_000,
		Why: "1 TFLOP/s to 1 EFLOP/s per GPU: GPUs sustain 100 to 5,000 dense TFLOP/s"}
	nodePower = Range{Min: 0, MinOpen: true, Max: 10_000,
		Why: "10 MW per node: a hundred times a rack-scale system"}
)

// withZero is r with 0 allowed, meaning what.
func withZero(r Range, what string) Range {
	r.Zero = what
	return r
}

var (
	scenarioRanges = index(scenarioBounds)
	catalogRanges  = index(catalogBounds)
)

func index(rows []Bound) map[string]Range {
	m := make(map[string]Range, len(rows))
	for _, b := range rows {
		if _, dup := m[b.Path]; dup {
			panic("scenario: two bounds for " + b.Path)
		}
		if b.Why == "" || !(b.Min <= b.Max) {
			panic("scenario: bound for " + b.Path + " has no meaning or is empty")
		}
		m[b.Path] = b.Range
	}
	return m
}

// genericPath is path with every list index emptied:
// "workload.trial[2].gpus" is "workload.trial[].gpus". A path without a
// list (nearly every one) is returned as it is, without allocating.
func genericPath(path string) string {
	if !strings.Contains(path, "[") {
		return path
	}
	b := make([]byte, 0, len(path))
	for i := 0; i < len(path); i++ {
		b = append(b, path[i])
		if path[i] != '[' {
			continue
		}
		j := i + 1
		for j < len(path) && path[j] >= '0' && path[j] <= '9' {
			j++
		}
		if j > i+1 && j < len(path) && path[j] == ']' {
			i = j - 1 // the digits are dropped; the ']' is copied next
		}
	}
	return string(b)
}

// BoundOf returns the range of the scenario field at path. List indices
// and the part of an estimate are ignored: "workload.trial[2].gpus" is
// "workload.trial[].gpus", "workload.mfu.low" is "workload.mfu".
func BoundOf(path string) (Range, bool) {
	p := genericPath(path)
	if r, ok := scenarioRanges[p]; ok {
		return r, true
	}
	for _, part := range []string{".low", ".likely", ".high"} {
		if q, ok := strings.CutSuffix(p, part); ok {
			r, ok := scenarioRanges[q]
			return r, ok
		}
	}
	return Range{}, false
}

// CatalogBound returns the range of a catalog field, named as catalog
// overrides name it (kind gpu, field bf16_tflops).
func CatalogBound(kind, field string) (Range, bool) {
	r, ok := catalogRanges[kind+"."+field]
	return r, ok
}

// ScenarioBounds returns the bounds of every number of a scenario file, in
// field order.
func ScenarioBounds() []Bound { return append([]Bound(nil), scenarioBounds...) }

// CatalogBounds returns the bounds of every number of the catalog, in
// catalog order, keyed "kind.field".
func CatalogBounds() []Bound { return append([]Bound(nil), catalogBounds...) }

// outOfRange is the problem of a number outside its range.
func outOfRange(x float64) string { return fmt.Sprintf("%s is out of range", Num(x)) }
