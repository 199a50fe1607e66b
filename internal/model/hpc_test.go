package model

import (
	"math"
	"slices"
	"testing"

	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// steadyTraining is the case issue 12 reproduced: a 7 B model trained on
// 130 B tokens every month for 36 months — 5.5e21 FLOPs, some 3,970
// GPU-hours on 8 × H100 at MFU 0.4 — by a team with every skill.
func steadyTraining() *scenario.Scenario {
	s := base()
	s.Workload.Model = scenario.Model{Preset: "mistral-7b"}
	s.Workload.TokensPerRunB = scenario.Known(130)
	s.Workload.MFU = scenario.Known(0.4)
	s.Workload.Sharding = ""
	s.Dimensions.Economics.HorizonMonths = 36
	s.Dimensions.Operations = scenario.Operations{StaffFTE: scenario.Known(3), Skills: scenario.Skills}
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100", GPUs: 8}
	return s
}

// Steady training does not fit a 64-GPU partition's fair share: before the
// partition's capacity counted, shared HPC won at the member rate on four
// A100s (3,600 h a run) or, with a 600 h deadline, on 32 of the 64 GPUs for
// 72 % of every month. Now one project holds at most 16 GPUs, and the work
// asks for about 27 % of the partition's GPU-hours month after month.
func TestHPCSteadyTrainingOverFairShare(t *testing.T) {
	for _, deadline := range []float64{0, 600} {
		s := steadyTraining()
		if deadline > 0 {
			s.Workload.DeadlineHours = scenario.Known(deadline)
		}
		r := eval(t, s)
		h := r.Direction(scenario.HPC)
		if h.Offer != "caltech-hpc" || h.GPUs > 16 {
			t.Fatalf("deadline %g: HPC on %s with %d GPUs; want Caltech's partition, at most 16 GPUs (a quarter of 64)", deadline, h.Offer, h.GPUs)
		}
		if h.Feasible || !slices.ContainsFunc(h.Reasons, func(x Reason) bool { return x.Code == ReasonFairShareExceeded }) {
			t.Errorf("deadline %g: HPC feasible %v, reasons %v; want fair_share_exceeded", deadline, h.Feasible, h.Reasons)
		}
		// The share asked: a month's GPU-hours over 64 × 730.
		asked := h.GPUHoursPerRun / (64 * hoursPerMonth)
		if asked < 0.25 || asked > 0.35 {
			t.Errorf("deadline %g: the work asks for %.3f of the partition; want just over the 0.25 fair share", deadline, asked)
		}
		if r.Cheapest == scenario.HPC || r.Cheapest == "" {
			t.Errorf("deadline %g: cheapest feasible is %q; want a direction other than shared HPC", deadline, r.Cheapest)
		}
	}
	// A centre that grants this project half its partition takes the work
	// on 32 GPUs; on the fewest that hold it a run takes some 4,300 h,
	// longer than the month between runs (run_longer_than_interval).
	s := steadyTraining()
	s.Options.HPC.FairShare = scenario.Known(0.5)
	if h := eval(t, s).Direction(scenario.HPC); h.Feasible || !slices.ContainsFunc(h.Reasons, func(x Reason) bool { return x.Code == ReasonRunLongerThanInterval }) {
		t.Errorf("with a fair share of 0.5 on %d GPUs: feasible %v, reasons %v; want run_longer_than_interval", h.GPUs, h.Feasible, h.Reasons)
	}
	s.Options.HPC.GPUs = 32
	if h := eval(t, s).Direction(scenario.HPC); !h.Feasible {
		t.Errorf("with a fair share of 0.5 on 32 GPUs HPC is ruled out: %v", h.Reasons)
	}
}

// The queue wait grows as 1 ÷ (1 − use of the fair share), counted up to
// 90 % of it.
func TestQueueGrowth(t *testing.T) {
	for _, c := range []struct{ use, want float64 }{
		{-1, 1}, {0, 1}, {0.5, 2}, {0.75, 4}, {0.9, 10}, {1, 10}, {3, 10},
	} {
		if got := queueGrowth(c.use); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("queueGrowth(%g) = %g, want %g", c.use, got, c.want)
		}
	}
}

