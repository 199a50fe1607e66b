package catalog_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"reflect"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/model/modeltest"
	"hostplan/internal/scenario"
	"hostplan/scenarios"
)

// FuzzOverridesCSV imports a catalog CSV as hostplan catalog import does:
// parse the rows, apply them to the embedded catalog, then export the
// result, read the export back and evaluate every example scenario on the
// catalog it gives. Whatever the bytes: no panic; a refusal is
// OverrideErrors, each with a clean message; an accepted file's export
// reads back to the same catalog; and on an accepted catalog every example
// evaluates to a report whose every figure is finite and non-negative, or
// is refused with scenario.Errors naming the fields.
//
// Seeds: the whole embedded catalog as ExportCSV writes it, and small
// files of the kinds a user writes (one price, a new entry, a byte-order
// mark, quoting, mistakes).
func FuzzOverridesCSV(f *testing.F) {
	def, err := catalog.Default()
	if err != nil {
		f.Fatal(err)
	}
	var whole bytes.Buffer
	if err := def.ExportCSV(&whole); err != nil {
		f.Fatal(err)
	}
	f.Add(whole.Bytes())
	h := catalog.OverridesHeader + "\n"
	for _, s := range []string{
		h + "cloud,aws-p5-h100,on_demand,5.10,2026-10-01,AWS pricing page\n",
		"\uFEFF" + h + "hpc,caltech-hpc,queue_wait_hours,1;6;24,2026-09-01,\"centre status page, 3 Sept\"\n",
		h + "gpu,h100-sxm,memory_gb,80,2026-01-01,datasheet\ngpu,h100-sxm,memory_gb,94,2026-01-01,datasheet\n",
		h + "model,tiny-1b,params_b,1.2,2026-01-01,model card\n",
		h + "site,site,pue,1.3,2026-01-01,facilities\n",
		h + "cloud,aws-p5-h100,spot,cheap,2026-10-01,x\ngpu,h100-sxm,power_w,700,10/01/2026,\n",
		h + "cloud,aws-p5-h100,on_demand,\"5.1\n",
		"kind,id,field\n",
		h,
		"",
	} {
		f.Add([]byte(s))
	}
	names, err := fs.Glob(scenarios.FS, "*.json")
	if err != nil || len(names) == 0 {
		f.Fatal(names, err)
	}
	var exs []*scenario.Scenario
	for _, n := range names {
		b, err := fs.ReadFile(scenarios.FS, n)
		if err != nil {
			f.Fatal(err)
		}
		s, err := scenario.Parse(b)
		if err != nil {
			f.Fatalf("%s: %v", n, err)
		}
		exs = append(exs, s)
	}

	f.Fuzz(func(t *testing.T, b []byte) {
		o, err := catalog.ParseOverridesCSV(bytes.NewReader(b))
		if err != nil {
			checkOverrideErrors(t, "ParseOverridesCSV", err)
			return
		}
		cat, err := def.Apply(o)
		if err != nil {
			checkOverrideErrors(t, "Apply", err)
			return
		}
		if _, err := def.Prune(o); err != nil {
			t.Fatalf("Prune of rows Apply accepted: %v", err)
		}
		var out bytes.Buffer
		if err := cat.ExportCSV(&out); err != nil {
			t.Fatalf("ExportCSV: %v", err)
		}
		o2, err := catalog.ParseOverridesCSV(bytes.NewReader(out.Bytes()))
		if err != nil {
			t.Fatalf("the export does not read back: %v", err)
		}
		cat2, err := def.Apply(o2)
		if err != nil {
			t.Fatalf("the export does not apply: %v", err)
		}
		if !reflect.DeepEqual(cat, cat2) {
			t.Fatalf("the export applies to another catalog:\n%s", catalogDiff(cat, cat2))
		}
		for _, s := range exs {
			r, err := model.Evaluate(s, cat)
			if err != nil {
				if cerr := modeltest.CleanError(err); cerr != nil {
					t.Fatalf("%s: Evaluate: %v", s.ID, cerr)
				}
				var fe scenario.Errors
				if !errors.As(err, &fe) {
					t.Fatalf("%s on the imported catalog: %v (%T), not scenario.Errors naming the fields", s.ID, err, err)
				}
				continue
			}
			if err := modeltest.Report(r); err != nil {
				t.Fatalf("%s on the imported catalog: %v", s.ID, err)
			}
		}
	})
}

// checkOverrideErrors fails t unless err is OverrideErrors whose every
// message is clean.
func checkOverrideErrors(t *testing.T, what string, err error) {
	t.Helper()
	var oe catalog.OverrideErrors
	if !errors.As(err, &oe) || len(oe) == 0 {
		t.Fatalf("%s: %v (%T), not OverrideErrors", what, err, err)
	}
	for _, e := range oe {
		if cerr := modeltest.CleanError(e); cerr != nil || e.Line < 0 {
			t.Fatalf("%s: line %d: %v", what, e.Line, cerr)
		}
	}
}

// catalogDiff names the first entries that differ between two catalogs.
func catalogDiff(a, b *catalog.Catalog) string {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	var out bytes.Buffer
	for i := range va.NumField() {
		if !va.Type().Field(i).IsExported() {
			continue
		}
		fa, fb := va.Field(i), vb.Field(i)
		if reflect.DeepEqual(fa.Interface(), fb.Interface()) {
			continue
		}
		if fa.Kind() == reflect.Slice && fa.Len() == fb.Len() {
			for j := range fa.Len() {
				if !reflect.DeepEqual(fa.Index(j).Interface(), fb.Index(j).Interface()) {
					fmt.Fprintf(&out, "%s[%d]:\n  %+v\n  %+v\n", va.Type().Field(i).Name, j, fa.Index(j).Interface(), fb.Index(j).Interface())
				}
			}
			continue
		}
		fmt.Fprintf(&out, "%s:\n  %+v\n  %+v\n", va.Type().Field(i).Name, fa.Interface(), fb.Interface())
	}
	return out.String()
}
