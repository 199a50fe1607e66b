package export

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
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
	s, r := benchExample(b)
	b.ReportAllocs()
	for b.Loop() {
		if err := exportExample(s, r, io.Discard); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkLibreOfficeRecalculate measures what the export saves a reader
// who recalculates: LibreOffice (soffice --headless) loading the workbook
// BenchmarkExportExample writes, recalculating every formula and saving it
// again as .xlsx. It is one process start and one file per operation, as a
// user who opens one export; the profile is made once, before timing.
// Skipped without soffice.
func BenchmarkLibreOfficeRecalculate(b *testing.B) {
	soffice, err := exec.LookPath("soffice")
	if err != nil {
		b.Skip("soffice not on PATH")
	}
	s, r := benchExample(b)
	dir := b.TempDir()
	path := filepath.Join(dir, "plan.xlsx")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	if err := exportExample(s, r, f); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	recalcProfile(b, home)
	run := func() {
		cmd := exec.Command(soffice, "-env:UserInstallation=file://"+filepath.ToSlash(home), "--headless", "--norestore",
			"--convert-to", "xlsx", "--outdir", filepath.Join(dir, "out"), path)
		cmd.Env = append(os.Environ(), "HOME="+home)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("soffice: %v\n%s", err, out)
		}
	}
	run() // the profile's first start
	for b.Loop() {
		run()
	}
}

// benchExample is the constrained example and its analysed report.
func benchExample(b *testing.B) (*scenario.Scenario, *model.Report) {
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
	return s, r
}

// exportExample does what hostplan export does after the model has run,
// writing the workbook to w.
func exportExample(s *scenario.Scenario, r *model.Report, w io.Writer) error {
	x := &Extras{Checklist: brief.Checklist(s.Workload.Shape, nil), Source: "benchmark"}
	var err error
	if x.Decision, err = decide.Decide(s, r); err != nil {
		return err
	}
	if x.Brief, err = brief.Build(s, r, x.Decision, nil); err != nil {
		return err
	}
	f, err := WorkbookWith(s, r, x)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteTo(w)
	return err
}

func analyzeForBench(s *scenario.Scenario, cat *catalog.Catalog) (*model.Report, error) {
	return model.Analyze(context.Background(), s, cat, model.DefaultDraws)
}
