package report

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/chart"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// colourOf is the colour of a direction's line: its colour in every
// chart, the PNGs and the workbook's included (chart.Colour, the
// Okabe–Ito colours for colour-blind readers), faded when the direction
// is ruled out (chart.Faded), as the PNG draws it.
func colourOf(direction string, ruledOut bool) color.NRGBA {
	if ruledOut {
		return chart.Faded(direction)
	}
	return chart.Colour(direction)
}

// Marker shapes, one per direction, so lines that coincide are still told
// apart by their markers, colour or no colour.
const (
	markCircle = iota
	markSquare
	markTriangle
	markDiamond
	markCross
)

var directionMarks = map[string]int{
	scenario.Managed: markDiamond, scenario.Cloud: markCircle, scenario.OnPrem: markSquare,
	scenario.HPC: markTriangle, scenario.Hybrid: markCross,
}

// ChartSeries is one direction's line on a chart.
type ChartSeries struct {
	name   string
	colour color.Color
	mark   int
	points []ChartPoint
	// ruledOut draws the line dashed and says so in the legend.
	ruledOut bool
	// note replaces the line in the legend when the series has no points
	// ("no curve: a per-token service").
	note string
	// sameAs is the index of an earlier series with the same points
	// (-1: none); the line is then dashed over it and the legend says so.
	sameAs int
}

// ChartPoint is one point of a line: x is a GPU count or a month, y an
// efficiency or a cost.
type ChartPoint struct {
	x, y   float64
	fits   bool // the run fits GPU memory at this count (always true off the scaling chart)
	chosen bool // the count the direction uses
}

// ChartSeriesOf turns each direction's scaling curve into a chart series:
// every direction, one without a curve with a note saying why, one ruled
// out marked as such.
func ChartSeriesOf(ds []model.DirectionResult) []ChartSeries {
	out := make([]ChartSeries, 0, len(ds))
	for _, d := range ds {
		s := ChartSeries{name: TitleOf(d), colour: colourOf(d.Direction, !d.Feasible), mark: directionMarks[d.Direction], ruledOut: !d.Feasible, sameAs: -1}
		for _, p := range d.Scaling {
			if p.GPUs <= 0 {
				continue // no place on a log axis
			}
			s.points = append(s.points, ChartPoint{x: float64(p.GPUs), y: p.Efficiency, fits: p.Fits, chosen: p.GPUs == d.GPUs})
		}
		if len(s.points) == 0 {
			s.note = "no curve: " + noCurveWhy(d)
		}
		out = append(out, s)
	}
	markSame(out)
	return out
}

// noCurveWhy says why a direction has no scaling curve.
func noCurveWhy(d model.DirectionResult) string {
	switch {
	case d.GPU == "" && d.Direction == scenario.Managed:
		return "a per-token service, not sized by GPUs"
	case d.GPU == "":
		return "no GPUs of its own"
	case d.Serving != nil:
		return "sized by replicas"
	}
	return "not modelled"
}

// markSame points each series whose line coincides with an earlier one's
// (the same x values, y within 0.5 %) at it.
func markSame(ss []ChartSeries) {
	for i := range ss {
		ss[i].sameAs = -1
		for j := 0; j < i && ss[i].sameAs < 0; j++ {
			if samePoints(ss[i].points, ss[j].points) {
				ss[i].sameAs = j
			}
		}
	}
}

func samePoints(a, b []ChartPoint) bool {
	if len(a) == 0 || len(a) != len(b) {
		return false
	}
	for k := range a {
		if a[k].x != b[k].x || math.Abs(a[k].y-b[k].y) > 0.005*math.Max(math.Abs(a[k].y), math.Abs(b[k].y)) {
			return false
		}
	}
	return true
}

// ChartAxes says how a chart maps its values.
type ChartAxes struct {
	logX           bool   // x on a log₂ axis, ticks at powers of two; else linear from 0
	xTitle, yTitle string // axis titles
	percent        bool   // y is a fraction drawn 0–100 %; else an amount from 0
	gpuMarkers     bool   // the legend explains the chosen-count and does-not-fit markers
	months         bool   // x counts months: ticks every 1, 3, 6 or 12
}

