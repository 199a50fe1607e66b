package model

import (
	"strings"
	"testing"

	"hostplan/internal/costid"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// One GPU of aws-p5-h100, an offer sold as p5.48xlarge instances of 8 ×
// H100: the run uses one GPU, AWS bills the instance, so 8 GPUs × the
// run's hours (before: 1 × the hours, an eighth of the bill).
func TestWholeInstancesBilled(t *testing.T) {
	s := base()
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100", GPUs: 1}
	s.Data.OutputGB = scenario.Known(0)
	r := eval(t, s)
	c := r.Direction(scenario.Cloud)
	h := c.ComputeHours
	if c.GPUs != 1 || !near(c.GPUHoursPerRun, h, 1e-12) {
		t.Fatalf("%d GPUs, %.2f GPU-hours for %.2f h: the run uses the GPU it plans on", c.GPUs, c.GPUHoursPerRun, h)
	}
	if got := c.Drivers[costid.IdleGPUHoursPerRun]; !near(got, 7*h, 1e-12) {
		t.Errorf("idle GPU-hours %.2f, want 7 × %.2f", got, h)
	}
	if !near(c.VariableCostPerRun, 8*h*6.88, 1e-9) {
		t.Errorf("variable cost per run %.2f, want 8 GPUs × %.2f h × 6.88 = %.2f", c.VariableCostPerRun, h, 8*h*6.88)
	}
	var note string
	for _, n := range c.Notes {
		if n.Code == NoteWholeInstances {
			note = n.Text
		}
	}
	if !strings.Contains(note, "7 idle GPUs are billed") || !strings.Contains(note, num.Whole(7*h*6.88)+" a run at 6.88 per GPU-hour") {
		t.Errorf("note %q: want the idle GPUs and their cost", note)
	}
	found := false
	for _, l := range c.Breakdown {
		if l.Item == "Idle GPUs of whole instances" && near(l.Amount, 7*h*6.88*12, 1e-9) {
			found = true
		}
	}
	if !found {
		t.Errorf("breakdown %+v: want the idle GPUs' line", c.Breakdown)
	}
	// A whole instance bills nothing idle; a commitment reserves whole
	// instances.
	s.Options.Cloud.GPUs = 8
	if c := eval(t, s).Direction(scenario.Cloud); c.Drivers[costid.IdleGPUHoursPerRun] != 0 || hasNote(c.Notes, NoteWholeInstances, "") {
		t.Errorf("8 GPUs: idle %.2f GPU-hours", c.Drivers[costid.IdleGPUHoursPerRun])
	}
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p4de-a100", GPUs: 12, Pricing: "commit_1y"}
	if c := eval(t, s).Direction(scenario.Cloud); c.Drivers[costid.CommittedGPUs] != 16 || c.OtherCostPerRun != 0 {
		t.Errorf("12 committed GPUs of 8-GPU instances: %g committed, other cost %.2f; want 16 and nothing more per run", c.Drivers[costid.CommittedGPUs], c.OtherCostPerRun)
	}
}

// Hybrid's burst to the cloud bills whole instances as well.
func TestWholeInstancesInTheBurst(t *testing.T) {
	s := base()
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100", GPUs: 2}
	s.Data.Movement, s.Data.SnapshotGB = scenario.MoveSnapshot, scenario.Known(1)
	h := eval(t, s).Direction(scenario.Hybrid)
	if !near(h.Drivers[costid.IdleGPUHoursPerRun], 6*h.ComputeHours, 1e-12) || !(h.OtherCostPerRun >= 6*h.ComputeHours*6.88) {
		t.Errorf("burst on 2 GPUs: idle %.2f GPU-hours, other cost %.2f; want 6 × %.2f h billed", h.Drivers[costid.IdleGPUHoursPerRun], h.OtherCostPerRun, h.ComputeHours)
	}
}
