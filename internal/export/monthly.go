package export

import (
	"fmt"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/model"
)

// writeMonthly writes the cumulative cost of each direction by month, as
// the cost identity's formula (cumulativeFormula) on the Costs cells, and a
// line chart of those cells beside the table: where two lines cross is a
// break-even month.
func writeMonthly(b *book, r *model.Report) {
	const sh = sheetMonthly
	titles := []string{"Month"}
	for _, d := range r.Directions {
		title := d.Title
		if !d.Feasible {
			title += " (not feasible)"
		}
		titles = append(titles, title+" cumulative ("+r.Currency+")")
	}
	b.headerRow(sh, 1, titles...)
	for m := 1; m <= r.HorizonMonths; m++ {
		row := m + 1
		b.num(sh, 1, row, float64(m), b.count, "month")
		for i := range r.Directions {
			b.formula(sh, i+2, row, cumulativeFormula(costRow(i), "$"+cell(1, row)), b.money)
		}
	}
	ws := []float64{8}
	for range r.Directions {
		ws = append(ws, 18)
	}
	b.widths(sh, ws...)
	b.freeze(sh, 1)
	monthlyChart(b, r)
}

// monthlyChart plots one line per direction that has a cost. A direction
// ruled out before it was costed (all months zero and not feasible) would
// draw a misleading line along the axis, so it is left out of the chart
// (its column stays in the table).
func monthlyChart(b *book, r *model.Report) {
	const sh = sheetMonthly
	if r.HorizonMonths < 1 {
		return
	}
	last := r.HorizonMonths + 1
	var series []excelize.ChartSeries
	for i, d := range r.Directions {
		if !d.Feasible && allZero(d.CumulativeByMonth) && d.CostHorizon == 0 {
			continue
		}
		fill, line := directionLine(&r.Directions[i])
		series = append(series, excelize.ChartSeries{
			Name:       sh + "!" + absCell(i+2, 1),
			Categories: fmt.Sprintf("%s!%s:%s", sh, absCell(1, 2), absCell(1, last)),
			Values:     fmt.Sprintf("%s!%s:%s", sh, absCell(i+2, 2), absCell(i+2, last)),
			Fill:       fill,
			Line:       line,
			Marker:     excelize.ChartMarker{Symbol: "none"},
		})
	}
	if len(series) == 0 {
		return
	}
	font := axisFont(b.family)
	noVary := false
	b.chart(sh, len(r.Directions)+3, 2, &excelize.Chart{
		Type:       excelize.Line,
		VaryColors: &noVary,
		Series:     series,
		Dimension:  excelize.ChartDimension{Width: 720, Height: 420},
		Format:     excelize.GraphicOptions{ScaleX: 1, ScaleY: 1, OffsetX: 10},
		Title:      chartTitle("Cumulative cost by month ("+r.Currency+")", b.family),
		Legend:     excelize.ChartLegend{Position: "bottom"},
		XAxis: excelize.ChartAxis{
			Title:         axisTitle("Month", b.family),
			Font:          font,
			TickLabelSkip: tickSkip(r.HorizonMonths),
		},
		YAxis: excelize.ChartAxis{
			Title:          axisTitle(r.Currency, b.family),
			Font:           font,
			MajorGridLines: true,
			NumFmt:         excelize.ChartNumFmt{CustomNumFmt: fmtWhole},
			Maximum:        costAxisMax(r),
			Minimum:        new(0.0),
		},
		ShowBlanksAs: "gap",
	})
}

// tickSkip labels every month up to two years, then fewer, so the month
// numbers on the category axis never overlap.
func tickSkip(months int) int {
	switch {
	case months <= 24:
		return 1
	case months <= 60:
		return 3
	}
	return 12
}

func allZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}

func chartTitle(text, family string) excelize.ChartTitle {
	return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{
		Text: text, Font: &excelize.Font{Bold: true, Size: 12, Family: family},
	}}}
}

func axisTitle(text, family string) excelize.ChartTitle {
	return excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{
		Text: text, Font: &excelize.Font{Size: 9, Family: family, Color: "404040"},
	}}}
}

// axisFont is the font of axis labels: dark grey, where excelize's default
// is a grey too light to read on paper.
func axisFont(family string) excelize.Font {
	return excelize.Font{Family: family, Size: 9, Color: "404040"}
}
