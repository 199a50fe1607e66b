package export

// Column widths: each sheet's columns sized to what their cells show —
// text, and numbers in their formats — within limits, so that a printed
// page and a projected sheet read without ### or clipped labels.

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"
)

// Column width limits, in characters of the default font.
const (
	maxAutoWidth = 60 // wider text wraps or overflows instead
	maxWrapWidth = 40 // the width of a column whose text wraps
	widthPad     = 2  // room either side of the text
)

// fitColumns widens each column of sheet that is too narrow for a cell
// in it: a number (which a viewer shows as ### when it does not fit), or
// a label whose right-hand neighbour is not empty (so it cannot run over
// it). A label too long for maxAutoWidth wraps instead, its row made tall
// enough by fitRows. Wrapped and merged cells are left alone; they have
// their own layout. Columns are never narrowed. It reads what the book
// wrote (put), not the sheet: a formula's width is its cached result's.
func (b *book) fitColumns(sheet string) {
	written := b.written[sheet]
	need := map[int]float64{}
	for _, rowNo := range sortedKeys(written) {
		row := written[rowNo]
		cols := sortedKeys(row)
		for k, col := range cols {
			if b.merged[cellAt{sheet, col, rowNo}] {
				continue
			}
			text := row[col]
			if text == "" {
				continue
			}
			ref := cell(col, rowNo)
			id, err := b.f.GetCellStyle(sheet, ref)
			b.fail(err)
			st := b.styleInfo(id)
			if st.wraps {
				continue
			}
			var w float64
			switch {
			case text == "=":
				v := b.results[sheet][ref]
				switch {
				case v.kind == 'n' && st.number:
					w = numberWidth(st.format, v.num)
				case v.kind == 's' || v.kind == 'e':
					w = float64(utf8.RuneCountInString(v.text))
				default:
					w = st.figureWidth
				}
			case st.number:
				if x, err := strconv.ParseFloat(text, 64); err == nil {
					w = numberWidth(st.format, x)
				} else {
					w = float64(utf8.RuneCountInString(text))
				}
			default:
				w = float64(utf8.RuneCountInString(text))
				if st.bold {
					w *= 1.1
				}
				// Text runs over the empty cells to its right, up to the
				// first filled one.
				next := 0
				for _, c := range cols[k+1:] {
					if row[c] != "" {
						next = c
						break
					}
				}
				if next == 0 {
					continue // nothing to its right: it runs over
				}
				room := b.colWidths(sheet, col, next-1)
				if w+widthPad <= room {
					continue
				}
				w -= room - b.colWidths(sheet, col, col) // the shortfall, on this column
				if w+widthPad > maxAutoWidth {
					// Too long for any column: wrapped in a wide one.
					b.style(sheet, ref, ref, b.wrapStyle(id))
					b.wrapsText(sheet, rowNo)
					w = maxWrapWidth - widthPad
				}
			}
			if w == 0 {
				continue
			}
			need[col] = max(need[col], min(w+widthPad, maxAutoWidth))
		}
	}
	for _, col := range sortedKeys(need) {
		if w, have := need[col], b.colWidths(sheet, col, col); w > have {
			name, err := excelize.ColumnNumberToName(col)
			b.fail(err)
			b.fail(b.f.SetColWidth(sheet, name, name, w))
		}
	}
}

// sortedKeys are the keys of m in order: the layout visits cells in the
// same order every time, so the styles it makes (and the file) are the
// same.
func sortedKeys[V any](m map[int]V) []int {
	ks := make([]int, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}

// numberWidth is how many characters number format format takes to show
// x: its integer digits with thousands separators, the decimals the format
// shows, a percent sign, quoted text such as a currency. General shows up
// to 11 characters.
func numberWidth(format string, x float64) float64 {
	if format == "" || format == fmtGeneral {
		return float64(min(len(strconv.FormatFloat(x, 'g', -1, 64)), 11))
	}
	sections := strings.Split(format, ";")
	section := sections[0]
	if strings.HasPrefix(section, "[<1]") && math.Abs(x) >= 1 && len(sections) > 1 {
		section = sections[1]
	}
	// Quoted text (a currency's code after the number, its sign before
	// it): its characters, and one for the space before a code.
	var text float64
	for {
		i := strings.IndexByte(section, '"')
		if i < 0 {
			break
		}
		j := strings.IndexByte(section[i+1:], '"')
		if j < 0 {
			break
		}
		text += float64(utf8.RuneCountInString(section[i+1 : i+1+j]))
		if i+2+j == len(section) {
			text++
		}
		section = section[:i] + section[i+2+j:]
	}
	percent := strings.Contains(section, "%")
	if percent {
		x *= 100
	}
	w := float64(len(strconv.FormatFloat(math.Trunc(math.Abs(x)), 'f', 0, 64)))
	if strings.Contains(section, ",") {
		w += math.Floor((w - 1) / 3)
	}
	if x < 0 {
		w++
	}
	if _, dec, ok := strings.Cut(section, "."); ok {
		w++
		for _, r := range dec {
			if r == '0' || r == '#' {
				w++
			}
			if r == ' ' || r == '"' {
				break
			}
		}
	}
	if percent {
		w++
	}
	return w + text
}

// wrapStyle is style id with its text wrapped and aligned to the top; made
// once per style.
func (b *book) wrapStyle(id int) int {
	if w, ok := b.wrappedStyles[id]; ok {
		return w
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
	al.WrapText, al.Vertical = true, "top"
	st.Alignment = &al
	w := b.newStyle(st)
	if b.wrappedStyles == nil {
		b.wrappedStyles = map[int]int{}
	}
	b.wrappedStyles[id] = w
	return w
}

// styleFacts are what fitColumns needs to know of a cell style.
type styleFacts struct {
	wraps, bold, number bool
	format              string  // the number format
	figureWidth         float64 // characters a large figure takes in its number format
}

// styleInfo reads the facts of style id, once per style.
func (b *book) styleInfo(id int) styleFacts {
	if f, ok := b.facts[id]; ok {
		return f
	}
	st, err := b.f.GetStyle(id)
	b.fail(err)
	var f styleFacts
	if st != nil {
		f.wraps = st.Alignment != nil && st.Alignment.WrapText
		f.bold = st.Font != nil && st.Font.Bold
		if st.CustomNumFmt != nil {
			f.number = true
			f.format = *st.CustomNumFmt
			f.figureWidth = figureWidth(*st.CustomNumFmt)
		} else if st.NumFmt != 0 {
			f.number = true
			f.figureWidth = 12
		}
	}
	if b.facts == nil {
		b.facts = map[int]styleFacts{}
	}
	b.facts[id] = f
	return f
}

// figureWidth is how many characters number format format takes to show
// a figure in the millions: 9,999,999 and its decimals, a percent sign,
// quoted text such as a currency.
func figureWidth(format string) float64 {
	section, _, _ := strings.Cut(format, ";")
	w := 9.0 // 9,999,999
	if _, dec, ok := strings.Cut(section, "."); ok {
		w++
		for _, r := range dec {
			if r == '0' || r == '#' {
				w++
			}
			if r == ' ' || r == '"' {
				break
			}
		}
	}
	if strings.Contains(section, "%") {
		w = 7 // 100.0 %
	}
	if i := strings.IndexByte(section, '"'); i >= 0 {
		w += float64(len(section) - i - 1) // the quoted text and the space before it
	}
	return w
}
