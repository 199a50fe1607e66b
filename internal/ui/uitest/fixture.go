package uitest

import (
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Reasons makes typed reasons of texts, as a hand-built report's.
func Reasons(texts ...string) []model.Reason {
	out := make([]model.Reason, len(texts))
	for i, t := range texts {
		out[i] = model.Reason{Code: "test", Kind: model.KindOther, Fields: []string{}, Text: t}
	}
	return out
}

// Notes makes typed notes of texts, as a hand-built report's.
func Notes(texts ...string) []model.Note {
	out := make([]model.Note, len(texts))
	for i, t := range texts {
		out[i] = model.Note{Code: "test", Kind: model.NotePlan, Fields: []string{}, Text: t}
	}
	return out
}

// FineTuning is a fine-tuning job, "ft-7b", and its report: cloud is the
// cheapest feasible direction, managed and shared HPC are ruled out, and
// the weights recommend hybrid. Each call makes them anew, for the caller
// to change.
func FineTuning() (*scenario.Scenario, *model.Report) {
	s := &scenario.Scenario{
		SchemaVersion: scenario.SchemaVersion,
		ID:            "ft-7b",
		Name:          "Fine-tune 7B on claims notes",
		Currency:      "USD",
		Purpose: scenario.Purpose{
			Decision:               "Where to run the quarterly fine-tuning of the claims assistant",
			SuccessMeasure:         "F1 ≥ 0.85 on the held-out claims set",
			AcceptableRuntimeHours: scenario.Known(48),
			Owner:                  "Head of Claims Analytics",
		},
		Workload: scenario.Workload{
			Shape:         scenario.ShapeFineTuning,
			Model:         scenario.Model{Preset: "llama-3.1-8b"},
			Precision:     "bf16",
			Method:        "lora",
			TokensPerRunB: scenario.Estimate(1.5, 2, 3),
			RunsPerMonth:  scenario.Known(4),
			DeadlineHours: scenario.Known(72),
		},
		Data: scenario.Data{
			VolumeGB:       scenario.Known(1200),
			Classification: "confidential",
			PersonalData:   true,
			Residency:      "eu",
			Movement:       scenario.MoveSnapshot,
			SnapshotGB:     scenario.Known(40),
			ReturnOutputs:  []string{"model_weights", "metrics"},
		},
		Dimensions: scenario.Dimensions{
			Sovereignty:   scenario.Sovereignty{Dimension: scenario.Dimension{Weight: 0.3}},
			WorkloadShape: scenario.ShapeDim{Dimension: scenario.Dimension{Weight: 0.1}, Pattern: "periodic"},
			Operations:    scenario.Operations{Dimension: scenario.Dimension{Weight: 0.2}, StaffFTE: scenario.Estimate(0.5, 1, 1.5)},
			Economics:     scenario.Economics{Dimension: scenario.Dimension{Weight: 0.3}, BudgetCap: scenario.Known(2e6), HorizonMonths: 24},
			Optionality:   scenario.Optionality{Dimension: scenario.Dimension{Weight: 0.1}, ExitRequired: true},
		},
		Options: scenario.Options{Cloud: scenario.CloudOptions{Offer: "hyperscaler-h100", Pricing: "on_demand"}},
	}
	r := &model.Report{
		ScenarioID: s.ID, ScenarioName: s.Name, CatalogAsOf: "2025-06-01", Currency: "USD",
		Shape: s.Workload.Shape, HorizonMonths: 24, RunUnit: "one fine-tuning run",
		Cheapest:            scenario.Cloud,
		Warnings:            Notes("Tokens per run is an estimate; the likely value is used."),
		EfficiencyThreshold: 0.7,
		Directions: []model.DirectionResult{
			{Direction: scenario.Managed, Title: "Managed service", Feasible: false,
				Reasons: Reasons("the provider may not process personal data", "data may not leave the EU")},
			{Direction: scenario.Cloud, Title: "Cloud IaaS", Feasible: true, GPU: "h100-sxm", GPUs: 8,
				TimeToResultHours: 6.34, CostPerRun: 1234.6, CostHorizon: 1234567.89, PricesAsOf: "2026-01-21",
				Notes: Notes("On-demand price; a 1-year commitment would cost less.")},
			{Direction: scenario.OnPrem, Title: "On-premises", Feasible: true, GPU: "l40s", GPUs: 16,
				TimeToResultHours: 11.5, CostPerRun: 5200, CostHorizon: 1750000, PricesAsOf: "2025-06-01"},
			{Direction: scenario.HPC, Title: "Shared HPC", Feasible: false, GPU: "a100-80gb", GPUs: 4,
				TimeToResultHours: 140, CostPerRun: 87.5, CostHorizon: 29832, PricesAsOf: "2025-09-01",
				Reasons: Reasons("queue wait and wall-time chunks exceed the 72 h deadline")},
			{Direction: scenario.Hybrid, Title: "Hybrid", Feasible: true, GPU: "h100-sxm", GPUs: 8,
				TimeToResultHours: 9, CostPerRun: 1500, CostHorizon: 1300000, PricesAsOf: "2026-01-21"},
		},
	}
	return s, r
}

// Chat is a chat service, "chat", and its report, where nothing is
// feasible; its five weights are all zero, so it cannot be decided. Each
// call makes them anew.
func Chat() (*scenario.Scenario, *model.Report) {
	s := &scenario.Scenario{
		SchemaVersion: scenario.SchemaVersion,
		ID:            "chat",
		Name:          "Citizen chat assistant",
		Currency:      "EUR",
		Workload:      scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "fp8"},
		Dimensions:    scenario.Dimensions{Economics: scenario.Economics{HorizonMonths: 36}},
	}
	r := &model.Report{
		ScenarioID: s.ID, ScenarioName: s.Name, CatalogAsOf: "2025-05-15", Currency: "EUR",
		Shape: s.Workload.Shape, HorizonMonths: 36, RunUnit: "one month of service",
		Directions: []model.DirectionResult{
			{Direction: scenario.Managed, Title: "Managed service", Reasons: Reasons("residency")},
			{Direction: scenario.Cloud, Title: "Cloud IaaS", Reasons: Reasons("budget cap exceeded")},
			{Direction: scenario.OnPrem, Title: "On-premises", Reasons: Reasons("lead time")},
			{Direction: scenario.HPC, Title: "Shared HPC", Reasons: Reasons("no interactive service")},
			{Direction: scenario.Hybrid, Title: "Hybrid", Reasons: Reasons("staff")},
		},
	}
	return s, r
}

