package export

import (
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// fitRows makes each row with wrapped text tall enough for it. Neither
// excelize nor LibreOffice sizes a row to wrapped text when a file is
// opened, so without a height a long title is cut to its first line and a
// long reason runs over the rows below.
func (b *book) fitRows() {
	need := map[rowAt]float64{}
	var order []rowAt
	setNeed := func(at rowAt, h float64) {
		if _, ok := need[at]; !ok {
			order = append(order, at)
		}
		need[at] = max(need[at], h)
	}
	for _, h := range b.wrapped {
		lines := 1
		for col, text := range b.written[h.sheet][h.row] {
			if text == "" || text == "=" || !b.wraps(h.sheet, cell(col, h.row)) {
				continue
			}
			lines = max(lines, wrappedLines(text, b.colWidths(h.sheet, col, col)))
		}
		if lines > 1 {
			// 15 points a line: the default row height of the 11-point
			// default font.
			setNeed(h, 15*float64(lines))
		}
	}
	for _, sp := range b.spans {
		text := b.written[sp.sheet][sp.row][sp.from]
		lh := sp.lineHeight
		if lh == 0 {
			lh = 15
		}
		width := b.colWidths(sp.sheet, sp.from, sp.to)
		if sp.prose {
			// Plain prose averages narrower letters than the digits a
			// width counts: about 1.15 characters a unit in DejaVu Sans,
			// LibreOffice's stand-in for Calibri, more in Calibri itself.
			width *= 1.1
		}
		if lines := wrappedLines(text, width); lines > 1 || lh != 15 {
			setNeed(rowAt{sp.sheet, sp.row}, lh*float64(lines))
		}
	}
	for _, at := range order {
		// A spreadsheet row is at most 409 points high (27 lines): a
		// longer text (a catalog entry's full source) shows its start.
		need[at] = min(need[at], excelize.MaxRowHeight)
		b.fail(b.f.SetRowHeight(at.sheet, at.row, need[at]))
		if need[at] <= lineBody {
			continue
		}
		b.alignTop(at)
	}
}

// alignTop aligns every cell of a row made taller to the top, so that a
// label and a number stand beside the first line of the wrapped text next
// to them, not below its last (where they read as part of the next row).
func (b *book) alignTop(at rowAt) {
	cols := b.written[at.sheet][at.row]
	for c := 1; c <= maxCol(cols); c++ {
		if cols[c] == "" {
			continue
		}
		ref := cell(c, at.row)
		id, err := b.f.GetCellStyle(at.sheet, ref)
		b.fail(err)
		b.style(at.sheet, ref, ref, b.aligned(id, "", "top"))
	}
}

func maxCol(cols map[int]string) int {
	n := 0
	for c := range cols {
		n = max(n, c)
	}
	return n
}

// alignKey is a style with its alignment changed.
type alignKey struct {
	id                   int
	horizontal, vertical string
}

// aligned returns style id with its horizontal and vertical alignment set
// ("" keeps the style's own); made once per style and alignment.
func (b *book) aligned(id int, horizontal, vertical string) int {
	k := alignKey{id, horizontal, vertical}
	if a, ok := b.alignedStyles[k]; ok {
		return a
	}
	st, err := b.f.GetStyle(id)
	b.fail(err)
	if st == nil {
		st = &excelize.Style{}
	}
	al := excelize.Alignment{}
	if st.Alignment != nil {
		al = *st.Alignment
	}
	if horizontal != "" {
		al.Horizontal = horizontal
	}
	if vertical != "" {
		al.Vertical = vertical
	}
	st.Alignment = &al
	a := b.newStyle(st)
	if b.alignedStyles == nil {
		b.alignedStyles = map[alignKey]int{}
	}
	b.alignedStyles[k] = a
	return a
}

// colWidths is the total width of columns from–to of sheet, in characters.
func (b *book) colWidths(sheet string, from, to int) float64 {
	w := 0.0
	for c := from; c <= to; c++ {
		name, err := excelize.ColumnNumberToName(c)
		if err != nil {
			panic("export: " + err.Error())
		}
		cw, err := b.f.GetColWidth(sheet, name)
		b.fail(err)
		w += cw
	}
	return w
}

// wraps reports whether the style of cell c wraps its text.
func (b *book) wraps(sheet, c string) bool {
	id, err := b.f.GetCellStyle(sheet, c)
	b.fail(err)
	st, err := b.f.GetStyle(id)
	b.fail(err)
	return st != nil && st.Alignment != nil && st.Alignment.WrapText
}

// wrappedLines is the number of lines text takes when wrapped at word
// boundaries in a column width characters wide. The width is counted in
// digits; letters are on average about as wide in the bold header font, as
// LibreOffice's rendering of the workbook shows.
func wrappedLines(text string, width float64) int {
	capacity := max(1, int(width))
	lines, used := 1, 0
	for _, word := range strings.Fields(text) {
		n := utf8.RuneCountInString(word)
		switch {
		case used == 0:
			used = n
		case used+1+n <= capacity:
			used += 1 + n
		default:
			lines++
			used = n
		}
		for used > capacity { // a word longer than the column breaks
			lines++
			used -= capacity
		}
	}
	return lines
}
