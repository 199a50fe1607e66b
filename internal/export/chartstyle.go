package export

import (
	"fmt"
	"math"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/chart"
	"hostplan/internal/model"
)

// directionLine is the look of direction d's line in a native chart: its
// colour from package chart (as in the PNG and SVG charts and the
// window), solid when it is feasible; faded, thinner and dashed when it
// is not, so it reads as set aside.
func directionLine(d *model.DirectionResult) (excelize.Fill, excelize.LineOptions) {
	c := chart.Colour(d.Direction)
	// A scatter chart's series draws no line unless it is given one.
	line := excelize.LineOptions{Type: excelize.LineSolid, Width: 2.25}
	if !d.Feasible {
		c = chart.Faded(d.Direction)
		line = excelize.LineOptions{Type: excelize.LineSolid, Width: 1.5, Dash: excelize.LineDashDash}
	}
	return excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{fmt.Sprintf("%02X%02X%02X", c.R, c.G, c.B)}}, line
}

// costAxisMax is the top of a cost axis, so that directions that are not
// feasible do not set the scale: a round number a little above the
// largest cumulative cost of a feasible direction, when some direction
// that is not feasible would otherwise stretch the axis past it; nil (the
// viewer's own scale) when none would, or when no direction is feasible.
// A line above the top is cut at the edge of the plot.
func costAxisMax(r *model.Report) *float64 {
	feasible, other := 0.0, 0.0
	for _, d := range r.Directions {
		for _, c := range d.CumulativeByMonth {
			if d.Feasible {
				feasible = max(feasible, c)
			} else {
				other = max(other, c)
			}
		}
	}
	if feasible <= 0 || other <= feasible {
		return nil
	}
	top := roundUp(feasible * 1.05)
	return &top
}

// roundUp is the first of 1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8 and 10 times a
// power of ten at or above x > 0.
func roundUp(x float64) float64 {
	mag := math.Pow(10, math.Floor(math.Log10(x)))
	for _, m := range []float64{1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10} {
		if m*mag >= x {
			return m * mag
		}
	}
	return 10 * mag
}
