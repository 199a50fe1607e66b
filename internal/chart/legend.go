package chart

import (
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// legendEntry is one line of a legend: a label beside a sample of the
// plotter's style.
type legendEntry struct {
	label string
	thumb plot.Thumbnailer
}

// Legend geometry, in points.
const (
	swatch    = 22 // the width of a style sample
	swatchGap = 6  // between a sample and its label
	entryGap  = 18 // between entries on a row
	legendPad = 6  // above and below the legend
)

// legendRows lays the entries out in rows that fit width, left to right;
// it returns the entries of each row and the width each row takes.
func (c *Chart) legendRows(width vg.Length) (rows [][]legendEntry, widths []vg.Length) {
	sty := c.Plot.Legend.TextStyle
	var row []legendEntry
	used := vg.Length(0)
	for _, e := range c.legend {
		w := swatch + swatchGap + sty.Width(e.label)
		if len(row) > 0 && used+entryGap+w > width {
			rows, widths = append(rows, row), append(widths, used)
			row, used = nil, 0
		}
		if len(row) > 0 {
			used += entryGap
		}
		row, used = append(row, e), used+w
	}
	if len(row) > 0 {
		rows, widths = append(rows, row), append(widths, used)
	}
	return rows, widths
}

// lineHeight is the height of one row of the legend.
func (c *Chart) lineHeight() vg.Length {
	return c.Plot.Legend.TextStyle.FontExtents().Height * 1.3
}

// legendHeight is the height of the legend strip at width, 0 without a
// legend.
func (c *Chart) legendHeight(width vg.Length) vg.Length {
	rows, _ := c.legendRows(width - 2*legendPad)
	if len(rows) == 0 {
		return 0
	}
	return vg.Length(len(rows))*c.lineHeight() + 2*legendPad
}

// drawLegend draws the legend in strip, each row centred.
func (c *Chart) drawLegend(strip draw.Canvas) {
	sty := c.Plot.Legend.TextStyle
	sty.YAlign = -0.5 // the text's middle on the row's middle
	rows, widths := c.legendRows(strip.Max.X - strip.Min.X - 2*legendPad)
	lh := c.lineHeight()
	y := strip.Max.Y - legendPad - lh/2
	for i, row := range rows {
		x := strip.Min.X + (strip.Max.X-strip.Min.X-widths[i])/2
		for _, e := range row {
			h := sty.FontExtents().Ascent
			box := draw.Canvas{Canvas: strip.Canvas, Rectangle: vg.Rectangle{
				Min: vg.Point{X: x, Y: y - h/2}, Max: vg.Point{X: x + swatch, Y: y + h/2},
			}}
			e.thumb.Thumbnail(&box)
			strip.FillText(sty, vg.Point{X: x + swatch + swatchGap, Y: y}, e.label)
			x += swatch + swatchGap + sty.Width(e.label) + entryGap
		}
		y -= lh
	}
}
