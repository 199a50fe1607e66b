package model

import "slices"

// Kind is the class of hard constraint a reason belongs to, after the
// design's list: sovereignty and residency (which data may leave, which
// outputs may return), fit (the work does not fit the memory or capacity on
// offer), deadline (including a latency target), budget (the cap, or an HPC
// grant), operations (staff and skills), and other (a direction the
// scenario excluded, or one with no offer for this work).
type Kind string

// The constraint kinds.
const (
	KindSovereignty Kind = "sovereignty"
	KindFit         Kind = "fit"
	KindDeadline    Kind = "deadline"
	KindBudget      Kind = "budget"
	KindOperations  Kind = "operations"
	KindOther       Kind = "other"
)

// Kinds lists the constraint kinds in display order.
var Kinds = []Kind{KindSovereignty, KindFit, KindDeadline, KindBudget, KindOperations, KindOther}

// ReasonCode names one way a direction can be ruled out. Codes are stable:
// a face or a later step may key tables on them; the text may change.
type ReasonCode string

// The reasons the model gives for ruling a direction out.
const (
	ReasonExcluded               ReasonCode = "excluded_by_scenario"           // the scenario disables the direction
	ReasonDataMustStay           ReasonCode = "data_must_stay"                 // no data may leave the controlled environment
	ReasonSourceMustStay         ReasonCode = "source_records_must_stay"       // only a snapshot may leave; the direction moves everything
	ReasonOutsideResidency       ReasonCode = "outside_residency"              // the offer processes data outside the required jurisdiction
	ReasonProviderReceivesData   ReasonCode = "provider_receives_data"         // a managed provider would receive data that may not leave
	ReasonProviderMayNotProcess  ReasonCode = "provider_may_not_process"       // no provider may receive or keep the data
	ReasonNoManagedTraining      ReasonCode = "no_managed_training"            // no managed service trains from scratch
	ReasonNoManagedOffer         ReasonCode = "no_managed_offer"               // no managed offer holds a model of this size
	ReasonProviderKeepsWeights   ReasonCode = "provider_keeps_weights"         // tuned weights cannot come back
	ReasonNoCloudPrice           ReasonCode = "no_cloud_price"                 // no cloud offer has a price in the mode and region
	ReasonBurstOutsideResidency  ReasonCode = "burst_target_outside_residency" // hybrid bursts outside the required jurisdiction
	ReasonCommittedGPUsShort     ReasonCode = "committed_gpus_short"           // committed GPUs give fewer hours than the work needs
	ReasonOwnedCapacityShort     ReasonCode = "owned_capacity_short"           // the owned nodes give fewer hours than the work needs
	ReasonHPCNotForServing       ReasonCode = "hpc_not_for_serving"            // a scheduler runs batch jobs, not a service
	ReasonCheckpointOverWallTime ReasonCode = "checkpoint_over_wall_time"      // one checkpoint takes longer than a job may run
	ReasonGrantExceeded          ReasonCode = "grant_exceeded"                 // the work needs more GPU-hours than the grant
	ReasonFairShareExceeded      ReasonCode = "fair_share_exceeded"            // the work needs more of the partition than one project may hold
	ReasonHPCMembersOnly         ReasonCode = "hpc_members_only"               // the centre takes no users from outside
	ReasonNothingToBurst         ReasonCode = "nothing_to_burst"               // not even a snapshot may leave
	ReasonLiveRequestsCarryData  ReasonCode = "live_requests_carry_data"       // serving would send source data out
	ReasonOutputsMayNotReturn    ReasonCode = "outputs_may_not_return"         // the run's outputs are not allowed back
	ReasonSpotTooInterrupted     ReasonCode = "spot_too_interrupted"           // interruptions cost more than the work
	ReasonWeightsDoNotFit        ReasonCode = "weights_do_not_fit"             // no tensor-parallel degree up to 64 holds the weights
	ReasonLatencyTargetMissed    ReasonCode = "latency_target_missed"          // no batch meets the latency target
	ReasonReplicasOverCapacity   ReasonCode = "replicas_over_capacity"         // the peak needs more GPUs than available
	ReasonStateDoesNotFit        ReasonCode = "state_does_not_fit"             // the run does not fit even on all GPUs available
	ReasonTooFewGPUs             ReasonCode = "too_few_gpus"                   // the chosen count does not hold the run
	ReasonTooManyGPUs            ReasonCode = "too_many_gpus"                  // the chosen count exceeds what is available
	ReasonDeadlineMissed         ReasonCode = "deadline_missed"                // a run takes longer than the deadline
	ReasonStaffShort             ReasonCode = "staff_short"                    // the team has fewer FTE than operation needs
	ReasonSkillMissing           ReasonCode = "skill_missing"                  // the team lacks the direction's core skill
	ReasonBudgetCapExceeded      ReasonCode = "budget_cap_exceeded"            // the horizon cost exceeds the budget cap
	ReasonRackPowerExceeded      ReasonCode = "rack_power_exceeded"            // one node draws more than a rack of the site takes
	ReasonFailuresTooFrequent    ReasonCode = "failures_too_frequent"          // hardware failures cost more than the work
	ReasonProviderHomeExcluded   ReasonCode = "provider_home_excluded"         // the offer's provider is at home outside the allowed homes
	ReasonRunLongerThanInterval  ReasonCode = "run_longer_than_interval"       // a run takes longer than the time between runs
	ReasonRunLongerThanHorizon   ReasonCode = "run_longer_than_horizon"        // a run takes longer than the horizon
)

