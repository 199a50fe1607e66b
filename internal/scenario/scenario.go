// Package scenario holds the planner's input: one AI workload, its data, the
// five decision dimensions and the per-direction options. It decodes and
// encodes the JSON file format (schema version 1), validates it with
// field-path errors, describes it as a JSON Schema and compares two
// scenarios field by field (Diff). It also holds the bounds (bounds.go):
// the range and meaning of every number of a scenario and of the catalog,
// which validation, the schema, the catalog's checks and the commands'
// flags all read, and the limits on the size of what hostplan reads. It
// imports nothing of the GUI, the store or the model.
package scenario

// SchemaVersion is the version of the scenario file format this build writes.
const SchemaVersion = 1

// Workload shapes, from the seed's table of workload shapes.
const (
	ShapeInteractive = "interactive_inference"
	ShapeBatch       = "batch_inference"
	ShapeFineTuning  = "fine_tuning"
	ShapeTraining    = "training" // large training or simulation
)

// Shapes lists the allowed workload shapes in display order.
var Shapes = []string{ShapeInteractive, ShapeBatch, ShapeFineTuning, ShapeTraining}

// Hosting directions, in the order the report lists them.
const (
	Managed = "managed"
	Cloud   = "cloud"
	OnPrem  = "on_prem"
	HPC     = "hpc"
	Hybrid  = "hybrid"
)

// Directions lists the five hosting directions.
var Directions = []string{Managed, Cloud, OnPrem, HPC, Hybrid}

// DirectionTitle is the human name of each direction.
var DirectionTitle = map[string]string{
	Managed: "Managed service",
	Cloud:   "Cloud IaaS",
	OnPrem:  "On-premises",
	HPC:     "Shared HPC",
	Hybrid:  "Hybrid",
}

// Data movement rules (the sovereignty facts that decide what may leave the
// controlled environment).
const (
	MoveAny      = "any"           // data may be processed anywhere allowed by residency
	MoveSnapshot = "snapshot_only" // only an approved, minimised snapshot may leave
	MoveNone     = "none"          // nothing leaves the controlled environment
)

// Movements lists the allowed data.movement values.
var Movements = []string{MoveAny, MoveSnapshot, MoveNone}

// Where the data lives (data.location): on the organisation's own site,
// in a cloud provider's storage, or at the HPC centre. A direction that
// runs where the data lives stages nothing; the others copy it, over the
// site's uplink when the copy leaves or enters the site.
const (
	LocationOnSite = "on_site" // the organisation's own storage, beside on-premises hardware
	LocationCloud  = "cloud"   // a cloud provider's storage, in the region the cloud offer runs in
	LocationHPC    = "hpc"     // the shared HPC centre's storage
)

// Locations lists the allowed data.location values; empty leaves the
// location unstated (every direction stages from the source storage).
var Locations = []string{LocationOnSite, LocationCloud, LocationHPC}

// Classifications lists the allowed data.classification values.
var Classifications = []string{"public", "internal", "confidential", "restricted"}

// Outputs lists the kinds of output a run may return.
var Outputs = []string{"checkpoints", "evaluation", "logs", "predictions", "model_weights", "metrics"}

// Precisions lists the allowed workload.precision values.
var Precisions = []string{"fp32", "bf16", "fp16", "fp8", "int8", "int4"}

// FineTuneMethods lists the allowed workload.method values.
var FineTuneMethods = []string{"full", "lora", "qlora"}

// Financings lists the allowed options.on_prem.financing values.
var Financings = []string{"depreciation", "purchase", "lease"}

// Distributions lists the allowed distribution values.
var Distributions = []string{"triangular", "pert"}

// Shardings lists the allowed workload.sharding values: data parallel with
// replicated model state, or ZeRO stages 1–3 (Rajbhandari et al. 2020).
var Shardings = []string{"replicated", "zero1", "zero2", "zero3"}

// KVPrecisions lists the allowed workload.kv_cache_precision values;
// empty: 8 bits when the work runs in FP8 (the serving engines' FP8
// recipes quantize the cache too), 16 bits otherwise.
var KVPrecisions = []string{"bf16", "fp16", "fp8"}

