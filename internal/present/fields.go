package present

import (
	"reflect"
	"strconv"
	"strings"

	"hostplan/internal/scenario"
)

// Field is the wording of one field of the scenario file.
type Field struct {
	// Path is the field's JSON path, "[]" standing for any list index:
	// "workload.trial[].gpus". A list of plain values has the list's own
	// path ("data.return_outputs"); objects and lists of objects have
	// entries too, so that a problem reported for "workload.traffic" has
	// words of its own.
	Path string
	// Label names the field for people, unambiguous on its own:
	// "Tokens per run", "Cloud: price per GPU-hour".
	Label string
	// Unit is what a number is counted in ("hours", "GB", "¤/GPU-hour";
	// "¤" stands for the scenario currency). Every number has one; text,
	// flags, choices and objects have none.
	Unit string
	// Help says in one line what the field means and what it changes.
	Help string
}

// UnitIn is the unit with the scenario currency in place of "¤".
func (f Field) UnitIn(currency string) string {
	if currency == "" {
		currency = "currency"
	}
	return strings.ReplaceAll(f.Unit, "¤", currency)
}

// Title is the label with its unit, as a column or row heading reads:
// "Tokens per run (billions)", "Budget cap over the horizon (EUR)".
func (f Field) Title(currency string) string {
	if f.Unit == "" {
		return f.Label
	}
	return f.Label + " (" + f.UnitIn(currency) + ")"
}

// Short is the label without the group it names first, for a table or a
// form already headed by that group: "Cloud: price per GPU-hour" → "Price
// per GPU-hour".
func (f Field) Short() string {
	if _, after, ok := strings.Cut(f.Label, ": "); ok {
		return Sentence(after)
	}
	return f.Label
}

// fields holds every entry of the tables in fields_*.go by path.
var fields = func() map[string]Field {
	m := map[string]Field{}
	for _, table := range [][]Field{scenarioFields, purposeFields, workloadFields, dataFields, dimensionFields, optionFields} {
		for _, f := range table {
			if _, dup := m[f.Path]; dup {
				panic("present: two entries for " + f.Path)
			}
			m[f.Path] = f
		}
	}
	return m
}()

// Lookup returns the wording of the field at path. List indices are
// normalised ("workload.trial[2].gpus" is "workload.trial[].gpus", and
// "data.return_outputs[0]" is the list "data.return_outputs"), and the
// part of an estimate names its field ("workload.mfu.low" is
// "workload.mfu"), so a path from a validation error finds its field.
func Lookup(path string) (Field, bool) {
	if f, ok := find(fields, path); ok {
		return f, true
	}
	p := Normalize(path)
	for _, part := range []string{".low", ".likely", ".high"} {
		if trimmed, ok := strings.CutSuffix(p, part); ok && estimable[trimmed] {
			return fields[trimmed], true
		}
	}
	return Field{}, false
}

// find looks path up in m with its list indices normalised; an item of a
// list of plain values ("data.return_outputs[0]") is found by the list's
// own path.
func find[T any](m map[string]T, path string) (T, bool) {
	p := Normalize(path)
	if v, ok := m[p]; ok {
		return v, true
	}
	trimmed, _ := strings.CutSuffix(p, "[]")
	v, ok := m[trimmed]
	return v, ok
}

// estimable holds the paths of the fields that may be estimates (of type
// scenario.Value), found by reflection.
var estimable = func() map[string]bool {
	m := map[string]bool{}
	// walk lists an absent object (workload.traffic) with its zero values.
	walk(reflect.ValueOf(scenario.Scenario{}), "", 0, func(path string, _ int, v reflect.Value, _ bool) {
		if v.Type() == valueType {
			m[path] = true
		}
	})
	return m
}()

// Normalize replaces every list index in a JSON path by "[]":
// "data.lifecycle[2].owner" → "data.lifecycle[].owner".
func Normalize(path string) string {
	if !strings.Contains(path, "[") {
		return path
	}
	var b strings.Builder
	for i := 0; i < len(path); i++ {
		if path[i] == '[' {
			if j := strings.IndexByte(path[i:], ']'); j > 1 && digits(path[i+1:i+j]) {
				b.WriteString("[]")
				i += j
				continue
			}
		}
		b.WriteByte(path[i])
	}
	return b.String()
}

func digits(s string) bool {
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

// lastIndex is the innermost list index of a path, 1-based, or 0 when the
// path has none: "data.lifecycle[2].owner" → 3.
func lastIndex(path string) int {
	close := strings.LastIndexByte(path, ']')
	if close < 0 {
		return 0
	}
	open := strings.LastIndexByte(path[:close], '[')
	if open < 0 {
		return 0
	}
	n, err := strconv.Atoi(path[open+1 : close])
	if err != nil {
		return 0
	}
	return n + 1
}

// Section is the heading of the part of the scenario a path belongs to
// ("Purpose", "Workload", "Data", "Decision dimensions", "Direction
// options"), or "" for the scenario's own fields (name, currency, …).
func Section(path string) string {
	top, _, _ := strings.Cut(Normalize(path), ".")
	top, _, _ = strings.Cut(top, "[")
	switch top {
	case "purpose", "workload", "data", "dimensions", "options":
		return fields[top].Label
	}
	return ""
}

// catalogMark is how the Monte Carlo names an estimate that comes from the
// catalog rather than the scenario ("options.hpc.queue_wait_hours
// (catalog)").
const catalogMark = " (catalog)"

// InputName names an input the way a reader knows it: the field's label,
// with its list position when it has one and ", catalog estimate" when the
// figure is the catalog's: "workload.tokens_per_run_b" → "Tokens per run".
// A path without a field is returned as it is.
func InputName(path string) string {
	in, fromCatalog, ok := inputAt(path)
	if !ok {
		return path
	}
	return in.Label() + fromCatalog
}

// InputTitle is InputName with the field's unit: "Tokens per run
// (billions)", "Trial throughput (3, items or tokens/s)", "Shared HPC:
// queue wait (hours), catalog estimate".
func InputTitle(path, currency string) string {
	in, fromCatalog, ok := inputAt(path)
	if !ok {
		return path
	}
	return in.Title(currency) + fromCatalog
}

// inputAt is the input a path names, and ", catalog estimate" when the
// path carries the catalog's mark.
func inputAt(path string) (in Input, fromCatalog string, ok bool) {
	p, cat := strings.CutSuffix(path, catalogMark)
	if cat {
		fromCatalog = ", catalog estimate"
	}
	f, ok := Lookup(p)
	return Input{Path: p, Field: f, Index: lastIndex(p)}, fromCatalog, ok
}