// reasonKinds gives every code its kind, in the order ReasonCodes lists
// them: the one table of the model's reasons.
var reasonKinds = []coded[ReasonCode, Kind]{
	{ReasonExcluded, KindOther},
	{ReasonDataMustStay, KindSovereignty},
	{ReasonSourceMustStay, KindSovereignty},
	{ReasonOutsideResidency, KindSovereignty},
	{ReasonProviderReceivesData, KindSovereignty},
	{ReasonProviderMayNotProcess, KindSovereignty},
	{ReasonNoManagedTraining, KindOther},
	{ReasonNoManagedOffer, KindFit},
	{ReasonProviderKeepsWeights, KindSovereignty},
	{ReasonNoCloudPrice, KindOther},
	{ReasonBurstOutsideResidency, KindSovereignty},
	{ReasonCommittedGPUsShort, KindFit},
	{ReasonOwnedCapacityShort, KindFit},
	{ReasonHPCNotForServing, KindOther},
	{ReasonCheckpointOverWallTime, KindFit},
	{ReasonGrantExceeded, KindBudget},
	{ReasonFairShareExceeded, KindFit},
	{ReasonHPCMembersOnly, KindOther},
	{ReasonNothingToBurst, KindSovereignty},
	{ReasonLiveRequestsCarryData, KindSovereignty},
	{ReasonOutputsMayNotReturn, KindSovereignty},
	{ReasonSpotTooInterrupted, KindOther},
	{ReasonWeightsDoNotFit, KindFit},
	{ReasonLatencyTargetMissed, KindDeadline},
	{ReasonReplicasOverCapacity, KindFit},
	{ReasonStateDoesNotFit, KindFit},
	{ReasonTooFewGPUs, KindFit},
	{ReasonTooManyGPUs, KindFit},
	{ReasonDeadlineMissed, KindDeadline},
	{ReasonStaffShort, KindOperations},
	{ReasonSkillMissing, KindOperations},
	{ReasonBudgetCapExceeded, KindBudget},
	{ReasonRackPowerExceeded, KindFit},
	{ReasonFailuresTooFrequent, KindFit},
	{ReasonProviderHomeExcluded, KindSovereignty},
	{ReasonRunLongerThanInterval, KindDeadline},
	{ReasonRunLongerThanHorizon, KindDeadline},
}

// ReasonCodes lists every code the model can give, in the order of its
// table.
var ReasonCodes = codesOf(reasonKinds)

// Kind returns the kind of constraint the code belongs to (KindOther for a
// code the model does not define).
func (c ReasonCode) Kind() Kind { return kindOf(reasonKinds, c, KindOther) }

// Reason is one hard constraint a direction breaks: its code and kind, the
// scenario fields it concerns (JSON paths such as "data.movement", for a
// face to point at) and a sentence for a reader, in plain words.
type Reason struct {
	Code   ReasonCode `json:"code"`
	Kind   Kind       `json:"kind"`
	Fields []string   `json:"fields"`
	Text   string     `json:"text"`
}

