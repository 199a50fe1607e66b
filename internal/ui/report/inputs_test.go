package report

import (
	"slices"
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

// The Inputs tab shows every setting a scenario gives, with the labels,
// units and choice names of package present: recomputation, sharding,
// financing, price overrides.
func TestInputsShowEverySetting(t *testing.T) {
	s, err := scenario.Load("../../../scenarios/qlora-legal-70b.json")
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
		"Full activation recomputation: Yes",
		"Model-state sharding: ZeRO stage 2",
		"Sequence length (tokens): 4,096",
		"Fine-tuning method: QLoRA",
		"On-premises: financing: Purchase at the start",
		"Override: catalog kind (1): cloud",
		"Override: entry (1): lambda-h100",
		"Override: field (1): on_demand",
		"Override: value (1): 3.5",
		"Override: as of (1): 2026-10-01",
		"Override: source (1): quote",
		"Tokens per run (billions): 0.6 (0.3–0.9, estimate)",
		"Outputs returned: checkpoints, evaluation results, model weights",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("inputs lack %q:\n%s", want, text)
		}
	}
	// What the scenario leaves out is not listed: no empty rows, and no
	// "excluded: No" for every direction.
	for _, absent := range []string{"Managed: excluded:", "Trial GPU:", "Peak request rate"} {
		if strings.Contains(text, absent) {
			t.Errorf("inputs list %q, which the scenario does not give", absent)
		}
	}
	var titles []string
	for _, g := range inputGroups(s) {
		titles = append(titles, g.title)
	}
	if want := []string{"Scenario", "Purpose", "Workload", "Data", "Decision dimensions", "Direction options"}; !slices.Equal(titles, want) {
		t.Errorf("groups %q, want %q", titles, want)
	}
}
