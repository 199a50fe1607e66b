package chart

import (
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"hostplan/internal/model"
	"hostplan/internal/present"
)

// Efficiency draws each direction's scaling efficiency (speedup ÷ GPUs,
// model.ScalingPoint) against its GPU count on a log₂ axis, with the
// report's efficiency threshold dashed, as the window's chart does: the
// count a direction uses is a large dot, a count whose run does not fit
// GPU memory a ring. A direction that is not feasible is faded and dashed.
// ErrNoData when no direction has a scaling curve (every direction a
// per-token service, or interactive inference, which has a serving plan
// instead).
func Efficiency(r *model.Report) (*Chart, error) {
	c := newChart(NameEfficiency, "Scaling efficiency by GPU count", "GPUs (log scale)", "Efficiency")
	p := c.Plot
	lo, hi := math.Inf(1), 0.0
	drawn := 0
	var chosen, unfit plotter.XYs
	// Directions set aside first, the feasible ones over them; each line a
	// little wider than the one drawn over it, so that one hidden under
	// another shows as its edge.
	order := make([]*model.DirectionResult, 0, len(r.Directions))
	for _, feasible := range []bool{false, true} {
		for i := range r.Directions {
			if r.Directions[i].Feasible == feasible && len(r.Directions[i].Scaling) > 0 {
				order = append(order, &r.Directions[i])
			}
		}
	}
	type entry struct {
		name string
		line *plotter.Line
	}
	legend := make(map[string]entry, len(order))
	for k, d := range order {
		var pts plotter.XYs
		for _, s := range d.Scaling {
			if s.GPUs <= 0 {
				continue // no place on a log axis
			}
			pt := plotter.XY{X: float64(s.GPUs), Y: s.Efficiency}
			pts = append(pts, pt)
			lo, hi = min(lo, pt.X), max(hi, pt.X)
			if s.GPUs == d.GPUs {
				chosen = append(chosen, pt)
			}
			if !s.Fits {
				unfit = append(unfit, pt)
			}
		}
		if len(pts) == 0 {
			continue
		}
		l, dots, err := plotter.NewLinePoints(pts)
		if err != nil {
			return nil, err // a NaN or Inf: the model never makes one
		}
		l.Color = Colour(d.Direction)
		dots.Shape = draw.CircleGlyph{}
		dots.Radius = vg.Points(2.5)
		dots.Color = l.Color
		name := d.Title
		if !d.Feasible {
			setAside(&l.LineStyle, d.Direction)
			dots.Color = l.Color
			name += " (not feasible)"
		}
		l.Width = vg.Points(2.5 + 1.25*float64(len(order)-1-k))
		p.Add(l, dots)
		legend[d.Direction] = entry{name, l}
		drawn++
	}
	for _, d := range r.Directions { // the legend in the report's order
		if e, ok := legend[d.Direction]; ok {
			c.addLegend(e.name, e.line)
		}
	}
	if drawn == 0 {
		return nil, ErrNoData
	}
	// Markers over every line, so no line hides one.
	if len(chosen) > 0 {
		s, err := plotter.NewScatter(chosen)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Shape: draw.CircleGlyph{}, Radius: vg.Points(5), Color: ink}
		p.Add(s)
		c.addLegend("chosen GPU count", s)
	}
	if len(unfit) > 0 {
		s, err := plotter.NewScatter(unfit)
		if err != nil {
			return nil, err
		}
		s.GlyphStyle = draw.GlyphStyle{Shape: draw.RingGlyph{}, Radius: vg.Points(5), Color: ink}
		p.Add(s)
		c.addLegend("does not fit GPU memory", s)
	}
	// The axis from the power of two at or below the smallest count to
	// the one at or above the largest, and at least 1 → 2.
	lo = math.Exp2(math.Floor(math.Log2(lo)))
	hi = math.Max(math.Exp2(math.Ceil(math.Log2(hi))), 2*lo)
	if t := r.EfficiencyThreshold; t > 0 && t <= 1 {
		l, err := plotter.NewLine(plotter.XYs{{X: lo, Y: t}, {X: hi, Y: t}})
		if err != nil {
			return nil, err
		}
		l.Color, l.Width = ink, vg.Points(1.25)
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(4)}
		p.Add(l)
		c.addLegend(present.Percent(t)+" efficiency threshold", l)
	}
	p.Add(horizontalGrid())
	p.X.Scale = plot.LogScale{}
	p.X.Min, p.X.Max = lo, hi
	p.X.Tick.Marker = powerTicks{}
	p.Y.Min, p.Y.Max = 0, 1.05
	p.Y.Tick.Marker = percentTicks{}
	return c, nil
}
