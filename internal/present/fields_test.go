package present

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// scenarioPaths lists every field path of the scenario types by
// reflection, "[]" for list indices, with whether the field holds a number.
// Objects and lists of objects are listed too (not numbers).
func scenarioPaths(t reflect.Type, path string, out map[string]bool) {
	switch {
	case t == valueType:
		out[path] = true
	case t.Kind() == reflect.Pointer:
		scenarioPaths(t.Elem(), path, out)
	case t.Kind() == reflect.Struct:
		if path != "" {
			out[path] = false
		}
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				scenarioPaths(f.Type, path, out)
				continue
			}
			if name := jsonName(f); f.IsExported() && name != "-" {
				scenarioPaths(f.Type, join(path, name), out)
			}
		}
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		out[path] = false
		scenarioPaths(t.Elem(), path+"[]", out)
		delete(out, path+"[]") // the element is the list's object, named by the list
	case t.Kind() == reflect.Slice:
		out[path] = false // a list of plain values is one field
	default:
		switch t.Kind() {
		case reflect.Int, reflect.Int64, reflect.Uint64, reflect.Float64:
			out[path] = true
		default:
			out[path] = false
		}
	}
}

// identifiers are numbers that count nothing, so have no unit.
var identifiers = map[string]bool{
	"schema_version": true, // a format version
	"seed":           true, // a random seed
}

// TestEveryFieldHasWording fails when a field is added to the scenario
// without a label, a unit (for a number) and a help line here, or when an
// entry here names no field of the scenario.
func TestEveryFieldHasWording(t *testing.T) {
	paths := map[string]bool{}
	scenarioPaths(reflect.TypeOf(scenario.Scenario{}), "", paths)
	if len(paths) < 100 {
		t.Fatalf("found only %d scenario fields; the walk is broken", len(paths))
	}
	for p, number := range paths {
		f, ok := fields[p]
		if !ok {
			t.Errorf("%s: no label, unit or help", p)
			continue
		}
		if f.Path != p {
			t.Errorf("%s: entry says its path is %s", p, f.Path)
		}
		if strings.TrimSpace(f.Label) == "" {
			t.Errorf("%s: no label", p)
		}
		switch {
		case number && f.Unit == "" && !identifiers[p]:
			t.Errorf("%s: a number without a unit", p)
		case !number && f.Unit != "":
			t.Errorf("%s: unit %q on a field that is not a number", p, f.Unit)
		}
		h := f.Help
		if h == "" || strings.Contains(h, "\n") || !strings.ContainsAny(h[len(h)-1:], ".?") || h == f.Label {
			t.Errorf("%s: help %q is not one line ending in . or ?", p, h)
		}
		if strings.Contains(h, "TODO") || strings.Contains(strings.ToLower(h), "tbd") {
			t.Errorf("%s: help %q is a placeholder", p, h)
		}
	}
	for p := range fields {
		if _, ok := paths[p]; !ok {
			t.Errorf("%s has wording but is not a scenario field", p)
		}
	}
}

// TestLabelsAreUnique: a label names one input, so a tornado bar or a row
// of the Inputs sheet cannot be mistaken for another. (An object's label
// may repeat an input's: the dimension "Workload shape" and the field.)
func TestLabelsAreUnique(t *testing.T) {
	var s scenario.Scenario
	s.Workload.Traffic = &scenario.Traffic{}
	s.Workload.Trial = []scenario.TrialPoint{{}}
	s.Data.Lifecycle = []scenario.LifecycleStage{{}}
	s.PriceOverrides = []scenario.PriceOverride{{}}
	seen := map[string]string{}
	for _, in := range Inputs(&s) {
		p, f := in.Field.Path, in.Field
		if q, dup := seen[f.Label]; dup {
			t.Errorf("%s and %s are both labelled %q", p, q, f.Label)
		}
		seen[f.Label] = p
	}
}

// enumPaths lists the enumerated fields of the JSON Schema with their
// allowed values, by the field's path (a list of choices by the list's).
func enumPaths(node map[string]any, path string, out map[string][]string) {
	if enum, ok := node["enum"].([]string); ok {
		out[strings.TrimSuffix(path, "[]")] = enum
	}
	if props, ok := node["properties"].(map[string]any); ok {
		for name, child := range props {
			enumPaths(child.(map[string]any), join(path, name), out)
		}
	}
	if items, ok := node["items"].(map[string]any); ok {
		enumPaths(items, path+"[]", out)
	}
}

