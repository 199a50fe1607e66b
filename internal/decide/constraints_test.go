package decide

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// Every code the model defines has a question in the one table, and the
// table holds no code the model does not define.
func TestEveryCodeHasAQuestion(t *testing.T) {
	if len(model.ReasonCodes) < 20 {
		t.Fatalf("the model lists only %d reason codes", len(model.ReasonCodes))
	}
	for _, c := range model.ReasonCodes {
		if questions[c] == "" {
			t.Errorf("the model defines the reason %s, which has no question here: add it to questions", c)
		}
	}
	for c := range questions {
		if !slices.Contains(model.ReasonCodes, c) {
			t.Errorf("questions lists %s, which the model does not define", c)
		}
	}
}

// A code this package does not know (a report from a newer model) keeps
// its kind and text and gets a generic question.
func TestClassifyUnknown(t *testing.T) {
	c, ok := Classify(model.Reason{Code: "moon_phase", Kind: model.KindFit, Text: "the moon is in the wrong phase"})
	if ok || c.Kind != KindFit || c.Reason != "the moon is in the wrong phase" || c.Question != qUnknown || c.Fields == nil {
		t.Errorf("unknown reason: %+v, recognised %v", c, ok)
	}
	c, _ = Classify(model.Reason{Code: model.ReasonDeadlineMissed, Text: "late"})
	if c.Kind != KindDeadline || c.Question != qDeadline {
		t.Errorf("a reason without a kind takes its code's: %+v", c)
	}
}

// Every code the model defines is produced by one of the scenarios below:
// none is dead, and each is tested end to end.
func TestEveryCodeHasAScenario(t *testing.T) {
	for _, c := range model.ReasonCodes {
		if !slices.ContainsFunc(reasonCases, func(rc reasonCase) bool { return rc.code == c }) {
			t.Errorf("no case in reasonCases produces the reason %s", c)
		}
	}
}

func defaultCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// base is a small valid training scenario every case varies: a 1 B model
// on 10 B tokens once a month, data free to move, a large team, on 8 ×
// H100 in the cloud at 2 per GPU-hour.
func base() *scenario.Scenario {
	return &scenario.Scenario{
		SchemaVersion: 1, ID: "t", Name: "test", Currency: "USD",
		Purpose: scenario.Purpose{Decision: "where to train", SuccessMeasure: "loss", Owner: "Lead"},
		Workload: scenario.Workload{
			Shape: scenario.ShapeTraining, Precision: "bf16",
			Model:         scenario.Model{ParamsB: 1, Layers: 16, HiddenSize: 2048},
			TokensPerRunB: scenario.Known(10), RunsPerMonth: scenario.Known(1),
			MFU: scenario.Known(0.5), Sharding: "replicated",
		},
		Data: scenario.Data{VolumeGB: scenario.Known(10), Classification: "internal", Residency: "any", Movement: scenario.MoveAny,
			ProviderAllowed: true, ReturnOutputs: []string{"checkpoints"}, StorageGBps: scenario.Known(1), RetentionOwner: "Records"},
		Dimensions: scenario.Dimensions{
			Sovereignty:   scenario.Sovereignty{Dimension: scenario.Dimension{Weight: 0.2}},
			WorkloadShape: scenario.ShapeDim{Dimension: scenario.Dimension{Weight: 0.2}},
			Operations:    scenario.Operations{Dimension: scenario.Dimension{Weight: 0.2}, StaffFTE: scenario.Known(2)},
			Economics:     scenario.Economics{Dimension: scenario.Dimension{Weight: 0.2}, HorizonMonths: 12},
			Optionality:   scenario.Optionality{Dimension: scenario.Dimension{Weight: 0.2}},
		},
		Options: scenario.Options{Cloud: scenario.CloudOptions{Offer: "aws-p5-h100", GPUs: 8, PricePerGPUHr: scenario.Known(2)}},
	}
}

// serving turns s into interactive inference of a model preset.
func serving(s *scenario.Scenario, preset string, peak float64) {
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "bf16",
		Model: scenario.Model{Preset: preset},
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(peak), MeanRPS: scenario.Known(peak / 2),
			TokensIn: scenario.Known(500), TokensOut: scenario.Known(200), LatencyTargetMS: scenario.Known(10000)}}
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100"}
}

