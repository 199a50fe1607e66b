package app

import (
	"bytes"
	"io/fs"
	"strconv"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
	"hostplan/scenarios"
)

// readsScenarios are the examples and variants of them that take the
// other paths of the choices: residency in the EU, spot and committed
// prices, another currency, a named cloud offer.
func readsScenarios(t *testing.T) []*scenario.Scenario {
	t.Helper()
	out := examples(t)
	variant := func(i int, edit func(s *scenario.Scenario)) {
		b, _ := scenario.Marshal(out[i])
		s, err := scenario.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		edit(s)
		if errs := scenario.Validate(s); errs != nil {
			t.Fatalf("variant of %s: %v", s.ID, errs)
		}
		out = append(out, s)
	}
	n := len(out)
	for i := range n {
		variant(i, func(s *scenario.Scenario) { s.Data.Residency = "EU" })
	}
	variant(0, func(s *scenario.Scenario) { s.Options.Cloud.Pricing = scenario.PricingSpot })
	variant(1, func(s *scenario.Scenario) { s.Options.Cloud.Pricing = scenario.PricingCommit1Y })
	variant(2, func(s *scenario.Scenario) { s.Options.Cloud.Pricing = scenario.PricingMixed3Y })
	variant(3, func(s *scenario.Scenario) { s.Currency = "EUR" })
	variant(4, func(s *scenario.Scenario) { s.Options.Cloud.Offer = "lambda-h100" })
	// Data in a cloud: on-premises and HPC read the egress price of the
	// provider whose offer the cloud direction took.
	variant(0, func(s *scenario.Scenario) { s.Data.Location = scenario.LocationCloud })
	variant(5, func(s *scenario.Scenario) { s.Data.Location = scenario.LocationCloud })
	return out
}

// Every catalog price moved down and up, one at a time: where unaffected
// says an outcome stands, an evaluation on the moved catalog finds that
// outcome exactly. Without this promise reprice would list as unchanged
// a scenario whose choice a cheaper offer changes.
func TestPriceReadsComplete(t *testing.T) {
	base, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	scs := readsScenarios(t)
	outs := make([]*Outcome, len(scs))
	for i, s := range scs {
		if outs[i] = outcomeOn(s, base); outs[i].Problem != "" {
			t.Fatalf("%s: %s", s.ID, outs[i].Problem)
		}
	}
	factors := []float64{0.5, 1.5}
	if testing.Short() {
		factors = factors[:1] // a cheaper price is what changes a choice
	}
	var kept, moved int
	for _, r := range base.Rows("") {
		if !catalog.IsMoney(r.Kind, r.Field) {
			continue
		}
		v, err := strconv.ParseFloat(r.Value, 64)
		if err != nil {
			t.Fatalf("%s/%s/%s = %q", r.Kind, r.ID, r.Field, r.Value)
		}
		for _, f := range factors {
			x := v * f
			if v == 0 {
				x = 0.01 * f // a price where there was none
			}
			row := r
			row.Value, row.AsOf, row.Source = strconv.FormatFloat(x, 'g', -1, 64), "2026-11-30", "moved by the test"
			cat, err := base.Apply(catalog.Overrides{Rows: []catalog.OverrideRow{row}})
			if err != nil {
				t.Fatalf("%s/%s/%s to %v: %v", r.Kind, r.ID, r.Field, x, err)
			}
			changes, entries := catalogChanges(base, cat)
			valued := 0
			for _, c := range changes {
				if !c.dateOnly {
					valued++
				}
			}
			if entries || valued != 1 {
				t.Fatalf("%s/%s/%s: %d changes of value in %d (entries %v)", r.Kind, r.ID, r.Field, valued, len(changes), entries)
			}
			for i, s := range scs {
				if !unaffected(outs[i], changes, cat) {
					moved++
					continue
				}
				kept++
				if got := outcomeOn(s, cat); !bytes.Equal(encodeOutcome(got), encodeOutcome(outs[i])) {
					t.Errorf("%s with %s/%s/%s at %v (was %v): said unaffected, but the outcome changed:\n%s\nwas\n%s",
						s.ID, r.Kind, r.ID, r.Field, x, v, encodeOutcome(got), encodeOutcome(outs[i]))
				}
			}
		}
	}
	t.Logf("%d moved prices left outcomes as they were, %d may change them", kept, moved)
	if kept < moved {
		t.Errorf("only %d of %d moved prices leave an outcome: the reads are no help to reprice", kept, kept+moved)
	}
}

// examples parses the example scenarios embedded in the binary.
func examples(t *testing.T) []*scenario.Scenario {
	t.Helper()
	var out []*scenario.Scenario
	files, _ := fs.Glob(scenarios.FS, "*.json")
	for _, f := range files {
		b, err := scenarios.FS.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}
