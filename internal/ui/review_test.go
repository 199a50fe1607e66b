package ui

import (
	"fmt"
	"image/color"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hostplan/internal/ui/report"
	"hostplan/internal/ui/uitest"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/app"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// press types key on the window's canvas, as a key the focused widget
// does not take.
func press(w fyne.Window, key fyne.KeyName) {
	w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: key})
}

// shortcut types Ctrl (Cmd on a Mac) with key on the window's canvas.
func typeShortcut(w fyne.Window, key fyne.KeyName) {
	w.Canvas().(fyne.Shortcutable).TypedShortcut(&desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault})
}

// textSize is the size of the text label l draws.
func textSize(t *testing.T, l *widget.Label) float32 {
	t.Helper()
	txt, _ := uitest.Find(l, func(o fyne.CanvasObject) bool { _, ok := o.(*canvas.Text); return ok }).(*canvas.Text)
	if txt == nil {
		t.Fatalf("label %q draws no text", l.Text)
	}
	return txt.TextSize
}

// Review mode, entered with F11, hides the list and every edit control,
// fills the screen and draws body text at 20 units or more and captions at
// 16 or more on a 1920 × 1080 window; one scenario takes two columns,
// three sit side by side; Escape leaves it as it was.
func TestReviewModeLaysOutLargeText(t *testing.T) {
	w, p := openWindow(t, newRealBackend(t, "support-assistant-70b", "qlora-legal-70b", "nightly-document-batch"))
	w.Resize(fyne.NewSize(1920, 1080))
	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)
	normal := textSize(t, p.view.cheapest)

	press(w, fyne.KeyF11)
	if p.review == nil || len(p.review.sheets) != 1 {
		t.Fatalf("F11 did not enter review mode with the scenario on show: %+v", p.review)
	}
	if !w.FullScreen() || p.split.Visible() {
		t.Errorf("full screen %v, list and view visible %v; want full screen without them", w.FullScreen(), p.split.Visible())
	}
	if uitest.Find(p.review.content, func(o fyne.CanvasObject) bool {
		switch o.(type) {
		case *widget.List, *widget.Entry, *widget.Slider, *report.WeightSlider, *widgets.KeyEntry, *widgets.KeySelect, *widgets.KeyCheck, *keyList, *searchEntry:
			return true
		}
		return o == p.view.edit || o == p.view.duplicate
	}) != nil {
		t.Error("review mode shows a list or an edit control")
	}
	sheet := p.review.sheets[0]
	body, small := textSize(t, sheet.Cheapest), textSize(t, sheet.Facts)
	if body < 20 || small < 16 {
		t.Errorf("review text %v, captions %v; want at least 20 and 16", body, small)
	}
	if body <= normal {
		t.Errorf("review body text %v is no larger than the window's %v", body, normal)
	}
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Recommended: ", "Directions, ranked", "Cost P10–P90", "Cumulative cost over the horizon", "Risks",
		"Leadership questions", "Which lifecycle gate can block the workload?", "Leave review (Esc)"} {
		if !strings.Contains(markup, want) {
			t.Errorf("review mode does not show %q", want)
		}
	}
	// Two columns in the width of the screen: the chart beside the text.
	if at := fyne.CurrentApp().Driver().AbsolutePositionForObject(sheet.Chart); sheet.Chart.Size().Width < 600 || at.X < 900 {
		t.Errorf("chart at %v, size %v; want it in the right half", at, sheet.Chart.Size())
	}
	if mw := p.review.content.MinSize().Width; mw > 1920 {
		t.Errorf("review needs %v units across, more than the screen's 1920", mw)
	}

	press(w, fyne.KeyEscape)
	if p.review != nil || w.FullScreen() || !p.split.Visible() {
		t.Fatalf("Escape: review %v, full screen %v, window visible %v", p.review != nil, w.FullScreen(), p.split.Visible())
	}

	// Three compared scenarios, side by side.
	p.setComparing(true)
	for _, it := range p.scenarios.items[1:] {
		p.tick(it)
	}
	settle(t, p)
	test.Tap(p.view.edit) // not shown while comparing: nothing happens
	p.toggleReview()
	if p.review == nil || p.review.grid == nil {
		t.Fatal("review of three compared scenarios shows no columns")
	}
	settle(t, p)
	checkReviewColumns(t, p, 3)
	p.toggleReview()
}

