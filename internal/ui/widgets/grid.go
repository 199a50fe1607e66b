package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Grid is a read-only table of labels: headings in bold over a rule, each
// column as wide as its widest cell. Unlike widget.Table it does not scroll
// by itself, so the Scaling tab scrolls as one page.
type Grid struct {
	Headings []string // set before Set to change them
	align    []fyne.TextAlign
	labels   []*widget.Label // the headings' and rows' cells, kept across sets
	rule     *widget.Separator
	Box      *fyne.Container // what the window shows
}

// GridRow is one row's cells and style: bold for the chosen or cheapest,
// and the cell in column danger (-1 for none) in the error colour.
type GridRow struct {
	Cells  []string
	Bold   bool
	Danger int
}

func NewGrid(headings []string, align []fyne.TextAlign) *Grid {
	g := &Grid{Headings: headings, align: align, rule: widget.NewSeparator()}
	g.Box = container.New(NewNaturalGridLayout(len(headings)))
	g.Set(nil)
	return g
}

// Set replaces the rows. The labels are kept: one whose text and style
// stay the same is not measured again.
func (g *Grid) Set(rows []GridRow) {
	cols := len(g.Headings)
	n := (len(rows) + 1) * cols
	for len(g.labels) < n {
		g.labels = append(g.labels, widget.NewLabel(""))
	}
	for col, h := range g.Headings {
		l := g.labels[col]
		l.Alignment = g.alignOf(col)
		SetLabel(l, h, true, widget.MediumImportance)
	}
	for r, row := range rows {
		for col := range g.Headings {
			text := ""
			if col < len(row.Cells) {
				text = row.Cells[col]
			}
			imp := widget.MediumImportance
			if col == row.Danger {
				imp = widget.DangerImportance
			}
			l := g.labels[(r+1)*cols+col]
			l.Alignment = g.alignOf(col)
			SetLabel(l, text, row.Bold, imp)
		}
	}
	objects := make([]fyne.CanvasObject, 0, n+1)
	for _, l := range g.labels[:n] {
		objects = append(objects, l)
	}
	g.Box.Objects = append(objects, g.rule) // the rule under the headings
	Relayout(g.Box)
}

func (g *Grid) alignOf(col int) fyne.TextAlign {
	if col < len(g.align) {
		return g.align[col]
	}
	return fyne.TextAlignLeading
}

// GridLayout is the one layout of the window's tables (the Scaling tab's
// grids, the report table, the decision's questions and the comparison).
// It places the cells row by row in cols columns. The columns before
// fillFrom are as wide as their widest cell; the columns from fillFrom on
// share the width those leave equally, each at least minFill wide, and
// their cells (wrapping labels) grow downwards to fit; a table with no
// such column keeps its natural width. Each row is as tall as its tallest
// cell at those widths. After the cells come the rules, the objects of
// type *widget.Separator at the end: the first is drawn under the first
// row, the next under the second, and so on.
//
// A stacking table (NewStackingGridLayout) puts its sharing columns under
// each row, the full width, when the width leaves them less than minFill:
// a long question then wraps in the pane instead of running past its
// edge.
type GridLayout struct {
	Cols     int // set, and the container refreshed, to change them
	fillFrom int
	minFill  float32
	stack    bool    // the sharing columns may go under the rows
	width    float32 // the width last laid out at; 0 before the first layout
}

// NewNaturalGridLayout is a table of cols columns, each as wide as its
// widest cell.
func NewNaturalGridLayout(cols int) *GridLayout {
	return &GridLayout{Cols: cols, fillFrom: cols}
}

// NewFillGridLayout is a table of cols columns whose columns from fillFrom
// on share the width the others leave, each at least minFill wide.
func NewFillGridLayout(cols, fillFrom int, minFill float32) *GridLayout {
	return &GridLayout{Cols: cols, fillFrom: fillFrom, minFill: minFill}
}

// NewStackingGridLayout is NewFillGridLayout whose sharing columns go
// under each row when the width leaves them less than minFill.
func NewStackingGridLayout(cols, fillFrom int, minFill float32) *GridLayout {
	return &GridLayout{Cols: cols, fillFrom: fillFrom, minFill: minFill, stack: true}
}