// LineChart draws one line per direction over an x axis (GPU count on a
// log₂ axis for scaling efficiency, months for the cumulative cost), with
// an optional threshold dashed. Each direction has its colour and marker
// shape; a line that coincides with another is dashed over it and the
// legend says so; a direction ruled out is dashed and marked in the
// legend; one without points is named in the legend with why. On the
// scaling chart the chosen count is a large filled dot and a count whose
// run does not fit GPU memory a hollow circle. It is redrawn from canvas
// primitives whenever it is resized or refreshed, at the theme's sizes
// (review mode's larger text included).
type LineChart struct {
	widget.BaseWidget
	axes      ChartAxes
	series    []ChartSeries
	threshold float64 // a fraction: 0.7 is drawn at 70 %; 0 draws none
	highlight int     // the series drawn on top, -1 for none
	minSize   fyne.Size
}

var _ fyne.Widget = (*LineChart)(nil)

// NewEfficiencyChart is the Scaling tab's chart: efficiency against GPU
// count.
func NewEfficiencyChart() *LineChart {
	return NewLineChart(ChartAxes{logX: true, xTitle: "GPUs (log scale)", yTitle: "Efficiency (%)", percent: true, gpuMarkers: true})
}

func NewLineChart(axes ChartAxes) *LineChart {
	c := &LineChart{axes: axes, highlight: -1, minSize: ChartMinSize}
	c.ExtendBaseWidget(c)
	return c
}

// SetThreshold sets the efficiency drawn dashed (a fraction; 0 for none).
// It is drawn at the next refresh.
func (c *LineChart) SetThreshold(threshold float64) {
	c.threshold = threshold
}

func (c *LineChart) SetSeries(s []ChartSeries) {
	c.series = s
	c.highlight = -1
	c.Refresh()
}

