package report

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// The report table's columns.
const (
	colDirection = iota
	colFeasible
	colGPUs
	colTime
	colCostPerRun
	colCostHorizon
	colEnergy
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
	colEnergy:      "MWh · t CO2e\nover horizon",
	colWhyNot:      "Why not",
}

// minWhyNotWidth is the narrowest the "Why not" column gets in the
// table; a pane too narrow for the other columns and this one shows each
// direction as a card instead (tableLayout).
const minWhyNotWidth = 220

// Table is the table of the Report tab: one row per hosting direction.
// It does not scroll by itself: the tab scrolls as one page, the decision
// above it, so the mouse wheel works wherever it points.
// Where the pane is too narrow for its columns (the form open beside it,
// a small screen), each direction shows as a card — its name, a line of
// its figures and why not — the full width of the pane, so nothing is
// cut at the right edge. Its labels are made once and refilled: a label
// whose text is the same is not measured again.
type Table struct {
	heads   [numColumns]*widget.Label
	rows    []*tableRow
	layout  *tableLayout
	box     *fyne.Container // heads, then each row's objects
	dates   *widget.Label   // under the table: the date of each direction's prices
	content fyne.CanvasObject
}

// tableRow is the labels of one direction: its cells for the
// table, and its heading and figures for a card (the card shows the
// table's "Why not" cell under them).
type tableRow struct {
	cells                 [numColumns]*widget.Label
	cardHead, cardFigures *widget.Label
	rule                  *widget.Separator
	shown                 bool
}

// reportRow is one direction's cells and how to style them: the
// recommended direction in bold, "No" in the error colour.
type reportRow struct {
	cells       [numColumns]string
	card        [2]string // the card's heading and line of figures
	feasible    bool
	highlighted bool
}

// NewTable makes the table, with its headings and no row until Set.
func NewTable() *Table {
	t := &Table{layout: &tableLayout{}}
	t.layout.table = t
	var objects []fyne.CanvasObject
	for col, h := range reportColumns {
		l := widget.NewLabel(h)
		l.TextStyle.Bold = true
		l.Alignment = columnAlignment(col)
		t.heads[col] = l
		objects = append(objects, l)
	}
	t.box = container.New(t.layout, objects...)
	t.dates = widget.NewLabel("")
	t.dates.Wrapping = fyne.TextWrapWord
	t.content = container.New(&widgets.TightVBox{}, t.box, t.dates)
	t.Set(&model.Report{}, "")
	return t
}

// Content is the table with the line under it that dates the prices.
func (t *Table) Content() fyne.CanvasObject { return t.content }

// TableRow is the labels of one direction the table shows.
type TableRow struct {
	Cells []*widget.Label  // in column order, the direction's first
	Card  [2]*widget.Label // its heading and line of figures as a card
}

// Rows are the labels of the directions the table shows, in the
// report's order.
func (t *Table) Rows() []TableRow {
	var out []TableRow
	for _, row := range t.rows {
		if row.shown {
			out = append(out, TableRow{Cells: row.cells[:], Card: [2]*widget.Label{row.cardHead, row.cardFigures}})
		}
	}
	return out
}

// Dates is the line under the table that dates each direction's prices.
func (t *Table) Dates() string { return t.dates.Text }

// Cards reports whether the table was last laid out as cards, one a
// direction, the pane being too narrow for its columns.
func (t *Table) Cards() bool { return t.layout.cards }

// newRow adds the labels of one more direction.
func (t *Table) newRow() *tableRow {
	row := &tableRow{rule: widget.NewSeparator()}
	for col := range row.cells {
		l := widget.NewLabel("")
		l.Alignment = columnAlignment(col)
		if col == colWhyNot || col == colDirection || col == colGPUs {
			l.Wrapping = fyne.TextWrapWord
		}
		row.cells[col] = l
		t.box.Objects = append(t.box.Objects, l)
	}
	row.cardHead = widget.NewLabel("")
	row.cardHead.Wrapping = fyne.TextWrapWord
	row.cardFigures = widget.NewLabel("")
	row.cardFigures.Wrapping = fyne.TextWrapWord
	row.cardHead.Hide()
	row.cardFigures.Hide()
	t.box.Objects = append(t.box.Objects, row.cardHead, row.cardFigures, row.rule)
	t.rows = append(t.rows, row)
	return row
}

