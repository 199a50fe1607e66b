package model

import (
	"math"
	"slices"
	"testing"

	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// diurnal is the case issue 12 reproduced: a 70 B service peaking at 40
// requests/s with a mean of 15 (1,200 tokens in, 300 out, 8 s latency
// target, FP8), on H100s in the cloud at on-demand rates.
func diurnal() *scenario.Scenario {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "fp8", Model: scenario.Model{Preset: "llama-3.1-70b"},
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(40), MeanRPS: scenario.Known(15), TokensIn: scenario.Known(1200),
			TokensOut: scenario.Known(300), LatencyTargetMS: scenario.Known(8000)}}
	s.Options.Cloud = scenario.CloudOptions{Offer: "gcp-a3-h100", Pricing: "on_demand"}
	s.Options.OnPrem = scenario.OnPremOptions{Node: "dgx-h100"}
	return s
}

// replicas is ⌈rps × 1.25 ÷ per replica⌉ within [1, peak]: the scale-up
// margin of 25 %.
func replicas(rps, perReplica float64, peak int) float64 {
	return math.Min(float64(peak), math.Max(1, math.Ceil(rps*1.25/perReplica)))
}

// Costed at the peak all day (a mean that is the peak), the service pays
// for every replica 730 h a month. With the peak six hours a day, the
// other 18 carry the rest of the mean — (24 × 15 − 6 × 40) ÷ 18 = 6.67
// requests/s — and rented replicas follow the load: about half the
// GPU-hours. Owned hardware and a commitment stay sized for the peak.
func TestAutoscaledServing(t *testing.T) {
	s := diurnal()
	s.Workload.Traffic.MeanRPS = scenario.Known(40)
	flat := eval(t, s)
	s.Workload.Traffic.MeanRPS = scenario.Known(15)
	c := flat.Direction(scenario.Cloud)
	sv := c.Serving
	if sv == nil || sv.ReplicasPeak < 2 {
		t.Fatalf("serving plan %+v", sv)
	}
	if !near(c.GPUHoursPerRun, float64(c.GPUs)*730, 1e-12) || sv.ReplicaHoursPerDay != 0 ||
		!slices.ContainsFunc(c.Notes, func(n Note) bool { return n.Code == NoteNoTrafficProfile }) {
		t.Errorf("no profile: %g GPU-hours on %d GPUs, %g replica-hours a day, notes %v; want the peak all day, said so", c.GPUHoursPerRun, c.GPUs, sv.ReplicaHoursPerDay, c.Notes)
	}

	s.Workload.Traffic.PeakHoursPerDay = scenario.Known(6)
	r := eval(t, s)
	a := r.Direction(scenario.Cloud)
	per, peak := a.Serving.RequestsPerSec, a.Serving.ReplicasPeak
	base := (24*15 - 6*40) / 18.0
	day := 6*replicas(40, per, peak) + 18*replicas(base, per, peak)
	want := day * float64(a.Serving.GPUsPerReplica) * 730 / 24
	if !near(a.GPUHoursPerRun, want, 1e-12) || a.Serving.ReplicaHoursPerDay != day || a.GPUs != c.GPUs {
		t.Errorf("peak 6 h a day: %g GPU-hours (%g replica-hours a day) on %d GPUs; want %g (%g) on %d", a.GPUHoursPerRun, a.Serving.ReplicaHoursPerDay, a.GPUs, want, day, c.GPUs)
	}
	if saved := 1 - a.GPUHoursPerRun/c.GPUHoursPerRun; saved < 0.4 {
		t.Errorf("autoscaling saves %.0f %% of the GPU-hours; want at least 40 %%", 100*saved)
	}
	if !near(a.VariableCostPerRun, a.GPUHoursPerRun*a.PricePerGPUHour, 1e-9) {
		t.Errorf("variable cost %g, want the autoscaled GPU-hours × %g", a.VariableCostPerRun, a.PricePerGPUHour)
	}
	if h := r.Direction(scenario.Hybrid); !near(h.GPUHoursPerRun, a.GPUHoursPerRun, 1e-12) {
		t.Errorf("hybrid serving from the cloud: %g GPU-hours, want the cloud's %g", h.GPUHoursPerRun, a.GPUHoursPerRun)
	}
	if o := r.Direction(scenario.OnPrem); !near(o.GPUHoursPerRun, float64(o.GPUs)*730, 1e-12) {
		t.Errorf("on-premises: %g GPU-hours on %d GPUs; owned hardware stays sized for the peak", o.GPUHoursPerRun, o.GPUs)
	}
	s.Options.Cloud.Pricing = "commit_1y"
	if k := eval(t, s).Direction(scenario.Cloud); k.Drivers[costid.CommittedGPUs] != float64(k.GPUs) || k.Serving.ReplicaHoursPerDay != 0 {
		t.Errorf("a commitment: %g GPUs committed of %d; want the peak's, every hour", k.Drivers[costid.CommittedGPUs], k.GPUs)
	}

	// Twenty-four hourly levels are scaled so that the day averages the
	// mean, each at most the peak: here twelve hours at 3 units and
	// twelve at 1 make 22.5 and 7.5 requests/s.
	s = diurnal()
	s.Workload.Traffic.HourlyLoad = make([]float64, 24)
	for i := range 24 {
		s.Workload.Traffic.HourlyLoad[i] = 1 + 2*float64(i/12)
	}
	h := eval(t, s).Direction(scenario.Cloud)
	day = 12*replicas(22.5, per, peak) + 12*replicas(7.5, per, peak)
	if h.Serving.ReplicaHoursPerDay != day {
		t.Errorf("hourly levels: %g replica-hours a day, want %g", h.Serving.ReplicaHoursPerDay, day)
	}
}

