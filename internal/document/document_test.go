package document

import (
	"reflect"
	"testing"
)

func plain(s string) Span    { return Span{Text: s} }
func strong(s string) Span   { return Span{Text: s, Style: Strong} }
func emphasis(s string) Span { return Span{Text: s, Style: Emphasis} }
func code(s string) Span     { return Span{Text: s, Style: Code} }

// The renderer's rules, one case each: headings by level, a blank line
// between blocks and none at the end, paragraph lines kept, styles,
// nested items and boxes, tables with empty cells, escaped bars and a
// short row padded to the header.
func TestMarkdown(t *testing.T) {
	doc := &Document{Sections: []Section{
		{Level: 1, Title: "Title", Blocks: []Block{
			&Paragraph{Lines: []Text{
				Line(plain("a "), strong("b"), plain(" "), emphasis("c"), plain(" "), code("d_e")),
				Line(plain("second line")),
			}},
		}},
		{Level: 2, Title: "Part", Blocks: []Block{
			&List{Items: []ListItem{
				{Text: Line(plain("one"))},
				{Box: BoxDone, Text: Line(plain("two")), Items: []ListItem{{Text: Line(plain("two.a"))}}},
				{Box: BoxOpen, Text: Line(plain("three"))},
				{Box: BoxNotApplicable, Text: Line(plain("four"))},
			}},
			&Table{Header: []string{"#", "name", "note"}, Rows: [][]Cell{
				{Cell{Text: Line(plain("1")), Figure: true, Value: 1}, Cell{Text: Line(plain("a | b"))}, Cell{Text: Line(strong("x|y"))}},
				{Cell{Text: Line(plain("—"))}, Cell{}},
			}},
		}},
		{Level: 3, Title: "Empty"},
		{Level: 3, Title: "Last", Blocks: []Block{&Paragraph{Lines: []Text{Line(plain("end"))}}}},
	}}
	want := "# Title\n\na **b** *c* `d_e`\nsecond line\n\n## Part\n\n" +
		"- one\n- [x] two\n  - two.a\n- [ ] three\n- [-] four\n\n" +
		"| # | name | note |\n|---|---|---|\n| 1 | a \\| b | **x\\|y** |\n| — | | |\n\n" +
		"### Empty\n\n### Last\n\nend\n"
	if got := string(doc.Markdown()); got != want {
		t.Errorf("Markdown:\n%q\nwant:\n%q", got, want)
	}
}

// Line joins neighbouring spans of one style and leaves out empty ones.
func TestLine(t *testing.T) {
	got := Line(plain("a"), plain(""), plain("b"), strong("c"), strong("d"), code(""), plain("e"))
	want := Text{{Text: "ab"}, {Text: "cd", Style: Strong}, {Text: "e"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Line = %+v, want %+v", got, want)
	}
	if got.String() != "abcde" {
		t.Errorf("String = %q", got.String())
	}
	if BoxNone.Mark() != "" {
		t.Error("a list item without a box has a mark")
	}
}
