package scenario

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzDiffJSON compares two fuzzed documents as the history view does
// (DiffJSON), and, when both are scenario files, the scenarios (Diff).
// Whatever the bytes: no panic; two valid JSON documents always compare;
// an error names the diff; every change has a path (one per field, none
// twice) whose two sides differ; a document compared with itself has no
// changes; swapping the sides swaps every change; and Diff of a scenario
// with its clone is empty.
func FuzzDiffJSON(f *testing.F) {
	files, err := filepath.Glob(filepath.Join("..", "..", "scenarios", "*.json"))
	if err != nil || len(files) < 2 {
		f.Fatal(files, err)
	}
	files = append(files, filepath.Join("testdata", "v0.json"))
	var docs [][]byte
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		docs = append(docs, b)
	}
	for i := range docs {
		f.Add(docs[i], docs[(i+1)%len(docs)])
	}
	for _, c := range [][2]string{
		{`{"b": 1, "a": {"low": 1, "likely": 2, "high": 3}, "l": [1, 2], "s": "x<y", "gone": true}`, `{"b": 1, "a": 2, "l": [1, 3, 4], "s": "x<z", "new": null}`},
		{`{"a": 1, "a": 2}`, `{"a": 3}`}, // listed the change of "a" twice
		{`[1, [2, {"x": []}]]`, `[1, [2, {"x": [null]}], 3]`},
		{`1.0`, `1`},
		{`"\u00e9"`, `"é"`},
		{`{"a": 1`, `{}`},
		{``, `null`},
	} {
		f.Add([]byte(c[0]), []byte(c[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		changes, err := DiffJSON(a, b)
		if err != nil {
			if json.Valid(a) && json.Valid(b) {
				t.Fatalf("two valid documents do not compare: %v", err)
			}
			if msg := err.Error(); !strings.HasPrefix(msg, "diff: ") || !utf8.ValidString(msg) {
				t.Fatalf("error %q", msg)
			}
			return
		}
		checkChanges(t, changes)
		if same, err := DiffJSON(a, a); err != nil || len(same) != 0 {
			t.Fatalf("a document against itself: %v, %v", same, err)
		}
		back, err := DiffJSON(b, a)
		if err != nil {
			t.Fatalf("the other way round: %v", err)
		}
		if !mirrored(changes, back) {
			t.Fatalf("swapping the sides:\n%v\n%v", changes, back)
		}
		sa, erra := Parse(a)
		sb, errb := Parse(b)
		if erra != nil || errb != nil {
			return
		}
		if same, err := Diff(sa, Clone(sa)); err != nil || len(same) != 0 {
			t.Fatalf("a scenario against its clone: %v, %v", same, err)
		}
		scs, err := Diff(sa, sb)
		if err != nil {
			t.Fatalf("Diff of two scenarios: %v", err)
		}
		checkChanges(t, scs)
	})
}

// checkChanges fails t unless every change has a path of its own and two
// sides that differ, in valid UTF-8.
func checkChanges(t *testing.T, changes []Change) {
	t.Helper()
	seen := map[string]bool{}
	for _, c := range changes {
		if c.Before == c.After || seen[c.Path] {
			t.Fatalf("change %+v (listed before: %v) in %v", c, seen[c.Path], changes)
		}
		seen[c.Path] = true
		for _, s := range []string{c.Path, c.Before, c.After} {
			if !utf8.ValidString(s) {
				t.Fatalf("change %+v is not valid UTF-8", c)
			}
		}
	}
}

// mirrored reports whether b holds the changes of a with the sides
// swapped, in any order.
func mirrored(a, b []Change) bool {
	if len(a) != len(b) {
		return false
	}
	swapped := make([]Change, len(b))
	for i, c := range b {
		swapped[i] = Change{c.Path, c.After, c.Before}
	}
	cmp := func(x, y Change) int { return strings.Compare(x.Path, y.Path) }
	a = slices.Clone(a)
	slices.SortFunc(a, cmp)
	slices.SortFunc(swapped, cmp)
	return slices.Equal(a, swapped)
}