// PricingModes lists the allowed options.cloud.pricing values. The mixed
// modes commit GPUs for the base load and pay on demand for the rest.
var PricingModes = []string{PricingOnDemand, PricingCommit1Y, PricingCommit3Y, PricingSpot, PricingMixed1Y, PricingMixed3Y}

// The options.cloud.pricing values.
const (
	PricingOnDemand = "on_demand" // the default
	PricingCommit1Y = "commit_1y"
	PricingCommit3Y = "commit_3y"
	PricingSpot     = "spot"
	PricingMixed1Y  = "mixed_1y"
	PricingMixed3Y  = "mixed_3y"
)

// PricingMode is options.cloud.pricing, on demand when not given.
func (c CloudOptions) PricingMode() string {
	if c.Pricing == "" {
		return PricingOnDemand
	}
	return c.Pricing
}

// ManagedPricings lists the allowed options.managed.pricing values: per
// token, or a dedicated deployment paid by the GPU-hour. Not given, the
// managed direction takes whichever costs less.
var ManagedPricings = []string{"per_token", "dedicated"}

// Skills lists operational skills a team may have (dimensions.operations.skills).
var Skills = []string{"cloud", "kubernetes", "gpu_cluster", "hpc_scheduler", "datacentre", "mlops"}

// LifecycleStages are the seven stages of the data lifecycle, in order.
var LifecycleStages = []string{"collect", "ingest", "prepare", "stage", "compute", "evaluate", "retain"}

// StageStatuses lists allowed lifecycle stage statuses.
var StageStatuses = []string{"open", "in_progress", "done", "not_applicable"}

// Scenario is one planning case.
type Scenario struct {
	SchemaVersion int    `json:"schema_version"`
	ID            string `json:"id"`
	Name          string `json:"name"`
	Description   string `json:"description,omitempty"`
	Currency      string `json:"currency"`
	Seed          uint64 `json:"seed,omitempty"`
	// Distribution turns each estimate into a triangular (default) or PERT
	// distribution for the Monte Carlo.
	Distribution string     `json:"distribution,omitempty"`
	Purpose      Purpose    `json:"purpose"`
	Workload     Workload   `json:"workload"`
	Data         Data       `json:"data"`
	Dimensions   Dimensions `json:"dimensions"`
	Options      Options    `json:"options"`
	// PriceOverrides change catalog figures for this scenario only, in the
	// catalog's override form (hostplan catalog export shows every kind,
	// id and field); they win over the store's overrides.
	PriceOverrides []PriceOverride `json:"price_overrides,omitempty"`
	// ExchangeRates are the scenario's own exchange rates: each says how
	// many units of the scenario's currency one unit of another currency
	// buys ({"currency": "USD", "rate": 0.86} in a EUR scenario: 1 USD =
	// 0.86 EUR). They win over the catalog's rate table, with which the
	// model converts every catalog price into the scenario's currency.
	ExchangeRates []ExchangeRate `json:"exchange_rates,omitempty"`
}

// ExchangeRate is one rate a scenario sets: Rate units of the scenario's
// currency per unit of Currency, with its provenance.
type ExchangeRate struct {
	Currency string  `json:"currency"` // ISO 4217 code of the currency converted from
	Rate     float64 `json:"rate"`     // units of the scenario's currency per unit of Currency
	AsOf     string  `json:"as_of,omitempty"`
	Source   string  `json:"source,omitempty"`
}

// PriceOverride sets one field of one catalog entry, with its provenance.
type PriceOverride struct {
	Kind   string `json:"kind"`  // gpu, model, cloud, data, node, site, hpc, managed, grid, pue, rate
	ID     string `json:"id"`    // entry id; the provider for data, "site" for the site
	Field  string `json:"field"` // the entry's field, e.g. on_demand
	Value  string `json:"value"` // as the catalog CSV writes it, e.g. "5.10"
	AsOf   string `json:"as_of"` // YYYY-MM-DD
	Source string `json:"source"`
}

// Purpose is the "purpose and success" part of the brief.
type Purpose struct {
	Decision               string `json:"decision"`
	SuccessMeasure         string `json:"success_measure"`
	Baseline               string `json:"baseline,omitempty"`
	AcceptableRuntimeHours Value  `json:"acceptable_runtime_hours,omitzero"`
	Owner                  string `json:"owner"`
}

