package model

import "hostplan/internal/costid"

// Report is the model's output for one scenario: plain data, read by the UI,
// the store, the exporter and the CLI, never written by them. Field names in
// JSON are documented in docs/report.md; later versions add fields and never
// rename them.
type Report struct {
	ScenarioID   string `json:"scenario_id"`
	ScenarioName string `json:"scenario_name"`
	ModelVersion string `json:"model_version"`
	CatalogAsOf  string `json:"catalog_as_of"` // oldest as_of among the catalog entries this report used
	Currency     string `json:"currency"`
	// ExchangeRates are the rates the report converted catalog prices
	// into Currency with (added in model 0.5.0); empty when none was
	// converted.
	ExchangeRates []ExchangeRate `json:"exchange_rates"`
	Shape         string         `json:"shape"`
	HorizonMonths int            `json:"horizon_months"`
	// RunUnit says what one "run" is for this shape: a training run, a batch,
	// or a month of service for interactive inference.
	RunUnit    string            `json:"run_unit"`
	Workload   WorkloadSummary   `json:"workload"`
	Directions []DirectionResult `json:"directions"`
	// Cheapest is the feasible direction with the lowest cost over the
	// horizon, or "" when none is feasible.
	Cheapest string `json:"cheapest"`
	// Warnings are notes about the whole workload (typed from model 0.4.0).
	Warnings []Note `json:"warnings"`
	// EfficiencyThreshold is the scaling efficiency in use: the scenario's
	// workload.efficiency_threshold or the default 0.7 (added in 0.4.0).
	EfficiencyThreshold float64 `json:"efficiency_threshold"`
	// Comparisons are the break-even points (added in model 0.3.0).
	Comparisons *Comparisons `json:"comparisons"`
	// Uncertainty and Tornado are set by Analyze (added in model 0.3.0).
	Uncertainty *Uncertainty `json:"uncertainty,omitempty"`
	Tornado     *Tornado     `json:"tornado,omitempty"`

	trial *trialFit // the trial's fit, when one was made: the draws' pin
	// PriceReads is what the evaluation read of the catalog's prices
	// (weighed.go); nil in a quiet evaluation.
	PriceReads *PriceReads `json:"-"`
}

// WorkloadSummary is the size of the work, independent of where it runs.
type WorkloadSummary struct {
	Model          string   `json:"model"`
	ParamsB        float64  `json:"params_b"`
	ActiveParamsB  float64  `json:"active_params_b"`
	FLOPsPerRun    float64  `json:"flops_per_run"`    // training: k·P·D; inference: 2·P per token
	FLOPsFactor    float64  `json:"flops_factor"`     // k in k·P·D (6 or 8), or 2 for inference
	TokensPerRun   float64  `json:"tokens_per_run"`   // tokens in one run (for interactive: one month)
	RunsPerMonth   float64  `json:"runs_per_month"`   // likely value
	WeightsGB      float64  `json:"weights_gb"`       // weights at the working precision
	MemoryNeededGB float64  `json:"memory_needed_gb"` // total accelerator memory the run needs (state + activations/KV + overhead)
	Estimates      []string `json:"estimates"`        // input paths that are estimates (the likely value is used here)
	// FitByGPU is, for every GPU type in the catalog, the smallest count
	// (training: GPUs in the layout that needs the fewest, tensor parallel
	// within a node of 8, pipeline and data parallel under the sharding;
	// inference: the GPUs of one replica) that holds the run; 0 when no
	// count up to 4,096 does. Added in model 0.3.0.
	FitByGPU []GPUFit `json:"fit_by_gpu"`
}