// ReasonTexts returns the texts of reasons, in order.
func ReasonTexts(rs []Reason) []string { return texts(rs, func(r Reason) string { return r.Text }) }

// NoteKind says what a note is about.
type NoteKind string

// The note kinds.
const (
	// NoteAssumption is a figure the model assumed because the scenario
	// (or the provider) gives none: an estimate to replace.
	NoteAssumption NoteKind = "assumption"
	// NotePlan is what the model chose or derived: pricing, replicas,
	// jobs, utilisation, the scaling source.
	NotePlan NoteKind = "plan"
	// NoteCaveat warns that a figure may mislead as it stands.
	NoteCaveat NoteKind = "caveat"
	// NoteCatalog is a catalog entry's own note on the figures it gives.
	NoteCatalog NoteKind = "catalog"
)

// NoteCode names one note the model writes; stable like ReasonCode.
type NoteCode string

// The notes the model writes: the report's warnings (about the whole
// workload) and the directions' notes.
const (
	NoteMFUAssumed               NoteCode = "mfu_assumed"
	NoteGradientSizeAssumed      NoteCode = "gradient_size_assumed"
	NoteStorageAssumed           NoteCode = "storage_throughput_assumed"
	NoteCatalogCurrency          NoteCode = "catalog_currency_differs" // no longer written: a currency without a rate is refused
	NotePartitionCurrency        NoteCode = "partition_currency_differs"
	NoteCatalogEntry             NoteCode = "catalog_note"
	NoteManagedTimeEstimated     NoteCode = "managed_time_estimated"
	NoteTokenSplitAssumed        NoteCode = "token_split_assumed"
	NotePricingMode              NoteCode = "pricing_mode"
	NoteCommittedUtilisation     NoteCode = "committed_utilisation"
	NoteDataPricesMissing        NoteCode = "data_prices_missing"
	NoteControlledElsewhere      NoteCode = "controlled_environment_elsewhere"
	NoteLeadTime                 NoteCode = "lead_time"
	NoteExistingHardware         NoteCode = "existing_hardware"
	NotePowerAboveIdle           NoteCode = "power_above_idle"
	NoteOwnedUtilisation         NoteCode = "owned_utilisation"
	NoteQueueWaitAssumed         NoteCode = "queue_wait_assumed"
	NoteWallTimeJobs             NoteCode = "wall_time_jobs"
	NoteGrantedHours             NoteCode = "granted_hours"
	NoteFairShare                NoteCode = "fair_share"
	NoteMemberRate               NoteCode = "member_rate"
	NoteBurstPlan                NoteCode = "burst_plan"
	NoteHybridUnconstrained      NoteCode = "hybrid_unconstrained"
	NoteSpotRateAssumed          NoteCode = "spot_rate_assumed"
	NoteSpotOverhead             NoteCode = "spot_overhead"
	NoteBridgeUnavailable        NoteCode = "bridge_unavailable"
	NoteServingPlan              NoteCode = "serving_plan"
	NoteOfferChoice              NoteCode = "offer_choice"    // the model chose the cloud offer: the runners-up
	NoteParallelLayout           NoteCode = "parallel_layout" // training split by tensor and pipeline parallelism
	NoteAutoscaled               NoteCode = "autoscaled"
	NoteNoTrafficProfile         NoteCode = "no_traffic_profile"
	NoteAssumedDay               NoteCode = "assumed_day" // peak and mean given, no day: DefaultPeakHours assumed
	NoteMixedPricing             NoteCode = "mixed_pricing"
	NoteScalingFromTrial         NoteCode = "scaling_from_trial"
	NoteTrialNotFitted           NoteCode = "trial_not_fitted"
	NoteBelowEfficiencyThreshold NoteCode = "below_efficiency_threshold"
	NoteStalePrice               NoteCode = "stale_price"            // a used price more than twelve months older than the catalog
	NoteStaffMonths              NoteCode = "staff_months"           // staff charged for the months a rented direction is in use
	NoteOwnedStaff               NoteCode = "owned_staff"            // staff for owned hardware: per node, at least a minimum
	NoteRacks                    NoteCode = "racks"                  // owned nodes in racks under the site's power limit
	NoteCurrencyConverted        NoteCode = "currency_converted"     // catalog prices converted into the scenario's currency
	NoteResidualValue            NoteCode = "residual_value"         // owned hardware's value left at the end of the horizon
	NoteManagedPricing           NoteCode = "managed_pricing"        // per token or a dedicated deployment, and what the other costs
	NoteWholeInstances           NoteCode = "whole_instances"        // an offer sold by the instance bills its idle GPUs
	NoteFailureOverhead          NoteCode = "failure_overhead"       // checkpoints, lost work and restarts after hardware failures: rests on an estimated rate and restart time
	NoteDataPath                 NoteCode = "data_path"              // where the data lives and how it reaches the direction's compute
	NoteForeignOwned             NoteCode = "foreign_owned_provider" // residency met only by the region of a provider at home elsewhere
)