// TestChoicesCoverSchema fails when an enumerated field gains a value
// without a label, or when the labels name values the field does not have.
func TestChoicesCoverSchema(t *testing.T) {
	enums := map[string][]string{}
	enumPaths(scenario.JSONSchema(), "", enums)
	if len(enums) < 10 {
		t.Fatalf("found only %d enumerated fields in the schema", len(enums))
	}
	for p, values := range enums {
		cs := Choices(p)
		var got []string
		for _, c := range cs {
			got = append(got, c.Value)
			if c.Label == "" || c.Help == "" || strings.Contains(c.Help, "\n") {
				t.Errorf("%s = %s: label %q, help %q", p, c.Value, c.Label, c.Help)
			}
		}
		if !slices.Equal(got, values) {
			t.Errorf("%s: choices %q, want the schema's %q in its order", p, got, values)
		}
		if _, ok := fields[p]; !ok {
			t.Errorf("choices for %s, which has no field wording", p)
		}
	}
	for p := range choices {
		if _, ok := enums[strings.TrimSuffix(p, "[]")]; !ok {
			t.Errorf("choices for %s, which the schema does not enumerate", p)
		}
	}
}

func TestLookup(t *testing.T) {
	for _, tc := range []struct{ path, want string }{
		{"workload.tokens_per_run_b", "workload.tokens_per_run_b"},
		{"workload.trial[2].gpus", "workload.trial[].gpus"},
		{"workload.trial[].gpus", "workload.trial[].gpus"},
		{"data.lifecycle[12].owner", "data.lifecycle[].owner"},
		{"data.return_outputs[0]", "data.return_outputs"},
		{"workload.traffic.peak_rps.low", "workload.traffic.peak_rps"},
		{"workload.traffic", "workload.traffic"},
		{"dimensions", "dimensions"},
	} {
		f, ok := Lookup(tc.path)
		if !ok || f.Path != tc.want {
			t.Errorf("Lookup(%q) = %q, %v; want %q", tc.path, f.Path, ok, tc.want)
		}
	}
	for _, p := range []string{"", "workload.purpose", "(file)", "workload.trial[x].gpus", "workload.shape.low"} {
		if f, ok := Lookup(p); ok {
			t.Errorf("Lookup(%q) found %q", p, f.Path)
		}
	}
}

func TestShort(t *testing.T) {
	for path, want := range map[string]string{
		"options.cloud.price_per_gpu_hour": "Price per GPU-hour",
		"options.on_prem.pue":              "PUE",
		"price_overrides[].as_of":          "As of",
		"dimensions.economics.weight":      "Economics weight",
		"workload.tokens_per_run_b":        "Tokens per run",
	} {
		if f, _ := Lookup(path); f.Short() != want {
			t.Errorf("%s: Short() = %q, want %q", path, f.Short(), want)
		}
	}
}

func TestSection(t *testing.T) {
	for path, want := range map[string]string{
		"purpose.owner":                   "Purpose",
		"workload.trial[0].gpus":          "Workload",
		"data.lifecycle":                  "Data",
		"dimensions.economics.budget_cap": "Decision dimensions",
		"options.hpc.gpus":                "Direction options",
		"currency":                        "",
		"price_overrides[0].kind":         "",
	} {
		if got := Section(path); got != want {
			t.Errorf("Section(%q) = %q, want %q", path, got, want)
		}
	}
}

func TestInputNameAndTitle(t *testing.T) {
	for _, tc := range []struct{ path, name, title string }{
		{"workload.tokens_per_run_b", "Tokens per run", "Tokens per run (billions)"},
		{"workload.mfu", "Model FLOPs utilisation", "Model FLOPs utilisation (fraction)"},
		{"dimensions.economics.budget_cap", "Budget cap over the horizon", "Budget cap over the horizon (EUR)"},
		{"workload.trial[2].throughput", "Trial throughput (3)", "Trial throughput (3, items or tokens/s)"},
		{"data.lifecycle[0].owner", "Lifecycle stage owner (1)", "Lifecycle stage owner (1)"},
		{"options.hpc.queue_wait_hours (catalog)", "Shared HPC: queue wait, catalog estimate", "Shared HPC: queue wait (hours), catalog estimate"},
		{"workload.purpose", "workload.purpose", "workload.purpose"}, // unknown: the path itself
		{"=1+1", "=1+1", "=1+1"},
	} {
		if got := InputName(tc.path); got != tc.name {
			t.Errorf("InputName(%q) = %q, want %q", tc.path, got, tc.name)
		}
		if got := InputTitle(tc.path, "EUR"); got != tc.title {
			t.Errorf("InputTitle(%q) = %q, want %q", tc.path, got, tc.title)
		}
	}
}

