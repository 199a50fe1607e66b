package document

import (
	"bytes"
	"strings"
)

// Markdown renders the document as Markdown (CommonMark with GitHub's
// tables): a heading per section, a blank line between blocks, each line
// of a paragraph on a line of its own, "- " list items indented two
// spaces a level, tables with a rule under the header. Strong text is
// written **so**, emphasis *so* and code `so`; a bar inside a table cell
// is escaped as \|. Text is written as given otherwise.
func (d *Document) Markdown() []byte {
	var buf bytes.Buffer
	first := true
	gap := func() { // a blank line before every part but the first
		if !first {
			buf.WriteByte('\n')
		}
		first = false
	}
	for _, s := range d.Sections {
		gap()
		buf.WriteString(strings.Repeat("#", max(s.Level, 1)) + " " + s.Title + "\n")
		for _, b := range s.Blocks {
			gap()
			switch b := b.(type) {
			case *Paragraph:
				for _, l := range b.Lines {
					writeText(&buf, l, false)
					buf.WriteByte('\n')
				}
			case *List:
				writeItems(&buf, b.Items, 0)
			case *Table:
				writeTable(&buf, b)
			}
		}
	}
	return buf.Bytes()
}

func writeItems(buf *bytes.Buffer, items []ListItem, depth int) {
	for _, it := range items {
		buf.WriteString(strings.Repeat("  ", depth) + "- ")
		if m := it.Box.Mark(); m != "" {
			buf.WriteString(m + " ")
		}
		writeText(buf, it.Text, false)
		buf.WriteByte('\n')
		writeItems(buf, it.Items, depth+1)
	}
}

func writeTable(buf *bytes.Buffer, t *Table) {
	header := make([]Text, len(t.Header))
	for i, h := range t.Header {
		header[i] = Text{{Text: h}}
	}
	writeRow(buf, header)
	buf.WriteString("|" + strings.Repeat("---|", len(t.Header)) + "\n")
	for _, r := range t.Rows {
		cells := make([]Text, max(len(r), len(t.Header)))
		for i, c := range r {
			cells[i] = c.Text
		}
		writeRow(buf, cells)
	}
}

// writeRow writes "| a | b |"; an empty cell is "| |".
func writeRow(buf *bytes.Buffer, cells []Text) {
	buf.WriteByte('|')
	for _, c := range cells {
		buf.WriteByte(' ')
		if len(c) > 0 {
			writeText(buf, c, true)
			buf.WriteByte(' ')
		}
		buf.WriteByte('|')
	}
	buf.WriteByte('\n')
}

func writeText(buf *bytes.Buffer, t Text, inTable bool) {
	for _, s := range t {
		text := s.Text
		if inTable {
			text = strings.ReplaceAll(text, "|", `\|`)
		}
		switch s.Style {
		case Strong:
			buf.WriteString("**" + text + "**")
		case Emphasis:
			buf.WriteString("*" + text + "*")
		case Code:
			buf.WriteString("`" + text + "`")
		default:
			buf.WriteString(text)
		}
	}
}
