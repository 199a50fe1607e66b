package export

import (
	"context"
	"io"
	"testing"

	"hostplan/internal/brief"
	"hostplan/internal/catalog"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// BenchmarkExportExample measures what `hostplan export` does after the
// model has run: the decision, the brief, the whole workbook (every sheet,
// named inputs, formulas, native charts) and its serialisation, for the
// constrained example with its Monte Carlo spread and tornado. The model's
// own time is BenchmarkAnalyzeExample's.
func BenchmarkExportExample(b *testing.B) {
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		b.Fatal(err)
	}
	cat, err := catalog.Default()
	if err != nil {
		b.Fatal(err)
	}
	r, err := analyzeForBench(s, cat)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		x := &Extras{Checklist: brief.Checklist(s.Workload.Shape, nil), Source: "benchmark"}
		if x.Decision, err = decide.Decide(s, r); err != nil {
			b.Fatal(err)
		}
		if x.Brief, err = brief.Build(s, r, x.Decision, nil); err != nil {
			b.Fatal(err)
		}
		f, err := WorkbookWith(s, r, x)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := f.WriteTo(io.Discard); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

func analyzeForBench(s *scenario.Scenario, cat *catalog.Catalog) (*model.Report, error) {
	return model.Analyze(context.Background(), s, cat, model.DefaultDraws)
}