// Model names a catalog preset or gives the architecture directly.
// Parameter counts are in billions.
type Model struct {
	Preset        string  `json:"preset,omitempty"`
	ParamsB       float64 `json:"params_b,omitempty"`
	ActiveParamsB float64 `json:"active_params_b,omitempty"`
	Layers        int     `json:"layers,omitempty"`
	HiddenSize    int     `json:"hidden_size,omitempty"`
	Heads         int     `json:"heads,omitempty"` // attention (query) heads
	KVHeads       int     `json:"kv_heads,omitempty"`
	HeadDim       int     `json:"head_dim,omitempty"`
	// KVLatentDim is the values a compressed-attention layer caches per
	// token in place of its keys and values (multi-head latent attention:
	// DeepSeek-V3's kv_lora_rank 512 + qk_rope_head_dim 64 = 576); 0: a
	// plain or grouped-query cache of 2 × kv_heads × head_dim.
	KVLatentDim int `json:"kv_latent_dim,omitempty"`
	// SlidingWindow is the tokens a windowed attention layer attends over
	// and keeps in its KV cache (local or sliding-window attention, or
	// chunked attention's chunk: Gemma 3 1,024, gpt-oss 128, Llama 4
	// 8,192), and WindowLayers how many layers are windowed; the others
	// attend over the whole context. 0 and 0: every layer does (or the
	// preset's). Both or neither.
	SlidingWindow int `json:"sliding_window,omitempty"`
	WindowLayers  int `json:"window_layers,omitempty"`
	// Experts and ExpertsPerToken: a mixture of experts' routed experts
	// per MoE layer and how many each token uses (0: a dense model, or
	// the preset's); MoELayers how many of the layers have experts, the
	// others being dense (DeepSeek-V3 58 of 61, Llama 4 Maverick 24 of
	// 48; 0: every layer, or the preset's).
	Experts         int     `json:"experts,omitempty"`
	ExpertsPerToken int     `json:"experts_per_token,omitempty"`
	MoELayers       int     `json:"moe_layers,omitempty"`
	GFLOPsPerItem   float64 `json:"gflops_per_item,omitempty"` // non-LLM work: forward+backward GFLOPs per sample or step
	GradientGB      float64 `json:"gradient_gb,omitempty"`     // non-LLM: gradient size exchanged per step, GB
}

// Traffic describes inference demand. Rates are requests per second.
type Traffic struct {
	PeakRPS         Value `json:"peak_rps,omitzero"`
	MeanRPS         Value `json:"mean_rps,omitzero"`
	TokensIn        Value `json:"tokens_in,omitzero"`  // per request
	TokensOut       Value `json:"tokens_out,omitzero"` // per request
	LatencyTargetMS Value `json:"latency_target_ms,omitzero"`
	// The load over the day, one of two forms (neither: the peak all
	// day). PeakHoursPerDay is how many hours a day the load is at its
	// peak; the other hours carry the rest of the day's mean.
	// HourlyLoad is 24 levels, one per hour from midnight, in any unit
	// (requests/s, or shares of the peak): scaled so that the day
	// averages mean_rps, never above peak_rps.
	PeakHoursPerDay Value     `json:"peak_hours_per_day,omitzero"`
	HourlyLoad      []float64 `json:"hourly_load,omitempty"`
	// ScaleUpMargin is the capacity kept above the load while replicas
	// follow it (default 0.25: scale up at 80 % of a replica's capacity).
	ScaleUpMargin Value `json:"scale_up_margin,omitzero"`
}

// TrialPoint is one measurement from a representative trial run.
type TrialPoint struct {
	GPUs       int     `json:"gpus"`
	Throughput float64 `json:"throughput"` // items or tokens per second
}

