package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"hostplan/internal/atomicfile"
	"hostplan/internal/catalog"
	"hostplan/internal/present"
)

func init() {
	register(command{"catalog", "list|show|import|export|reset …", "the dated price catalog and your overrides of it (hostplan catalog help)", runCatalog})
}

// catalogUsage is what hostplan catalog help prints; the kinds and the
// lists come from the catalog's table of kinds.
func catalogUsage() string {
	lists := strings.Join(tableNames(), "|")
	return `Usage:
  hostplan catalog list [KIND]            every entry with its as_of date and source; "override" marks yours
  hostplan catalog show KIND/ID           one entry as JSON (hostplan catalog show cloud/aws-p5-h100, show site)
  hostplan catalog import FILE.csv        add your prices; a file with any bad row is refused whole
  hostplan catalog export [-o FILE]       the catalog in use as CSV (--overrides: only your rows;
                                          --force replaces an existing FILE)
  hostplan catalog reset                  remove all your overrides
  hostplan catalog ` + lists + `   the figures of one kind as a table

KIND is one of ` + strings.Join(catalog.KindNames(), ", ") + `.
The CSV has the header kind,id,field,value,as_of,source and one row per
field: cloud,aws-p5-h100,on_demand,5.10,2026-10-01,AWS pricing page
An entry you change takes the oldest as_of of its rows and their sources.
A new id adds an entry, which must give every field (export one to copy).
`
}

// tables are the kind-specific lists kept from the first catalog command,
// each run as hostplan catalog and the kind's plural (gpus, models, …).
var tables = map[catalog.Kind]func(cat *catalog.Catalog, tw io.Writer){
	catalog.KindGPU: tableGPUs, catalog.KindModel: tableModels, catalog.KindCloud: tableCloud,
	catalog.KindNode: tableNodes, catalog.KindHPC: tableHPC, catalog.KindManaged: tableManaged,
}

// tableNames are the words that run the kind-specific lists, in catalog
// order.
func tableNames() []string {
	var out []string
	for _, k := range catalog.Kinds() {
		if tables[k] != nil {
			out = append(out, k.Plural())
		}
	}
	return out
}

func runCatalog(e *env, args []string) error {
	subs := append([]string{"list", "show", "import", "export", "reset", "diff"}, tableNames()...)
	if len(args) == 0 {
		return usagef("catalog: give one of %s (hostplan catalog help)", strings.Join(subs, ", "))
	}
	switch args[0] {
	case "help", "-h", "--help":
		_, err := io.WriteString(e.stdout, catalogUsage())
		return err
	case "list":
		return runCatalogList(e, args[1:])
	case "show":
		return runCatalogShow(e, args[1:])
	case "import":
		return runCatalogImport(e, args[1:])
	case "export":
		return runCatalogExport(e, args[1:])
	case "reset":
		return runCatalogReset(e, args[1:])
	case "diff":
		return runCatalogDiff(e, args[1:])
	}
	var table func(*catalog.Catalog, io.Writer)
	if k, ok := catalog.ParseKind(args[0]); ok && k.Plural() == args[0] {
		table = tables[k]
	}
	if table == nil {
		return usagef("catalog: %q is not a catalog list (allowed: %s)", args[0], strings.Join(subs, ", "))
	}
	if len(args) > 1 {
		return usagef("catalog %s: unexpected argument %q", args[0], args[1])
	}
	cat, err := e.plan.Catalog()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	table(cat, tw)
	return tw.Flush()
}

// catalogKind reads a KIND argument; the plural list names (gpus, models,
// nodes, …) are accepted too.
func catalogKind(cmd, arg string) (catalog.Kind, error) {
	if k, ok := catalog.ParseKind(arg); ok {
		return k, nil
	}
	return "", usagef("%s: %q is not a catalog kind (allowed: %s)", cmd, arg, strings.Join(catalog.KindNames(), ", "))
}

