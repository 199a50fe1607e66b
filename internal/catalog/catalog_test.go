package catalog

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"hostplan/internal/scenario"
)

func TestDefaultLoadsAndChecks(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"a100-80gb", "h100-sxm", "h200-sxm", "l40s", "mi300x"} {
		if _, ok := c.GPU(id); !ok {
			t.Errorf("GPU %q missing", id)
		}
	}
	// Dense BF16 figures from the vendor datasheets (../shared/reference/figures.md).
	h100, _ := c.GPU("h100-sxm")
	if h100.BF16TFLOPs != 989 || h100.FP8TFLOPs != 1979 || h100.MemoryGB != 80 {
		t.Errorf("h100-sxm = %+v, want 989/1979 TFLOP/s dense and 80 GB", h100)
	}
	if got := h100.PeakTFLOPs("fp8"); got != 1979 {
		t.Errorf("h100 fp8 peak = %v, want 1979", got)
	}
	a100, _ := c.GPU("a100-80gb")
	if got := a100.PeakTFLOPs("fp8"); got != 312 {
		t.Errorf("a100 has no FP8 path: fp8 peak = %v, want the BF16 312", got)
	}
	mix, _ := c.Model("mixtral-8x7b")
	if mix.ActiveParamsB >= mix.ParamsB {
		t.Errorf("mixtral active %v should be below total %v", mix.ActiveParamsB, mix.ParamsB)
	}
	gcp, ok := c.CloudOffer("gcp-a3-h100")
	if !ok {
		t.Fatal("gcp-a3-h100 missing")
	}
	// GCP a3-highgpu-8g: 88.49 $/h for 8 GPUs, 3-year commitment −56.1 % (prices.md, CY 2026-07-30).
	if p, _ := gcp.Price("commit_3y"); abs(p-88.49/8*0.439) > 1e-3 {
		t.Errorf("gcp a3 commit_3y = %v, want %v", p, 88.49/8*0.439)
	}
	if _, ok := c.CloudOffer("nope"); ok {
		t.Error("unknown offer found")
	}
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestLoadRejectsBadEntries(t *testing.T) {
	fsys := fstest.MapFS{
		"gpus.json":    {Data: []byte(`[{"id":"g","name":"G","bf16_tflops":1,"memory_gb":1,"bandwidth_gbs":1,"as_of":"2024-13-01","source":"x"}]`)},
		"models.json":  {Data: []byte(`[]`)},
		"cloud.json":   {Data: []byte(`[{"id":"c","gpu":"missing","gpus_per_node":8,"on_demand":1,"as_of":"2024-01-01","source":"x"}]`)},
		"data.json":    {Data: []byte(`[]`)},
		"onprem.json":  {Data: []byte(`{"nodes":[],"site":{"pue":1.5,"life_years":5,"as_of":"2024-01-01","source":"x"}}`)},
		"hpc.json":     {Data: []byte(`[]`)},
		"managed.json": {Data: []byte(`[{"id":"m","kind":"inference","reference_gpu":"h100","reference_gpus":0,"as_of":"2024-01-01","source":"x"}]`)},
		"energy.json":  {Data: []byte(`{"grid":[{"id":"x","g_co2e_per_kwh":5000,"year":2020,"as_of":"2024-01-01","source":"x"}],"pue":[{"id":"p","pue":1.2,"as_of":"2024-01-01","source":""}]}`)},
		"rates.json":   {Data: []byte(`[{"currency":"EUR","per_eur":2,"as_of":"2024-01-01","source":"x"},{"currency":"usd","per_eur":1.1,"as_of":"2024-01-01","source":"x"}]`)},
	}
	_, err := Load(fsys)
	if err == nil {
		t.Fatal("Load accepted a bad date and an unknown GPU")
	}
	for _, want := range []string{`as_of "2024-13-01"`, `unknown gpu "missing"`, `managed m: unknown reference_gpu "h100"`, `managed m: reference_gpus must be ≥ 1`,
		`grid x: g_co2e_per_kwh 5,000 is out of range`, `pue p: source is empty`,
		`rate EUR: per_eur 2 (allowed: exactly 1`, `rate "usd": the currency is not a three-letter ISO 4217 code`} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestOldestAsOf(t *testing.T) {
	got := OldestAsOf(Entry{AsOf: "2026-01-01"}, Entry{}, Entry{AsOf: "2023-05-01"})
	if got != "2023-05-01" {
		t.Errorf("OldestAsOf = %q", got)
	}
}

// Every number of every kind of entry has a range (scenario.CatalogBound),
// every range names a field, and the embedded catalog lies within them.
func TestEveryCatalogNumberHasABound(t *testing.T) {
	seen := map[string]bool{}
	for _, k := range kinds {
		for _, f := range k.fields {
			switch f.typ.Kind() {
			case reflect.Float64, reflect.Int, reflect.Array:
				if _, ok := scenario.CatalogBound(string(k.name), f.name); !ok {
					t.Errorf("%s.%s has no range", k.name, f.name)
				}
				seen[string(k.name)+"."+f.name] = true
			}
		}
	}
	for _, b := range scenario.CatalogBounds() {
		if !seen[b.Path] {
			t.Errorf("range for %s, which is not a number of the catalog", b.Path)
		}
	}
	if _, err := Default(); err != nil {
		t.Errorf("the embedded catalog: %v", err)
	}
	// An override row out of range names its line and the range.
	_, err := ParseOverridesCSV(strings.NewReader(OverridesHeader + "\nmodel,mistral-7b,params_b,1e308,2026-10-01,typo\ngpu,h100-sxm,bf16_tflops,1e-300,2026-10-01,typo\n"))
	want := "catalog overrides: line 2: model mistral-7b: params_b 1e308 is out of range (allowed: a number > 0 and ≤ 100,000); " +
		"line 3: gpu h100-sxm: bf16_tflops 1e-300 is out of range (allowed: a number ≥ 1 and ≤ 1,000,000)"
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

// The built-in catalog's figures hang together: a node whose GPUs are at
// least as fast and hold at least as much memory as another's, in the
// same number, costs no less (an H200 node is not priced below an H100
// node); every instance's network per GPU is at most the 400 Gb/s
// (50 GB/s) one InfiniBand NDR port gives a GPU; and the measured
// all-reduce bus bandwidth of a GPU is below its NVLink's bidirectional
// figure wherever an offer states one.
func TestDefaultFiguresConsistent(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range c.Nodes {
		ga, _ := c.GPU(a.GPU)
		for _, b := range c.Nodes {
			gb, _ := c.GPU(b.GPU)
			better := ga.BF16TFLOPs >= gb.BF16TFLOPs && ga.MemoryGB >= gb.MemoryGB && ga.BandwidthGBs >= gb.BandwidthGBs &&
				(ga.MemoryGB > gb.MemoryGB || ga.BandwidthGBs > gb.BandwidthGBs || ga.BF16TFLOPs > gb.BF16TFLOPs)
			if better && a.GPUs == b.GPUs && a.Price < b.Price {
				t.Errorf("node %s (%s) costs %v, less than %s (%s) at %v", a.ID, a.GPU, a.Price, b.ID, b.GPU, b.Price)
			}
		}
	}
	for _, o := range c.Cloud {
		// A TPU's chips talk over the slice's inter-chip interconnect, not
		// a network port: its figure is the ICI's.
		if g, _ := c.GPU(o.GPU); o.NetworkGBsPerGPU > 50 && g.Stack != StackXLA {
			t.Errorf("cloud %s: %v GB/s of network per GPU, more than one 400 Gb/s port", o.ID, o.NetworkGBsPerGPU)
		}
		g, _ := c.GPU(o.GPU)
		if g.AllReduceBusGBs > 0 && g.AllReduceBusGBs >= o.IntraNodeGBs && o.IntraNodeGBs > 100 {
			t.Errorf("cloud %s: bus bandwidth %v GB/s not below the %v GB/s link", o.ID, g.AllReduceBusGBs, o.IntraNodeGBs)
		}
	}
	p4de, _ := c.CloudOffer("aws-p4de-a100")
	g6e, _ := c.CloudOffer("aws-g6e-l40s")
	if p4de.NetworkGBsPerGPU != 6.25 || g6e.NetworkGBsPerGPU != 6.25 {
		t.Errorf("400 Gbps per 8-GPU instance is 6.25 GB/s per GPU: p4de %v, g6e %v", p4de.NetworkGBsPerGPU, g6e.NetworkGBsPerGPU)
	}
	// Google Cloud, "Networking and GPU machines": A2 instances get up to
	// 100 Gbps, the a2-ultragpu-8g the most — 12.5 Gbps, 1.5625 GB/s, per
	// GPU (the catalog had 12.5 GB/s, 8× too much).
	if a2, _ := c.CloudOffer("gcp-a2-a100"); a2.NetworkGBsPerGPU != 100.0/8/8 {
		t.Errorf("100 Gbps per a2-ultragpu-8g is 1.5625 GB/s per GPU: %v", a2.NetworkGBsPerGPU)
	}
}

// Network per GPU of the cloud offers against the providers' published
// instance figures, in GB/s (a Gbps figure divided by 8, then by the GPUs
// of the instance).
func TestCloudNetworkPublished(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id   string
		gbps float64 // per instance
		why  string
	}{
		// Google Cloud, "Networking and GPU machines": A3 High up to
		// 1,000 Gbps (the catalog had 25 GB/s per GPU, the A3 Mega's 1,600).
		{"gcp-a3-h100", 1000, "A3 High up to 1,000 Gbps"},
		{"gcp-a3-h100-eu", 1000, "A3 High up to 1,000 Gbps"},
		{"gcp-a2-a100", 100, "A2 up to 100 Gbps"},
		// tsaol/aws-gpu (instances.vantage.sh): p5 and p5en 3,200 Gbps EFA,
		// p4de and g6e.48xlarge 400 Gbps.
		{"aws-p5-h100", 3200, "p5.48xlarge 3,200 Gbps EFA"},
		{"aws-p5en-h200", 3200, "p5en.48xlarge 3,200 Gbps EFA"},
		{"aws-p4de-a100", 400, "p4de.24xlarge 400 Gbps EFA"},
		{"aws-g6e-l40s", 400, "g6e.48xlarge 400 Gbps"},
		// Azure ND H100 v5: one 400 Gb/s NDR InfiniBand link per GPU;
		// ND A100 v4: one 200 Gb/s HDR link per GPU.
		{"azure-nd-h100-v5", 3200, "8 × 400 Gb/s NDR"},
		{"azure-nd-a100-v4", 1600, "8 × 200 Gb/s HDR"},
		// CoreWeave L40S nodes: no InfiniBand, one BlueField-3 DPU of at
		// most 400 Gb/s (an estimate; the catalog had 12.5 GB/s per GPU,
		// 100 Gb/s per GPU, more than the DPU carries).
		{"coreweave-l40s", 400, "one BlueField-3 DPU, at most 400 Gb/s"},
	} {
		o, ok := c.CloudOffer(tc.id)
		if !ok {
			t.Errorf("%s missing", tc.id)
			continue
		}
		if want := tc.gbps / 8 / float64(o.GPUsPerNode); abs(o.NetworkGBsPerGPU-want) > 1e-9 {
			t.Errorf("%s: %v GB/s of network per GPU, want %v (%s ÷ %d GPUs)", tc.id, o.NetworkGBsPerGPU, want, tc.why, o.GPUsPerNode)
		}
	}
}

// CoreWeave's prices as its pricing page gave them on 2026-09-20
// (api-evangelist/coreweave plans/coreweave-plans-pricing.yml): per 8-GPU
// instance-hour, on demand and spot in North America.
func TestCoreWeavePricesPublished(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		id             string
		onDemand, spot float64
	}{
		{"coreweave-h100", 49.24, 19.71},
		{"coreweave-h200", 50.44, 20.93},
		{"coreweave-l40s", 18.00, 0},
	} {
		o, _ := c.CloudOffer(tc.id)
		if abs(o.OnDemand-tc.onDemand/8) > 1e-9 || abs(o.Spot-tc.spot/8) > 1e-9 {
			t.Errorf("%s: on demand %v, spot %v per GPU-hour; want %v and %v", tc.id, o.OnDemand, o.Spot, tc.onDemand/8, tc.spot/8)
		}
		if o.AsOf != "2026-09-20" || !strings.Contains(o.Source, "coreweave.com/pricing") {
			t.Errorf("%s: as_of %s, source %q: want the pricing page of 2026-09-20", tc.id, o.AsOf, o.Source)
		}
	}
}

