package ui

import (
	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/widgets"
)

// Review mode is for leadership: the window full screen without the list
// or any edit control, text large enough for a projector (reviewTheme),
// one scenario or up to three side by side. Each shows its
// recommendation and why, the directions ranked with the P10–P90 of cost
// and time, the cumulative cost over the horizon, the risks, and the
// leadership questions of its brief. Everything it shows was computed
// before: entering it starts no evaluation.

// reviewView is review mode's content.
type reviewView struct {
	sheets  []*report.ReviewSheet // one scenario's sheet; nil for several
	grid    *fyne.Container       // several scenarios side by side; nil for one
	leave   *widget.Button
	scroll  *container.Scroll
	content fyne.CanvasObject // the sheets under the review theme
}

// newReviewView lays out one scenario's sheet, or two or three scenarios
// side by side (at most maxCompared), under theme th; leave is the Leave
// button's action.
func newReviewView(evs []*evaluation, th fyne.Theme, leave func()) *reviewView {
	v := &reviewView{}
	v.leave = widget.NewButtonWithIcon("Leave review (Esc)", theme.CancelIcon(), leave)
	v.leave.Importance = widget.LowImportance
	var body fyne.CanvasObject
	note := ""
	switch len(evs) {
	case 0:
		l := widgets.WrappedLabel("Choose a scenario in the list, or tick up to three in Compare, then press F11 or Review again.")
		body = container.NewVBox(l)
	case 1:
		s := report.NewReviewSheet(evs[0].outcome())
		v.sheets = append(v.sheets, s)
		body = s.Content
	default:
		evs = evs[:min(len(evs), maxCompared)]
		v.grid = report.ReviewGrid(outcomes(evs))
		body = v.grid
		note = report.NewSideBasis(outcomes(evs)).Note()
	}
	// What the comparison converts beside Leave, on one line: the grid
	// below gets the height.
	bar := container.NewBorder(nil, nil, nil, v.leave, widgets.Caption(note))
	v.scroll = container.NewVScroll(container.NewPadded(body))
	inner := container.NewBorder(bar, nil, nil, nil, v.scroll)
	v.content = container.NewThemeOverride(inner, th)
	return v
}