func runCatalogList(e *env, args []string) error {
	fs := flags(e, "catalog list")
	stale := fs.Bool("stale", false, fmt.Sprintf("list the price figures more than %d months older than the catalog's newest price", catalog.StaleMonths))
	args, err := parse(fs, args)
	if err != nil {
		return err
	}
	if *stale {
		if len(args) > 0 {
			return usagef("catalog list --stale: unexpected argument %q (it reviews every price kind)", args[0])
		}
		return listStale(e)
	}
	var kind catalog.Kind
	switch len(args) {
	case 0:
	case 1:
		k, err := catalogKind("catalog list", args[0])
		if err != nil {
			return err
		}
		kind = k
	default:
		return usagef("catalog list: give at most one KIND (allowed: %s)", strings.Join(catalog.KindNames(), ", "))
	}
	cat, err := e.plan.Catalog()
	if err != nil {
		return err
	}
	items := cat.Items(kind)
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "KIND\tID\tNAME\tAS OF\tSOURCE\tOVERRIDE")
	var entries []catalog.Entry
	overridden := 0
	for _, it := range items {
		name, mark := it.Name, ""
		if it.Kind == "site" {
			name = "on-premises site defaults"
		}
		if it.Entry.Overridden {
			mark = "override"
			overridden++
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", it.Kind, it.ID, name, it.Entry.AsOf, shorten(it.Entry.Source, 60), mark)
		entries = append(entries, it.Entry)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "%s, %d overridden; oldest as_of %s (hostplan catalog show KIND/ID for the whole source)\n",
		nouns(len(items), "entry", "entries"), overridden, catalog.OldestAsOf(entries...))
	return nil
}

// shorten cuts s to n characters, marking the cut with an ellipsis.
func shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

func runCatalogShow(e *env, args []string) error {
	var kindArg, id string
	switch {
	case len(args) == 1 && strings.Contains(args[0], "/"):
		kindArg, id, _ = strings.Cut(args[0], "/")
	case len(args) == 1 && args[0] == "site":
		kindArg, id = "site", catalog.SiteID
	case len(args) == 2:
		kindArg, id = args[0], args[1]
	default:
		return usagef("catalog show: give KIND/ID, e.g. cloud/aws-p5-h100 (KIND: %s)", strings.Join(catalog.KindNames(), ", "))
	}
	kind, err := catalogKind("catalog show", kindArg)
	if err != nil {
		return err
	}
	cat, err := e.plan.Catalog()
	if err != nil {
		return err
	}
	it, ok := cat.Item(kind, id)
	if !ok {
		var ids []string
		for _, x := range cat.Items(kind) {
			ids = append(ids, x.ID)
		}
		return usagef("catalog show: no %s %q in the catalog (allowed: %s)", kind, id, strings.Join(ids, ", "))
	}
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(it.Value)
}

// refused prints every problem of an import as FILE: line N: … and returns
// the usage error that ends the command.
func refused(e *env, file string, err error) error {
	var es catalog.OverrideErrors
	if !errors.As(err, &es) {
		return err
	}
	for _, x := range es {
		if x.Line > 0 {
			fmt.Fprintf(e.stderr, "%s: %s\n", file, x)
		} else { // a stored row: only the store can be the cause
			fmt.Fprintf(e.stderr, "hostplan: stored catalog override: %s\n", x)
		}
	}
	return usagef("catalog import: %s refused (%s); nothing was imported", file, nouns(len(es), "problem", "problems"))
}

func runCatalogImport(e *env, args []string) error {
	fs := flags(e, "catalog import")
	asOf := fs.String("as-of", "", "the date of a SkyPilot catalog (YYYY-MM-DD): when its prices were fetched")
	commit := fs.String("commit", "", "the skypilot-catalog commit the files come from, for the offers' source")
	cloud := fs.String("cloud", "", "the SkyPilot cloud of a single vms.csv (default: its folder's name)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("catalog import: give one overrides CSV (header %s), or a SkyPilot vms.csv or folder of them", catalog.OverridesHeader)
	}
	file := pos[0]
	if sky, err := skyPilotPath(file); err != nil {
		return err
	} else if sky {
		return importSkyPilot(e, file, *asOf, *commit, *cloud)
	}
	if *asOf != "" || *commit != "" || *cloud != "" {
		return usagef("catalog import: --as-of, --commit and --cloud are for a SkyPilot catalog; %s is an overrides CSV, whose rows carry their own dates", file)
	}
	b, err := readLimited(file, catalog.MaxCSVBytes, "an overrides CSV")
	if err != nil {
		return err
	}
	rows, err := catalog.ParseOverridesCSV(bytes.NewReader(b))
	if err != nil {
		return refused(e, file, err)
	}
	// A refused file changes nothing, and leaves no new store behind.
	im, err := e.plan.ImportOverrides(rows)
	if err != nil {
		return refused(e, file, err)
	}
	fmt.Fprintf(e.stdout, "%s: imported %s; %s overridden (%d new); the store keeps %s\n",
		file, nouns(len(rows.Rows), "row", "rows"), nouns(im.Changed, "catalog entry is", "catalog entries are"), im.Added, nouns(len(im.Kept.Rows), "override row", "override rows"))
	return nil
}

