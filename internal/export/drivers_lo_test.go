package export

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/testtool"
)

// TestLibreOfficeFollowsDrivers is the workbook's promise, judged as
// finance would use it: for every example, each named driver is changed in
// turn in the written file (its Likely cell, and the case selector to low
// and to high), LibreOffice recalculates, and every formula cell of the
// cost sheets — read through the Audit sheet's live column — equals the
// engine evaluating the same change: the scenario field set, or the catalog
// price overridden, with the offers pinned; a model estimate no field sets
// (a direction's staff) is changed in the engine's drivers and derived
// again. The unchanged file recalculates to the engine's numbers with every
// Audit difference within 1e-9, and at least 95 % of the named inputs are
// read by some formula. All the files of all examples go through one
// LibreOffice run.
func TestLibreOfficeFollowsDrivers(t *testing.T) {
	soffice := testtool.Need(t, "soffice", "make test-workbook")
	dir := t.TempDir()
	edits, drivers := driverEdits(t, dir, false)
	edits = append(edits, issueEdits(t, dir)...)
	paths := make([]string, len(edits))
	for i, e := range edits {
		paths[i] = e.file
	}
	audit := slices.Index(sheetOrder(nil), sheetAudit) + 1
	out := filepath.Join(dir, "csv")
	convertSheetCSV(t, soffice, filepath.Join(dir, "home"), out, audit, paths...)
	checkEdits(t, edits, drivers, func(e sweepEdit) string {
		return filepath.Join(out, strings.TrimSuffix(filepath.Base(e.file), ".xlsx")+"-"+sheetAudit+".csv")
	})
}

// sweepEdit is one changed workbook of a sweep and what the engine says
// of the same change.
type sweepEdit struct {
	file  string // the changed workbook
	what  string
	want  map[string]auditCell // the engine's value of each audited cell, by Sheet!Cell
	noCmp bool                 // no break-even points to compare (a change the engine derives again)
	bad   bool                 // an inconsistent edit: the integrity problems are above 0
}

