package widgets

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
)

// PageLayout stacks a tab's parts like a VBox, each as wide as the visible
// width, except that a table is never narrower than its minimum: a table
// wider than the pane makes the page scroll sideways, but the chart and
// the sentences stay in view and their text is not cut off.
type PageLayout struct {
	visible float32 // the width of the scroll's viewport; 0 until known
}

func (p *PageLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	n := 0
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
		n++
	}
	if n > 1 {
		s.Height += float32(n-1) * theme.Padding()
	}
	return s
}

func (p *PageLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	width := size.Width
	if p.visible > 0 {
		width = min(width, p.visible)
	}
	y := float32(0)
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		w := width
		if isGrid(o) {
			w = max(width, o.MinSize().Width)
		}
		// A wrapping label's height depends on its width: set the width
		// first, then ask.
		o.Resize(fyne.NewSize(w, o.Size().Height))
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(w, h))
		y += h + theme.Padding()
	}
}

// isGrid reports whether o is a table laid out by GridLayout.
func isGrid(o fyne.CanvasObject) bool {
	c, ok := o.(*fyne.Container)
	if !ok {
		return false
	}
	_, ok = c.Layout.(*GridLayout)
	return ok
}

// ViewportLayout holds the page's scroll and tells the page how wide the
// visible part is, laying the page out again when that changes even if the
// page itself keeps its size.
type ViewportLayout struct {
	layout *PageLayout
	page   *fyne.Container // laid out by layout, inside the scroll
}

func (v *ViewportLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return objects[0].MinSize()
}

func (v *ViewportLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	changed := v.layout.visible != size.Width
	v.layout.visible = size.Width
	objects[0].Resize(size)
	if changed {
		v.layout.Layout(v.page.Objects, v.page.Size())
	}
}

// NewViewport is the layout of a scroll whose content page is laid out by
// layout: the page learns how wide the visible part is.
func NewViewport(layout *PageLayout, page *fyne.Container) *ViewportLayout {
	return &ViewportLayout{layout: layout, page: page}
}

// ScrolledPage lays parts out as a tab's page (PageLayout) in a scroll
// whose viewport tells the page how wide it is: the page, its scroll, and
// the object to show.
func ScrolledPage(parts ...fyne.CanvasObject) (page *fyne.Container, scroll *container.Scroll, content fyne.CanvasObject) {
	layout := &PageLayout{}
	page = container.New(layout, parts...)
	scroll = container.NewScroll(page)
	return page, scroll, container.New(NewViewport(layout, page), scroll)
}