func runCatalogExport(e *env, args []string) error {
	fs := flags(e, "catalog export")
	out := fs.String("o", "", "write to this file instead of standard output")
	only := fs.Bool("overrides", false, "only the override rows kept in the store")
	force := fs.Bool("force", false, "replace the -o file if it exists")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("catalog export: unexpected argument %q (use -o FILE)", pos[0])
	}
	var buf bytes.Buffer
	if *only {
		o, err := e.plan.Overrides()
		if err != nil {
			return err
		}
		err = o.WriteCSV(&buf)
		if err != nil {
			return err
		}
	} else {
		cat, err := e.plan.Catalog()
		if err != nil {
			return err
		}
		if err := cat.ExportCSV(&buf); err != nil {
			return err
		}
	}
	if *out == "" {
		_, err := e.stdout.Write(buf.Bytes())
		return err
	}
	rows := bytes.Count(buf.Bytes(), []byte("\n")) - 1 // less the header (a quoted newline would count: none in the catalog)
	o := newOutputs("catalog export", *force)
	if _, err := o.check(*out, nil); err != nil {
		return err
	}
	if err := o.refused(e.stderr); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("%s: %w", *out, unwrapPath(err))
	}
	o.replaced(e.stderr)
	fmt.Fprintf(e.stdout, "wrote %s (%d rows)\n", *out, rows)
	return nil
}

func runCatalogReset(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("catalog reset takes no arguments")
	}
	b, err := e.plan.ResetOverrides()
	if err != nil {
		return err
	}
	if len(b) == 0 {
		fmt.Fprintln(e.stdout, "no catalog overrides to remove")
		return nil
	}
	what := "the stored catalog overrides (unreadable)"
	if o, err := catalog.DecodeOverrides(b); err == nil {
		entries := map[string]bool{}
		for _, r := range o.Rows {
			entries[r.Kind+"/"+r.ID] = true
		}
		what = fmt.Sprintf("%s (%s)", nouns(len(o.Rows), "override row", "override rows"), nouns(len(entries), "entry", "entries"))
	}
	fmt.Fprintf(e.stdout, "removed %s; the built-in catalog applies again\n", what)
	return nil
}

