package export

import (
	"strings"

	"github.com/xuri/excelize/v2"
)

// textStyle is the look of a text cell on the prose sheets (Decision,
// Brief, Checklist, Lineage, Options).
type textStyle struct {
	bold, italic bool
	size         float64 // points; 0 is the default 11
	indent       int     // in steps of the viewer's indent
	header       bool    // the grey header band of a table
	align        string  // horizontal alignment: "" (left for text), "center"
}

// Font sizes and the row heights that hold one line of them.
const (
	sizeBody  = 11
	sizeTitle = 14
	sizeHead  = 12
	lineBody  = 15 // the default row height of the 11-point default font
	lineTitle = 20
	lineHead  = 17
)

// textFmt returns the style of text in look k, always wrapped and aligned
// to the top, so that a long line grows its row (fitRows) instead of
// running over its neighbours. Styles are made once and shared.
func (b *book) textFmt(k textStyle) int {
	if id, ok := b.texts[k]; ok {
		return id
	}
	size := k.size
	if size == 0 {
		size = sizeBody
	}
	st := &excelize.Style{
		Font:      &excelize.Font{Bold: k.bold || k.header, Italic: k.italic, Size: size, Family: b.family},
		Alignment: &excelize.Alignment{WrapText: true, Vertical: "top", Indent: k.indent},
	}
	if k.indent > 0 {
		// Excel and LibreOffice indent only explicitly left-aligned text.
		st.Alignment.Horizontal = "left"
	}
	if k.align != "" {
		st.Alignment.Horizontal = k.align
	}
	if k.header {
		st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"E7E6E6"}}
		st.Border = []excelize.Border{{Type: "bottom", Color: "7F7F7F", Style: 1}}
	}
	id := b.newStyle(st)
	if b.texts == nil {
		b.texts = map[textStyle]int{}
	}
	b.texts[k] = id
	return id
}

// numLeft writes a number left-aligned (beside text, not under a column of
// figures) and aligned to the top of its row.
func (b *book) numLeft(sheet string, col, row int, x float64, format string, field string) {
	b.num(sheet, col, row, x, b.aligned(b.numFmt(format, false), "left", "top"), field)
}

// lineHeight is the height of one line of text in look k.
func lineHeight(k textStyle) float64 {
	switch {
	case k.size >= sizeTitle:
		return lineTitle
	case k.size >= sizeHead:
		return lineHead
	}
	return lineBody
}

// spanText writes text in columns from–to of row, merged when to > from,
// wrapped in look k; fitRows gives the row the height the text needs. The
// text is stored as a string (SetCellStr), so text that starts with = + -
// or @ stays text.
func (b *book) spanText(sheet string, row, from, to int, text string, k textStyle) {
	b.str(sheet, from, row, text)
	b.spanStyle(sheet, row, from, to, k)
}

// spanRuns is spanText for text in runs of different looks: bold and
// italic runs become rich text.
func (b *book) spanRuns(sheet string, row, from, to int, runs []run, k textStyle) {
	plain := len(runs) <= 1 && (len(runs) == 0 || !runs[0].bold && !runs[0].italic)
	if plain {
		b.spanText(sheet, row, from, to, joinRuns(runs), k)
		return
	}
	size := k.size
	if size == 0 {
		size = sizeBody
	}
	rich := make([]excelize.RichTextRun, len(runs))
	for i, r := range runs {
		rich[i] = excelize.RichTextRun{Text: r.text, Font: &excelize.Font{
			Bold: r.bold || k.bold || k.header, Italic: r.italic || k.italic, Size: size, Family: b.family,
		}}
	}
	// Rich text is a shared string too: never read as a formula.
	b.fail(b.f.SetCellRichText(sheet, cell(from, row), rich))
	b.put(sheet, from, row, joinRuns(runs))
	b.noteText(sheet, from, row, joinRuns(runs))
	b.spanStyle(sheet, row, from, to, k)
}

func (b *book) spanStyle(sheet string, row, from, to int, k textStyle) {
	if to > from {
		b.merge(sheet, row, from, to)
	}
	b.style(sheet, cell(from, row), cell(to, row), b.textFmt(k))
	prose := !k.bold && !k.header && k.size <= sizeBody
	b.spans = append(b.spans, span{sheet: sheet, row: row, from: from, to: to, lineHeight: lineHeight(k), prose: prose})
}

// run is a piece of a line with one look.
type run struct {
	text         string
	bold, italic bool
}

func joinRuns(rs []run) string {
	var sb strings.Builder
	for _, r := range rs {
		sb.WriteString(r.text)
	}
	return sb.String()
}
