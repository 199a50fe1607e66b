package chart

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"path/filepath"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"hostplan/internal/atomicfile"
)

// Size is the size a chart is drawn at, and the resolution of its PNG.
type Size struct {
	Width, Height vg.Length
	DPI           int // pixels per inch of a PNG or an image
}

// Slide is a 16:9 slide-sized chart: 10 × 5.625 inches, a PNG of
// 1920 × 1080 pixels.
var Slide = Size{Width: 10 * vg.Inch, Height: 5.625 * vg.Inch, DPI: 192}

// margin is the white space around a chart, in points.
const margin = 12

// Draw draws the chart on canvas dc: a white background, the legend in a
// strip along the bottom and the plot above it.
func (c *Chart) Draw(dc draw.Canvas) {
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())
	dc = draw.Crop(dc, margin, -margin, margin/2, -margin)
	h := c.legendHeight(dc.Max.X - dc.Min.X)
	plotArea := draw.Crop(dc, 0, 0, h, 0)
	c.Plot.Draw(plotArea)
	if h > 0 {
		c.drawLegend(draw.Crop(dc, 0, 0, 0, -(dc.Max.Y - dc.Min.Y - h)))
	}
}

// WritePNG writes the chart as a PNG image of size s.
func (c *Chart) WritePNG(w io.Writer, s Size) error {
	cv := vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(s.Width, s.Height), vgimg.UseDPI(s.DPI))}
	c.Draw(draw.New(cv))
	_, err := cv.WriteTo(w)
	return err
}

// WriteSVG writes the chart as an SVG drawing of size s, with its fonts
// embedded so that it looks the same on any machine.
func (c *Chart) WriteSVG(w io.Writer, s Size) error {
	cv := vgsvg.NewWith(vgsvg.UseWH(s.Width, s.Height), vgsvg.EmbedFonts(true))
	c.Draw(draw.New(cv))
	_, err := cv.WriteTo(w)
	return err
}

// Image draws the chart into an image of size s (for the window).
func (c *Chart) Image(s Size) image.Image {
	cv := vgimg.NewWith(vgimg.UseWH(s.Width, s.Height), vgimg.UseDPI(s.DPI))
	c.Draw(draw.New(cv))
	return cv.Image()
}

// Paths are the files WriteFiles writes for charts, in its order: each
// chart's <stem>-<name>.png and <stem>-<name>.svg in dir.
func Paths(dir, stem string, charts []*Chart) []string {
	var paths []string
	for _, c := range charts {
		for _, ext := range []string{"png", "svg"} {
			paths = append(paths, filepath.Join(dir, fmt.Sprintf("%s-%s.%s", stem, c.Name, ext)))
		}
	}
	return paths
}

// WriteFiles writes each chart into directory dir as <stem>-<name>.png
// and <stem>-<name>.svg at size s (Paths), each file through atomicfile
// (whole or not at all; an existing file is replaced), and returns the
// paths written, in order. The directory must exist.
func WriteFiles(dir, stem string, charts []*Chart, s Size) ([]string, error) {
	var paths []string
	all := Paths(dir, stem, charts)
	for i, c := range charts {
		for j, f := range []struct {
			ext   string
			write func(io.Writer, Size) error
		}{{"png", c.WritePNG}, {"svg", c.WriteSVG}} {
			path := all[2*i+j]
			err := atomicfile.Write(path, 0o644, func(w io.Writer) error { return f.write(w, s) })
			if err != nil {
				return paths, fmt.Errorf("chart: %w", err) // err names the path
			}
			paths = append(paths, path)
		}
	}
	return paths, nil
}
