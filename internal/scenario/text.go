package scenario

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// TextLimit is the rule of one text field: the most characters it may
// hold and whether it may hold line breaks (prose, edited over more than
// one line). Every text field may hold tabs; none may hold another
// control character (UnsafeRune).
type TextLimit struct {
	Path      string // JSON path, "[]" for any list index
	Max       int    // characters (Unicode code points)
	Multiline bool
	Why       string // the meaning of the limit, in one sentence
}

// defaultText is the rule of a text field textLimits does not list: a
// code, a catalog id, a value of a list, a person's or a team's name.
var defaultText = TextLimit{Max: 200,
	Why: "a code, a catalog id or a name: a line of a form"}

// textLimits is the rule of every text field that differs from
// defaultText, in the file's field order. Validation and the JSON Schema
// (maxLength) read it; the window reads Multiline (present.FactsOf).
var textLimits = []TextLimit{
	{Path: "id", Max: 64, Why: "the id pattern: 1–64 lower-case letters, digits and '-'"},
	{Path: "name", Max: 200, Why: "a title: it heads the brief, the window and the workbook"},
	{Path: "description", Max: 20_000, Multiline: true, Why: "prose: some five pages"},
	{Path: "purpose.decision", Max: 2_000, Why: "a paragraph"},
	{Path: "purpose.success_measure", Max: 2_000, Why: "a paragraph"},
	{Path: "purpose.baseline", Max: 2_000, Why: "a paragraph"},
	{Path: "data.controlled_environment", Max: 2_000, Why: "a paragraph"},
	{Path: "dimensions.sovereignty.notes", Max: 20_000, Multiline: true, Why: "prose: some five pages"},
	{Path: "price_overrides[].source", Max: 2_000, Why: "a citation or a web address"},
	{Path: "exchange_rates[].source", Max: 2_000, Why: "a citation or a web address"},
}

var textRules = func() map[string]TextLimit {
	m := make(map[string]TextLimit, len(textLimits))
	for _, t := range textLimits {
		if _, dup := m[t.Path]; dup || t.Max <= 0 || t.Why == "" {
			panic("scenario: text limit for " + t.Path + " is given twice, empty or without a meaning")
		}
		m[t.Path] = t
	}
	return m
}()

// TextOf returns the rule of the text field at path (list indices
// ignored).
func TextOf(path string) TextLimit {
	p := genericPath(path)
	if t, ok := textRules[p]; ok {
		return t
	}
	t := defaultText
	t.Path = p
	return t
}

// TextLimits returns the rules of the text fields that differ from the
// default, in field order, and the default's.
func TextLimits() (listed []TextLimit, other TextLimit) {
	return append([]TextLimit(nil), textLimits...), defaultText
}

// UnsafeRune reports a character that can steer a terminal or change
// how text reads rather than being read: the C0 controls (tab and line
// feed among them), DEL, the C1 controls, the bidirectional controls
// (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) and the line and
// paragraph separators U+2028, U+2029. Scenario text may hold tabs, and
// prose line breaks; the commands escape every one of them they print
// from a file or the store.
func UnsafeRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, r == 0x2028, r == 0x2029:
		return true
	}
	return false
}

// allowedText says what a text field with rule t may hold.
func allowedText(t TextLimit) string {
	if t.Multiline {
		return fmt.Sprintf("at most %s characters of text, tabs and line breaks; no other control characters", Num(float64(t.Max)))
	}
	return fmt.Sprintf("at most %s characters of text on one line, tabs allowed; no control characters", Num(float64(t.Max)))
}

// checkTextField checks one text field against its rule: its length and
// its characters. The first offending character is named with its place.
func checkTextField(c *checker, path, v string) {
	t := TextOf(path)
	if n := utf8.RuneCountInString(v); n > t.Max {
		c.add(path, fmt.Sprintf("has %s characters", Num(float64(n))), allowedText(t))
	}
	i := 0
	for at, r := range v {
		i++
		if !UnsafeRune(r) || r == '\t' || t.Multiline && (r == '\n' || r == '\r' && strings.HasPrefix(v[at+1:], "\n")) {
			continue
		}
		what := "the control character"
		switch {
		case r == '\n' || r == '\r':
			what = "a line break"
		case r == 0x2028 || r == 0x2029:
			what = "the line or paragraph separator"
		case r > 0x9f:
			what = "the bidirectional control"
		}
		c.add(path, fmt.Sprintf("holds %s U+%04X at character %d", what, r, i), allowedText(t))
		return
	}
}