// batch turns s into batch inference of a model preset.
func batch(s *scenario.Scenario, preset string) {
	s.Workload = scenario.Workload{Shape: scenario.ShapeBatch, Precision: "bf16",
		Model: scenario.Model{Preset: preset}, TokensPerRunB: scenario.Known(0.1), RunsPerMonth: scenario.Known(30)}
}

// reasonCase is one reason the model can give: its code, the kind it
// belongs to, and a scenario that produces it on one direction, with the
// exact sentence expected (built from the scenario's inputs and, for
// computed figures, the direction's own report numbers in the model's
// format).
type reasonCase struct {
	name      string
	code      model.ReasonCode
	kind      Kind
	direction string
	build     func(s *scenario.Scenario)
	want      func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string
}

func lit(s string) func(*scenario.Scenario, *model.Report, *model.DirectionResult) string {
	return func(*scenario.Scenario, *model.Report, *model.DirectionResult) string { return s }
}

const snapshotReason = "the source records must stay in the controlled environment and only an approved snapshot may leave; this direction moves the whole workload out — hybrid sends only the snapshot"

var reasonCases = []reasonCase{
	{
		name: "disabled", code: model.ReasonExcluded, kind: KindOther, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Options.Cloud.Disabled = true },
		want:  lit("the scenario sets this direction aside"),
	},
	{
		name: "nothing may leave", code: model.ReasonDataMustStay, kind: KindSovereignty, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Data.Movement = scenario.MoveNone },
		want:  lit("no data may leave the controlled environment"),
	},
	{
		name: "snapshot only", code: model.ReasonSourceMustStay, kind: KindSovereignty, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Data.Movement, s.Data.SnapshotGB = scenario.MoveSnapshot, scenario.Known(2)
		},
		want: lit(snapshotReason),
	},
	{
		name: "residency", code: model.ReasonOutsideResidency, kind: KindSovereignty, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Data.Residency = "EU" },
		want:  lit("AWS p5.48xlarge (8×H100) processes data in US; the data must stay in EU"),
	},
	{
		// Every catalog cloud provider is at home in the US (the catalog's
		// provider_home); an EU-owned provider is required.
		name: "provider home", code: model.ReasonProviderHomeExcluded, kind: KindSovereignty, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Dimensions.Sovereignty.ProviderHome = []string{"EU"} },
		want:  lit("AWS p5.48xlarge (8×H100) belongs to a provider at home in US; the provider must be at home in EU"),
	},
	{
		name: "no managed pre-training", code: model.ReasonNoManagedTraining, kind: KindOther, direction: scenario.Managed,
		build: func(s *scenario.Scenario) {},
		want:  lit("no managed service in the catalog trains a model from scratch; add one with a catalog override"),
	},
	{
		name: "no managed offer for the size", code: model.ReasonNoManagedOffer, kind: KindFit, direction: scenario.Managed,
		build: func(s *scenario.Scenario) {
			batch(s, "")
			s.Workload.Model = scenario.Model{ParamsB: 500, Layers: 120, HiddenSize: 16384}
		},
		want: lit("no managed inference offer in the catalog serves a 500 B model"),
	},
	{
		name: "provider receives a snapshot-only data set", code: model.ReasonProviderReceivesData, kind: KindSovereignty, direction: scenario.Managed,
		build: func(s *scenario.Scenario) {
			batch(s, "llama-3.1-8b")
			s.Data.Movement, s.Data.SnapshotGB = scenario.MoveSnapshot, scenario.Known(2)
			s.Data.ReturnOutputs = []string{"predictions"}
		},
		want: lit("a managed provider would receive the data, but only an approved snapshot may leave the controlled environment"),
	},
	{
		name: "provider may not process", code: model.ReasonProviderMayNotProcess, kind: KindSovereignty, direction: scenario.Managed,
		build: func(s *scenario.Scenario) { batch(s, "llama-3.1-8b"); s.Data.ProviderAllowed = false },
		want:  lit("the provider may not receive or keep the data"),
	},
	{
		name: "managed residency", code: model.ReasonOutsideResidency, kind: KindSovereignty, direction: scenario.Managed,
		build: func(s *scenario.Scenario) {
			batch(s, "llama-3.1-8b")
			s.Data.Residency = "EU"
			s.Options.Managed.Offer = "together-8b"
			s.Options.Cloud = scenario.CloudOptions{}
		},
		want: lit("Together Llama 3.1 8B processes data in US; the data must stay in EU"),
	},
	{
		name: "tuned weights stay with the provider", code: model.ReasonProviderKeepsWeights, kind: KindSovereignty, direction: scenario.Managed,
		build: func(s *scenario.Scenario) {
			s.Workload.Shape, s.Workload.Method = scenario.ShapeFineTuning, "lora"
		},
		want: lit("OpenAI fine-tuning (gpt-4o-mini) as a small-model proxy keeps the tuned weights, so the checkpoints cannot come back"),
	},
	{
		name: "no cloud price in the region", code: model.ReasonNoCloudPrice, kind: KindOther, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Data.Residency = "EU"
			s.Options.Cloud = scenario.CloudOptions{Pricing: "spot"}
		},
		want: lit("no cloud offer in the catalog has a spot price within EU"),
	},
	{
		name: "cloud burst target residency", code: model.ReasonBurstOutsideResidency, kind: KindSovereignty, direction: scenario.Hybrid,
		build: func(s *scenario.Scenario) { s.Data.Residency = "EU" },
		want:  lit("the burst target AWS p5.48xlarge (8×H100) is in US; the data must stay in EU"),
	},
	{
		name: "owned capacity", code: model.ReasonOwnedCapacityShort, kind: KindFit, direction: scenario.OnPrem,
		build: func(s *scenario.Scenario) {
			s.Options.OnPrem = scenario.OnPremOptions{Node: "dgx-h100", Nodes: 1}
			s.Workload.RunsPerMonth = scenario.Known(400)
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("needs %s GPU-hours a month; 1 node gives 5,840", num.Whole(d.GPUHoursPerRun*400))
		},
	},
	{
		name: "committed capacity", code: model.ReasonCommittedGPUsShort, kind: KindFit, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Options.Cloud = scenario.CloudOptions{Offer: "gcp-a3-h100", Pricing: "commit_1y", GPUs: 8}
			s.Workload.RunsPerMonth = scenario.Known(400)
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("needs %s GPU-hours a month; 8 committed GPUs give 5,840", num.Whole(d.GPUHoursPerRun*400))
		},
	},
	{
		name: "HPC does not serve", code: model.ReasonHPCNotForServing, kind: KindOther, direction: scenario.HPC,
		build: func(s *scenario.Scenario) { serving(s, "llama-3.1-8b", 2) },
		want:  lit("shared HPC runs bounded batch jobs through a scheduler, not an always-on service"),
	},
	{
		name: "HPC burst target residency", code: model.ReasonBurstOutsideResidency, kind: KindSovereignty, direction: scenario.Hybrid,
		build: func(s *scenario.Scenario) {
			s.Data.Residency = "EU"
			s.Options.Hybrid.BurstTo = scenario.HPC
			s.Options.HPC.Partition = "caltech-hpc"
		},
		want: lit("the burst target Caltech HPC is in US; the data must stay in EU"),
	},
	{
		// A 60,000 B model has 960 TB of state: at Kennesaw's 5 GB/s one
		// checkpoint takes 53 h, longer than its 48 h wall time.
		name: "checkpoint longer than wall time", code: model.ReasonCheckpointOverWallTime, kind: KindFit, direction: scenario.HPC,
		build: func(s *scenario.Scenario) {
			s.Workload.Model = scenario.Model{ParamsB: 60000, Layers: 200, HiddenSize: 50000}
			s.Workload.TokensPerRunB = scenario.Known(1)
			s.Options.HPC.Partition = "kennesaw-vhpc"
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("writing one checkpoint (%.1f h) does not fit the 48 h wall-time limit", d.Interruptions.CheckpointMinutes/60)
		},
	},
	{
		name: "grant", code: model.ReasonGrantExceeded, kind: KindBudget, direction: scenario.HPC,
		build: func(s *scenario.Scenario) {
			s.Options.HPC.Partition = "caltech-hpc"
			s.Options.HPC.GrantedGPUHours = scenario.Known(1)
			s.Options.HPC.GrantPeriod = "month"
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("needs %s GPU-hours a month; the grant is 1", num.Whole(d.GPUHoursPerRun*r.Workload.RunsPerMonth))
		},
	},
	{
		// A grant is per year unless said otherwise: twelve monthly runs
		// must fit it.
		name: "yearly grant", code: model.ReasonGrantExceeded, kind: KindBudget, direction: scenario.HPC,
		build: func(s *scenario.Scenario) {
			s.Options.HPC.Partition = "caltech-hpc"
			s.Options.HPC.GrantedGPUHours = scenario.Known(1000)
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("needs %s GPU-hours a year; the grant is 1,000", num.Whole(d.GPUHoursPerRun*12))
		},
	},
	{
		// A project grant holds every run of the horizon, and at least one.
		name: "project grant", code: model.ReasonGrantExceeded, kind: KindBudget, direction: scenario.HPC,
		build: func(s *scenario.Scenario) {
			s.Options.HPC.Partition = "caltech-hpc"
			s.Options.HPC.GrantedGPUHours = scenario.Known(50)
			s.Options.HPC.GrantPeriod = "project"
			s.Workload.RunsPerMonth = scenario.Known(0.01)
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("needs %s GPU-hours over the 12 months of the project; the grant is 50", num.Whole(d.GPUHoursPerRun))
		},
	},
	{
		// Steady work on a small partition: 64 GPUs, a quarter of them
		// (16) per project; 400 runs a month of the base's run ask for more
		// than that month after month.
		name: "fair share", code: model.ReasonFairShareExceeded, kind: KindFit, direction: scenario.HPC,
		build: func(s *scenario.Scenario) {
			s.Options.HPC.Partition = "caltech-hpc"
			s.Workload.RunsPerMonth = scenario.Known(400)
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			month := d.GPUHoursPerRun * 400
			return fmt.Sprintf("the work holds %.0f %% of the partition's 64 GPUs month after month (%s GPU-hours a month); one project may hold at most 25 %% (16 GPUs)",
				100*month/(64*730), num.Whole(month))
		},
	},
	{
		name: "members only", code: model.ReasonHPCMembersOnly, kind: KindOther, direction: scenario.HPC,
		build: func(s *scenario.Scenario) {
			s.Options.HPC.Partition = "caltech-hpc"
			s.Options.HPC.Access = "external"
		},
		want: lit("Caltech HPC publishes no rate for users from outside: only its members and allocation holders run there"),
	},
	{
		name: "not even a snapshot", code: model.ReasonNothingToBurst, kind: KindSovereignty, direction: scenario.Hybrid,
		build: func(s *scenario.Scenario) { s.Data.Movement = scenario.MoveNone },
		want:  lit("no data may leave, not even a snapshot, so there is nothing to burst"),
	},
	{
		name: "live requests", code: model.ReasonLiveRequestsCarryData, kind: KindSovereignty, direction: scenario.Hybrid,
		build: func(s *scenario.Scenario) {
			serving(s, "llama-3.1-8b", 2)
			s.Data.Movement, s.Data.SnapshotGB = scenario.MoveSnapshot, scenario.Known(2)
		},
		want: lit("live requests would carry source data out of the controlled environment"),
	},
	{
		name: "outputs may not return", code: model.ReasonOutputsMayNotReturn, kind: KindSovereignty, direction: scenario.Hybrid,
		build: func(s *scenario.Scenario) { s.Data.ReturnOutputs = nil },
		want:  lit("the run's checkpoints may not come back: they are not among the outputs allowed to return"),
	},
	{
		// 512 nodes each reclaimed with 99 % probability a month interrupt
		// the job every 0.3 h; a 70 B model's 1,120 GB of state takes
		// 0.16 h to write at 2 GB/s, so the overhead exceeds the work.
		name: "spot interruptions", code: model.ReasonSpotTooInterrupted, kind: KindOther, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Workload.Model = scenario.Model{Preset: "llama-3.1-70b"}
			s.Workload.Sharding = "zero3"
			s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100", Pricing: "spot", GPUs: 4096, SpotInterruptions: scenario.Known(0.99)}
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("on spot capacity the job is interrupted every %.1f h on average: checkpoints, lost work and restarts would take longer than the work", d.Interruptions.MTBIHours)
		},
	},
	{
		// 4,096 GPUs each failing every 100 h stop the job every 0.02 h,
		// less than writing the 70 B model's 1,120 GB of state at 2 GB/s.
		name: "failures too frequent", code: model.ReasonFailuresTooFrequent, kind: KindFit, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Workload.Model = scenario.Model{Preset: "llama-3.1-70b"}
			s.Workload.Sharding = "zero3"
			s.Workload.FailuresPerMillionGPUHours = scenario.Known(10_000)
			s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100", GPUs: 4096}
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("on 4096 GPUs the job fails every %.1f h on average: checkpoints, lost work and restarts would take longer than the work", d.Interruptions.MTBIHours)
		},
	},
	{
		name: "weights do not fit", code: model.ReasonWeightsDoNotFit, kind: KindFit, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			serving(s, "", 2)
			s.Workload.Model = scenario.Model{ParamsB: 5000, Layers: 200, HiddenSize: 40000, KVHeads: 8, HeadDim: 128}
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("the %.0f GB of weights do not fit 64 × NVIDIA H100 SXM", r.Workload.WeightsGB)
		},
	},
	{
		name: "latency target", code: model.ReasonLatencyTargetMissed, kind: KindDeadline, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			serving(s, "llama-3.1-8b", 2)
			s.Workload.Traffic.LatencyTargetMS = scenario.Known(1)
		},
		want: lit("no batch on up to 64 × NVIDIA H100 SXM meets the 1 ms latency target"),
	},
	{
		name: "replicas beyond the nodes", code: model.ReasonReplicasOverCapacity, kind: KindFit, direction: scenario.OnPrem,
		build: func(s *scenario.Scenario) {
			serving(s, "llama-3.1-8b", 2000)
			s.Options.OnPrem = scenario.OnPremOptions{Node: "dgx-h100", Nodes: 1}
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			sv := d.Serving
			return fmt.Sprintf("needs %d GPUs (%d replicas × %d) at the peak of 2,000 requests/s; at most 8 are available", d.GPUs, sv.ReplicasPeak, sv.GPUsPerReplica)
		},
	},
	{
		// 100 B parameters replicated need 1,600 GB of model state per GPU
		// (16 bytes each): no count of one node's 8 GPUs holds it.
		name: "does not fit the node", code: model.ReasonStateDoesNotFit, kind: KindFit, direction: scenario.OnPrem,
		build: func(s *scenario.Scenario) {
			s.Workload.Model = scenario.Model{ParamsB: 100, Layers: 80, HiddenSize: 10240}
			s.Options.OnPrem = scenario.OnPremOptions{Node: "dgx-h100", Nodes: 1}
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("the run needs %.0f GB per GPU even on 8 × NVIDIA H100 SXM (80 GB each, 90 %% usable; model state replicated on every GPU)", d.MemoryPerGPUGB)
		},
	},
	{
		// 5 B parameters under ZeRO-3 need 16 × 5 = 80 GB of model state
		// on one GPU, more than an H100's usable 72 GB; two hold it.
		name: "too few GPUs chosen", code: model.ReasonTooFewGPUs, kind: KindFit, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Workload.Model = scenario.Model{ParamsB: 5, Layers: 32, HiddenSize: 4096}
			s.Workload.Sharding = "zero3"
			s.Options.Cloud.GPUs = 1
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			need := 0
			for _, p := range d.Scaling {
				if p.Fits {
					need = p.GPUs
					break
				}
			}
			return fmt.Sprintf("1 GPU was chosen but the run needs %.0f GB per GPU there; at least %d × NVIDIA H100 SXM fit it", d.MemoryPerGPUGB, need)
		},
	},
	{
		name: "more GPUs than the partition", code: model.ReasonTooManyGPUs, kind: KindFit, direction: scenario.HPC,
		// One project may hold a quarter of the partition's 64 GPUs.
		build: func(s *scenario.Scenario) { s.Options.HPC = scenario.HPCOptions{Partition: "caltech-hpc", GPUs: 128} },
		want:  lit("128 GPUs were chosen; at most 16 are available"),
	},
	{
		name: "deadline", code: model.ReasonDeadlineMissed, kind: KindDeadline, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Workload.DeadlineHours = scenario.Known(1) },
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("a run takes %.1f h; the deadline is 1.0 h", d.TimeToResultHours)
		},
	},
	{
		// 100 B tokens on 8 GPUs take about 42 h; thirty runs a month
		// start one every 24.3 h.
		name: "run longer than the interval", code: model.ReasonRunLongerThanInterval, kind: KindDeadline, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Workload.TokensPerRunB, s.Workload.RunsPerMonth = scenario.Known(100), scenario.Known(30)
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("a run takes %s h; at 30 runs a month the next starts every 24 h, before it ends", num.Whole(d.TimeToResultHours))
		},
	},
	{
		// 100 T tokens on 8 GPUs take years; the horizon is a year.
		name: "run longer than the horizon", code: model.ReasonRunLongerThanHorizon, kind: KindDeadline, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Workload.TokensPerRunB, s.Workload.RunsPerMonth = scenario.Known(100_000), scenario.Known(0.01)
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("a run takes %s h (%.1f months); the horizon is 12 months (8,760 h)", num.Whole(d.TimeToResultHours), d.TimeToResultHours/730)
		},
	},
	{
		name: "staff", code: model.ReasonStaffShort, kind: KindOperations, direction: scenario.OnPrem,
		build: func(s *scenario.Scenario) { s.Dimensions.Operations.StaffFTE = scenario.Known(0.25) },
		want:  lit("needs 0.50 FTE of operations (on-premises hardware, facilities and cluster); the team has 0.25"),
	},
	{
		name: "rack power", code: model.ReasonRackPowerExceeded, kind: KindFit, direction: scenario.OnPrem,
		build: func(s *scenario.Scenario) {
			s.Options.OnPrem.Node, s.Options.OnPrem.RackKW = "dgx-h100", scenario.Known(8)
		},
		want: lit("one 8×H100 server (DGX H100 class) draws up to 10.2 kW; the site's racks take 8.0 kW"),
	},
	{
		name: "skills", code: model.ReasonSkillMissing, kind: KindOperations, direction: scenario.HPC,
		build: func(s *scenario.Scenario) { s.Dimensions.Operations.Skills = []string{"cloud", "mlops"} },
		want:  lit("needs the HPC scheduler skill; the team lists cloud, MLOps"),
	},
	{
		name: "budget cap", code: model.ReasonBudgetCapExceeded, kind: KindBudget, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Dimensions.Economics.BudgetCap = scenario.Known(1000) },
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("costs %s USD over 12 months; the budget cap is 1,000", num.Whole(d.CostHorizon))
		},
	},
}

