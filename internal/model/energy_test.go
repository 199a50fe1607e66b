package model

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

// A year of owned hardware's energy, by hand: one DGX H100 class node
// (7.5 kW typical, 30 % of it drawn idle), PUE 1.5, the run of
// TestCloudRunByHand (33.7041 GPU-hours) once a month, on the US grid
// (366 g CO2e/kWh: EIA, 1,532 Mt CO2 over 4,183 TWh in 2023).
//
//	kW per GPU above idle  7.5 × 70 % ÷ 8             = 0.65625
//	idle                   7.5 × 30 % × 1 node         = 2.25 kW
//	a month                33.7041 × 0.65625 × 1.5 + 2.25 × 1.5 × 730
//	                     = 33.1774 + 2,463.75          = 2,496.927 kWh
//	per run (1 a month)                                = 2,496.927 kWh → 913.88 kg CO2e
//	12 months                                          = 29,963.1 kWh → 10,966.5 kg CO2e
func TestEnergyOnPremByHand(t *testing.T) {
	op := eval(t, onPremBase()).Direction(scenario.OnPrem)
	e := op.Energy
	if e == nil {
		t.Fatalf("on-premises feasible %v, no energy", op.Feasible)
	}
	month := 33.704078*0.65625*1.5 + 2.25*1.5*730
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"kW per GPU", e.KWPerGPU, 0.65625}, {"idle kW", e.IdleKW, 2.25}, {"PUE", e.PUE, 1.5},
		{"grid", e.GridGCO2ePerKWh, 366},
		{"kWh per run", e.KWhPerRun, month}, {"kWh over 12 months", e.KWhHorizon, 12 * month},
		{"kg per run", e.KgCO2ePerRun, month * 0.366}, {"kg over 12 months", e.KgCO2eHorizon, 12 * month * 0.366},
	} {
		if !near(c.got, c.want, 1e-5) {
			t.Errorf("%s = %.6g, want %.6g", c.what, c.got, c.want)
		}
	}
	if e.Grid != "us" || e.PUESource != "options.on_prem.pue" || !e.Estimate {
		t.Errorf("grid %q, PUE from %q, estimate %v (%v): want the US grid, the option's PUE, the idle draw an estimate", e.Grid, e.PUESource, e.Estimate, e.Estimates)
	}
}

// The same run on AWS p5 in us-east-1, by hand: 0.9375 kW per H100 (the
// DGX H100's 7.5 kW over 8 GPUs), AWS's published PUE 1.14 (2025), the
// Northern Virginia grid at 343.48 g CO2e/kWh (Google region carbon data
// for us-east4, 2025).
//
//	33.7041 × 0.9375 × 1.14 = 36.0212 kWh a run → 12.3726 kg CO2e
func TestEnergyCloudByHand(t *testing.T) {
	cl := eval(t, base()).Direction(scenario.Cloud)
	e := cl.Energy
	if e == nil {
		t.Fatalf("cloud feasible %v, no energy", cl.Feasible)
	}
	kwh := 33.704078 * 0.9375 * 1.14
	if !near(e.KWhPerRun, kwh, 1e-5) || !near(e.KWhHorizon, 12*kwh, 1e-5) ||
		!near(e.KgCO2ePerRun, kwh*0.34348, 1e-5) || !near(e.KgCO2eHorizon, 12*kwh*0.34348, 1e-5) {
		t.Errorf("cloud: %.6g kWh, %.6g kg a run; %.6g kWh, %.6g kg a year; want %.6g, %.6g", e.KWhPerRun, e.KgCO2ePerRun, e.KWhHorizon, e.KgCO2eHorizon, kwh, kwh*0.34348)
	}
	if e.PUE != 1.14 || e.Grid != "us-virginia" || e.GridAsOf != "2025-12-31" || e.GridYear != 2025 || e.IdleKW != 0 || e.Estimate {
		t.Errorf("cloud: PUE %v, grid %q as of %s (%d), idle %v, estimates %v", e.PUE, e.Grid, e.GridAsOf, e.GridYear, e.IdleKW, e.Estimates)
	}
}