// nouns writes n with the singular or plural noun.
func nouns(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func mark(en catalog.Entry) string {
	if en.Overridden {
		return "override"
	}
	return ""
}

func tableGPUs(cat *catalog.Catalog, tw io.Writer) {
	fmt.Fprintln(tw, "ID\tNAME\tBF16 TFLOP/s\tFP8 TFLOP/s\tMEMORY GB\tGB/s\tWATTS\tAS OF\t")
	for _, g := range cat.GPUs {
		fmt.Fprintf(tw, "%s\t%s\t%g\t%g\t%g\t%g\t%g\t%s\t%s\n", g.ID, g.Name, g.BF16TFLOPs, g.FP8TFLOPs, g.MemoryGB, g.BandwidthGBs, g.PowerW, g.AsOf, mark(g.Entry))
	}
}

func tableModels(cat *catalog.Catalog, tw io.Writer) {
	fmt.Fprintln(tw, "ID\tNAME\tPARAMS B\tACTIVE B\tLAYERS\tKV HEADS\tHEAD DIM\t")
	for _, m := range cat.Models {
		fmt.Fprintf(tw, "%s\t%s\t%g\t%g\t%d\t%d\t%d\t%s\n", m.ID, m.Name, m.ParamsB, m.ActiveParamsB, m.Layers, m.KVHeads, m.HeadDim, mark(m.Entry))
	}
}

func tableCloud(cat *catalog.Catalog, tw io.Writer) {
	fmt.Fprintln(tw, "ID\tGPU\tREGION\tON DEMAND\t1 YEAR\t3 YEARS\tSPOT\tAS OF\tSOURCE\t")
	for _, o := range cat.Cloud {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%s\t%s\t%s\t%s\t%s\t%s\n", o.ID, o.GPU, o.Region, o.OnDemand, price(o.Commit1Y), price(o.Commit3Y), price(o.Spot), o.AsOf, o.Source, mark(o.Entry))
	}
}

func tableNodes(cat *catalog.Catalog, tw io.Writer) {
	fmt.Fprintln(tw, "ID\tNAME\tGPUS\tPRICE\tkW TYPICAL\tLEAD WEEKS\tAS OF\t")
	for _, n := range cat.Nodes {
		fmt.Fprintf(tw, "%s\t%s\t%d × %s\t%s\t%g\t%g\t%s\t%s\n", n.ID, n.Name, n.GPUs, n.GPU, present.Whole(n.Price), n.PowerKWTypical, n.LeadTimeWeeks, n.AsOf, mark(n.Entry))
	}
}

func tableHPC(cat *catalog.Catalog, tw io.Writer) {
	fmt.Fprintln(tw, "ID\tCENTRE\tGPU\tPER GPU-HOUR\tWALL TIME h\tMAX GPUS\tAS OF\t")
	for _, p := range cat.HPC {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.2f %s\t%g\t%d\t%s\t%s\n", p.ID, p.Centre, p.GPU, p.PricePerGPUHour, p.Currency, p.WalltimeHours, p.MaxGPUs, p.AsOf, mark(p.Entry))
	}
}

func tableManaged(cat *catalog.Catalog, tw io.Writer) {
	fmt.Fprintln(tw, "ID\tNAME\tKIND\tIN /M\tOUT /M\tTRAIN /M\tAS OF\t")
	for _, m := range cat.Managed {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%g\t%g\t%g\t%s\t%s\n", m.ID, m.Name, m.Kind, m.PriceInPerM, m.PriceOutPerM, m.TrainPerMTokens, m.AsOf, mark(m.Entry))
	}
}

func price(x float64) string {
	if x == 0 {
		return "—"
	}
	return fmt.Sprintf("%.3f", x)
}

// listStale prints every price figure of the catalog in use dated more
// than catalog.StaleMonths before its newest price, oldest first.
func listStale(e *env) error {
	cat, err := e.plan.Catalog()
	if err != nil {
		return err
	}
	rows, ref := cat.Stale()
	w, done := e.safeOut()
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "AS OF\tKIND\tID\tFIELD\tVALUE\tSOURCE")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", r.AsOf, r.Kind, r.ID, r.Field, r.Value, shorten(r.Source, 50))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(w, "%s more than %d months older than the catalog's newest price (%s); a report names those its cost leans on (stale_price)\n",
		nouns(len(rows), "figure is", "figures are"), catalog.StaleMonths, ref.Format("2006-01-02"))
	return done()
}

// runCatalogDiff lists what changed from one catalog to another: each is
// "default" (the built-in catalog), "current" (the catalog in use: the
// built-in one with the store's overrides) or a CSV file (an export, or
// override rows applied to the built-in catalog).
func runCatalogDiff(e *env, args []string) error {
	fs := flags(e, "catalog diff")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef(`catalog diff: give OLD and NEW, each "default", "current" or a CSV file`)
	}
	var cats [2]*catalog.Catalog
	var names [2]string
	for i, arg := range pos {
		if arg == "current" {
			if cats[i], err = e.plan.Catalog(); err != nil {
				return err
			}
			names[i] = "the catalog in use"
			continue
		}
		if cats[i], names[i], err = catalogFrom(e, "catalog diff:", arg); err != nil {
			return err
		}
	}
	changes := catalog.Diff(cats[0], cats[1])
	w, done := e.safeOut()
	moved, added, removed := 0, 0, 0
	for _, c := range changes {
		fmt.Fprintln(w, c)
		switch c.What {
		case "added":
			added++
		case "removed":
			removed++
		default:
			moved++
		}
	}
	fmt.Fprintf(w, "From %s to %s: %s changed, %s added, %s removed\n", names[0], names[1],
		nouns(moved, "field", "fields"), nouns(added, "entry", "entries"), nouns(removed, "entry", "entries"))
	return done()
}
