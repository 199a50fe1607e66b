package chart

import (
	"image/color"

	"hostplan/internal/scenario"
)

// colours are the Okabe–Ito colours for colour-blind readers (Okabe & Ito,
// "Color Universal Design", 2008), fixed per direction so that a direction
// keeps its colour from chart to chart and scenario to scenario; they are
// the window's too (internal/ui draws with Colour and Faded). Yellow is left out: it does not show
// on a light background.
var colours = map[string]color.NRGBA{
	scenario.Cloud:   {0x00, 0x72, 0xb2, 0xff}, // blue
	scenario.OnPrem:  {0xd5, 0x5e, 0x00, 0xff}, // vermillion
	scenario.HPC:     {0x00, 0x9e, 0x73, 0xff}, // bluish green
	scenario.Hybrid:  {0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	scenario.Managed: {0xe6, 0x9f, 0x00, 0xff}, // orange
}

// spare is the colour of a direction the palette does not know: sky blue.
var spare = color.NRGBA{0x56, 0xb4, 0xe9, 0xff}

// Colour is the colour of direction id in every chart.
func Colour(id string) color.NRGBA {
	if c, ok := colours[id]; ok {
		return c
	}
	return spare
}

// LowEnd and HighEnd are the tornado's colours: Okabe–Ito blue for an
// input at its low end, vermillion at its high end.
var (
	LowEnd  = color.NRGBA{0x00, 0x72, 0xb2, 0xff}
	HighEnd = color.NRGBA{0xd5, 0x5e, 0x00, 0xff}
)

// Faded is the colour of a direction that is not feasible: its own colour
// mixed half and half with white, so it still says which direction it is
// but reads as set aside.
func Faded(id string) color.NRGBA {
	c := Colour(id)
	mix := func(v uint8) uint8 { return uint8((int(v) + 0xff) / 2) }
	return color.NRGBA{mix(c.R), mix(c.G), mix(c.B), 0xff}
}
