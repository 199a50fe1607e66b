package report

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/decide"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// Weights is the five decision weights as sliders, at the top of the
// Report tab: each row shows the weight as given and normalised (its share
// of the five), and marks on the slider the weights at which the
// recommendation would change, the others staying as they are (decide's
// Switches). Moving a slider calls OnChange with the five weights; the
// window decides again and calls Update. Closed, the panel is one line —
// the shares of the five and whether they changed, and Reset — so that
// the report table shows on a laptop's screen; its heading opens the
// sliders.
type Weights struct {
	// OnChange is called with the five weights as a slider moves, and
	// with the saved ones on Reset.
	OnChange func(w [5]float64)
	// OnSettled is called when a move ends (a tap, the end of a drag).
	OnSettled func()
	// OnOpen is called when the heading opens or closes the panel.
	OnOpen func(open bool)

	sliders  [5]*WeightSlider
	marks    [5]*switchMarks
	given    [5]*widget.Label
	norm     [5]*widget.Label
	switches [5]*widget.Label // where the winner changes, under the slider
	reset    *widgets.TipButton
	note     *widget.Label
	toggle   *widgets.TipButton // the heading, which opens and closes the sliders
	summary  *widget.Label      // the shares of the five, beside the heading
	detail   *fyne.Container
	open     bool

	saved   [5]float64 // the weights of the scenario as loaded
	current [5]float64 // the weights as they now are
	setting bool       // the sliders are being set, not moved
	content fyne.CanvasObject
}

// The slider's and the switches' columns share the width the others
// leave, each at least minWeightColumn wide.
const (
	weightFill      = 3
	minWeightColumn = 120
)

// weightColumns are the headings of the weights table.
var weightColumns = []string{"Dimension", "Given", "Normalised", "Weight (drag to re-rank)", "Winner changes at ▲"}

// NewWeights makes the panel, closed, its sliders at zero until Set.
func NewWeights() *Weights {
	p := &Weights{}
	grid := container.New(widgets.NewFillGridLayout(len(weightColumns), weightFill, minWeightColumn))
	for col, h := range weightColumns {
		l := widget.NewLabel(h)
		l.TextStyle.Bold = true
		if col >= weightFill { // wraps in its share of the width, not over the next
			l.Wrapping = fyne.TextWrapWord
		}
		grid.Add(l)
	}
	for i, name := range scenario.DimensionNames {
		i := i
		title := widget.NewLabel(present.DimensionTitle(name))
		p.given[i] = widget.NewLabel("")
		p.given[i].Alignment = fyne.TextAlignTrailing
		p.norm[i] = widget.NewLabel("")
		p.norm[i].Alignment = fyne.TextAlignTrailing
		p.sliders[i] = newWeightSlider()
		p.sliders[i].OnChanged = func(x float64) { p.moved(i, x) }
		p.sliders[i].OnChangeEnded = func(float64) {
			if !p.setting && p.OnSettled != nil {
				p.OnSettled()
			}
		}
		p.marks[i] = newSwitchMarks(p.sliders[i])
		p.switches[i] = widget.NewLabel("")
		p.switches[i].SizeName = theme.SizeNameCaptionText
		p.switches[i].Wrapping = fyne.TextWrapWord
		grid.Add(title)
		grid.Add(p.given[i])
		grid.Add(p.norm[i])
		grid.Add(container.NewStack(p.sliders[i], p.marks[i]))
		grid.Add(p.switches[i])
	}
	p.reset = widgets.NewTipButton("Reset weights", theme.ContentUndoIcon(), "Back to the saved weights", func() { p.setWeights(p.saved, true) })
	p.reset.Importance = widget.LowImportance
	p.note = widget.NewLabel("")
	p.note.SizeName = theme.SizeNameCaptionText
	p.note.Wrapping = fyne.TextWrapWord
	p.toggle = widgets.NewTipButton("Weights", theme.MenuExpandIcon(), "Show or hide the weights' sliders", func() {
		p.SetOpen(!p.open)
		if p.OnOpen != nil {
			p.OnOpen(p.open)
		}
	})
	p.toggle.Importance = widget.LowImportance
	p.summary = widget.NewLabel("")
	p.summary.Truncation = fyne.TextTruncateEllipsis
	head := container.NewBorder(nil, nil, p.toggle, p.reset, p.summary)
	p.detail = container.New(&widgets.TightVBox{}, grid, p.note)
	p.detail.Hide()
	p.content = container.New(&widgets.TightVBox{}, head, p.detail)
	return p
}

