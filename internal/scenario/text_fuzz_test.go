package scenario

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzTextFields puts a fuzzed string into a one-line field (name), a
// prose field (description) and a list's text (the first lifecycle
// stage's owner) of a valid scenario and validates it. Whatever the
// string: no panic; each field has a text problem exactly when the string
// is too long or holds a character its rule refuses (a control character
// other than a tab; in prose, also other than a line feed or a carriage
// return before one), and the problem names the first such character and
// its place; a scenario Validate accepts writes and reads back with the
// same text.
func FuzzTextFields(f *testing.F) {
	base, err := Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		f.Fatal(err)
	}
	baseJSON, err := Marshal(base)
	if err != nil {
		f.Fatal(err)
	}
	if len(base.Data.Lifecycle) == 0 || Validate(base) != nil {
		f.Fatal("the example has no lifecycle or is not valid")
	}
	for _, s := range []string{"", "plain", "a\tb", "one\ntwo\r\nthree", "a\rb", "\r", "\x1b[31mred", "\u202eevil", "\u2028", "\x7f", "\u0085", "é\u200f", "\xff\xfe", strings.Repeat("x", 201)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, v string) {
		s, err := Parse(baseJSON)
		if err != nil {
			t.Fatal(err)
		}
		s.Name = v
		s.Description = v
		s.Data.Lifecycle[0].Owner = v
		owner := fmt.Sprintf("data.lifecycle[%d].owner", 0)
		es := Validate(s)
		for _, e := range es {
			switch e.Path {
			case "name", "description", owner, "data.lifecycle":
				// the text rules, and the fields' own (a name is required)
			default:
				t.Fatalf("a text change made %s fail: %s", e.Path, e.Problem)
			}
		}
		for _, path := range []string{"name", "description", owner} {
			rule := TextOf(path)
			bad, at := -1, 0
			i := 0
			for pos, r := range v {
				i++
				if UnsafeRune(r) && r != '\t' && !(rule.Multiline && (r == '\n' || r == '\r' && strings.HasPrefix(v[pos+1:], "\n"))) {
					bad, at = int(r), i
					break
				}
			}
			long := utf8.RuneCountInString(v) > rule.Max
			p := problemsOf(es, path)
			if strings.Count(p, "holds ") > 1 {
				t.Fatalf("%s = %q: more than one character named: %q", path, v, p)
			}
			switch {
			case bad >= 0 && !strings.Contains(problemsOf(es, path), fmt.Sprintf("U+%04X at character %d", bad, at)):
				t.Fatalf("%s = %q: want U+%04X at character %d named, got %q", path, v, bad, at, problemsOf(es, path))
			case long && !strings.Contains(problemsOf(es, path), "characters"):
				t.Fatalf("%s = %q: too long, not reported (%q)", path, v, p)
			case bad < 0 && !long && (strings.Contains(p, "holds ") || strings.Contains(p, " characters")):
				t.Fatalf("%s = %q: refused for %q", path, v, p)
			}
		}
		if len(es) > 0 || !utf8.ValidString(v) {
			return
		}
		b, err := Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := Parse(b)
		if err != nil {
			t.Fatalf("a valid scenario does not read back: %v", err)
		}
		if back.Name != v || back.Description != v || back.Data.Lifecycle[0].Owner != v {
			t.Fatalf("text %q read back as %q, %q, %q", v, back.Name, back.Description, back.Data.Lifecycle[0].Owner)
		}
	})
}

// problemsOf joins the problems of es at path.
func problemsOf(es Errors, path string) string {
	var out []string
	for _, e := range es {
		if e.Path == path {
			out = append(out, e.Problem)
		}
	}
	return strings.Join(out, "; ")
}
