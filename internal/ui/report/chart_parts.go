package report

import (
	"image/color"
	"math"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"

	"hostplan/internal/present"
)

// The line chart's parts: the pen it draws with, and its axes' ticks.

// pen draws canvas primitives into a list of objects.
type pen struct {
	objs []fyne.CanvasObject
}

func measureText(s string, size float32) fyne.Size {
	return fyne.MeasureText(s, size, fyne.TextStyle{})
}

// text puts s with its top-left corner at (x, y).
func (p *pen) text(s string, x, y, size float32, col color.Color) {
	t := canvas.NewText(s, col)
	t.TextSize = size
	t.Move(fyne.NewPos(x, y))
	t.Resize(measureText(s, size))
	p.objs = append(p.objs, t)
}

func (p *pen) line(x1, y1, x2, y2, width float32, col color.Color) {
	l := canvas.NewLine(col)
	l.StrokeWidth = width
	l.Position1 = fyne.NewPos(x1, y1)
	l.Position2 = fyne.NewPos(x2, y2)
	p.objs = append(p.objs, l)
}

// dashed draws a dashed line from (x1, y1) to (x2, y2).
func (p *pen) dashed(x1, y1, x2, y2, width float32, col color.Color) {
	dx, dy := x2-x1, y2-y1
	length := float32(math.Hypot(float64(dx), float64(dy)))
	if length == 0 {
		return
	}
	for s := float32(0); s < length; s += dashLength + dashGap {
		e := min(s+dashLength, length)
		p.line(x1+dx*s/length, y1+dy*s/length, x1+dx*e/length, y1+dy*e/length, width, col)
	}
}

func (p *pen) dot(x, y, radius float32, fill, stroke color.Color, strokeWidth float32) {
	d := canvas.NewCircle(fill)
	d.StrokeColor = stroke
	d.StrokeWidth = strokeWidth
	d.Move(fyne.NewPos(x-radius, y-radius))
	d.Resize(fyne.NewSize(2*radius, 2*radius))
	p.objs = append(p.objs, d)
}

// mark draws marker shape m centred at (x, y), filled, or hollow on bg.
func (p *pen) mark(m int, x, y, r float32, col, bg color.Color, hollow bool) {
	fill := col
	if hollow {
		fill = bg
	}
	switch m {
	case markSquare:
		rect := canvas.NewRectangle(fill)
		rect.StrokeColor, rect.StrokeWidth = col, 1.5
		rect.Move(fyne.NewPos(x-r, y-r))
		rect.Resize(fyne.NewSize(2*r, 2*r))
		p.objs = append(p.objs, rect)
	case markTriangle:
		p.line(x-r, y+r, x+r, y+r, 2, col)
		p.line(x-r, y+r, x, y-r, 2, col)
		p.line(x+r, y+r, x, y-r, 2, col)
	case markDiamond:
		p.line(x, y-r, x+r, y, 2, col)
		p.line(x+r, y, x, y+r, 2, col)
		p.line(x, y+r, x-r, y, 2, col)
		p.line(x-r, y, x, y-r, 2, col)
	case markCross:
		p.line(x-r, y-r, x+r, y+r, 2.5, col)
		p.line(x-r, y+r, x+r, y-r, 2.5, col)
	default:
		p.dot(x, y, r, fill, col, 1.5)
	}
}

// xTicks are the x axis's ticks and its right end: every power of two on
// a log axis, else nice steps from 0.
func (c *LineChart) xTicks() ([]float64, float64) {
	if c.axes.logX {
		n := c.MaxGPUs()
		var ticks []float64
		for v := 1; v <= n; v *= 2 {
			ticks = append(ticks, float64(v))
		}
		return ticks, float64(n)
	}
	hi := 0.0
	for _, s := range c.series {
		for _, p := range s.points {
			hi = max(hi, p.x)
		}
	}
	if c.axes.months {
		return monthTicks(hi)
	}
	return niceTicks(hi, 8)
}

// monthTicks are ticks every 1, 3, 6 or 12 months, at most 12 of them,
// ending at or after hi.
func monthTicks(hi float64) ([]float64, float64) {
	step := 12.0
	for _, s := range []float64{1, 3, 6} {
		if hi/s <= 12 {
			step = s
			break
		}
	}
	var ticks []float64
	for v := 0.0; ; v += step {
		ticks = append(ticks, v)
		if v >= hi {
			return ticks, v
		}
	}
}

// yTicks are the y axis's ticks and its top: quarters of 100 % for a
// fraction, else nice steps from 0.
func (c *LineChart) yTicks() ([]float64, float64) {
	if c.axes.percent {
		return []float64{0, 0.25, 0.5, 0.75, 1}, 1
	}
	hi := 0.0
	for _, s := range c.series {
		for _, p := range s.points {
			hi = max(hi, p.y)
		}
	}
	return niceTicks(hi, 5)
}

// yLabel writes a y tick.
func (c *LineChart) yLabel(v float64, ticks []float64) string {
	if c.axes.percent {
		return present.Percent(v)
	}
	return axisAmount(v, ticks[len(ticks)-1])
}

// niceTicks returns ticks from 0 at a step of 1, 2 or 5 times a power of
// ten, about n of them, ending at or above hi, and that end.
func niceTicks(hi float64, n int) ([]float64, float64) {
	if !(hi > 0) || math.IsInf(hi, 0) {
		return []float64{0, 1}, 1
	}
	step := NiceCeil(hi / float64(n))
	var ticks []float64
	for v := 0.0; ; v += step {
		ticks = append(ticks, v)
		if v >= hi*(1-1e-9) {
			return ticks, v
		}
	}
}

// axisAmount writes an axis tick of an amount, in thousands or millions
// when the axis reaches that far: "500 k", "1.5 M".
func axisAmount(v, top float64) string {
	switch {
	case v == 0:
		return "0"
	case top >= 1e6:
		return present.Number(math.Round(v/1e4)/100) + " M"
	case top >= 1e4:
		return present.Number(math.Round(v/10)/100) + " k"
	}
	return present.Number(v)
}

// NiceCeil rounds x > 0 up to 1, 2 or 5 times a power of ten.
func NiceCeil(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(x)))
	for _, f := range []float64{1, 2, 5, 10} {
		if f*p >= x*(1-1e-12) {
			return f * p
		}
	}
	return 10 * p
}
