package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"hostplan/internal/present/num"
)

// jsonObject decodes exactly one JSON object from out and checks its key set.
func jsonObject(t *testing.T, out string, keys ...string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(out))
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("not a JSON object: %v\n%s", err, out)
	}
	if dec.More() {
		t.Fatalf("more than one JSON value:\n%s", out)
	}
	var got []string
	for k := range obj {
		got = append(got, k)
	}
	sort.Strings(got)
	sort.Strings(keys)
	if strings.Join(got, ",") != strings.Join(keys, ",") {
		t.Errorf("keys %v, want exactly %v", got, keys)
	}
	return obj
}

func near(t *testing.T, name string, got any, want, tol float64) {
	t.Helper()
	v, ok := got.(float64)
	if !ok || math.Abs(v-want) > tol {
		t.Errorf("%s = %v, want %g ± %g", name, got, want, tol)
	}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// testdata/usl.csv is the synthetic case of the R package usl (tests/coef.R;
// ../shared/reference/figures.md): λ = 1, σ = κ = 0.02, data rounded to four
// decimals, hence the 5e-4 tolerance on σ and κ. N_max = √(0.98/0.02) = 7.
func TestFitSyntheticCase(t *testing.T) {
	code, out, errs := run(t, tempDB(t), "fit", "testdata/usl.csv", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	obj := jsonObject(t, out, "lambda", "sigma", "kappa", "r2", "n_max")
	near(t, "lambda", obj["lambda"], 1, 1e-3)
	near(t, "sigma", obj["sigma"], 0.02, 5e-4)
	near(t, "kappa", obj["kappa"], 0.02, 5e-4)
	near(t, "n_max", obj["n_max"], 7, 0.05)
	if r2, _ := obj["r2"].(float64); !(r2 > 0.9999 && r2 <= 1) {
		t.Errorf("r2 = %v, want in (0.9999, 1]", obj["r2"])
	}

	// Flags may come before the file; the table names every coefficient.
	code, out, errs = run(t, tempDB(t), "fit", "testdata/usl.csv")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"6 trial points of testdata/usl.csv", "λ", "σ", "0.02", "κ", "R²", "1.000000", "N_max", "7.0"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
}

func TestFitLinearHasNoNMax(t *testing.T) {
	// X = 3N exactly: σ = κ = 0, so there is no peak; n_max is null.
	f := writeFile(t, "linear.csv", "Throughput,GPUs\n3,1\n6,2\n12,4\n24,8\n")
	code, out, errs := run(t, tempDB(t), "fit", "--json", f)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	obj := jsonObject(t, out, "lambda", "sigma", "kappa", "r2", "n_max")
	if v, present := obj["n_max"]; !present || v != nil {
		t.Errorf("n_max = %v, want null", v)
	}
	near(t, "kappa", obj["kappa"], 0, 1e-12)
	near(t, "lambda", obj["lambda"], 3, 1e-9)
	_, out, _ = run(t, tempDB(t), "fit", f)
	if !strings.Contains(out, "none (κ = 0: no retrograde region)") {
		t.Errorf("table:\n%s", out)
	}
	if strings.Contains(out, "Inf") || strings.Contains(out, "NaN") {
		t.Errorf("Inf or NaN printed:\n%s", out)
	}
}

func TestFitErrors(t *testing.T) {
	db := tempDB(t)
	bad := writeFile(t, "bad.csv", "gpus,throughput\n1,1\n2,1.9\nfour,abc\n8,-2\n")
	two := writeFile(t, "two.csv", "gpus,throughput\n1,1\n2,1.9\n")
	flat := writeFile(t, "flat.csv", "gpus,throughput\n1,4\n2,4\n4,4\n")
	same := writeFile(t, "same.csv", "gpus,throughput\n1,1\n1,1.1\n2,1.9\n2,1.8\n")
	nohdr := writeFile(t, "nohdr.csv", "1,1\n2,1.9\n4,3\n")
	for _, tc := range []struct {
		name string
		args []string
		want []string
	}{
		{"no file", []string{"fit"}, []string{"fit: give exactly one CSV file"}},
		{"two files", []string{"fit", "a.csv", "b.csv"}, []string{"fit: give exactly one CSV file"}},
		{"missing", []string{"fit", "missing.csv"}, []string{"missing.csv: cannot read"}},
		{"bad values", []string{"fit", bad}, []string{
			bad + `: line 4: gpus "four" is not a number`,
			bad + `: line 4: throughput "abc" is not a number`,
			bad + `: line 5: throughput -2 is out of range (allowed: a finite number > 0)`,
		}},
		{"no header", []string{"fit", nohdr}, []string{nohdr + ": line 1: header lacks column gpus and throughput"}},
		{"two points", []string{"fit", two}, []string{two + ": need at least three trial points, got 2"}},
		{"two distinct", []string{"fit", same}, []string{same + ": need trial points at three or more different GPU counts, got 2"}},
		{"flat", []string{"fit", flat, "--json"}, []string{flat + ": every trial point has the same throughput"}},
		{"unknown flag", []string{"fit", "--xml", "testdata/usl.csv"}, []string{"fit: flag provided but not defined: -xml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, db, tc.args...)
			if code != ExitUsage {
				t.Errorf("exit %d, want 2", code)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(errs, w) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
				if !strings.HasPrefix(l, "hostplan: ") {
					t.Errorf("line %q lacks the hostplan: prefix", l)
				}
			}
		})
	}
}

// Young: √(2δM) with δ = 10 min = 1/6 h, M = 24 h: √8 h = 2.828427 h =
// 169.7056 min. Daly: δ/2M = 1/288, √ = 0.0589256; bracket 1 + 0.0196419 +
// 0.0003858 = 1.0200277; 2.828427 · 1.0200277 − 1/6 = 2.718407 h =
// 163.1044 min. Overhead at Daly's τ: δ/τ + τ/(2M) = 0.0613108 + 0.0566335
// = 0.1179444; a 30-minute restart adds 0.5/24 = 0.0208333 → 0.1387772.
func TestEstimateCheckpoint(t *testing.T) {
	code, out, errs := run(t, tempDB(t), "estimate", "checkpoint", "--write-minutes", "10", "--mtbf-hours", "24", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	obj := jsonObject(t, out, "young_minutes", "daly_minutes", "overhead_fraction")
	near(t, "young_minutes", obj["young_minutes"], 169.7056, 1e-4)
	near(t, "daly_minutes", obj["daly_minutes"], 163.1044, 1e-4)
	near(t, "overhead_fraction", obj["overhead_fraction"], 0.1179444, 1e-6)

	code, out, _ = run(t, tempDB(t), "estimate", "checkpoint", "--json", "--write-minutes=10", "--mtbf-hours=24", "--restart-minutes=30")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	obj = jsonObject(t, out, "young_minutes", "daly_minutes", "overhead_fraction")
	near(t, "overhead_fraction with restarts", obj["overhead_fraction"], 0.1387772, 1e-6)

	code, out, _ = run(t, tempDB(t), "estimate", "checkpoint", "--write-minutes", "10", "--mtbf-hours", "24")
	for _, want := range []string{"Young interval", "169.7 min", "Daly interval", "163.1 min", "11.8 %"} {
		if code != ExitOK || !strings.Contains(out, want) {
			t.Errorf("table (exit %d) lacks %q:\n%s", code, want, out)
		}
	}
	// δ ≥ 2M: Daly's interval is M, and the table says the job cannot be kept going.
	code, out, _ = run(t, tempDB(t), "estimate", "checkpoint", "--write-minutes", "120", "--mtbf-hours", "0.5")
	if code != ExitOK || !strings.Contains(out, "30.0 min") || !strings.Contains(out, "note: one checkpoint takes at least twice") {
		t.Errorf("δ ≥ 2M: exit %d\n%s", code, out)
	}
}

func TestEstimateCheckpointBadValues(t *testing.T) {
	db := tempDB(t)
	ok := []string{"--write-minutes", "10", "--mtbf-hours", "24"}
	with := func(extra ...string) []string {
		return append([]string{"estimate", "checkpoint"}, extra...)
	}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"zero mtbf", with("--write-minutes", "10", "--mtbf-hours", "0"), "estimate checkpoint: --mtbf-hours 0 is out of range (allowed: a number > 0)"},
		{"negative mtbf", with("--write-minutes", "10", "--mtbf-hours", "-5"), "--mtbf-hours -5 is out of range (allowed: a number > 0)"},
		{"NaN write", with("--write-minutes", "NaN", "--mtbf-hours", "24"), `--write-minutes "NaN" is not a number (allowed: a number > 0, written as ` + num.Syntax},
		{"Inf mtbf", with("--write-minutes", "10", "--mtbf-hours", "+Inf"), `--mtbf-hours "+Inf" is not a number (allowed: a number > 0, written as ` + num.Syntax},
		{"zero write", with("--write-minutes", "0", "--mtbf-hours", "24"), "--write-minutes 0 is out of range (allowed: a number > 0)"},
		{"text", with("--write-minutes", "ten", "--mtbf-hours", "24"), `--write-minutes "ten" is not a number (allowed: a number > 0, written as ` + num.Syntax + ")"},
		{"missing mtbf", with("--write-minutes", "10"), "estimate checkpoint: --mtbf-hours is required (allowed: a number > 0)"},
		{"missing write", with("--mtbf-hours", "24"), "estimate checkpoint: --write-minutes is required (allowed: a number > 0)"},
		{"negative restart", with(append(ok, "--restart-minutes", "-1")...), "--restart-minutes -1 is out of range (allowed: a number ≥ 0)"},
		{"no value", with("--write-minutes"), "estimate checkpoint: flag needs an argument: -write-minutes"},
		{"positional", with(append(ok, "extra")...), `estimate checkpoint: unexpected argument "extra"`},
		{"overflow", with("--write-minutes", "1e308", "--mtbf-hours", "1e308"), "gives no finite interval"},
		{"underflow", with("--write-minutes", "5e-324", "--mtbf-hours", "5e-324"), "gives no finite interval"},
		{"restart overflow", with("--write-minutes", "1", "--mtbf-hours", "1e-300", "--restart-minutes", "1e300"), "gives no finite overhead"},
		{"no kind", []string{"estimate"}, "estimate: give what to estimate first (allowed: checkpoint"},
		{"flag first", []string{"estimate", "--json"}, "estimate: give what to estimate first"},
		{"unknown kind", []string{"estimate", "weather"}, `estimate: "weather" is not something hostplan estimates (allowed: checkpoint`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := run(t, db, tc.args...)
			if code != ExitUsage || !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d, stderr %q; want 2 and %q", code, errs, tc.want)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}

// Other files add estimators from their init(); the dispatcher lists them
// sorted and hands each the arguments after its name.
func TestEstimatorsTableIsExtensible(t *testing.T) {
	var got []string
	estimators["aardvark"] = func(e *env, args []string) error { got = args; return nil }
	t.Cleanup(func() { delete(estimators, "aardvark") })
	code, _, errs := run(t, tempDB(t), "estimate", "aardvark", "--x", "1")
	if code != ExitOK || strings.Join(got, " ") != "--x 1" {
		t.Errorf("exit %d (%s), args %q", code, errs, got)
	}
	_, _, errs = run(t, tempDB(t), "estimate", "zebra")
	if !strings.Contains(errs, "(allowed: aardvark, checkpoint") {
		t.Errorf("allowed list not sorted or incomplete: %q", errs)
	}
}

func TestEstimateHelp(t *testing.T) {
	for _, args := range [][]string{
		{"estimate", "checkpoint", "--help"},
		{"fit", "-h"},
	} {
		code, out, errs := run(t, tempDB(t), args...)
		if code != ExitOK || errs != "" || !strings.Contains(out, "Usage: hostplan "+args[0]) || !strings.Contains(out, "-json") {
			t.Errorf("%v: exit %d, stderr %q\n%s", args, code, errs, out)
		}
	}
	_, out, _ := run(t, tempDB(t), "help")
	if !strings.Contains(out, "hostplan estimate") || !strings.Contains(out, "hostplan fit") {
		t.Errorf("usage lacks estimate or fit:\n%s", out)
	}
}

// Numbers on the command line read as in the window's form: thousands
// grouped, a count with a suffix, and a limit copied from a message.
func TestEstimateGroupedNumbers(t *testing.T) {
	db := tempDB(t)
	for _, args := range [][]string{
		{"estimate", "checkpoint", "--write-minutes", "1,000", "--mtbf-hours", "49.5", "--restart-minutes", "15"},
		{"estimate", "train", "--params", "70B", "--tokens", "1,000B", "--gpu", "h100-sxm", "--gpus", "1,024", "--mfu", "0.4"},
		{"estimate", "train", "--params", "70B", "--tokens", "10,000T", "--gpu", "h100-sxm", "--gpus", "1,000,000", "--mfu", "0.4"},
	} {
		if code, _, errs := run(t, db, args...); code != 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, errs)
		}
	}
	want := map[string]string{
		"100,000T":  "--tokens \"100,000T\" is out of range (allowed: a number > 0 and ≤ 10,000T,",
		"1,00B":     "--tokens \"1,00B\" is not a number (allowed: a number > 0 and ≤ 10,000T, written as " + num.CountSyntax + ")",
		"1,000,00T": "is not a number",
	}
	for tokens, w := range want {
		code, _, errs := run(t, db, "estimate", "train", "--params", "70B", "--tokens", tokens, "--gpu", "h100-sxm", "--gpus", "8", "--mfu", "0.4")
		if code != ExitUsage || !strings.Contains(errs, w) {
			t.Errorf("--tokens %s: exit %d, stderr %q; want %q", tokens, code, errs, w)
		}
	}
}
