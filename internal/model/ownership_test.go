package model

import (
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

// TestProviderHome: every provider of the default catalog is at home in
// the US (assets/catalog provider_home). Requiring an EU-owned provider
// rules out the cloud, the managed service and a burst to the cloud,
// whatever the region; an offer of a provider at home in France (a copy
// of the Google europe-west4 offer standing in for a French provider)
// then wins the choice, with no caveat. Without the requirement, EU
// residency met by Google's EU region carries the foreign_owned_provider
// caveat.
func TestProviderHome(t *testing.T) {
	t.Run("EU-owned required", func(t *testing.T) {
		s := base()
		s.Data.Residency = "EU"
		s.Options.Cloud = scenario.CloudOptions{GPUs: 8, PricePerGPUHr: scenario.Known(2)}
		s.Options.Hybrid.BurstTo = scenario.Cloud
		s.Dimensions.Sovereignty.ProviderHome = []string{"EU"}
		r := eval(t, s)
		ft := base()
		ft.Workload.Shape, ft.Workload.Method = scenario.ShapeFineTuning, "lora"
		ft.Dimensions.Sovereignty.ProviderHome = []string{"FR", "DE"}
		if m := eval(t, ft).Direction(scenario.Managed); !hasReason(m.Reasons, ReasonProviderHomeExcluded, "at home in FR, DE") {
			t.Errorf("managed fine-tuning: no %s reason: %+v", ReasonProviderHomeExcluded, m.Reasons)
		}
		for _, dir := range []string{scenario.Cloud, scenario.Hybrid} {
			if !hasReason(r.Direction(dir).Reasons, ReasonProviderHomeExcluded, "") {
				t.Errorf("%s: no %s reason: %+v", dir, ReasonProviderHomeExcluded, r.Direction(dir).Reasons)
			}
		}
		if hasReason(r.Direction(scenario.OnPrem).Reasons, ReasonProviderHomeExcluded, "") {
			t.Errorf("on-premises ruled out by a provider's home")
		}

		c := cat(t)
		fr, _ := c.CloudOffer("gcp-a3-h100-eu")
		fr.ID, fr.Name, fr.Provider, fr.ProviderHome = "fr-h100", "French H100", "fr", "FR"
		c.Cloud = append(c.Cloud, fr)
		r, err := Evaluate(s, c)
		if err != nil {
			t.Fatal(err)
		}
		d := r.Direction(scenario.Cloud)
		if d.Offer != "fr-h100" || hasReason(d.Reasons, ReasonProviderHomeExcluded, "") || hasReason(d.Reasons, ReasonOutsideResidency, "") {
			t.Errorf("cloud offer %s, reasons %+v; want fr-h100 and neither sovereignty reason", d.Offer, d.Reasons)
		}
		if hasNote(d.Notes, NoteForeignOwned, "") {
			t.Errorf("a French provider in the EU got the foreign-owned caveat")
		}
	})
	t.Run("US provider's EU region", func(t *testing.T) {
		s := base()
		s.Data.Residency = "EU"
		s.Options.Cloud.Offer = "gcp-a3-h100-eu"
		d := eval(t, s).Direction(scenario.Cloud)
		if hasReason(d.Reasons, ReasonOutsideResidency, "") || hasReason(d.Reasons, ReasonProviderHomeExcluded, "") {
			t.Errorf("reasons %+v; the EU region meets EU residency", d.Reasons)
		}
		if !hasNote(d.Notes, NoteForeignOwned, "") {
			t.Errorf("no %s caveat: %+v", NoteForeignOwned, d.Notes)
		}
	})
	t.Run("within", func(t *testing.T) {
		for _, c := range []struct {
			place, region string
			want          bool
		}{{"FR", "EU", true}, {"US", "EU", false}, {"EU", "EU", true}, {"DE", "DE", true}, {"NL", "FR", false}, {"", "EU", false}} {
			if got := within(c.place, c.region); got != c.want {
				t.Errorf("within(%q, %q) = %v, want %v", c.place, c.region, got, c.want)
			}
		}
	})
}

// Residency is a region: data that must stay in the EU may be processed
// in an offer whose jurisdiction is a member state (France), not in one
// outside it (Switzerland, the United States); a residency of a country
// takes that country only.
func TestResidencyRegionTakesItsMembers(t *testing.T) {
	for _, c := range []struct {
		residency, jurisdiction string
		ok                      bool
	}{
		{"EU", "FR", true}, {"EU", "EU", true}, {"EU", "DE", true}, {"EU", "CH", false}, {"EU", "US", false},
		{"FR", "FR", true}, {"FR", "EU", false}, {"FR", "DE", false}, {"any", "US", true}, {"US", "US", true},
	} {
		s := base()
		s.Data.Residency = c.residency
		e := &evaluator{s: s}
		if got := e.residencyOK(c.jurisdiction); got != c.ok {
			t.Errorf("residency %s, jurisdiction %s: %v, want %v", c.residency, c.jurisdiction, got, c.ok)
		}
	}
}

// With the offer left to the model, the report names the two next
// cheapest offers for the work, with their prices and cost relative to
// the chosen one (at least 1), in order, and a note says so; a named offer
// has none.
func TestRunnersUp(t *testing.T) {
	s := base()
	s.Options.Cloud = scenario.CloudOptions{}
	c := eval(t, s).Direction(scenario.Cloud)
	if len(c.RunnersUp) != 2 {
		t.Fatalf("runners-up %+v", c.RunnersUp)
	}
	prev := 1.0
	for _, x := range c.RunnersUp {
		if x.Offer == c.Offer || x.RelativeCost < prev || x.PricePerGPUHour <= 0 {
			t.Errorf("runner-up %+v after %g (chosen %s)", x, prev, c.Offer)
		}
		prev = x.RelativeCost
	}
	found := false
	for _, n := range c.Notes {
		found = found || n.Code == NoteOfferChoice && strings.Contains(n.Text, c.RunnersUp[0].OfferName)
	}
	if !found {
		t.Errorf("no offer_choice note naming %s in %+v", c.RunnersUp[0].OfferName, c.Notes)
	}
	if named := eval(t, base()).Direction(scenario.Cloud); named.RunnersUp != nil {
		t.Errorf("a named offer has runners-up %+v", named.RunnersUp)
	}
}
