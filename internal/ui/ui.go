package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/widgets"
)

// windowTitle is the title of the main window.
const windowTitle = "hostplan"

// listShare is the part of the window's width the scenario list takes.
const listShare = 0.24

// NewWindow creates the main window, titled "hostplan", at the size the
// last session left it (or one for a laptop's screen), centred on the
// screen and filled by Create. Once it is shown, PlaceOnScreen fits it to
// the screen it opened on.
func NewWindow(a fyne.App, b Backend) fyne.Window {
	w := a.NewWindow(windowTitle)
	w.Resize(rememberedSize(b, fyne.NewSize(1200, 800)))
	w.CenterOnScreen()
	Create(a, w, b)
	return w
}

// screenMargin is the room PlaceOnScreen leaves around a window it
// shrinks, for the window manager's frame and a panel.
const screenMargin = 48

// PlaceOnScreen fits the shown window w to the screen it opened on, whose
// usable area (without the desktop's panels) is screen, in the window's
// units: a window the last session left larger than this screen — kept
// from a larger one, say — is made to fit with a margin and centred again.
// A window that fits is left where it is.
func PlaceOnScreen(w fyne.Window, screen fyne.Size) {
	if screen.Width <= 0 || screen.Height <= 0 {
		return
	}
	size := w.Canvas().Size()
	if size.Width <= screen.Width && size.Height <= screen.Height {
		return
	}
	fit := fyne.NewSize(min(size.Width, max(screen.Width-screenMargin, screen.Width*0.9)),
		min(size.Height, max(screen.Height-screenMargin, screen.Height*0.9)))
	w.Resize(fit)
	w.CenterOnScreen()
}

// Create fills w with the planner: scenarios from b on the left; choosing one
// loads and evaluates it and shows the result on the right.
func Create(a fyne.App, w fyne.Window, b Backend) {
	// The theme first: a widget drawn before it would keep the colours of
	// the system's variant, not the one chosen.
	settings := newViewSettings(a, b)
	p := newPlanner(w, b)
	p.setUpViewing(settings) // viewing.go
	w.SetContent(p)
	p.offerDraft() // drafts.go
}

// planner is the window's content: the scenario list beside the view of the
// chosen scenario, or beside the comparison of the ticked ones.
type planner struct {
	widget.BaseWidget
	window    fyne.Window
	backend   Backend
	scenarios *scenarioList
	view      *scenarioView
	compare   *compareView
	split     *container.Split

	// The list's actions, the menus and Escape (menu.go).
	dialogs    *dialogs
	lastFolder string // where the last file was written, proposed next

	// Viewing (viewing.go): zoom and theme, review mode over the rest.
	settings                *viewSettings
	review                  *reviewView // nil outside review mode
	reviewLayer             *fyne.Container
	themeButton, zoomButton *widgets.TipButton

	tipLayer *widgets.TipLayer // the tips over everything (widgets.TipLayer)
	menu     *fyne.MainMenu    // the main menu, kept while review mode hides it
}

// setComparing switches the right pane between the chosen scenario and
// the comparison; the list shows tick boxes while comparing. Entering it
// ticks the scenario on show when there is room, so one more tick makes a
// comparison; the ticks stay for the next time.
func (p *planner) setComparing(on bool) {
	if on == p.scenarios.comparing {
		return
	}
	if !on {
		p.compare.content.Hide()
		p.view.content.Show()
		p.scenarios.setComparing(false)
		// Mark again the scenario the pane still shows.
		p.scenarios.markID(p.view.shownID())
		p.updateTitle()
		return
	}
	if id := p.view.shownID(); id != "" && !p.compare.isTicked(id) && len(p.compare.ticked) < maxCompared {
		if it, ok := p.scenarios.item(id); ok {
			p.compare.toggle(it)
		}
	}
	p.view.content.Hide()
	p.compare.content.Show()
	p.scenarios.setComparing(true)
	p.updateTitle()
	p.compare.refresh() // last: it starts evaluations
}

// tick ticks or unticks a scenario in compare mode.
func (p *planner) tick(it Item) {
	p.compare.toggle(it)
	p.scenarios.list.Refresh()
	p.updateTitle()
	p.compare.refresh() // last: it starts evaluations
}

func newPlanner(w fyne.Window, b Backend) *planner {
	p := &planner{window: w, backend: b, dialogs: &dialogs{canvas: w.Canvas()}, compare: newCompareView(b)}
	p.view = newScenarioView(w, b, p.dialogs)
	p.scenarios = newScenarioList(b, p.choose)
	p.scenarios.onImport = p.chooseImport
	p.scenarios.onCompare = p.setComparing
	p.scenarios.isTicked = p.compare.isTicked
	p.scenarios.onTick = p.tick
	p.scenarios.onReload = p.compare.sync
	p.view.onEdit = p.editCurrent
	p.view.onDuplicate = p.duplicateCurrent
	p.compare.content.Hide()
	p.split = container.NewHSplit(p.scenarios.content, container.NewStack(p.view.content, p.compare.content))
	p.split.Offset = listShare
	p.reviewLayer = container.NewStack()
	p.reviewLayer.Hide()
	p.tipLayer = widgets.NewTipLayer()
	p.ExtendBaseWidget(p)
	p.wireTools()
	p.wireEditing()
	p.scenarios.reload()
	return p
}

// CreateRenderer implements fyne.Widget.
func (p *planner) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(container.NewStack(p.split, p.reviewLayer, p.tipLayer.Layer))
}

// Tips implements widgets.TipHost.
func (p *planner) Tips() *widgets.TipLayer { return p.tipLayer }
