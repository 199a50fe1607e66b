package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
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

// reportTable is the Report tab: one row per hosting direction.
type reportTable struct {
	table   *widget.Table
	content fyne.CanvasObject // the table, laid out so "Why not" fills the width
	rows    []reportRow
	width   float32 // the width the columns were last fitted to
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
	t.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(t.rows), numColumns },
		func() fyne.CanvasObject { return widget.NewLabel("") },
		t.updateCell,
	)
	t.table.ShowHeaderColumn = false
	t.table.CreateHeader = func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.TextStyle.Bold = true
		return l
	}
	t.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		l.Alignment = columnAlignment(id.Col)
		if id.Col >= 0 && id.Col < numColumns {
			l.SetText(reportColumns[id.Col])
		} else {
			l.SetText("")
		}
	}
	// The table is read-only: a click must not leave a cell highlighted.
	t.table.OnSelected = func(id widget.TableCellID) { t.table.Unselect(id) }
	t.content = container.New(fitLayout{t}, t.table)
	return t
}

func (t *reportTable) updateCell(id widget.TableCellID, o fyne.CanvasObject) {
	l := o.(*widget.Label)
	if id.Row < 0 || id.Row >= len(t.rows) || id.Col < 0 || id.Col >= numColumns {
		l.SetText("")
		return
	}
	row := t.rows[id.Row]
	l.Alignment = columnAlignment(id.Col)
	l.TextStyle = fyne.TextStyle{Bold: row.cheapest}
	l.Importance = widget.MediumImportance
	if id.Col == colFeasible && !row.feasible {
		l.Importance = widget.DangerImportance
	}
	l.Wrapping = fyne.TextWrapOff
	if id.Col == colWhyNot {
		l.Wrapping = fyne.TextWrapWord
	}
	l.Text = row.cells[id.Col]
	l.Refresh()
}

// set shows report r.
func (t *reportTable) set(r *model.Report) {
	t.rows = reportRows(r)
	t.fit(t.width)
	t.table.ScrollToTop()
}

// fit sizes each column to its widest text, gives "Why not" what is left of
// width, and makes each row tall enough for its wrapped reasons.
func (t *reportTable) fit(width float32) {
	t.width = width
	used := float32(0)
	for col := range colWhyNot {
		w := t.columnWidth(col)
		t.table.SetColumnWidth(col, w)
		used += w + theme.Padding() // the table puts a divider between columns
	}
	whyNot := max(minWhyNotWidth, width-used-theme.Padding())
	t.table.SetColumnWidth(colWhyNot, whyNot)

	t.table.SetRowHeight(-1, textHeight(2, true)) // two-line headings
	base := t.table.CreateCell().MinSize().Height
	for i, row := range t.rows {
		t.table.SetRowHeight(i, max(base, wrappedHeight(row.cells[colWhyNot], whyNot)))
	}
	t.table.Refresh()
}

// columnWidth is the width that shows every cell of col, heading included,
// without truncation.
func (t *reportTable) columnWidth(col int) float32 {
	size := theme.TextSize()
	w := float32(0)
	for _, line := range strings.Split(reportColumns[col], "\n") {
		w = max(w, fyne.MeasureText(line, size, fyne.TextStyle{Bold: true}).Width)
	}
	for _, row := range t.rows {
		style := fyne.TextStyle{Bold: row.cheapest}
		w = max(w, fyne.MeasureText(row.cells[col], size, style).Width)
	}
	// A label pads its text by the inner padding on each side.
	return w + 2*theme.InnerPadding()
}

// textHeight is the height of a label showing lines lines of text.
func textHeight(lines int, bold bool) float32 {
	l := widget.NewLabel(strings.Repeat("Mg\n", lines-1) + "Mg")
	l.TextStyle.Bold = bold
	return l.MinSize().Height
}

// fitLayout gives the table all the space and refits its columns when the
// width changes.
type fitLayout struct{ t *reportTable }

func (f fitLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return objects[0].MinSize()
}

func (f fitLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	objects[0].Resize(size)
	if size.Width != f.t.width {
		f.t.fit(size.Width)
	}
}

// wrappedHeight is the height a label needs to show text wrapped at width.
func wrappedHeight(text string, width float32) float32 {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Resize(fyne.NewSize(width, l.MinSize().Height))
	return l.MinSize().Height
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
		row.cells[colFeasible] = yesNo(d.Feasible)
		row.cells[colGPUs] = formatGPUs(d.GPU, d.GPUs)
		if d.Direction == scenario.Managed && d.GPU == "" && d.GPUs == 0 {
			row.cells[colGPUs] = "Per-token service"
		}
		row.cells[colTime] = orDash(d.TimeToResultHours == 0, formatHours(d.TimeToResultHours))
		row.cells[colCostPerRun] = orDash(!d.Feasible && d.CostPerRun == 0, formatMoney(d.CostPerRun, r.Currency))
		row.cells[colCostHorizon] = orDash(!d.Feasible && d.CostHorizon == 0, formatMoney(d.CostHorizon, r.Currency))
		row.cells[colWhyNot] = reasonsText(d.Reasons)
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
