package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// The report table's columns.
const (
	colDirection = iota
	colFeasible
	colGPUs
	colTime
	colCostPerRun
	colCostHorizon
	colWhyNot
	numColumns
)

// reportColumns are the column headings, in column order. The long ones
// break over two lines so the numbers, not the headings, set the widths.
var reportColumns = [numColumns]string{
	colDirection:   "Direction",
	colFeasible:    "Feasible",
	colGPUs:        "GPU × count",
	colTime:        "Time to\nresult (h)",
	colCostPerRun:  "Cost\nper run",
	colCostHorizon: "Cost over\nhorizon",
	colWhyNot:      "Why not",
}

// minWhyNotWidth is the narrowest the "Why not" column gets; it takes the
// table's remaining width and wraps its text.
const minWhyNotWidth = 220

// reportTable is the table of the Report tab: one row per hosting
// direction. It does not scroll by itself: the tab scrolls as one page,
// the decision above it, so the mouse wheel works wherever it points.
type reportTable struct {
	rows    []reportRow
	box     *fyne.Container // header cells, row cells, then the rules between rows
	content fyne.CanvasObject
}

// reportRow is one direction's cells and how to style them: the cheapest
// feasible direction in bold, "No" in the error colour.
type reportRow struct {
	cells    [numColumns]string
	feasible bool
	cheapest bool
}

func newReportTable() *reportTable {
	t := &reportTable{}
	t.box = container.New(&wrapGridLayout{cols: numColumns, wrap: colWhyNot, minWrap: minWhyNotWidth})
	t.content = t.box
	t.set(&model.Report{})
	return t
}

// set shows report r.
func (t *reportTable) set(r *model.Report) {
	t.rows = reportRows(r)
	objects := make([]fyne.CanvasObject, 0, (len(t.rows)+1)*(numColumns+1))
	for col, h := range reportColumns {
		l := widget.NewLabel(h)
		l.TextStyle.Bold = true
		l.Alignment = columnAlignment(col)
		objects = append(objects, l)
	}
	for _, row := range t.rows {
		for col, text := range row.cells {
			l := widget.NewLabel(text)
			l.Alignment = columnAlignment(col)
			l.TextStyle.Bold = row.cheapest
			if col == colFeasible && !row.feasible {
				l.Importance = widget.DangerImportance
			}
			if col == colWhyNot {
				l.Wrapping = fyne.TextWrapWord
			}
			objects = append(objects, l)
		}
	}
	for range t.rows { // under the headings and between the rows
		objects = append(objects, widget.NewSeparator())
	}
	t.box.Objects = objects
	t.box.Refresh()
}

// wrapGridLayout places cells row by row in cols columns: each column as
// wide as its widest cell except column wrap, which takes the rest of the
// width (at least minWrap) and wraps its text; each row as tall as its
// tallest cell at those widths. After the cells come rules, one under the
// first row and one between each two rows after it.
type wrapGridLayout struct {
	cols, wrap int
	minWrap    float32
	width      float32 // the width last laid out at; 0 before the first layout
}

// split returns the cells and the rules.
func (g *wrapGridLayout) split(objects []fyne.CanvasObject) (cells, rules []fyne.CanvasObject) {
	rows := (len(objects) + 1) / (g.cols + 1) // cells (rows × cols) + rules (rows − 1)
	n := min(rows*g.cols, len(objects))
	return objects[:n], objects[n:]
}

// measure returns the column widths and row heights for total width.
func (g *wrapGridLayout) measure(cells []fyne.CanvasObject, width float32) (widths, heights []float32) {
	widths = make([]float32, g.cols)
	for i, o := range cells {
		if i%g.cols != g.wrap {
			widths[i%g.cols] = max(widths[i%g.cols], o.MinSize().Width)
		}
	}
	fixed := float32(0)
	for _, w := range widths {
		fixed += w
	}
	widths[g.wrap] = max(g.minWrap, width-fixed)
	heights = make([]float32, (len(cells)+g.cols-1)/g.cols)
	for i, o := range cells {
		h := o.MinSize().Height
		if i%g.cols == g.wrap {
			// A wrapping label's height depends on its width: set the
			// width first, then ask.
			o.Resize(fyne.NewSize(widths[g.wrap], o.Size().Height))
			h = o.MinSize().Height
		}
		heights[i/g.cols] = max(heights[i/g.cols], h)
	}
	return widths, heights
}

func (g *wrapGridLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	cells, _ := g.split(objects)
	widths, heights := g.measure(cells, g.width)
	// As narrow as the wrapping column may get, and as tall as the rows
	// are at the width last laid out at.
	widths[g.wrap] = g.minWrap
	var s fyne.Size
	for _, w := range widths {
		s.Width += w
	}
	for _, h := range heights {
		s.Height += h
	}
	return s
}

func (g *wrapGridLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	g.width = size.Width
	cells, rules := g.split(objects)
	widths, heights := g.measure(cells, size.Width)
	total := float32(0)
	for _, w := range widths {
		total += w
	}
	thick := theme.SeparatorThicknessSize()
	y := float32(0)
	for r, h := range heights {
		x := float32(0)
		for c, w := range widths {
			i := r*g.cols + c
			if i >= len(cells) {
				break
			}
			cells[i].Move(fyne.NewPos(x, y))
			cells[i].Resize(fyne.NewSize(w, h))
			x += w
		}
		y += h
		if r < len(rules) {
			rules[r].Move(fyne.NewPos(0, y-thick/2))
			rules[r].Resize(fyne.NewSize(total, thick))
		}
	}
}

// columnAlignment right-aligns the numeric columns.
func columnAlignment(col int) fyne.TextAlign {
	switch col {
	case colTime, colCostPerRun, colCostHorizon:
		return fyne.TextAlignTrailing
	}
	return fyne.TextAlignLeading
}

// reportRows turns the report into table rows, one per direction, in the
// report's order. Numbers that mean nothing (a zero time, an infeasible
// direction's zero cost) show as "—".
func reportRows(r *model.Report) []reportRow {
	rows := make([]reportRow, 0, len(r.Directions))
	for _, d := range r.Directions {
		row := reportRow{feasible: d.Feasible, cheapest: d.Feasible && d.Direction == r.Cheapest}
		row.cells[colDirection] = titleOf(d)
		row.cells[colFeasible] = present.YesNo(d.Feasible)
		row.cells[colGPUs] = present.GPUs(d.GPU, d.GPUs)
		if d.Direction == scenario.Managed && d.GPU == "" && d.GPUs == 0 {
			row.cells[colGPUs] = "Per-token service"
		}
		row.cells[colTime] = orDash(d.TimeToResultHours == 0, present.Hours(d.TimeToResultHours))
		row.cells[colCostPerRun] = orDash(!d.Feasible && d.CostPerRun == 0, present.Money(d.CostPerRun, r.Currency))
		row.cells[colCostHorizon] = orDash(!d.Feasible && d.CostHorizon == 0, present.Money(d.CostHorizon, r.Currency))
		row.cells[colWhyNot] = reasonsText(model.ReasonTexts(d.Reasons))
		rows = append(rows, row)
	}
	return rows
}

// orDash returns noValue when missing, else text.
func orDash(missing bool, text string) string {
	if missing {
		return noValue
	}
	return text
}
