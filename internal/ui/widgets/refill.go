package widgets

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// Refilling the report's tabs after an edit touches only what changed.
// Fyne measures a label's text again (shaping every line, and for a
// wrapping label finding every line's end) each time the label is
// refreshed, whether its text changed or not, and a container's or a
// scroll's Refresh refreshes every object inside it; so a tab that
// refreshed its page after each edit measured every word of it again —
// most of the time an edit took to reach the screen. The helpers here
// set text only when it differs, and lay a page out again without
// refreshing what is in it.

// SetText gives l text, refreshing it only when the text changes.
func SetText(l *widget.Label, text string) {
	if l.Text != text {
		l.SetText(text)
	}
}

// SetSegments gives rt segs, refreshing it only when what they say or
// how changes.
func SetSegments(rt *widget.RichText, segs []widget.RichTextSegment) {
	if segmentsKey(rt.Segments) == segmentsKey(segs) {
		return
	}
	rt.Segments = segs
	rt.Refresh()
}

// segmentsKey is what segments say and how, as one string.
func segmentsKey(segs []widget.RichTextSegment) string {
	var b strings.Builder
	var walk func(segs []widget.RichTextSegment)
	walk = func(segs []widget.RichTextSegment) {
		for _, s := range segs {
			switch x := s.(type) {
			case *widget.TextSegment:
				b.WriteString("t")
				b.WriteString(string(x.Style.SizeName))
				if x.Style.TextStyle.Bold {
					b.WriteByte('b')
				}
				if x.Style.TextStyle.Italic {
					b.WriteByte('i')
				}
				if x.Style.Inline {
					b.WriteByte('n')
				}
				b.WriteString(string(x.Style.ColorName))
				b.WriteByte(0)
				b.WriteString(x.Text)
			case *widget.ListSegment:
				b.WriteString("l[")
				walk(x.Items)
				b.WriteString("]")
			case *widget.ParagraphSegment:
				b.WriteString("p[")
				walk(x.Texts)
				b.WriteString("]")
			default:
				b.WriteString("?")
				b.WriteString(s.Textual())
			}
			b.WriteByte(1)
		}
	}
	walk(segs)
	return b.String()
}

// Relayout lays container c out again at its size, after objects in it
// changed size or were shown or hidden, without refreshing each of them
// (Container.Refresh does), and has the canvas draw it again.
func Relayout(c *fyne.Container) {
	if c.Layout != nil {
		c.Layout.Layout(c.Objects, c.Size())
	}
	canvas.Refresh(c)
}

// Refit fits scroll s to its content's size after the content changed:
// the content is laid out again at the size the scroll gives it and the
// scroll bars follow, the offset kept where it still can be. Unlike
// Scroll.Refresh it refreshes nothing inside the content.
func Refit(s *container.Scroll) {
	c := s.Content
	m, view := c.MinSize(), s.Size()
	size := c.Size()
	switch s.Direction {
	case container.ScrollVerticalOnly:
		size = fyne.NewSize(view.Width, max(m.Height, view.Height))
	case container.ScrollHorizontalOnly:
		size = fyne.NewSize(max(m.Width, view.Width), view.Height)
	case container.ScrollBoth:
		size = fyne.NewSize(max(m.Width, view.Width), max(m.Height, view.Height))
	}
	if size != c.Size() {
		c.Resize(size) // lays it out
	} else if box, ok := c.(*fyne.Container); ok {
		Relayout(box)
	}
	// The bars: ScrollToOffset refreshes the scroll's own parts only (it
	// does nothing for an offset it already has).
	at := s.Offset
	s.Offset = fyne.NewPos(at.X+1, at.Y+1)
	s.ScrollToOffset(at)
}

// SetLabel gives l text, bold or not and importance imp, refreshing it
// only when one of them changes.
func SetLabel(l *widget.Label, text string, bold bool, imp widget.Importance) {
	if l.Text == text && l.TextStyle.Bold == bold && l.Importance == imp {
		return
	}
	l.TextStyle.Bold = bold
	l.Importance = imp
	if l.Text == text {
		l.Refresh()
		return
	}
	l.SetText(text)
}
