package present

import (
	"encoding/json"
	"io/fs"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/scenarios"
)

var numberRE = regexp.MustCompile(`\d[\d,]*(\.\d+)?`)

// defaultClause is the part of a help that states the field's default —
// from the bracket, semicolon or sentence before "when not given" to the
// bracket or semicolon after it — and the numbers it names; "" when the
// help states none.
func defaultClause(help string) (clause string, numbers []float64) {
	low := strings.ToLower(help)
	i := strings.Index(low, "when not given")
	if i < 0 {
		return "", nil
	}
	start := max(strings.LastIndex(help[:i], "("), strings.LastIndex(help[:i], ";"), strings.LastIndex(help[:i], ". ")) + 1
	end := len(help)
	if j := strings.IndexAny(help[i:], ");"); j >= 0 {
		end = i + j
	}
	clause = help[start:end]
	for _, m := range numberRE.FindAllString(clause, -1) {
		x, err := strconv.ParseFloat(strings.ReplaceAll(m, ",", ""), 64)
		if err == nil {
			numbers = append(numbers, x)
		}
	}
	return clause, numbers
}

// Every number a help names as the field's default is the engine's:
// the help names exactly the numbers of the field's entry in defaults,
// and a field whose help names a default number has an entry.
func TestHelpDefaultsAreTheEngines(t *testing.T) {
	for path, f := range fields {
		clause, numbers := defaultClause(f.Help)
		d, ok := defaults[path]
		switch {
		case len(numbers) > 0 && !ok:
			t.Errorf("%s: the help names a default (%q) that no entry of defaults ties to the engine", path, clause)
		case ok && !slices.Equal(numbers, d.named):
			t.Errorf("%s: the help names %v when not given (%q), the engine %v", path, numbers, clause, d.named)
		}
	}
	for path := range defaults {
		if _, ok := fields[path]; !ok {
			t.Errorf("defaults name %s, which has no help", path)
		}
	}
	// The defaults docs/report.md states in its prose.
	if model.DefaultMFU != 0.4 || model.DefaultEfficiencyThreshold != 0.7 || model.DefaultScaleUpMargin != 0.25 ||
		model.DefaultHybridExtraStaffFTE != 0.25 || defaultSite.InfrastructureShare != 0.15 || defaultSite.CostOfCapital != 0.08 || defaultSite.RackKW != 20 {
		t.Error("a default changed: update docs/report.md, which states it")
	}
}

// Writing in the default a help names changes no example's report: for
// every field whose help names a default value, each example scenario
// evaluates the same without the field and with the value. A help that
// names one number for every workload is taken at its word; one that
// names several (by shape, or a table) is checked through defaults.
func TestHelpDefaultsChangeNothing(t *testing.T) {
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	names, err := fs.Glob(scenarios.FS, "*.json")
	if err != nil || len(names) == 0 {
		t.Fatal(names, err)
	}
	var paths []string
	for path, f := range fields {
		if _, numbers := defaultClause(f.Help); len(numbers) > 0 {
			paths = append(paths, path)
		}
	}
	slices.Sort(paths)
	for _, name := range names {
		b, err := fs.ReadFile(scenarios.FS, name)
		if err != nil {
			t.Fatal(err)
		}
		for _, path := range paths {
			without, ok := withField(t, b, path, nil)
			if !ok {
				continue
			}
			s0, err := scenario.Parse(without)
			if err != nil {
				t.Fatalf("%s without %s: %v", name, path, err)
			}
			r0, err := model.Evaluate(s0, cat)
			if err != nil {
				t.Fatalf("%s without %s: %v", name, path, err)
			}
			clause, numbers := defaultClause(fields[path].Help)
			x := numbers[0]
			if len(numbers) > 1 || strings.Contains(clause, " for ") {
				v, ok := defaults[path].value(s0.Workload, r0.Workload.ActiveParamsB)
				if !ok {
					continue // a table: the form shows the scenario's figures
				}
				x = v
			}
			with, _ := withField(t, b, path, x)
			s1, err := scenario.Parse(with)
			if err != nil {
				t.Fatalf("%s with %s = %v: %v", name, path, x, err)
			}
			r1, err := model.Evaluate(s1, cat)
			if err != nil {
				t.Fatalf("%s with %s = %v: %v", name, path, x, err)
			}
			if diff := reportDiff(t, r0, r1); diff != "" {
				t.Errorf("%s: %s = %v, which the help names as the default, changes the report: %s", name, path, x, diff)
			}
		}
	}
}

// withField is the scenario file b with the field at path removed (x nil)
// or set to x; false when the object holding it is a list or an optional
// object the scenario leaves out (workload.traffic of a batch job).
func withField(t *testing.T, b []byte, path string, x any) ([]byte, bool) {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(path, ".")
	obj := m
	for _, p := range parts[:len(parts)-1] {
		next, ok := obj[p].(map[string]any)
		if !ok {
			if obj[p] != nil || p == "traffic" {
				return nil, false
			}
			next = map[string]any{}
			obj[p] = next
		}
		obj = next
	}
	if x == nil {
		delete(obj, parts[len(parts)-1])
	} else {
		obj[parts[len(parts)-1]] = x
	}
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out, true
}

// reportDiff compares every number of two reports but those of their
// notes, warnings and sources (which say whether a default was assumed),
// to 1e-12 relative; "" when they agree.
func reportDiff(t *testing.T, a, b *model.Report) string {
	t.Helper()
	na, nb := reportNumbers(t, a), reportNumbers(t, b)
	if len(na) != len(nb) {
		return "the reports differ in shape"
	}
	for k, x := range na {
		y, ok := nb[k]
		if !ok {
			return k + " is missing"
		}
		if x != y && math.Abs(x-y) > 1e-12*math.Max(math.Abs(x), math.Abs(y)) {
			return k + ": " + strconv.FormatFloat(x, 'g', -1, 64) + " → " + strconv.FormatFloat(y, 'g', -1, 64)
		}
	}
	return ""
}

func reportNumbers(t *testing.T, r *model.Report) map[string]float64 {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case float64:
			out[path] = v
		case bool:
			if v {
				out[path] = 1
			} else {
				out[path] = 0
			}
		case []any:
			for i, x := range v {
				walk(path+"["+strconv.Itoa(i)+"]", x)
			}
		case map[string]any:
			for k, x := range v {
				switch k {
				case "notes", "warnings", "sources":
					continue
				}
				walk(path+"."+k, x)
			}
		}
	}
	walk("", v)
	return out
}

// The MFU hint follows the precision: an FP8 run on an H100-class GPU is
// stated on its FP8 peak, 1.28 × the BF16 speed ÷ 2 of the BF16 figure,
// while the A100 class (no FP8) keeps its BF16 figure — the figures the
// model's own note and evaluation use.
func TestMFUHintFollowsPrecision(t *testing.T) {
	w := scenario.Workload{Shape: scenario.ShapeTraining, Precision: "bf16", Method: "full"}
	bf16A, bf16H, _ := model.DefaultMFUs(w, 70)
	w.Precision = "fp8"
	fp8A, fp8H, _ := model.DefaultMFUs(w, 70)
	if fp8A != bf16A || math.Abs(fp8H-bf16H*8532.0/6667/2) > 1e-12 {
		t.Errorf("FP8 hint %g–%g, BF16 %g–%g", fp8A, fp8H, bf16A, bf16H)
	}
	if h := MFUHint(w, 70); h == MFUHint(scenario.Workload{Shape: scenario.ShapeTraining, Precision: "bf16", Method: "full"}, 70) {
		t.Errorf("the FP8 hint %q is the BF16 one", h)
	}
}