// Set shows report r, the row of direction highlight in bold. Only the
// labels whose text or style changed are refreshed.
func (t *Table) Set(r *model.Report, highlight string) {
	rows := reportRows(r, highlight)
	for len(t.rows) < len(rows) {
		t.newRow()
	}
	for i, row := range t.rows {
		row.shown = i < len(rows)
		if !row.shown {
			for _, l := range row.cells {
				widgets.SetLabel(l, "", false, widget.MediumImportance)
			}
			widgets.SetLabel(row.cardHead, "", false, widget.MediumImportance)
			widgets.SetLabel(row.cardFigures, "", false, widget.MediumImportance)
			continue
		}
		data := rows[i]
		for col, text := range data.cells {
			imp := widget.MediumImportance
			if col == colFeasible && !data.feasible {
				imp = widget.DangerImportance
			}
			widgets.SetLabel(row.cells[col], text, data.highlighted, imp)
		}
		headImp := widget.MediumImportance
		if !data.feasible {
			headImp = widget.DangerImportance
		}
		widgets.SetLabel(row.cardHead, data.card[0], true, headImp)
		widgets.SetLabel(row.cardFigures, data.card[1], data.highlighted, widget.MediumImportance)
	}
	widgets.Relayout(t.box)
	widgets.SetText(t.dates, pricesAsOf(r))
	t.dates.Hidden = t.dates.Text == ""
}

// tableLayout lays the report table out as a table when the width takes
// every column at its natural width and "Why not" at minWhyNotWidth or
// more, and as cards, one under another, otherwise.
type tableLayout struct {
	table *Table
	width float32 // the width last laid out at; 0 before the first layout
	cards bool    // the mode last laid out
}

// columnWidths are the widths of the columns before "Why not" at width:
// each as wide as its widest heading or cell on one line, except that the
// direction's and GPU's columns, whose text wraps, narrow down to their
// longest word when "Why not" would otherwise get less than
// minWhyNotWidth. fits reports whether the table fits width.
func (l *tableLayout) columnWidths(width float32) (w [numColumns]float32, fits bool) {
	var least [numColumns]float32
	for col, h := range l.table.heads {
		if col == colWhyNot {
			continue
		}
		cells := []*widget.Label{h}
		for _, row := range l.table.rows {
			if row.shown {
				cells = append(cells, row.cells[col])
			}
		}
		for _, c := range cells {
			w[col] = max(w[col], widgets.LabelWidth(c, false))
			least[col] = max(least[col], widgets.LabelWidth(c, col == colDirection || col == colGPUs))
		}
	}
	total, totalLeast := float32(0), float32(0)
	for col := range w {
		total += w[col]
		totalLeast += least[col]
	}
	short := total + minWhyNotWidth - width
	if short > 0 && total > totalLeast {
		// Narrow the wrapping columns in proportion to what they can give.
		f := min(1, short/(total-totalLeast))
		for col := range w {
			w[col] -= (w[col] - least[col]) * f
		}
	}
	return w, totalLeast+minWhyNotWidth <= width
}

// minCardWidth is the narrowest the cards get.
const minCardWidth = 200

func (l *tableLayout) MinSize([]fyne.CanvasObject) fyne.Size {
	if l.width <= 0 {
		return fyne.NewSize(minCardWidth, 0)
	}
	return fyne.NewSize(minCardWidth, l.place(l.width, false))
}

func (l *tableLayout) Layout(_ []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	l.place(size.Width, true)
}

// place lays the table or the cards out at width, or only measures them
// when move is false, and returns their height.
func (l *tableLayout) place(width float32, move bool) float32 {
	t := l.table
	widths, fits := l.columnWidths(width)
	cards := !fits
	if move && cards != l.cards {
		l.cards = cards
	}
	if move {
		for _, h := range t.heads {
			widgets.ShowIf(h, !cards)
		}
		for _, row := range t.rows {
			for col, c := range row.cells {
				widgets.ShowIf(c, row.shown && (!cards || col == colWhyNot))
			}
			widgets.ShowIf(row.cardHead, row.shown && cards)
			widgets.ShowIf(row.cardFigures, row.shown && cards)
			widgets.ShowIf(row.rule, row.shown)
		}
	}
	thick := theme.SeparatorThicknessSize()
	put := func(o fyne.CanvasObject, x, y, w, h float32) {
		if move {
			o.Move(fyne.NewPos(x, y))
			o.Resize(fyne.NewSize(w, h))
		}
	}
	// heightAt is a wrapping label's height at width w.
	heightAt := func(o *widget.Label, w float32) float32 {
		if o.Text == "" {
			return 0
		}
		o.Resize(fyne.NewSize(w, o.Size().Height))
		return o.MinSize().Height
	}
	y := float32(0)
	if cards {
		for _, row := range t.rows {
			if !row.shown {
				continue
			}
			for _, o := range []*widget.Label{row.cardHead, row.cardFigures, row.cells[colWhyNot]} {
				h := heightAt(o, width)
				put(o, 0, y, width, h)
				y += h
			}
			put(row.rule, 0, y-thick/2, width, thick)
		}
		return y
	}
	fixed := float32(0)
	for _, w := range widths {
		fixed += w
	}
	widths[colWhyNot] = width - fixed
	rowAt := func(cells [numColumns]*widget.Label) {
		h := float32(0)
		for col, c := range cells {
			if col == colWhyNot || c.Wrapping != fyne.TextWrapOff {
				h = max(h, heightAt(c, widths[col]))
			} else {
				h = max(h, c.MinSize().Height)
			}
		}
		x := float32(0)
		for col, c := range cells {
			put(c, x, y, widths[col], h)
			x += widths[col]
		}
		y += h
	}
	rowAt(t.heads)
	for _, row := range t.rows {
		if !row.shown {
			continue
		}
		put(row.rule, 0, y-thick/2, width, thick)
		rowAt(row.cells)
	}
	return y
}