// noteKinds gives every note code its kind, in the order NoteCodes lists
// them.
var noteKinds = []coded[NoteCode, NoteKind]{
	{NoteMFUAssumed, NoteAssumption},
	{NoteGradientSizeAssumed, NoteAssumption},
	{NoteStorageAssumed, NoteAssumption},
	{NoteCatalogCurrency, NoteCaveat},
	{NotePartitionCurrency, NoteCaveat},
	{NoteCatalogEntry, NoteCatalog},
	{NoteManagedTimeEstimated, NoteAssumption},
	{NoteTokenSplitAssumed, NoteAssumption},
	{NotePricingMode, NotePlan},
	{NoteCommittedUtilisation, NotePlan},
	{NoteDataPricesMissing, NoteAssumption},
	{NoteControlledElsewhere, NoteCaveat},
	{NoteLeadTime, NoteAssumption},
	{NoteExistingHardware, NotePlan},
	{NotePowerAboveIdle, NotePlan},
	{NoteOwnedUtilisation, NotePlan},
	{NoteQueueWaitAssumed, NoteAssumption},
	{NoteWallTimeJobs, NotePlan},
	{NoteGrantedHours, NotePlan},
	{NoteFairShare, NotePlan},
	{NoteMemberRate, NoteCaveat},
	{NoteBurstPlan, NotePlan},
	{NoteHybridUnconstrained, NoteCaveat},
	{NoteSpotRateAssumed, NoteAssumption},
	{NoteSpotOverhead, NotePlan},
	{NoteBridgeUnavailable, NoteCaveat},
	{NoteServingPlan, NotePlan},
	{NoteOfferChoice, NotePlan},
	{NoteParallelLayout, NotePlan},
	{NoteAutoscaled, NotePlan},
	{NoteNoTrafficProfile, NoteAssumption},
	{NoteAssumedDay, NoteAssumption},
	{NoteMixedPricing, NotePlan},
	{NoteScalingFromTrial, NotePlan},
	{NoteTrialNotFitted, NoteCaveat},
	{NoteBelowEfficiencyThreshold, NoteCaveat},
	{NoteStalePrice, NoteCaveat},
	{NoteStaffMonths, NotePlan},
	{NoteOwnedStaff, NoteAssumption},
	{NoteRacks, NotePlan},
	{NoteCurrencyConverted, NotePlan},
	{NoteResidualValue, NotePlan},
	{NoteManagedPricing, NotePlan},
	{NoteFailureOverhead, NoteAssumption},
	{NoteDataPath, NotePlan},
	{NoteForeignOwned, NoteCaveat},
	{NoteWholeInstances, NotePlan},
}

// NoteCodes lists every note code the model can write.
var NoteCodes = codesOf(noteKinds)

// Kind returns the kind of the note (NoteCaveat for a code the model does
// not define).
func (c NoteCode) Kind() NoteKind { return kindOf(noteKinds, c, NoteCaveat) }

// Note is something a reader should know about the numbers: its code and
// kind, the scenario fields it concerns and its text in plain words.
type Note struct {
	Code   NoteCode `json:"code"`
	Kind   NoteKind `json:"kind"`
	Fields []string `json:"fields"`
	Text   string   `json:"text"`
}