// Split returns the cells and the rules.
func (g *GridLayout) Split(objects []fyne.CanvasObject) (cells, rules []fyne.CanvasObject) {
	n := len(objects)
	for n > 0 {
		if _, ok := objects[n-1].(*widget.Separator); !ok {
			break
		}
		n--
	}
	return objects[:n], objects[n:]
}

// filling is the number of columns that share the remaining width.
func (g *GridLayout) filling() int {
	return g.Cols - min(max(g.fillFrom, 0), g.Cols)
}

// measure returns the column widths and row heights for total width, and
// whether the sharing columns go under the rows (stacked), each at the
// full width; a stacked row's height is then its line's, and under holds
// the heights of its sharing cells, one after another.
func (g *GridLayout) measure(cells []fyne.CanvasObject, width float32) (widths, heights, under []float32, stacked bool) {
	widths = make([]float32, g.Cols)
	for i, o := range cells {
		if c := i % g.Cols; c < g.fillFrom {
			widths[c] = max(widths[c], o.MinSize().Width)
		}
	}
	n := g.filling()
	if n > 0 {
		fixed := float32(0)
		for _, w := range widths {
			fixed += w
		}
		share := max(g.minFill, (width-fixed)/float32(n))
		stacked = g.stack && width > 0 && (width-fixed)/float32(n) < g.minFill
		if stacked {
			share = width
		}
		for c := g.Cols - n; c < g.Cols; c++ {
			widths[c] = share
		}
	}
	rows := (len(cells) + g.Cols - 1) / g.Cols
	heights = make([]float32, rows)
	if stacked {
		under = make([]float32, len(cells))
	}
	for i, o := range cells {
		c := i % g.Cols
		if c >= g.fillFrom {
			// A wrapping label's height depends on its width: set the
			// width first, then ask.
			o.Resize(fyne.NewSize(widths[c], o.Size().Height))
			if stacked {
				under[i] = o.MinSize().Height
				continue
			}
		}
		heights[i/g.Cols] = max(heights[i/g.Cols], o.MinSize().Height)
	}
	return widths, heights, under, stacked
}

func (g *GridLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	if g.Cols <= 0 {
		return fyne.Size{}
	}
	cells, _ := g.Split(objects)
	// As narrow as the sharing columns may get (a stacking table: the
	// other columns), and as tall as the rows are at the width last laid
	// out at: a width taken from the last layout would keep the pane from
	// ever shrinking.
	widths, heights, under, _ := g.measure(cells, g.width)
	for c := g.Cols - g.filling(); c < g.Cols; c++ {
		widths[c] = g.minFill
		if g.stack {
			widths[c] = 0
		}
	}
	var s fyne.Size
	for _, w := range widths {
		s.Width += w
	}
	for _, h := range heights {
		s.Height += h
	}
	for _, h := range under {
		s.Height += h
	}
	return s
}

func (g *GridLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	g.width = size.Width
	if g.Cols <= 0 {
		return
	}
	cells, rules := g.Split(objects)
	widths, heights, under, stacked := g.measure(cells, size.Width)
	total := float32(0)
	for c, w := range widths {
		if !stacked || c < g.fillFrom {
			total += w
		}
	}
	if stacked {
		total = max(total, size.Width)
	}
	thick := theme.SeparatorThicknessSize()
	y := float32(0)
	for r, h := range heights {
		x := float32(0)
		for c, w := range widths {
			i := r*g.Cols + c
			if i >= len(cells) {
				break
			}
			if stacked && c >= g.fillFrom {
				continue
			}
			cells[i].Move(fyne.NewPos(x, y))
			cells[i].Resize(fyne.NewSize(w, h))
			x += w
		}
		y += h
		for c := g.fillFrom; stacked && c < g.Cols; c++ {
			if i := r*g.Cols + c; i < len(cells) {
				cells[i].Move(fyne.NewPos(0, y))
				cells[i].Resize(fyne.NewSize(size.Width, under[i]))
				y += under[i]
			}
		}
		if r < len(rules) {
			rules[r].Move(fyne.NewPos(0, y-thick/2))
			rules[r].Resize(fyne.NewSize(total, thick))
		}
	}
}