// Workload is the work the infrastructure must perform.
type Workload struct {
	Shape     string `json:"shape"`
	Model     Model  `json:"model"`
	Precision string `json:"precision"`
	Method    string `json:"method,omitempty"` // fine-tuning: full, lora, qlora
	// TokensPerRun is the training or fine-tuning tokens (epochs included)
	// or, for batch inference, the tokens processed per batch, in billions.
	TokensPerRunB Value `json:"tokens_per_run_b,omitzero"`
	// ItemsPerRun is used with Model.GFLOPsPerItem for non-LLM work
	// (simulation steps, images), in millions.
	ItemsPerRunM  Value        `json:"items_per_run_m,omitzero"`
	RunsPerMonth  Value        `json:"runs_per_month,omitzero"`
	Traffic       *Traffic     `json:"traffic,omitempty"`
	DeadlineHours Value        `json:"deadline_hours,omitzero"` // longest acceptable time to result per run
	MFU           Value        `json:"mfu,omitzero"`            // model FLOPs utilisation, 0–1
	Trial         []TrialPoint `json:"trial,omitempty"`
	TrialGPU      string       `json:"trial_gpu,omitempty"` // catalog GPU the trial ran on; its fit replaces the analytic curve on that GPU

	// Training and fine-tuning details (defaults in the model when omitted).
	Recompute bool   `json:"recompute,omitempty"` // full activation recomputation: k = 8, activations shrink
	Sharding  string `json:"sharding,omitempty"`  // replicated, zero1, zero2, zero3
	// KVCachePrecision is the number format of the KV cache in inference
	// (KVPrecisions); empty: the default KVPrecisions states.
	KVCachePrecision  string `json:"kv_cache_precision,omitempty"`
	SequenceLength    int    `json:"sequence_length,omitempty"`     // tokens per sequence
	MicroBatch        int    `json:"micro_batch,omitempty"`         // sequences per GPU per micro-step
	GlobalBatchTokens int    `json:"global_batch_tokens,omitempty"` // tokens per optimizer step
	GlobalBatchItems  int    `json:"global_batch_items,omitempty"`  // items per optimizer step (non-LLM)
	Epochs            Value  `json:"epochs,omitzero"`               // passes over data.volume_gb per run
	SerialFraction    Value  `json:"serial_fraction,omitzero"`      // share of a one-GPU step that does not parallelise
	// FailuresPerMillionGPUHours is the rate of unexpected interruptions
	// of a job per GPU (default: Llama 3's fleet); 0 counts none.
	FailuresPerMillionGPUHours Value `json:"failures_per_million_gpu_hours,omitzero"`
	// EfficiencyThreshold is the lowest scaling efficiency worth paying for
	// (default 0.7).
	EfficiencyThreshold Value `json:"efficiency_threshold,omitzero"`
}

// LifecycleStage is one of the seven stages with its owner and status.
type LifecycleStage struct {
	Stage  string `json:"stage"`
	Owner  string `json:"owner"`
	Status string `json:"status"`
}

// Data describes the data the workload reads and what may move.
type Data struct {
	VolumeGB       Value    `json:"volume_gb"`
	FileCount      Value    `json:"file_count,omitzero"`
	Classification string   `json:"classification"`
	PersonalData   bool     `json:"personal_data"`
	Residency      string   `json:"residency"` // region code the data must stay in, or "any"
	Movement       string   `json:"movement"`
	SnapshotGB     Value    `json:"snapshot_gb,omitzero"` // size of the approved minimised snapshot
	ReturnOutputs  []string `json:"return_outputs,omitempty"`
	OutputGB       Value    `json:"output_gb,omitzero"` // per run, returned to the controlled environment
	RetentionOwner string   `json:"retention_owner,omitempty"`
	StorageGBps    Value    `json:"storage_gbps,omitzero"`
	// Location is where the data lives (Locations); empty: unstated.
	Location string `json:"location,omitempty"`
	// UplinkGbitS is the site's link to clouds and HPC centres, in
	// Gbit/s; a copy that leaves or enters the site goes no faster.
	UplinkGbitS     Value            `json:"uplink_gbit_s,omitzero"`
	ControlledEnv   string           `json:"controlled_environment,omitempty"` // where the source of record lives
	Lifecycle       []LifecycleStage `json:"lifecycle,omitempty"`
	ProviderAllowed bool             `json:"provider_may_process"` // a managed provider may receive and keep the data
}

// Dimension is one decision dimension's weight.
type Dimension struct {
	Weight float64 `json:"weight"`
}

// Sovereignty holds the sovereignty dimension.
type Sovereignty struct {
	Dimension
	Notes string `json:"notes,omitempty"`
	// ProviderHome lists the legal homes a cloud or managed provider
	// may have (ISO 3166-1 alpha-2 codes such as FR or DE, or EU for
	// its member states); empty: any.
	ProviderHome []string `json:"provider_home,omitempty"`
}

