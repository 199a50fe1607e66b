package ui

import (
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

// The Inputs tab shows the performance and cost settings a scenario gives,
// not only the basic groups: recomputation, sharding, financing, price
// overrides.
func TestInputsShowEverySetting(t *testing.T) {
	s, err := scenario.Load("../../scenarios/qlora-legal-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	s.Workload.Sharding = "zero2"
	s.Options.OnPrem.Financing = "purchase"
	s.PriceOverrides = []scenario.PriceOverride{{Kind: "cloud", ID: "lambda-h100", Field: "on_demand", Value: "3.5", AsOf: "2026-10-01", Source: "quote"}}
	var all []string
	for _, g := range inputGroups(s) {
		for _, r := range g.rows {
			all = append(all, r.label+": "+r.value)
		}
	}
	text := strings.Join(all, "\n")
	for _, want := range []string{
		"Activation recomputation: full (8·P·D)",
		"Model-state sharding: zero2",
		"Sequence length (tokens): 4,096",
		"financing purchase",
		"Price override: cloud lambda-h100: on_demand = 3.5 (as of 2026-10-01; quote)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("inputs lack %q:\n%s", want, text)
		}
	}
}
