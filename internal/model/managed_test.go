package model

import (
	"strconv"
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

// A managed batch's elapsed time is estimated on the offer's reference
// hardware from the catalog (8 × H100 in the built-in one): FLOPs ÷
// (GPUs × dense peak × MFU). Changing the reference changes the estimate
// and the note that states it; an unknown GPU is refused.
func TestManagedTimeOnReferenceGPUs(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeBatch, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
		TokensPerRunB: scenario.Known(1), RunsPerMonth: scenario.Known(1), MFU: scenario.Known(0.5)}
	s.Options.Managed.Offer = "together-8b"
	check := func(gpus int, tflops float64, name string) {
		t.Helper()
		r := eval(t, s)
		m := r.Direction(scenario.Managed)
		if want := r.Workload.FLOPsPerRun / (float64(gpus) * tflops * 1e12 * 0.5) / 3600; !near(m.ComputeHours, want, 1e-12) || m.TimeToResultHours != m.ComputeHours {
			t.Errorf("compute %g h, time %g h; want %g on %d × %s", m.ComputeHours, m.TimeToResultHours, want, gpus, name)
		}
		found := false
		for _, n := range m.Notes {
			if n.Code == NoteManagedTimeEstimated {
				found = true
				if want := "batch time estimated as " + strconv.Itoa(gpus) + " × " + name + " at the scenario's MFU"; !strings.HasPrefix(n.Text, want) {
					t.Errorf("note %q, want it to begin %q", n.Text, want)
				}
			}
		}
		if !found {
			t.Errorf("no %s note in %+v", NoteManagedTimeEstimated, m.Notes)
		}
	}
	check(8, 989, "NVIDIA H100 SXM")
	s.PriceOverrides = []scenario.PriceOverride{
		{Kind: "managed", ID: "together-8b", Field: "reference_gpu", Value: "a100-80gb", AsOf: "2026-01-01", Source: "an estimate"},
		{Kind: "managed", ID: "together-8b", Field: "reference_gpus", Value: "4", AsOf: "2026-01-01", Source: "an estimate"},
	}
	check(4, 312, "NVIDIA A100 SXM 80GB")
	s.PriceOverrides[0].Value = "b300"
	if _, err := Evaluate(s, cat(t)); err == nil || !strings.Contains(err.Error(), `managed together-8b: unknown reference_gpu "b300"`) {
		t.Errorf("error %v, want one naming the unknown reference_gpu", err)
	}
}
