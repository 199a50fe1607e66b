package export

import (
	"fmt"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/chart"
)

// directionLine is the look of direction dir's line in a native chart:
// its colour from package chart (as in the PNG and SVG charts and the
// window), solid. Whether the direction is feasible is the legend's to
// say (a formula of Summary's verdict), which follows an edit; a line's
// style would not.
func directionLine(dir string) (excelize.Fill, excelize.LineOptions) {
	c := chart.Colour(dir)
	// A scatter chart's series draws no line unless it is given one.
	line := excelize.LineOptions{Type: excelize.LineSolid, Width: 2.25}
	return excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{fmt.Sprintf("%02X%02X%02X", c.R, c.G, c.B)}}, line
}
