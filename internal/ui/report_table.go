package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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

// minWhyNotWidth is the narrowest the "Why not" column gets; it takes the
// table's remaining width and wraps its text.
const minWhyNotWidth = 220

// reportTable is the table of the Report tab: one row per hosting
// direction. It does not scroll by itself: the tab scrolls as one page,
// the decision above it, so the mouse wheel works wherever it points.
type reportTable struct {
	box     *fyne.Container // header cells, row cells, then the rules between rows
	dates   *widget.Label   // under the table: the date of each direction's prices
	content fyne.CanvasObject
}

// reportRow is one direction's cells and how to style them: the
// recommended direction in bold, "No" in the error colour.
type reportRow struct {
	cells       [numColumns]string
	feasible    bool
	highlighted bool
}

func newReportTable() *reportTable {
	t := &reportTable{}
	t.box = container.New(newFillGridLayout(numColumns, colWhyNot, minWhyNotWidth))
	t.dates = widget.NewLabel("")
	t.dates.Wrapping = fyne.TextWrapWord
	t.content = container.NewVBox(t.box, t.dates)
	t.set(&model.Report{}, "")
	return t
}

// set shows report r, the row of direction highlight in bold.
func (t *reportTable) set(r *model.Report, highlight string) {
	rows := reportRows(r, highlight)
	objects := make([]fyne.CanvasObject, 0, (len(rows)+1)*(numColumns+1))
	for col, h := range reportColumns {
		l := widget.NewLabel(h)
		l.TextStyle.Bold = true
		l.Alignment = columnAlignment(col)
		objects = append(objects, l)
	}
	for _, row := range rows {
		for col, text := range row.cells {
			l := widget.NewLabel(text)
			l.Alignment = columnAlignment(col)
			l.TextStyle.Bold = row.highlighted
			if col == colFeasible && !row.feasible {
				l.Importance = widget.DangerImportance
			}
			if col == colWhyNot {
				l.Wrapping = fyne.TextWrapWord
			}
			objects = append(objects, l)
		}
	}
	for range rows { // under the headings and between the rows
		objects = append(objects, widget.NewSeparator())
	}
	t.box.Objects = objects
	t.box.Refresh()
	t.dates.SetText(pricesAsOf(r))
	t.dates.Hidden = t.dates.Text == ""
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
		parts = append(parts, titleOf(d)+" "+d.PricesAsOf)
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
		row.cells[colDirection] = titleOf(d)
		row.cells[colFeasible] = present.YesNo(d.Feasible)
		row.cells[colGPUs] = present.GPUs(d.GPU, d.GPUs)
		if d.Direction == scenario.Managed && d.GPU == "" && d.GPUs == 0 {
			row.cells[colGPUs] = "Per-token service"
		}
		row.cells[colTime] = orDash(!d.Feasible || d.TimeToResultHours == 0, present.Hours(d.TimeToResultHours))
		row.cells[colCostPerRun] = orDash(!d.Feasible, present.Money(d.CostPerRun, r.Currency))
		row.cells[colCostHorizon] = orDash(!d.Feasible, present.Money(d.CostHorizon, r.Currency))
		row.cells[colEnergy] = energyText(d.Energy)
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

// energyText is a direction's electricity (MWh) and emissions (t CO2e)
// over the horizon, as the column's heading names them, "≈" in front when
// an input is an estimate; noValue when it has none (ruled out). One short
// line: a wider column would push "Why not" off a 1280-pixel window, a
// second line the recommended row below the fold.
func energyText(e *model.Energy) string {
	if e == nil {
		return noValue
	}
	mark := ""
	if e.Estimate {
		mark = "≈ "
	}
	return mark + present.Figure(e.KWhHorizon/1000) + " · " + present.Figure(e.KgCO2eHorizon/1000)
}
