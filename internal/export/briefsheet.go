package export

import (
	"fmt"
	"math"
	"strings"

	"hostplan/internal/brief"
	"hostplan/internal/document"
	"hostplan/internal/present"
)

// briefCols is the number of columns of the Brief sheet. Prose spans all of
// them; a table puts one cell in each, its last cell spanning the rest.
// The widths suit the brief's three tables: the ranking (eight columns of
// short figures), the data lifecycle (six, two of them prose) and the
// bottlenecks (three, the last a question).
const briefCols = 8

var briefWidths = []float64{16, 22, 34, 22, 14, 14, 14, 14}

// writeBrief writes the Compute Readiness Brief (brief.Build) as the
// Markdown reads, one line a row: headings in bold, list items with a
// bullet and an indent, strong and emphasised text as rich text, tables
// across columns with their header row shaded and their figures as
// numbers; one blank row between blocks. Without a brief (doc nil) it
// lists the fields the scenario must fill first.
func writeBrief(b *book, doc *document.Document, missing []string) {
	b.widths(sheetBrief, briefWidths...)
	if doc == nil {
		writeBriefMissing(b, missing)
		return
	}
	w := &briefSheet{b: b, row: 1}
	for _, sec := range doc.Sections {
		w.gap()
		k := textStyle{bold: true}
		switch sec.Level {
		case 1:
			k.size = sizeTitle
		case 2:
			k.size = sizeHead
		}
		w.line(func(row int) { b.spanText(sheetBrief, row, 1, briefCols, sec.Title, k) })
		for _, bl := range sec.Blocks {
			w.gap()
			switch bl := bl.(type) {
			case *document.Paragraph:
				for _, l := range bl.Lines {
					if strings.TrimSpace(l.String()) == "" {
						w.gap()
						continue
					}
					w.line(func(row int) { b.spanRuns(sheetBrief, row, 1, briefCols, runsOf(l), textStyle{}) })
				}
			case *document.List:
				w.items(bl.Items, 1)
			case *document.Table:
				w.table(bl)
			}
		}
	}
}

// briefSheet places the brief's lines on rows, with one blank row where
// the Markdown has blank lines and none at the top.
type briefSheet struct {
	b       *book
	row     int  // the next row to write
	started bool // a row has been written
	blank   bool // a blank row is due before the next one
}

// gap asks for a blank row before the next line.
func (w *briefSheet) gap() { w.blank = true }

// line writes one row.
func (w *briefSheet) line(write func(row int)) {
	if w.blank && w.started {
		w.row++
	}
	w.blank, w.started = false, true
	write(w.row)
	w.row++
}

// items writes list items at a nesting level from 1: "• " at the first,
// "◦ " below, indented by the level; a checklist box follows the bullet.
func (w *briefSheet) items(items []document.ListItem, level int) {
	bullet := "• "
	if level > 1 {
		bullet = "◦ "
	}
	for _, it := range items {
		lead := bullet
		if m := it.Box.Mark(); m != "" {
			lead += m + " "
		}
		runs := runsOf(append(document.Text{{Text: lead}}, it.Text...))
		w.line(func(row int) { w.b.spanRuns(sheetBrief, row, 1, briefCols, runs, textStyle{indent: level}) })
		w.items(it.Items, level+1)
	}
}

// table writes the header row, capitalised and shaded, then a row per row.
func (w *briefSheet) table(t *document.Table) {
	header := make([]document.Cell, len(t.Header))
	for i, h := range t.Header {
		header[i] = document.Cell{Text: document.Text{{Text: present.Sentence(h)}}}
	}
	w.line(func(row int) { writeTableRow(w.b, row, header, true) })
	for _, r := range t.Rows {
		if n := len(t.Header); len(r) < n { // a short row's missing cells are empty
			r = append(r[:len(r):len(r)], make([]document.Cell, n-len(r))...)
		}
		w.line(func(row int) { writeTableRow(w.b, row, r, false) })
	}
}

// writeTableRow writes a table row one cell a column; the last cell spans
// to the last column, and cells past it join the last. A figure is
// written as a number, so a spreadsheet neither flags it as a number
// stored as text nor sorts it as text, with the value and the decimals
// the brief shows.
func writeTableRow(b *book, row int, cells []document.Cell, header bool) {
	if len(cells) > briefCols {
		last := document.Cell{}
		for i, c := range cells[briefCols-1:] {
			if i > 0 {
				last.Text = append(last.Text, document.Span{Text: " | "})
			}
			last.Text = append(last.Text, c.Text...)
		}
		cells = append(cells[:briefCols-1:briefCols-1], last)
	}
	k := textStyle{header: header}
	for j, c := range cells {
		to := j + 1
		if j == len(cells)-1 {
			to = briefCols
		}
		if c.Figure && !math.IsNaN(c.Value) && !math.IsInf(c.Value, 0) {
			format := "0"
			if c.Decimals > 0 {
				format += "." + strings.Repeat("0", c.Decimals)
			}
			b.numLeft(sheetBrief, j+1, row, c.Value, format, fmt.Sprintf("brief row %d, column %d", row, j+1))
			if to > j+1 {
				b.merge(sheetBrief, row, j+1, to)
			}
			continue
		}
		b.spanRuns(sheetBrief, row, j+1, to, runsOf(c.Text), k)
	}
}

// runsOf turns the brief's spans into runs: strong text bold, emphasis
// italic, code in the body font; neighbours that look the same are joined.
func runsOf(t document.Text) []run {
	var out []run
	for _, s := range t {
		r := run{text: s.Text, bold: s.Style == document.Strong, italic: s.Style == document.Emphasis}
		switch {
		case r.text == "":
		case len(out) > 0 && out[len(out)-1].bold == r.bold && out[len(out)-1].italic == r.italic:
			out[len(out)-1].text += r.text
		default:
			out = append(out, r)
		}
	}
	return out
}

// writeBriefMissing explains a refused brief and lists what to fill.
func writeBriefMissing(b *book, missing []string) {
	const sh = sheetBrief
	b.spanText(sh, 1, 1, briefCols, "Compute Readiness Brief: not written yet", textStyle{bold: true, size: sizeTitle})
	filled := len(brief.Fields) - len(missing)
	b.spanText(sh, 2, 1, briefCols, fmt.Sprintf("hostplan writes the brief once at least %d of its %d fields are filled; this scenario fills %d. Fill these fields in the scenario and export again:",
		brief.MinFields, len(brief.Fields), max(0, filled)), textStyle{})
	row := 4
	for _, m := range missing {
		b.spanText(sh, row, 1, briefCols, "• "+m, textStyle{indent: 1})
		row++
	}
}