// Mixed pricing commits the replicas busy more of the month than the
// ratio of the committed to the on-demand rate, and pays on demand for
// the rest: never more than either alone.
func TestMixedPricing(t *testing.T) {
	s := diurnal()
	s.Workload.Traffic.PeakHoursPerDay = scenario.Known(6)
	cost := func(mode string) *DirectionResult {
		s.Options.Cloud.Pricing = mode
		return eval(t, s).Direction(scenario.Cloud)
	}
	od, commit, mix := cost("on_demand"), cost("commit_3y"), cost("mixed_3y")
	per, peak, tp := mix.Serving.RequestsPerSec, mix.Serving.ReplicasPeak, float64(mix.Serving.GPUsPerReplica)
	base := replicas((24*15-6*40)/18.0, per, peak)
	// gcp-a3-h100: 3-year commitment 4.8559, on demand 11.06125 per
	// GPU-hour: a replica busy 44 % of the month or less goes on demand.
	// The base replicas are busy all day, the others 6 h of 24.
	if mix.CostModel != costid.CloudMixedCosts || mix.Drivers[costid.CommittedGPUs] != base*tp {
		t.Errorf("mixed: model %v, %g GPUs committed; want %v and the %g base replicas' %g", mix.CostModel, mix.Drivers[costid.CommittedGPUs], costid.CloudMixedCosts, base, base*tp)
	}
	over := (float64(peak) - base) * tp * 6 * 730 / 24
	if !near(mix.Drivers[costid.OnDemandGPUHours], over, 1e-12) || mix.Drivers[costid.OnDemandPrice] != 11.06125 {
		t.Errorf("mixed: %g GPU-hours on demand at %g; want %g at 11.06125", mix.Drivers[costid.OnDemandGPUHours], mix.Drivers[costid.OnDemandPrice], over)
	}
	want := mix.Drivers[costid.StaffPerMonth] + mix.Drivers[costid.StoragePerMonth] + base*tp*730*4.8559 + over*11.06125 + mix.Drivers[costid.OutputGB]*mix.Drivers[costid.EgressPricePerGB]
	if !near(mix.CostPerRun, want, 1e-9) {
		t.Errorf("mixed: %g a month, want %g", mix.CostPerRun, want)
	}
	if mix.CostPerRun >= od.CostPerRun || mix.CostPerRun >= commit.CostPerRun {
		t.Errorf("mixed %g a month; on demand %g, committed %g: the mix should cost less than either", mix.CostPerRun, od.CostPerRun, commit.CostPerRun)
	}
	if i := slices.IndexFunc(mix.CostInputs, func(c CostInput) bool { return c.Driver == costid.OnDemandPrice }); i < 0 || mix.CostInputs[i].Catalog != "cloud/gcp-a3-h100/on_demand" {
		t.Errorf("the on-demand rate's input: %+v", mix.CostInputs)
	}

	// Runs: training on 8 GPUs busy 30 % of the month stays on demand;
	// busy 90 % of it, the 8 GPUs are committed.
	for _, c := range []struct {
		runs float64
		gpus float64
	}{{0.3, 0}, {0.9, 8}} {
		t2 := base2()
		h := eval(t, t2).Direction(scenario.Cloud).ComputeHours
		t2.Workload.RunsPerMonth = scenario.Known(c.runs * 730 / h)
		t2.Options.Cloud.Pricing = "mixed_3y"
		d := eval(t, t2).Direction(scenario.Cloud)
		if d.Drivers[costid.CommittedGPUs] != c.gpus {
			t.Errorf("runs busy %.0f %% of the month: %g GPUs committed, want %g", 100*c.runs, d.Drivers[costid.CommittedGPUs], c.gpus)
		}
	}
}

