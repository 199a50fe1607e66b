package catalog

import (
	"strings"
	"testing"
)

// Diff of the built-in catalog against itself is empty; against the
// catalog after a SkyPilot import and a price override it lists the
// moved price with its relative move and dates, and every offer added.
func TestDiff(t *testing.T) {
	a := def(t)
	if d := Diff(a, a); len(d) != 0 {
		t.Fatalf("a catalog differs from itself: %v", d)
	}
	imp := readSky(t, "lambda")
	o := imp.Overrides()
	o.Rows = append(o.Rows, OverrideRow{Kind: "cloud", ID: "lambda-h100", Field: "on_demand", Value: "2.99", AsOf: "2026-11-30", Source: "quote"})
	b, err := a.Apply(o)
	if err != nil {
		t.Fatal(err)
	}
	d := Diff(a, b)
	if len(d) != 1+len(imp.Offers) {
		t.Fatalf("%d changes: %v", len(d), d)
	}
	old, _ := a.CloudOffer("lambda-h100")
	c := d[0]
	if c.What != "changed" || c.ID != "lambda-h100" || c.Field != "on_demand" || c.New != "2.99" || c.NewAsOf != "2026-11-30" {
		t.Errorf("first change %+v", c)
	}
	if want := 2.99/old.OnDemand - 1; c.Rel != want {
		t.Errorf("relative move %g, want %g", c.Rel, want)
	}
	if !strings.Contains(c.String(), "cloud lambda-h100 on_demand: ") || !strings.Contains(d[1].String(), ": added (as of 2026-11-30)") {
		t.Errorf("words %q, %q", c, d[1])
	}
	// The other way round the offers went.
	back := Diff(b, a)
	if back[len(back)-1].What != "removed" {
		t.Errorf("reverse diff %v", back)
	}
}
