package ui

import (
	"image/color"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"hostplan/internal/present"
)

// zoomTheme is the window's theme: the theme it wraps with every size
// multiplied by the zoom, text sizes by a further factor and held to a
// floor (review mode's larger text), and the light or dark variant the
// user chose instead of the system's. Its fields are read on every call,
// so changing them and refreshing the window applies them.
type zoomTheme struct {
	base fyne.Theme
	zoom float32 // every size; 1 as the base theme has it
	// text multiplies the text sizes again; minText and minCaption are
	// their floors after it (0: none).
	text                float32
	minText, minCaption float32
	variant             fyne.ThemeVariant
	forced              bool // variant replaces the one asked for
}

var _ fyne.Theme = (*zoomTheme)(nil)

func (t *zoomTheme) Color(n fyne.ThemeColorName, v fyne.ThemeVariant) color.Color {
	if t.forced {
		v = t.variant
	}
	return t.base.Color(n, v)
}

func (t *zoomTheme) Font(s fyne.TextStyle) fyne.Resource     { return t.base.Font(s) }
func (t *zoomTheme) Icon(n fyne.ThemeIconName) fyne.Resource { return t.base.Icon(n) }

func (t *zoomTheme) Size(n fyne.ThemeSizeName) float32 {
	s := t.base.Size(n) * t.zoom
	switch n {
	case theme.SizeNameText, theme.SizeNameSubHeadingText, theme.SizeNameHeadingText:
		s = max(s*t.text, t.minText*t.base.Size(n)/t.base.Size(theme.SizeNameText))
	case theme.SizeNameCaptionText:
		s = max(s*t.text, t.minCaption)
	}
	return s
}

// zoomSteps are the zoom levels Ctrl + and Ctrl − step through.
var zoomSteps = []float32{0.8, 0.9, 1, 1.1, 1.25, 1.5, 1.75, 2}

// The settings the window keeps in the store (through Preferences).
const (
	settingZoom    = "window.zoom"
	settingTheme   = "window.theme" // "light" or "dark"; unset follows the system
	settingWidth   = "window.width"
	settingHeight  = "window.height"
	settingLast    = "window.last_scenario"
	settingSplit   = "window.split"   // the list's share of the width, 0.1–0.6
	settingWeights = "window.weights" // "open": the weights' sliders shown
)

// viewSettings holds the window's zoom and light or dark choice, applies
// them to the application's theme and remembers them.
type viewSettings struct {
	app   fyne.App
	prefs Preferences
	theme *zoomTheme
}

// newViewSettings installs the window's theme over the application's,
// with the zoom and variant remembered by b when it keeps preferences.
func newViewSettings(a fyne.App, b Backend) *viewSettings {
	s := &viewSettings{app: a}
	s.prefs = b
	base := a.Settings().Theme()
	if z, ok := base.(*zoomTheme); ok { // a second window on the same app
		base = z.base
	}
	s.theme = &zoomTheme{base: base, zoom: 1, text: 1}
	if v, ok := s.setting(settingZoom); ok {
		if z, err := strconv.ParseFloat(v, 32); err == nil && z >= float64(zoomSteps[0]) && z <= float64(zoomSteps[len(zoomSteps)-1]) {
			s.theme.zoom = float32(z)
		}
	}
	if v, ok := s.setting(settingTheme); ok {
		switch v {
		case "light":
			s.theme.variant, s.theme.forced = theme.VariantLight, true
		case "dark":
			s.theme.variant, s.theme.forced = theme.VariantDark, true
		}
	}
	a.Settings().SetTheme(s.theme)
	return s
}

// setting reads a remembered setting; a failure reads as unset, as the
// window works the same without it.
func (s *viewSettings) setting(key string) (string, bool) {
	v, ok, err := s.prefs.Setting(key)
	return v, ok && err == nil
}

// remember stores a setting off the UI goroutine. A failure is dropped:
// a preference not kept costs the user one more click next time, and a
// dialog for it would cost more.
func (s *viewSettings) remember(key, value string) {
	p := s.prefs
	inBackground(func() func() {
		_ = p.SetSetting(key, value)
		return func() {}
	})
}

// zoom is the current zoom (1 is 100 %).
func (s *viewSettings) zoom() float32 { return s.theme.zoom }

// zoomBy moves the zoom one step in (steps > 0) or out (steps < 0).
func (s *viewSettings) zoomBy(steps int) {
	i := 0
	for k, z := range zoomSteps { // the nearest step at or below the current zoom
		if z <= s.theme.zoom+1e-3 {
			i = k
		}
	}
	if steps < 0 && zoomSteps[i] < s.theme.zoom-1e-3 {
		steps++ // between two steps: out goes to the one below first
	}
	s.setZoom(zoomSteps[min(max(i+steps, 0), len(zoomSteps)-1)])
}

// setZoom applies and remembers zoom z.
func (s *viewSettings) setZoom(z float32) {
	if z == s.theme.zoom {
		return
	}
	s.theme.zoom = z
	s.apply()
	s.remember(settingZoom, strconv.FormatFloat(float64(z), 'g', 4, 32))
}

// dark reports whether the window shows the dark variant.
func (s *viewSettings) dark() bool {
	if s.theme.forced {
		return s.theme.variant == theme.VariantDark
	}
	return s.app.Settings().ThemeVariant() == theme.VariantDark
}

// toggleVariant switches between light and dark and remembers the choice.
func (s *viewSettings) toggleVariant() {
	name := "dark"
	s.theme.variant = theme.VariantDark
	if s.dark() {
		name, s.theme.variant = "light", theme.VariantLight
	}
	s.theme.forced = true
	s.apply()
	s.remember(settingTheme, name)
}

// apply redraws every window with the theme as it now is.
func (s *viewSettings) apply() {
	s.app.Settings().SetTheme(s.theme)
}

// zoomText is the zoom as the toolbar shows it: "100 %".
func (s *viewSettings) zoomText() string {
	return present.Percent(float64(s.theme.zoom))
}

// reviewTheme is the theme of review mode over the window's: text half as
// large again, body text at least 20 and captions at least 16 units, the
// sizes a projected screen needs; the zoom and variant are the window's.
func reviewTheme(window *zoomTheme) *zoomTheme {
	return &zoomTheme{base: window, zoom: 1, text: 1.5, minText: 20, minCaption: 16}
}
