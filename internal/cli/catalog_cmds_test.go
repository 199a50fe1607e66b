package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/store"
)

// writeCSV writes an overrides file with the header and the given rows.
func writeCSV(t *testing.T, rows ...string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "prices.csv")
	if err := os.WriteFile(f, []byte(catalog.OverridesHeader+"\n"+strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func mustRun(t *testing.T, db string, args ...string) string {
	t.Helper()
	code, out, errs := run(t, db, args...)
	if code != ExitOK {
		t.Fatalf("%v: exit %d\n%s", args, code, errs)
	}
	return out
}

// storedOverrides reads the overrides blob as the store keeps it.
func storedOverrides(t *testing.T, db string) []byte {
	t.Helper()
	st, err := store.Open(db, &store.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	b, err := st.GetCatalogOverrides()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A file with one bad row among good ones is refused whole: every problem
// with its line, exit 2, and neither the store file nor its overrides change.
func TestCatalogImportRefusesWholeFile(t *testing.T) {
	db := tempDB(t)
	good := writeCSV(t, "cloud,lambda-h100,spot,2.10,2026-10-01,Lambda quote")
	mustRun(t, db, "catalog", "import", good)
	before, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	blob := storedOverrides(t, db)

	for _, tc := range []struct {
		name string
		rows []string
		want []string // stderr lines, FILE: replaced by the file name
	}{
		{"bad field", []string{
			"cloud,lambda-h100,on_demand,5.99,2026-10-01,Lambda quote", // line 2 good
			"cloud,lambda-h100,on_demnd,5.99,2026-10-01,Lambda quote",  // line 3 bad
			"gpu,h100-sxm,power_w,700,2026-10-01,datasheet",            // line 4 good
		}, []string{
			`FILE: line 3: cloud lambda-h100: field "on_demnd" is not a field of cloud (allowed: provider, name, region, jurisdiction, provider_home, gpu, gpus_per_node, on_demand, commit_1y, commit_3y, spot, network_gbs_per_gpu, intra_node_gbs, max_gpus, storage_gbs, note)`,
			`hostplan: catalog import: FILE refused (1 problem); nothing was imported`,
		}},
		{"every bad row", []string{
			"cloud,lambda-h100,on_demand,5.99,2026-10-01,Lambda quote", // line 2 good
			"cloud,lambda-h100,spot,cheap,2026-10-01,Lambda quote",     // line 3
			"node,dgx-h100,price,290000,01/10/2026,",                   // line 4 (two problems)
		}, []string{
			`FILE: line 3: cloud lambda-h100: spot "cheap" is not a number (allowed: a number ≥ 0, written as digits with an optional sign, decimal point and exponent, thousands grouped in threes by commas, underscores or spaces, e.g. -1,234.5 or 2.5e6)`,
			`FILE: line 4: node dgx-h100: as_of "01/10/2026" is not a date (allowed: YYYY-MM-DD)`,
			`FILE: line 4: node dgx-h100: source is empty (allowed: where the figure was published)`,
			`hostplan: catalog import: FILE refused (3 problems); nothing was imported`,
		}},
		{"incomplete new entry", []string{
			"cloud,lambda-h100,on_demand,5.99,2026-10-01,Lambda quote", // line 2 good
			"cloud,nebius-h100,on_demand,2.95,2026-10-01,Nebius page",  // line 3 creates an entry
			"cloud,nebius-h100,gpu,h100-sxm,2026-10-01,Nebius page",
		}, []string{
			`FILE: line 3: cloud nebius-h100 is not in the catalog, and a new entry needs every field: provider, name, region, jurisdiction, provider_home, gpus_per_node, commit_1y, commit_3y, spot, network_gbs_per_gpu, intra_node_gbs, max_gpus, storage_gbs missing (allowed fields: provider, name, region, jurisdiction, provider_home, gpu, gpus_per_node, on_demand, commit_1y, commit_3y, spot, network_gbs_per_gpu, intra_node_gbs, max_gpus, storage_gbs, note)`,
			`FILE: line 3: cloud nebius-h100: gpus_per_node 0 is out of range (allowed: a whole number from 1 to 1,024)`,
			`FILE: line 3: cloud nebius-h100: network_gbs_per_gpu 0 is out of range (allowed: a number ≥ 0.001 and ≤ 100,000)`,
			`FILE: line 3: cloud nebius-h100: intra_node_gbs 0 is out of range (allowed: a number ≥ 0.001 and ≤ 100,000)`,
			`FILE: line 3: cloud nebius-h100: storage_gbs 0 is out of range (allowed: a number ≥ 0.001 and ≤ 100,000)`,
			`hostplan: catalog import: FILE refused (5 problems); nothing was imported`,
		}},
	} {
		f := writeCSV(t, tc.rows...)
		code, out, errs := run(t, db, "catalog", "import", f)
		want := strings.ReplaceAll(strings.Join(tc.want, "\n")+"\n", "FILE", f)
		if code != ExitUsage || out != "" || errs != want {
			t.Errorf("%s: exit %d, stdout %q, stderr\n%s\nwant exit 2 and\n%s", tc.name, code, out, errs, want)
		}
		after, _ := os.ReadFile(db)
		if !bytes.Equal(after, before) || !bytes.Equal(storedOverrides(t, db), blob) {
			t.Errorf("%s: the refused import changed the store", tc.name)
		}
	}

	// A refused import into a store that does not exist yet does not create it.
	fresh := tempDB(t)
	if code, _, _ := run(t, fresh, "catalog", "import", writeCSV(t, "gpuz,x,name,X,2026-01-01,s")); code != ExitUsage {
		t.Errorf("exit %d, want 2", code)
	}
	if _, err := os.Stat(fresh); !os.IsNotExist(err) {
		t.Errorf("a refused import created the store (%v)", err)
	}
}

type evalReport struct {
	CatalogAsOf string `json:"catalog_as_of"`
	Directions  []struct {
		Direction       string   `json:"direction"`
		Offer           string   `json:"offer"`
		PricePerGPUHour float64  `json:"price_per_gpu_hour"`
		GPUHoursPerRun  float64  `json:"gpu_hours_per_run"`
		CostPerRun      float64  `json:"cost_per_run"`
		Sources         []string `json:"sources"`
	} `json:"directions"`
}

func evalJSON(t *testing.T, db string, args ...string) evalReport {
	t.Helper()
	var r evalReport
	out := mustRun(t, db, append([]string{"eval", "--format", "json"}, args...)...)
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r evalReport) cloud(t *testing.T) (offer string, price, gpuHours, costPerRun float64, sources []string) {
	for _, d := range r.Directions {
		if d.Direction == "cloud" {
			return d.Offer, d.PricePerGPUHour, d.GPUHoursPerRun, d.CostPerRun, d.Sources
		}
	}
	t.Fatal("no cloud direction in the report")
	return
}

// An override of a cloud price changes the cloud direction's cost, and its
// date becomes the report's catalog_as_of when it is the oldest in use.
func TestCatalogOverrideChangesEval(t *testing.T) {
	const scen = "../../scenarios/qlora-legal-70b.json" // options.cloud: lambda-h100 on demand
	db := tempDB(t)
	base := evalJSON(t, db, scen)
	offer, price, gpuHours, cost, _ := base.cloud(t)
	if offer != "lambda-h100" || price != 3.99 {
		t.Fatalf("the example prices %s at %v, want lambda-h100 at the catalog's 3.99", offer, price)
	}
	if base.CatalogAsOf <= "2022-06-01" {
		t.Fatalf("catalog_as_of %s is already older than the override below", base.CatalogAsOf)
	}

	out := mustRun(t, db, "catalog", "import", writeCSV(t, "cloud,lambda-h100,on_demand,5.99,2022-06-01,Lambda quote"))
	if !strings.Contains(out, "imported 1 row; 1 catalog entry is overridden (0 new); the store keeps 1 override row") {
		t.Errorf("import said %q", out)
	}
	for _, by := range []string{scen, "qlora-legal-70b"} { // a file, and the stored example
		r := evalJSON(t, db, by)
		_, p, h, c, src := r.cloud(t)
		// Only the GPU-hour price moved: 3.99 → 5.99 $, so each run costs
		// 2.00 $ more per GPU-hour used (178.5 GPU-hours → about 357 $ more).
		if p != 5.99 || h != gpuHours || math.Abs((c-cost)-(5.99-3.99)*gpuHours) > 1e-6 {
			t.Errorf("%s: price %v, GPU-hours %v, cost per run %v → %v; want 5.99 and %v more", by, p, h, cost, c, (5.99-3.99)*gpuHours)
		}
		if r.CatalogAsOf != "2022-06-01" {
			t.Errorf("%s: catalog_as_of %s, want the override's 2022-06-01", by, r.CatalogAsOf)
		}
		if !strings.Contains(strings.Join(src, "\n"), "lambda-h100 (as of 2022-06-01): Lambda quote") {
			t.Errorf("%s: sources do not cite the override:\n%s", by, strings.Join(src, "\n"))
		}
	}

	// A newer date does not lower catalog_as_of; the later import of the same
	// field replaces the earlier one.
	mustRun(t, db, "catalog", "import", writeCSV(t, "cloud,lambda-h100,on_demand,5.99,2026-10-01,Lambda quote"))
	if r := evalJSON(t, db, scen); r.CatalogAsOf != base.CatalogAsOf {
		t.Errorf("catalog_as_of %s, want %s again", r.CatalogAsOf, base.CatalogAsOf)
	}
	if o, err := catalog.DecodeOverrides(storedOverrides(t, db)); err != nil || len(o.Rows) != 1 || o.Rows[0].AsOf != "2026-10-01" {
		t.Errorf("stored %+v (%v), want the one later row", o, err)
	}
}

// Export → import reproduces the catalog; an unedited export adds no
// overrides; the override marker and --overrides show what is yours.
func TestCatalogExportImportRoundTrip(t *testing.T) {
	db := tempDB(t)
	def, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	def.ExportCSV(&want)
	if out := mustRun(t, db, "catalog", "export"); out != want.String() {
		t.Fatal("catalog export of a new store is not the embedded catalog")
	}
	plain := filepath.Join(t.TempDir(), "catalog.csv")
	if out := mustRun(t, db, "catalog", "export", "-o", plain); !strings.Contains(out, "wrote "+plain) {
		t.Errorf("export -o said %q", out)
	}
	out := mustRun(t, db, "catalog", "import", plain)
	if !strings.Contains(out, "0 catalog entries are overridden (0 new); the store keeps 0 override rows") {
		t.Errorf("importing the unedited export: %q", out)
	}

	// Edit the export as a spreadsheet user would: a price, and a new offer
	// copied from an existing one.
	var b strings.Builder
	for _, l := range strings.Split(want.String(), "\n") {
		if strings.HasPrefix(l, "cloud,lambda-h100,") {
			b.WriteString(strings.Replace(l, "cloud,lambda-h100,", "cloud,nebius-h100,", 1) + "\n")
		}
	}
	edited := strings.Replace(want.String(), "cloud,lambda-h100,on_demand,3.99,", "cloud,lambda-h100,on_demand,4.25,", 1) + b.String()
	f := filepath.Join(t.TempDir(), "edited.csv")
	os.WriteFile(f, []byte(edited), 0o644)
	out = mustRun(t, db, "catalog", "import", f)
	if !strings.Contains(out, "2 catalog entries are overridden (1 new)") {
		t.Errorf("importing the edited export: %q", out)
	}
	list := mustRun(t, db, "catalog", "list", "cloud")
	for _, l := range strings.Split(list, "\n") {
		cells := strings.Fields(l)
		if len(cells) < 2 || cells[0] != "cloud" {
			continue
		}
		mine := cells[1] == "lambda-h100" || cells[1] == "nebius-h100"
		if overridden := cells[len(cells)-1] == "override"; mine != overridden {
			t.Errorf("override marker wrong: %q", l)
		}
	}
	if n := builtinCloudOffers(t) + 1; !strings.Contains(list, fmt.Sprintf("%d entries, 2 overridden", n)) {
		t.Errorf("list cloud:\n%s", list)
	}

	// The effective catalog exported and imported into another store is the same.
	exported := mustRun(t, db, "catalog", "export")
	f2 := filepath.Join(t.TempDir(), "effective.csv")
	os.WriteFile(f2, []byte(exported), 0o644)
	other := tempDB(t)
	mustRun(t, other, "catalog", "import", f2)
	if again := mustRun(t, other, "catalog", "export"); again != exported {
		t.Error("export → import into a new store → export differs")
	}
	// Only the rows of changed entries are kept.
	mine := mustRun(t, other, "catalog", "export", "--overrides")
	o, err := catalog.ParseOverridesCSV(strings.NewReader(mine))
	if err != nil {
		t.Fatal(err)
	}
	n := len(catalog.Fields("cloud"))
	if len(o.Rows) != 2*n {
		t.Errorf("export --overrides has %d rows, want %d (two cloud entries)", len(o.Rows), 2*n)
	}
	for _, r := range o.Rows {
		if r.Kind != "cloud" || (r.ID != "lambda-h100" && r.ID != "nebius-h100") {
			t.Errorf("kept %+v", r)
		}
	}
}

func TestCatalogReset(t *testing.T) {
	db := tempDB(t)
	const scen = "../../scenarios/qlora-legal-70b.json"
	base := evalJSON(t, db, scen)
	if out := mustRun(t, db, "catalog", "reset"); out != "no catalog overrides to remove\n" {
		t.Errorf("reset of no store: %q", out)
	}
	mustRun(t, db, "catalog", "import", writeCSV(t,
		"cloud,lambda-h100,on_demand,5.99,2022-06-01,Lambda quote",
		"cloud,lambda-h100,spot,2.5,2022-06-01,Lambda quote",
		"site,site,pue,1.2,2026-01-01,facility report"))
	if out := mustRun(t, db, "catalog", "reset"); out != "removed 3 override rows (2 entries); the built-in catalog applies again\n" {
		t.Errorf("reset said %q", out)
	}
	if b := storedOverrides(t, db); b != nil {
		t.Errorf("overrides left after reset: %s", b)
	}
	if out := mustRun(t, db, "catalog", "list"); !strings.Contains(out, ", 0 overridden;") {
		t.Errorf("list after reset:\n%s", out)
	}
	if r := evalJSON(t, db, scen); r.CatalogAsOf != base.CatalogAsOf {
		t.Errorf("catalog_as_of after reset %s, want %s", r.CatalogAsOf, base.CatalogAsOf)
	}
	if out := mustRun(t, db, "catalog", "reset"); out != "no catalog overrides to remove\n" {
		t.Errorf("second reset: %q", out)
	}
}

// Stored overrides that no longer apply stop every command that needs the
// catalog with a way out, and reset still works.
func TestCatalogBrokenStoredOverrides(t *testing.T) {
	db := tempDB(t)
	mustRun(t, db, "list") // create the store
	st, err := store.Open(db, nil)
	if err != nil {
		t.Fatal(err)
	}
	err = st.PutCatalogOverrides([]byte(`{"format":1,"rows":[{"kind":"cloud","id":"gone","field":"on_demand","value":"1","as_of":"2026-01-01","source":"x"}]}`))
	st.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := run(t, db, "eval", "../../scenarios/qlora-legal-70b.json")
	if code != ExitFail || !strings.Contains(errs, "no longer apply") || !strings.Contains(errs, "hostplan catalog reset") || !strings.Contains(errs, "cloud gone is not in the catalog") {
		t.Errorf("eval: exit %d, stderr %q", code, errs)
	}
	if out := mustRun(t, db, "catalog", "reset"); !strings.HasPrefix(out, "removed 1 override row (1 entry)") {
		t.Errorf("reset: %q", out)
	}
	mustRun(t, db, "eval", "../../scenarios/qlora-legal-70b.json")
}

func TestCatalogListAndShow(t *testing.T) {
	db := tempDB(t)
	out := mustRun(t, db, "catalog", "list")
	rows := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 2 {
			rows[f[0]+"/"+f[1]] = true
		}
	}
	for _, want := range []string{"gpu/h100-sxm", "model/llama-3.1-70b", "cloud/aws-p5-h100", "data/aws", "node/dgx-h100", "site/site", "hpc/caltech-hpc", "managed/together-8b"} {
		if !rows[want] {
			t.Errorf("catalog list lacks %s", want)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Error("reading the catalog created a store")
	}
	if out := mustRun(t, db, "catalog", "list", "gpus"); strings.Contains(out, "cloud ") || !strings.Contains(out, "mi300x") {
		t.Errorf("catalog list gpus:\n%s", out)
	}
	var o catalog.CloudOffer
	if err := json.Unmarshal([]byte(mustRun(t, db, "catalog", "show", "cloud/aws-p5-h100")), &o); err != nil || o.OnDemand != 6.88 || o.AsOf == "" || o.Source == "" {
		t.Errorf("show cloud/aws-p5-h100 = %+v (%v)", o, err)
	}
	var s catalog.Site
	if err := json.Unmarshal([]byte(mustRun(t, db, "catalog", "show", "site")), &s); err != nil || s.PUE < 1 {
		t.Errorf("show site = %+v (%v)", s, err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"catalog"}, "catalog: give one of list, show, import"},
		{[]string{"catalog", "list", "chairs"}, `catalog list: "chairs" is not a catalog kind (allowed: gpu, model, cloud, data, node, site, hpc, managed, grid, pue, rate)`},
		{[]string{"catalog", "show", "cloud/nope"}, `catalog show: no cloud "nope" in the catalog (allowed: aws-p4de-a100, aws-p5-h100`},
		{[]string{"catalog", "show"}, "catalog show: give KIND/ID"},
		{[]string{"catalog", "import"}, "catalog import: give one overrides CSV"},
		{[]string{"catalog", "import", "missing.csv"}, "missing.csv: cannot read"},
		{[]string{"catalog", "export", "extra"}, `catalog export: unexpected argument "extra"`},
		{[]string{"catalog", "reset", "now"}, "catalog reset takes no arguments"},
	} {
		code, _, errs := run(t, db, tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	if out := mustRun(t, db, "catalog", "help"); !strings.Contains(out, "hostplan catalog import FILE.csv") {
		t.Errorf("catalog help:\n%s", out)
	}
}

// TestFileOutputsRefuseSymlinks: every command that writes a file writes it
// through atomicfile, so none of them writes through a symbolic link into
// the file it points at, and the pointed-at file keeps its content.
func TestFileOutputsRefuseSymlinks(t *testing.T) {
	db := tempDB(t)
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"catalog", "export", "-o"},
		{"brief", "../../scenarios/constrained-snapshot-training.json", "-o"},
	} {
		link := filepath.Join(dir, args[0]+".link")
		if err := os.Symlink(victim, link); err != nil {
			t.Fatal(err)
		}
		code, _, stderr := run(t, db, append(args, link)...)
		if code == 0 || !strings.Contains(stderr, link) || !strings.Contains(stderr, "symbolic link") {
			t.Errorf("%v through a symlink: exit %d, stderr %q; want a refusal naming the file", args, code, stderr)
		}
		if b, _ := os.ReadFile(victim); string(b) != "keep me" {
			t.Fatalf("%v wrote through the symlink: victim now %q", args, b)
		}
		if ents, _ := filepath.Glob(filepath.Join(dir, ".hostplan-*")); len(ents) != 0 {
			t.Errorf("%v left temporary files: %v", args, ents)
		}
	}
}

// builtinCloudOffers is how many cloud offers the built-in catalog has.
func builtinCloudOffers(t *testing.T) int {
	t.Helper()
	c, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	return len(c.Cloud)
}
