package ui

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// seriesColours are the Okabe–Ito colours for colour-blind readers
// (Okabe & Ito, "Color Universal Design", 2008), fixed per direction so a
// direction keeps its colour from scenario to scenario and in both themes.
// Yellow is left out: it does not show on a light background.
var seriesColours = map[string]color.NRGBA{
	scenario.Cloud:   {0x00, 0x72, 0xb2, 0xff}, // blue
	scenario.OnPrem:  {0xd5, 0x5e, 0x00, 0xff}, // vermillion
	scenario.HPC:     {0x00, 0x9e, 0x73, 0xff}, // bluish green
	scenario.Hybrid:  {0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	scenario.Managed: {0xe6, 0x9f, 0x00, 0xff}, // orange
}

// spareColour is for a direction the palette does not know: sky blue.
var spareColour = color.NRGBA{0x56, 0xb4, 0xe9, 0xff}

// chartSeries is one direction's curve on the chart.
type chartSeries struct {
	name   string
	colour color.Color
	points []chartPoint
}

// chartPoint is one GPU count on a curve.
type chartPoint struct {
	gpus       int
	efficiency float64 // in (0, 1]
	fits       bool    // the run fits GPU memory at this count
	chosen     bool    // the count the direction uses
}

// chartSeriesOf turns each direction's scaling curve into a chart series.
func chartSeriesOf(ds []model.DirectionResult) []chartSeries {
	out := make([]chartSeries, 0, len(ds))
	for _, d := range ds {
		c, ok := seriesColours[d.Direction]
		s := chartSeries{name: titleOf(d), colour: c}
		if !ok {
			s.colour = spareColour
		}
		for _, p := range d.Scaling {
			if p.GPUs <= 0 {
				continue // no place on a log axis
			}
			s.points = append(s.points, chartPoint{gpus: p.GPUs, efficiency: p.Efficiency, fits: p.Fits, chosen: p.GPUs == d.GPUs})
		}
		out = append(out, s)
	}
	return out
}

// efficiencyChart draws scaling efficiency (%) against GPU count on a log₂
// axis, one line per direction, with the efficiency threshold dashed. The
// chosen count is a large filled dot; a count whose run does not fit GPU
// memory is a hollow circle. It is redrawn from canvas primitives whenever
// it is resized or refreshed.
type efficiencyChart struct {
	widget.BaseWidget
	series    []chartSeries
	threshold float64 // a fraction: 0.7 is drawn at 70 %; 0 draws none
	highlight int     // the series drawn on top, -1 for none
}

var _ fyne.Widget = (*efficiencyChart)(nil)

func newEfficiencyChart() *efficiencyChart {
	c := &efficiencyChart{highlight: -1}
	c.ExtendBaseWidget(c)
	return c
}

// setThreshold sets the efficiency drawn dashed (a fraction; 0 for none).
// It is drawn at the next refresh.
func (c *efficiencyChart) setThreshold(threshold float64) {
	c.threshold = threshold
}

func (c *efficiencyChart) setSeries(s []chartSeries) {
	c.series = s
	c.highlight = -1
	c.Refresh()
}

func (c *efficiencyChart) setHighlight(i int) {
	c.highlight = i
	c.Refresh()
}

// CreateRenderer implements fyne.Widget.
func (c *efficiencyChart) CreateRenderer() fyne.WidgetRenderer {
	r := &chartRenderer{chart: c}
	r.objects = c.draw(c.Size())
	return r
}

// chartMinSize leaves room for the legend, the axes and a readable plot.
var chartMinSize = fyne.NewSize(360, 320)

type chartRenderer struct {
	chart   *efficiencyChart
	objects []fyne.CanvasObject
}

func (r *chartRenderer) Layout(size fyne.Size)        { r.objects = r.chart.draw(size) }
func (r *chartRenderer) MinSize() fyne.Size           { return chartMinSize }
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

// draw builds the chart for size: the legend on top, then the plot.
func (c *efficiencyChart) draw(size fyne.Size) []fyne.CanvasObject {
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

	var objs []fyne.CanvasObject
	measure := func(s string, size float32) fyne.Size {
		return fyne.MeasureText(s, size, fyne.TextStyle{})
	}
	// text puts s with its top-left corner at (x, y).
	text := func(s string, x, y, size float32, col color.Color) {
		t := canvas.NewText(s, col)
		t.TextSize = size
		t.Move(fyne.NewPos(x, y))
		t.Resize(measure(s, size))
		objs = append(objs, t)
	}
	line := func(x1, y1, x2, y2, width float32, col color.Color) {
		l := canvas.NewLine(col)
		l.StrokeWidth = width
		l.Position1 = fyne.NewPos(x1, y1)
		l.Position2 = fyne.NewPos(x2, y2)
		objs = append(objs, l)
	}
	dot := func(x, y, radius float32, fill, stroke color.Color, strokeWidth float32) {
		d := canvas.NewCircle(fill)
		d.StrokeColor = stroke
		d.StrokeWidth = strokeWidth
		d.Move(fyne.NewPos(x-radius, y-radius))
		d.Resize(fyne.NewSize(2*radius, 2*radius))
		objs = append(objs, d)
	}

	// Legend: one entry per series, then what the markers mean; entries
	// wrap onto further rows when the width runs out.
	lineH := measure("Mg", textSize).Height
	widths := c.lineWidths()
	x, y := inset, float32(0)
	entry := func(label string, drawSwatch func(x, midY float32)) {
		w := swatchLength + 2*pad + measure(label, textSize).Width
		if x > inset && x+w > size.Width-scrollBar {
			x, y = inset, y+lineH+pad
		}
		drawSwatch(x, y+lineH/2)
		text(label, x+swatchLength+2*pad, y, textSize, fg)
		x += w + 4*pad
	}
	for i, s := range c.series {
		width := widths[i]
		entry(s.name, func(x, midY float32) {
			line(x, midY, x+swatchLength, midY, max(width, 3), s.colour)
		})
	}
	entry("chosen GPU count", func(x, midY float32) {
		dot(x+swatchLength/2, midY, 5, fg, bg, 1)
	})
	entry("does not fit GPU memory", func(x, midY float32) {
		dot(x+swatchLength/2, midY, 4.5, bg, fg, 2)
	})
	legendBottom := y + lineH

	// Plot area: the y-axis title over the tick labels on the left, the
	// tick labels and the x-axis title underneath.
	smallH := measure("100 %", smallSize).Height
	yTitleTop := legendBottom + 2*pad
	text("Efficiency (%)", inset, yTitleTop, smallSize, fg)
	top := yTitleTop + smallH + pad + smallH/2
	left := inset + measure("100 %", smallSize).Width + 3*pad // room for a dot at 100 %
	maxX := c.maxGPUs()
	lastTick := present.Number(float64(maxX))
	right := size.Width - scrollBar - max(2*pad, measure(lastTick, smallSize).Width/2+pad)
	xTitle := "GPUs (log scale)"
	bottom := size.Height - (smallH + pad + smallH + pad)
	if right-left < 40 || bottom-top < 40 {
		return objs
	}
	xOf := func(n float64) float32 {
		return left + (right-left)*float32(math.Log2(n)/math.Log2(float64(maxX)))
	}
	yOf := func(eff float64) float32 {
		return bottom - (bottom-top)*float32(min(max(eff, 0), 1))
	}

	// Horizontal grid lines and labels at every quarter.
	for _, p := range []float64{0, 0.25, 0.5, 0.75, 1} {
		yy := yOf(p)
		if p > 0 {
			line(left, yy, right, yy, 1, rule)
		}
		label := present.Percent(p)
		m := measure(label, smallSize)
		text(label, left-2*pad-m.Width, yy-m.Height/2, smallSize, fg)
	}
	// Vertical grid lines at every power of two; labels thinned out so
	// they never touch.
	ticks := int(math.Round(math.Log2(float64(maxX)))) + 1
	spacing := (right - left) / float32(max(ticks-1, 1))
	every := int(math.Ceil(float64((measure(lastTick, smallSize).Width + 2*pad) / spacing)))
	every = max(every, 1)
	for k := range ticks {
		n := float64(int(1) << k)
		xx := xOf(n)
		if k > 0 {
			line(xx, top, xx, bottom, 1, rule)
		}
		line(xx, bottom, xx, bottom+pad/2, 1, fg)
		if k%every == 0 {
			label := present.Number(n)
			m := measure(label, smallSize)
			text(label, xx-m.Width/2, bottom+pad/2, smallSize, fg)
		}
	}
	// Axes.
	line(left, top, left, bottom, 1, fg)
	line(left, bottom, right, bottom, 1, fg)
	m := measure(xTitle, smallSize)
	text(xTitle, left+(right-left-m.Width)/2, bottom+pad/2+smallH+pad, smallSize, fg)

	// The threshold, dashed, labelled at its left end where the curves,
	// which start at 100 %, rarely are.
	if c.threshold > 0 {
		ty := yOf(c.threshold)
		for xx := left; xx < right; xx += dashLength + dashGap {
			line(xx, ty, min(xx+dashLength, right), ty, 1.5, fg)
		}
		thresholdLabel := present.Percent(c.threshold) + " threshold"
		text(thresholdLabel, left+pad, ty-smallH-2, smallSize, fg)
	}

	// Curves: the lines first, widest underneath, the highlighted one on
	// top; then the markers, so no line covers a dot.
	order := c.drawOrder()
	for _, i := range order {
		s := c.series[i]
		for j := 1; j < len(s.points); j++ {
			a, b := s.points[j-1], s.points[j]
			line(xOf(float64(a.gpus)), yOf(a.efficiency), xOf(float64(b.gpus)), yOf(b.efficiency), widths[i], s.colour)
		}
	}
	for _, i := range order {
		s := c.series[i]
		for _, p := range s.points {
			xx, yy := xOf(float64(p.gpus)), yOf(p.efficiency)
			switch {
			case p.chosen && !p.fits:
				dot(xx, yy, 6, bg, s.colour, 2.5)
			case p.chosen:
				dot(xx, yy, 6, s.colour, bg, 1.5)
			case !p.fits:
				dot(xx, yy, 4.5, bg, s.colour, 2)
			default:
				dot(xx, yy, widths[i]/2+1.5, s.colour, nil, 0)
			}
		}
	}
	return objs
}

// maxGPUs is the right end of the x axis: the smallest power of two at or
// above every plotted count, and at least 2 so the axis has a length.
func (c *efficiencyChart) maxGPUs() int {
	n := 2
	for _, s := range c.series {
		for _, p := range s.points {
			for n < p.gpus {
				n *= 2
			}
		}
	}
	return n
}

// drawOrder lists the series in the order they are drawn: the report's
// order, with the highlighted series moved to the end.
func (c *efficiencyChart) drawOrder() []int {
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
func (c *efficiencyChart) lineWidths() []float32 {
	widths := make([]float32, len(c.series))
	order := c.drawOrder()
	for k, i := range order {
		widths[i] = thinLine + lineStep*float32(len(order)-1-k)
	}
	return widths
}