// The site's staff cost is the BLS median annual wage of network and
// computer systems administrators (SOC 15-1244) in May 2024, 96,800 $
// (Occupational Employment and Wage Statistics, published 2025-04-02),
// loaded for benefits by the 70.2 % share wages and salaries are of
// private-industry employer compensation costs (BLS Employer Costs for
// Employee Compensation, June 2025, published 2025-09-12); it is dated by
// the pay survey's publication. It was 129,000 $ beside a source reading
// "90,520 $ + 30 %" (117,676 $): the figure and its source now agree.
func TestSiteStaffCostPublished(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	s := c.Site
	if want := 96800 / 0.702; abs(s.StaffCostPerFTE-want) > 50 {
		t.Errorf("staff cost %v per FTE-year, want 96,800 ÷ 0.702 = %.0f to the nearest hundred", s.StaffCostPerFTE, want)
	}
	if got := s.FigureAsOf("staff_cost_per_fte_year"); got != "2025-04-02" {
		t.Errorf("staff cost dated %s, want 2025-04-02 (OEWS May 2024 published)", got)
	}
	for _, want := range []string{"96,800", "70.2 %", "15-1244", "137,900"} {
		if !strings.Contains(s.Source, want) {
			t.Errorf("site source does not state %q", want)
		}
	}
	if strings.Contains(s.Source, "90,520 $ + 30 %") {
		t.Error("site source still gives the May 2022 pay + 30 %, which is not the figure")
	}
}

