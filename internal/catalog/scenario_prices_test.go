package catalog

import (
	"testing"

	"hostplan/internal/scenario"
)

// A scenario's prices apply through the one conversion: the kinds keep
// accepts, each bad row a problem of its own price_overrides[i], all at
// once, with the catalog unchanged.
func TestApplyScenario(t *testing.T) {
	def := mustDefault(t)
	prices := []scenario.PriceOverride{
		{Kind: "cloud", ID: "aws-p5-h100", Field: "on_demand", Value: "5.10", AsOf: "2026-10-01", Source: "AWS pricing page"},
		{Kind: "rate", ID: "EUR", Field: "per_usd", Value: "0.9", AsOf: "2026-10-01", Source: "ECB"},
	}
	eff, errs := def.ApplyScenario(prices, func(kind string) bool { return kind == "cloud" })
	if errs != nil {
		t.Fatal(errs)
	}
	if o, _ := eff.CloudOffer("aws-p5-h100"); o.OnDemand != 5.10 || !o.Overridden {
		t.Errorf("aws-p5-h100 after the cloud row: %+v", o)
	}
	if same, errs := def.ApplyScenario(prices, func(string) bool { return false }); same != def || errs != nil {
		t.Errorf("no row kept: got a new catalog or %v", errs)
	}

	bad := []scenario.PriceOverride{
		prices[0],
		{Kind: "cloud", ID: "no-such-offer", Field: "on_demand", Value: "1", AsOf: "2026-10-01", Source: "x"},
		{Kind: "gpu", ID: "h100-sxm", Field: "no_such_field", Value: "1", AsOf: "2026-10-01", Source: "x"},
	}
	got, errs := def.ApplyScenario(bad, nil)
	if got != def {
		t.Error("with bad rows the catalog came back changed")
	}
	paths := map[string]bool{}
	for _, e := range errs {
		paths[e.Path] = true
	}
	if len(paths) != 2 || !paths["price_overrides[1]"] || !paths["price_overrides[2]"] {
		t.Errorf("problems %v, want problems of price_overrides[1] and [2] only", errs)
	}
}