func (c *LineChart) SetHighlight(i int) {
	c.highlight = i
	c.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (c *LineChart) CreateRenderer() fyne.WidgetRenderer {
	r := &chartRenderer{chart: c}
	r.objects = c.draw(c.Size())
	return r
}

// ChartMinSize leaves room for the legend, the axes and a readable plot.
var ChartMinSize = fyne.NewSize(360, 320)

type chartRenderer struct {
	chart   *LineChart
	objects []fyne.CanvasObject
}

func (r *chartRenderer) Layout(size fyne.Size)        { r.objects = r.chart.draw(size) }
func (r *chartRenderer) MinSize() fyne.Size           { return r.chart.minSize }
func (r *chartRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *chartRenderer) Destroy()                     {}

func (r *chartRenderer) Refresh() {
	r.objects = r.chart.draw(r.chart.Size())
	canvas.Refresh(r.chart)
}

// Chart geometry, in Fyne units.
const (
	swatchLength = 22 // legend line sample
	dashLength   = 6  // threshold dashes
	dashGap      = 4
	thinLine     = 2 // the width of the series drawn on top
	lineStep     = 2 // each series below is this much wider, so one hidden under another shows as its edge
)

// LegendLabel is a series' legend entry.
func (c *LineChart) LegendLabel(i int) string {
	s := c.series[i]
	label := s.name
	switch {
	case s.note != "":
		label += " (" + s.note + ")"
	case s.ruledOut:
		label += " (ruled out)"
	}
	if s.sameAs >= 0 && s.sameAs < len(c.series) {
		label += ", same line as " + c.series[s.sameAs].name
	}
	return label
}

// draw builds the chart for size: the legend on top, then the plot.
func (c *LineChart) draw(size fyne.Size) []fyne.CanvasObject {
	if size.Width <= 0 || size.Height <= 0 {
		return nil
	}
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	fg := th.Color(theme.ColorNameForeground, variant)
	bg := th.Color(theme.ColorNameBackground, variant)
	rule := th.Color(theme.ColorNameSeparator, variant)
	textSize := th.Size(theme.SizeNameText)
	smallSize := th.Size(theme.SizeNameCaptionText)
	pad := th.Size(theme.SizeNamePadding)
	// Start where a label's text starts, so the chart lines up with the
	// headings; keep clear of the vertical scroll bar on the right.
	inset := th.Size(theme.SizeNameInnerPadding)
	scrollBar := th.Size(theme.SizeNameScrollBar)
	markR := max(4, smallSize/3)
	p := &pen{}

	// Legend: one entry per series, then what the markers mean; entries
	// wrap onto further rows when the width runs out.
	lineH := measureText("Mg", textSize).Height
	widths := c.lineWidths()
	x, y := inset, float32(0)
	entry := func(label string, drawSwatch func(x, midY float32)) {
		w := swatchLength + 2*pad + measureText(label, textSize).Width
		if x > inset && x+w > size.Width-scrollBar {
			x, y = inset, y+lineH+pad
		}
		drawSwatch(x, y+lineH/2)
		p.text(label, x+swatchLength+2*pad, y, textSize, fg)
		x += w + 4*pad
	}
	for i, s := range c.series {
		width := max(widths[i], 3)
		entry(c.LegendLabel(i), func(x, midY float32) {
			switch {
			case len(s.points) == 0:
			case s.ruledOut || s.sameAs >= 0:
				p.dashed(x, midY, x+swatchLength, midY, width, s.colour)
			default:
				p.line(x, midY, x+swatchLength, midY, width, s.colour)
			}
			p.mark(s.mark, x+swatchLength/2, midY, markR, s.colour, bg, s.ruledOut || len(s.points) == 0)
		})
	}
	if c.axes.gpuMarkers && len(c.plotted()) > 0 {
		entry("chosen GPU count", func(x, midY float32) {
			p.dot(x+swatchLength/2, midY, markR+1, fg, bg, 1)
		})
		entry("does not fit GPU memory", func(x, midY float32) {
			p.dot(x+swatchLength/2, midY, markR+0.5, bg, fg, 2)
		})
	}
	legendBottom := y + lineH
	if len(c.plotted()) == 0 {
		return p.objs
	}

	// Plot area: the y-axis title over the tick labels on the left, the
	// tick labels and the x-axis title underneath.
	yTicks, yMax := c.yTicks()
	smallH := measureText("100 %", smallSize).Height
	yTitleTop := legendBottom + 2*pad
	p.text(c.axes.yTitle, inset, yTitleTop, smallSize, fg)
	top := yTitleTop + smallH + pad + smallH/2
	labelW := float32(0)
	for _, t := range yTicks {
		labelW = max(labelW, measureText(c.yLabel(t, yTicks), smallSize).Width)
	}
	left := inset + labelW + 3*pad // room for a dot at the top
	xTicks, xMax := c.xTicks()
	lastTick := present.Number(xTicks[len(xTicks)-1])
	right := size.Width - scrollBar - max(2*pad, measureText(lastTick, smallSize).Width/2+pad)
	bottom := size.Height - (smallH + pad + smallH + pad)
	if right-left < 40 || bottom-top < 40 {
		return p.objs
	}
	xOf := func(v float64) float32 {
		if c.axes.logX {
			return left + (right-left)*float32(math.Log2(max(v, 1))/math.Log2(xMax))
		}
		return left + (right-left)*float32(v/xMax)
	}
	yOf := func(v float64) float32 {
		return bottom - (bottom-top)*float32(min(max(v/yMax, 0), 1))
	}

	// Horizontal grid lines and labels at every tick.
	for _, t := range yTicks {
		yy := yOf(t)
		if t > 0 {
			p.line(left, yy, right, yy, 1, rule)
		}
		label := c.yLabel(t, yTicks)
		m := measureText(label, smallSize)
		p.text(label, left-2*pad-m.Width, yy-m.Height/2, smallSize, fg)
	}
	// Vertical grid lines at every tick; labels thinned out so they never
	// touch.
	spacing := (right - left) / float32(max(len(xTicks)-1, 1))
	every := int(math.Ceil(float64((measureText(lastTick, smallSize).Width + 2*pad) / spacing)))
	every = max(every, 1)
	for k, t := range xTicks {
		xx := xOf(t)
		if k > 0 {
			p.line(xx, top, xx, bottom, 1, rule)
		}
		p.line(xx, bottom, xx, bottom+pad/2, 1, fg)
		if k%every == 0 {
			label := present.Number(t)
			m := measureText(label, smallSize)
			p.text(label, xx-m.Width/2, bottom+pad/2, smallSize, fg)
		}
	}
	// Axes.
	p.line(left, top, left, bottom, 1, fg)
	p.line(left, bottom, right, bottom, 1, fg)
	m := measureText(c.axes.xTitle, smallSize)
	p.text(c.axes.xTitle, left+(right-left-m.Width)/2, bottom+pad/2+smallH+pad, smallSize, fg)

	// The threshold, dashed, labelled at its left end where the curves,
	// which start at 100 %, rarely are.
	if c.threshold > 0 && c.axes.percent {
		ty := yOf(c.threshold)
		p.dashed(left, ty, right, ty, 1.5, fg)
		p.text(present.Percent(c.threshold)+" threshold", left+pad, ty-smallH-2, smallSize, fg)
	}

	// Lines first, widest underneath, the highlighted one on top; a line
	// ruled out or the same as another dashed; then the markers, so no
	// line covers one.
	order := c.drawOrder()
	for _, i := range order {
		s := c.series[i]
		draw := p.line
		if s.ruledOut || s.sameAs >= 0 {
			draw = p.dashed
		}
		for j := 1; j < len(s.points); j++ {
			a, b := s.points[j-1], s.points[j]
			draw(xOf(a.x), yOf(a.y), xOf(b.x), yOf(b.y), widths[i], s.colour)
		}
	}
	for _, i := range order {
		s := c.series[i]
		step := max(1, len(s.points)/12) // a long line gets a dozen markers
		for j, pt := range s.points {
			xx, yy := xOf(pt.x), yOf(pt.y)
			switch {
			case pt.chosen && !pt.fits:
				p.dot(xx, yy, markR+2, bg, s.colour, 2.5)
			case pt.chosen:
				p.dot(xx, yy, markR+2, s.colour, bg, 1.5)
			case !pt.fits:
				p.dot(xx, yy, markR+0.5, bg, s.colour, 2)
			case j%step == 0 || j == len(s.points)-1:
				p.mark(s.mark, xx, yy, markR, s.colour, bg, s.ruledOut)
			}
		}
	}
	return p.objs
}

// plotted lists the series with points.
func (c *LineChart) plotted() []int {
	var out []int
	for i, s := range c.series {
		if len(s.points) > 0 {
			out = append(out, i)
		}
	}
	return out
}

// MaxGPUs is the right end of a log₂ x axis: the smallest power of two at
// or above every plotted count, and at least 2 so the axis has a length.
func (c *LineChart) MaxGPUs() int {
	n := 2
	for _, s := range c.series {
		for _, p := range s.points {
			for float64(n) < p.x {
				n *= 2
			}
		}
	}
	return n
}

// drawOrder lists the series in the order they are drawn: the report's
// order, with the highlighted series moved to the end.
func (c *LineChart) drawOrder() []int {
	order := make([]int, 0, len(c.series))
	for i := range c.series {
		if i != c.highlight {
			order = append(order, i)
		}
	}
	if c.highlight >= 0 && c.highlight < len(c.series) {
		order = append(order, c.highlight)
	}
	return order
}

// lineWidths gives each series a width by its place in the drawing order:
// the last drawn thinnest, each earlier one wider, so curves that coincide
// (cloud and hybrid on the same GPUs) all stay visible as nested bands.
func (c *LineChart) lineWidths() []float32 {
	widths := make([]float32, len(c.series))
	order := c.drawOrder()
	k := 0
	for _, i := range order {
		if len(c.series[i].points) == 0 {
			widths[i] = thinLine
			continue
		}
		widths[i] = thinLine + lineStep*float32(len(c.plotted())-1-k)
		k++
	}
	return widths
}

// SeriesCount is how many series the chart's legend lists, PlottedCount
// how many of them it draws a line for, and PointCount how many points
// series i has.
func (c *LineChart) SeriesCount() int { return len(c.series) }

func (c *LineChart) PlottedCount() int { return len(c.plotted()) }

func (c *LineChart) PointCount(i int) int { return len(c.series[i].points) }
