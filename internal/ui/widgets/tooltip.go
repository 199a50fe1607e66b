package widgets

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Tooltips. Fyne (2.7) has none, so the window draws its own: the pointer
// resting on an icon button, or on a name cut short, shows a line of text
// beside it after TipDelay, until the pointer leaves or taps. The tip is
// drawn on a layer over the window's content (TipLayer), not in a pop-up,
// which would take the next click for itself; the layer takes no input.

// TipDelay is how long the pointer rests before a tip shows.
var TipDelay = DefaultTipDelay

const DefaultTipDelay = 600 * time.Millisecond

// TipLayer draws one window's tip.
type TipLayer struct {
	Layer *fyne.Container // over the window's content, without a layout
	box   *fyne.Container // the tip: a background and the text
	bg    *canvas.Rectangle
	text  *widget.Label
	owner fyne.CanvasObject // what the pointer rests on; nil for none
	gen   int               // counts hovers: a late timer of an earlier one does nothing
}

func NewTipLayer() *TipLayer {
	l := &TipLayer{}
	l.bg = canvas.NewRectangle(theme.Color(theme.ColorNameOverlayBackground))
	l.bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	l.bg.StrokeWidth = 1
	l.bg.CornerRadius = theme.InputRadiusSize()
	l.text = widget.NewLabel("")
	l.text.SizeName = theme.SizeNameCaptionText
	l.text.Wrapping = fyne.TextWrapWord
	l.box = container.NewStack(l.bg, l.text)
	l.box.Hide()
	l.Layer = container.NewWithoutLayout(l.box)
	return l
}

// TipHost is the window's content when it draws tips.
type TipHost interface{ Tips() *TipLayer }

// TipLayerOf is the tip layer of the window o is drawn in, nil when none.
func TipLayerOf(o fyne.CanvasObject) *TipLayer {
	a := fyne.CurrentApp()
	if a == nil {
		return nil
	}
	c := a.Driver().CanvasForObject(o)
	if c == nil {
		return nil
	}
	if h, ok := c.Content().(TipHost); ok {
		return h.Tips()
	}
	return nil
}

// maxTipWidth is the widest a tip gets before its text wraps.
const maxTipWidth = 420

// Hover starts the tip of owner, whose text is text() when it shows
// ("" shows none), with the pointer at absolute position at.
func (l *TipLayer) Hover(owner fyne.CanvasObject, text func() string, at fyne.Position) {
	l.gen++
	gen := l.gen
	l.owner = owner
	l.box.Hide()
	show := func() {
		if gen != l.gen || l.owner != owner {
			return
		}
		l.show(text(), at)
	}
	if TipDelay <= 0 {
		show()
		return
	}
	time.AfterFunc(TipDelay, func() { fyne.Do(show) })
}

// Leave hides owner's tip.
func (l *TipLayer) Leave(owner fyne.CanvasObject) {
	if l.owner != owner {
		return
	}
	l.gen++
	l.owner = nil
	l.box.Hide()
}

// show draws text under and right of the pointer at absolute position
// at, kept inside the window.
func (l *TipLayer) show(text string, at fyne.Position) {
	if text == "" {
		l.box.Hide()
		return
	}
	l.bg.FillColor = theme.Color(theme.ColorNameOverlayBackground)
	l.bg.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	l.text.SetText(text)
	pad := 2 * theme.InnerPadding()
	w := min(fyne.MeasureText(text, theme.CaptionTextSize(), fyne.TextStyle{}).Width+pad, maxTipWidth)
	l.text.Resize(fyne.NewSize(w, 0))
	size := fyne.NewSize(w, l.text.MinSize().Height)
	origin := fyne.CurrentApp().Driver().AbsolutePositionForObject(l.Layer)
	area := l.Layer.Size()
	pos := at.Subtract(origin).Add(fyne.NewPos(12, 20))
	if pos.X+size.Width > area.Width {
		pos.X = max(0, area.Width-size.Width)
	}
	if pos.Y+size.Height > area.Height {
		pos.Y = max(0, at.Y-origin.Y-size.Height-8)
	}
	l.box.Move(pos)
	l.box.Resize(size)
	l.box.Show()
	l.Layer.Refresh()
}

// ShownTip is the text of the tip on show, "" when none.
func (l *TipLayer) ShownTip() string {
	if !l.box.Visible() {
		return ""
	}
	return l.text.Text
}

// PointerAt is where a mouse event happened, on the canvas.
func PointerAt(ev *desktop.MouseEvent) fyne.Position {
	if ev == nil {
		return fyne.Position{}
	}
	return ev.AbsolutePosition
}

// TipButton is a button with a tip: what an icon alone does not say, and
// its shortcut.
type TipButton struct {
	widget.Button
	Tip string
}

var _ desktop.Hoverable = (*TipButton)(nil)

// NewTipButton is a button with label (often none), icon and tip.
func NewTipButton(label string, icon fyne.Resource, tip string, tapped func()) *TipButton {
	b := &TipButton{Tip: tip}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// MouseIn implements desktop.Hoverable.
func (b *TipButton) MouseIn(ev *desktop.MouseEvent) {
	b.Button.MouseIn(ev)
	if l := TipLayerOf(b); l != nil {
		l.Hover(b, func() string { return b.Tip }, PointerAt(ev))
	}
}

// MouseOut implements desktop.Hoverable.
func (b *TipButton) MouseOut() {
	b.Button.MouseOut()
	if l := TipLayerOf(b); l != nil {
		l.Leave(b)
	}
}

// Tapped implements fyne.Tappable: the tip goes.
func (b *TipButton) Tapped(ev *fyne.PointEvent) {
	if l := TipLayerOf(b); l != nil {
		l.Leave(b)
	}
	b.Button.Tapped(ev)
}

// IsCut reports whether label l shows its text cut short (an ellipsis):
// its text is wider than the label.
func IsCut(l *widget.Label) bool {
	if l.Truncation == fyne.TextTruncateOff || l.Text == "" {
		return false
	}
	th := l.Theme()
	size := th.Size(theme.SizeNameText)
	if l.SizeName != "" {
		size = th.Size(l.SizeName)
	}
	w := fyne.MeasureText(l.Text, size, l.TextStyle).Width
	return w > l.Size().Width-2*th.Size(theme.SizeNameInnerPadding)
}

// TipLabel is a label cut short with an ellipsis that shows its whole
// text as a tip.
type TipLabel struct {
	widget.Label
}

var _ desktop.Hoverable = (*TipLabel)(nil)

func NewTipLabel(text string) *TipLabel {
	l := &TipLabel{}
	l.Text = text
	l.Truncation = fyne.TextTruncateEllipsis
	l.ExtendBaseWidget(l)
	return l
}

// MouseIn implements desktop.Hoverable.
func (l *TipLabel) MouseIn(ev *desktop.MouseEvent) {
	if t := TipLayerOf(l); t != nil {
		t.Hover(l, func() string {
			if IsCut(&l.Label) {
				return l.Text
			}
			return ""
		}, PointerAt(ev))
	}
}

// MouseMoved implements desktop.Hoverable.
func (l *TipLabel) MouseMoved(*desktop.MouseEvent) {}

// MouseOut implements desktop.Hoverable.
func (l *TipLabel) MouseOut() {
	if t := TipLayerOf(l); t != nil {
		t.Leave(l)
	}
}
