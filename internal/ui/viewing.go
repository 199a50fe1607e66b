package ui

import (
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/widgets"
)

// How the window is viewed: zoom (Ctrl +, Ctrl −, Ctrl 0), light or dark,
// review mode (F11 or the Review button; Escape leaves it), and what is
// remembered in the store for next time: zoom, theme, window size, the
// split between the list and the report, and the last scenario shown.

// rememberedSize is the window size stored by the last session, or def.
func rememberedSize(b Backend, def fyne.Size) fyne.Size {
	read := func(key string) float32 {
		v, ok, err := b.Setting(key)
		if err != nil || !ok {
			return 0
		}
		f, err := strconv.ParseFloat(v, 32)
		if err != nil || f < 400 || f > 10000 {
			return 0
		}
		return float32(f)
	}
	w, h := read(settingWidth), read(settingHeight)
	if w == 0 || h == 0 {
		return def
	}
	return fyne.NewSize(w, h)
}

// setUpViewing installs the theme with the remembered zoom and variant,
// the view bar under the list, the keys, the window size kept at close,
// and shows the scenario shown last.
func (p *planner) setUpViewing(settings *viewSettings) {
	p.settings = settings
	if v, ok := p.settings.setting(settingSplit); ok {
		if f, err := strconv.ParseFloat(v, 64); err == nil && f >= minListShare && f <= maxListShare {
			p.split.Offset = f
		}
	}
	p.split.Leading = container.NewBorder(nil, p.viewBar(), nil, nil, p.split.Leading)
	wp := p.view.weights
	if v, _ := p.settings.setting(settingWeights); v == "open" {
		wp.SetOpen(true)
	}
	opened := wp.OnOpen
	wp.OnOpen = func(open bool) {
		opened(open)
		v := "closed"
		if open {
			v = "open"
		}
		p.settings.remember(settingWeights, v)
	}

	c := p.window.Canvas()
	ctrl := fyne.KeyModifierShortcutDefault
	for _, k := range []struct {
		key fyne.KeyName
		mod fyne.KeyModifier
		do  func()
	}{
		{fyne.KeyEqual, ctrl, p.zoomIn}, {fyne.KeyEqual, ctrl | fyne.KeyModifierShift, p.zoomIn},
		{fyne.KeyPlus, ctrl, p.zoomIn}, {fyne.KeyMinus, ctrl, p.zoomOut},
		{fyne.Key0, ctrl, p.zoomReset},
	} {
		do := k.do
		c.AddShortcut(&desktop.CustomShortcut{KeyName: k.key, Modifier: k.mod}, func(fyne.Shortcut) { do() })
	}
	p.window.SetOnClosed(func() {
		p.rememberLayout()
		p.scenarios.recs.stop() // no more deciding for a closed window
	})

	if id, ok := p.settings.setting(settingLast); ok && p.scenarios.has(id) {
		p.scenarios.selectID(id)
	}
}

// showChosen shows the scenario chosen in the list and remembers it.
func (p *planner) showChosen(it Item) {
	p.view.show(it)
	if p.settings != nil {
		p.settings.remember(settingLast, it.ID)
	}
}

// viewBar is the row under the list: Review, light or dark, and zoom.
func (p *planner) viewBar() fyne.CanvasObject {
	review := widgets.NewTipButton("Review", theme.ViewFullScreenIcon(), "Review mode: full screen, large text, for a projector (F11; Esc leaves)", p.toggleReview)
	review.Importance = widget.LowImportance
	p.themeButton = widgets.NewTipButton("", theme.ColorPaletteIcon(), "Light or dark", p.toggleTheme)
	p.themeButton.Importance = widget.LowImportance
	out := widgets.NewTipButton("", theme.ZoomOutIcon(), "Smaller (Ctrl −)", p.zoomOut)
	out.Importance = widget.LowImportance
	in := widgets.NewTipButton("", theme.ZoomInIcon(), "Larger (Ctrl +)", p.zoomIn)
	in.Importance = widget.LowImportance
	p.zoomButton = widgets.NewTipButton(p.settings.zoomText(), nil, "Back to 100 % (Ctrl 0)", p.zoomReset)
	p.zoomButton.Importance = widget.LowImportance
	return container.NewHBox(review, p.themeButton, out, p.zoomButton, in)
}

func (p *planner) zoomIn()    { p.settings.zoomBy(1); p.zoomChanged() }
func (p *planner) zoomOut()   { p.settings.zoomBy(-1); p.zoomChanged() }
func (p *planner) zoomReset() { p.settings.setZoom(1); p.zoomChanged() }

func (p *planner) zoomChanged() {
	p.zoomButton.SetText(p.settings.zoomText())
	if p.review != nil {
		p.review.content.Refresh()
	}
}

func (p *planner) toggleTheme() {
	p.settings.toggleVariant()
	if p.review != nil {
		p.review.content.Refresh()
	}
}

// toggleReview enters review mode, or leaves it.
func (p *planner) toggleReview() {
	if p.review != nil {
		p.leaveReview()
		return
	}
	p.enterReview()
}

// enterReview shows the compared scenarios (those evaluated), or else the
// one on show, full screen in review mode.
func (p *planner) enterReview() {
	p.review = newReviewView(p.reviewed(), reviewTheme(p.settings.theme), p.leaveReview)
	p.reviewLayer.Objects = []fyne.CanvasObject{p.review.content}
	p.reviewLayer.Show()
	p.reviewLayer.Refresh()
	p.split.Hide()
	p.window.Canvas().Unfocus()
	// The menu bar goes too: the screen is the review's (F11 and Escape
	// are the window's keys, not the menu's).
	p.menu = p.window.MainMenu()
	p.window.SetMainMenu(nil)
	p.window.SetFullScreen(true)
}

// leaveReview goes back to the window as it was.
func (p *planner) leaveReview() {
	if p.review == nil {
		return
	}
	p.review = nil
	p.window.SetFullScreen(false)
	if p.menu != nil {
		p.window.SetMainMenu(p.menu)
	}
	p.reviewLayer.Hide()
	p.reviewLayer.Objects = nil
	p.split.Show()
}

// reviewed are the evaluations review mode shows: the compared scenarios
// already evaluated, in the order ticked, when comparing; else the one on
// show, with its edited weights.
func (p *planner) reviewed() []*evaluation {
	var out []*evaluation
	if p.scenarios.comparing {
		for _, it := range p.compare.ticked {
			if e := p.compare.cache[it.ID]; e != nil && e.done && e.ev != nil {
				out = append(out, e.ev)
			}
		}
		return out
	}
	if p.view.current != nil && p.view.shownID() != "" {
		out = append(out, p.view.current)
	}
	return out
}

// The list's share of the width kept for the next session: a split
// dragged further is not kept.
const minListShare, maxListShare = 0.1, 0.6

// rememberLayout keeps the window's size and the split between the list
// and the report for the next session; in review mode the window is full
// screen, which is not its size.
func (p *planner) rememberLayout() {
	prefs := p.backend
	// Written now: the store closes when the window has.
	if !p.view.live.dirty() {
		p.view.live.drafts.removeNow()
	}
	if f := p.split.Offset; f >= minListShare && f <= maxListShare {
		_ = prefs.SetSetting(settingSplit, strconv.FormatFloat(f, 'f', 3, 64))
	}
	if p.review != nil {
		return
	}
	size := p.window.Canvas().Size()
	if size.Width < 400 || size.Height < 300 {
		return
	}
	_ = prefs.SetSetting(settingWidth, strconv.Itoa(int(size.Width)))
	_ = prefs.SetSetting(settingHeight, strconv.Itoa(int(size.Height)))
}