// driverEdits writes into dir, for every example, the workbook with each
// named driver changed in turn (its Likely cell, and the case selector to
// low and to high), each with the engine's report of the same change (see
// TestLibreOfficeFollowsDrivers); it returns them and the number of
// drivers changed. With once, a driver the examples share by name is
// changed in the first example that has it only.
func driverEdits(t *testing.T, dir string, once bool) ([]sweepEdit, int) {
	seen := map[string]bool{}
	first := func(name string) bool {
		if !once {
			return true
		}
		if seen[name] {
			return false
		}
		seen[name] = true
		return true
	}
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	type edit = sweepEdit
	var edits []edit
	var paths []string
	drivers := 0
	for _, ex := range append(exampleReports(t), daytime(t, cat)) {
		s, r := ex.s, ex.r
		pinned := scenario.Clone(s)
		pinOffers(pinned, r)
		if p := evaluate(t, pinned, cat); !sameCosts(p, r) {
			t.Fatalf("%s: pinning the offers changed the costs", ex.name)
		}
		b := build(s, r, nil)
		if b.err != nil {
			t.Fatal(b.err)
		}
		var buf bytes.Buffer
		if err := b.f.Write(&buf); err != nil {
			t.Fatal(err)
		}
		base := buf.Bytes()
		coverage(t, ex.name, b)
		bad := false // whether the next edit is inconsistent
		add := func(what string, set func([]byte) []byte, want *model.Report, ws *scenario.Scenario, noCmp bool) {
			file := filepath.Join(dir, fmt.Sprintf("%s-%02d.xlsx", ex.name, len(edits)))
			writeFile(t, file, set(base))
			edits = append(edits, edit{file: file, what: ex.name + ": " + what, want: auditMap(t, ws, want), noCmp: noCmp, bad: bad})
			paths = append(paths, file)
			bad = false
		}
		add("as exported", func(b []byte) []byte { return b }, r, s, false)
		rows, _ := collectDrivers(s, r)
		for _, d := range rows {
			in := d.in
			if !first(in.Name) {
				continue
			}
			x := perturbed(in)
			at := b.names[in.Name]
			likely := cell(colDrvLikely, at.row)
			set := func(b []byte) []byte {
				return setCell(t, b, sheetDrivers, likely, strconv.FormatFloat(x, 'g', -1, 64), false)
			}
			what := fmt.Sprintf("%s %v → %v", in.Name, in.Value, x)
			// Out of its bounds, or of its estimate's range: inconsistent.
			rng, bounded := driverBound(in)
			bad = bounded && !rng.Contains(x) || in.Estimate && (x < in.Low || x > in.High)
			if bad {
				what += " (inconsistent)"
			}
			if in.Field == "" && in.Catalog == "" {
				add(what, set, rederived(s, r, in.Name, x), s, true)
			} else {
				changed := change(t, pinned, in, x)
				add(what, set, evaluate(t, changed, cat), changed, false)
			}
			drivers++
		}
		// A converted catalog price's price in its own currency, and the
		// exchange rate every such price goes through.
		for _, d := range withRates(r, rows) {
			own := d.in.Name + "_" + strings.ToLower(d.in.FromCurrency)
			if d.likely == "" || !first(own) {
				continue
			}
			rate := r.ExchangeRates[slices.IndexFunc(r.ExchangeRates, func(x model.ExchangeRate) bool { return x.From == d.in.FromCurrency })].Rate
			p := unconverted(d.in.Value, rate)
			x := p*1.25 + 0.5
			likely := cell(colDrvLikely, b.names[own].row)
			set := func(b []byte) []byte {
				return setCell(t, b, sheetDrivers, likely, strconv.FormatFloat(x, 'g', -1, 64), false)
			}
			changed := change(t, pinned, model.CostInput{Catalog: d.in.Catalog}, x*rate)
			add(fmt.Sprintf("%s %v → %v", own, p, x), set, evaluate(t, changed, cat), changed, false)
			drivers++
		}
		for _, x := range r.ExchangeRates {
			at, ok := b.names[rateName(x.From, x.To)]
			if !ok || !first(rateName(x.From, x.To)) {
				continue
			}
			const rate = 0.8
			changed := scenario.Clone(pinned)
			changed.ExchangeRates = append(slices.DeleteFunc(changed.ExchangeRates, func(g scenario.ExchangeRate) bool { return g.Currency == x.From }),
				scenario.ExchangeRate{Currency: x.From, Rate: rate, AsOf: "2026-01-01", Source: "test"})
			likely := cell(colDrvLikely, at.row)
			add(fmt.Sprintf("%s %v → %v", rateName(x.From, x.To), x.Rate, rate), func(b []byte) []byte {
				return setCell(t, b, sheetDrivers, likely, strconv.FormatFloat(rate, 'g', -1, 64), false)
			}, evaluate(t, changed, cat), changed, false)
			drivers++
		}
		// Inconsistent: the first driver's low above its likely value (the
		// costs, at the likely case, do not move).
		first := rows[0]
		bad = true
		add(fmt.Sprintf("%s low → %v (above likely, inconsistent)", first.in.Name, first.in.Value*10+10), func(x []byte) []byte {
			return setCell(t, x, sheetDrivers, cell(colDrvLow, b.names[first.in.Name].row), strconv.FormatFloat(first.in.Value*10+10, 'g', -1, 64), false)
		}, r, s, false)
		for _, c := range []string{"low", "high"} {
			changed := scenario.Clone(pinned)
			for _, d := range rows {
				if d.in.Estimate {
					x := d.in.Low
					if c == "high" {
						x = d.in.High
					}
					changed = setField(t, changed, d.in.Field, x)
				}
			}
			add("case "+c, func(b []byte) []byte { return setCell(t, b, sheetDrivers, "B2", c, true) }, evaluate(t, changed, cat), changed, false)
		}
		// Every estimate at each case, the plan figures too: the workbook
		// with the engine's reports at each case (Extras.Cases). The
		// break-even points keep plan figures of the likely case.
		cs := &Cases{Low: evaluate(t, CaseScenario(s, "low"), cat), High: evaluate(t, CaseScenario(s, "high"), cat)}
		bc := build(s, r, &Extras{Cases: cs})
		if bc.err != nil {
			t.Fatal(bc.err)
		}
		var withCases bytes.Buffer
		if err := bc.f.Write(&withCases); err != nil {
			t.Fatal(err)
		}
		for _, c := range []string{"low", "high"} {
			want := map[string]*model.Report{"low": cs.Low, "high": cs.High}[c]
			add("every estimate at "+c+", plan figures by case", func([]byte) []byte {
				return setCell(t, withCases.Bytes(), sheetDrivers, "B2", c, true)
			}, want, CaseScenario(s, c), true)
		}
	}
	if drivers < 60 && !once || drivers < 30 {
		t.Fatalf("only %d drivers over the examples: too few to judge", drivers)
	}
	_ = paths
	return edits, drivers
}

