package brief

import (
	"strconv"

	"hostplan/internal/document"
	"hostplan/internal/present"
)

// The brief's spans, lines and cells (package document), as its writing
// uses them.

// boxOf is the box of a checklist item in a status.
func boxOf(s Status) document.Box {
	switch s {
	case StatusDone:
		return document.BoxDone
	case StatusNotApplicable:
		return document.BoxNotApplicable
	}
	return document.BoxOpen
}

// textCell is a cell of text.
func textCell(spans ...document.Span) document.Cell { return document.Cell{Text: txt(spans...)} }

// figureCell is a cell holding the number x shown with decimals decimals
// (present.Fixed); its value is the one shown (0.835 shows, and is, 0.83),
// so that every face agrees with the text.
func figureCell(x float64, decimals int) document.Cell {
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'f', decimals, 64), 64)
	if err != nil {
		v = x
	}
	return document.Cell{Text: txt(plain(present.Fixed(x, decimals))), Figure: true, Value: v, Decimals: decimals}
}

func plain(s string) document.Span    { return document.Span{Text: s} }
func strong(s string) document.Span   { return document.Span{Text: s, Style: document.Strong} }
func emphasis(s string) document.Span { return document.Span{Text: s, Style: document.Emphasis} }
func code(s string) document.Span     { return document.Span{Text: s, Style: document.Code} }

// txt is document.Line.
func txt(spans ...document.Span) document.Text { return document.Line(spans...) }

// codeList is names as code, separated by commas.
func codeList(xs []string) []document.Span {
	var out []document.Span
	for i, x := range xs {
		if i > 0 {
			out = append(out, plain(", "))
		}
		out = append(out, code(x))
	}
	return out
}
