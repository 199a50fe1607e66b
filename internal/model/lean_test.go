package model

import (
	"encoding/json"
	"reflect"
	"testing"

	"hostplan/internal/scenario"
)

// TestLeanReportIsTheFullOnesNumbers: EvaluateLean leaves out the notes,
// the cost lines and the sources, and nothing else — every other field of
// the report, the cost inputs and the prices read are the full report's,
// for the examples and variants that take other paths (data in a cloud,
// another currency, spot, a commitment).
func TestLeanReportIsTheFullOnesNumbers(t *testing.T) {
	var all []*scenario.Scenario
	for _, f := range examples(t) {
		s, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, s)
	}
	n := len(all)
	for i, edit := range []func(s *scenario.Scenario){
		func(s *scenario.Scenario) { s.Data.Location = scenario.LocationCloud },
		func(s *scenario.Scenario) { s.Currency = "EUR" },
		func(s *scenario.Scenario) { s.Options.Cloud.Pricing = scenario.PricingSpot },
		func(s *scenario.Scenario) { s.Options.Cloud.Pricing = scenario.PricingMixed3Y },
	} {
		b, _ := scenario.Marshal(all[i%n])
		s, _ := scenario.Parse(b)
		edit(s)
		all = append(all, s)
	}
	c := cat(t)
	words := []string{"notes", "breakdown", "sources"}
	for _, s := range all {
		full, err := EvaluateValid(s, c)
		if err != nil {
			t.Fatalf("%s: %v", s.ID, err)
		}
		lean, err := EvaluateLean(s, c)
		if err != nil {
			t.Fatalf("%s lean: %v", s.ID, err)
		}
		if len(full.Directions) != len(lean.Directions) {
			t.Fatalf("%s: %d directions lean, %d full", s.ID, len(lean.Directions), len(full.Directions))
		}
		fullWords := 0
		for i := range full.Directions {
			f, l := &full.Directions[i], &lean.Directions[i]
			if len(l.Notes)+len(l.Breakdown)+len(l.Sources) != 0 {
				t.Errorf("%s %s: the lean report has words", s.ID, f.Direction)
			}
			fullWords += len(f.Notes) + len(f.Breakdown) + len(f.Sources)
			if !reflect.DeepEqual(f.CostInputs, l.CostInputs) {
				t.Errorf("%s %s: cost inputs differ", s.ID, f.Direction)
			}
		}
		if fullWords == 0 {
			t.Errorf("%s: the full report has no words to leave out", s.ID)
		}
		if !reflect.DeepEqual(full.PriceReads, lean.PriceReads) {
			t.Errorf("%s: the prices read differ", s.ID)
		}
		strip := func(r *Report) map[string]any {
			b, err := json.Marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if err := json.Unmarshal(b, &m); err != nil {
				t.Fatal(err)
			}
			for _, d := range m["directions"].([]any) {
				for _, w := range words {
					delete(d.(map[string]any), w)
				}
			}
			return m
		}
		if a, b := strip(full), strip(lean); !reflect.DeepEqual(a, b) {
			for k := range a {
				if !reflect.DeepEqual(a[k], b[k]) {
					t.Errorf("%s: %q differs lean", s.ID, k)
				}
			}
		}
	}
}