// Every price in the built-in catalog has a source and a date; a price
// whose source is undated or secondary, so that its as_of is not a date
// the source gives, says it is an estimate.
func TestEveryPriceSourcedDatedOrEstimate(t *testing.T) {
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	type priced struct {
		name string
		e    Entry
	}
	var all []priced
	for _, o := range c.Cloud {
		all = append(all, priced{"cloud " + o.ID, o.Entry})
	}
	for _, d := range c.Data {
		all = append(all, priced{"data " + d.Provider, d.Entry})
	}
	for _, n := range c.Nodes {
		all = append(all, priced{"node " + n.ID, n.Entry})
	}
	for _, p := range c.HPC {
		all = append(all, priced{"hpc " + p.ID, p.Entry})
	}
	for _, m := range c.Managed {
		all = append(all, priced{"managed " + m.ID, m.Entry})
	}
	all = append(all, priced{"site", c.Site.Entry})
	for _, p := range all {
		if p.e.AsOf == "" || strings.TrimSpace(p.e.Source) == "" {
			t.Errorf("%s: as_of %q, source %q: a price needs both", p.name, p.e.AsOf, p.e.Source)
			continue
		}
		text := strings.ToLower(p.e.Source + " " + p.e.Note)
		if (strings.Contains(text, "undated") || strings.Contains(text, "secondary")) && !strings.Contains(text, "estimate") {
			t.Errorf("%s: an undated or secondary source, and no word that the price or its date is an estimate: %s", p.name, p.e.Source)
		}
	}
	// The 8×H100 InfiniBand node is the Thinkmate quote of 2024-08-22
	// (E. Cheah, "H100 Freakonomics"), the date the H200 estimate cites.
	if n, _ := c.Node("h100-ib-node"); n.AsOf != "2024-08-22" {
		t.Errorf("h100-ib-node dated %s, want the quote's 2024-08-22", n.AsOf)
	}
}

// Every kind is read by its name and its plural, and IDs lists the ids of
// its items.
func TestKindsTable(t *testing.T) {
	def, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range Kinds() {
		for _, word := range []string{string(k), k.Plural()} {
			if got, ok := ParseKind(word); !ok || got != k {
				t.Errorf("ParseKind(%q) = %q, %v; want %q", word, got, ok, k)
			}
		}
		if k.Title() == "" || k.Title() == string(k) && k != KindSite {
			t.Errorf("kind %s has no title", k)
		}
		var want []string
		for _, it := range def.Items(k) {
			want = append(want, it.ID)
		}
		if got := def.IDs(k); !slices.Equal(got, want) || len(got) == 0 {
			t.Errorf("IDs(%s) = %v, want %v", k, got, want)
		}
	}
	if _, ok := ParseKind("spaceship"); ok {
		t.Error("ParseKind took an unknown kind")
	}
}
