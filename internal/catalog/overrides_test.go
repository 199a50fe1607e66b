package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func mustDefault(t *testing.T) *Catalog {
	t.Helper()
	c, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func parse(t *testing.T, csv string) Overrides {
	t.Helper()
	o, err := ParseOverridesCSV(strings.NewReader(csv))
	if err != nil {
		t.Fatalf("ParseOverridesCSV: %v", err)
	}
	return o
}

// cloudRows are the rows ExportCSV writes for one cloud offer, with id and
// provenance replaced: a complete new entry.
func cloudRows(t *testing.T, c *Catalog, from, id, asOf, source string) string {
	t.Helper()
	var b strings.Builder
	if err := c.ExportCSV(&b); err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(b.String(), "\n") {
		if strings.HasPrefix(l, "cloud,"+from+",") {
			cells := strings.SplitN(l, ",", 4) // kind, id, field, value+provenance
			val := cells[3][:strings.Index(cells[3], ",")]
			if cells[2] == "note" {
				continue
			}
			out = append(out, strings.Join([]string{"cloud", id, cells[2], val, asOf, source}, ","))
		}
	}
	if len(out) == 0 {
		t.Fatalf("no rows for cloud %s", from)
	}
	return strings.Join(out, "\n") + "\n"
}

func TestExportApplyRoundTrip(t *testing.T) {
	def := mustDefault(t)
	var first bytes.Buffer
	if err := def.ExportCSV(&first); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(first.String(), OverridesHeader+"\n") {
		t.Fatalf("export does not start with the header:\n%.200s", first.String())
	}
	o, err := ParseOverridesCSV(bytes.NewReader(first.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	// Every settable field of every entry is one row.
	want := 0
	for _, k := range kinds {
		want += len(c(def).entries(k)) * len(k.fields)
	}
	if len(o.Rows) != want {
		t.Errorf("export has %d rows, want %d", len(o.Rows), want)
	}
	got, err := def.Apply(o)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, def) {
		t.Error("default → export → apply to default differs from the default")
	}
	for _, it := range got.Items("") {
		if it.Entry.Overridden {
			t.Errorf("%s %s marked overridden though nothing changed", it.Kind, it.ID)
		}
	}
	var second bytes.Buffer
	if err := got.ExportCSV(&second); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Error("the second export differs from the first")
	}
	pruned, err := def.Prune(o)
	if err != nil || len(pruned.Rows) != 0 {
		t.Errorf("Prune of an unedited export kept %d rows (err %v), want 0", len(pruned.Rows), err)
	}
}

func c(x *Catalog) *Catalog { return x }

func TestExportOfOverriddenCatalogRoundTrips(t *testing.T) {
	def := mustDefault(t)
	eff, err := def.Apply(parse(t, OverridesHeader+"\n"+
		"cloud,aws-p5-h100,on_demand,5.10,2026-10-01,AWS pricing page\n"+
		"cloud,aws-p5-h100,spot,2.5,2025-12-01,AWS spot history\n"+
		"hpc,caltech-hpc,queue_wait_hours,1;6;24,2026-09-01,centre status page\n"+
		"data,lambda,storage_per_gb_month,0.02,2026-09-25,Lambda pricing page\n"+
		"data,lambda,egress_per_gb,0,2026-09-25,Lambda pricing page\n"+
		"managed,together-8b,returns_weights,true,2026-09-01,Together docs\n"+
		cloudRows(t, def, "aws-p5-h100", "nebius-h100", "2026-09-25", "Nebius pricing page")))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := eff.ExportCSV(&b); err != nil {
		t.Fatal(err)
	}
	again, err := def.Apply(parse(t, b.String()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, eff) {
		t.Error("effective → export → apply to default differs from the effective catalog")
	}
}

func TestApplySetsFieldsAndProvenance(t *testing.T) {
	def := mustDefault(t)
	before, _ := def.CloudOffer("aws-p5-h100")
	eff, err := def.Apply(parse(t, OverridesHeader+"\n"+
		"cloud,aws-p5-h100,on_demand,5.10,2026-10-01,AWS pricing page\n"+
		"cloud,aws-p5-h100,spot,2.5,2025-12-01,AWS spot history\n"+
		"cloud,aws-p5-h100,max_gpus,256,2026-10-01,AWS pricing page\n"+
		"hpc,caltech-hpc,queue_wait_hours, 1 ; 6 ; 24 ,2026-09-01,centre status page\n"+
		"site,site,pue,1.3,2026-02-01,facility report\n"))
	if err != nil {
		t.Fatal(err)
	}
	o, _ := eff.CloudOffer("aws-p5-h100")
	if o.OnDemand != 5.10 || o.Spot != 2.5 || o.MaxGPUs != 256 || o.Commit1Y != before.Commit1Y {
		t.Errorf("aws-p5-h100 = %+v", o)
	}
	// The oldest as_of among the entry's rows; distinct sources in row order.
	if o.AsOf != "2025-12-01" || o.Source != "AWS pricing page; AWS spot history" || !o.Overridden {
		t.Errorf("provenance = %q %q overridden %v", o.AsOf, o.Source, o.Overridden)
	}
	if p, _ := eff.Partition("caltech-hpc"); p.QueueWaitHours != [3]float64{1, 6, 24} || !p.Overridden {
		t.Errorf("caltech-hpc queue wait = %v", p.QueueWaitHours)
	}
	// The site takes its newest figure's date: the electricity price's
	// (2026-04-27), newer than the PUE row's.
	if eff.Site.PUE != 1.3 || eff.Site.AsOf != "2026-04-27" || eff.Site.FigureAsOf("pue") != "2026-02-01" || !eff.Site.Overridden {
		t.Errorf("site = %+v", eff.Site)
	}
	// Untouched entries keep their provenance and are not marked.
	if g, _ := eff.CloudOffer("gcp-a3-h100"); g.Overridden || g.AsOf != "2026-07-30" {
		t.Errorf("gcp-a3-h100 = %+v", g.Entry)
	}
	// Apply never changes its receiver.
	if after, _ := def.CloudOffer("aws-p5-h100"); after != before || def.Site.PUE == 1.3 {
		t.Error("Apply changed the catalog it was called on")
	}
	if !reflect.DeepEqual(def, mustDefault(t)) {
		t.Error("Apply changed the default catalog")
	}
}

func TestApplyAddsCompleteEntries(t *testing.T) {
	def := mustDefault(t)
	rows := cloudRows(t, def, "aws-p5-h100", "nebius-h100", "2026-09-25", "Nebius pricing page")
	eff, err := def.Apply(parse(t, OverridesHeader+"\n"+rows))
	if err != nil {
		t.Fatal(err)
	}
	o, ok := eff.CloudOffer("nebius-h100")
	if !ok || !o.Overridden || o.GPU != "h100-sxm" || o.Source != "Nebius pricing page" {
		t.Errorf("nebius-h100 = %+v, %v", o, ok)
	}
	if len(eff.Cloud) != len(def.Cloud)+1 {
		t.Errorf("%d cloud offers, want %d", len(eff.Cloud), len(def.Cloud)+1)
	}

	// A new entry missing fields is refused at its first row.
	_, err = def.Apply(parse(t, OverridesHeader+"\n"+
		"gpu,h100-sxm,power_w,700,2026-01-01,x\n"+ // line 2
		"cloud,new-offer,on_demand,2,2026-01-01,quote\n"+ // line 3: creates new-offer
		"cloud,new-offer,gpu,h100-sxm,2026-01-01,quote\n"))
	var es OverrideErrors
	if !errors.As(err, &es) || len(es) == 0 || es[0].Line != 3 ||
		!strings.Contains(es[0].Msg, "cloud new-offer is not in the catalog, and a new entry needs every field: provider, name, region") {
		t.Errorf("incomplete entry: %v", err)
	}

	// check() problems name the line of the entry's first row.
	bad := strings.Replace(rows, "h100-sxm", "b900", 1)
	_, err = def.Apply(parse(t, OverridesHeader+"\nnode,dgx-h100,price,300000,2026-01-01,quote\n"+bad))
	if !errors.As(err, &es) || len(es) != 1 || es[0].Error() != `line 3: cloud nebius-h100: unknown gpu "b900"` {
		t.Errorf("unknown gpu: %v", err)
	}
	_, err = def.Apply(parse(t, OverridesHeader+"\nmanaged,together-8b,reference_gpu,b900,2026-01-01,typo\n"))
	if !errors.As(err, &es) || len(es) != 1 || es[0].Error() != `line 2: managed together-8b: unknown reference_gpu "b900"` {
		t.Errorf("unknown reference gpu: %v", err)
	}
	// A value out of its range (scenario.CatalogBound) names its row's line.
	_, err = def.Apply(Overrides{Rows: []OverrideRow{{Kind: "site", ID: SiteID, Field: "pue", Value: "0.9", AsOf: "2026-01-01", Source: "typo", Line: 2}}})
	if !errors.As(err, &es) || len(es) != 1 || es[0].Error() != "line 2: site site: pue 0.9 is out of range (allowed: a number ≥ 1 and ≤ 3)" {
		t.Errorf("site pue: %v", err)
	}
}

func TestApplyNoChangeIsNotAnOverride(t *testing.T) {
	def := mustDefault(t)
	g, _ := def.GPU("h100-sxm")
	eff, err := def.Apply(parse(t, OverridesHeader+"\ngpu,h100-sxm,memory_gb,80,"+g.AsOf+","+g.Source+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := eff.GPU("h100-sxm"); got.Overridden {
		t.Error("a row restating the entry marks it overridden")
	}
	// The same value from a newer source is a change of provenance.
	eff, _ = def.Apply(parse(t, OverridesHeader+"\ngpu,h100-sxm,memory_gb,80,2026-01-01,re-measured\n"))
	if got, _ := eff.GPU("h100-sxm"); !got.Overridden || got.Source != "re-measured" {
		t.Errorf("h100-sxm = %+v", got.Entry)
	}
}

func TestParseReportsEveryBadRow(t *testing.T) {
	in := OverridesHeader + "\n" +
		"cloud,aws-p5-h100,on_demand,5.10,2026-10-01,AWS pricing page\n" + // 2 good
		"cloud,aws-p5-h100,spot,-1,2026-10-01,AWS\n" + // 3 negative
		"gpuz,x,name,X,2026-01-01,s\n" + // 4 unknown kind
		"\n" + // 5 blank lines are skipped but counted
		"cloud,aws-p5-h100,commit_1y,4.1,2026-13-01,AWS\n" + // 6 bad date
		"cloud,aws-p5-h100,on_demnd,5.10,2026-10-01,AWS\n" + // 7 misspelled field
		"cloud,aws-p5-h100,max_gpus,8.5,2026-10-01,\n" + // 8 not whole, empty source
		"hpc,caltech-hpc,queue_wait_hours,5;2;9,2026-10-01,est\n" + // 9 out of order
		"site,main,pue,1.4,2026-10-01,x\n" + // 10 site id
		"cloud,aws-p5-h100,id,other,2026-10-01,x\n" + // 11 id field
		"cloud,aws-p5-h100,as_of,2026-01-01,2026-10-01,x\n" + // 12 provenance field
		"cloud,aws-p5-h100,on_demand,5.20,2026-10-01,AWS\n" + // 13 duplicate of line 2
		"cloud,aws-p5-h100,spot\n" + // 14 short row
		"managed,together-8b,returns_weights,yes,2026-10-01,x\n" + // 15 bad bool
		"cloud,aws-p5-h100,on_demand,\"5,10\",2026-10-01,x\n" + // 16 comma decimal (and a duplicate, reported once)
		"cloud,,on_demand,5,2026-10-01,x\n" // 17 empty id
	_, err := ParseOverridesCSV(strings.NewReader(in))
	var es OverrideErrors
	if !errors.As(err, &es) {
		t.Fatalf("err = %v, want OverrideErrors", err)
	}
	want := []string{
		`line 3: cloud aws-p5-h100: spot -1 is out of range (allowed: a number > 0 and ≤ 10,000,000, or 0 for no published price)`,
		`line 4: kind "gpuz" is not a catalog kind (allowed: gpu, model, cloud, data, node, site, hpc, managed, grid, pue, rate)`,
		`line 6: cloud aws-p5-h100: as_of "2026-13-01" is not a date (allowed: YYYY-MM-DD)`,
		`line 7: cloud aws-p5-h100: field "on_demnd" is not a field of cloud (allowed: provider, name, region, jurisdiction, provider_home, gpu, gpus_per_node, on_demand, commit_1y, commit_3y, spot, network_gbs_per_gpu, intra_node_gbs, max_gpus, storage_gbs, note)`,
		`line 8: cloud aws-p5-h100: max_gpus "8.5" is not a whole number (allowed: a whole number ≥ 0, written as digits with an optional sign, decimal point and exponent, thousands grouped in threes by commas, underscores or spaces, e.g. -1,234.5 or 2.5e6)`,
		`line 8: cloud aws-p5-h100: source is empty (allowed: where the figure was published)`,
		`line 9: hpc caltech-hpc: queue_wait_hours "5;2;9" is out of order (allowed: low ≤ likely ≤ high)`,
		`line 10: site main: the site entry's id is "main" (allowed: site)`,
		`line 11: cloud aws-p5-h100: field "id" cannot be set: the id column names the entry`,
		`line 12: cloud aws-p5-h100: field "as_of" cannot be set: the as_of column gives the entry's date`,
		`line 13: cloud aws-p5-h100: on_demand is also set on line 2 (allowed: one row per kind, id and field)`,
		`line 14: 3 cells (allowed: 6, kind,id,field,value,as_of,source)`,
		`line 15: managed together-8b: returns_weights "yes" is not true or false (allowed: true, false)`,
		`line 16: cloud aws-p5-h100: on_demand "5,10" is not a number (allowed: a number ≥ 0, written as digits with an optional sign, decimal point and exponent, thousands grouped in threes by commas, underscores or spaces, e.g. -1,234.5 or 2.5e6)`,
		`line 17: cloud: the id is empty (allowed: the id of an entry, e.g. aws-p5-h100)`,
	}
	var got []string
	for _, e := range es {
		got = append(got, e.Error())
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestParseHeader(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", "", "line 1: the file is empty"},
		{"other header", "kind,id,value\ncloud,x,1\n", `line 1: the header is "kind,id,value" (allowed: exactly kind,id,field,value,as_of,source)`},
		{"bad quote", OverridesHeader + "\ncloud,aws-p5-h100,name,a \"b\" c,2026-01-01,x\n", "line 2: not valid CSV"},
		{"not UTF-8", OverridesHeader + "\ncloud,aws-p5-h100,on_demand,5,2026-01-01,Preisliste M\xfcnchen\n", "line 2: the source cell is not UTF-8 text"},
	} {
		_, err := ParseOverridesCSV(strings.NewReader(tc.in))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	// A spreadsheet's byte-order mark, CRLF line ends and a header alone are fine.
	o, err := ParseOverridesCSV(strings.NewReader("\uFEFF" + OverridesHeader + "\r\ncloud,aws-p5-h100,spot,3,2026-01-01,x\r\n"))
	if err != nil || len(o.Rows) != 1 || o.Rows[0].Line != 2 || o.Rows[0].Value != "3" {
		t.Errorf("BOM + CRLF: %+v, %v", o, err)
	}
	if o, err := ParseOverridesCSV(strings.NewReader(OverridesHeader + "\n")); err != nil || len(o.Rows) != 0 {
		t.Errorf("header only: %+v, %v", o, err)
	}
}

func TestMergeLaterRowsWin(t *testing.T) {
	old := Overrides{Rows: []OverrideRow{
		{Kind: "cloud", ID: "a", Field: "spot", Value: "1"},
		{Kind: "cloud", ID: "a", Field: "on_demand", Value: "2"},
		{Kind: "gpu", ID: "g", Field: "power_w", Value: "3"},
	}}
	newer := Overrides{Rows: []OverrideRow{
		{Kind: "cloud", ID: "a", Field: "spot", Value: "9"},
		{Kind: "node", ID: "n", Field: "price", Value: "4"},
	}}
	var got []string
	for _, r := range old.Merge(newer).Rows {
		got = append(got, r.key()+"="+r.Value)
	}
	want := []string{"cloud/a/on_demand=2", "gpu/g/power_w=3", "cloud/a/spot=9", "node/n/price=4"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Merge = %v, want %v", got, want)
	}
}

func TestPruneKeepsOnlyChangedEntries(t *testing.T) {
	def := mustDefault(t)
	var b bytes.Buffer
	def.ExportCSV(&b)
	// Edit one price in the full export.
	edited := strings.Replace(b.String(), "cloud,aws-p5-h100,on_demand,6.88,2026-01-21,", "cloud,aws-p5-h100,on_demand,5.1,2026-01-21,", 1)
	if edited == b.String() {
		t.Fatal("the export has no aws-p5-h100 on_demand row to edit")
	}
	o := parse(t, edited)
	pruned, err := def.Prune(o)
	if err != nil {
		t.Fatal(err)
	}
	// Every row of the edited entry stays (they make up its provenance); no other.
	n := len(kindNamed("cloud").fields)
	if len(pruned.Rows) != n {
		t.Fatalf("Prune kept %d rows, want the %d of aws-p5-h100", len(pruned.Rows), n)
	}
	for _, r := range pruned.Rows {
		if r.Kind != "cloud" || r.ID != "aws-p5-h100" {
			t.Errorf("kept %+v", r)
		}
	}
	a, _ := def.Apply(o)
	p, _ := def.Apply(pruned)
	if !reflect.DeepEqual(a, p) {
		t.Error("the pruned rows give a different catalog")
	}
}

func TestOverridesJSON(t *testing.T) {
	o := parse(t, OverridesHeader+"\ncloud,aws-p5-h100,on_demand,5.10,2026-10-01,\"AWS, pricing page\"\n")
	b, err := json.Marshal(o)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"format":1,"rows":[{"kind":"cloud","id":"aws-p5-h100","field":"on_demand","value":"5.10","as_of":"2026-10-01","source":"AWS, pricing page"}]}`
	if string(b) != want {
		t.Errorf("JSON = %s\nwant %s", b, want)
	}
	back, err := DecodeOverrides(b)
	o.Rows[0].Line = 0 // lines belong to the file, not to the stored rows
	if err != nil || !reflect.DeepEqual(back, o) {
		t.Errorf("decoded %+v, %v", back, err)
	}
	if b, _ := json.Marshal(Overrides{}); string(b) != `{"format":1,"rows":[]}` {
		t.Errorf("empty = %s", b)
	}
	if _, err := DecodeOverrides([]byte(`{"format":2,"rows":[]}`)); err == nil || !strings.Contains(err.Error(), "format 2 is not known") {
		t.Errorf("format 2: %v", err)
	}
	eff, err := Effective(b)
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := eff.CloudOffer("aws-p5-h100"); x.OnDemand != 5.10 {
		t.Errorf("Effective: on_demand %v", x.OnDemand)
	}
	if eff, err := Effective(nil); err != nil || !reflect.DeepEqual(eff, mustDefault(t)) {
		t.Errorf("Effective(nil) is not the default: %v", err)
	}
}

// Every entry type of Catalog is a kind, so nothing is left out of
// listings, exports and overrides.
func TestKindsCoverTheCatalog(t *testing.T) {
	covered := map[string]bool{}
	for _, k := range kinds {
		covered[k.goField] = true
	}
	for _, f := range reflect.VisibleFields(reflect.TypeFor[Catalog]()) {
		if !covered[f.Name] {
			t.Errorf("Catalog.%s is not a kind", f.Name)
		}
	}
	def := mustDefault(t)
	if got := len(def.Items("")); got != len(def.GPUs)+len(def.Models)+len(def.Cloud)+len(def.Data)+len(def.Nodes)+1+len(def.HPC)+len(def.Managed)+len(def.Grids)+len(def.PUEs)+len(def.Rates) {
		t.Errorf("Items(\"\") = %d entries", got)
	}
	if it, ok := def.Item("hpc", "caltech-hpc"); !ok || it.Name != "Caltech HPC" {
		t.Errorf("Item(hpc, caltech-hpc) = %+v", it)
	}
	if it, ok := def.Item("site", SiteID); !ok || it.Value.(Site).PUE < 1 {
		t.Errorf("Item(site) = %+v", it)
	}
	if it, ok := def.Item("data", "aws"); !ok || it.Name != "aws" {
		t.Errorf("Item(data, aws) = %+v", it)
	}
}

// TestExportEscapesFormulaLikeText: text a spreadsheet would run as a
// formula is written with a leading apostrophe, numbers are written as
// numbers, and the file imports back to the same catalog.
func TestExportEscapesFormulaLikeText(t *testing.T) {
	def := mustDefault(t)
	link := `=HYPERLINK("http://example.invalid/x","prices")`
	o := Overrides{Rows: []OverrideRow{
		{Kind: "gpu", ID: "h100-sxm", Field: "name", Value: "-H100 (sign first)", AsOf: "2026-09-01", Source: link},
		{Kind: "gpu", ID: "h100-sxm", Field: "note", Value: "@home; 'quoted'", AsOf: "2026-09-01", Source: link},
		{Kind: "cloud", ID: "aws-p5-h100", Field: "note", Value: "+1 spare", AsOf: "2026-09-01", Source: "'already quoted"},
		{Kind: "cloud", ID: "aws-p5-h100", Field: "on_demand", Value: "5.1", AsOf: "2026-09-01", Source: "\tTabbed"},
	}}
	eff, err := def.Apply(o)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := eff.ExportCSV(&b); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		`,'-H100 (sign first),`,
		`,"'=HYPERLINK(""http://example.invalid/x"",""prices"")"` + "\n",
		`,'@home; 'quoted',`,
		`,'+1 spare,`,
		`,''already quoted; ` + "\tTabbed", // the entry's sources joined
		"cloud,aws-p5-h100,on_demand,5.1,", // a number stays a number
	} {
		if !strings.Contains(text, want) {
			t.Errorf("export lacks %q", want)
		}
	}
	for i, line := range strings.Split(text, "\n") {
		for _, cell := range strings.Split(line, ",") {
			cell = strings.TrimPrefix(cell, `"`)
			if cell != "" && strings.ContainsRune("=+@\t\r", rune(cell[0])) {
				t.Errorf("line %d: cell %q starts like a formula", i+1, cell)
			}
		}
	}
	again, err := def.Apply(parse(t, text))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(again, eff) {
		t.Error("effective → export → apply to default differs from the effective catalog")
	}
	g := again.GPUs[slicesIndexGPU(again, "h100-sxm")]
	if g.Name != "-H100 (sign first)" || g.Source != link || g.Note != "@home; 'quoted'" {
		t.Errorf("read back name %q, source %q, note %q", g.Name, g.Source, g.Note)
	}
}

// TestWriteCSVKeepsNumbers: a value a spreadsheet reads as a number, sign
// included, is not escaped; the overrides read back unchanged.
func TestWriteCSVKeepsNumbers(t *testing.T) {
	o := Overrides{Rows: []OverrideRow{
		{Kind: "cloud", ID: "aws-p5-h100", Field: "spot", Value: "+2.5", AsOf: "2026-09-01", Source: "x"},
		{Kind: "cloud", ID: "aws-p5-h100", Field: "max_gpus", Value: "-0", AsOf: "2026-09-01", Source: "x"}, // zero: no stated limit
		{Kind: "hpc", ID: "caltech-hpc", Field: "queue_wait_hours", Value: "1;6;24", AsOf: "2026-09-01", Source: "x"},
	}}
	var b bytes.Buffer
	if err := o.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{",+2.5,", ",-0,", ",1;6;24,"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("WriteCSV lacks %q:\n%s", want, b.String())
		}
	}
	back := parse(t, b.String())
	for i := range back.Rows {
		back.Rows[i].Line = 0
	}
	if !reflect.DeepEqual(back, o) {
		t.Errorf("read back %+v, want %+v", back, o)
	}
}

func slicesIndexGPU(c *Catalog, id string) int {
	for i, g := range c.GPUs {
		if g.ID == id {
			return i
		}
	}
	return -1
}

// Rows of one kind are that kind's part of the export, with the entry's
// provenance; an override shows in the value it set.
func TestRowsOfOneKind(t *testing.T) {
	def := mustDefault(t)
	eff, err := def.Apply(parse(t, OverridesHeader+"\ncloud,aws-p5-h100,on_demand,5.10,2026-10-01,AWS pricing page\n"))
	if err != nil {
		t.Fatal(err)
	}
	all := eff.Rows("")
	var want []OverrideRow
	for _, r := range all {
		if r.Kind == "cloud" {
			want = append(want, r)
		}
	}
	got := eff.Rows("cloud")
	if len(got) == 0 || len(got) != len(want) {
		t.Fatalf("%d cloud rows, want %d", len(got), len(want))
	}
	found := false
	for i, r := range got {
		if r != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, r, want[i])
		}
		if r.ID == "aws-p5-h100" && r.Field == "on_demand" {
			found = r.Value == "5.1" && r.AsOf == "2026-10-01" && r.Source == "AWS pricing page"
		}
	}
	if !found {
		t.Error("the overridden price is not in the rows with its date and source")
	}
	defer func() {
		if recover() == nil {
			t.Error("Rows of an unknown kind did not panic")
		}
	}()
	eff.Rows("spaceship")
}

// The site's figures keep their own dates: the embedded site is dated by
// its newest figure (the 2025 electricity price, 2026-04-27) and lists the
// older ones (the PUE of the Uptime 2025 survey, 2025-07-01). A row
// dates only the figure it sets; the entry takes the newest date; the
// export writes each figure's own date, so it applies back unchanged.
func TestSiteFigureDates(t *testing.T) {
	def := mustDefault(t)
	if def.Site.AsOf != "2026-04-27" || def.Site.FigureAsOf("pue") != "2025-07-01" ||
		def.Site.FigureAsOf("electricity_per_kwh") != "2026-04-27" || def.Site.FigureAsOf("colo_per_kw_month") != "2025-02-26" {
		t.Fatalf("embedded site dated %s, figures %v", def.Site.AsOf, def.Site.FiguresAsOf)
	}
	c, err := def.Apply(Overrides{Rows: []OverrideRow{{Kind: "site", ID: SiteID, Field: "electricity_per_kwh", Value: "0.09", AsOf: "2026-10-01", Source: "utility bill"}}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Site.AsOf != "2026-10-01" || c.Site.FigureAsOf("electricity_per_kwh") != "2026-10-01" ||
		c.Site.FigureAsOf("pue") != "2025-07-01" || c.Site.FigureAsOf("maintenance_per_year") != "2024-03-01" {
		t.Errorf("after an electricity row: site %s, figures %v", c.Site.AsOf, c.Site.FiguresAsOf)
	}
	if def.Site.FigureAsOf("electricity_per_kwh") != "2026-04-27" {
		t.Errorf("Apply changed the catalog it was given: %v", def.Site.FiguresAsOf)
	}
	var out bytes.Buffer
	if err := c.ExportCSV(&out); err != nil {
		t.Fatal(err)
	}
	o, err := ParseOverridesCSV(&out)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range o.Rows {
		if r.Kind == "site" && r.AsOf != c.Site.FigureAsOf(r.Field) {
			t.Errorf("export: site %s dated %s, want %s", r.Field, r.AsOf, c.Site.FigureAsOf(r.Field))
		}
	}
	if back, err := def.Apply(o); err != nil || !reflect.DeepEqual(back.Site, c.Site) {
		t.Errorf("the export applies back to site %+v (%v), want %+v", back.Site, err, c.Site)
	}
	bad := *def
	bad.Site.FiguresAsOf = map[string]string{"power": "2025-01-01", "pue": "July"}
	if err := bad.check(); err == nil || !strings.Contains(err.Error(), `figures_as_of names "power"`) || !strings.Contains(err.Error(), `figures_as_of of pue "July" is not a YYYY-MM-DD date`) {
		t.Errorf("bad figures_as_of: %v", err)
	}
}

// A CSV cell reads a number as every number entry does: a spreadsheet's
// grouped "1,234.5" in a quoted cell, "1_000", an exponent; a decimal
// comma or a misplaced group is refused, not misread.
func TestOverrideNumbersReadAsEntriesDo(t *testing.T) {
	float := reflect.TypeFor[float64]()
	for raw, want := range map[string]float64{"1,234.5": 1234.5, "1_000": 1000, "2.5e3": 2500, " 5.10 ": 5.10, "1 000": 1000} {
		v, err := parseValue(float, raw)
		if err != nil || v.Float() != want {
			t.Errorf("%q read as %v, %v; want %v", raw, v, err, want)
		}
	}
	for _, raw := range []string{"5,10", "1,23.4", "0x10", "Inf"} {
		if _, err := parseValue(float, raw); err == nil {
			t.Errorf("%q read as a number", raw)
		}
	}
	if v, err := parseValue(reflect.TypeFor[int](), "1,024"); err != nil || v.Int() != 1024 {
		t.Errorf("1,024 read as %v, %v", v, err)
	}
	def := mustDefault(t)
	eff, err := def.Apply(parse(t, OverridesHeader+"\n"+
		"cloud,aws-p5-h100,on_demand,\"1,234.5\",2026-10-01,AWS pricing page\n"))
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := eff.CloudOffer("aws-p5-h100"); o.OnDemand != 1234.5 {
		t.Errorf("on_demand %v, want 1234.5", o.OnDemand)
	}
}
