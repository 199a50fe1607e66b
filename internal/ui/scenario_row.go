package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// scenarioRow is one row of the scenario list: the name in bold over the
// workload shape, the recommendation and the revision count, with a tick
// box in compare mode. A tap chooses the row as the list's own rows do; a
// right click opens the row's menu (rename, history, export, delete); the
// pointer over a row writes its whole name in the list's status line,
// since a long name is cut short in the row.
type scenarioRow struct {
	widget.BaseWidget
	list  *scenarioList
	index widget.ListItemID

	name, detail *widget.Label
	tick         *widgets.KeyCheck
	hover        *canvas.Rectangle
	line         *fyne.Container // the tick box beside the two lines
	body         fyne.CanvasObject
}

var (
	_ fyne.Tappable          = (*scenarioRow)(nil)
	_ fyne.SecondaryTappable = (*scenarioRow)(nil)
	_ desktop.Hoverable      = (*scenarioRow)(nil)
)

func newScenarioRow(l *scenarioList) *scenarioRow {
	r := &scenarioRow{list: l, index: -1}
	r.name = widget.NewLabel("Scenario name")
	r.name.TextStyle.Bold = true
	r.name.Truncation = fyne.TextTruncateEllipsis
	r.detail = widget.NewLabel("Workload shape")
	r.detail.SizeName = theme.SizeNameCaptionText
	r.detail.Truncation = fyne.TextTruncateEllipsis
	r.tick = widgets.NewKeyCheck("", nil)
	r.tick.Hide()
	// The list draws the hover colour over rows it handles itself; this
	// row takes the pointer, so it draws its own.
	r.hover = canvas.NewRectangle(theme.Color(theme.ColorNameHover))
	r.hover.Hide()
	r.line = container.NewBorder(nil, nil, r.tick, nil, container.New(&widgets.TightVBox{}, r.name, r.detail))
	r.body = container.NewStack(r.hover, r.line)
	r.ExtendBaseWidget(r)
	return r
}

// CreateRenderer implements fyne.Widget.
func (r *scenarioRow) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(r.body)
}

// Refresh picks up the theme's hover colour.
func (r *scenarioRow) Refresh() {
	r.hover.FillColor = theme.Color(theme.ColorNameHover)
	r.BaseWidget.Refresh()
}

// Tapped chooses the row, and gives the list the keyboard.
func (r *scenarioRow) Tapped(*fyne.PointEvent) {
	if l := widgets.TipLayerOf(r); l != nil {
		l.Leave(r)
	}
	r.list.tapped(r.index)
}

// TappedSecondary opens the row's menu where the pointer is.
func (r *scenarioRow) TappedSecondary(e *fyne.PointEvent) {
	r.list.rowMenu(r.index, e.AbsolutePosition)
}

// MouseIn writes the row's whole name in the status line, and as a tip
// when the row cuts it short ("…#0044" and "…#0080" look alike).
func (r *scenarioRow) MouseIn(ev *desktop.MouseEvent) {
	r.list.hovered(r.index)
	if l := widgets.TipLayerOf(r); l != nil {
		l.Hover(r, func() string {
			if widgets.IsCut(r.name) {
				return r.name.Text
			}
			return ""
		}, widgets.PointerAt(ev))
	}
}

// MouseMoved implements desktop.Hoverable.
func (r *scenarioRow) MouseMoved(*desktop.MouseEvent) {}

// MouseOut gives the status line back to the list's count.
func (r *scenarioRow) MouseOut() {
	if r.list.hover == r.index {
		r.list.hovered(-1)
	}
	if l := widgets.TipLayerOf(r); l != nil {
		l.Leave(r)
	}
}

// showTick shows the tick box, or hides it and gives its room back to
// the name: a reused row keeps its size, so its line is laid out again.
func (r *scenarioRow) showTick(on bool) {
	if on == r.tick.Visible() {
		return
	}
	widgets.ShowIf(r.tick, on)
	r.line.Refresh()
}

// showHover draws the row as the one under the pointer, or not.
func (r *scenarioRow) showHover(on bool) {
	if on == r.hover.Visible() {
		return
	}
	widgets.ShowIf(r.hover, on)
	r.hover.Refresh()
}

// recommendedDetail is itemDetail with the recommended direction after
// the shape.
func recommendedDetail(it Item, direction string) string {
	rec := nothingLabel
	if direction != "" {
		rec = present.DirectionTitle(direction)
	}
	text := present.ShapeTitle(it.Shape) + " · " + rec
	if it.Revisions > 0 {
		text += " · " + present.Count(it.Revisions, "revision")
	}
	return text
}

// notDecidedDetail is the list's second line for a scenario that could
// not be decided: "Fine-tuning · not decided · 3 revisions" (the status
// line says why when the pointer is over it).
func notDecidedDetail(it Item) string {
	text := present.ShapeTitle(it.Shape) + " · " + notDecided
	if it.Revisions > 0 {
		text += " · " + present.Count(it.Revisions, "revision")
	}
	return text
}

// itemName is the list's main line: the scenario's name, or its id when it
// has none.
func itemName(it Item) string {
	if it.Name != "" {
		return it.Name
	}
	return it.ID
}

// itemDetail is the list's second line: "Fine-tuning · 3 revisions".
func itemDetail(it Item) string {
	text := present.ShapeTitle(it.Shape)
	if it.Revisions > 0 {
		text += " · " + present.Count(it.Revisions, "revision")
	}
	return text
}