// checkReviewColumns checks that review mode shows n scenarios side by
// side, each name right of the one before, at a projector's text size,
// all of it on the screen without scrolling.
func checkReviewColumns(t *testing.T, p *planner, n int) {
	t.Helper()
	g := p.review.grid
	if g == nil {
		t.Fatalf("review shows %d sheets, no columns", len(p.review.sheets))
	}
	cols := g.Layout.(*widgets.GridLayout).Cols
	if cols != n+1 {
		t.Fatalf("review shows %d columns, want %d scenarios and the headings", cols, n)
	}
	var lastX float32 = -1
	for i := 1; i <= n; i++ {
		name := g.Objects[i]
		pos := fyne.CurrentApp().Driver().AbsolutePositionForObject(name)
		if pos.X <= lastX {
			t.Errorf("scenario %d starts at %v, not right of the one before (%v)", i, pos.X, lastX)
		}
		lastX = pos.X
		if got := textSize(t, name.(*widget.Label)); got < 20 {
			t.Errorf("scenario %d's name in %v-unit text, want at least 20", i, got)
		}
	}
	scroll := p.review.scroll
	if need, have := scroll.Content.MinSize(), scroll.Size(); need.Height > have.Height || need.Width > have.Width {
		t.Errorf("review needs %v, the screen shows %v: leadership would scroll", need, have)
	}
}

// Compare fits three scenarios on a 1280 × 800 window beside the list,
// and two on a 1024 × 768 one, without scrolling.
func TestCompareFitsTheScreen(t *testing.T) {
	w, p := openWindow(t, newRealBackend(t, "constrained-snapshot-training", "qlora-legal-70b", "nightly-document-batch"))
	for _, tc := range []struct {
		size fyne.Size
		n    int
	}{{fyne.NewSize(1280, 800), 3}, {fyne.NewSize(1024, 768), 2}} {
		w.Resize(tc.size)
		p.setComparing(true)
		for _, it := range slices.Clone(p.compare.ticked) {
			p.tick(it)
		}
		for _, it := range p.scenarios.items[:tc.n] {
			p.tick(it)
		}
		settle(t, p)
		s := p.compare.scroll
		// The test window has no menu bar; the desktop one does, of about
		// 30 units.
		if need, have := s.Content.MinSize(), s.Size(); need.Height+menuBar > have.Height || need.Width > have.Width {
			t.Errorf("%v: the comparison needs %v, the pane shows %v", tc.size, need, have)
		}
	}
}

// Review mode fits three compared scenarios side by side on a 1280 × 800
// screen, and two on a 1024 × 768 one, at a projector's text size.
func TestReviewFitsTheScreen(t *testing.T) {
	w, p := openWindow(t, newRealBackend(t, "support-assistant-70b", "qlora-legal-70b", "nightly-document-batch", "constrained-snapshot-training"))
	for _, tc := range []struct {
		size fyne.Size
		n    int
	}{{fyne.NewSize(1280, 800), 3}, {fyne.NewSize(1024, 768), 2}, {fyne.NewSize(1920, 1080), 3}} {
		w.Resize(tc.size)
		p.setComparing(true)
		for _, it := range slices.Clone(p.compare.ticked) {
			p.tick(it)
		}
		for _, it := range p.scenarios.items[:tc.n] {
			p.tick(it)
		}
		settle(t, p)
		p.toggleReview()
		settle(t, p)
		t.Run(fmt.Sprint(tc.size), func(t *testing.T) { checkReviewColumns(t, p, tc.n) })
		p.toggleReview()
	}
}

