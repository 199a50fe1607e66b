package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/version"
)

// run executes hostplan with args against a store in a temporary directory.
func run(t *testing.T, db string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = Run(append([]string{"--db", db}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

func tempDB(t *testing.T) string { return filepath.Join(t.TempDir(), "hostplan.db") }

// changedExample writes a copy of an example with one edit and returns its
// path and the original bytes.
func changedExample(t *testing.T, name, old, new string) (path string, orig []byte) {
	t.Helper()
	orig, err := os.ReadFile("../../scenarios/" + name)
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(orig), old, new, 1)
	if changed == string(orig) {
		t.Fatalf("%q is not in %s", old, name)
	}
	path = filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	return path, orig
}

func storeRun(t *testing.T, db string, args ...string) string {
	t.Helper()
	code, out, errs := run(t, db, args...)
	if code != ExitOK {
		t.Fatalf("%v: exit %d\nstdout:\n%s\nstderr:\n%s", args, code, out, errs)
	}
	return out
}

func examples(t *testing.T) []string {
	files, _ := filepath.Glob("../../scenarios/*.json")
	if len(files) < 5 {
		t.Fatalf("found %d examples", len(files))
	}
	return files
}

func TestValidateExamples(t *testing.T) {
	code, out, errs := run(t, tempDB(t), append([]string{"validate"}, examples(t)...)...)
	if code != ExitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	if strings.Count(out, ": valid") != len(examples(t)) {
		t.Errorf("stdout %q", out)
	}
}

func TestValidateBrokenFileNamesFields(t *testing.T) {
	code, _, errs := run(t, tempDB(t), "validate", "testdata/broken.json")
	if code != ExitUsage {
		t.Fatalf("exit %d, want 2", code)
	}
	for _, want := range []string{
		`testdata/broken.json: id: "Broken Example" is not a valid id`,
		`testdata/broken.json: currency: "usd" is not a currency code (allowed: a three-letter ISO 4217 code`,
		`testdata/broken.json: workload.precision: "bf17" is not a known value (allowed: fp32, bf16, fp16, fp8, int8, int4)`,
		`testdata/broken.json: workload.model.params_b: -7 is out of range (allowed: a number > 0 and ≤ 100,000, or 0 for the preset's count)`,
		`testdata/broken.json: workload.tokens_per_run_b: estimate 5, 2, 9 is out of order (allowed: low ≤ likely ≤ high)`,
		`testdata/broken.json: data.classification: "secret" is not a known value`,
		`testdata/broken.json: options.cloud.pricing: "cheap" is not a known value (allowed: on_demand, commit_1y, commit_3y, spot, mixed_1y, mixed_3y)`,
	} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
	// Every problem is one line naming the file.
	for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
		if !strings.HasPrefix(l, "testdata/broken.json: ") && !strings.HasPrefix(l, "hostplan: ") {
			t.Errorf("line does not name the file: %q", l)
		}
	}
}

func TestUsageErrors(t *testing.T) {
	db := tempDB(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"frobnicate"}, `unknown command "frobnicate"`},
		{[]string{"eval"}, "eval: give exactly one"},
		{[]string{"eval", "--format", "xml", examples(t)[0]}, `--format "xml" is not known (allowed: json, table)`},
		{[]string{"eval", "missing.json"}, "missing.json: cannot read"},
		{[]string{"export", examples(t)[0], "-o", "out.csv"}, "must end in .xlsx"},
		{[]string{"show", "no-such-id"}, "not found"},
		{[]string{"catalog", "chairs"}, `"chairs" is not a catalog list`},
		{[]string{"validate"}, "validate: give one or more"},
	} {
		code, _, errs := run(t, db, tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestEvalEveryExample(t *testing.T) {
	for _, f := range examples(t) {
		code, out, errs := run(t, tempDB(t), "eval", "--format", "json", f)
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", f, code, errs)
		}
		var r struct {
			ScenarioID string `json:"scenario_id"`
			Directions []struct {
				Direction   string  `json:"direction"`
				Feasible    bool    `json:"feasible"`
				CostPerRun  float64 `json:"cost_per_run"`
				CostHorizon float64 `json:"cost_horizon"`
			} `json:"directions"`
		}
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(r.Directions) != 5 {
			t.Errorf("%s: %d directions", f, len(r.Directions))
		}
		code, out, _ = run(t, tempDB(t), "eval", f)
		if code != ExitOK || !strings.Contains(out, "Shared HPC") || !strings.Contains(out, "prices as of") {
			t.Errorf("%s table: exit %d\n%s", f, code, out)
		}
	}
}

func TestExportEveryExample(t *testing.T) {
	dir := t.TempDir()
	for _, f := range examples(t) {
		out := filepath.Join(dir, strings.TrimSuffix(filepath.Base(f), ".json")+".xlsx")
		code, _, errs := run(t, tempDB(t), "export", f, "-o", out)
		if code != ExitOK {
			t.Fatalf("%s: exit %d: %s", f, code, errs)
		}
		wb, err := excelize.OpenFile(out)
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		ci, _ := wb.GetSheetIndex("Costs")
		si, _ := wb.GetSheetIndex("Summary")
		if ci < 0 || si < 0 {
			t.Errorf("%s: sheets %v", out, wb.GetSheetList())
		}
		wb.Close()
	}
}

func TestStoreCommands(t *testing.T) {
	db := tempDB(t)
	// A new store is seeded with the examples.
	code, out, errs := run(t, db, "list")
	if code != ExitOK {
		t.Fatalf("list: %d %s", code, errs)
	}
	for _, f := range examples(t) {
		id := strings.TrimSuffix(filepath.Base(f), ".json")
		if !strings.Contains(out, id) {
			t.Errorf("list lacks %s:\n%s", id, out)
		}
	}
	// Save a changed copy: a second revision.
	b, _ := os.ReadFile("../../scenarios/qlora-legal-70b.json")
	changed := strings.Replace(string(b), `"seed": 3`, `"seed": 4`, 1)
	f := filepath.Join(t.TempDir(), "q.json")
	os.WriteFile(f, []byte(changed), 0o644)
	code, out, errs = run(t, db, "save", f, "--note", "new seed")
	if code != ExitOK || !strings.Contains(out, "saved qlora-legal-70b revision 2") {
		t.Fatalf("save: exit %d %q %q", code, out, errs)
	}
	code, out, _ = run(t, db, "show", "qlora-legal-70b")
	if code != ExitOK || out != changed {
		t.Errorf("show current differs from the saved file (exit %d)", code)
	}
	code, out, _ = run(t, db, "show", "qlora-legal-70b", "--rev", "1")
	if code != ExitOK || out != string(b) {
		t.Errorf("show --rev 1 differs from the example (exit %d)", code)
	}
	// eval and export also take a stored id.
	if code, _, errs := run(t, db, "eval", "qlora-legal-70b"); code != ExitOK {
		t.Errorf("eval by id: %d %s", code, errs)
	}
	// A broken file is refused and nothing is written.
	code, _, _ = run(t, db, "save", "testdata/broken.json")
	if code != ExitUsage {
		t.Errorf("save broken: exit %d, want 2", code)
	}
}

func TestSchemaAndCatalog(t *testing.T) {
	code, out, _ := run(t, tempDB(t), "schema")
	var doc map[string]any
	if code != ExitOK || json.Unmarshal([]byte(out), &doc) != nil || doc["title"] != "hostplan scenario" {
		t.Errorf("schema: exit %d", code)
	}
	code, out, _ = run(t, tempDB(t), "catalog", "gpus")
	for _, id := range []string{"a100-80gb", "h100-sxm", "h200-sxm", "l40s", "mi300x"} {
		if code != ExitOK || !strings.Contains(out, id) {
			t.Errorf("catalog gpus lacks %s", id)
		}
	}
}

// version prints the build (what package version reads from the binary)
// with the model and schema versions, and opens no store.
func TestVersion(t *testing.T) {
	db := tempDB(t)
	code, out, errs := run(t, db, "version")
	if code != ExitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	v := version.Current()
	for _, want := range []string{
		"hostplan " + v.Version + "\n",
		"\ngo:              " + v.GoVersion + " " + v.Platform + "\n",
		"\nmodel:           " + model.Version + "\n",
		"\nscenario schema: " + strconv.Itoa(scenario.SchemaVersion) + "\n",
		"\ncommit:          ", "\nbuilt:           ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("version output lacks %q:\n%s", want, out)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("version touched the store: %v", err)
	}
	if code, _, errs := run(t, db, "version", "extra"); code != ExitUsage || !strings.Contains(errs, `unexpected argument "extra"`) {
		t.Errorf("version extra: exit %d, stderr %q", code, errs)
	}
}

// Each direction's line of the eval table carries the oldest price date
// that direction used (its prices_as_of), "—" where it used none, as the
// window and the brief do.
func TestEvalTableShowsEachDirectionsPriceDate(t *testing.T) {
	f := examples(t)[0]
	code, out, errs := run(t, tempDB(t), "eval", "--format", "json", f)
	if code != ExitOK {
		t.Fatalf("%s: exit %d: %s", f, code, errs)
	}
	var r struct {
		Directions []struct {
			Title      string `json:"title"`
			PricesAsOf string `json:"prices_as_of"`
		} `json:"directions"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	code, table, errs := run(t, tempDB(t), "eval", f)
	if code != ExitOK {
		t.Fatalf("%s table: exit %d: %s", f, code, errs)
	}
	if !strings.Contains(table, "prices as of") {
		t.Errorf("the direction table has no prices as of column:\n%s", table)
	}
	dated := 0
	for _, d := range r.Directions {
		want := d.PricesAsOf
		if want == "" {
			want = "—"
		} else {
			dated++
		}
		found := false
		for _, line := range strings.Split(table, "\n") {
			fields := strings.Fields(line)
			if strings.HasPrefix(strings.TrimSpace(line), d.Title) && len(fields) > 0 && fields[len(fields)-1] == want {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s: no line of the table ends with its prices as of %q:\n%s", d.Title, want, table)
		}
	}
	if dated == 0 {
		t.Errorf("%s: no direction used a dated price", f)
	}
}
