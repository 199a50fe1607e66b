package catalog

import (
	"os"
	"strings"
	"testing"
)

func readSky(t *testing.T, cloud string) *SkyPilotImport {
	t.Helper()
	f, err := os.Open("testdata/skypilot/" + cloud + "/vms.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	imp, err := ReadSkyPilot(f, def(t), SkyPilotOptions{Cloud: cloud, File: cloud + "/vms.csv", AsOf: "2026-11-30", Source: "SkyPilot catalog " + cloud + "/vms.csv"})
	if err != nil {
		t.Fatal(err)
	}
	return imp
}

func offerByID(imp *SkyPilotImport, id string) (CloudOffer, bool) {
	for _, o := range imp.Offers {
		if o.ID == id {
			return o, true
		}
	}
	return CloudOffer{}, false
}

// A SkyPilot vms.csv of AWS, in its own format (a row per availability
// zone): each GPU instance type and region is one offer priced per
// GPU-hour — the row's price ÷ its GPUs, spot the lowest of the region's
// zones — with the catalog GPU, the instance size, the provider's home
// and the region's country; CPU rows, accelerators the catalog lacks
// (V100 16 GB, A10G), a spot price that is not a number and a row without
// a price are listed with their reasons, not imported.
func TestSkyPilotAWS(t *testing.T) {
	imp := readSky(t, "aws")
	if imp.Rows != 11 {
		t.Errorf("%d rows read, want 11", imp.Rows)
	}
	for _, c := range []struct {
		id, gpu            string
		n                  int
		onDemand, spot     float64
		jurisdiction, home string
	}{
		{"sky-aws-p4de-24xlarge-us-east-1", "a100-80gb", 8, 27.44705 / 8, 9.8765 / 8, "US", "US"},
		{"sky-aws-p5-48xlarge-us-east-1", "h100-sxm", 8, 55.04 / 8, 24.1356 / 8, "US", "US"},
		{"sky-aws-p5-48xlarge-eu-west-3", "h100-sxm", 8, 67.2 / 8, 0, "FR", "US"},
		{"sky-aws-p5-4xlarge-us-east-1", "h100-sxm", 1, 6.88, 2.93, "US", "US"},
	} {
		o, ok := offerByID(imp, c.id)
		if !ok {
			t.Errorf("no offer %s in %v", c.id, ids(imp.Offers))
			continue
		}
		if o.GPU != c.gpu || o.GPUsPerNode != c.n || o.OnDemand != c.onDemand || o.Spot != c.spot || o.Jurisdiction != c.jurisdiction || o.ProviderHome != c.home {
			t.Errorf("%s: %+v", c.id, o)
		}
		if o.AsOf != "2026-11-30" || !strings.Contains(o.Source, "SkyPilot") || o.Provider != "aws" {
			t.Errorf("%s: as of %q, source %q", c.id, o.AsOf, o.Source)
		}
	}
	if o, _ := offerByID(imp, "sky-aws-p5-48xlarge-us-east-1"); o.NetworkGBsPerGPU != 50 || o.IntraNodeGBs != 900 || !strings.Contains(o.Note, "catalog offer aws-p5-h100") {
		t.Errorf("links of the p5 not from the catalog's p5: %+v", o)
	}
	if o, _ := offerByID(imp, "sky-aws-p4de-24xlarge-us-east-1"); !strings.Contains(o.Note, "lowest on-demand and spot prices of 3 availability zones") {
		t.Errorf("zones not said: %q", o.Note)
	}
	if len(imp.Offers) != 4 {
		t.Errorf("%d offers: %v", len(imp.Offers), ids(imp.Offers))
	}
	if imp.Unknown["V100"] != 1 || imp.Unknown["A10G"] != 1 {
		t.Errorf("unknown accelerators %v", imp.Unknown)
	}
	got := imp.SkippedByReason()
	for reason, n := range map[string]int{SkipNoGPU: 1, SkipUnknownGPU: 2, SkipBadNumber: 1, SkipNoPrice: 1} {
		if got[reason] != n {
			t.Errorf("%s: %d rows, want %d (%v)", reason, got[reason], n, imp.Skipped)
		}
	}
}

// Lambda's file (no zones): a row that repeats an instance and region is
// a duplicate, a fraction of a GPU is not imported, an A100 of 40 GB is
// not the catalog's 80 GB one, a PCIe H100 is the catalog's H100 PCIe (not
// the SXM part), and a region whose country hostplan does not know is
// imported with no jurisdiction, counted and said so in its note.
func TestSkyPilotLambda(t *testing.T) {
	imp := readSky(t, "lambda")
	if len(imp.Offers) != 3 {
		t.Fatalf("offers %v", ids(imp.Offers))
	}
	o, ok := offerByID(imp, "sky-lambda-gpu-8x-h100-sxm5-europe-central-1")
	if !ok || o.OnDemand != 23.92/8 || o.Jurisdiction != "DE" || o.GPU != "h100-sxm" || o.Spot != 0 {
		t.Errorf("Frankfurt H100: %+v", o)
	}
	p, ok := offerByID(imp, "sky-lambda-gpu-1x-h100-pcie-asia-south-9")
	if !ok || p.GPU != "h100-pcie" || p.Jurisdiction != "" || !strings.Contains(p.Note, "jurisdiction of region asia-south-9 is not known") || imp.NoJurisdiction != 1 {
		t.Errorf("PCIe H100 in an unknown region: %+v (%d without jurisdiction)", p, imp.NoJurisdiction)
	}
	got := imp.SkippedByReason()
	for reason, n := range map[string]int{SkipNoGPU: 1, SkipDuplicate: 1, SkipFraction: 1, SkipUnknownGPU: 2} {
		if got[reason] != n {
			t.Errorf("%s: %d rows, want %d (%v)", reason, got[reason], n, imp.Skipped)
		}
	}
	if imp.Unknown["A100"] != 1 || imp.Unknown["GH200"] != 1 || len(imp.Unknown) != 2 {
		t.Errorf("unknown %v", imp.Unknown)
	}
}

// The import's override rows add its offers to the catalog exactly: each
// offer, applied, has the prices of its rows.
func TestSkyPilotOverridesApply(t *testing.T) {
	imp := readSky(t, "aws")
	c, err := def(t).Apply(imp.Overrides())
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range imp.Offers {
		got, ok := c.CloudOffer(want.ID)
		if !ok {
			t.Fatalf("%s not in the catalog after the import", want.ID)
		}
		if got.OnDemand != want.OnDemand || got.Spot != want.Spot || got.GPU != want.GPU || got.GPUsPerNode != want.GPUsPerNode || got.Jurisdiction != want.Jurisdiction {
			t.Errorf("%s: %+v, want %+v", want.ID, got, want)
		}
	}
}

func ids(os []CloudOffer) []string {
	var out []string
	for _, o := range os {
		out = append(out, o.ID)
	}
	return out
}

// A file that is not a SkyPilot vms.csv is refused by its header.
func TestSkyPilotHeader(t *testing.T) {
	if IsSkyPilotHeader(strings.Split(OverridesHeader, ",")) {
		t.Error("the overrides header taken for SkyPilot's")
	}
	if _, err := ReadSkyPilot(strings.NewReader(OverridesHeader+"\n"), def(t), SkyPilotOptions{File: "x.csv"}); err == nil || !strings.Contains(err.Error(), "not a SkyPilot vms.csv") {
		t.Errorf("error %v", err)
	}
}

func def(t *testing.T) *Catalog {
	t.Helper()
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// catalog list --stale's rows: the price figures (numbers, not names or
// notes) dated more than twelve months before the catalog's newest price,
// oldest first; an import of current prices moves the newest price and
// a figure restated today leaves the list.
func TestStaleFigures(t *testing.T) {
	c := def(t)
	rows, ref := c.Stale()
	if len(rows) == 0 {
		t.Fatal("no stale figure in the built-in catalog")
	}
	limit := ref.AddDate(0, -StaleMonths, 0).Format("2006-01-02")
	for i, r := range rows {
		if r.AsOf >= limit || !isFigure(r.Value) || i > 0 && r.AsOf < rows[i-1].AsOf || r.Kind == "gpu" || r.Kind == "model" {
			t.Errorf("row %+v (limit %s)", r, limit)
		}
	}
	found := false
	for _, r := range rows {
		found = found || r.Kind == "node" && r.ID == "dgx-h100" && r.Field == "price"
	}
	if !found {
		t.Error("the DGX H100 price of 2023 not listed")
	}
	n, err := c.Apply(Overrides{Rows: []OverrideRow{{Kind: "node", ID: "dgx-h100", Field: "price", Value: "250000", AsOf: ref.Format("2006-01-02"), Source: "quote"}}})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := n.Stale()
	for _, r := range again {
		if r.Kind == "node" && r.ID == "dgx-h100" && r.Field == "price" {
			t.Errorf("a price restated at the catalog's date still listed: %+v", r)
		}
	}
}

// GCP's TPU rows in SkyPilot's format: one row per slice (AcceleratorCount
// 1, no instance type), priced whole — v5e and v6e slices counted in
// chips, v5p in TensorCores, two a chip. Each becomes an offer of the
// catalog TPU per chip-hour with the slice's chips as its unit; a slice
// without an on-demand price and a TPU the catalog lacks (v3) are listed,
// not imported.
func TestSkyPilotTPUs(t *testing.T) {
	imp := readSky(t, "gcp")
	for id, want := range map[string]struct {
		gpu          string
		chips        int
		price, spot  float64
		jurisdiction string
	}{
		"sky-gcp-tpu-v5litepod-1-us-central1": {"tpu-v5e", 1, 1.2, 0.24493, "US"},
		"sky-gcp-tpu-v5litepod-8-us-central1": {"tpu-v5e", 8, 9.6 / 8, 1.9 / 8, "US"},
		"sky-gcp-tpu-v5p-8-us-central1":       {"tpu-v5p", 4, 16.8 / 4, 3.3428 / 4, "US"},
		"sky-gcp-tpu-v6e-1-europe-west4":      {"tpu-v6e", 1, 2.97, 1.03748, "NL"},
	} {
		o, ok := offerByID(imp, id)
		if !ok || o.GPU != want.gpu || o.GPUsPerNode != want.chips || o.OnDemand != want.price || o.Spot != want.spot || o.Jurisdiction != want.jurisdiction {
			t.Errorf("%s: %+v (found %v), want %+v", id, o, ok, want)
		}
	}
	if imp.Unknown["tpu-v3-8"] != 1 {
		t.Errorf("unknown %v, want tpu-v3-8 listed", imp.Unknown)
	}
	if got := imp.SkippedByReason(); got[SkipNoPrice] != 1 {
		t.Errorf("skipped %v, want the v6e slice without an on-demand price", imp.Skipped)
	}
	for _, tc := range []struct {
		name  string
		gpu   string
		chips int
		ok    bool
	}{
		{"tpu-v5p-16", "tpu-v5p", 8, true}, {"tpu-v6e-256", "tpu-v6e", 256, true}, {"TPU-V5LITEPOD-4", "tpu-v5e", 4, true},
		{"tpu-v5p-3", "", 0, false}, {"tpu-v4-8", "", 0, false}, {"tpu-v6e", "", 0, false}, {"H100", "", 0, false},
	} {
		if gpu, chips, ok := skyPilotTPU(tc.name); gpu != tc.gpu || chips != tc.chips || ok != tc.ok {
			t.Errorf("skyPilotTPU(%q) = %q, %d, %v", tc.name, gpu, chips, ok)
		}
	}
}