// Zoom (Ctrl + and Ctrl −) and the light or dark choice change the
// window's theme and are there again when the store is opened again, as
// are the window's size, the split and the last scenario shown.
func TestZoomAndThemePersist(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostplan.db")
	open := func() (*app.Planner, fyne.Window, *planner) {
		pl, err := app.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		a := test.NewTempApp(t)
		w := NewWindow(a, NewBackend(pl))
		return pl, w, w.Content().(*planner)
	}
	pl, w, p := open()
	base := p.settings.theme.base.Size(theme.SizeNameText)
	typeShortcut(w, fyne.KeyEqual)
	typeShortcut(w, fyne.KeyEqual)
	if got := p.settings.zoom(); got != 1.25 {
		t.Errorf("zoom after Ctrl + twice = %v, want 1.25", got)
	}
	if got := fyne.CurrentApp().Settings().Theme().Size(theme.SizeNameText); got != base*1.25 {
		t.Errorf("text size %v at 125 %%, want %v", got, base*1.25)
	}
	if got := p.zoomButton.Text; got != "125 %" {
		t.Errorf("zoom shows %q", got)
	}
	typeShortcut(w, fyne.KeyMinus)
	if got := p.settings.zoom(); got != 1.1 {
		t.Errorf("zoom after Ctrl − = %v, want 1.1", got)
	}
	dark := p.settings.dark()
	test.Tap(p.themeButton)
	if p.settings.dark() == dark {
		t.Fatal("the theme button did not switch light and dark")
	}
	chosen := theme.VariantLight
	if !dark {
		chosen = theme.VariantDark
	}
	wantBg := p.settings.theme.base.Color(theme.ColorNameBackground, chosen)
	p.scenarios.list.Select(2)
	waitFor(t, p.view, stateReady)
	last := p.view.shownID()
	w.Resize(fyne.NewSize(1100, 700))
	p.split.SetOffset(0.31) // the list dragged wider
	settle(t, p)
	w.Close()
	if err := pl.Close(); err != nil {
		t.Fatal(err)
	}

	pl, w, p = open()
	defer pl.Close()
	defer w.Close()
	defer settle(t, p)
	if got := p.settings.zoom(); got != 1.1 {
		t.Errorf("zoom after reopening = %v, want 1.1", got)
	}
	if p.settings.dark() == dark {
		t.Error("the theme chosen is not kept")
	}
	// Whatever variant a widget asks for, it gets the one chosen.
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		if got := fyne.CurrentApp().Settings().Theme().Color(theme.ColorNameBackground, v); got != wantBg {
			t.Errorf("background %v, want the chosen variant's %v", got, wantBg)
		}
	}
	if got := w.Canvas().Size(); got != fyne.NewSize(1100, 700) {
		t.Errorf("window size after reopening %v, want 1100 × 700", got)
	}
	if got := p.split.Offset; got != 0.31 {
		t.Errorf("split after reopening at %v, want 0.31", got)
	}
	waitFor(t, p.view, stateReady)
	if got := p.view.shownID(); got != last {
		t.Errorf("scenario shown after reopening %q, want the last one, %q", got, last)
	}
	typeShortcut(w, fyne.Key0)
	if got := p.settings.zoom(); got != 1 {
		t.Errorf("zoom after Ctrl 0 = %v, want 1", got)
	}
}

