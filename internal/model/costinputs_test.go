package model

import (
	"encoding/json"
	"math"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// costScenarios are the examples and variants of them that take every
// cost model: each pricing mode, financing and burst target.
func costScenarios(t *testing.T) []*scenario.Scenario {
	files, _ := filepath.Glob("../../scenarios/*.json")
	var out []*scenario.Scenario
	for _, f := range files {
		s, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	variant := func(id string, change func(s *scenario.Scenario)) {
		s, err := scenario.Load("../../scenarios/" + id + ".json")
		if err != nil {
			t.Fatal(err)
		}
		change(s)
		out = append(out, s)
	}
	variant("nightly-document-batch", func(s *scenario.Scenario) {
		s.Options.Cloud.Pricing = "commit_1y"
		s.Options.OnPrem.Financing = "purchase"
	})
	variant("nightly-document-batch", func(s *scenario.Scenario) {
		s.Options.Cloud.Pricing = "spot"
		s.Options.OnPrem.Financing = "lease"
		s.Options.OnPrem.LeasePerNodeMonth = scenario.Estimate(9000, 11000, 14000)
		s.Options.OnPrem.ExpectedUtilisation = scenario.Estimate(0.3, 0.5, 0.8)
	})
	variant("constrained-snapshot-training", func(s *scenario.Scenario) {
		s.Options.OnPrem.Existing = true
		s.Options.Hybrid.BurstTo = scenario.HPC
		s.Data.FileCount = scenario.Known(20000)
		s.Data.StorageGBps = scenario.Known(0.8)
	})
	variant("foundation-7b-pretraining", func(s *scenario.Scenario) {
		s.Options.Hybrid.BurstTo = scenario.Cloud
		s.Options.Cloud.Pricing = "commit_3y"
	})
	// Mixed pricing: replicas that follow the load over the day, a
	// commitment for the base; batch runs bursting from hybrid.
	variant("support-assistant-70b", func(s *scenario.Scenario) {
		s.Options.Cloud.Pricing = "mixed_3y"
		s.Workload.Traffic.PeakHoursPerDay = scenario.Estimate(3, 4, 5)
	})
	variant("nightly-document-batch", func(s *scenario.Scenario) {
		s.Options.Cloud.Pricing = "mixed_1y"
		s.Options.Hybrid.BurstTo = scenario.Cloud
	})
	// The managed service per token, which the assumed day makes dearer
	// than a dedicated deployment for the support example.
	variant("support-assistant-70b", func(s *scenario.Scenario) {
		s.Options.Managed.Pricing = "per_token"
	})
	return out
}

// catalogValue is the number at kind/id/field of the catalog.
func catalogValue(t *testing.T, c *catalog.Catalog, key string) float64 {
	parts := strings.Split(key, "/")
	it, ok := c.Item(catalog.Kind(parts[0]), parts[1])
	if !ok {
		t.Fatalf("%s: no such catalog entry", key)
	}
	v := reflect.ValueOf(it.Value)
	for _, f := range reflect.VisibleFields(v.Type()) {
		if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == parts[2] {
			return v.FieldByIndex(f.Index).Convert(reflect.TypeFor[float64]()).Float()
		}
	}
	t.Fatalf("%s: no such field", key)
	return 0
}

// TestCostInputsComplete: every input a direction's cost model reads is
// recorded once, with the value the engine used; one name has one value
// across the directions; a value from the scenario is the field's, one
// from the catalog is the entry's.
// rateFrom is the rate r converted prices in currency from with.
func rateFrom(t *testing.T, r *Report, from string) float64 {
	t.Helper()
	for _, x := range r.ExchangeRates {
		if x.From == from && x.To == r.Currency {
			return x.Rate
		}
	}
	t.Fatalf("%s: no exchange rate from %s among %+v", r.ScenarioID, from, r.ExchangeRates)
	return 0
}

func TestCostInputsComplete(t *testing.T) {
	c := cat(t)
	models := map[costid.CostModel]bool{}
	for _, s := range costScenarios(t) {
		r := eval(t, s)
		names := map[string]float64{}
		for _, d := range r.Directions {
			models[d.CostModel] = true
			if d.CostModel == costid.NoCostModel {
				continue
			}
			seen := map[costid.Driver]bool{}
			for _, in := range d.CostInputs {
				if seen[in.Driver] {
					t.Errorf("%s %s: %v recorded twice", s.ID, d.Direction, in.Driver)
				}
				seen[in.Driver] = true
				if in.Value != d.Drivers[in.Driver] {
					t.Errorf("%s %s: %s = %v, the engine used %v", s.ID, d.Direction, in.Name, in.Value, d.Drivers[in.Driver])
				}
				if x, ok := names[in.Name]; ok && x != in.Value {
					t.Errorf("%s: %s is %v in %s and %v elsewhere", s.ID, in.Name, in.Value, d.Direction, x)
				}
				names[in.Name] = in.Value
				if in.Catalog != "" {
					x := catalogValue(t, c, in.Catalog)
					if in.FromCurrency != "" {
						// A price converted into the scenario's currency
						// at the rate the report names.
						x *= rateFrom(t, r, in.FromCurrency)
					}
					if x != in.Value {
						t.Errorf("%s %s: %s from %s = %v, the catalog has %v", s.ID, d.Direction, in.Name, in.Catalog, in.Value, x)
					}
					if in.AsOf == "" || in.Source == "" {
						t.Errorf("%s %s: %s from %s has no date or source", s.ID, d.Direction, in.Name, in.Catalog)
					}
				}
				if in.Estimate && !(in.Low <= in.Value && in.Value <= in.High && in.Low < in.High) {
					t.Errorf("%s %s: %s estimate %v–%v–%v", s.ID, d.Direction, in.Name, in.Low, in.Value, in.High)
				}
			}
			for _, need := range d.CostModel.Inputs() {
				if need != costid.Month && !seen[need] {
					t.Errorf("%s %s (%v): input %v is not recorded", s.ID, d.Direction, d.CostModel, need)
				}
			}
		}
	}
	for _, m := range costid.CostModels() {
		if m != costid.NoCostModel && m != costid.HybridCloudServingCosts && !models[m] {
			t.Errorf("no scenario takes the cost model %v", m)
		}
	}
}

// setField sets the scenario field at path to the number x, through the
// scenario's JSON.
func setField(t *testing.T, s *scenario.Scenario, path string, x float64) *scenario.Scenario {
	b, err := scenario.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	keys := strings.Split(path, ".")
	at := m
	for _, k := range keys[:len(keys)-1] {
		next, ok := at[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			at[k] = next
		}
		at = next
	}
	at[keys[len(keys)-1]] = x
	b, err = json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	out, err := scenario.Parse(b)
	if err != nil {
		t.Fatalf("%s = %v: %v", path, x, err)
	}
	return out
}

// pinOffers sets the offers r chose in s, so that a catalog price changed
// later does not change the choice.
func pinOffers(s *scenario.Scenario, r *Report) {
	if d := r.Direction(scenario.Managed); d != nil && d.Offer != "" {
		s.Options.Managed.Offer = d.Offer
		switch d.CostModel {
		case costid.ManagedInteractiveCosts:
			s.Options.Managed.Pricing = "per_token"
		case costid.ManagedDedicatedCosts:
			s.Options.Managed.Pricing = "dedicated"
		}
	}
	if d := r.Direction(scenario.Cloud); d != nil && d.Offer != "" {
		s.Options.Cloud.Offer = d.Offer
	}
	if d := r.Direction(scenario.OnPrem); d != nil && d.Offer != "" {
		s.Options.OnPrem.Node = d.Offer
	}
	if d := r.Direction(scenario.HPC); d != nil && d.Offer != "" {
		s.Options.HPC.Partition = d.Offer
	}
}

// TestCostInputsDriveTheEngine is the workbook's promise in the engine's
// terms: changing one given input — through its scenario field or as a
// catalog price override — changes every direction's costs exactly as
// deriving them again with every input of that name changed does. So the
// names link the directions as the engine does (hybrid reads the cloud's
// price, on-premises the cloud's cost per run), and no input moves
// anything outside the identity.
func TestCostInputsDriveTheEngine(t *testing.T) {
	for _, s := range costScenarios(t) {
		r0 := eval(t, s)
		pinOffers(s, r0)
		r := eval(t, s)
		for i, d := range r.Directions {
			if d.CostHorizon != r0.Directions[i].CostHorizon {
				t.Fatalf("%s %s: pinning the offers changed the cost", s.ID, d.Direction)
			}
		}
		done := map[string]bool{}
		for _, d := range r.Directions {
			for _, in := range d.CostInputs {
				if done[in.Name] || in.Kind == InputPlan || in.Kind == InputFigure || in.Field == "" && in.Catalog == "" {
					continue
				}
				done[in.Name] = true
				x := in.Value*1.25 + 0.5
				if in.Driver == costid.HorizonMonths {
					x = in.Value + 5
				}
				if in.Driver == costid.ExpectedUtilisation || in.Driver == costid.IdlePowerFraction || in.Driver == costid.MaintenancePerYear {
					x = in.Value*0.5 + 0.2
				}
				var changed *scenario.Scenario
				switch {
				case in.Field != "" && (in.Catalog == "" || strings.HasPrefix(in.Field, "options.")):
					changed = setField(t, s, in.Field, x)
				default:
					changed = scenario.Clone(s)
					parts := strings.Split(in.Catalog, "/")
					changed.PriceOverrides = append(changed.PriceOverrides, scenario.PriceOverride{Kind: parts[0], ID: parts[1], Field: parts[2],
						Value: strconv.FormatFloat(x, 'g', -1, 64), AsOf: "2026-01-01", Source: "test"})
				}
				got := eval(t, changed)
				for j, want := range r.Directions {
					rederive(&want, in.Name, x, r)
					g := got.Directions[j]
					for _, f := range []struct {
						what      string
						got, want float64
					}{
						{"variable cost per run", g.VariableCostPerRun, want.VariableCostPerRun},
						{"monthly fixed cost", g.MonthlyFixedCost, want.MonthlyFixedCost},
						{"one-off cost", g.OneOffCost, want.OneOffCost},
						{"cost over the horizon", g.CostHorizon, want.CostHorizon},
					} {
						if !near(f.got, f.want, 1e-12) && math.Abs(f.got-f.want) > 1e-9 {
							t.Errorf("%s: %s %v → %v: %s %s = %.10g, derived again %.10g", s.ID, in.Name, in.Value, x, want.Direction, f.what, f.got, f.want)
						}
					}
				}
			}
		}
	}
}

// rederive sets d's costs derived again from its drivers with every input
// named name at x, and the figures of other directions it reads (the
// cloud's cost per run) derived again in r likewise.
func rederive(d *DirectionResult, name string, x float64, r *Report) {
	if d.CostModel == costid.NoCostModel {
		return
	}
	v := *d.Drivers
	d.Drivers = &v
	for _, in := range d.CostInputs {
		if in.Name == name || in.Follows == name {
			v[in.Driver] = x
		}
	}
	runs, months := v[costid.RunsPerMonth], int(v[costid.HorizonMonths])
	if name == "horizon_months" {
		months = int(x)
	}
	if name == "runs_per_month" {
		runs = x
	}
	if d.Direction == scenario.OnPrem && d.CostModel != costid.OnPremExistingCosts {
		cl := *r.Direction(scenario.Cloud)
		rederive(&cl, name, x, r)
		v[costid.RentalCostPerRun] = cl.Drivers[costid.RentalCostPerRun]
	}
	d.DeriveCosts(runs, months, false)
}

// In a scenario whose currency is not the catalog's, the site's staff cost
// says the currency it was converted from, as every other converted
// catalog price does (the workbook writes it as a formula of the rate).
func TestStaffCostSaysItsCurrency(t *testing.T) {
	s, err := scenario.Load("../../scenarios/qlora-legal-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	s.Currency = "EUR"
	r := eval(t, s)
	found := false
	for _, d := range r.Directions {
		for _, in := range d.CostInputs {
			if in.Driver != costid.StaffCostPerFTE || in.Catalog == "" {
				continue
			}
			found = true
			if in.FromCurrency != "USD" {
				t.Errorf("%s: the catalog's staff cost converted from %q, want USD", d.Direction, in.FromCurrency)
			}
		}
	}
	if !found {
		t.Error("no direction takes the staff cost from the catalog")
	}
}