// checkEdits compares, for every edit, the Audit sheet a spreadsheet
// recalculated (read from the CSV file csvOf names) with the engine on
// the same change: every audited cell within relTol, the integrity
// problems 0 after a valid edit and above 0 after an inconsistent one,
// and no difference at all in a workbook as exported.
func checkEdits(t *testing.T, edits []sweepEdit, drivers int, csvOf func(sweepEdit) string) {
	checked, integrity := 0, 0
	for _, e := range edits {
		rows, err := readCSV(csvOf(e))
		if err != nil {
			t.Fatalf("%s: %v", e.what, err)
		}
		// The integrity problems: 0 after a valid edit, above 0 after an
		// inconsistent one.
		if len(rows) < 4 || len(rows[3]) < 2 {
			t.Fatalf("%s: no integrity problems on Audit row 4", e.what)
		}
		if n, err := strconv.ParseFloat(rows[3][1], 64); err != nil || e.bad != (n > 0) {
			t.Errorf("%s: integrity problems %q (inconsistent edit: %v)", e.what, rows[3][1], e.bad)
		} else {
			integrity++
		}
		for _, row := range rows[rowAudHeader:] {
			if len(row) < colAudFlag {
				continue
			}
			key := row[colAudSheet-1] + "!" + row[colAudCell-1]
			want, ok := e.want[key]
			if !ok || want.what != row[colAudWhat-1] || e.noCmp && want.sheet == sheetComparisons {
				continue // a break-even month the change made or ended
			}
			got := row[colAudLive-1]
			if want.none {
				if got != want.shows {
					t.Errorf("%s: %s (%s) = %q, the engine shows %q", e.what, key, want.what, got, want.shows)
				}
				continue
			}
			x, err := csvNumber([][]string{{got}}, 1, 1) // a percentage's % read as ÷ 100
			if err != nil || !closeTo(x, want.engine, relTol) {
				t.Errorf("%s: %s (%s) = %q, the engine %.10g", e.what, key, want.what, got, want.engine)
			}
			checked++
			if strings.HasSuffix(e.what, "as exported") {
				// Recalculated unchanged: the Audit shows no difference.
				d, err := csvNumber([][]string{{row[colAudDiff-1]}}, 1, 1) // a percentage's % read as ÷ 100
				if err != nil || math.Abs(d) > auditTolerance*math.Max(math.Abs(want.engine), want.scale) || row[colAudFlag-1] != "" {
					t.Errorf("%s: Audit of %s: difference %q, flag %q", e.what, key, row[colAudDiff-1], row[colAudFlag-1])
				}
			}
		}
	}
	t.Logf("%d changed workbooks, %d drivers, %d cells compared with the engine, %d integrity totals as expected", len(edits), drivers, checked, integrity)
}

// daytime is the support assistant example at its peak four hours a day, rented on demand: its
// rented replicas follow the load, and the traffic search prices them so.
func daytime(t *testing.T, cat *catalog.Catalog) example {
	for _, ex := range exampleReports(t) {
		if ex.s.Workload.Shape == scenario.ShapeInteractive {
			s := scenario.Clone(ex.s)
			s.Workload.Traffic.PeakHoursPerDay = scenario.Known(4)
			s.Options.Cloud.Pricing = "on_demand"
			r := evaluate(t, s, cat)
			if d, _ := model.FollowedDay(s); d == nil || r.Direction(scenario.Cloud) == nil {
				t.Fatalf("%s at its peak 4 h a day: no load followed in the cloud", ex.name)
			}
			return example{name: ex.name + "-daytime", s: s, r: r}
		}
	}
	t.Fatal("no interactive example")
	return example{}
}