// Content is the panel: its heading, and the sliders while open.
func (p *Weights) Content() fyne.CanvasObject { return p.content }

// SetOpen shows or hides the sliders under the heading.
func (p *Weights) SetOpen(open bool) {
	p.open = open
	widgets.ShowIf(p.detail, open)
	if open {
		p.toggle.SetIcon(theme.MenuDropDownIcon())
	} else {
		p.toggle.SetIcon(theme.MenuExpandIcon())
	}
	p.setSummary()
}

// setSummary writes the line beside the heading: the normalised weights
// and whether they differ from the saved ones.
func (p *Weights) setSummary() {
	var parts []string
	for i, name := range scenario.DimensionNames {
		parts = append(parts, present.DimensionTitle(name)+" "+p.norm[i].Text)
	}
	text := strings.Join(parts, " · ")
	if !p.reset.Disabled() {
		text = "changed, not saved: " + text
	}
	widgets.SetText(p.summary, text)
}

// Set shows the weights of a scenario as loaded (saved) and as they now
// are (current), with where decision d changes (nil: no decision), sized
// so every slider reaches well past the largest weight.
func (p *Weights) Set(saved, current [5]float64, d *decide.Decision) {
	p.saved, p.current = saved, current
	top := sliderTop(saved, current)
	p.setting = true
	for i, s := range p.sliders {
		s.Max = top
		s.Step = top / sliderSteps
		s.show(current[i])
	}
	p.setting = false
	p.Update(current, d)
}

// setWeights moves the sliders to w and reports w itself (not the
// sliders' values, which a slider may round) as the change.
func (p *Weights) setWeights(w [5]float64, notify bool) {
	p.current = w
	p.setting = true
	for i, s := range p.sliders {
		s.show(w[i])
	}
	p.setting = false
	if notify && p.OnChange != nil {
		p.OnChange(w)
		if p.OnSettled != nil {
			p.OnSettled()
		}
	}
}

// Rebase takes saved as the saved weights (a save stored them) and shows
// the current ones against them.
func (p *Weights) Rebase(saved, current [5]float64, d *decide.Decision) {
	p.saved = saved
	p.Update(current, d)
}

// moved is the callback of slider i, moved to x: that weight alone
// changes. (The others keep their values, not their sliders' — a slider
// rounds a weight finer than its step.)
func (p *Weights) moved(i int, x float64) {
	if p.setting || p.OnChange == nil {
		return
	}
	p.current[i] = x
	p.OnChange(p.current)
}

// Update shows the given and normalised weights w and where decision d
// changes (nil: no decision).
func (p *Weights) Update(w [5]float64, d *decide.Decision) {
	p.current = w
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	var sw []decide.WeightSwitch
	if d != nil {
		sw = d.Switches()
	}
	for i := range w {
		widgets.SetText(p.given[i], present.Figure(w[i]))
		share := 0.0
		if sum > 0 {
			share = w[i] / sum
		}
		widgets.SetText(p.norm[i], present.Percent(share))
		var at []float64
		text := NoValue
		if d != nil && len(d.Ranking) > 1 && i < len(sw) {
			text = switchText(d, sw[i], p.sliders[i].Max)
			for _, s := range []*decide.Switch{sw[i].Below, sw[i].Above} {
				if s != nil {
					at = append(at, s.At)
				}
			}
		}
		widgets.SetText(p.switches[i], text)
		p.marks[i].set(at)
	}
	note := "Weights are relative: each counts by its share of the five (normalised). Moving one re-ranks at once; the change is an unsaved edit of the scenario."
	switch {
	case d == nil:
		note = "No decision: the directions cannot be ranked with these weights."
	case d.Recommendation == "":
		note = "Nothing is feasible, so no weight changes the recommendation."
	case len(d.Ranking) < 2:
		note = "Only one direction is feasible, so no weight changes the recommendation."
	}
	p.reset.Disable()
	if w != p.saved {
		p.reset.Enable()
		note = "Changed from the saved weights: save the scenario to keep them, or reset. " + note
	}
	widgets.SetText(p.note, note)
	p.setSummary()
}