// AddUncertainty adds a hand-built Monte Carlo spread and tornado to r,
// FineTuning's report. The numbers are made up but consistent: P10 ≤ P50
// ≤ P90, the cloud's P50 is near its base cost, and the P(cheapest) of the
// feasible directions sum to 1.
func AddUncertainty(r *model.Report) {
	r.Uncertainty = &model.Uncertainty{
		Draws: 10000, Seed: 7, Distribution: "pert",
		Inputs: []string{"workload.tokens_per_run_b", "dimensions.operations.staff_fte", "options.hpc.queue_wait_hours (catalog)"},
		Directions: []model.DirectionSpread{
			{Direction: scenario.Managed},
			{Direction: scenario.Cloud, CostP10: 1.1e6, CostP50: 1.23e6, CostP90: 1.41e6, TimeP10: 5.2, TimeP50: 6.3, TimeP90: 8.1,
				ProbCheapest: 0.62, ProbFeasible: 1, ProbDeadline: 1, ProbBudget: 0.97},
			{Direction: scenario.OnPrem, CostP10: 1.7e6, CostP50: 1.75e6, CostP90: 1.8e6, TimeP10: 9.8, TimeP50: 11.5, TimeP90: 14,
				ProbCheapest: 0, ProbFeasible: 1, ProbDeadline: 1, ProbBudget: 1},
			{Direction: scenario.HPC, CostP10: 25000, CostP50: 29832, CostP90: 36000, TimeP10: 96, TimeP50: 140, TimeP90: 210,
				ProbCheapest: 0, ProbFeasible: 0, ProbDeadline: 0.08, ProbBudget: 1},
			{Direction: scenario.Hybrid, CostP10: 1.15e6, CostP50: 1.3e6, CostP90: 1.5e6, TimeP10: 7.5, TimeP50: 9, TimeP90: 11.6,
				ProbCheapest: 0.38, ProbFeasible: 1, ProbDeadline: 1, ProbBudget: 0.95},
		},
		ProbNoneFeasible: 0.015,
	}
	// Given out of order on purpose: the chart puts the largest swing on
	// top whatever order it gets.
	r.Tornado = &model.Tornado{Metric: "cost_horizon", Direction: scenario.Cloud, Base: 1234567.89, Bars: []model.Bar{
		{Input: "dimensions.operations.staff_fte", Low: 1.1e6, High: 1.37e6, Swing: 270000},
		{Input: "workload.tokens_per_run_b", Low: 1.0e6, High: 1.7e6, Swing: 700000},
		{Input: "options.hpc.queue_wait_hours (catalog)", Low: 1234567.89, High: 1234567.89},
	}}
}

