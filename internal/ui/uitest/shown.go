package uitest

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/widgets"
)

// DrawnRows are grid g's rows as its labels show them: each cell's
// text, bold when the row is, and the column in the error colour (-1 for
// none).
func DrawnRows(g *widgets.Grid) []widgets.GridRow {
	cells, _ := g.Box.Layout.(*widgets.GridLayout).Split(g.Box.Objects)
	cols := len(g.Headings)
	var rows []widgets.GridRow
	for i := cols; i+cols <= len(cells); i += cols {
		row := widgets.GridRow{Danger: -1}
		for col, o := range cells[i : i+cols] {
			l := o.(*widget.Label)
			row.Cells = append(row.Cells, l.Text)
			row.Bold = row.Bold || l.TextStyle.Bold
			if l.Importance == widget.DangerImportance {
				row.Danger = col
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// DrawnCell is the text of row i, column col, of grid g as drawn.
func DrawnCell(g *widgets.Grid, i, col int) string {
	rows := DrawnRows(g)
	if i < 0 || i >= len(rows) || col < 0 || col >= len(rows[i].Cells) {
		return ""
	}
	return rows[i].Cells[col]
}

// ChartTexts lists the text a chart draws.
func ChartTexts(w fyne.Widget) []string {
	var out []string
	for _, o := range test.WidgetRenderer(w).Objects() {
		if t, ok := o.(*canvas.Text); ok {
			out = append(out, t.Text)
		}
	}
	return out
}

// SegmentTexts joins the text of rich-text segments, list items and
// paragraphs included.
func SegmentTexts(segs []widget.RichTextSegment) string {
	var b strings.Builder
	for _, s := range segs {
		switch x := s.(type) {
		case *widget.ListSegment:
			b.WriteString(SegmentTexts(x.Items))
		case *widget.ParagraphSegment:
			b.WriteString(SegmentTexts(x.Texts))
		default:
			b.WriteString(x.Textual())
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// LabelTexts joins the text of every label under o.
func LabelTexts(o fyne.CanvasObject) string {
	var b strings.Builder
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widget.Label:
			b.WriteString(x.Text)
			b.WriteByte('\n')
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(o)
	return b.String()
}

// Find returns the first object drawn under o, o included, for which
// match is true: it walks containers and the renderers of widgets.
func Find(o fyne.CanvasObject, match func(fyne.CanvasObject) bool) fyne.CanvasObject {
	if o == nil {
		return nil
	}
	if match(o) {
		return o
	}
	var children []fyne.CanvasObject
	switch x := o.(type) {
	case *fyne.Container:
		children = x.Objects
	case fyne.Widget:
		children = test.WidgetRenderer(x).Objects()
	}
	for _, c := range children {
		if f := Find(c, match); f != nil {
			return f
		}
	}
	return nil
}
