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
)

// The tornado's colours, as the PNG's (chart.LowEnd, chart.HighEnd):
// Okabe–Ito blue for an input at its low end and vermillion for its high
// end.
var (
	tornadoLowColour  = chart.LowEnd
	tornadoHighColour = chart.HighEnd
)

// TornadoChart draws one-at-a-time sensitivity as horizontal bars: one row
// per input, largest swing on top, each bar running from the base value
// to the figure with the input at its low end (blue) and at its high end
// (vermillion), the values written at the bar ends and the base drawn as a
// vertical line through every row.
type TornadoChart struct {
	widget.BaseWidget
	tornado  *model.Tornado
	currency string
}

var _ fyne.Widget = (*TornadoChart)(nil)

func NewTornadoChart() *TornadoChart {
	c := &TornadoChart{}
	c.ExtendBaseWidget(c)
	return c
}

func (c *TornadoChart) Set(t *model.Tornado, currency string) {
	c.tornado, c.currency = t, currency
	c.Refresh()
}

// Bars returns the bars in drawing order, top to bottom: largest swing
// first, whatever order the report gives.
func (c *TornadoChart) Bars() []model.Bar {
	if c.tornado == nil {
		return nil
	}
	bars := append([]model.Bar(nil), c.tornado.Bars...)
	for i := 1; i < len(bars); i++ { // insertion sort: stable, and a handful of bars
		for j := i; j > 0 && swingOf(bars[j]) > swingOf(bars[j-1]); j-- {
			bars[j], bars[j-1] = bars[j-1], bars[j]
		}
	}
	return bars
}

func swingOf(b model.Bar) float64 { return math.Abs(b.High - b.Low) }

// CreateRenderer implements fyne.Widget.
func (c *TornadoChart) CreateRenderer() fyne.WidgetRenderer {
	r := &tornadoRenderer{chart: c}
	r.objects = c.draw(c.Size())
	return r
}

type tornadoRenderer struct {
	chart   *TornadoChart
	objects []fyne.CanvasObject
}

func (r *tornadoRenderer) Layout(size fyne.Size)        { r.objects = r.chart.draw(size) }
func (r *tornadoRenderer) MinSize() fyne.Size           { return r.chart.minSize() }
func (r *tornadoRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *tornadoRenderer) Destroy()                     {}

func (r *tornadoRenderer) Refresh() {
	r.objects = r.chart.draw(r.chart.Size())
	canvas.Refresh(r.chart)
}

// tornadoGeometry is the chart's vertical layout for the theme's text size.
type tornadoGeometry struct {
	lineH, smallH, pad, rowH, barH, top float32
}

func (c *TornadoChart) geometry() tornadoGeometry {
	th := c.Theme()
	textSize := th.Size(theme.SizeNameText)
	smallSize := th.Size(theme.SizeNameCaptionText)
	pad := th.Size(theme.SizeNamePadding)
	g := tornadoGeometry{
		lineH:  fyne.MeasureText("Mg", textSize, fyne.TextStyle{}).Height,
		smallH: fyne.MeasureText("Mg", smallSize, fyne.TextStyle{}).Height,
		pad:    pad,
	}
	g.rowH = g.lineH + 2*pad
	g.barH = g.lineH
	// The legend, then the base value's label above the bars.
	g.top = g.lineH + 2*pad + g.smallH + pad
	return g
}

func (c *TornadoChart) minSize() fyne.Size {
	g := c.geometry()
	n := len(c.Bars())
	// The bars, then the value axis: ticks, their labels and its title.
	return fyne.NewSize(420, g.top+float32(n)*g.rowH+g.pad+2*(g.smallH+g.pad))
}

// axisTitle is the title of the value axis: the metric and its currency.
func (c *TornadoChart) axisTitle() string {
	title := present.MetricTitle(c.tornado.Metric)
	if c.currency != "" {
		title += " (" + c.currency + ")"
	}
	return title
}

