package model

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

// scenarioPaths returns every field path of the scenario (JSON names joined
// by dots, arrays without an index) and every enum value that is not a
// plain English word (it has an underscore), from the scenario's JSON
// Schema.
func scenarioPaths() (paths map[string]bool, enums []string) {
	paths = map[string]bool{}
	var walk func(node map[string]any, path string)
	walk = func(node map[string]any, path string) {
		if path != "" {
			paths[path] = true
		}
		if e, ok := node["enum"].([]string); ok {
			for _, v := range e {
				if strings.Contains(v, "_") && !slices.Contains(enums, v) {
					enums = append(enums, v)
				}
			}
		}
		if items, ok := node["items"].(map[string]any); ok {
			walk(items, path)
		}
		props, _ := node["properties"].(map[string]any)
		for name, p := range props {
			child := name
			if path != "" {
				child = path + "." + name
			}
			walk(p.(map[string]any), child)
		}
	}
	walk(scenario.JSONSchema(), "")
	return paths, enums
}

// checkWords checks the typed reasons and notes of a report: each code is
// one the model defines, with its kind; each field is a path of the
// scenario; each text is plain words, naming neither a field path nor an
// enum value (catalog notes are the catalog's own words and exempt).
func checkWords(t *testing.T, label string, r *Report) {
	t.Helper()
	paths, enums := scenarioPaths()
	plain := func(what, text string, fields []string) {
		t.Helper()
		if text == "" {
			t.Errorf("%s: %s has no text", label, what)
		}
		for _, f := range fields {
			if !paths[f] {
				t.Errorf("%s: %s names %q, which is not a scenario field", label, what, f)
			}
		}
		for p := range paths {
			if strings.Contains(p, ".") && strings.Contains(text, p) {
				t.Errorf("%s: %s %q names the field path %s", label, what, text, p)
			}
		}
		for _, e := range enums {
			if strings.Contains(text, e) {
				t.Errorf("%s: %s %q names the enum value %s", label, what, text, e)
			}
		}
	}
	note := func(who string, n Note) {
		t.Helper()
		if !slices.Contains(NoteCodes, n.Code) || n.Kind != n.Code.Kind() || n.Fields == nil {
			t.Errorf("%s: %s note %+v: unknown code, wrong kind or nil fields", label, who, n)
		}
		if n.Kind != NoteCatalog {
			plain(who+" note "+string(n.Code), n.Text, n.Fields)
		}
	}
	for _, w := range r.Warnings {
		note("report", w)
	}
	for _, d := range r.Directions {
		for _, rs := range d.Reasons {
			if !slices.Contains(ReasonCodes, rs.Code) || rs.Kind != rs.Code.Kind() || len(rs.Fields) == 0 {
				t.Errorf("%s: %s reason %+v: unknown code, wrong kind or no fields", label, d.Direction, rs)
			}
			plain(d.Direction+" reason "+string(rs.Code), rs.Text, rs.Fields)
		}
		for _, n := range d.Notes {
			note(d.Direction, n)
		}
		if d.Bottleneck != "" && !slices.Contains(Bottlenecks, d.Bottleneck) {
			t.Errorf("%s: %s bottleneck %q is not one the model names", label, d.Direction, d.Bottleneck)
		}
		for _, p := range d.Scaling {
			if !slices.Contains(Bottlenecks, p.Bottleneck) {
				t.Errorf("%s: %s at %d GPUs: bottleneck %q is not one the model names", label, d.Direction, p.GPUs, p.Bottleneck)
			}
		}
	}
}

// The code tables: every code once, with a kind from the lists.
func TestCodeTables(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range ReasonCodes {
		if seen[string(c)] || c == "" {
			t.Errorf("reason code %q is empty or listed twice", c)
		}
		seen[string(c)] = true
		if !slices.Contains(Kinds, c.Kind()) {
			t.Errorf("reason code %s has kind %q", c, c.Kind())
		}
	}
	if len(ReasonCodes) != len(reasonKinds) {
		t.Errorf("%d reason codes listed, %d in the table", len(ReasonCodes), len(reasonKinds))
	}
	kinds := []NoteKind{NoteAssumption, NotePlan, NoteCaveat, NoteCatalog}
	for _, c := range NoteCodes {
		if seen[string(c)] || c == "" {
			t.Errorf("note code %q is empty or listed twice", c)
		}
		seen[string(c)] = true
		if !slices.Contains(kinds, c.Kind()) {
			t.Errorf("note code %s has kind %q", c, c.Kind())
		}
	}
	if ReasonCode("no_such_code").Kind() != KindOther || NoteCode("no_such_code").Kind() != NoteCaveat {
		t.Error("an unknown code does not fall back to other / caveat")
	}
	paths, enums := scenarioPaths()
	// The checks of checkWords see the schema: fields, nested fields and
	// enum values.
	if !paths["data.movement"] || !paths["workload.traffic.peak_rps"] || !paths["dimensions.operations.staff_fte"] ||
		!slices.Contains(enums, "snapshot_only") || !slices.Contains(enums, "hpc_scheduler") {
		t.Fatalf("the schema walk misses fields or enum values: %d paths, enums %v", len(paths), enums)
	}
	var texts []string
	for _, b := range Bottlenecks {
		if b.Text() == "" || strings.Contains(b.Text(), "_") {
			t.Errorf("bottleneck %s reads %q", b, b.Text())
		}
		texts = append(texts, b.Text())
		for _, f := range b.Fields() {
			if !paths[f] {
				t.Errorf("bottleneck %s names %q, which is not a scenario field", b, f)
			}
		}
	}
	sort.Strings(texts)
	if got := strings.Join(texts, ", "); got != "communication, compute, data path, measured, memory bandwidth, memory capacity, queue, serial part" {
		t.Errorf("bottleneck texts %s", got)
	}
}

func examples(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("../../scenarios/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no example scenarios: %v", err)
	}
	return files
}

// The reasons and notes of every example are typed and in plain words.
func TestExamplesSpeakPlainly(t *testing.T) {
	files := examples(t)
	for _, f := range files {
		s, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		r := eval(t, s)
		checkWords(t, f, r)
		if r.EfficiencyThreshold != s.Workload.EfficiencyThreshold.Or(DefaultEfficiencyThreshold) || r.EfficiencyThreshold <= 0 {
			t.Errorf("%s: efficiency threshold %g in the report", f, r.EfficiencyThreshold)
		}
	}
}

// A scenario's own efficiency threshold is the report's, and it is the one
// MaxEfficientGPUs was judged by.
func TestReportCarriesThreshold(t *testing.T) {
	s := base()
	s.Workload.EfficiencyThreshold = scenario.Known(0.9)
	r := eval(t, s)
	if r.EfficiencyThreshold != 0.9 {
		t.Fatalf("threshold %g, want 0.9", r.EfficiencyThreshold)
	}
	d := r.Direction(scenario.Cloud)
	if got := maxEfficient(d.Scaling, 0.9); got != d.MaxEfficientGPUs {
		t.Errorf("max efficient GPUs %d, want %d at 90 %%", d.MaxEfficientGPUs, got)
	}
}
