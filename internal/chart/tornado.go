package chart

import (
	"fmt"
	"image/color"

	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"hostplan/internal/model"
	"hostplan/internal/present"
)

// maxBars is how many bars a tornado shows: the largest swings, enough to
// read on a slide.
const maxBars = 12

// Tornado draws the sensitivity tornado (model.Tornado): for each estimate,
// the change of the metric from its base value with that estimate at its
// low and at its high end, the largest swing on top. ErrNoData without a
// tornado or when no input is an estimate.
func Tornado(r *model.Report) (*Chart, error) {
	t := r.Tornado
	if t == nil || len(t.Bars) == 0 {
		return nil, ErrNoData
	}
	// Inputs that move nothing would be empty rows: left out, and counted
	// in the axis title.
	var bars []model.Bar
	for _, b := range t.Bars {
		if b.Low != t.Base || b.High != t.Base {
			bars = append(bars, b)
		}
	}
	if len(bars) == 0 {
		return nil, ErrNoData
	}
	title := fmt.Sprintf("%s: %s by input", directionTitle(r, t.Direction), present.Lower(present.MetricTitle(t.Metric)))
	moved := len(bars)
	if len(bars) > maxBars {
		bars = bars[:maxBars]
		title += fmt.Sprintf(" (the %d largest of %d)", maxBars, moved)
	}
	xLabel := "Change from the base value of " + present.Money(t.Base, r.Currency)
	switch still := len(t.Bars) - moved; {
	case still == 1:
		xLabel += "; 1 more estimate has no effect"
	case still > 1:
		xLabel += fmt.Sprintf("; %d more estimates have no effect", still)
	}
	c := newChart(NameTornado, title, xLabel, "")
	p := c.Plot
	// Bars go bottom up: the largest swing last, so it is drawn on top.
	n := len(bars)
	low, high := make(plotter.Values, n), make(plotter.Values, n)
	names := make([]string, n)
	for i, b := range bars {
		j := n - 1 - i
		low[j], high[j] = b.Low-t.Base, b.High-t.Base
		names[j] = present.InputName(b.Input)
	}
	// Bars a little over half their row: the plot takes about 70 % of a
	// slide's height.
	width := min(vg.Points(36), 0.55*0.7*Slide.Height/vg.Length(n))
	base, err := plotter.NewLine(plotter.XYs{{X: 0, Y: -0.5}, {X: 0, Y: float64(n) - 0.5}})
	if err != nil {
		return nil, err
	}
	base.Color, base.Width = ink, vg.Points(1)
	p.Add(verticalGrid(), base)
	for _, s := range []struct {
		vs     plotter.Values
		label  string
		colour color.Color
	}{
		{low, "at its low end", LowEnd},
		{high, "at its high end", HighEnd},
	} {
		bc, err := plotter.NewBarChart(s.vs, width)
		if err != nil {
			return nil, err // a NaN or Inf: the model never makes one
		}
		bc.Horizontal = true
		bc.Color = s.colour
		bc.LineStyle.Width = 0
		p.Add(bc)
		c.addLegend("Each input "+s.label, bc)
	}
	p.NominalY(names...)
	// A little room beyond the longest bars, so none touches the edge.
	lo, hi := 0.0, 0.0
	for i := range low {
		lo, hi = min(lo, low[i], high[i]), max(hi, low[i], high[i])
	}
	p.X.Min, p.X.Max = lo-0.04*(hi-lo), hi+0.04*(hi-lo)
	p.X.Tick.Marker = moneyTicks{}
	return c, nil
}

func verticalGrid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Horizontal.Color = nil
	g.Vertical.Color = rule
	g.Vertical.Width = vg.Points(0.75)
	return g
}

// directionTitle is the title of direction id in r, or its own title.
func directionTitle(r *model.Report, id string) string {
	if d := r.Direction(id); d != nil && d.Title != "" {
		return d.Title
	}
	return present.DirectionTitle(id)
}
