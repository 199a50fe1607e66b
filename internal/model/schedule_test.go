package model

import (
	"strings"
	"testing"

	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// yearlyOnFourA100 is a 7 B pre-training on 2 T tokens once a year on 4 ×
// A100 of a shared HPC partition: 6 × 7e9 × 2e12 FLOPs at 40 % of 312
// TFLOP/s take some 50,000 h, nearly six years for a run due every year.
func yearlyOnFourA100(horizonMonths int) *scenario.Scenario {
	s := base()
	s.Workload.Model = scenario.Model{Preset: "mistral-7b"}
	s.Workload.TokensPerRunB = scenario.Known(2000)
	s.Workload.MFU = scenario.Known(0.4)
	s.Workload.Sharding = "zero3"
	s.Workload.RunsPerMonth = scenario.Known(0.0833)
	s.Dimensions.Economics.HorizonMonths = horizonMonths
	s.Options.HPC = scenario.HPCOptions{Partition: "caltech-hpc", GPUs: 4, QueueWaitHours: scenario.Known(1)}
	return s
}

// A run longer than the time between runs (730 h ÷ 0.0833 = 8,764 h) is
// ruled out, naming both; one longer than the horizon likewise.
func TestScheduleMustFit(t *testing.T) {
	h := eval(t, yearlyOnFourA100(120)).Direction(scenario.HPC)
	if h.TimeToResultHours < 8764 || h.TimeToResultHours > 120*730 {
		t.Fatalf("the case takes %.0f h: want more than a year and less than the 10-year horizon", h.TimeToResultHours)
	}
	if h.Feasible || !hasCode(h.Reasons, ReasonRunLongerThanInterval) {
		t.Fatalf("HPC feasible %v, reasons %v: want run_longer_than_interval", h.Feasible, ReasonTexts(h.Reasons))
	}
	want := "a run takes " + num.Whole(h.TimeToResultHours) + " h; at 0.0833 runs a month the next starts every 8,764 h, before it ends"
	if !hasReason(h.Reasons, ReasonRunLongerThanInterval, want) {
		t.Errorf("reasons %v, want %q", ReasonTexts(h.Reasons), want)
	}
	if ReasonRunLongerThanInterval.Kind() != KindDeadline || ReasonRunLongerThanHorizon.Kind() != KindDeadline {
		t.Error("the schedule's reasons are of the deadline kind")
	}

	h = eval(t, yearlyOnFourA100(24)).Direction(scenario.HPC)
	if h.Feasible || !hasCode(h.Reasons, ReasonRunLongerThanHorizon) || hasCode(h.Reasons, ReasonRunLongerThanInterval) {
		t.Errorf("24-month horizon: reasons %v, want run_longer_than_horizon alone", ReasonTexts(h.Reasons))
	}
	for _, r := range h.Reasons {
		if r.Code == ReasonRunLongerThanHorizon && !strings.Contains(r.Text, "the horizon is 24 months (17,520 h)") {
			t.Errorf("horizon reason %q", r.Text)
		}
	}

	// The same work on enough GPUs fits its year: the cloud's 8 × H100
	// take a fraction of the interval, and stay feasible.
	c := eval(t, yearlyOnFourA100(120)).Direction(scenario.Cloud)
	if hasCode(c.Reasons, ReasonRunLongerThanInterval) || hasCode(c.Reasons, ReasonRunLongerThanHorizon) {
		t.Errorf("cloud (%.0f h a run) ruled out by the schedule: %v", c.TimeToResultHours, ReasonTexts(c.Reasons))
	}
}

func hasCode(rs []Reason, code ReasonCode) bool {
	for _, r := range rs {
		if r.Code == code {
			return true
		}
	}
	return false
}