// AddScaling adds to ft, FineTuning's report, and chat, Chat's, the
// performance figures a model 0.2 report carries: scaling curves for
// cloud and on-premises, a spot checkpoint plan for cloud, HPC wall-time
// jobs, and a serving plan for the chat service, whose cloud direction
// becomes feasible. The numbers are made up but consistent: efficiency
// is speedup ÷ GPUs, and MaxEfficientGPUs is the largest count at or
// above 70 %.
func AddScaling(ft, chat *model.Report) {
	cloud := ft.Direction(scenario.Cloud) // 8 × h100-sxm, the cheapest
	cloud.Bottleneck = "compute"
	cloud.MemoryPerGPUGB = 41.2
	cloud.MaxEfficientGPUs = 16 // 80 % at 16, 57 % at 32
	cloud.Scaling = []model.ScalingPoint{
		{GPUs: 1, StepSeconds: 80, Speedup: 1, Efficiency: 1, TimeToResultHours: 50.7, Fits: true, Bottleneck: "compute"},
		{GPUs: 2, StepSeconds: 40.4, Speedup: 1.98, Efficiency: 0.99, TimeToResultHours: 25.6, Fits: true, Bottleneck: "compute"},
		{GPUs: 4, StepSeconds: 20.6, Speedup: 3.88, Efficiency: 0.97, TimeToResultHours: 13.1, Fits: true, Bottleneck: "compute"},
		{GPUs: 8, StepSeconds: 10.8, Speedup: 7.41, Efficiency: 0.926, TimeToResultHours: 6.84, Fits: true, Bottleneck: "compute"},
		{GPUs: 16, StepSeconds: 6.25, Speedup: 12.8, Efficiency: 0.80, TimeToResultHours: 3.96, Fits: true, Bottleneck: "communication"},
		{GPUs: 32, StepSeconds: 4.4, Speedup: 18.2, Efficiency: 0.569, TimeToResultHours: 2.79, Fits: true, Bottleneck: "communication"},
	}
	cloud.DataPath = &model.DataPath{StagingHours: 1.5, NeededGBs: 0.85, AvailableGBs: 2}
	cloud.Interruptions = &model.Interruptions{MTBIHours: 40, CheckpointMinutes: 4.2, IntervalHours: 2.3, OverheadFraction: 0.061, WallTimeChunks: 1}
	cloud.Calibration = &model.Calibration{Lambda: 1.1, Sigma: 0.012, Kappa: 0.00031, R2: 0.991, NMax: 56.4}

	onPrem := ft.Direction(scenario.OnPrem) // 16 × l40s
	onPrem.Bottleneck = "communication"
	onPrem.MemoryPerGPUGB = 38.5
	onPrem.MaxEfficientGPUs = 16 // 88 % at 16, 66 % at 32
	onPrem.Scaling = []model.ScalingPoint{
		// One or two L40S cannot hold the run.
		{GPUs: 1, StepSeconds: 300, Speedup: 1, Efficiency: 1, TimeToResultHours: 190, Fits: false, Bottleneck: "memory capacity"},
		{GPUs: 2, StepSeconds: 151, Speedup: 1.99, Efficiency: 0.99, TimeToResultHours: 95.6, Fits: false, Bottleneck: "memory capacity"},
		{GPUs: 4, StepSeconds: 76, Speedup: 3.95, Efficiency: 0.99, TimeToResultHours: 48.1, Fits: true, Bottleneck: "compute"},
		{GPUs: 8, StepSeconds: 39, Speedup: 7.69, Efficiency: 0.96, TimeToResultHours: 24.7, Fits: true, Bottleneck: "compute"},
		{GPUs: 16, StepSeconds: 21.4, Speedup: 14, Efficiency: 0.875, TimeToResultHours: 13.6, Fits: true, Bottleneck: "communication"},
		{GPUs: 32, StepSeconds: 14.2, Speedup: 21.1, Efficiency: 0.66, TimeToResultHours: 9, Fits: true, Bottleneck: "communication"},
	}
	onPrem.DataPath = &model.DataPath{NeededGBs: 0.42, AvailableGBs: 10}

	hpc := ft.Direction(scenario.HPC) // 4 × a100-80gb, no curve
	hpc.Bottleneck = "queue"
	hpc.MemoryPerGPUGB = 62.5
	hpc.Interruptions = &model.Interruptions{CheckpointMinutes: 12, WallTimeChunks: 3}

	chat.Cheapest = scenario.Cloud
	srv := chat.Direction(scenario.Cloud)
	srv.Feasible, srv.Reasons = true, nil
	srv.GPU, srv.GPUs = "h100-sxm", 4
	srv.Bottleneck = "memory bandwidth"
	srv.MemoryPerGPUGB = 72
	srv.CostHorizon = 250000
	srv.Serving = &model.Serving{GPUsPerReplica: 2, Batch: 141, ReplicasPeak: 2, ReplicasMean: 1,
		DecodeStepMS: 20.88, TokensPerSecond: 6752.5, RequestsPerSec: 6.603, LatencyMS: 6371.4, MemoryBound: true}
}

