// Package chart draws a report's charts with gonum/plot: the cumulative
// cost of each hosting direction by month (Cumulative), scaling efficiency
// against GPU count (Efficiency) and the sensitivity tornado (Tornado).
// A Chart renders to PNG and SVG at slide size (the command line's
// --charts) or to an image of any size (for the window). Directions keep
// one colour each (Colour); a direction that is not feasible is drawn
// apart — a faded, dashed line — and does not set the scale of a cost
// axis, so it cannot flatten the lines that matter. It imports nothing of
// Fyne and writes files only through package atomicfile.
package chart

import (
	"errors"
	"image/color"

	xfont "golang.org/x/image/font"
	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"

	"hostplan/internal/model"
)

// Names of the charts, used as file names (with the scenario id before
// them) and to pick one.
const (
	NameCumulative = "cumulative-cost"
	NameEfficiency = "efficiency"
	NameTornado    = "tornado"
)

// Chart is one drawn chart: the plot, and its legend, which Draw puts in
// a strip under the plot so that it never covers a line.
type Chart struct {
	Name   string // one of the Name constants
	Plot   *plot.Plot
	legend []legendEntry
}

// Title is the chart's title.
func (c *Chart) Title() string { return c.Plot.Title.Text }

// addLegend adds an entry to the legend: the label beside a sample of
// the plotter's style.
func (c *Chart) addLegend(label string, t plot.Thumbnailer) {
	c.legend = append(c.legend, legendEntry{label, t})
}

// ErrNoData is returned by a chart function when the report has nothing
// for that chart: no costed direction, no scaling curve, no tornado.
var ErrNoData = errors.New("chart: the report has no data for this chart")

// Charts returns every chart the report has data for, in the order
// cumulative cost, efficiency, tornado.
func Charts(r *model.Report) ([]*Chart, error) {
	var out []*Chart
	for _, draw := range []func(*model.Report) (*Chart, error){Cumulative, Efficiency, Tornado} {
		c, err := draw(r)
		if errors.Is(err, ErrNoData) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// sans is the typeface of every chart: gonum/plot's default is a serif.
// Liberation Sans is embedded in gonum/plot and has the metrics of Arial.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// Text sizes, in points at the slide size.
const (
	titleSize  = 14
	labelSize  = 11
	tickSize   = 10
	legendSize = 10
)

// newChart is a chart named name with the charts' fonts, a title and
// axis labels.
func newChart(name, title, x, y string) *Chart {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, titleSize)
	p.Title.TextStyle.Font.Weight = xfont.WeightBold
	p.Title.Padding = vg.Points(8)
	p.X.Label.Text, p.Y.Label.Text = x, y
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, labelSize)
		a.Label.TextStyle.Color = ink
		a.Tick.Label.Font = font.From(sans, tickSize)
		a.Tick.Label.Color = ink
		a.Color, a.Tick.Color = ink, ink
	}
	p.Legend.TextStyle.Font = font.From(sans, legendSize)
	p.Legend.TextStyle.Color = ink
	return &Chart{Name: name, Plot: p}
}

// ink is the colour of text and axes: dark grey, softer than black on a
// slide and still dark enough on paper.
var ink = color.NRGBA{0x33, 0x33, 0x33, 0xff}

// rule is the colour of grid lines.
var rule = color.NRGBA{0xdd, 0xdd, 0xdd, 0xff}
