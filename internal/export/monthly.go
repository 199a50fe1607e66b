package export

import (
	"fmt"
	"math"
	"strconv"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// maxHorizonMonths is the longest horizon a scenario may have: the bound
// of dimensions.economics.horizon_months, which scenario.Validate checks
// and the Drivers sheet's validation enforces. The Monthly sheet has a row
// for each of its months, empty past the horizon, so that a longer
// horizon typed on Drivers lengthens the table and the chart.
var maxHorizonMonths = horizonBound()

// horizonBound is the largest horizon the scenario's bounds allow.
func horizonBound() int {
	r, ok := scenario.BoundOf(horizonField)
	if !ok || !r.Whole || r.Max < 1 || r.Max > 1200 {
		panic(fmt.Sprintf("export: %s has no whole bound a Monthly sheet can hold: %+v", horizonField, r))
	}
	return int(r.Max)
}

// horizonField is the scenario field of the planning horizon.
const horizonField = "dimensions.economics.horizon_months"

// Monthly's hidden chart data starts at this column: month and
// cumulative costs as the chart reads them, #N/A past the horizon, so that
// a line stops at the horizon and the axis ends there.
const colMonChart = 30

// writeMonthly writes the cumulative cost of each direction by month, as
// the cost identity's formula (cumulativeFormula) on the Costs cells, and a
// chart of those cells beside the table: where two lines cross is a
// break-even month.
func writeMonthly(b *book, r *model.Report) {
	const sh = sheetMonthly
	b.headerRow(sh, 1, "Month")
	// Each direction's title says whether it is feasible as Summary's
	// verdict does now, after any edit (the chart's legend reads it).
	titles := make([]string, len(r.Directions))
	for i, d := range r.Directions {
		titles[i] = d.Title
		if !d.Feasible {
			titles[i] += notFeasibleMark
		}
		titles[i] += " cumulative (" + r.Currency + ")"
		verdict := sheetSummary + "!" + absCell(colSumFeasible, summaryTableRow+1+i)
		b.formula(sh, i+2, 1, fmt.Sprintf(`"%s"&IF(%s="%s","","%s")&" cumulative (%s)"`, d.Title, verdict, present.YesNo(true), notFeasibleMark, r.Currency),
			b.header, textResult(titles[i]))
	}
	b.wrapsText(sh, 1)
	// The chart's data: a header row for the series names, then the months.
	b.str(sh, colMonChart, 1, "Month (chart)")
	for i := range r.Directions {
		b.formula(sh, colMonChart+1+i, 1, sh+"!"+absCell(i+2, 1), 0, textResult(titles[i]))
	}
	// The top of the chart: a little above the highest cost over the
	// horizon of a direction feasible now (of any, when none is), so that
	// one far dearer does not flatten the others; its line stops there.
	top := chartTop(r)
	ifFeasible := sheetSummary + "!" + absCell(colSumIfFeasible, summaryTableRow+1) + ":" + absCell(colSumIfFeasible, summaryTableRow+max(len(r.Directions), 1))
	horizons := sheetSummary + "!" + absCell(colSumHorizon, summaryTableRow+1) + ":" + absCell(colSumHorizon, summaryTableRow+max(len(r.Directions), 1))
	capCell := absCell(colMonChart, maxHorizonMonths+3)
	b.str(sh, colMonChart, maxHorizonMonths+2, "Top of the chart")
	b.formula(sh, colMonChart, maxHorizonMonths+3, fmt.Sprintf("%s*IF(COUNT(%s)>0,MAX(%s),MAX(%s))", chartHeadroomText, ifFeasible, ifFeasible, horizons), b.money, numResult(top))
	for m := 1; m <= maxHorizonMonths; m++ {
		row := m + 1
		in := m <= r.HorizonMonths
		month := strconv.Itoa(m)
		within := month + "<=" + nameHorizonMonths
		if in {
			b.formula(sh, 1, row, "IF("+within+","+month+`,"")`, b.count, numResult(float64(m)))
			b.formula(sh, colMonChart, row, "IF("+within+","+month+",NA())", b.count, numResult(float64(m)))
		} else {
			b.formula(sh, 1, row, "IF("+within+","+month+`,"")`, b.count, textResult(""))
			b.formula(sh, colMonChart, row, "IF("+within+","+month+",NA())", b.count, notAvailable())
		}
		for i, d := range r.Directions {
			cum := cumulativeFormula(costRow(i), month)
			table, chart := textResult(""), notAvailable()
			what := fmt.Sprintf("%s: cumulative cost by month %d", d.Title, m)
			if in {
				table, chart = numResult(d.CumulativeByMonth[m-1]), numResult(d.CumulativeByMonth[m-1])
				b.audited(sh, i+2, row, what, d.CumulativeByMonth[m-1])
			} else {
				b.auditedEmpty(sh, i+2, row, what)
			}
			if in && d.CumulativeByMonth[m-1] > top {
				chart = notAvailable()
			}
			b.formula(sh, i+2, row, "IF("+within+","+cum+`,"")`, b.money, table)
			here := cell(i+2, row)
			b.formula(sh, colMonChart+1+i, row, "IF(AND("+within+",ISNUMBER("+here+")),IF("+here+"<="+capCell+","+here+",NA()),NA())", b.money, chart)
		}
	}
	ws := []float64{8}
	for range r.Directions {
		ws = append(ws, 18)
	}
	b.widths(sh, ws...)
	for c := colMonChart; c <= colMonChart+len(r.Directions); c++ {
		name, err := excelize.ColumnNumberToName(c)
		b.fail(err)
		b.fail(b.f.SetColVisible(sh, name, false))
	}
	b.freeze(sh, 1)
	monthlyChart(b, r)
	// Printed: the months of the horizon and the chart beside them, not
	// the empty rows past the horizon.
	b.printArea(sh, len(r.Directions)+3+chartColumns, max(r.HorizonMonths+1, chartRows+2))
}

// The monthly chart's size in pixels, and in the columns (64 pixels) and
// rows (20 pixels) it covers, its offset included, rounded up.
const (
	chartWidth, chartHeight, chartOffset = 720, 420, 10
	chartColumns                         = (chartWidth + chartOffset + 63) / 64
	chartRows                            = (chartHeight + 19) / 20
)

// monthlyChart plots one line per direction that has a cost, month against
// cumulative cost, from the hidden chart data: an XY chart, whose axis ends
// at the last month plotted. A direction ruled out before it was costed
// (all months zero and not feasible) would draw a misleading line along
// the axis, so it is left out of the chart (its column stays in the
// table).
func monthlyChart(b *book, r *model.Report) {
	const sh = sheetMonthly
	if r.HorizonMonths < 1 {
		return
	}
	last := maxHorizonMonths + 1
	var series []excelize.ChartSeries
	for i, d := range r.Directions {
		if !d.Feasible && allZero(d.CumulativeByMonth) && d.CostHorizon == 0 {
			continue
		}
		col := colMonChart + 1 + i
		fill, line := directionLine(d.Direction)
		series = append(series, excelize.ChartSeries{
			Name:       sh + "!" + absCell(col, 1),
			Categories: fmt.Sprintf("%s!%s:%s", sh, absCell(colMonChart, 2), absCell(colMonChart, last)),
			Values:     fmt.Sprintf("%s!%s:%s", sh, absCell(col, 2), absCell(col, last)),
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
		Type:       excelize.Scatter,
		VaryColors: &noVary,
		Series:     series,
		Dimension:  excelize.ChartDimension{Width: chartWidth, Height: chartHeight},
		Format:     excelize.GraphicOptions{ScaleX: 1, ScaleY: 1, OffsetX: chartOffset},
		Title:      chartTitle("Cumulative cost by month ("+r.Currency+")", b.family),
		Legend:     excelize.ChartLegend{Position: "bottom"},
		XAxis: excelize.ChartAxis{
			Title: axisTitle("Month", b.family),
			Font:  font,
		},
		YAxis: excelize.ChartAxis{
			Title:          axisTitle(r.Currency, b.family),
			Font:           font,
			MajorGridLines: true,
			NumFmt:         excelize.ChartNumFmt{CustomNumFmt: fmtWhole},
			// No Maximum: the viewer scales the axis to the recalculated
			// costs; the chart data stops a line above the top.
			Minimum: new(0.0),
		},
		ShowBlanksAs: "gap",
	})
}

// notFeasibleMark follows the title of a direction that is not feasible.
const notFeasibleMark = " (not feasible)"

// chartHeadroom is how far above the highest feasible cost the monthly
// chart's lines run; chartHeadroomText is it in a formula.
const (
	chartHeadroom     = 1.05
	chartHeadroomText = "1.05"
)

// chartTop is the top of the monthly chart at export: chartHeadroom times
// the highest cost over the horizon of a feasible direction, or of any
// when none is, as the formula on Monthly computes it.
func chartTop(r *model.Report) float64 {
	feasible, all := math.Inf(-1), math.Inf(-1)
	for _, d := range r.Directions {
		all = max(all, d.CostHorizon)
		if d.Feasible {
			feasible = max(feasible, d.CostHorizon)
		}
	}
	if math.IsInf(feasible, -1) {
		feasible = all
	}
	return chartHeadroom * feasible
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