// NoteTexts returns the texts of notes, in order.
func NoteTexts(ns []Note) []string { return texts(ns, func(n Note) string { return n.Text }) }

// noFields is the empty list of a reason or note that concerns no field.
var noFields = []string{}

// ownFields is the reason's or note's own copy of fields: the caller's list
// then need not outlive the call, so a writer that writes nothing (a quiet
// evaluation) costs no allocation.
func ownFields(fields []string) []string {
	if len(fields) == 0 {
		return noFields
	}
	return slices.Clone(fields)
}

func newReason(code ReasonCode, fields []string, text string) Reason {
	return Reason{Code: code, Kind: code.Kind(), Fields: ownFields(fields), Text: text}
}

func newNote(code NoteCode, fields []string, text string) Note {
	return Note{Code: code, Kind: code.Kind(), Fields: ownFields(fields), Text: text}
}

// Bottleneck is what limits a run first. The value is a stable code; Text
// is the reader's words for it.
type Bottleneck string

// The bottlenecks.
const (
	BottleneckCompute         Bottleneck = "compute"
	BottleneckCommunication   Bottleneck = "communication"    // exposed all-reduce
	BottleneckSerial          Bottleneck = "serial_part"      // the part of a step that does not parallelise
	BottleneckDataPath        Bottleneck = "data_path"        // reading the data from storage
	BottleneckMemoryCapacity  Bottleneck = "memory_capacity"  // the run does not fit GPU memory
	BottleneckMemoryBandwidth Bottleneck = "memory_bandwidth" // memory-bound decode
	BottleneckQueue           Bottleneck = "queue"            // HPC queue waits exceed compute
	BottleneckMeasured        Bottleneck = "measured"         // a calibrated curve still scaling well
)

// Bottlenecks lists every bottleneck the model names.
var Bottlenecks = []Bottleneck{BottleneckCompute, BottleneckCommunication, BottleneckSerial, BottleneckDataPath,
	BottleneckMemoryCapacity, BottleneckMemoryBandwidth, BottleneckQueue, BottleneckMeasured}

// Text is the bottleneck in a reader's words ("memory bandwidth"); "" for
// none.
func (b Bottleneck) Text() string {
	switch b {
	case BottleneckSerial:
		return "serial part"
	case BottleneckDataPath:
		return "data path"
	case BottleneckMemoryCapacity:
		return "memory capacity"
	case BottleneckMemoryBandwidth:
		return "memory bandwidth"
	}
	return string(b)
}

// Fields are the scenario fields that move the bottleneck: what a reader
// would change or measure first. Empty for a limit of the hardware alone.
func (b Bottleneck) Fields() []string {
	switch b {
	case BottleneckCompute:
		return []string{"workload.mfu"}
	case BottleneckSerial:
		return []string{"workload.serial_fraction"}
	case BottleneckDataPath:
		return []string{"data.volume_gb", "workload.epochs"}
	case BottleneckMemoryCapacity:
		return []string{"workload.precision", "workload.sharding", "workload.recompute"}
	case BottleneckMemoryBandwidth:
		return []string{"workload.traffic.latency_target_ms", "workload.precision"}
	case BottleneckQueue:
		return []string{"options.hpc.queue_wait_hours"}
	case BottleneckMeasured:
		return []string{"workload.trial"}
	}
	return noFields
}

// coded is one row of a code table: a code and the kind it belongs to.
// Reasons and notes each keep one table; the helpers below read either.
type coded[C, K ~string] struct {
	code C
	kind K
}

// codesOf lists a table's codes in order.
func codesOf[C, K ~string](table []coded[C, K]) []C {
	out := make([]C, len(table))
	for i, row := range table {
		out[i] = row.code
	}
	return out
}

// kindOf is the kind of code c in table, or def when the table lacks it.
func kindOf[C, K ~string](table []coded[C, K], c C, def K) K {
	for _, row := range table {
		if row.code == c {
			return row.kind
		}
	}
	return def
}

// texts maps each element to its text.
func texts[T any](xs []T, text func(T) string) []string {
	out := make([]string, len(xs))
	for i, x := range xs {
		out[i] = text(x)
	}
	return out
}