// coverage checks that at least 95 % of the named inputs (drivers and plan
// figures) are read by some formula of the workbook.
func coverage(t *testing.T, name string, b *book) {
	t.Helper()
	token := regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*`)
	read := map[string]bool{}
	for sheet, rows := range b.written {
		for row, cols := range rows {
			for col, w := range cols {
				if w != "=" {
					continue
				}
				f, err := b.f.GetCellFormula(sheet, cell(col, row))
				if err != nil {
					t.Fatal(err)
				}
				for _, tok := range token.FindAllString(f, -1) {
					read[tok] = true
				}
			}
		}
	}
	var names, unread []string
	for n, at := range b.names {
		if at.sheet == sheetDrivers && n != nameCase {
			names = append(names, n)
			if !read[n] {
				unread = append(unread, n)
			}
		}
	}
	share := 1 - float64(len(unread))/float64(len(names))
	t.Logf("%s: %d named inputs, %.1f %% read by a formula; unread: %v", name, len(names), 100*share, unread)
	if share < 0.95 || len(names) < 10 {
		t.Errorf("%s: %.1f %% of %d named inputs read by a formula, want ≥ 95 %%; unread: %v", name, 100*share, len(names), unread)
	}
}

// perturbed is a new value for an input: larger, within its bounds.
func perturbed(in model.CostInput) float64 {
	switch in.Driver {
	case costid.HorizonMonths:
		return min(in.Value+5, float64(maxHorizonMonths))
	case costid.ExpectedUtilisation, costid.IdlePowerFraction, costid.MaintenancePerYear:
		return in.Value*0.5 + 0.2
	case costid.PUE:
		return min(in.Value*1.25, 3)
	}
	return in.Value*1.25 + 0.5
}

// change is s with input in at x: its scenario field set (an option's
// field before the catalog's price), or else its catalog entry overridden.
func change(t *testing.T, s *scenario.Scenario, in model.CostInput, x float64) *scenario.Scenario {
	if in.Field != "" && (in.Catalog == "" || strings.HasPrefix(in.Field, "options.")) {
		return setField(t, s, in.Field, x)
	}
	c := scenario.Clone(s)
	p := strings.Split(in.Catalog, "/")
	c.PriceOverrides = append(c.PriceOverrides, scenario.PriceOverride{Kind: p[0], ID: p[1], Field: p[2],
		Value: strconv.FormatFloat(x, 'g', -1, 64), AsOf: "2026-01-01", Source: "test"})
	return c
}

// setField sets the scenario field at path to the number x, through the
// scenario's JSON.
func setField(t *testing.T, s *scenario.Scenario, path string, x float64) *scenario.Scenario {
	t.Helper()
	b, err := scenario.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	keys := strings.Split(path, ".")
	at := m
	for _, k := range keys[:len(keys)-1] {
		next, ok := at[k].(map[string]any)
		if !ok {
			next = map[string]any{}
			at[k] = next
		}
		at = next
	}
	at[keys[len(keys)-1]] = x
	if b, err = json.Marshal(m); err != nil {
		t.Fatal(err)
	}
	out, err := scenario.Parse(b)
	if err != nil {
		t.Fatalf("%s = %v: %v", path, x, err)
	}
	return out
}

// pinOffers sets in s the offers r chose, so that a catalog price changed
// later does not change the choice.
func pinOffers(s *scenario.Scenario, r *model.Report) {
	for _, d := range r.Directions {
		if d.Offer == "" {
			continue
		}
		switch d.Direction {
		case scenario.Managed:
			s.Options.Managed.Offer = d.Offer
			// And its pricing: per token or a dedicated deployment.
			switch d.CostModel {
			case costid.ManagedInteractiveCosts:
				s.Options.Managed.Pricing = "per_token"
			case costid.ManagedDedicatedCosts:
				s.Options.Managed.Pricing = "dedicated"
			}
		case scenario.Cloud:
			s.Options.Cloud.Offer = d.Offer
		case scenario.OnPrem:
			s.Options.OnPrem.Node = d.Offer
		case scenario.HPC:
			s.Options.HPC.Partition = d.Offer
		}
	}
}

func evaluate(t *testing.T, s *scenario.Scenario, cat *catalog.Catalog) *model.Report {
	t.Helper()
	r, err := model.Evaluate(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func sameCosts(a, b *model.Report) bool {
	for i := range a.Directions {
		if a.Directions[i].CostHorizon != b.Directions[i].CostHorizon {
			return false
		}
	}
	return true
}

// rederived is r with every input named name at x and the costs derived
// again by the cost identity (the on-premises bridge reading the cloud's
// cost per run and verdict taken again first), and the verdicts the drivers decide
// — within the budget cap and the team's staff — taken again as the
// engine takes them.
func rederived(s *scenario.Scenario, r *model.Report, name string, x float64) *model.Report {
	c := *r
	c.Directions = append([]model.DirectionResult(nil), r.Directions...)
	for i := range c.Directions {
		d := &c.Directions[i]
		if d.CostModel == costid.NoCostModel {
			continue
		}
		v := *d.Drivers
		d.Drivers = &v
		for _, in := range d.CostInputs {
			if in.Name == name {
				v[in.Driver] = x
			}
		}
		if d.Direction == scenario.OnPrem && d.CostModel != costid.OnPremExistingCosts {
			cl := c.Direction(scenario.Cloud)
			v[costid.CloudFeasible] = 0
			if cl.Feasible {
				v[costid.CloudFeasible] = 1
			}
		}
		d.DeriveCosts(c.Workload.RunsPerMonth, c.HorizonMonths, true)
		d.StaffFTE = v[costid.StaffFTE]
		only := true
		for _, re := range d.Reasons {
			only = only && checkedReasons[re.Code]
		}
		if only {
			cap, team := s.Dimensions.Economics.BudgetCap, s.Dimensions.Operations.StaffFTE
			d.Feasible = (!cap.IsSet() || d.CostHorizon <= cap.Likely) && d.StaffFTE <= team.Or(0)+1e-9
		}
	}
	return &c
}

// auditMap is the engine's value of each cell the Audit sheet of s and r
// checks, by Sheet!Cell.
func auditMap(t *testing.T, s *scenario.Scenario, r *model.Report) map[string]auditCell {
	return auditMapWith(t, s, r, nil)
}

// auditMapWith is auditMap of the workbook with extras x.
func auditMapWith(t *testing.T, s *scenario.Scenario, r *model.Report, x *Extras) map[string]auditCell {
	b := build(s, r, x)
	if b.err != nil {
		t.Fatal(b.err)
	}
	out := map[string]auditCell{}
	for _, a := range b.audit {
		out[a.sheet+"!"+cell(a.col, a.row)] = a
	}
	b.f.Close()
	return out
}

// setCell returns the workbook in b with cell ref of sheet set to value
// (a number, or with text an inline string), its formula if any removed:
// what typing into the cell does. It rewrites the sheet's XML in the zip.
func setCell(t *testing.T, b []byte, sheet, ref, value string, text bool) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatal(err)
	}
	part := sheetPart(t, zr, sheet)
	var out bytes.Buffer
	zw := zip.NewWriter(&out)
	for _, f := range zr.File {
		if f.Name != part {
			if err := zw.Copy(f); err != nil {
				t.Fatal(err)
			}
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		x, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		re := regexp.MustCompile(`<c r="` + ref + `"( s="[0-9]+")?[^>]*?(/>|>.*?</c>)`)
		loc := re.FindSubmatchIndex(x)
		if loc == nil {
			t.Fatalf("%s!%s not in the sheet", sheet, ref)
		}
		style := ""
		if loc[2] >= 0 {
			style = string(x[loc[2]:loc[3]])
		}
		c := `<c r="` + ref + `"` + style + `><v>` + value + `</v></c>`
		if text {
			c = `<c r="` + ref + `"` + style + ` t="inlineStr"><is><t>` + value + `</t></is></c>`
		}
		x = append(x[:loc[0]:loc[0]], append([]byte(c), x[loc[1]:]...)...)
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := w.Write(x); err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// sheetPart is the zip part of sheet: worksheets/sheet<id>.xml, by the
// sheet's id in the workbook.
func sheetPart(t *testing.T, zr *zip.Reader, sheet string) string {
	for _, f := range zr.File {
		if f.Name != "xl/workbook.xml" {
			continue
		}
		rc, _ := f.Open()
		x, _ := io.ReadAll(rc)
		rc.Close()
		m := regexp.MustCompile(`<sheet name="` + regexp.QuoteMeta(sheet) + `" sheetId="([0-9]+)"`).FindSubmatch(x)
		if m != nil {
			return "xl/worksheets/sheet" + string(m[1]) + ".xml"
		}
	}
	t.Fatalf("no sheet %s", sheet)
	return ""
}

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
