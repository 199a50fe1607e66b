package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// numberPaths lists the path ("[]" for a list index) of every number of
// type t: Value, float64, int and uint64 fields.
func numberPaths(t reflect.Type, path string, out *[]string) {
	if t == valueType {
		*out = append(*out, path)
		return
	}
	switch t.Kind() {
	case reflect.Float64, reflect.Int, reflect.Uint64:
		*out = append(*out, path)
	case reflect.Pointer:
		numberPaths(t.Elem(), path, out)
	case reflect.Slice:
		numberPaths(t.Elem(), path+"[]", out)
	case reflect.Struct:
		for _, f := range jsonFields(t) {
			numberPaths(f.Type, join(path, jsonName(f)), out)
		}
	}
}

// Every number of the file format has exactly one range, with a meaning,
// and every range belongs to a number.
func TestEveryNumberHasABound(t *testing.T) {
	var paths []string
	numberPaths(reflect.TypeOf(Scenario{}), "", &paths)
	if len(paths) < 60 {
		t.Fatalf("found only %d numbers", len(paths))
	}
	var table []string
	for _, b := range ScenarioBounds() {
		table = append(table, b.Path)
		if b.Why == "" || !(b.Min <= b.Max) || math.IsInf(b.Max, 0) {
			t.Errorf("%s: %+v", b.Path, b.Range)
		}
	}
	if !slices.Equal(paths, table) {
		t.Errorf("numbers of the file and rows of the table differ (both in field order):\nfile  %q\ntable %q", paths, table)
	}
}