// base2 is the base training run on gcp-a3-h100 (which has commitment
// rates), 8 GPUs.
func base2() *scenario.Scenario {
	s := base()
	s.Options.Cloud = scenario.CloudOptions{Offer: "gcp-a3-h100", GPUs: 8}
	return s
}

// Batch work scales to zero on rented capacity: twice the runs cost twice
// the GPU-hours and nothing more each month.
func TestBatchScalesToZero(t *testing.T) {
	s := base2()
	s.Workload = scenario.Workload{Shape: scenario.ShapeBatch, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
		TokensPerRunB: scenario.Known(0.5), RunsPerMonth: scenario.Known(10)}
	one := eval(t, s).Direction(scenario.Cloud)
	s.Workload.RunsPerMonth = scenario.Known(20)
	two := eval(t, s).Direction(scenario.Cloud)
	if one.MonthlyFixedCost != two.MonthlyFixedCost || !near(two.Drivers[costid.MonthlySpend]-one.Drivers[costid.MonthlySpend], 10*one.VariableCostPerRun, 1e-9) || one.Drivers[costid.CommittedGPUs] != 0 {
		t.Errorf("batch: fixed %g → %g, spend %g → %g; want the fixed cost unchanged and 10 more runs' variable cost", one.MonthlyFixedCost, two.MonthlyFixedCost, one.Drivers[costid.MonthlySpend], two.Drivers[costid.MonthlySpend])
	}
}

// Given its peak (40 requests/s) and mean (15) but no day, a service is
// assumed at the peak DefaultPeakHours a day and at (24 × 15 − 8 × 40) ÷ 16
// = 2.5 requests/s the rest, which keeps the mean; the report says so. A
// mean below a third of the peak shortens the peak hours (24 × mean ÷
// peak), the rest of the day quiet. Cost and time never come from a day
// that contradicts the mean.
func TestAssumedDay(t *testing.T) {
	s := diurnal()
	c := eval(t, s).Direction(scenario.Cloud)
	sv := c.Serving
	day := DefaultPeakHours*replicas(40, sv.RequestsPerSec, sv.ReplicasPeak) + (24-DefaultPeakHours)*replicas(2.5, sv.RequestsPerSec, sv.ReplicasPeak)
	if !near(sv.ReplicaHoursPerDay, day, 1e-12) || !near(c.GPUHoursPerRun, day*float64(sv.GPUsPerReplica)*730/24, 1e-12) {
		t.Errorf("assumed day: %g replica-hours a day, %g GPU-hours; want %g", sv.ReplicaHoursPerDay, c.GPUHoursPerRun, day)
	}
	if !noteSays(c, NoteAssumedDay, "8 h a day and 2.5 requests/s the rest, which keeps the mean of 15") {
		t.Errorf("notes %v lack the assumed day", c.Notes)
	}
	if AssumedPeakHours(40, 15) != DefaultPeakHours || AssumedPeakHours(40, 5) != 3 {
		t.Errorf("assumed peak hours %g, %g; want 8 and 3", AssumedPeakHours(40, 15), AssumedPeakHours(40, 5))
	}
	// Each day keeps the mean it was given.
	var buf [24]load
	for _, mean := range []float64{1, 5, 13.3, 15, 39.9} {
		d := dayLoads(s.Workload.Traffic, 40, mean, &buf)
		sum, hours := 0.0, 0.0
		for _, x := range d {
			sum += x.rps * x.hours
			hours += x.hours
		}
		if len(d) != 2 || !near(hours, 24, 1e-12) || !near(sum/24, mean, 1e-12) {
			t.Errorf("mean %g: day %v averages %g over %g h", mean, d, sum/24, hours)
		}
	}
	// A mean that is the peak, or none, is a flat day: nothing assumed.
	s.Workload.Traffic.MeanRPS = scenario.Known(40)
	if AssumedDay(s.Workload.Traffic) || noteSays(eval(t, s).Direction(scenario.Cloud), NoteAssumedDay, "") {
		t.Error("a flat day assumed")
	}
}
