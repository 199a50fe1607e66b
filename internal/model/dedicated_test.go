package model

import (
	"slices"
	"strings"
	"testing"

	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

func noteSays(d *DirectionResult, code NoteCode, part string) bool {
	return slices.ContainsFunc(d.Notes, func(n Note) bool { return n.Code == code && strings.Contains(n.Text, part) })
}

// By hand: the diurnal 70 B service (peak 40, mean 15 requests/s) on a
// dedicated Hugging Face Inference Endpoint of A100s at $2.50 per GPU-hour
// (huggingface.co/docs/inference-endpoints/support/pricing, aws nvidia-a100
// x1). At the peak all day every replica runs all day: replicas ×
// GPUs a replica × 730 h × 2.50 a month. With the peak six hours a day
// the replicas follow the load, each stretch ⌈rps × 1.25 ÷ per replica⌉,
// at least one.
func TestDedicatedByHand(t *testing.T) {
	s := diurnal()
	s.Workload.Traffic.MeanRPS = scenario.Known(40) // the peak all day
	s.Options.Managed.Offer = "hf-dedicated-a100"
	m := eval(t, s).Direction(scenario.Managed)
	sv := m.Serving
	if m.CostModel != costid.ManagedDedicatedCosts || sv == nil || m.GPU != "a100-80gb" || m.PricePerGPUHour != 2.5 {
		t.Fatalf("managed %s on %q at %g, serving %+v; want a dedicated deployment on A100s at 2.5", m.CostModel, m.GPU, m.PricePerGPUHour, sv)
	}
	want := float64(sv.ReplicasPeak) * float64(sv.GPUsPerReplica) * 730 * 2.5
	if !near(m.OtherCostPerRun, want, 1e-12) || !near(m.CostHorizon, m.Drivers[costid.HorizonMonths]*(want+m.MonthlyFixedCost), 1e-12) {
		t.Errorf("a month %g (horizon %g); want %d replicas × %d GPUs × 730 h × 2.5 = %g", m.OtherCostPerRun, m.CostHorizon, sv.ReplicasPeak, sv.GPUsPerReplica, want)
	}
	if m.VariablePricePerGPUHour != 0 || m.GPUHoursPerRun != 0 || m.GPUs != sv.ReplicasPeak*sv.GPUsPerReplica {
		t.Errorf("variable price %g, GPU-hours %g, GPUs %d", m.VariablePricePerGPUHour, m.GPUHoursPerRun, m.GPUs)
	}
	if !noteSays(m, NoteManagedPricing, "the scenario asks for it") {
		t.Errorf("notes %v lack the managed_pricing note", m.Notes)
	}

	s.Workload.Traffic.MeanRPS = scenario.Known(15)
	s.Workload.Traffic.PeakHoursPerDay = scenario.Known(6)
	m = eval(t, s).Direction(scenario.Managed)
	sv = m.Serving
	base := (24*15.0 - 6*40) / 18
	hours := 6*replicas(40, sv.RequestsPerSec, sv.ReplicasPeak) + 18*replicas(base, sv.RequestsPerSec, sv.ReplicasPeak)
	if !near(sv.ReplicaHoursPerDay, hours, 1e-12) || !near(m.OtherCostPerRun, hours*float64(sv.GPUsPerReplica)*730/24*2.5, 1e-12) {
		t.Errorf("%g replica-hours a day, %g a month; want %g replica-hours, × %d GPUs × 730/24 × 2.5", sv.ReplicaHoursPerDay, m.OtherCostPerRun, hours, sv.GPUsPerReplica)
	}
}

// The planner weighs the two: a steady, busy 70 B service (40 requests/s
// all day, 1,200 tokens in and 300 out) costs some 90,000 a month per
// token (at together-70b's 0.88 per million tokens), far more than the
// dedicated replicas it needs, so the managed direction takes them; a
// tiny one (0.01 requests/s) costs a few dollars per token, less than one
// replica kept warm, and stays per token. Each says what the other would
// cost, and the scenario can force either.
func TestManagedPicksTheCheaperPricing(t *testing.T) {
	s := diurnal()
	s.Workload.Traffic.MeanRPS = scenario.Known(40)
	r := eval(t, s)
	m := r.Direction(scenario.Managed)
	if m.CostModel != costid.ManagedDedicatedCosts || !noteSays(m, NoteManagedPricing, "because it costs less; per token") {
		t.Fatalf("busy service: managed %s (%s), notes %v; want a dedicated deployment that says what per token costs", m.CostModel, m.Offer, m.Notes)
	}
	dedicated := m.CostHorizon
	s.Options.Managed.Pricing = "per_token"
	p := eval(t, s).Direction(scenario.Managed)
	if p.CostModel != costid.ManagedInteractiveCosts || !(p.CostHorizon > dedicated) || !noteSays(p, NoteManagedPricing, "a dedicated deployment") {
		t.Errorf("forced per token: %s at %g against %g dedicated, notes %v", p.CostModel, p.CostHorizon, dedicated, p.Notes)
	}

	tiny := diurnal()
	tiny.Workload.Traffic.PeakRPS, tiny.Workload.Traffic.MeanRPS = scenario.Known(0.05), scenario.Known(0.01)
	m = eval(t, tiny).Direction(scenario.Managed)
	if m.CostModel != costid.ManagedInteractiveCosts || !noteSays(m, NoteManagedPricing, "per-token pricing") {
		t.Fatalf("tiny service: managed %s, notes %v; want per token, saying what a dedicated deployment costs", m.CostModel, m.Notes)
	}
	perToken := m.CostHorizon
	tiny.Options.Managed.Pricing = "dedicated"
	d := eval(t, tiny).Direction(scenario.Managed)
	if d.CostModel != costid.ManagedDedicatedCosts || !(d.CostHorizon > perToken) || d.Serving.ReplicaHoursPerDay < 24 {
		t.Errorf("forced dedicated: %s at %g against %g per token, serving %+v; want at least one replica all day, dearer", d.CostModel, d.CostHorizon, perToken, d.Serving)
	}
}

// Residency applies to dedicated offers as to per-token ones: with the
// data bound to the EU, no US deployment is chosen, and forcing a
// dedicated deployment finds none; a dedicated offer cannot fine-tune.
func TestDedicatedResidencyAndShape(t *testing.T) {
	s := diurnal()
	s.Workload.Traffic.MeanRPS = scenario.Known(40)
	s.Data.Residency = "EU"
	s.Options.Managed.Pricing = "dedicated"
	m := eval(t, s).Direction(scenario.Managed)
	if m.Feasible || !slices.ContainsFunc(m.Reasons, func(r Reason) bool { return r.Code == ReasonNoManagedOffer }) {
		t.Errorf("EU residency, dedicated forced: feasible %v, reasons %v; want no dedicated offer", m.Feasible, m.Reasons)
	}
	ft := base()
	ft.Workload = scenario.Workload{Shape: scenario.ShapeFineTuning, Method: "lora", Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
		TokensPerRunB: scenario.Known(0.1), RunsPerMonth: scenario.Known(1)}
	ft.Options.Managed.Offer = "hf-dedicated-a100"
	m = eval(t, ft).Direction(scenario.Managed)
	if m.Feasible || !slices.ContainsFunc(m.Reasons, func(r Reason) bool {
		return r.Code == ReasonNoManagedOffer && strings.Contains(r.Text, "interactive inference only")
	}) {
		t.Errorf("fine-tuning on a dedicated offer: feasible %v, reasons %v", m.Feasible, m.Reasons)
	}
}
