package chart

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"hostplan/internal/model"
)

// Cumulative draws each direction's total spend by the end of each month
// of the horizon (model.DirectionResult.CumulativeByMonth): where two lines
// cross is a break-even month. A direction that is not feasible is a
// faded dashed line that does not set the scale (it is clipped at the top
// when it costs more than every feasible one); a direction ruled out
// before it was costed (no spend at all) is left out. ErrNoData when no
// direction has a cost.
func Cumulative(r *model.Report) (*Chart, error) {
	c := newChart(NameCumulative, "Cumulative cost by month ("+r.Currency+")", "Month", r.Currency)
	p := c.Plot
	anyFeasible := false
	for _, d := range r.Directions {
		if d.Feasible && len(d.CumulativeByMonth) > 0 {
			anyFeasible = true
		}
	}
	drawn := 0
	for i := range r.Directions {
		d := &r.Directions[i]
		if len(d.CumulativeByMonth) == 0 || !d.Feasible && allZero(d.CumulativeByMonth) {
			continue
		}
		pts := make(plotter.XYs, len(d.CumulativeByMonth))
		for m, c := range d.CumulativeByMonth {
			pts[m] = plotter.XY{X: float64(m + 1), Y: c}
		}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, err // a NaN or Inf: the model never makes one
		}
		l.Width = vg.Points(2.5)
		l.Color = Colour(d.Direction)
		name := d.Title
		var pl plot.Plotter = l
		if !d.Feasible {
			setAside(&l.LineStyle, d.Direction)
			name += " (not feasible)"
			if anyFeasible {
				pl = unscaled{l}
			}
		}
		p.Add(pl)
		c.addLegend(name, l)
		drawn++
	}
	if drawn == 0 {
		return nil, ErrNoData
	}
	p.Add(horizontalGrid())
	p.Y.Min = 0
	p.Y.Tick.Marker = moneyTicks{}
	p.X.Min, p.X.Max = 1, float64(max(r.HorizonMonths, 2))
	p.X.Tick.Marker = monthTicks{}
	return c, nil
}

// setAside styles the line of a direction that is not feasible: its faded
// colour, thinner and dashed.
func setAside(ls *draw.LineStyle, direction string) {
	ls.Color = Faded(direction)
	ls.Width = vg.Points(1.75)
	ls.Dashes = []vg.Length{vg.Points(6), vg.Points(4)}
}

// unscaled is a plotter whose data do not widen the axes: the plot's
// scale is set by the others, and its lines are clipped to it.
type unscaled struct{ plot.Plotter }

func horizontalGrid() *plotter.Grid {
	g := plotter.NewGrid()
	g.Vertical.Color = nil
	g.Horizontal.Color = rule
	g.Horizontal.Width = vg.Points(0.75)
	return g
}

func allZero(xs []float64) bool {
	for _, x := range xs {
		if x != 0 {
			return false
		}
	}
	return true
}