// The scenario's intensity replaces the catalog's: one value for every
// direction, a direction's own winning over it.
func TestEnergyGridOverride(t *testing.T) {
	s := onPremBase()
	s.Options.Energy.GridGCO2ePerKWh = scenario.Known(100)
	r := eval(t, s)
	for _, d := range []string{scenario.Cloud, scenario.OnPrem} {
		e := r.Direction(d).Energy
		if e == nil || e.GridGCO2ePerKWh != 100 || e.Grid != "scenario" || !near(e.KgCO2eHorizon, e.KWhHorizon*0.1, 1e-12) {
			t.Errorf("%s with 100 g/kWh for all: %+v", d, e)
		}
	}
	s.Options.Energy.CloudGridGCO2ePerKWh = scenario.Known(0)
	r = eval(t, s)
	if e := r.Direction(scenario.Cloud).Energy; e.GridGCO2ePerKWh != 0 || e.KgCO2eHorizon != 0 || e.KWhHorizon <= 0 ||
		e.GridSource != "options.energy.cloud_grid_g_co2e_per_kwh" {
		t.Errorf("cloud with its own 0 g/kWh: %+v", e)
	}
	if e := r.Direction(scenario.OnPrem).Energy; e.GridGCO2ePerKWh != 100 {
		t.Errorf("on-premises keeps the value for all: %v", e.GridGCO2ePerKWh)
	}
	s.Options.Energy.CloudGridGCO2ePerKWh = scenario.Known(2500)
	if _, err := Evaluate(s, cat(t)); err == nil || !strings.Contains(err.Error(), "options.energy.cloud_grid_g_co2e_per_kwh") {
		t.Errorf("2,500 g/kWh: %v, want a problem naming the field", err)
	}
}

// A direction that is ruled out has no energy figures, and the JSON has
// no NaN or Inf: absent, never a number that is not one.
func TestEnergyAbsentWhenRuledOut(t *testing.T) {
	s := onPremBase()
	s.Options.OnPrem.RackKW = scenario.Known(8) // the node draws up to 10.2 kW
	s.Options.HPC.Disabled = true
	r := eval(t, s)
	for _, d := range []string{scenario.OnPrem, scenario.HPC} {
		if x := r.Direction(d); x.Feasible || x.Energy != nil {
			t.Errorf("%s: feasible %v, energy %+v", d, x.Feasible, x.Energy)
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"energy":null`) {
		t.Error("a ruled-out direction writes energy: null")
	}
	for _, d := range r.Directions {
		if e := d.Energy; e != nil {
			for _, x := range []float64{e.KWhPerRun, e.KWhHorizon, e.KgCO2ePerRun, e.KgCO2eHorizon} {
				if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
					t.Errorf("%s: energy figure %v", d.Direction, x)
				}
			}
		}
	}
}

// A managed service publishes no hardware: its energy is the GPU-hours of
// the offer's reference GPUs, labelled an estimate.
func TestEnergyManagedIsEstimate(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeBatch, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
		TokensPerRunB: scenario.Known(0.5), RunsPerMonth: scenario.Known(10)}
	s.Data.ReturnOutputs = []string{"predictions"}
	m := eval(t, s).Direction(scenario.Managed)
	if !m.Feasible {
		t.Fatalf("managed ruled out: %v", m.Reasons)
	}
	e := m.Energy
	if e == nil || !e.Estimate || e.GPUHoursPerRun <= 0 || e.KWhPerRun <= 0 || !strings.Contains(strings.Join(e.Estimates, ";"), "reference hardware") {
		t.Errorf("managed batch energy %+v", e)
	}
}

// The grid table holds the published figures it cites.
func TestGridFiguresPublished(t *testing.T) {
	c := cat(t)
	for _, w := range []struct {
		place string
		want  float64
	}{
		{"us-east-1", 343.48},    // Google region carbon data 2025, us-east4 Northern Virginia
		{"europe-west4", 194.35}, // same, Eemshaven
		{"us-central1", 431.95},  // same, Iowa
		{"US", 366},              // EIA FAQ 74: 1,532 Mt CO2 ÷ 4,183,271 GWh, 2023
		{"nowhere", 436},         // Ember Global Electricity Review 2023: world 2022
	} {
		if g, _, ok := c.GridFor(w.place); !ok || g.GCO2ePerKWh != w.want {
			t.Errorf("grid for %s = %v, want %v", w.place, g.GCO2ePerKWh, w.want)
		}
	}
	if p, ok := c.PUEOf("aws"); !ok || p.PUE != 1.14 { // AWS 2025 global PUE
		t.Errorf("aws PUE %v", p.PUE)
	}
}
