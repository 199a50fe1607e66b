package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const skyTestdata = "../catalog/testdata/skypilot"

// hostplan catalog import of a SkyPilot catalog folder: the offers of
// both clouds are imported with the date given, the rows it could not
// use are counted by reason and listed with their lines, the accelerators
// the catalog lacks are named; an imported offer is then in the catalog at
// its row's price per GPU-hour, and the stored scenarios (the examples a
// new store holds) are repriced against the catalog before the import.
func TestCatalogImportSkyPilot(t *testing.T) {
	db := tempDB(t)
	out := mustRun(t, db, "catalog", "import", "--as-of", "2026-11-30", "--commit", "0f40703", skyTestdata)
	for _, want := range []string{
		"imported 12 cloud offers as of 2026-11-30 (aws 4, gcp 5, lambda 3)",
		"5 rows accelerator not in the catalog",
		"1 row a fraction of a GPU",
		"Accelerators the catalog has no GPU for: A100 (1 row), A10G (1 row), GH200 (1 row), V100 (1 row), tpu-v3-8 (1 row)",
		"1 offer is in a region whose country hostplan does not know",
		"aws/vms.csv:10: SpotPrice \"abc\" is not a number",
		"lambda/vms.csv:5: same instance and region as line 4",
		"against the catalog before the import",
		"7B foundation model pre-training (foundation-7b-pretraining, revision 1)",
		"Lambda gpu_8x_h100_sxm5 (8×NVIDIA H100 SXM), us-east-1 (on demand): 3.99 → 2.99 USD/GPU-hour",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	show := mustRun(t, db, "catalog", "show", "cloud", "sky-aws-p5-48xlarge-eu-west-3")
	for _, want := range []string{"8.4", "FR", "2026-11-30", "at commit 0f40703"} {
		if !strings.Contains(show, want) {
			t.Errorf("catalog show lacks %q:\n%s", want, show)
		}
	}
}

// A SkyPilot file carries no date: the import asks for one rather than
// taking the clock, and refuses a date in the future; a folder with a
// broken file imports nothing.
func TestCatalogImportSkyPilotRefusals(t *testing.T) {
	db := tempDB(t)
	code, _, errs := run(t, db, "catalog", "import", skyTestdata)
	if code != ExitUsage || !strings.Contains(errs, "give --as-of YYYY-MM-DD") {
		t.Errorf("exit %d: %s", code, errs)
	}
	code, _, errs = run(t, db, "catalog", "import", "--as-of", "2099-01-01", skyTestdata)
	if code != ExitUsage || !strings.Contains(errs, "is in the future") {
		t.Errorf("exit %d: %s", code, errs)
	}
	dir := t.TempDir()
	for _, c := range []string{"aws", "lambda"} {
		b, err := os.ReadFile(filepath.Join(skyTestdata, c, "vms.csv"))
		if err != nil {
			t.Fatal(err)
		}
		if c == "lambda" {
			b = append(b, []byte("gpu_1x_h100,H100,1.0,26.0,200.0,2.49,us-east-1,\"unclosed\n")...)
		}
		os.MkdirAll(filepath.Join(dir, c), 0o755)
		os.WriteFile(filepath.Join(dir, c, "vms.csv"), b, 0o644)
	}
	code, _, errs = run(t, db, "catalog", "import", "--as-of", "2026-11-30", dir)
	if code == ExitOK || !strings.Contains(errs, "lambda") {
		t.Errorf("a broken file imported: exit %d, %s", code, errs)
	}
	if out := mustRun(t, db, "catalog", "export", "--overrides"); strings.Contains(out, "sky-") {
		t.Errorf("offers of the good file kept after the broken one:\n%s", out)
	}
}

// hostplan catalog diff: from the built-in catalog to the one in use
// after an import, every offer added; from an export of it back, every
// offer removed; a moved price with its relative move.
func TestCatalogDiff(t *testing.T) {
	db := tempDB(t)
	mustRun(t, db, "catalog", "import", "--as-of", "2026-11-30", skyTestdata)
	out := mustRun(t, db, "catalog", "diff", "default", "current")
	if !strings.Contains(out, "cloud sky-aws-p5-48xlarge-eu-west-3: added (as of 2026-11-30)") ||
		!strings.Contains(out, "From the built-in catalog to the catalog in use: 0 fields changed, 12 entries added, 0 entries removed") {
		t.Errorf("diff:\n%s", out)
	}
	export := filepath.Join(t.TempDir(), "now.csv")
	mustRun(t, db, "catalog", "export", "-o", export)
	if out := mustRun(t, db, "catalog", "diff", export, "default"); !strings.Contains(out, "0 entries added, 12 entries removed") {
		t.Errorf("reverse diff:\n%s", out)
	}
	moved := filepath.Join(t.TempDir(), "moved.csv")
	os.WriteFile(moved, []byte("kind,id,field,value,as_of,source\ncloud,lambda-h100,on_demand,2.99,2026-11-30,quote\n"), 0o644)
	if out := mustRun(t, db, "catalog", "diff", "default", moved); !strings.Contains(out, "cloud lambda-h100 on_demand: 3.99 → 2.99 (-25.1 %), as of ") {
		t.Errorf("moved price:\n%s", out)
	}
	if code, _, errs := run(t, db, "catalog", "diff", "default"); code != ExitUsage || !strings.Contains(errs, "give OLD and NEW") {
		t.Errorf("exit %d: %s", code, errs)
	}
}
