package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// FlowLayout puts its objects side by side at their natural widths,
// centred on a line, and starts a new line when the next one does not
// fit: a name and its badge on one line when there is room, the badge
// under the name when there is not. An object wider than the line is cut
// to it (a label with an ellipsis).
type FlowLayout struct {
	width float32 // the width last laid out at; 0 before the first layout
}

// lines splits objects into lines for width, each with its height.
func (f *FlowLayout) lines(objects []fyne.CanvasObject, width float32) (rows [][]fyne.CanvasObject, heights []float32) {
	gap := theme.Padding()
	x := float32(0)
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		m := NaturalSize(o)
		if len(rows) == 0 || (x > 0 && width > 0 && x+gap+m.Width > width) {
			rows = append(rows, nil)
			heights = append(heights, 0)
			x = 0
		} else if x > 0 {
			x += gap
		}
		rows[len(rows)-1] = append(rows[len(rows)-1], o)
		heights[len(heights)-1] = max(heights[len(heights)-1], m.Height)
		x += m.Width
	}
	return rows, heights
}

func (f *FlowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	_, heights := f.lines(objects, f.width)
	for _, o := range objects {
		if o.Visible() {
			s.Width = max(s.Width, min(NaturalSize(o).Width, 120))
		}
	}
	for _, h := range heights {
		s.Height += h
	}
	return s
}

func (f *FlowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	f.width = size.Width
	gap := theme.Padding()
	rows, heights := f.lines(objects, size.Width)
	y := float32(0)
	for i, row := range rows {
		x := float32(0)
		for _, o := range row {
			m := NaturalSize(o)
			w := min(m.Width, size.Width-x)
			o.Move(fyne.NewPos(x, y+(heights[i]-m.Height)/2))
			o.Resize(fyne.NewSize(w, m.Height))
			x += w + gap
		}
		y += heights[i]
	}
}

// NaturalSize is the size o takes unshortened: a label that cuts its text
// with an ellipsis asks for little width, but takes its text's.
func NaturalSize(o fyne.CanvasObject) fyne.Size {
	m := o.MinSize()
	if l, ok := o.(*widget.Label); ok && l.Truncation != fyne.TextTruncateOff {
		// A little over: the label cuts text that fills its width exactly.
		m.Width = max(m.Width, LabelWidth(l, false)+2)
	}
	return m
}
