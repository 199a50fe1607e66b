package present

import (
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

func TestInputs(t *testing.T) {
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		t.Fatal(err)
	}
	s.Workload.Traffic = nil // absent: still listed, not given
	byPath := map[string]Input{}
	var order []string
	for _, in := range Inputs(s) {
		if in.Field.Label == in.Path {
			t.Errorf("%s has no wording", in.Path)
		}
		byPath[in.Path] = in
		order = append(order, in.Path)
	}
	// File order: the scenario's own fields, then purpose … options.
	if order[0] != "schema_version" || !strings.HasPrefix(order[len(order)-1], "exchange_rates") {
		t.Errorf("inputs run from %s to %s", order[0], order[len(order)-1])
	}
	for _, tc := range []struct {
		path, title, text string
		given             bool
	}{
		{"data.movement", "Data movement", "Only an approved, minimised snapshot may leave", true},
		{"workload.shape", "Workload shape", "Training or simulation", true},
		{"workload.traffic.peak_rps", "Peak request rate (requests/s)", "—", false},
		{"data.personal_data", "Personal data", "Yes", true},
		{"data.lifecycle[1].owner", "Lifecycle stage owner (2)", byPath["data.lifecycle[1].owner"].Value.(string), true},
		{"data.return_outputs", "Outputs returned", "checkpoints, evaluation results", true},
		{"price_overrides", "Price overrides for this scenario", "—", false},
		{"exchange_rates", "Exchange rates for this scenario", "—", false},
		{"dimensions.economics.horizon_months", "Horizon (months)", "24", true},
	} {
		in, ok := byPath[tc.path]
		if !ok {
			t.Errorf("no input %s", tc.path)
			continue
		}
		if got := in.Title("EUR"); got != tc.title {
			t.Errorf("%s: title %q, want %q", tc.path, got, tc.title)
		}
		if got := in.Text(); got != tc.text {
			t.Errorf("%s: text %q, want %q", tc.path, got, tc.text)
		}
		if in.Given() != tc.given {
			t.Errorf("%s: given %v, want %v", tc.path, in.Given(), tc.given)
		}
	}
	// A flag the file may leave out is given when true; one it always
	// states is given either way.
	for path, given := range map[string]bool{"options.managed.disabled": false, "data.provider_may_process": true} {
		if in := byPath[path]; in.Value != false || in.Given() != given {
			t.Errorf("%s = %v: given %v, want %v", path, in.Value, in.Given(), given)
		}
	}
	if in := byPath["data.lifecycle[1].owner"]; in.Label() != "Lifecycle stage owner (2)" || in.Index != 2 {
		t.Errorf("lifecycle owner: label %q, index %d", in.Label(), in.Index)
	}
}