// Open reports whether the sliders show.
func (p *Weights) Open() bool { return p.detail.Visible() }

// ToggleButton is the heading, which opens and closes the sliders.
func (p *Weights) ToggleButton() *widgets.TipButton { return p.toggle }

// ResetButton puts the saved weights back; it is enabled while the
// weights differ from them.
func (p *Weights) ResetButton() *widgets.TipButton { return p.reset }

// Slider is the slider of weight i, in the order of
// scenario.DimensionNames.
func (p *Weights) Slider(i int) *WeightSlider { return p.sliders[i] }

// Given is weight i as given, as its row writes it.
func (p *Weights) Given(i int) string { return p.given[i].Text }

// Switch is where the recommendation changes as weight i moves, as the
// line under its slider says.
func (p *Weights) Switch(i int) string { return p.switches[i].Text }

// Note is the line under the sliders: what the weights mean, and whether
// they differ from the saved ones.
func (p *Weights) Note() string { return p.note.Text }

// switchText says where moving one weight changes the recommendation.
func switchText(d *decide.Decision, sw decide.WeightSwitch, top float64) string {
	switch {
	case d.Recommendation == "":
		return "Nothing is feasible, so no weight changes the recommendation."
	case len(d.Ranking) < 2:
		return "Only one direction is feasible, so no weight changes the recommendation."
	}
	var parts []string
	if s := sw.Below; s != nil {
		parts = append(parts, fmt.Sprintf("below %s %s leads", present.Figure(s.At), DirectionName(d, s.Leader)))
	}
	if s := sw.Above; s != nil {
		p := fmt.Sprintf("above %s %s leads", present.Figure(s.At), DirectionName(d, s.Leader))
		if s.At > top {
			p += " (past the end of the slider)"
		}
		parts = append(parts, p)
	}
	if len(parts) == 0 {
		return DirectionName(d, d.Recommendation) + " stays first at any value of this weight."
	}
	return present.Sentence(strings.Join(parts, "; ")) + "."
}

// sliderTop is the sliders' upper end: 1, or twice the largest weight
// rounded up to 1, 2 or 5 times a power of ten.
func sliderTop(ws ...[5]float64) float64 {
	m := 0.0
	for _, w := range ws {
		for _, x := range w {
			m = max(m, x)
		}
	}
	return max(1, NiceCeil(2*m))
}

// WeightSlider is a horizontal slider that passes the window's own keys
// (Escape, F11) on to the window when it has the focus, which a plain
// slider keeps for itself (widgets.WindowKey).
type WeightSlider struct {
	widget.Slider
}

// sliderSteps is how many steps a weight slider has from 0 to its end:
// a drag or a tap sets a weight to three digits, and a weight of a step
// or more from the slider's value moves when tapped there.
const sliderSteps = 1000

// keySteps is how many presses of an arrow key move a slider from one
// end to the other.
const keySteps = 100

func newWeightSlider() *WeightSlider {
	s := &WeightSlider{}
	s.Max, s.Step = 1, 1.0/sliderSteps
	s.Orientation = widget.Horizontal
	s.ExtendBaseWidget(s)
	return s
}

// show puts the slider at weight x as it is, not rounded to a step, so
// that a weight finer than the step (0.005 on a slider of steps of 0.01)
// is neither changed nor reported as changed, and moving the slider
// anywhere else moves it.
func (s *WeightSlider) show(x float64) {
	s.Value = min(max(x, s.Min), s.Max)
	s.Refresh()
}