// The share asked is the busiest month's GPU-hours over the partition's.
func TestShareAsked(t *testing.T) {
	const cap = 64.0 * hoursPerMonth
	for _, c := range []struct {
		name          string
		gpuHours, rpm float64
		gpus          int
		want          float64
	}{
		// Ten runs of 1,000 GPU-hours a month: 10,000 GPU-hours.
		{"monthly runs", 1000, 10, 8, 10000 / cap},
		// One run a year of 1,000 GPU-hours on 8 GPUs (125 h): the whole
		// run falls in one month.
		{"yearly run within a month", 1000, 1.0 / 12, 8, 1000 / cap},
		// One run a year of 20,000 GPU-hours on 8 GPUs (2,500 h): 8 GPUs
		// all month.
		{"yearly run over months", 20000, 1.0 / 12, 8, 8 * hoursPerMonth / cap},
		{"no runs", 1000, 0, 8, 0},
	} {
		if got := shareAsked(c.gpuHours, c.rpm, c.gpus, 64); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("%s: shareAsked = %g, want %g", c.name, got, c.want)
		}
	}
	if got := shareAsked(1000, 1, 8, 0); got != 0 {
		t.Errorf("no capacity: shareAsked = %g, want 0", got)
	}
}

// A grant covers its period: a month of runs, a year of runs (the horizon
// when shorter), or every run of the project — and a year or a project
// holds at least one whole run.
func TestGrantNeed(t *testing.T) {
	for _, c := range []struct {
		period   string
		rpm      float64
		months   int
		want     float64
		wantWord string
	}{
		{"month", 2, 36, 2000, "a month"},
		{"", 2, 36, 24000, "a year"},
		{"year", 2, 6, 12000, "a year"},
		{"year", 1.0 / 24, 36, 1000, "a year"},
		{"project", 0.5, 36, 18000, "over the 36 months of the project"},
		{"project", 0.01, 12, 1000, "over the 12 months of the project"},
		{"year", 0, 12, 0, "a year"},
	} {
		got, words := grantNeed(1000, c.rpm, c.months, c.period)
		if math.Abs(got-c.want) > 1e-9 || words != c.wantWord {
			t.Errorf("grantNeed(1000, %g, %d, %q) = %g, %q; want %g, %q", c.rpm, c.months, c.period, got, words, c.want, c.wantWord)
		}
	}
}

// Members pay the member rate, labelled as one with the external rate;
// external users pay the external rate, and a partition without one is
// closed to them unless the scenario gives its own price.
func TestHPCAccess(t *testing.T) {
	s := base()
	s.Options.HPC.Partition = "kennesaw-vhpc"
	h := eval(t, s).Direction(scenario.HPC)
	i := slices.IndexFunc(h.Notes, func(n Note) bool { return n.Code == NoteMemberRate })
	if h.PricePerGPUHour != 0.12 || i < 0 || h.Notes[i].Text != "member rate: 0.12 per GPU-hour is what the centre's own members pay; users from outside pay 0.22" {
		t.Errorf("member: price %g, notes %v; want 0.12 with the member-rate note naming 0.22", h.PricePerGPUHour, h.Notes)
	}

	s.Options.HPC.Access = "external"
	h = eval(t, s).Direction(scenario.HPC)
	if h.PricePerGPUHour != 0.22 || slices.ContainsFunc(h.Notes, func(n Note) bool { return n.Code == NoteMemberRate }) {
		t.Errorf("external: price %g, notes %v; want 0.22 and no member-rate note", h.PricePerGPUHour, h.Notes)
	}
	in := slices.IndexFunc(h.CostInputs, func(c CostInput) bool { return c.Driver == costid.GPUHourPrice })
	if in < 0 || h.CostInputs[in].Catalog != "hpc/kennesaw-vhpc/external_price_per_gpu_hour" {
		t.Errorf("external: the price's cost input %+v; want it read from the external rate", h.CostInputs)
	}

	s.Options.HPC.Partition = "caltech-hpc"
	h = eval(t, s).Direction(scenario.HPC)
	if h.Feasible || !slices.ContainsFunc(h.Reasons, func(x Reason) bool { return x.Code == ReasonHPCMembersOnly }) {
		t.Errorf("external at Caltech: feasible %v, reasons %v; want hpc_members_only", h.Feasible, h.Reasons)
	}
	s.Options.HPC.PricePerGPUHr = scenario.Known(0.5)
	h = eval(t, s).Direction(scenario.HPC)
	if !h.Feasible || h.PricePerGPUHour != 0.5 {
		t.Errorf("external at Caltech with a negotiated price: feasible %v (%v), price %g; want feasible at 0.5", h.Feasible, h.Reasons, h.PricePerGPUHour)
	}

	// The model's own choice for an external user skips the partitions
	// closed to one.
	s = base()
	s.Options.HPC.Access = "external"
	if h := eval(t, s).Direction(scenario.HPC); h.Offer != "kennesaw-vhpc" || h.PricePerGPUHour != 0.22 {
		t.Errorf("external, the model's choice: %s at %g; want kennesaw-vhpc at 0.22", h.Offer, h.PricePerGPUHour)
	}
}