// pricesAsOf is the line under the table that dates each direction's
// prices: the oldest price the direction itself used, not the report's
// (a column would take the room "Why not" needs on a narrow screen).
func pricesAsOf(r *model.Report) string {
	var parts []string
	same := true
	for _, d := range r.Directions {
		if d.PricesAsOf == "" {
			continue
		}
		same = same && (len(parts) == 0 || strings.HasSuffix(parts[0], d.PricesAsOf))
		parts = append(parts, TitleOf(d)+" "+d.PricesAsOf)
	}
	switch {
	case len(parts) == 0:
		return ""
	case same && len(parts) > 1:
		return "Prices as of " + parts[0][strings.LastIndexByte(parts[0], ' ')+1:] + " for every direction (the oldest price each used)."
	}
	return "Prices as of (the oldest price each direction used): " + strings.Join(parts, " · ") + "."
}

// columnAlignment right-aligns the numeric columns.
func columnAlignment(col int) fyne.TextAlign {
	switch col {
	case colTime, colCostPerRun, colCostHorizon, colEnergy:
		return fyne.TextAlignTrailing
	}
	return fyne.TextAlignLeading
}

// reportRows turns the report into table rows, one per direction, in the
// report's order, the row of direction highlight marked. Numbers that
// mean nothing (a zero time, any figure of a ruled-out direction) show as
// "—".
func reportRows(r *model.Report, highlight string) []reportRow {
	rows := make([]reportRow, 0, len(r.Directions))
	for _, d := range r.Directions {
		row := reportRow{feasible: d.Feasible, highlighted: d.Feasible && d.Direction == highlight}
		row.cells[colDirection] = TitleOf(d)
		row.cells[colFeasible] = present.YesNo(d.Feasible)
		row.cells[colGPUs] = present.GPUs(d.GPU, d.GPUs)
		if d.Direction == scenario.Managed && d.GPU == "" && d.GPUs == 0 {
			row.cells[colGPUs] = "Per-token service"
		}
		row.cells[colTime] = OrDash(!d.Feasible || d.TimeToResultHours == 0, present.Hours(d.TimeToResultHours))
		row.cells[colCostPerRun] = OrDash(!d.Feasible, present.Money(d.CostPerRun, r.Currency))
		row.cells[colCostHorizon] = OrDash(!d.Feasible, present.Money(d.CostHorizon, r.Currency))
		row.cells[colEnergy] = energyText(d.Energy)
		row.cells[colWhyNot] = ReasonsText(model.ReasonTexts(d.Reasons))
		row.card = cardTexts(r, d, row)
		rows = append(rows, row)
	}
	return rows
}

// cardTexts are a direction's heading and line of figures as a card
// shows them (tableLayout): what the table's headings say, said in the
// line.
func cardTexts(r *model.Report, d model.DirectionResult, row reportRow) [2]string {
	head := row.cells[colDirection]
	switch {
	case !d.Feasible:
		head += " — ruled out"
	case row.highlighted:
		head += " — recommended"
	default:
		head += " — feasible"
	}
	parts := []string{row.cells[colGPUs]}
	if d.Feasible {
		if t := row.cells[colTime]; t != NoValue {
			parts = append(parts, t+" h to result")
		}
		parts = append(parts, row.cells[colCostPerRun]+" a run",
			row.cells[colCostHorizon]+" over "+present.Count(r.HorizonMonths, "month"))
		if e := d.Energy; e != nil {
			mark := ""
			if e.Estimate {
				mark = "≈ "
			}
			parts = append(parts, mark+present.Figure(e.KWhHorizon/1000)+" MWh, "+present.Figure(e.KgCO2eHorizon/1000)+" t CO2e")
		}
	}
	return [2]string{head, strings.Join(parts, " · ")}
}

// energyText is a direction's electricity (MWh) and emissions (t CO2e)
// over the horizon, as the column's heading names them, "≈" in front when
// an input is an estimate; NoValue when it has none (ruled out). One short
// line: a wider column would push "Why not" off a 1280-pixel window, a
// second line the recommended row below the fold.
func energyText(e *model.Energy) string {
	if e == nil {
		return NoValue
	}
	mark := ""
	if e.Estimate {
		mark = "≈ "
	}
	return mark + present.Figure(e.KWhHorizon/1000) + " · " + present.Figure(e.KgCO2eHorizon/1000)
}