// ShapeDim holds the workload-shape dimension (demand pattern facts).
type ShapeDim struct {
	Dimension
	Pattern string `json:"pattern,omitempty"` // continuous, periodic, burst
}

// Operations holds the operations dimension: the team that runs it.
type Operations struct {
	Dimension
	StaffFTE Value    `json:"staff_fte"`
	Skills   []string `json:"skills,omitempty"`
}

// Economics holds the economics dimension.
type Economics struct {
	Dimension
	BudgetCap     Value `json:"budget_cap,omitzero"` // over the horizon, in the scenario currency
	HorizonMonths int   `json:"horizon_months"`
}

// Optionality holds the optionality dimension (exit cost and lock-in).
type Optionality struct {
	Dimension
	ExitRequired bool `json:"exit_required"` // must be able to move data, containers and artefacts elsewhere
}

// Dimensions are the five decision dimensions with their weights.
type Dimensions struct {
	Sovereignty   Sovereignty `json:"sovereignty"`
	WorkloadShape ShapeDim    `json:"workload_shape"`
	Operations    Operations  `json:"operations"`
	Economics     Economics   `json:"economics"`
	Optionality   Optionality `json:"optionality"`
}

// Weights returns the five weights in dimension order
// (sovereignty, workload shape, operations, economics, optionality).
func (d Dimensions) Weights() [5]float64 {
	return [5]float64{d.Sovereignty.Weight, d.WorkloadShape.Weight, d.Operations.Weight, d.Economics.Weight, d.Optionality.Weight}
}

// SetWeights sets the five weights, in the order of Weights.
func (d *Dimensions) SetWeights(w [5]float64) {
	d.Sovereignty.Weight, d.WorkloadShape.Weight, d.Operations.Weight, d.Economics.Weight, d.Optionality.Weight = w[0], w[1], w[2], w[3], w[4]
}

// DimensionNames lists the dimension keys in the order of Weights.
var DimensionNames = []string{"sovereignty", "workload_shape", "operations", "economics", "optionality"}

// ManagedOptions configures the managed-service direction.
type ManagedOptions struct {
	Disabled bool   `json:"disabled,omitempty"`
	Offer    string `json:"offer,omitempty"` // catalog managed offer id
	// Pricing forces per-token pricing or a dedicated deployment
	// (ManagedPricings); "" takes the cheaper.
	Pricing string `json:"pricing,omitempty"`
	// Price overrides, per million tokens.
	PriceInPerM  Value `json:"price_in_per_m,omitzero"`
	PriceOutPerM Value `json:"price_out_per_m,omitzero"`
}

// CloudOptions configures the cloud IaaS direction.
type CloudOptions struct {
	Disabled       bool   `json:"disabled,omitempty"`
	Offer          string `json:"offer,omitempty"` // catalog cloud offer id
	Pricing        string `json:"pricing,omitempty"`
	GPUs           int    `json:"gpus,omitempty"`
	PricePerGPUHr  Value  `json:"price_per_gpu_hour,omitzero"`
	StorageGBMonth Value  `json:"storage_per_gb_month,omitzero"`
	EgressPerGB    Value  `json:"egress_per_gb,omitzero"`
	// SpotInterruptions is the fraction of spot instances interrupted per
	// month (AWS Spot Instance Advisor buckets); default 5–10 %.
	SpotInterruptions Value `json:"spot_interruptions_per_month,omitzero"`
}

