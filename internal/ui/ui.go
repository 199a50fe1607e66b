// Package ui is hostplan's desktop window: the stored scenarios on the left,
// the chosen one's report, inputs and notes on the right. It renders a
// model.Report and reaches the rest of hostplan only through Backend, so it
// can be tested with a fake and never imports the store or the model's code.
package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// windowTitle is the title of the main window.
const windowTitle = "hostplan"

// listShare is the part of the window's width the scenario list takes.
const listShare = 0.24

// NewWindow creates the main window, titled "hostplan", sized for a laptop
// screen and filled by Create.
func NewWindow(a fyne.App, b Backend) fyne.Window {
	w := a.NewWindow(windowTitle)
	w.Resize(fyne.NewSize(1200, 800))
	Create(a, w, b)
	return w
}

// Create fills w with the planner: scenarios from b on the left; choosing one
// loads and evaluates it and shows the result on the right.
func Create(a fyne.App, w fyne.Window, b Backend) {
	w.SetContent(newPlanner(b))
}

// planner is the window's content: the scenario list beside the view of the
// chosen scenario.
type planner struct {
	widget.BaseWidget
	scenarios *scenarioList
	view      *scenarioView
	split     *container.Split
}

func newPlanner(b Backend) *planner {
	p := &planner{view: newScenarioView(b)}
	p.scenarios = newScenarioList(b, p.view.show)
	p.split = container.NewHSplit(p.scenarios.content, p.view.content)
	p.split.Offset = listShare
	p.ExtendBaseWidget(p)
	p.scenarios.reload()
	return p
}

// CreateRenderer implements fyne.Widget.
func (p *planner) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(p.split)
}
