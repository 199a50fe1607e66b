// Package document is a text as structure rather than characters: sections
// with a title and a level, holding paragraphs, lists (with checklist boxes)
// and tables whose figures stay numbers, all made of spans of text that are
// plain, strong, emphasised or code. Package brief writes the Compute
// Readiness Brief as one; Markdown renders it as text, and the window and
// the workbook render it with their own means, so none of them parses
// another's output. The package knows nothing of briefs or scenarios.
package document

import "strings"

// Document is a brief as structure rather than text: a sequence of
// sections, each a heading and the blocks under it. Build writes one;
// Markdown renders it as text, and the window and the workbook render it
// with their own means, so none of them reads another's output.
type Document struct {
	Sections []Section
}

// Section is a heading and the blocks that follow it up to the next
// heading. Level 1 is the brief's title, 2 a part of the brief, 3 a part
// of a part.
type Section struct {
	Level  int
	Title  string // plain text
	Blocks []Block
}

// Block is a *Paragraph, a *List or a *Table.
type Block interface{ block() }

// Paragraph is one or more lines of running text. Markdown keeps each line
// on a line of its own; a face that flows text may join them.
type Paragraph struct {
	Lines []Text
}

// List is a bulleted list.
type List struct {
	Items []ListItem
}

// ListItem is one entry of a list, with an optional checklist box in front
// and an optional list under it.
type ListItem struct {
	Box   Box
	Text  Text
	Items []ListItem // the nested list; empty: none
}

// Table has a header row and rows of cells; a row may have fewer cells
// than the header (the rest are empty).
type Table struct {
	Header []string // plain text
	Rows   [][]Cell
}

func (*Paragraph) block() {}
func (*List) block()      {}
func (*Table) block()     {}

// Box is the state of a checklist box in front of a list item.
type Box int

// Boxes; BoxNone is a list item without one.
const (
	BoxNone Box = iota
	BoxOpen
	BoxDone
	BoxNotApplicable
)

// Mark is how the box is written: "[ ]", "[x]" or "[-]"; "" for BoxNone.
func (b Box) Mark() string {
	switch b {
	case BoxOpen:
		return "[ ]"
	case BoxDone:
		return "[x]"
	case BoxNotApplicable:
		return "[-]"
	}
	return ""
}

// Cell is one cell of a table. A figure (Figure true) is a number shown
// with Decimals decimals, so that a face can keep it as a number; Text is
// how it reads in every case.
type Cell struct {
	Text     Text
	Figure   bool
	Value    float64 // the figure as Text shows it (rounded to Decimals); meaningful when Figure
	Decimals int     // meaningful when Figure
}

// Style is the look of a span of text.
type Style int

// Styles. Code marks a name to type or look up (a scenario field, a
// checklist item, a command), not program text.
const (
	Plain Style = iota
	Strong
	Emphasis
	Code
)

// Span is a run of text in one style.
type Span struct {
	Text  string
	Style Style
}

// Text is a line of spans.
type Text []Span

// String is the text without its styles.
func (t Text) String() string {
	var sb strings.Builder
	for _, s := range t {
		sb.WriteString(s.Text)
	}
	return sb.String()
}

// Line makes a Text of spans, joining neighbours of the same style and
// leaving out empty ones.
func Line(spans ...Span) Text {
	out := make(Text, 0, len(spans))
	for _, s := range spans {
		switch {
		case s.Text == "":
		case len(out) > 0 && out[len(out)-1].Style == s.Style:
			out[len(out)-1].Text += s.Text
		default:
			out = append(out, s)
		}
	}
	return out
}