func TestChoiceLabel(t *testing.T) {
	for _, tc := range []struct{ path, value, want string }{
		{"data.movement", "snapshot_only", "Only an approved, minimised snapshot may leave"},
		{"workload.shape", "fine_tuning", "Fine-tuning"},
		{"data.lifecycle[3].status", "in_progress", "In progress"},
		{"data.return_outputs[1]", "model_weights", "model weights"},
		{"options.hybrid.burst_to", "hpc", "Shared HPC"},
		{"workload.shape", "quantum_annealing", "Quantum annealing"}, // unknown: humanised
		{"data.movement", "", ""},
		{"name", "snapshot_only", "Snapshot only"}, // not enumerated
	} {
		if got := ChoiceLabel(tc.path, tc.value); got != tc.want {
			t.Errorf("ChoiceLabel(%q, %q) = %q, want %q", tc.path, tc.value, got, tc.want)
		}
	}
	if got, want := ChoiceLabels("dimensions.operations.skills", []string{"cloud", "kubernetes", "hpc_scheduler"}), "cloud operations, Kubernetes, HPC batch scheduling"; got != want {
		t.Errorf("ChoiceLabels = %q, want %q", got, want)
	}
}

// TestSchemaCarriesWording: every field of the JSON Schema that
// hostplan schema prints has the field's label as its title and a
// description that starts with its help.
func TestSchemaCarriesWording(t *testing.T) {
	n := 0
	var check func(node map[string]any, path string)
	check = func(node map[string]any, path string) {
		if items, ok := node["items"].(map[string]any); ok {
			node, path = items, path+"[]"
		}
		props, _ := node["properties"].(map[string]any)
		for name, child := range props {
			p := join(path, name)
			c := child.(map[string]any)
			f := fields[p]
			desc, _ := c["description"].(string)
			if c["title"] != f.Label || f.Label == "" || !strings.HasPrefix(desc, f.Help) {
				t.Errorf("%s: title %q, description %q", p, c["title"], desc)
			}
			n++
			check(c, p)
		}
	}
	check(Schema(), "")
	if n != len(fields) {
		t.Errorf("the schema annotates %d fields, the tables word %d", n, len(fields))
	}
	mv, _ := Schema()["properties"].(map[string]any)["data"].(map[string]any)["properties"].(map[string]any)["movement"].(map[string]any)
	if d, _ := mv["description"].(string); !strings.Contains(d, "snapshot_only: Only an approved, minimised snapshot may leave") {
		t.Errorf("data.movement's description %q does not explain its values", d)
	}
	var doc map[string]any
	if err := json.Unmarshal(SchemaJSON(), &doc); err != nil || doc["title"] != "hostplan scenario" {
		t.Errorf("SchemaJSON: %v", err)
	}
}

// Every field with facts has words, and a path's shapes cover the fields
// under it.
func TestFacts(t *testing.T) {
	for path, f := range facts {
		if _, ok := Lookup(path); !ok {
			t.Errorf("facts name %s, which has no wording", path)
		}
		for _, s := range f.Shapes {
			if !slices.Contains(scenario.Shapes, s) {
				t.Errorf("%s: unknown shape %q", path, s)
			}
		}
	}
	if !MattersFor("workload.traffic.peak_rps", scenario.ShapeInteractive) || MattersFor("workload.traffic.peak_rps", scenario.ShapeTraining) {
		t.Error("workload.traffic does not cover its fields")
	}
	if !MattersFor("workload.trial[2].gpus", scenario.ShapeTraining) || !MattersFor("workload.sharding", "") {
		t.Error("a field without shapes, or a scenario without one, hides fields")
	}
	if FactsOf("options.cloud.offer").Catalog != catalog.KindCloud || !FactsOf("description").Multiline {
		t.Error("facts lost")
	}
}