// OnPremOptions configures the on-premises direction.
type OnPremOptions struct {
	Disabled       bool    `json:"disabled,omitempty"`
	Node           string  `json:"node,omitempty"` // catalog node id
	Nodes          int     `json:"nodes,omitempty"`
	Existing       bool    `json:"existing,omitempty"` // hardware already owned: no purchase, no lead time
	ElectricityKWh Value   `json:"electricity_per_kwh,omitzero"`
	PUE            Value   `json:"pue,omitzero"`
	LifeYears      float64 `json:"life_years,omitempty"`
	StaffFTE       Value   `json:"staff_fte,omitzero"`
	// Financing is how the hardware is paid for: depreciation (straight
	// line over the life, monthly; the default), purchase (the price paid
	// at the start of the horizon) or lease (a monthly payment per node).
	Financing         string `json:"financing,omitempty"`
	LeasePerNodeMonth Value  `json:"lease_per_node_month,omitzero"`
	NodePrice         Value  `json:"node_price,omitzero"` // overrides the catalog price of one node
	// ExpectedUtilisation is the share of the hardware's hours that will be
	// used once other work shares it; it sets the effective price per
	// GPU-hour the report quotes (default: this workload's own use).
	ExpectedUtilisation Value `json:"expected_utilisation,omitzero"`
	// InfrastructureShare is what the cluster around the nodes — fabric
	// (switches, cables), storage, installation — adds to their price, as
	// a share of it (default: the site's).
	InfrastructureShare Value `json:"infrastructure_share,omitzero"`
	// CostOfCapital is the yearly rate the money tied up in owned hardware
	// would earn elsewhere (default: the site's).
	CostOfCapital Value `json:"cost_of_capital,omitzero"`
	// RackKW is the most power one rack of the site takes, in kW (default:
	// the site's); a node drawing more cannot be placed.
	RackKW Value `json:"rack_kw,omitzero"`
}

// HPCAccesses lists the allowed options.hpc.access values: a member of
// the centre (its own researchers, or an allocation holder) pays the
// member rate; an external user the external rate, where there is one.
var HPCAccesses = []string{"member", "external"}

// GrantPeriods lists the allowed options.hpc.grant_period values: the
// period granted GPU-hours cover. Allocations are granted per year or per
// project; a monthly quota is rarer.
var GrantPeriods = []string{"year", "project", "month"}

// HPCOptions configures the shared HPC direction.
type HPCOptions struct {
	Disabled       bool   `json:"disabled,omitempty"`
	Partition      string `json:"partition,omitempty"` // catalog partition id
	GPUs           int    `json:"gpus,omitempty"`
	QueueWaitHours Value  `json:"queue_wait_hours,omitzero"` // per job at light use; the model raises it with the share asked
	// GrantedGPUHours is an allocation's GPU-hours per GrantPeriod (year
	// when not given); 0 = pay per use.
	GrantedGPUHours Value  `json:"granted_gpu_hours,omitzero"`
	GrantPeriod     string `json:"grant_period,omitempty"`
	PricePerGPUHr   Value  `json:"price_per_gpu_hour,omitzero"`
	// Access is member (the default) or external: which of the
	// partition's rates applies.
	Access string `json:"access,omitempty"`
	// FairShare replaces the partition's fair-share limit: the largest
	// share of it one project may hold.
	FairShare Value `json:"fair_share,omitzero"`
}

// HybridOptions configures the hybrid direction: the controlled environment
// keeps the source and preparation; compute bursts to BurstTo.
type HybridOptions struct {
	Disabled bool   `json:"disabled,omitempty"`
	BurstTo  string `json:"burst_to,omitempty"` // cloud or hpc
	ExtraFTE Value  `json:"extra_staff_fte,omitzero"`
}

// Options holds per-direction parameters; anything left out defaults from
// the catalog.
type Options struct {
	Managed ManagedOptions `json:"managed"`
	Cloud   CloudOptions   `json:"cloud"`
	OnPrem  OnPremOptions  `json:"on_prem"`
	HPC     HPCOptions     `json:"hpc"`
	Hybrid  HybridOptions  `json:"hybrid"`
	Energy  EnergyOptions  `json:"energy,omitzero"`
}

// EnergyOptions replace the catalog's grid carbon intensity (grams of
// CO2e per kWh) in the report's energy figures: one value for every
// direction, or one direction's own, which wins. Energy is not a cost.
type EnergyOptions struct {
	GridGCO2ePerKWh        Value `json:"grid_g_co2e_per_kwh,omitzero"`
	ManagedGridGCO2ePerKWh Value `json:"managed_grid_g_co2e_per_kwh,omitzero"`
	CloudGridGCO2ePerKWh   Value `json:"cloud_grid_g_co2e_per_kwh,omitzero"`
	OnPremGridGCO2ePerKWh  Value `json:"on_prem_grid_g_co2e_per_kwh,omitzero"`
	HPCGridGCO2ePerKWh     Value `json:"hpc_grid_g_co2e_per_kwh,omitzero"`
	HybridGridGCO2ePerKWh  Value `json:"hybrid_grid_g_co2e_per_kwh,omitzero"`
}