// A light theme chosen in an earlier session draws the window light from
// its first frame, even where the system's variant is dark: no widget
// keeps a colour of the dark variant (the filters and the disabled
// buttons did, built before the theme was installed).
func TestLightThemeFromStart(t *testing.T) {
	pl := openPlanner(t, "qlora-legal-70b")
	if err := pl.SetSetting(settingTheme, "light"); err != nil {
		t.Fatal(err)
	}
	a := test.NewTempApp(t)
	a.Settings().SetTheme(theme.DefaultTheme()) // variant 2: dark colours, as a dark desktop
	w := NewWindow(a, NewBackend(pl))
	defer w.Close()
	p := w.Content().(*planner)
	defer settle(t, p)
	w.Resize(fyne.NewSize(1280, 800))
	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)

	dark := map[color.NRGBA]fyne.ThemeColorName{}
	light := map[color.NRGBA]bool{}
	names := []fyne.ThemeColorName{theme.ColorNameBackground, theme.ColorNameButton, theme.ColorNameDisabledButton,
		theme.ColorNameInputBackground, theme.ColorNameForeground, theme.ColorNameDisabled, theme.ColorNameHeaderBackground,
		theme.ColorNameMenuBackground, theme.ColorNameOverlayBackground, theme.ColorNameSeparator, theme.ColorNameInputBorder}
	for _, n := range names {
		light[nrgba(theme.DefaultTheme().Color(n, theme.VariantLight))] = true
	}
	for _, n := range names {
		if c := nrgba(theme.DefaultTheme().Color(n, theme.VariantDark)); !light[c] {
			dark[c] = n
		}
	}
	var walk func(o fyne.CanvasObject, path string)
	walk = func(o fyne.CanvasObject, path string) {
		if o == nil || !o.Visible() {
			return
		}
		path += fmt.Sprintf("/%T", o)
		var c color.Color
		switch x := o.(type) {
		case *canvas.Rectangle:
			c = x.FillColor
		case *canvas.Text:
			c = x.Color
		case *fyne.Container:
			for _, k := range x.Objects {
				walk(k, path)
			}
		case fyne.Widget:
			for _, k := range test.WidgetRenderer(x).Objects() {
				walk(k, path)
			}
		}
		if c != nil {
			if n, ok := dark[nrgba(c)]; ok {
				t.Errorf("%s is drawn in the dark variant's %s", path, n)
			}
		}
	}
	walk(w.Content(), "")
}

func nrgba(c color.Color) color.NRGBA { return color.NRGBAModel.Convert(c).(color.NRGBA) }

// A window the last session left larger than the screen it now opens on
// (a 1920 × 1080 session, then a 1280 × 800 screen) is fitted to the
// screen; one that fits keeps its size.
func TestWindowFitsTheScreen(t *testing.T) {
	pl := openPlanner(t, "qlora-legal-70b")
	for key, v := range map[string]string{settingWidth: "1900", settingHeight: "1060"} {
		if err := pl.SetSetting(key, v); err != nil {
			t.Fatal(err)
		}
	}
	a := test.NewTempApp(t)
	w := NewWindow(a, NewBackend(pl))
	defer w.Close()
	if got := w.Canvas().Size(); got != fyne.NewSize(1900, 1060) {
		t.Fatalf("opened at %v, want the remembered 1900 × 1060", got)
	}
	PlaceOnScreen(w, fyne.NewSize(1280, 760))
	if got := w.Canvas().Size(); got.Width > 1280 || got.Height > 760 || got.Width < 1100 || got.Height < 650 {
		t.Errorf("on a 1280 × 760 screen the window is %v", got)
	}
	w.Resize(fyne.NewSize(1000, 700))
	PlaceOnScreen(w, fyne.NewSize(1280, 760))
	if got := w.Canvas().Size(); got != fyne.NewSize(1000, 700) {
		t.Errorf("a window that fits was changed to %v", got)
	}
}

// A range in review mode shows its point value under it, in full: the
// P10–P90 of the cost in thousands, then the likely cost.
func TestRangeShowsItsPointValue(t *testing.T) {
	r := withUncertainty(newFakeBackend()).reports["ft-7b"]
	d := r.Direction(scenario.Hybrid)
	cost, tm := report.SpreadRange(r, d, 1.5e6)
	if want := "1.15–1.5 M\nlikely 1,300,000"; cost != want {
		t.Errorf("cost %q, want %q", cost, want)
	}
	if !strings.HasSuffix(tm, "\nlikely "+present.Hours(d.TimeToResultHours)) {
		t.Errorf("time %q lacks its point value", tm)
	}
}

// menuBar is the height the desktop driver's menu bar takes from the
// window's content, which the test driver's window does not draw.
const menuBar = 30
