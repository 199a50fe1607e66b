package scenario

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

func examples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../scenarios/*.json")
	if err != nil || len(files) < 5 {
		t.Fatalf("want at least five example scenarios, found %d (%v)", len(files), err)
	}
	return files
}

func TestExamplesValidate(t *testing.T) {
	shapes := map[string]bool{}
	for _, f := range examples(t) {
		s, err := Load(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		shapes[s.Workload.Shape] = true
		if want := strings.TrimSuffix(filepath.Base(f), ".json"); s.ID != want {
			t.Errorf("%s: id %q should match the file name", f, s.ID)
		}
	}
	for _, sh := range Shapes {
		if !shapes[sh] {
			t.Errorf("no example scenario has shape %s", sh)
		}
	}
}

var update = flag.Bool("update", false, "rewrite the example scenarios in canonical form")

// The examples are in canonical form: Marshal(Parse(file)) == file, so
// files round-trip byte for byte through the store and the GUI.
func TestExamplesRoundTrip(t *testing.T) {
	for _, f := range examples(t) {
		b, _ := os.ReadFile(f)
		s, err := Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		out, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if *update {
			os.WriteFile(f, out, 0o644)
			continue
		}
		if !bytes.Equal(out, b) {
			t.Errorf("%s does not round-trip; canonical form:\n%s", f, out)
		}
	}
}

// The JSON Schema printed by `hostplan schema` accepts every example and
// rejects a file with an unknown field.
func TestExamplesValidateAgainstJSONSchema(t *testing.T) {
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
		t.Fatalf("schema does not compile: %v", err)
	}
	for _, f := range examples(t) {
		b, _ := os.ReadFile(f)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
	bad := map[string]any{}
	b, _ := os.ReadFile(examples(t)[0])
	json.Unmarshal(b, &bad)
	bad["colour"] = "blue"
	bad["workload"].(map[string]any)["shape"] = "quantum"
	if err := sch.Validate(bad); err == nil {
		t.Error("schema accepted an unknown field and an unknown shape")
	}
}

func valid(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile("../../scenarios/nightly-document-batch.json")
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// edit applies fn to the decoded JSON of a valid scenario and re-encodes it.
func edit(t *testing.T, fn func(m map[string]any)) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(valid(t), &m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	b, _ := json.Marshal(m)
	return b
}

func obj(m map[string]any, path ...string) map[string]any {
	for _, p := range path {
		m = m[p].(map[string]any)
	}
	return m
}

func TestParseReportsEveryProblem(t *testing.T) {
	cases := []struct {
		name string
		edit func(m map[string]any)
		want []string
	}{
		{"unknown fields and wrong types together", func(m map[string]any) {
			m["colour"] = "blue"
			obj(m, "workload")["runs_per_month"] = "thirty"
			obj(m, "data")["personal_data"] = "no"
		}, []string{
			"colour: is not a known field (allowed: schema_version, id,",
			"workload.runs_per_month: must be a number or an estimate (allowed: a number or {low, likely, high})",
			"data.personal_data: must be true or false",
		}},
		{"missing required fields", func(m map[string]any) {
			delete(m, "currency")
			delete(obj(m, "purpose"), "owner")
		}, []string{"currency: is required", "purpose.owner: is required"}},
		{"ranges, enums and estimate order", func(m map[string]any) {
			obj(m, "workload")["shape"] = "quantum"
			obj(m, "workload")["mfu"] = 1.5
			obj(m, "data")["volume_gb"] = map[string]any{"low": 80, "likely": 40, "high": 20}
			obj(m, "dimensions", "economics")["horizon_months"] = 0
			obj(m, "data")["movement"] = "sometimes"
		}, []string{
			`workload.shape: "quantum" is not a known value (allowed: interactive_inference, batch_inference, fine_tuning, training)`,
			"workload.mfu: 1.5 is out of range (allowed: a number ≥ 0.001 and ≤ 1)",
			"data.volume_gb: estimate 80, 40, 20 is out of order (allowed: low ≤ likely ≤ high)",
			"dimensions.economics.horizon_months: 0 is out of range (allowed: a whole number from 1 to 120)",
			`data.movement: "sometimes" is not a known value (allowed: any, snapshot_only, none)`,
		}},
		{"negative estimate point named", func(m map[string]any) {
			obj(m, "workload")["tokens_per_run_b"] = map[string]any{"low": -1, "likely": 0.5, "high": 1}
		}, []string{"workload.tokens_per_run_b.low: -1 is out of range (allowed: a number > 0 and ≤ 10,000,000)"}},
		{"incomplete estimate", func(m map[string]any) {
			obj(m, "workload")["tokens_per_run_b"] = map[string]any{"low": 1, "high": 2}
		}, []string{"workload.tokens_per_run_b.likely: is missing from the estimate"}},
		{"shape-specific requirements", func(m map[string]any) {
			obj(m, "workload")["shape"] = "interactive_inference"
			delete(obj(m, "workload"), "traffic")
			obj(m, "workload")["method"] = "lora"
		}, []string{
			"workload.traffic: is required for interactive inference",
			"workload.method: applies to fine-tuning only",
		}},
		{"all weights zero", func(m map[string]any) {
			for _, d := range DimensionNames {
				obj(m, "dimensions", d)["weight"] = 0
			}
		}, []string{"dimensions: all five weights are zero (allowed: at least one weight > 0)"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse(edit(t, tc.edit))
			if err == nil {
				t.Fatal("Parse accepted an invalid file")
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, w) {
					t.Errorf("missing %q in:\n%s", w, msg)
				}
			}
			if got := len(err.(Errors)); got < len(tc.want) {
				t.Errorf("%d errors reported, want at least %d", got, len(tc.want))
			}
		})
	}
}

func TestParseSyntaxErrorHasLine(t *testing.T) {
	_, err := Parse([]byte("{\n  \"id\": \"x\",\n  oops\n}"))
	if err == nil || !strings.Contains(err.Error(), "line 3") {
		t.Errorf("want a line number, got %v", err)
	}
}

func TestValueJSON(t *testing.T) {
	for _, tc := range []struct {
		in       string
		estimate bool
		likely   float64
	}{
		{`12.5`, false, 12.5},
		{`{"low": 1, "likely": 2, "high": 4}`, true, 2},
	} {
		var v Value
		if err := json.Unmarshal([]byte(tc.in), &v); err != nil {
			t.Fatal(err)
		}
		if v.IsEstimate() != tc.estimate || v.Likely != tc.likely || !v.IsSet() {
			t.Errorf("%s → %+v", tc.in, v)
		}
		out, _ := json.Marshal(v)
		var back Value
		json.Unmarshal(out, &back)
		if back != v {
			t.Errorf("round trip %s → %s → %+v", tc.in, out, back)
		}
	}
	if got := Estimate(1, 2, 4).String(); got != "2 (1–4, estimate)" {
		t.Errorf("String = %q", got)
	}
}

func TestEstimatesListsPaths(t *testing.T) {
	s, err := Parse(valid(t))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(Estimates(s), ",")
	if got != "workload.tokens_per_run_b,data.volume_gb,data.file_count" {
		t.Errorf("Estimates = %s", got)
	}
}

// SetWeights sets what Weights reads, dimension by dimension.
func TestSetWeightsRoundTrip(t *testing.T) {
	var d Dimensions
	want := [5]float64{0.1, 0.2, 0.3, 0.4, 0.5}
	d.SetWeights(want)
	if got := d.Weights(); got != want {
		t.Fatalf("Weights() = %v after SetWeights(%v)", got, want)
	}
	if d.Economics.Weight != 0.4 {
		t.Fatalf("economics weight %v, want 0.4", d.Economics.Weight)
	}
}
