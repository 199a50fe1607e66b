package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// TightVBox stacks the visible objects vertically without padding between
// them, so a caption sits close under its title.
type TightVBox struct{}

func (*TightVBox) MinSize(objects []fyne.CanvasObject) fyne.Size {
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

func (*TightVBox) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		// A wrapping label's height depends on its width: set the width
		// first, then ask.
		o.Resize(fyne.NewSize(size.Width, o.Size().Height))
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}

// FixedSize lays its objects out at one size and asks for it: a dialog
// whose content scrolls gets a useful size of its own.
type FixedSize struct{ Size fyne.Size }

func (f *FixedSize) MinSize([]fyne.CanvasObject) fyne.Size { return f.Size }

func (f *FixedSize) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(f.Size)
	}
}

// MinWidth lays its one object out at least width wide, so a dialog is
// not as narrow as its shortest line.
type MinWidth struct{ Width float32 }

func (m *MinWidth) MinSize(objects []fyne.CanvasObject) fyne.Size {
	s := fyne.Size{Width: m.Width}
	for _, o := range objects {
		ms := o.MinSize()
		s = s.Max(ms)
	}
	return s
}

func (m *MinWidth) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Resize(size)
		o.Move(fyne.NewPos(0, 0))
	}
}

// FixedWidth gives its objects one width, whatever they ask for, and the
// height they need at it.
type FixedWidth struct{ Width float32 }

func (l FixedWidth) MinSize(objects []fyne.CanvasObject) fyne.Size {
	h := float32(0)
	for _, o := range objects {
		h = max(h, HeightAt(o, l.Width))
	}
	return fyne.NewSize(l.Width, h)
}

func (l FixedWidth) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(fyne.NewSize(l.Width, size.Height))
	}
}

// HeightAt is o's height when it is w wide: a wrapping label's height
// depends on its width, so the width is set first.
func HeightAt(o fyne.CanvasObject, w float32) float32 {
	if o.Size().Width != w {
		o.Resize(fyne.NewSize(w, o.Size().Height))
	}
	return o.MinSize().Height
}

// LabelWidth is the width label l takes with each line of its text
// unbroken, or, with words, with its longest word alone on a line.
func LabelWidth(l *widget.Label, words bool) float32 {
	th := l.Theme()
	size := th.Size(theme.SizeNameText)
	if l.SizeName != "" {
		size = th.Size(l.SizeName)
	}
	w := float32(0)
	for _, line := range strings.Split(l.Text, "\n") {
		parts := []string{line}
		if words {
			parts = strings.Fields(line)
		}
		for _, p := range parts {
			w = max(w, fyne.MeasureText(p, size, l.TextStyle).Width)
		}
	}
	return w + 2*th.Size(theme.SizeNameInnerPadding)
}
