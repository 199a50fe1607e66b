package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// StatusLine holds a status message ("Saved …", "Updating the report…")
// in the same room whether it shows one or none, so that a message never
// moves what is under it, where the pointer may be about to click. Its
// label wraps onto at most lines lines and is cut with an ellipsis
// beyond them, the whole text then showing as a tip; an action beside it
// (Undo) keeps its room too, shown or hidden.
type StatusLine struct {
	widget.BaseWidget
	label  *widget.Label
	action fyne.CanvasObject // nil for none
	lines  int
}

var _ desktop.Hoverable = (*StatusLine)(nil)

// NewStatusLine shows label, in caption size, on lines lines beside
// action (nil for none).
func NewStatusLine(label *widget.Label, lines int, action fyne.CanvasObject) *StatusLine {
	label.SizeName = theme.SizeNameCaptionText
	label.Wrapping = fyne.TextWrapWord
	label.Truncation = fyne.TextTruncateEllipsis
	label.Show()
	s := &StatusLine{label: label, action: action, lines: max(1, lines)}
	s.ExtendBaseWidget(s)
	return s
}

// Set shows text with importance imp; "" shows nothing, in the same room.
func (s *StatusLine) Set(text string, imp widget.Importance) {
	s.label.Importance = imp
	s.label.SetText(text)
}

// CreateRenderer implements fyne.Widget.
func (s *StatusLine) CreateRenderer() fyne.WidgetRenderer {
	objects := []fyne.CanvasObject{s.label}
	if s.action != nil {
		objects = append(objects, s.action)
	}
	return &statusLineRenderer{s: s, objects: objects}
}

// textHeight is the height of the label's lines.
func (s *StatusLine) textHeight() float32 {
	th := s.Theme()
	line := fyne.MeasureText("Mg", th.Size(theme.SizeNameCaptionText), fyne.TextStyle{}).Height
	return float32(s.lines)*line + 2*th.Size(theme.SizeNameInnerPadding)
}

// MouseIn implements desktop.Hoverable: a message cut short shows whole.
func (s *StatusLine) MouseIn(ev *desktop.MouseEvent) {
	if l := TipLayerOf(s); l != nil {
		l.Hover(s, func() string {
			th := s.Theme()
			w := fyne.MeasureText(s.label.Text, th.Size(theme.SizeNameCaptionText), s.label.TextStyle).Width
			room := s.label.Size().Width - 2*th.Size(theme.SizeNameInnerPadding)
			if room > 0 && w > room*float32(s.lines)*0.9 { // wrapped lines end short of the edge
				return s.label.Text
			}
			return ""
		}, PointerAt(ev))
	}
}

// MouseMoved implements desktop.Hoverable.
func (s *StatusLine) MouseMoved(*desktop.MouseEvent) {}

// MouseOut implements desktop.Hoverable.
func (s *StatusLine) MouseOut() {
	if l := TipLayerOf(s); l != nil {
		l.Leave(s)
	}
}

type statusLineRenderer struct {
	s       *StatusLine
	objects []fyne.CanvasObject
}

func (r *statusLineRenderer) MinSize() fyne.Size {
	h := r.s.textHeight()
	w := float32(0)
	if a := r.s.action; a != nil {
		m := a.MinSize() // kept hidden or shown
		h = max(h, m.Height)
		w = m.Width
	}
	return fyne.NewSize(w, h)
}

func (r *statusLineRenderer) Layout(size fyne.Size) {
	labelW := size.Width
	if a := r.s.action; a != nil {
		m := a.MinSize()
		if a.Visible() {
			labelW -= m.Width
		}
		a.Resize(m)
		a.Move(fyne.NewPos(size.Width-m.Width, (size.Height-m.Height)/2))
	}
	h := r.s.textHeight()
	r.s.label.Resize(fyne.NewSize(max(0, labelW), h))
	r.s.label.Move(fyne.NewPos(0, (size.Height-h)/2))
}

func (r *statusLineRenderer) Refresh() {
	r.Layout(r.s.Size())
	for _, o := range r.objects {
		o.Refresh()
	}
}

func (r *statusLineRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *statusLineRenderer) Destroy()                     {}