// DirectionResult is one hosting direction's answer.
type DirectionResult struct {
	Direction string `json:"direction"` // managed, cloud, on_prem, hpc, hybrid
	Title     string `json:"title"`
	Feasible  bool   `json:"feasible"`
	// Reasons say why the direction is not feasible; empty when it is.
	Reasons   []Reason `json:"infeasible_reasons"`
	Offer     string   `json:"offer"` // catalog id of the offer, node, partition or service used
	OfferName string   `json:"offer_name"`
	// RunnersUp are the next cheapest cloud offers for the work when the
	// model chose the offer (at most two; absent when the scenario names
	// it), with their prices and cost relative to the chosen one (model
	// 0.8.0).
	RunnersUp []RunnerUp `json:"runners_up,omitempty"`
	GPU       string     `json:"gpu"`  // catalog GPU id, "" for per-token managed services
	GPUs      int        `json:"gpus"` // GPUs used per run (or replicas × GPUs for serving)
	// PricePerGPUHour is the effective price per GPU-hour: the rate paid for
	// rented capacity, or owned cost ÷ used hours for on-premises.
	PricePerGPUHour float64 `json:"price_per_gpu_hour"`
	GPUHoursPerRun  float64 `json:"gpu_hours_per_run"`
	// ComputeHours is the elapsed compute time of one run; TimeToResultHours
	// adds queue waits and staging.
	ComputeHours      float64 `json:"compute_hours"`
	TimeToResultHours float64 `json:"time_to_result_hours"`
	LeadTimeDays      float64 `json:"lead_time_days"` // before the first run can start (procurement)

	// The cost drivers each direction sets (GPU-hours per run above, the
	// prices and costs below) and the figures that follow from them by the
	// cost identity (package costid), which the workbook writes as formulas.
	VariablePricePerGPUHour float64 `json:"variable_price_per_gpu_hour"` // paid per GPU-hour used
	OtherCostPerRun         float64 `json:"other_cost_per_run"`          // tokens, transfers, staging, storage per run
	VariableCostPerRun      float64 `json:"variable_cost_per_run"`
	MonthlyFixedCost        float64 `json:"monthly_fixed_cost"` // paid whether or not anything runs
	OneOffCost              float64 `json:"one_off_cost"`       // paid once at the start of the horizon
	CostPerRun              float64 `json:"cost_per_run"`       // fully loaded: variable plus a share of the fixed cost
	CostHorizon             float64 `json:"cost_horizon"`       // total over the horizon
	// CumulativeByMonth[i] is the total spent by the end of month i+1.
	CumulativeByMonth []float64  `json:"cumulative_by_month"`
	Breakdown         []CostLine `json:"breakdown"` // the cost over the horizon, by item
	Notes             []Note     `json:"notes"`     // assumptions a reader should know
	Sources           []string   `json:"sources"`   // catalog entries used, with as_of and source
	// PricesAsOf is the oldest as_of among the prices this direction used
	// (its offer, node or partition, data prices, site figures, staff
	// cost), not the whole catalog's; "" when it used none (added in
	// model 0.5.0).
	PricesAsOf string `json:"prices_as_of"`

	// Performance (added in model 0.2.0).
	MemoryPerGPUGB float64 `json:"memory_per_gpu_gb"` // at the chosen GPU count
	// Bottleneck is what limits this direction first: compute, memory
	// capacity, memory bandwidth, communication, data path or queue; ""
	// for a per-token service.
	Bottleneck Bottleneck `json:"bottleneck"`
	// Scaling is the curve for N = 1, 2, 4, … up to the direction's maximum
	// (and the chosen count); empty for per-token services.
	Scaling []ScalingPoint `json:"scaling"`
	// MaxEfficientGPUs is the largest N in Scaling whose efficiency stays at
	// or above the scenario's threshold (default 70 %).
	MaxEfficientGPUs int       `json:"max_efficient_gpus"`
	DataPath         *DataPath `json:"data_path,omitempty"`
	Serving          *Serving  `json:"serving,omitempty"`
	// Layout is how the GPUs split the work: tensor and pipeline
	// parallelism and data-parallel copies (serving: replicas at the
	// peak), with the pipeline's micro-batches and bubble; nil for
	// per-token services.
	Layout *Layout `json:"layout,omitempty"`
	// Calibration is set when a trial on this direction's GPU replaced the
	// analytic curve with a fitted Universal Scalability Law.
	Calibration   *Calibration   `json:"calibration,omitempty"`
	Interruptions *Interruptions `json:"interruptions,omitempty"`

	// OwnedCost is set for on-premises: the effective price per GPU-hour at
	// the expected utilisation (added in model 0.3.0).
	OwnedCost *OwnedCost `json:"owned_cost,omitempty"`
	// StaffFTE is the operating effort the direction needs, in full-time
	// equivalents (an estimate; added in model 0.3.0).
	StaffFTE float64 `json:"staff_fte"`
	// Energy is the electricity and emissions of the direction's runs, an
	// estimate beside the costs (energy.go); nil when the direction is
	// ruled out (added in model 0.5.0).
	Energy *Energy `json:"energy,omitempty"`

	// CostModel is the part of the cost identity the direction's costs
	// follow (costid's models.go); Drivers holds the value of every driver of
	// it, inputs and the figures derived from them, and CostInputs says
	// where each input came from (full reports only). A report made by
	// hand has NoCostModel and no drivers: its four cost figures above are
	// the inputs. Not in the JSON: the export reads them.
	CostModel  costid.CostModel `json:"-"`
	Drivers    *costid.Values   `json:"-"`
	CostInputs []CostInput      `json:"-"`

	quiet      bool        // a Monte Carlo evaluation: numbers only, no words
	lean       bool        // EvaluateLean's: no notes, cost lines or sources
	rated      bool        // PricePerGPUHour is the cloud rate its costs use, 0 included
	staffBasis string      // what the staff does, for its cost line
	prices     []usedPrice // the prices it used, for PricesAsOf and the stale-price note
	// trainLayout is the training layout the run's GPU count took and
	// fitted (also on a trial's fitted curve, which reports none): the
	// draws' pin.
	trainLayout *layout
}

// usedPrice is a catalog price a direction used: what it is and its date.
type usedPrice struct{ what, asOf string }

// OwnedCost is what owned hardware costs per GPU-hour used.
type OwnedCost struct {
	GPUs                     int     `json:"gpus"`
	Utilisation              float64 `json:"utilisation"` // share of the GPUs' hours used
	FixedPerMonth            float64 `json:"fixed_per_month"`
	EffectivePricePerGPUHour float64 `json:"effective_price_per_gpu_hour"`
}

