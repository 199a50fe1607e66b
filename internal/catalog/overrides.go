package catalog

import (
	"cmp"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"hostplan/internal/bom"
	"hostplan/internal/celltext"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// Overrides are the user's changes to the catalog, in the long format of
// OverridesHeader: each row sets one field of one entry, and its as_of and
// source become the entry's provenance. For example
//
//	kind,id,field,value,as_of,source
//	cloud,aws-p5-h100,on_demand,5.10,2026-10-01,AWS pricing page
//	hpc,caltech-hpc,queue_wait_hours,1;6;24,2026-09-01,centre status page
//
// An id the catalog does not have adds an entry, which must then set every
// field (note may be left out). ExportCSV writes a whole catalog in the same
// format, so an exported file edited in a spreadsheet imports back.
type Overrides struct {
	Rows []OverrideRow `json:"rows"`
}

// OverrideRow sets one field of one catalog entry.
type OverrideRow struct {
	Kind   string `json:"kind"`  // one of Kinds()
	ID     string `json:"id"`    // the entry's id; the provider for data, SiteID for the site
	Field  string `json:"field"` // one of Fields(Kind)
	Value  string `json:"value"` // as ExportCSV writes it; queue_wait_hours as "low;likely;high"
	AsOf   string `json:"as_of"` // YYYY-MM-DD
	Source string `json:"source"`
	Line   int    `json:"-"` // line of the CSV file the row came from; 0 when it came from elsewhere
}

// OverridesHeader is the first line of an overrides CSV file.
const OverridesHeader = "kind,id,field,value,as_of,source"

// MaxCSVBytes is the largest overrides file hostplan reads (4 MiB): the
// whole catalog exported is some 70 KB.
const MaxCSVBytes = 4 << 20

// overridesFormat is the version of the JSON encoding of Overrides.
const overridesFormat = 1

// OverrideError is one problem with override rows. Line is the line of the
// CSV file it comes from, 0 when the rows did not come from a file.
type OverrideError struct {
	Line int
	Msg  string
}

func (e OverrideError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// OverrideErrors is every problem found, in line order.
type OverrideErrors []OverrideError

func (es OverrideErrors) Error() string {
	msgs := make([]string, len(es))
	for i, e := range es {
		msgs[i] = e.Error()
	}
	return "catalog overrides: " + strings.Join(msgs, "; ")
}

func (es OverrideErrors) sorted() OverrideErrors {
	slices.SortStableFunc(es, func(a, b OverrideError) int {
		if a.Line == 0 || b.Line == 0 { // lineless problems last
			return cmp.Compare(b.Line, a.Line)
		}
		return cmp.Compare(a.Line, b.Line)
	})
	return es
}

// ParseOverridesCSV reads an overrides file. The first line must be exactly
// OverridesHeader (a spreadsheet's byte-order mark is allowed); cells must
// be UTF-8 text, are trimmed of surrounding spaces, and lose the apostrophe
// WriteCSV puts before formula-like text (celltext.Unescape). Every bad row
// is reported, each with its line, as OverrideErrors; then no rows are
// returned. Two rows setting the same field of the same entry are an
// error.
func ParseOverridesCSV(r io.Reader) (Overrides, error) {
	cr := csv.NewReader(bom.Reader(r))
	cr.FieldsPerRecord = -1
	var (
		o    Overrides
		errs OverrideErrors
		seen = map[string]int{} // kind/id/field → line
	)
	for first := true; ; first = false {
		rec, err := cr.Read()
		if err == io.EOF {
			if first {
				errs = append(errs, OverrideError{1, "the file is empty (allowed: a CSV file whose first line is " + OverridesHeader + ")"})
			}
			break
		}
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			errs = append(errs, OverrideError{pe.StartLine, "not valid CSV: " + pe.Err.Error()})
			if first {
				break
			}
			continue
		} else if err != nil {
			return Overrides{}, err
		}
		line, _ := cr.FieldPos(0)
		if first {
			if got := strings.Join(rec, ","); got != OverridesHeader {
				errs = append(errs, OverrideError{line, fmt.Sprintf("the header is %q (allowed: exactly %s)", got, OverridesHeader)})
				break
			}
			continue
		}
		if len(rec) != 6 {
			errs = append(errs, OverrideError{line, fmt.Sprintf("%d cells (allowed: 6, %s)", len(rec), OverridesHeader)})
			continue
		}
		if i := slices.IndexFunc(rec, func(c string) bool { return !utf8.ValidString(c) }); i >= 0 {
			errs = append(errs, OverrideError{line, fmt.Sprintf("the %s cell is not UTF-8 text (allowed: a CSV file saved in UTF-8)", strings.Split(OverridesHeader, ",")[i])})
			continue
		}
		for i := range rec {
			// WriteCSV escaped formula-like text (celltext.Escape).
			rec[i] = celltext.Unescape(strings.TrimSpace(rec[i]))
		}
		row := OverrideRow{Kind: rec[0], ID: rec[1], Field: rec[2], Value: rec[3], AsOf: rec[4], Source: rec[5], Line: line}
		msgs := row.check()
		if m := row.future(); m != "" {
			msgs = append(msgs, m)
		}
		for _, m := range msgs {
			errs = append(errs, OverrideError{line, m})
		}
		if len(msgs) > 0 {
			continue
		}
		key := row.key()
		if prev, dup := seen[key]; dup {
			errs = append(errs, OverrideError{line, row.twice(fmt.Sprintf("on line %d", prev))})
			continue
		}
		seen[key] = line
		o.Rows = append(o.Rows, row)
	}
	if len(errs) > 0 {
		return Overrides{}, errs.sorted()
	}
	return o, nil
}

func (r OverrideRow) key() string { return r.Kind + "/" + r.ID + "/" + r.Field }

// twice is the problem of a row that sets a field another row (where)
// sets: one kind, id and field is set once, in an import and in a
// scenario's price_overrides alike.
func (r OverrideRow) twice(where string) string {
	return fmt.Sprintf("%s: %s is also set %s (allowed: one row per kind, id and field)", r.what(), r.Field, where)
}

// future is the problem of a row whose as_of (a date) lies in the future
// beyond scenario.AsOfTolerance, or "". Imports and scenarios check it;
// overrides already stored are not (a store must not stop reading).
func (r OverrideRow) future() string {
	d, err := time.Parse(time.DateOnly, r.AsOf)
	if err != nil {
		return "" // check reports it
	}
	if future, allowed := scenario.FutureAsOf(d); future {
		return fmt.Sprintf("%s: as_of %s is in the future (allowed: %s)", r.what(), r.AsOf, allowed)
	}
	return ""
}
func (r OverrideRow) entry() string { return r.Kind + "/" + r.ID }
func (r OverrideRow) what() string  { return strings.TrimSpace(r.Kind + " " + r.ID) }

// check returns what is wrong with a row on its own.
func (r OverrideRow) check() []string {
	k := kindNamed(Kind(r.Kind))
	if k == nil {
		return []string{fmt.Sprintf("kind %q is not a catalog kind (allowed: %s)", r.Kind, strings.Join(KindNames(), ", "))}
	}
	var msgs []string
	switch {
	case k.idField == "" && r.ID != SiteID:
		msgs = append(msgs, fmt.Sprintf("%s: the site entry's id is %q (allowed: %s)", r.what(), r.ID, SiteID))
	case r.ID == "":
		msgs = append(msgs, fmt.Sprintf("%s: the id is empty (allowed: the %s of an entry, e.g. %s)", r.Kind, k.idField, exampleID(k)))
	}
	if f, ok := k.field(r.Field); ok {
		if x, err := parseValue(f.typ, r.Value); errors.Is(err, errTooLarge) {
			msgs = append(msgs, r.what()+": "+f.outOfRange(k, x))
		} else if err != nil {
			msgs = append(msgs, fmt.Sprintf("%s: %s %q %v", r.what(), r.Field, r.Value, err))
		} else if msg := f.outOfRange(k, x); msg != "" {
			msgs = append(msgs, r.what()+": "+msg)
		}
	} else if why := notSettable[r.Field]; why != "" {
		msgs = append(msgs, fmt.Sprintf("%s: field %q cannot be set: %s", r.what(), r.Field, why))
	} else if r.Field == k.idField {
		msgs = append(msgs, fmt.Sprintf("%s: field %q cannot be set: the id column names the entry", r.what(), r.Field))
	} else {
		msgs = append(msgs, fmt.Sprintf("%s: field %q is not a field of %s (allowed: %s)", r.what(), r.Field, r.Kind, strings.Join(k.fieldNames(), ", ")))
	}
	if _, err := time.Parse(time.DateOnly, r.AsOf); err != nil {
		msgs = append(msgs, fmt.Sprintf("%s: as_of %q is not a date (allowed: YYYY-MM-DD)", r.what(), r.AsOf))
	}
	if strings.TrimSpace(r.Source) == "" {
		msgs = append(msgs, fmt.Sprintf("%s: source is empty (allowed: where the figure was published)", r.what()))
	}
	return msgs
}

func exampleID(k *kind) string {
	return map[string]string{"gpu": "h100-sxm", "model": "llama-3.1-70b", "cloud": "aws-p5-h100", "data": "aws",
		"node": "dgx-h100", "hpc": "caltech-hpc", "managed": "together-70b", "rate": "USD"}[string(k.name)]
}

// errTooLarge is a whole number too large to read exactly (beyond 2⁵³);
// parseValue returns it with the number as a float64.
var errTooLarge = errors.New("is out of range")

// parseValue reads an override value of one of the types newKind allows.
func parseValue(t reflect.Type, raw string) (reflect.Value, error) {
	v := reflect.New(t).Elem()
	raw = strings.TrimSpace(raw)
	switch t.Kind() {
	case reflect.String:
		v.SetString(raw)
	case reflect.Float64:
		x, err := parseNumber(raw)
		if err != nil {
			return v, err
		}
		v.SetFloat(x)
	case reflect.Int:
		f, err := num.Parse(raw)
		if err != nil || f != math.Trunc(f) {
			return v, errors.New("is not a whole number (allowed: a whole number ≥ 0, written as " + num.Syntax + ")")
		}
		if math.Abs(f) > 1<<53 { // beyond every int field's range, and beyond exact
			return reflect.ValueOf(f), errTooLarge
		}
		v.SetInt(int64(f)) // its range is the field's, checked by the caller
	case reflect.Bool:
		x, err := strconv.ParseBool(raw)
		if err != nil {
			return v, errors.New("is not true or false (allowed: true, false)")
		}
		v.SetBool(x)
	case reflect.Array: // [3]float64: low;likely;high
		parts := strings.Split(raw, ";")
		if len(parts) != 3 {
			return v, errors.New("is not three numbers (allowed: low;likely;high, e.g. 2;12;48)")
		}
		var xs [3]float64
		for i, p := range parts {
			x, err := parseNumber(strings.TrimSpace(p))
			if err != nil {
				return v, errors.New("is not three numbers ≥ 0 (allowed: low;likely;high, e.g. 2;12;48)")
			}
			xs[i] = x
		}
		if !(xs[0] <= xs[1] && xs[1] <= xs[2]) {
			return v, errors.New("is out of order (allowed: low ≤ likely ≤ high)")
		}
		v.Set(reflect.ValueOf(xs))
	default:
		panic("catalog: parseValue of " + t.String())
	}
	return v, nil
}

// parseNumber reads a number as every number entry does (num.Parse: a
// spreadsheet may write "1,234.5" in a quoted cell); its range is the
// field's (scenario.CatalogBound), checked by the caller.
func parseNumber(raw string) (float64, error) {
	x, err := num.Parse(raw)
	if err != nil {
		return 0, errors.New("is not a number (allowed: a number ≥ 0, written as " + num.Syntax + ")")
	}
	return x, nil
}

// formatValue writes a field value so that parseValue reads it back exactly.
func formatValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return v.String()
	case reflect.Float64:
		return formatNumber(v.Float())
	case reflect.Int:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Array:
		xs := v.Interface().([3]float64)
		return formatNumber(xs[0]) + ";" + formatNumber(xs[1]) + ";" + formatNumber(xs[2])
	}
	panic("catalog: formatValue of " + v.Type().String())
}