// TypedKey implements fyne.Focusable: the arrow keys move the weight a
// hundredth of the slider.
func (s *WeightSlider) TypedKey(e *fyne.KeyEvent) {
	if widgets.WindowKey(s, e) {
		return
	}
	switch e.Name {
	case fyne.KeyLeft:
		s.SetValue(s.Value - s.Max/keySteps)
	case fyne.KeyRight:
		s.SetValue(s.Value + s.Max/keySteps)
	default:
		s.Slider.TypedKey(e)
	}
}

// switchMarks draws, over a slider, a small triangle at each weight where
// the recommendation changes. It takes no input: taps and drags reach the
// slider under it.
type switchMarks struct {
	widget.BaseWidget
	slider *WeightSlider
	at     []float64
}

func newSwitchMarks(s *WeightSlider) *switchMarks {
	m := &switchMarks{slider: s}
	m.ExtendBaseWidget(m)
	return m
}

func (m *switchMarks) set(at []float64) {
	m.at = at
	m.Refresh()
}

// positions are the marks' x positions for a slider of width w; values
// past the ends are left out.
func (m *switchMarks) positions(w float32) []float32 {
	var out []float32
	s := m.slider
	for _, v := range m.at {
		if v < s.Min || v > s.Max || s.Max <= s.Min {
			continue
		}
		out = append(out, m.slider.xOf(v, w))
	}
	return out
}

// PositionOf is where on the slider, at its present size, value v lies:
// on its track, halfway down.
func (s *WeightSlider) PositionOf(v float64) fyne.Position {
	return fyne.NewPos(s.xOf(v, s.Size().Width), s.Size().Height/2)
}

// xOf is where on a slider of width w Fyne's slider puts value v: its
// track runs between two end offsets.
func (s *WeightSlider) xOf(v float64, w float32) float32 {
	th := s.Theme()
	end := (th.Size(theme.SizeNameInlineIcon)-4)/2 + th.Size(theme.SizeNameInnerPadding) - 1.5
	ratio := float32(0)
	if s.Max > s.Min {
		ratio = float32((min(max(v, s.Min), s.Max) - s.Min) / (s.Max - s.Min))
	}
	return end + ratio*(w-2*end)
}

// CreateRenderer implements fyne.Widget.
func (m *switchMarks) CreateRenderer() fyne.WidgetRenderer {
	return &switchMarksRenderer{m: m}
}

type switchMarksRenderer struct {
	m       *switchMarks
	objects []fyne.CanvasObject
}

func (r *switchMarksRenderer) draw(size fyne.Size) {
	th := r.m.Theme()
	col := th.Color(theme.ColorNameWarning, fyne.CurrentApp().Settings().ThemeVariant())
	r.objects = r.objects[:0]
	h := size.Height / 4
	for _, x := range r.m.positions(size.Width) {
		// A triangle under the track pointing up at it, as a stack of
		// lines, and a short rule across the track.
		for k := float32(0); k < h; k++ {
			l := canvas.NewLine(col)
			l.StrokeWidth = 1
			half := k * 0.6
			y := size.Height - h + k
			l.Position1, l.Position2 = fyne.NewPos(x-half, y), fyne.NewPos(x+half, y)
			r.objects = append(r.objects, l)
		}
		tick := canvas.NewLine(col)
		tick.StrokeWidth = 2
		tick.Position1, tick.Position2 = fyne.NewPos(x, size.Height/2-h/2), fyne.NewPos(x, size.Height-h)
		r.objects = append(r.objects, tick)
	}
}

func (r *switchMarksRenderer) Layout(size fyne.Size)        { r.draw(size) }
func (r *switchMarksRenderer) MinSize() fyne.Size           { return fyne.Size{} }
func (r *switchMarksRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *switchMarksRenderer) Destroy()                     {}
func (r *switchMarksRenderer) Refresh() {
	r.draw(r.m.Size())
	canvas.Refresh(r.m)
}