// rangeTicks are ticks at a step of 1, 2 or 5 times a power of ten
// covering lo to hi, about n of them, all inside [lo, hi].
func rangeTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) {
		return nil
	}
	step := NiceCeil((hi - lo) / float64(n))
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out
}

// draw builds the chart for size.
func (c *TornadoChart) draw(size fyne.Size) []fyne.CanvasObject {
	bars := c.Bars()
	if size.Width <= 0 || size.Height <= 0 || c.tornado == nil || len(bars) == 0 {
		return nil
	}
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	fg := th.Color(theme.ColorNameForeground, variant)
	rule := th.Color(theme.ColorNameSeparator, variant)
	textSize := th.Size(theme.SizeNameText)
	smallSize := th.Size(theme.SizeNameCaptionText)
	inset := th.Size(theme.SizeNameInnerPadding)
	scrollBar := th.Size(theme.SizeNameScrollBar)
	g := c.geometry()
	pad := g.pad

	var objs []fyne.CanvasObject
	measure := func(s string, size float32) fyne.Size { return fyne.MeasureText(s, size, fyne.TextStyle{}) }
	text := func(s string, x, y, size float32, col color.Color) {
		t := canvas.NewText(s, col)
		t.TextSize = size
		t.Move(fyne.NewPos(x, y))
		t.Resize(measure(s, size))
		objs = append(objs, t)
	}
	rect := func(x1, x2, y, h float32, col color.Color) {
		if x2 < x1 {
			x1, x2 = x2, x1
		}
		r := canvas.NewRectangle(col)
		r.Move(fyne.NewPos(x1, y))
		r.Resize(fyne.NewSize(max(x2-x1, 1), h))
		objs = append(objs, r)
	}
	line := func(x1, y1, x2, y2, width float32, col color.Color) {
		l := canvas.NewLine(col)
		l.StrokeWidth = width
		l.Position1 = fyne.NewPos(x1, y1)
		l.Position2 = fyne.NewPos(x2, y2)
		objs = append(objs, l)
	}

	// Legend.
	x := inset
	for _, e := range []struct {
		label  string
		colour color.Color
	}{{"input at its low end", tornadoLowColour}, {"input at its high end", tornadoHighColour}} {
		rect(x, x+swatchLength, pad+g.lineH/4, g.lineH/2, e.colour)
		text(e.label, x+swatchLength+2*pad, pad, textSize, fg)
		x += swatchLength + 2*pad + measure(e.label, textSize).Width + 6*pad
	}

	// Columns: input names on the left (at most 40 % of the width), the
	// Bars on the right with room for their value labels at both ends.
	right := size.Width - scrollBar - pad
	nameW := float32(0)
	for _, b := range bars {
		nameW = max(nameW, measure(present.InputName(b.Input), textSize).Width)
	}
	nameW = min(nameW, 0.4*(right-inset))
	base := c.tornado.Base
	lo, hi := base, base
	for _, b := range bars {
		lo = min(lo, b.Low, b.High)
		hi = max(hi, b.Low, b.High)
	}
	valueW := float32(0)
	for _, b := range bars {
		for _, s := range BarLabels(b, base) {
			valueW = max(valueW, measure(s, smallSize).Width)
		}
	}
	plotL := inset + nameW + 2*pad + valueW + pad
	plotR := right - valueW - pad
	if plotR-plotL < 40 {
		return objs
	}
	if hi == lo {
		lo, hi = lo-1, hi+1
	}
	xOf := func(v float64) float32 { return plotL + (plotR-plotL)*float32((v-lo)/(hi-lo)) }

	// The base line, labelled above the bars.
	bx := xOf(base)
	baseLabel := "base " + present.Money(base, c.currency)
	m := measure(baseLabel, smallSize)
	text(baseLabel, min(max(bx-m.Width/2, plotL), right-m.Width), g.top-g.smallH-pad/2, smallSize, fg)

	y := g.top
	for _, b := range bars {
		// Row rule, name, then the two halves of the bar.
		line(inset, y+g.rowH, right, y+g.rowH, 1, rule)
		text(ellipsize(present.InputName(b.Input), nameW, textSize), inset, y+pad, textSize, fg)
		by := y + (g.rowH-g.barH)/2
		// The half farther from the base is drawn first, so both show when
		// low and high lie on the same side.
		type half struct {
			v      float64
			colour color.Color
		}
		halves := []half{{b.Low, tornadoLowColour}, {b.High, tornadoHighColour}}
		if math.Abs(b.High-base) > math.Abs(b.Low-base) {
			halves[0], halves[1] = halves[1], halves[0]
		}
		for i, h := range halves {
			inner := float32(0)
			if i == 1 && sameSide(b.Low, b.High, base) {
				inner = g.barH / 4 // the nearer half, thinner, on top
			}
			rect(bx, xOf(h.v), by+inner, g.barH-2*inner, h.colour)
		}
		// Value labels at the outer ends.
		labels := BarLabels(b, base)
		left, rightEnd := min(b.Low, b.High, base), max(b.Low, b.High, base)
		at := func(s string, v float64, onRight bool) {
			m := measure(s, smallSize)
			xx := xOf(v) - pad - m.Width
			if onRight {
				xx = xOf(v) + pad
			}
			text(s, xx, y+(g.rowH-m.Height)/2, smallSize, fg)
		}
		if len(labels) == 2 { // labels[0] at the left end, labels[1] at the right
			at(labels[0], left, false)
			at(labels[1], rightEnd, true)
		} else if b.Low < base && b.High < base { // both below: beyond the left end
			at(labels[0], left, false)
		} else { // both above, or no change: beyond the right end
			at(labels[0], rightEnd, true)
		}
		y += g.rowH
	}
	line(bx, g.top, bx, y, 2, fg)

	// The value axis under the bars: a tick and an amount at each step,
	// a faint rule up through the rows, and its title.
	line(plotL, y, plotR, y, 1, fg)
	ticks := rangeTicks(lo, hi, 5)
	top := 0.0
	for _, v := range ticks {
		top = max(top, math.Abs(v))
	}
	lastRight := float32(math.Inf(-1))
	for _, v := range ticks {
		xx := xOf(v)
		line(xx, g.top, xx, y, 1, rule)
		line(xx, y, xx, y+pad/2, 1, fg)
		label := axisAmount(v, top)
		m := measure(label, smallSize)
		if xx-m.Width/2 > lastRight+pad { // never two labels touching
			text(label, xx-m.Width/2, y+pad/2, smallSize, fg)
			lastRight = xx + m.Width/2
		}
	}
	title := c.axisTitle()
	m = measure(title, smallSize)
	text(title, plotL+(plotR-plotL-m.Width)/2, y+pad/2+g.smallH+pad/2, smallSize, fg)
	return objs
}

// ellipsize shortens s with "…" until it fits width at text size size.
func ellipsize(s string, width, size float32) string {
	if fyne.MeasureText(s, size, fyne.TextStyle{}).Width <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 1 {
		r = r[:len(r)-1]
		if t := string(r) + "…"; fyne.MeasureText(t, size, fyne.TextStyle{}).Width <= width {
			return t
		}
	}
	return "…"
}

// sameSide reports whether a and b both lie strictly above, or both
// strictly below, base.
func sameSide(a, b, base float64) bool {
	return (a > base && b > base) || (a < base && b < base)
}

// BarLabels are the value labels of a bar: for a bar that spans the base,
// the left end's value then the right end's; otherwise one label with both
// values, or "no change" when the input does not move the figure.
func BarLabels(b model.Bar, base float64) []string {
	const eps = 1e-9
	if math.Abs(b.Low-base) < eps && math.Abs(b.High-base) < eps {
		return []string{"no change"}
	}
	lo, hi := present.Money(b.Low, ""), present.Money(b.High, "")
	if sameSide(b.Low, b.High, base) {
		return []string{"low " + lo + " · high " + hi}
	}
	if b.Low <= b.High {
		return []string{lo, hi}
	}
	return []string{hi, lo}
}