// formatNumber writes the shortest decimal that reads back as x, without an
// exponent (spreadsheets show 2e+06 as text).
func formatNumber(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// touched is what Apply did to one entry.
type touched struct {
	k       *kind
	id      string
	rows    []OverrideRow
	set     map[string]bool // fields set
	created bool
	before  any  // the entry before, when it existed
	changed bool // created, or different from before
}

// Apply returns a new catalog: c with the override rows applied in order (a
// later row for the same field wins) and checked as Load checks the
// embedded files. c is never changed. Each entry a row touches takes the
// oldest as_of among its rows and their sources joined with "; ", and is
// marked Overridden when it differs from the entry in c or is new. Every
// problem comes back in OverrideErrors, naming the line of the row (for a
// problem of a whole entry, its first row).
func (c *Catalog) Apply(o Overrides) (*Catalog, error) {
	n, _, err := c.apply(o)
	return n, err
}

func (c *Catalog) apply(o Overrides) (*Catalog, []*touched, error) {
	n := c.clone()
	var (
		errs  OverrideErrors
		order []*touched
		byKey = map[string]*touched{}
	)
	for _, r := range o.Rows {
		if msgs := r.check(); len(msgs) > 0 {
			for _, m := range msgs {
				errs = append(errs, OverrideError{r.Line, m})
			}
			continue
		}
		k := kindNamed(Kind(r.Kind))
		t := byKey[r.entry()]
		i := n.index(k, r.ID)
		if t == nil {
			t = &touched{k: k, id: r.ID, set: map[string]bool{}}
			if i < 0 {
				i, t.created = n.add(k, r.ID), true
			} else {
				t.before = n.entries(k)[i].Interface()
			}
			byKey[r.entry()] = t
			order = append(order, t)
		}
		f, _ := k.field(r.Field)
		x, _ := parseValue(f.typ, r.Value)
		n.entries(k)[i].FieldByIndex(f.index).Set(x)
		t.rows = append(t.rows, r)
		t.set[r.Field] = true
	}
	for _, t := range order {
		v := n.entries(t.k)[n.index(t.k, t.id)]
		e := entryPtr(v)
		e.AsOf, e.Source = provenance(t.rows)
		if t.k.name == "site" {
			siteDates(t, &n.Site)
		}
		switch {
		case t.created:
			e.Overridden = true
			var missing []string
			for _, f := range t.k.fields {
				if !t.set[f.name] && f.name != "note" {
					missing = append(missing, f.name)
				}
			}
			if len(missing) > 0 {
				errs = append(errs, OverrideError{firstLine(t.rows), fmt.Sprintf("%s %s is not in the catalog, and a new entry needs every field: %s missing (allowed fields: %s)",
					t.k.name, t.id, strings.Join(missing, ", "), strings.Join(t.k.fieldNames(), ", "))})
			}
		default:
			e.Overridden = entryOf(reflect.ValueOf(t.before)).Overridden
			t.changed = !reflect.DeepEqual(v.Interface(), t.before)
		}
		if t.changed || t.created {
			t.changed, e.Overridden = true, true
		}
	}
	for _, p := range n.problems() {
		line := 0
		if t := byKey[p.key]; t != nil {
			line = firstLine(t.rows)
		} else if p.key == "site" {
			if t := byKey["site/"+SiteID]; t != nil {
				line = firstLine(t.rows)
			}
		}
		errs = append(errs, OverrideError{line, p.msg})
	}
	if len(errs) > 0 {
		return nil, nil, errs.sorted()
	}
	return n, order, nil
}

// provenance returns the oldest as_of of the rows and their distinct
// sources in order, joined with "; " (a source that is itself a joined list
// is split first, so applying an export does not repeat sources).
func provenance(rows []OverrideRow) (asOf, source string) {
	var srcs []string
	for _, r := range rows {
		asOf = OlderAsOf(asOf, r.AsOf) // every row here has a date: apply skips those check refuses
		for _, s := range strings.Split(r.Source, "; ") {
			if !slices.Contains(srcs, s) {
				srcs = append(srcs, s)
			}
		}
	}
	return asOf, strings.Join(srcs, "; ")
}

func firstLine(rows []OverrideRow) int {
	for _, r := range rows {
		if r.Line > 0 {
			return r.Line
		}
	}
	return 0
}

// Merge returns o followed by newer, where a row of newer replaces any row
// of o for the same kind, id and field (and within newer, the later row
// wins). Row order is kept otherwise.
func (o Overrides) Merge(newer Overrides) Overrides {
	all := append(slices.Clip(o.Rows), newer.Rows...)
	last := map[string]int{}
	for i, r := range all {
		last[r.key()] = i
	}
	var out Overrides
	for i, r := range all {
		if last[r.key()] == i {
			out.Rows = append(out.Rows, r)
		}
	}
	return out
}

// Prune returns the rows of o that matter on top of c: the rows of entries
// that o adds or changes. Rows that leave their entry exactly as it is in c
// (the same values, as_of and source) are dropped, so importing a whole
// exported catalog stores only what the user edited.
func (c *Catalog) Prune(o Overrides) (Overrides, error) {
	_, ts, err := c.apply(o)
	if err != nil {
		return Overrides{}, err
	}
	keep := map[string]bool{}
	for _, t := range ts {
		keep[string(t.k.name)+"/"+t.id] = t.changed
	}
	var out Overrides
	for _, r := range o.Rows {
		if keep[r.entry()] {
			out.Rows = append(out.Rows, r)
		}
	}
	return out, nil
}