// FragileDecision is a hand-built report and decision whose order one
// weight flips: cloud leads on-premises by 0.02, and 20 % less weight on
// economics puts on-premises first.
func FragileDecision() (*model.Report, *decide.Decision) {
	r := &model.Report{ScenarioID: "x", Currency: "EUR", HorizonMonths: 36, Directions: []model.DirectionResult{
		{Direction: scenario.Cloud, Title: "Cloud IaaS", Feasible: true},
		{Direction: scenario.OnPrem, Title: "On-premises", Feasible: true},
	}}
	d := &decide.Decision{
		ScenarioID: "x", Recommendation: scenario.Cloud, Ranking: []string{scenario.Cloud, scenario.OnPrem},
		Directions: []decide.Direction{
			{Direction: scenario.Cloud, Title: "Cloud IaaS", Feasible: true, Rank: 1, Total: 0.61, Bottleneck: "compute", Question: "Q-cloud"},
			{Direction: scenario.OnPrem, Title: "On-premises", Feasible: true, Rank: 2, Total: 0.59, Bottleneck: "data path", Question: "Q-onprem"},
		},
		WhyWinner: []decide.Lead{{Dimension: "economics", Winner: 0.9, RunnerUp: 0.7, Weight: 0.4, Lead: 0.08}},
		RunnerUp:  &decide.RunnerUp{Direction: scenario.OnPrem, Gap: 0.02, Summary: "On-premises (0.020 behind) would draw level if the economics weight fell from 0.4 to 0.33."},
		Robustness: decide.Robustness{Verdict: decide.Fragile, Fragile: true, Perturbation: 0.2, FlippedBy: []string{"economics -20 %"},
			Summary: "economics -20 % puts On-premises first."},
	}
	return r, d
}
