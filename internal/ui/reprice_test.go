package ui

import (
	"fmt"
	"strings"
	"testing"

	"hostplan/internal/catalog"
)

// An import of prices in the window offers to reprice the stored
// scenarios; repricing lists the scenario whose cost the new price moves,
// with the price named, not the one it leaves alone, and Open shows it.
func TestImportOffersRepricing(t *testing.T) {
	pl := openPlanner(t, "qlora-legal-70b", "support-assistant-70b")
	w, p := openWindow(t, NewBackend(pl))
	settle(t, p)
	if menuAction(t, w, "Tools", "Import prices…") == nil {
		t.Fatal("no Tools → Import prices…")
	}
	lambda := lambdaOffer(t)
	data := doubledLambda(t)

	p.importPrices("prices.csv", []byte(data))
	settle(t, p)
	if got := overlayLabels(w); !strings.Contains(got, "“prices.csv”: 1 row imported; 1 catalog entry now differs from the built-in catalog.") {
		t.Fatalf("after the import: %q", got)
	}
	if now, _ := pl.Catalog(); func() float64 { o, _ := now.CloudOffer("lambda-h100"); return o.OnDemand }() != 2*lambda.OnDemand {
		t.Error("the import did not change the catalog in use")
	}
	reprice := overlayButton(w, "Reprice stored scenarios")
	if reprice == nil {
		t.Fatal("the import does not offer repricing")
	}
	reprice.OnTapped()
	settle(t, p)
	got := overlayLabels(w)
	for _, want := range []string{
		"1 of the 2 stored scenarios change against the catalog before the import",
		"QLoRA fine-tuning of a 70B model on contracts · revision 1",
		"Cloud IaaS: cost over the horizon USD ",
		fmt.Sprintf("Cloud IaaS — price per GPU-hour, Lambda 8×H100 SXM (on demand): %v → %v USD/GPU-hour", lambda.OnDemand, 2*lambda.OnDemand),
	} {
		if !strings.Contains(got, want) {
			t.Errorf("the repricing lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "support-assistant") || strings.Contains(got, "Support assistant") {
		t.Errorf("the repricing lists the support assistant, whose prices did not move:\n%s", got)
	}
	open := overlayButton(w, "Open")
	if open == nil {
		t.Fatal("no Open button")
	}
	open.OnTapped()
	settle(t, p)
	if it, ok := p.scenarios.chosen(); !ok || it.ID != "qlora-legal-70b" {
		t.Errorf("Open chose %v, %v", it, ok)
	}
	if strings.Contains(overlayLabels(w), "stored scenarios change") {
		t.Error("the repricing dialog stays open after Open")
	}
}

// lambdaOffer is the built-in catalog's lambda-h100 offer.
func lambdaOffer(t testing.TB) catalog.CloudOffer {
	t.Helper()
	def, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	o, ok := def.CloudOffer("lambda-h100")
	if !ok {
		t.Fatal("no lambda-h100 in the built-in catalog")
	}
	return o
}

// doubledLambda is an overrides CSV that doubles lambda-h100's on-demand
// rate.
func doubledLambda(t testing.TB) string {
	return fmt.Sprintf("%s\ncloud,lambda-h100,on_demand,%v,2026-10-01,price list seen in October\n", catalog.OverridesHeader, 2*lambdaOffer(t).OnDemand)
}

// A refused file is shown with every problem on its line and changes
// nothing: no repricing is offered.
func TestImportPricesRefused(t *testing.T) {
	pl := openPlanner(t, "qlora-legal-70b")
	w, p := openWindow(t, NewBackend(pl))
	settle(t, p)
	p.importPrices("bad.csv", []byte(catalog.OverridesHeader+"\ncloud,lambda-h100,on_demnd,5,2026-10-01,x\n"))
	settle(t, p)
	got := overlayLabels(w)
	if !strings.Contains(got, `bad.csv: line 2: cloud lambda-h100: field "on_demnd" is not a field of cloud`) {
		t.Errorf("problems: %q", got)
	}
	if overlayButton(w, "Reprice stored scenarios") != nil {
		t.Error("a refused import offers repricing")
	}
	if o, _ := pl.Overrides(); len(o.Rows) != 0 {
		t.Errorf("a refused import stored %v", o.Rows)
	}
}
