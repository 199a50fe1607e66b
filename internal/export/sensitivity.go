package export

import (
	"fmt"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/model"
	"hostplan/internal/present"
)

// Layout of the Sensitivity sheet: facts, then the bars from row
// rowSensHeader+1, one per estimate, largest swing first.
const (
	rowSensMetric = 3 + iota
	rowSensDirection
	rowSensBase
	_
	rowSensHeader
)

// Columns of the Sensitivity table.
const (
	colSensInput = 1 + iota
	colSensField
	colSensLow
	colSensHigh
	colSensSwing
	colSensLowDelta // formulas: value − base, what the chart draws
	colSensHighDelta
)

// writeSensitivity writes the tornado: the metric of one direction with
// each estimate at its low and at its high end, the others at their likely
// values, and a bar chart of the change from the base value beside it.
func writeSensitivity(b *book, r *model.Report) {
	const sh = sheetSensitivity
	t := r.Tornado
	if t == nil {
		b.str(sh, 1, 1, "Run with Monte Carlo (hostplan export uses it by default) to see which estimates move the cost most")
		b.widths(sh, 90)
		return
	}
	metric := present.MetricTitle(t.Metric) + " (" + r.Currency + ")"
	money := b.numFmt(fmtMoneyWhole, false)
	b.title(sh, 1, 1, "Sensitivity: each estimate at its low and its high end, the others at their likely values (engine values)")
	b.str(sh, 1, rowSensMetric, "Metric")
	b.str(sh, 2, rowSensMetric, metric)
	b.str(sh, 1, rowSensDirection, "Direction")
	b.str(sh, 2, rowSensDirection, directionTitle(r, t.Direction))
	b.str(sh, 1, rowSensBase, "Base value (every estimate at its likely value)")
	b.num(sh, 2, rowSensBase, t.Base, money, "tornado.base")

	b.headerRow(sh, rowSensHeader, "Input", "Field", "Value at low", "Value at high", "Swing",
		"At low − base", "At high − base")
	base := absCell(2, rowSensBase)
	for i, bar := range t.Bars {
		row := rowSensHeader + 1 + i
		field := func(name string) string { return fmt.Sprintf("tornado.bars[%d].%s", i, name) }
		b.str(sh, colSensInput, row, present.InputName(bar.Input))
		b.str(sh, colSensField, row, bar.Input)
		b.num(sh, colSensLow, row, bar.Low, money, field("at_low"))
		b.num(sh, colSensHigh, row, bar.High, money, field("at_high"))
		b.num(sh, colSensSwing, row, bar.Swing, money, field("swing"))
		b.formula(sh, colSensLowDelta, row, cell(colSensLow, row)+"-"+base, money, numResult(bar.Low-t.Base))
		b.formula(sh, colSensHighDelta, row, cell(colSensHigh, row)+"-"+base, money, numResult(bar.High-t.Base))
	}
	b.widths(sh, 40, 34, 14, 14, 12, 14, 14)
	b.freeze(sh, rowSensHeader)
	if len(t.Bars) == 0 {
		b.str(sh, 1, rowSensHeader+1, "No input is an estimate: nothing to swing.")
		return
	}
	tornadoChart(b, r, metric)
}

// tornadoChart draws the bars as a tornado: two overlapping series, the
// change from the base at each input's low and at its high end, the largest
// swing on top.
func tornadoChart(b *book, r *model.Report, metric string) {
	const sh = sheetSensitivity
	t := r.Tornado
	first, last := rowSensHeader+1, rowSensHeader+len(t.Bars)
	col := func(c int) string {
		return fmt.Sprintf("%s!%s:%s", sh, absCell(c, first), absCell(c, last))
	}
	series := func(c int, color string) excelize.ChartSeries {
		return excelize.ChartSeries{
			Name:       sh + "!" + absCell(c, rowSensHeader),
			Categories: col(colSensInput),
			Values:     col(c),
			Fill:       excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{color}},
		}
	}
	overlap, gap, noVary := 100, uint(40), false
	font := axisFont(b.family)
	// Below the frozen header rows, so that it scrolls as one piece.
	b.chart(sh, colSensHighDelta+2, rowSensHeader+1, &excelize.Chart{
		Type:       excelize.Bar,
		VaryColors: &noVary,
		// Okabe–Ito blue and vermillion, as in the tornado of package chart.
		Series:    []excelize.ChartSeries{series(colSensLowDelta, "0072B2"), series(colSensHighDelta, "D55E00")},
		Overlap:   &overlap,
		GapWidth:  &gap,
		Dimension: excelize.ChartDimension{Width: 640, Height: uint(max(300, 110+34*len(t.Bars)))},
		Format:    excelize.GraphicOptions{ScaleX: 1, ScaleY: 1, OffsetX: 10},
		Title:     chartTitle(directionTitle(r, t.Direction)+": "+metric+" by input", b.family),
		Legend:    excelize.ChartLegend{Position: "bottom"},
		// On a bar chart the category axis is vertical: reversed, so the
		// largest swing (the first row) is on top; its labels at the low
		// end, so they sit left of the bars, not across the negative ones.
		XAxis: excelize.ChartAxis{ReverseOrder: true, TickLabelPosition: excelize.ChartTickLabelLow, Font: font},
		// The value axis crosses at the first category, now on top; its
		// labels at the high end of the category axis put them below.
		YAxis: excelize.ChartAxis{
			TickLabelPosition: excelize.ChartTickLabelHigh,
			Font:              font,
			MajorGridLines:    true,
			NumFmt:            excelize.ChartNumFmt{CustomNumFmt: fmtWhole},
			Title:             axisTitle("Change from the base value ("+r.Currency+")", b.family),
		},
	})
}