// setPath sets the field at path (dots; "[]" adds a list element copied
// from the first or a new object) in decoded JSON m.
func setPath(m map[string]any, path string, v any) {
	parts := strings.Split(path, ".")
	cur := m
	for i, p := range parts {
		last := i == len(parts)-1
		if name, ok := strings.CutSuffix(p, "[]"); ok && last {
			cur[name] = []any{v} // a list of numbers
			return
		} else if ok {
			list, _ := cur[name].([]any)
			if len(list) == 0 {
				list = []any{map[string]any{}}
			}
			cur[name] = list
			cur = list[0].(map[string]any)
			continue
		}
		if last {
			cur[p] = v
			return
		}
		next, ok := cur[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
}

// Each range is enforced: just above its maximum (and below its minimum)
// is refused with the field's path and the range in words; the limits
// themselves pass Validate's range check.
func TestEveryBoundIsEnforced(t *testing.T) {
	for _, b := range ScenarioBounds() {
		if b.Path == "schema_version" {
			continue
		}
		want := strings.ReplaceAll(b.Path, "[]", "[0]")
		for _, x := range []float64{b.Max*2 + 1, b.Min - 1, math.MaxFloat64} {
			if b.Whole && x > 1<<62 {
				continue // not a whole number JSON can carry into an int
			}
			if x == 0 && b.Zero != "" {
				continue // 0 means the default
			}
			doc := edit(t, func(m map[string]any) {
				setPath(m, b.Path, x)
				if strings.HasPrefix(b.Path, "workload.trial") {
					m["workload"].(map[string]any)["trial_gpu"] = "h100-sxm"
				}
			})
			_, err := Parse(doc)
			line := want + ": " + Num(x) + " is out of range (allowed: " + b.Range.String() + ")"
			if b.Path == "seed" && x < 0 {
				line = "seed: must not be negative"
			}
			if err == nil || !strings.Contains(err.Error(), line) {
				t.Errorf("%s = %v: want %q, got\n%v", b.Path, x, line, err)
			}
		}
		for _, x := range []float64{b.Max, b.Min} {
			if b.MinOpen && x == b.Min {
				continue
			}
			doc := edit(t, func(m map[string]any) { setPath(m, b.Path, x) })
			_, err := Parse(doc)
			if err != nil && strings.Contains(err.Error(), want+": ") && strings.Contains(err.Error(), "out of range") {
				t.Errorf("%s = %v (a limit) is refused: %v", b.Path, x, err)
			}
		}
	}
}

func TestRangeWords(t *testing.T) {
	for _, tc := range []struct {
		r    Range
		want string
	}{
		{Range{Min: 0, MinOpen: true, Max: 100_000}, "a number > 0 and ≤ 100,000"},
		{Range{Min: 0.001, Max: 1}, "a number ≥ 0.001 and ≤ 1"},
		{Range{Min: 1, Max: 1e6, Whole: true, Zero: "the default"}, "a whole number from 1 to 1,000,000, or 0 for the default"},
		{Range{Min: 0, Max: 1e15}, "a number ≥ 0 and ≤ 1e15"},
	} {
		if got := tc.r.String(); got != tc.want {
			t.Errorf("%+v: %q, want %q", tc.r, got, tc.want)
		}
	}
	for x, want := range map[float64]string{1e308: "1e308", 1e-300: "1e-300", -7: "-7", 0.5: "0.5", 1234567: "1,234,567", 2.5e9: "2.5e9",
		1 << 62: "4,611,686,018,427,387,904", 1<<53 - 1: "9,007,199,254,740,991", 1e10: "1e10", 20000000001: "20,000,000,001"} {
		if got := Num(x); got != want {
			t.Errorf("Num(%v) = %q, want %q", x, got, want)
		}
	}
	r := Range{Min: 1, Max: 10, Whole: true, Zero: "none"}
	for x, want := range map[float64]bool{0: true, 1: true, 10: true, 1.5: false, 11: false, -1: false, math.NaN(): false, math.Inf(1): false} {
		if r.Contains(x) != want {
			t.Errorf("Contains(%v) = %v", x, !want)
		}
	}
}

// The JSON Schema carries the ranges: an editor refuses what Validate
// refuses.
func TestSchemaPublishesBounds(t *testing.T) {
	var doc any
	if err := json.Unmarshal(SchemaJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("scenario.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path string
		v    any
		ok   bool
	}{
		{"workload.model.params_b", 1e308, false},
		{"workload.model.params_b", 70.0, true},
		{"workload.mfu", 1e-300, false},
		{"workload.mfu", map[string]any{"low": 0.2, "likely": 0.3, "high": 2}, false},
		{"options.on_prem.nodes", 4611686018427387904.0, false},
		{"options.on_prem.nodes", 0.0, true},
		{"options.on_prem.life_years", 0.5, false},
		{"options.on_prem.life_years", 0.0, true},
		{"dimensions.economics.weight", 1e308, false},
	} {
		var m map[string]any
		json.Unmarshal(edit(t, func(m map[string]any) { setPath(m, tc.path, tc.v) }), &m)
		err := sch.Validate(m)
		if (err == nil) != tc.ok {
			t.Errorf("%s = %v: schema error %v, want ok %v", tc.path, tc.v, err, tc.ok)
		}
	}
}

func TestParseRefusesDuplicateKeysAndBadUTF8(t *testing.T) {
	src := valid(t)
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"duplicate id", bytes.Replace(src, []byte(`"id": "nightly-document-batch",`), []byte(`"id": "nightly-document-batch", "id": "other",`), 1),
			"id: duplicate key (allowed: each key once in an object)"},
		{"nested duplicate", bytes.Replace(src, []byte(`"precision": "`), []byte(`"precision": "fp8", "precision": "`), 1),
			"workload.precision: duplicate key"},
		{"duplicate in an estimate", bytes.Replace(src, []byte(`"tokens_per_run_b": {`), []byte(`"tokens_per_run_b": {"low": 1, `), 1),
			"workload.tokens_per_run_b.low: duplicate key"},
		{"bad UTF-8 in a value", bytes.Replace(src, []byte(`"name": "`), []byte("\"name\": \"caf\xe9 "), 1),
			"name: the text is not valid UTF-8 (byte "},
		{"bad UTF-8 in a key", bytes.Replace(src, []byte(`"name": "`), []byte("\"n\xffame\": \""), 1),
			"(file): a key is not valid UTF-8 (byte "},
		{"bad UTF-8 where JSON breaks", []byte("{\n\"id\": \xff}"),
			"(file): the file is not valid UTF-8 (byte 8, line 2, column 7)"},
	} {
		_, err := Parse(tc.b)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: want %q, got %v", tc.name, tc.want, err)
		}
	}
	// Text that is UTF-8 stays as written.
	s, err := Parse(bytes.Replace(src, []byte(`"name": "`), []byte(`"name": "café ✓ `), 1))
	if err != nil || !strings.HasPrefix(s.Name, "café ✓ ") {
		t.Errorf("UTF-8 name: %v, %q", err, s.Name)
	}
}

func TestParseLimits(t *testing.T) {
	big := append([]byte(`{"description": "`), bytes.Repeat([]byte("x"), MaxFileBytes)...)
	big = append(big, `"}`...)
	_, err := Parse(big)
	if err == nil || err.Error() != fmt.Sprintf("(file): is %s bytes, too large to read (allowed: a scenario file of at most 1,048,576 bytes (1 MiB))", Num(float64(len(big)))) {
		t.Errorf("large file: %v", err)
	}
	doc := edit(t, func(m map[string]any) {
		w := m["workload"].(map[string]any)
		var pts []any
		for i := 0; i < MaxTrialPoints+1; i++ {
			pts = append(pts, map[string]any{"gpus": i + 1, "throughput": 100})
		}
		w["trial"], w["trial_gpu"] = pts, "h100-sxm"
	})
	_, err = Parse(doc)
	if err == nil || err.Error() != "workload.trial: has 1,001 points (allowed: at most 1,000 trial points)" {
		t.Errorf("too many points: %v", err)
	}
	// Load refuses a large file without reading it whole.
	path := t.TempDir() + "/big.json"
	if err := os.WriteFile(path, big, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil || !strings.Contains(err.Error(), "too large") {
		t.Errorf("Load: %v", err)
	}
}