// ScalingPoint is the data-parallel model at one GPU count.
type ScalingPoint struct {
	GPUs              int        `json:"gpus"`
	StepSeconds       float64    `json:"step_seconds"` // one optimizer step (or batch step for inference)
	ComputeSeconds    float64    `json:"compute_seconds"`
	CommSeconds       float64    `json:"comm_seconds"`   // exposed all-reduce
	SerialSeconds     float64    `json:"serial_seconds"` // the part that does not parallelise
	BubbleSeconds     float64    `json:"bubble_seconds"` // pipeline stages idle under 1F1B
	DataSeconds       float64    `json:"data_seconds"`   // the data-loading floor
	Speedup           float64    `json:"speedup"`        // T(1) / T(N)
	Efficiency        float64    `json:"efficiency"`     // speedup / N, in (0, 1]
	TimeToResultHours float64    `json:"time_to_result_hours"`
	Fits              bool       `json:"fits"` // the run fits GPU memory at this count
	Bottleneck        Bottleneck `json:"bottleneck"`
}

// DataPath compares what the run needs from storage with what it gets.
type DataPath struct {
	StagingHours float64 `json:"staging_hours"` // copy to compute storage: volume ÷ throughput + per-file overhead
	NeededGBs    float64 `json:"needed_gbs"`    // read rate the steps need at the chosen GPU count
	AvailableGBs float64 `json:"available_gbs"` // what the direction's storage delivers
}

// Serving summarises an interactive-inference plan.
type Serving struct {
	GPUsPerReplica  int     `json:"gpus_per_replica"`
	Batch           int     `json:"batch"`
	ReplicasPeak    int     `json:"replicas_peak"`
	ReplicasMean    int     `json:"replicas_mean"`
	DecodeStepMS    float64 `json:"decode_step_ms"`
	TokensPerSecond float64 `json:"tokens_per_second"` // output tokens/s per replica
	RequestsPerSec  float64 `json:"requests_per_second"`
	LatencyMS       float64 `json:"latency_ms"` // prefill + decode of one request at that batch
	MemoryBound     bool    `json:"memory_bound"`
	// Rented replicas that follow the load over the day: the fewest
	// replicas the day needs, and the replica-hours of a day (0: sized
	// for the peak all day).
	ReplicasLow        int     `json:"replicas_low,omitempty"`
	ReplicaHoursPerDay float64 `json:"replica_hours_per_day,omitempty"`
}

// Layout is a parallel layout: GPUs = Tensor × Pipeline × Data (serving:
// a replica is Tensor × Pipeline GPUs, Data replicas for the peak).
type Layout struct {
	Tensor       int     `json:"tensor"`        // tensor-parallel degree, inside a node (or across nodes for a serving replica)
	Pipeline     int     `json:"pipeline"`      // pipeline stages
	Data         int     `json:"data"`          // data-parallel copies; serving: replicas at the peak
	MicroBatches int     `json:"micro_batches"` // per optimizer step in each pipeline (training); 1 for serving
	Bubble       float64 `json:"bubble"`        // share of a pipeline's time its stages stand idle, (p−1)/(m+p−1)
}

// Calibration is a Universal Scalability Law fitted to trial points.
type Calibration struct {
	Lambda float64 `json:"lambda"`
	Sigma  float64 `json:"sigma"`
	Kappa  float64 `json:"kappa"`
	R2     float64 `json:"r2"`
	// NMax is the GPU count of peak throughput, 0 when there is none (κ = 0).
	NMax float64 `json:"n_max"`
}

// Interruptions is the checkpoint plan and its overhead.
type Interruptions struct {
	MTBIHours         float64 `json:"mtbi_hours"`         // mean time between interruptions of the whole job
	CheckpointMinutes float64 `json:"checkpoint_minutes"` // time to write one checkpoint
	IntervalHours     float64 `json:"interval_hours"`     // Daly's interval
	RestartMinutes    float64 `json:"restart_minutes"`    // time one restart takes (failures and spot weighted by their rates)
	OverheadFraction  float64 `json:"overhead_fraction"`  // extra time from checkpoints, lost work and restarts
	WallTimeChunks    int     `json:"wall_time_chunks"`   // HPC jobs the run is split into (1 elsewhere)
}

// CostLine is one item of a direction's cost over the horizon.
type CostLine struct {
	Item   string  `json:"item"`
	Amount float64 `json:"amount"`
	Basis  string  `json:"basis"` // the arithmetic, in words and numbers
}

// Direction returns the result for direction d, or nil.
func (r *Report) Direction(d string) *DirectionResult {
	for i := range r.Directions {
		if r.Directions[i].Direction == d {
			return &r.Directions[i]
		}
	}
	return nil
}

// GPUFit is the smallest count of one GPU type that holds the run.
type GPUFit struct {
	GPU            string  `json:"gpu"`
	MinGPUs        int     `json:"min_gpus"`
	MemoryPerGPUGB float64 `json:"memory_per_gpu_gb"` // at that count (one sequence of KV cache for inference)
}
