package scenario

import (
	"strconv"
	"strings"
	"testing"
)

func TestDiffJSON(t *testing.T) {
	got, err := DiffJSON([]byte(`{"b": 1, "a": {"low": 1, "likely": 2, "high": 3}, "l": [1, 2], "s": "x<y", "gone": true}`),
		[]byte(`{"b": 1, "a": 2, "l": [1, 3, 4], "s": "x<z", "new": null}`))
	if err != nil {
		t.Fatal(err)
	}
	want := []Change{
		{"a", `{"low": 1, "likely": 2, "high": 3}`, "2"},
		{"l[1]", "2", "3"},
		{"l[2]", Absent, "4"},
		{"s", `"x<y"`, `"x<z"`},
		{"gone", "true", Absent},
		{"new", Absent, "null"},
	}
	if len(got) != len(want) {
		t.Fatalf("diff = %v\nwant   %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d = %v, want %v", i, got[i], want[i])
		}
	}
	if _, err := DiffJSON([]byte(`{"a": 1`), []byte(`{}`)); err == nil || !strings.HasPrefix(err.Error(), "diff: ") {
		t.Errorf("cut-short JSON: error %v", err)
	}
}

// Diff compares two scenarios in the order of the file, and equal ones
// not at all.
func TestDiff(t *testing.T) {
	a, err := Load("../../scenarios/qlora-legal-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := Diff(a, Clone(a)); err != nil || len(got) != 0 {
		t.Fatalf("a scenario against its clone: %v, %v", got, err)
	}
	b := Clone(a)
	b.Name += " (v2)"
	b.Seed++
	b.Data.ReturnOutputs = append(b.Data.ReturnOutputs, "logs")
	got, err := Diff(a, b)
	if err != nil {
		t.Fatal(err)
	}
	n := len(a.Data.ReturnOutputs)
	want := []Change{
		{"name", `"` + a.Name + `"`, `"` + b.Name + `"`},
		{"seed", strconv.FormatUint(a.Seed, 10), strconv.FormatUint(b.Seed, 10)},
		{"data.return_outputs[" + strconv.Itoa(n) + "]", Absent, `"logs"`},
	}
	if len(got) != len(want) {
		t.Fatalf("diff = %v\nwant   %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d = %v, want %v", i, got[i], want[i])
		}
	}
}
