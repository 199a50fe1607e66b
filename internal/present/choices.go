package present

import (
	"strings"

	"hostplan/internal/scenario"
)

// Choice is one allowed value of an enumerated field with its wording.
// A choice of a field that holds one value is labelled as it reads on its
// own ("Fine-tuning"; Lower gives the form inside a sentence); a choice of
// a list field is labelled as it reads inside a list ("checkpoints,
// evaluation results").
type Choice struct {
	Value string // as the scenario file writes it: "snapshot_only"
	Label string // for people: "Only an approved, minimised snapshot may leave"
	Help  string // one line: what choosing it means
}

// choices holds the choices of every enumerated field, by the field's
// path, in the order package scenario lists the allowed values.
var choices = map[string][]Choice{
	"workload.shape": {
		// The seed's workload shapes, their primary concern and first question.
		{scenario.ShapeInteractive, "Interactive inference",
			"Response latency, availability and predictable concurrency: how quickly must one user receive a result?"},
		{scenario.ShapeBatch, "Batch inference",
			"Throughput, scheduling and cost per processed item: can the work run hourly, nightly or on demand?"},
		{scenario.ShapeFineTuning, "Fine-tuning",
			"GPU memory, data set size, runtime and checkpoints: which model, precision and training method?"},
		{scenario.ShapeTraining, "Training or simulation",
			"Parallelism, interconnect, storage throughput and reproducibility: can the work use multiple nodes efficiently?"},
	},
	"workload.precision": {
		{"fp32", "FP32 (32-bit float)", "4 bytes a weight: twice the memory of a 16-bit format for the same work."},
		{"bf16", "BF16 (bfloat16)", "2 bytes a weight with FP32's range: the usual format for training and fine-tuning."},
		{"fp16", "FP16 (16-bit float)", "2 bytes a weight at the same peak rate as BF16, with a narrower range."},
		{"fp8", "FP8 (8-bit float)", "1 byte a weight, at the GPU's FP8 peak rate where it has one (H100 and later), else at its 16-bit rate."},
		{"int8", "INT8 (8-bit integer)", "1 byte a weight: quantised inference, at the FP8 peak rate where the GPU has one."},
		{"int4", "INT4 (4-bit integer)", "Half a byte a weight: quantised inference that fits large models on few GPUs."},
	},
	"workload.method": {
		{"full", "Full fine-tuning", "Every weight is trained: model state as in full training, 16 bytes a parameter."},
		{"lora", "LoRA", "Small low-rank adapters are trained on a frozen 16-bit base: far less memory, 4·P·D FLOPs instead of 6."},
		{"qlora", "QLoRA", "LoRA on a base held in 4 bits: the least memory, for large models on few GPUs."},
	},
	"workload.kv_cache_precision": {
		{"bf16", "BF16 (16 bit)", "Two bytes a cached value, the models' own format."},
		{"fp16", "FP16 (16 bit)", "Two bytes a cached value."},
		{"fp8", "FP8 (8 bit)", "One byte a cached value: TensorRT-LLM's and vLLM's FP8 KV cache (--kv_cache_dtype fp8)."},
	},
	"workload.sharding": {
		// Rajbhandari et al. 2020 (ZeRO): bytes of model state per parameter on N GPUs.
		{"replicated", "Replicated (plain data parallel)", "Every GPU keeps all 16 bytes of model state a parameter."},
		{"zero1", "ZeRO stage 1", "Optimizer state is split over the GPUs: 4 + 12 ÷ N bytes a parameter."},
		{"zero2", "ZeRO stage 2", "Optimizer state and gradients are split: 2 + 14 ÷ N bytes a parameter."},
		{"zero3", "ZeRO stage 3", "Weights, gradients and optimizer state are all split: 16 ÷ N bytes a parameter, with 1.5 × the communication."},
	},
	"data.classification": {
		{"public", "Public", "May be published; no restriction on who sees it."},
		{"internal", "Internal", "For the organisation's own staff; harmless but not for publication."},
		{"confidential", "Confidential", "Harmful if disclosed; access on a need-to-know basis."},
		{"restricted", "Restricted", "The most sensitive class: named people only, under the strictest controls."},
	},
	"data.movement": {
		{scenario.MoveAny, "May be processed wherever residency allows",
			"The data may go to any environment inside the residency region, a provider's included when it may process the data."},
		{scenario.MoveSnapshot, "Only an approved, minimised snapshot may leave",
			"The source stays in the controlled environment; an approved, minimised copy may go out for compute."},
		{scenario.MoveNone, "Nothing leaves the controlled environment",
			"All processing happens where the source of record lives."},
	},
	"data.location": {
		{scenario.LocationOnSite, "On site",
			"In the organisation's own storage: on-premises hardware reads it in place; clouds and HPC centres copy it over the site's uplink."},
		{scenario.LocationCloud, "In a cloud provider's storage",
			"In the storage of the cloud offer's region: cloud IaaS reads it in place; on-premises and HPC copy it out."},
		{scenario.LocationHPC, "At the HPC centre",
			"On the HPC centre's storage: shared HPC reads it in place; the other directions copy it out."},
	},
	"data.return_outputs": {
		{"checkpoints", "checkpoints", "Saved training state that lets a run resume, or the trained model be rebuilt."},
		{"evaluation", "evaluation results", "Scores of the result against the success measure and the baseline."},
		{"logs", "logs", "Run logs, which may reproduce pieces of sensitive input."},
		{"predictions", "predictions", "The model's outputs for each input item."},
		{"model_weights", "model weights", "The final trained weights."},
		{"metrics", "metrics", "Throughput, utilisation and loss figures of the run."},
	},
	"data.lifecycle[].stage": {
		// The seed's seven stages of the data lifecycle.
		{"collect", "Collect", "Stage 1: records are created or gathered at the source, with their meaning and representative cases defined."},
		{"ingest", "Ingest", "Stage 2: records enter the governed store and are validated on the way in."},
		{"prepare", "Prepare", "Stage 3: cleaning, labelling and the quality gate."},
		{"stage", "Stage", "Stage 4: an approved, versioned copy is placed in storage next to the compute."},
		{"compute", "Compute", "Stage 5: the run itself."},
		{"evaluate", "Evaluate", "Stage 6: results are checked against the success measure, and new data problems come to light."},
		{"retain", "Retain", "Stage 7: outputs, checkpoints and logs are returned, archived or deleted, and the clean-up is confirmed."},
	},
	"data.lifecycle[].status": {
		{"open", "Open", "Nobody has settled the stage's control yet."},
		{"in_progress", "In progress", "The control is being put in place."},
		{"done", "Done", "The control is in place and its owner has confirmed it."},
		{"not_applicable", "Not applicable", "The stage does not occur for this workload."},
	},
	"dimensions.operations.skills": {
		{"cloud", "cloud operations", "Running workloads on a cloud provider: accounts, identity, quotas, cost control."},
		{"kubernetes", "Kubernetes", "Running containers on a Kubernetes cluster."},
		{"gpu_cluster", "GPU cluster operations", "Running GPU servers: drivers, interconnect, monitoring, repairs."},
		{"hpc_scheduler", "HPC batch scheduling", "Submitting and managing jobs through a scheduler such as Slurm."},
		{"datacentre", "datacentre operations", "Buying, installing, powering and cooling hardware in a datacentre."},
		{"mlops", "MLOps", "Reproducible training and serving pipelines: containers, experiment tracking, model registry."},
	},
	"dimensions.workload_shape.pattern": {
		{"continuous", "Continuous", "Demand around the clock: owned hardware or commitments stay busy."},
		{"periodic", "Periodic", "Runs on a schedule (nightly, monthly, quarterly), idle in between."},
		{"burst", "Occasional bursts", "Rare, unpredictable peaks: rented or shared capacity fits best."},
	},
	"options.on_prem.financing": {
		{"depreciation", "Depreciation over the hardware's life", "The price spread evenly over the hardware's life, month by month."},
		{"purchase", "Purchase at the start", "The whole price paid at the start of the horizon; the hardware's value left at its end (straight line over the life) is credited."},
		{"lease", "Monthly lease", "A monthly payment per node instead of a purchase."},
	},
	"distribution": {
		{"triangular", "Triangular", "Straight lines from low up to likely and down to high: weighs the ends more than PERT does."},
		{"pert", "PERT", "A smooth beta distribution around the likely value: the ends are less probable than under a triangle."},
	},
	"options.cloud.pricing": {
		{scenario.PricingOnDemand, "On demand", "Pay per hour used, no commitment: the highest rate."},
		{scenario.PricingCommit1Y, "1-year commitment", "A lower rate for GPUs reserved for a year, paid every hour whether used or not."},
		{scenario.PricingCommit3Y, "3-year commitment", "The lowest reserved rate, for GPUs reserved for three years."},
		{scenario.PricingSpot, "Spot (interruptible)", "Spare capacity at a discount that the provider may reclaim: runs need checkpoints."},
		{scenario.PricingMixed1Y, "1-year commitment for the base, on demand above it", "GPUs reserved for a year for the load that lasts, on-demand GPUs for the peaks: as many committed as are busy often enough to cost less than on demand."},
		{scenario.PricingMixed3Y, "3-year commitment for the base, on demand above it", "As the 1-year mix, with the 3-year reserved rate."},
	},
	"options.managed.pricing": {
		{"per_token", "Per token", "The provider's shared service, paid per million input and output tokens."},
		{"dedicated", "Dedicated deployment", "Replicas on GPUs the provider runs for this service alone, paid per GPU-hour while they run; they follow the load over the day, at least one."},
	},
	"options.hpc.access": {
		{"member", "Member of the centre", "The centre's own researchers or allocation holders: the member rate, or the allocation."},
		{"external", "External user", "A user from outside the centre: the external rate, where the centre publishes one."},
	},
	"options.hpc.grant_period": {
		{"year", "A year", "The granted GPU-hours are renewed each year: the work of any twelve months must fit them."},
		{"project", "The whole project", "One grant for the whole horizon: every run must fit it."},
		{"month", "A month", "A monthly quota: each month's work must fit it."},
	},
	"options.hybrid.burst_to": {
		{scenario.Cloud, scenario.DirectionTitle[scenario.Cloud], "The compute bursts to rented cloud GPUs."},
		{scenario.HPC, scenario.DirectionTitle[scenario.HPC], "The compute bursts to a shared HPC partition."},
	},
}

// Choices returns the allowed values of the enumerated field at path, with
// their wording, or nil when the field is not enumerated. Paths are
// normalised as for Lookup.
func Choices(path string) []Choice {
	cs, _ := find(choices, path)
	return cs
}

// ChoiceLabel is the label of value in the enumerated field at path: for
// data.movement, "snapshot_only" is "Only an approved, minimised snapshot
// may leave". A value the field does not know is humanised; "" stays "".
func ChoiceLabel(path, value string) string {
	if value == "" {
		return ""
	}
	for _, c := range Choices(path) {
		if c.Value == value {
			return c.Label
		}
	}
	return Humanize(value)
}

// ChoiceHelp is the one-line help of value in the enumerated field at
// path: what choosing it means; "" for a value the field does not know.
func ChoiceHelp(path, value string) string {
	for _, c := range Choices(path) {
		if c.Value == value {
			return c.Help
		}
	}
	return ""
}

// ChoiceLabels is ChoiceLabel for each value of a list field, joined by
// ", ".
func ChoiceLabels(path string, values []string) string {
	labels := make([]string, len(values))
	for i, v := range values {
		labels[i] = ChoiceLabel(path, v)
	}
	return strings.Join(labels, ", ")
}
