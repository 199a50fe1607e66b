package app

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"hostplan/internal/brief"
	"hostplan/internal/decide"
	"hostplan/internal/export"
	"hostplan/internal/model/modeltest"
	"hostplan/internal/scenario"
	"hostplan/scenarios"
)

// FuzzScenarioPipeline runs a scenario file's bytes through everything a
// face does with them: parse and validate, evaluate on the catalog in use,
// decide, write the brief and the workbook. Whatever the bytes, nothing
// panics; a refusal is a clean error, and one that comes after the file
// parsed names the scenario fields (scenario.Errors); every report has
// finite, non-negative figures and every decision finite numbers.
//
// The seed corpus is every example scenario, the schema-0 file of
// internal/scenario/testdata and a few small hand cases; with
// testdata/fuzz/FuzzScenarioPipeline it runs in every go test.
func FuzzScenarioPipeline(f *testing.F) {
	files, err := fs.Glob(scenarios.FS, "*.json")
	if err != nil || len(files) == 0 {
		f.Fatal(files, err)
	}
	for _, name := range files {
		b, err := fs.ReadFile(scenarios.FS, name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	if b, err := os.ReadFile(filepath.Join("..", "scenario", "testdata", "v0.json")); err == nil {
		f.Add(b)
	} else {
		f.Fatal(err)
	}
	for _, s := range []string{``, `null`, `[]`, `{}`, `{"schema_version":1}`, `{"schema_version":99}`, `"x"`, `{"id":"a"} {}`, `{"workload":{"shape":"training"}}`} {
		f.Add([]byte(s))
	}
	// No store file: the catalog in use is the embedded one.
	p := New(filepath.Join(f.TempDir(), "none.db"))
	if _, err := p.Catalog(); err != nil {
		f.Fatal(err)
	}
	ctx := context.Background()

	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := scenario.Parse(b)
		if err != nil {
			if cerr := modeltest.CleanError(err); cerr != nil {
				t.Fatalf("Parse: %v", cerr)
			}
			return
		}
		r, err := p.Evaluate(ctx, s)
		if err != nil {
			if cerr := modeltest.CleanError(err); cerr != nil {
				t.Fatalf("Evaluate: %v", cerr)
			}
			var fe scenario.Errors
			if !errors.As(err, &fe) || len(fe) == 0 {
				t.Fatalf("Evaluate of a scenario that parsed: %v (%T), not scenario.Errors naming the fields", err, err)
			}
			for _, e := range fe {
				if e.Path == "" || e.Problem == "" {
					t.Fatalf("Evaluate: a field error without a path or a problem: %#v", e)
				}
			}
			return
		}
		if err := modeltest.Report(r); err != nil {
			t.Fatalf("Evaluate: %v", err)
		}
		d, err := decide.Decide(s, r)
		if err != nil {
			if cerr := modeltest.CleanError(err); cerr != nil {
				t.Fatalf("Decide: %v", cerr)
			}
			return
		}
		if err := modeltest.Finite(d); err != nil {
			t.Fatalf("Decide: %v", err)
		}
		x := &export.Extras{Decision: d, Checklist: brief.Checklist(s.Workload.Shape, nil), Source: "fuzz"}
		doc, err := brief.Build(s, r, d, nil)
		var few *brief.TooFewFieldsError
		switch {
		case errors.As(err, &few):
			for _, m := range few.Missing {
				x.BriefMissing = append(x.BriefMissing, m.Label+" ("+m.Path+")")
			}
		case err != nil:
			if cerr := modeltest.CleanError(err); cerr != nil {
				t.Fatalf("brief: %v", cerr)
			}
		default:
			if len(doc.Markdown()) == 0 {
				t.Fatal("brief: empty Markdown")
			}
			x.Brief = doc
		}
		wb, err := export.WorkbookWith(s, r, x)
		if err != nil {
			if cerr := modeltest.CleanError(err); cerr != nil {
				t.Fatalf("workbook: %v", cerr)
			}
			return
		}
		defer wb.Close()
		if _, err := wb.WriteTo(io.Discard); err != nil {
			t.Fatalf("workbook: %v", err)
		}
	})
}
