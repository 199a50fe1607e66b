package celltext

import (
	"testing"
	"testing/quick"
)

func TestEscape(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"AWS pricing page", "AWS pricing page"},
		{`=HYPERLINK("http://x","y")`, `'=HYPERLINK("http://x","y")`},
		{"+1", "'+1"},
		{"-1", "'-1"},
		{"@SUM(A1)", "'@SUM(A1)"},
		{"\tx", "'\tx"},
		{"\rx", "'\rx"},
		{"'quoted'", "''quoted'"},
		{"a=b", "a=b"},
		{" =1", " =1"}, // a leading space: text in both spreadsheets
	} {
		if got := Escape(c.in); got != c.want {
			t.Errorf("Escape(%q) = %q, want %q", c.in, got, c.want)
		}
		if back := Unescape(Escape(c.in)); back != c.in {
			t.Errorf("Unescape(Escape(%q)) = %q", c.in, back)
		}
	}
}

func TestUnescapeKeepsHandWrittenApostrophes(t *testing.T) {
	// An apostrophe before ordinary text was not written by Escape: kept.
	for _, s := range []string{"'abc", "'5", "'", "it's"} {
		if got := Unescape(s); got != s {
			t.Errorf("Unescape(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestRoundTrip(t *testing.T) {
	f := func(s string) bool { return Unescape(Escape(s)) == s && !FormulaLike(Escape(s)) }
	if err := quick.Check(f, nil); err != nil {
		t.Error(err)
	}
	for _, s := range []string{"'", "''", "'=", "''=", "'''-1", "=", "-"} {
		if !f(s) {
			t.Errorf("round trip of %q gives %q", s, Unescape(Escape(s)))
		}
	}
}