// TestConstraintScenarios builds one scenario per reason, evaluates it with
// the default catalog, and checks that the direction carries the reason
// with its code, kind, fields and exact sentence, and that the decision
// carries it as a constraint with the code's question.
func TestConstraintScenarios(t *testing.T) {
	cat := defaultCatalog(t)
	for _, tc := range reasonCases {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.build(s)
			r, err := model.Evaluate(s, cat)
			if err != nil {
				t.Fatalf("Evaluate: %v", err)
			}
			d := r.Direction(tc.direction)
			want := tc.want(s, r, d)
			i := slices.IndexFunc(d.Reasons, func(rs model.Reason) bool { return rs.Code == tc.code })
			if d.Feasible || i < 0 {
				t.Fatalf("%s: feasible %v, reasons %+v\nwant the reason %s", tc.direction, d.Feasible, d.Reasons, tc.code)
			}
			got := d.Reasons[i]
			if got.Text != want || got.Kind != tc.kind || len(got.Fields) == 0 {
				t.Errorf("%s: reason %+v\nwant the text %q, kind %s and the fields it concerns", tc.direction, got, want, tc.kind)
			}
			for _, f := range got.Fields {
				if strings.Contains(got.Text, f) {
					t.Errorf("the text %q names the field %s: fields are for faces, words for readers", got.Text, f)
				}
			}
			dec, err := Decide(s, r)
			if err != nil {
				t.Fatalf("Decide: %v", err)
			}
			dd := dec.For(tc.direction)
			if dd.Feasible || dd.Rank != 0 || len(dd.Scores) != 0 {
				t.Errorf("%s is infeasible but ranked %d with %d scores", tc.direction, dd.Rank, len(dd.Scores))
			}
			c := dd.Constraints[i]
			if c.Code != tc.code || c.Kind != tc.kind || c.Reason != want || !slices.Equal(c.Fields, got.Fields) || c.Question != questions[tc.code] {
				t.Errorf("constraint %+v does not carry the reason %+v with its question", c, got)
			}
			if dd.Question != dd.Constraints[0].Question || dd.Question == "" {
				t.Errorf("first question %q, want the first constraint's %q", dd.Question, dd.Constraints[0].Question)
			}
			if slices.Contains(dec.Ranking, tc.direction) {
				t.Errorf("ranking %v includes the infeasible %s", dec.Ranking, tc.direction)
			}
		})
	}
}
