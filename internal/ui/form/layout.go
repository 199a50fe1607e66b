package form

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"hostplan/internal/ui/widgets"
)

// formLayout lays out a form's rows: its objects come in pairs, a label
// and the field beside it (the control with its help and problem
// underneath). In a pane at least stackBelow wide the labels take a column
// of their own, a third of the width within [labelMin, labelMax], and the
// fields the rest; in a narrower pane each label sits over its field, so
// that neither is squeezed into a sliver. A pair whose field is hidden is
// left out. Labels and help wrap, so a row's height depends on the width:
// as widgets.GridLayout does, MinSize answers for the width last laid out at.
type formLayout struct {
	width float32 // the width last laid out at; 0 before the first layout
}

// The form's proportions.
const (
	stackBelow = 520 // narrower than this, each label sits over its field
	labelMin   = 150
	labelMax   = 260
	fieldMin   = 220 // the narrowest a field gets
)

// labelWidth is the width of the label column in a pane width wide, 0
// when the labels sit over their fields.
func (*formLayout) labelWidth(width float32) float32 {
	if width < stackBelow {
		return 0
	}
	return min(labelMax, max(labelMin, width/3))
}

// place lays out or measures the rows at width; with move false it only
// measures. It returns the total height.
func (l *formLayout) place(objects []fyne.CanvasObject, width float32, move bool) float32 {
	pad := theme.Padding()
	lw := l.labelWidth(width)
	fw := width - lw
	if lw > 0 {
		fw -= pad
	}
	fw = max(fw, fieldMin)
	y := float32(0)
	first := true
	for i := 0; i+1 < len(objects); i += 2 {
		label, field := objects[i], objects[i+1]
		if !field.Visible() {
			continue
		}
		if !first {
			y += pad
		}
		first = false
		if lw == 0 {
			lh := widgets.HeightAt(label, max(width, fieldMin))
			fh := widgets.HeightAt(field, fw)
			if move {
				label.Move(fyne.NewPos(0, y))
				label.Resize(fyne.NewSize(max(width, fieldMin), lh))
				field.Move(fyne.NewPos(0, y+lh))
				field.Resize(fyne.NewSize(fw, fh))
			}
			y += lh + fh
			continue
		}
		lh := widgets.HeightAt(label, lw)
		fh := widgets.HeightAt(field, fw)
		if move {
			label.Move(fyne.NewPos(0, y))
			label.Resize(fyne.NewSize(lw, lh))
			field.Move(fyne.NewPos(lw+pad, y))
			field.Resize(fyne.NewSize(fw, fh))
		}
		y += max(lh, fh)
	}
	return y
}

func (l *formLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	width := max(l.width, fieldMin)
	return fyne.NewSize(fieldMin, l.place(objects, width, false))
}

func (l *formLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	l.width = size.Width
	l.place(objects, size.Width, true)
}

// FieldLayout stacks a field's parts — its control, then its help and
// problem in small text — with no padding between them, each as wide as
// the field. Hidden parts take no room.
type FieldLayout struct{}

func (FieldLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
	}
	return s
}

func (FieldLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		h := widgets.HeightAt(o, size.Width)
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}

// unitWidth is the width of the column of units beside the fields, so
// that the entries of a group line up whatever their unit.
const unitWidth = 130
