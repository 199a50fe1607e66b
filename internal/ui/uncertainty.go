package ui

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// noUncertainty explains an empty Uncertainty tab.
const noUncertainty = "This report has no Monte Carlo spread: it was evaluated with the likely value of every estimate only."

// uncertaintyView is the Uncertainty tab: the Monte Carlo spread of cost
// and time per direction with the probabilities that matter to a decision,
// the inputs that were sampled, and the tornado of one direction's cost.
type uncertaintyView struct {
	empty  *widget.Label // noUncertainty, shown instead of everything else
	about  *widget.Label // draws, distribution, seed
	spread *grid
	legend *widget.Label // what the columns mean
	none   *widget.Label // how often nothing is feasible
	inputs *widget.Label // the sampled estimates with their ranges

	tornadoTitle *widget.Label
	tornadoNote  *widget.Label
	tornado      *tornadoChart
	noTornado    *widget.Label

	withSpread []fyne.CanvasObject // hidden when the report has no Uncertainty
	withBars   []fyne.CanvasObject // hidden when the tornado has no bars
	report     *model.Report       // the report shown
	highlight  string              // the direction whose row is in bold
	page       *fyne.Container
	scroll     *container.Scroll
	content    fyne.CanvasObject
}

// The spread table's columns.
const (
	spDirection = iota
	spCostP10
	spCostP50
	spCostP90
	spTimeP10
	spTimeP50
	spTimeP90
	spCheapest
	spFeasible
	spDeadline
	spBudget
	numSpreadColumns
)

// spreadHeadings are the spread table's headings; the cost headings get
// the currency in set.
var spreadHeadings = [numSpreadColumns]string{
	spDirection: "Direction",
	spCostP10:   "Cost P10",
	spCostP50:   "Cost P50",
	spCostP90:   "Cost P90",
	spTimeP10:   "Time P10\n(h)",
	spTimeP50:   "Time P50\n(h)",
	spTimeP90:   "Time P90\n(h)",
	spCheapest:  "Chance\ncheapest",
	spFeasible:  "Chance\nfeasible",
	spDeadline:  "Meets\ndeadline",
	spBudget:    "Within\nbudget",
}

func spreadAlign() []fyne.TextAlign {
	a := make([]fyne.TextAlign, numSpreadColumns)
	for i := range a {
		a[i] = fyne.TextAlignTrailing
	}
	a[spDirection] = fyne.TextAlignLeading
	return a
}

func newUncertaintyView() *uncertaintyView {
	v := &uncertaintyView{}
	wrapped := func() *widget.Label {
		l := widget.NewLabel("")
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	v.empty = wrapped()
	v.empty.SetText(noUncertainty)
	v.about = wrapped()
	v.spread = newGrid(spreadHeadings[:], spreadAlign())
	v.legend = wrapped()
	v.legend.SizeName = theme.SizeNameCaptionText
	v.none = wrapped()
	v.inputs = wrapped()

	v.tornadoTitle = sectionHeading("")
	v.tornadoTitle.Wrapping = fyne.TextWrapWord
	v.tornadoNote = wrapped()
	v.tornadoNote.SizeName = theme.SizeNameCaptionText
	v.tornadoNote.SetText("Each bar moves one estimate to the low and the high end of its range, the others held at their likely values; the largest swing is on top.")
	v.tornado = newTornadoChart()
	v.noTornado = wrapped()

	v.withSpread = []fyne.CanvasObject{
		sectionHeading("Spread over the draws"), v.about, v.spread.box, v.legend, v.none,
		sectionHeading("Sampled inputs"), v.inputs,
		v.tornadoTitle, v.tornadoNote, v.tornado, v.noTornado,
	}
	v.withBars = []fyne.CanvasObject{v.tornadoNote, v.tornado}
	parts := append([]fyne.CanvasObject{v.empty}, v.withSpread...)
	layout := &pageLayout{}
	v.page = container.New(layout, parts...)
	v.scroll = container.NewScroll(v.page)
	v.content = container.New(&viewportLayout{layout: layout, page: v.page}, v.scroll)
	return v
}

// set shows the spread and tornado of report r, evaluated from s (which
// gives the ranges of the sampled inputs; it may be nil), the row of
// direction highlight in bold.
func (v *uncertaintyView) set(s *scenario.Scenario, r *model.Report, highlight string) {
	v.report, v.highlight = r, highlight
	u := r.Uncertainty
	showIf(v.empty, u == nil)
	showAll(v.withSpread, u != nil)
	if u != nil {
		v.about.SetText(aboutText(u))
		headings := spreadHeadings
		for _, c := range []int{spCostP10, spCostP50, spCostP90} {
			headings[c] += "\n(" + orText(r.Currency, "cost") + ")"
		}
		v.spread.headings = headings[:]
		v.spread.set(spreadRows(r, highlight))
		v.legend.SetText(spreadLegend(r))
		v.none.SetText(noneFeasibleText(u))
		showIf(v.none, u.ProbNoneFeasible > 0)
		v.inputs.SetText(sampledInputsText(s, u))

		t := r.Tornado
		v.tornadoTitle.SetText(tornadoTitle(r))
		v.tornado.set(t, r.Currency)
		bars := t != nil && len(t.Bars) > 0
		showAll(v.withBars, bars)
		showIf(v.noTornado, !bars)
		v.noTornado.SetText("No estimate moves this figure: every input is known, so there is nothing to swing.")
		if t == nil {
			v.noTornado.SetText("This report has no sensitivity analysis.")
		}
	}
	v.scroll.Offset = fyne.Position{}
	v.page.Refresh()
	v.scroll.Refresh()
}

// setHighlight puts the row of direction highlight (the recommended one)
// in bold.
func (v *uncertaintyView) setHighlight(highlight string) {
	v.highlight = highlight
	if v.report == nil || v.report.Uncertainty == nil {
		return
	}
	v.spread.set(spreadRows(v.report, highlight))
	v.page.Refresh()
}

// aboutText is the line on how the spread was made.
func aboutText(u *model.Uncertainty) string {
	text := fmt.Sprintf("%s draws from %s distributions, seed %d: the same scenario and seed give the same numbers.",
		present.Number(float64(u.Draws)), orText(u.Distribution, "triangular"), u.Seed)
	if len(u.Inputs) == 0 {
		text += " No input is an estimate, so every draw is the same; give ranges (low, likely, high) to see a spread."
	}
	return text
}

// spreadRows is one row per direction, in the report's order, the
// highlighted direction in bold. A direction the report rules out has
// "—" in every column but its chance of being feasible, which says how
// often it would be in (and "—" there too when it never is).
func spreadRows(r *model.Report, highlight string) []gridRow {
	u := r.Uncertainty
	rows := make([]gridRow, 0, len(u.Directions))
	for _, sp := range u.Directions {
		title := present.DirectionTitle(sp.Direction)
		ruledOut := false
		if d := r.Direction(sp.Direction); d != nil {
			title = titleOf(*d)
			ruledOut = !d.Feasible
		}
		cells := make([]string, numSpreadColumns)
		cells[spDirection] = title
		out := ruledOut || sp.ProbFeasible == 0 // the figures of a direction ruled out would not happen
		cells[spCostP10] = orDash(out, present.Money(sp.CostP10, ""))
		cells[spCostP50] = orDash(out, present.Money(sp.CostP50, ""))
		cells[spCostP90] = orDash(out, present.Money(sp.CostP90, ""))
		cells[spTimeP10] = orDash(out || sp.TimeP10 == 0, present.Hours(sp.TimeP10))
		cells[spTimeP50] = orDash(out || sp.TimeP50 == 0, present.Hours(sp.TimeP50))
		cells[spTimeP90] = orDash(out || sp.TimeP90 == 0, present.Hours(sp.TimeP90))
		cells[spCheapest] = orDash(out, present.Percent(sp.ProbCheapest))
		cells[spFeasible] = orDash(sp.ProbFeasible == 0, present.Percent(sp.ProbFeasible))
		cells[spDeadline] = orDash(out, present.Percent(sp.ProbDeadline))
		cells[spBudget] = orDash(out, present.Percent(sp.ProbBudget))
		row := gridRow{cells: cells, bold: !out && sp.Direction == highlight, danger: -1}
		if out {
			cells[spDirection] = title + " (ruled out)"
			row.danger = spDirection
		}
		rows = append(rows, row)
	}
	return rows
}

// spreadLegend says what the columns of the spread table mean.
func spreadLegend(r *model.Report) string {
	horizon := "the horizon"
	if r.HorizonMonths > 0 {
		horizon = "a horizon of " + present.Count(r.HorizonMonths, "month")
	}
	return "Cost is the total over " + horizon + "; time is one run's time to result. " +
		"P10 and P90: one draw in ten falls below, one in ten above. " +
		"Chance cheapest: share of draws in which the direction is the cheapest feasible one; chance feasible: share in which it meets every constraint; " +
		"meets deadline and within budget: share of draws meeting the deadline and the budget cap (100 % when the scenario sets none). " +
		"A direction ruled out shows “—”: its figures would not happen."
}

// noneFeasibleText says how often no direction is feasible.
func noneFeasibleText(u *model.Uncertainty) string {
	return fmt.Sprintf("In %s of the draws no direction is feasible.", present.Percent(u.ProbNoneFeasible))
}

// sampledInputsText lists the sampled estimates, one a line, with the
// range each is drawn from when the scenario gives it.
func sampledInputsText(s *scenario.Scenario, u *model.Uncertainty) string {
	if len(u.Inputs) == 0 {
		return "None: every input is a known value."
	}
	ranges := map[string]scenario.Value{}
	if s != nil {
		for _, ref := range scenario.EstimateRefs(s) {
			ranges[ref.Path] = *ref.Ptr
		}
	}
	// The report's own ranges cover the catalog's estimates too.
	for _, r := range u.Ranges {
		ranges[r.Input] = scenario.Estimate(r.Low, r.Likely, r.High)
	}
	currency := ""
	if s != nil {
		currency = s.Currency
	}
	lines := make([]string, len(u.Inputs))
	for i, in := range u.Inputs {
		lines[i] = "• " + present.InputTitle(in, currency)
		if v, ok := ranges[in]; ok {
			lines[i] += fmt.Sprintf(": %s, likely %s", present.Range(v), present.Number(v.Likely))
		}
	}
	return strings.Join(lines, "\n")
}

// tornadoTitle is the heading over the tornado: whose figure it is and its
// base value.
func tornadoTitle(r *model.Report) string {
	t := r.Tornado
	if t == nil {
		return "Sensitivity"
	}
	metric := present.Lower(present.MetricTitle(t.Metric))
	title := present.DirectionTitle(t.Direction)
	if d := r.Direction(t.Direction); d != nil {
		title = titleOf(*d)
	}
	return fmt.Sprintf("Sensitivity of %s's %s (base %s)", title, metric, present.Money(t.Base, r.Currency))
}

func orText(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// The tornado's colours: Okabe–Ito blue for an input at its low end and
// vermillion for its high end (see seriesColours).
var (
	tornadoLowColour  = color.NRGBA{0x00, 0x72, 0xb2, 0xff}
	tornadoHighColour = color.NRGBA{0xd5, 0x5e, 0x00, 0xff}
)

// tornadoChart draws one-at-a-time sensitivity as horizontal bars: one row
// per input, largest swing on top, each bar running from the base value
// to the figure with the input at its low end (blue) and at its high end
// (vermillion), the values written at the bar ends and the base drawn as a
// vertical line through every row.
type tornadoChart struct {
	widget.BaseWidget
	tornado  *model.Tornado
	currency string
}

var _ fyne.Widget = (*tornadoChart)(nil)

func newTornadoChart() *tornadoChart {
	c := &tornadoChart{}
	c.ExtendBaseWidget(c)
	return c
}

func (c *tornadoChart) set(t *model.Tornado, currency string) {
	c.tornado, c.currency = t, currency
	c.Refresh()
}

// bars returns the bars in drawing order, top to bottom: largest swing
// first, whatever order the report gives.
func (c *tornadoChart) bars() []model.Bar {
	if c.tornado == nil {
		return nil
	}
	bars := append([]model.Bar(nil), c.tornado.Bars...)
	for i := 1; i < len(bars); i++ { // insertion sort: stable, and a handful of bars
		for j := i; j > 0 && swingOf(bars[j]) > swingOf(bars[j-1]); j-- {
			bars[j], bars[j-1] = bars[j-1], bars[j]
		}
	}
	return bars
}

func swingOf(b model.Bar) float64 { return math.Abs(b.High - b.Low) }

// CreateRenderer implements fyne.Widget.
func (c *tornadoChart) CreateRenderer() fyne.WidgetRenderer {
	r := &tornadoRenderer{chart: c}
	r.objects = c.draw(c.Size())
	return r
}

type tornadoRenderer struct {
	chart   *tornadoChart
	objects []fyne.CanvasObject
}

func (r *tornadoRenderer) Layout(size fyne.Size)        { r.objects = r.chart.draw(size) }
func (r *tornadoRenderer) MinSize() fyne.Size           { return r.chart.minSize() }
func (r *tornadoRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *tornadoRenderer) Destroy()                     {}

func (r *tornadoRenderer) Refresh() {
	r.objects = r.chart.draw(r.chart.Size())
	canvas.Refresh(r.chart)
}

// tornadoGeometry is the chart's vertical layout for the theme's text size.
type tornadoGeometry struct {
	lineH, smallH, pad, rowH, barH, top float32
}

func (c *tornadoChart) geometry() tornadoGeometry {
	th := c.Theme()
	textSize := th.Size(theme.SizeNameText)
	smallSize := th.Size(theme.SizeNameCaptionText)
	pad := th.Size(theme.SizeNamePadding)
	g := tornadoGeometry{
		lineH:  fyne.MeasureText("Mg", textSize, fyne.TextStyle{}).Height,
		smallH: fyne.MeasureText("Mg", smallSize, fyne.TextStyle{}).Height,
		pad:    pad,
	}
	g.rowH = g.lineH + 2*pad
	g.barH = g.lineH
	// The legend, then the base value's label above the bars.
	g.top = g.lineH + 2*pad + g.smallH + pad
	return g
}

func (c *tornadoChart) minSize() fyne.Size {
	g := c.geometry()
	n := len(c.bars())
	// The bars, then the value axis: ticks, their labels and its title.
	return fyne.NewSize(420, g.top+float32(n)*g.rowH+g.pad+2*(g.smallH+g.pad))
}

// axisTitle is the title of the value axis: the metric and its currency.
func (c *tornadoChart) axisTitle() string {
	title := present.MetricTitle(c.tornado.Metric)
	if c.currency != "" {
		title += " (" + c.currency + ")"
	}
	return title
}

// rangeTicks are ticks at a step of 1, 2 or 5 times a power of ten
// covering lo to hi, about n of them, all inside [lo, hi].
func rangeTicks(lo, hi float64, n int) []float64 {
	if !(hi > lo) {
		return nil
	}
	step := niceCeil((hi - lo) / float64(n))
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+step*1e-9; v += step {
		out = append(out, v)
	}
	return out
}

// draw builds the chart for size.
func (c *tornadoChart) draw(size fyne.Size) []fyne.CanvasObject {
	bars := c.bars()
	if size.Width <= 0 || size.Height <= 0 || c.tornado == nil || len(bars) == 0 {
		return nil
	}
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	fg := th.Color(theme.ColorNameForeground, variant)
	rule := th.Color(theme.ColorNameSeparator, variant)
	textSize := th.Size(theme.SizeNameText)
	smallSize := th.Size(theme.SizeNameCaptionText)
	inset := th.Size(theme.SizeNameInnerPadding)
	scrollBar := th.Size(theme.SizeNameScrollBar)
	g := c.geometry()
	pad := g.pad

	var objs []fyne.CanvasObject
	measure := func(s string, size float32) fyne.Size { return fyne.MeasureText(s, size, fyne.TextStyle{}) }
	text := func(s string, x, y, size float32, col color.Color) {
		t := canvas.NewText(s, col)
		t.TextSize = size
		t.Move(fyne.NewPos(x, y))
		t.Resize(measure(s, size))
		objs = append(objs, t)
	}
	rect := func(x1, x2, y, h float32, col color.Color) {
		if x2 < x1 {
			x1, x2 = x2, x1
		}
		r := canvas.NewRectangle(col)
		r.Move(fyne.NewPos(x1, y))
		r.Resize(fyne.NewSize(max(x2-x1, 1), h))
		objs = append(objs, r)
	}
	line := func(x1, y1, x2, y2, width float32, col color.Color) {
		l := canvas.NewLine(col)
		l.StrokeWidth = width
		l.Position1 = fyne.NewPos(x1, y1)
		l.Position2 = fyne.NewPos(x2, y2)
		objs = append(objs, l)
	}

	// Legend.
	x := inset
	for _, e := range []struct {
		label  string
		colour color.Color
	}{{"input at its low end", tornadoLowColour}, {"input at its high end", tornadoHighColour}} {
		rect(x, x+swatchLength, pad+g.lineH/4, g.lineH/2, e.colour)
		text(e.label, x+swatchLength+2*pad, pad, textSize, fg)
		x += swatchLength + 2*pad + measure(e.label, textSize).Width + 6*pad
	}

	// Columns: input names on the left (at most 40 % of the width), the
	// bars on the right with room for their value labels at both ends.
	right := size.Width - scrollBar - pad
	nameW := float32(0)
	for _, b := range bars {
		nameW = max(nameW, measure(present.InputName(b.Input), textSize).Width)
	}
	nameW = min(nameW, 0.4*(right-inset))
	base := c.tornado.Base
	lo, hi := base, base
	for _, b := range bars {
		lo = min(lo, b.Low, b.High)
		hi = max(hi, b.Low, b.High)
	}
	valueW := float32(0)
	for _, b := range bars {
		for _, s := range barLabels(b, base) {
			valueW = max(valueW, measure(s, smallSize).Width)
		}
	}
	plotL := inset + nameW + 2*pad + valueW + pad
	plotR := right - valueW - pad
	if plotR-plotL < 40 {
		return objs
	}
	if hi == lo {
		lo, hi = lo-1, hi+1
	}
	xOf := func(v float64) float32 { return plotL + (plotR-plotL)*float32((v-lo)/(hi-lo)) }

	// The base line, labelled above the bars.
	bx := xOf(base)
	baseLabel := "base " + present.Money(base, c.currency)
	m := measure(baseLabel, smallSize)
	text(baseLabel, min(max(bx-m.Width/2, plotL), right-m.Width), g.top-g.smallH-pad/2, smallSize, fg)

	y := g.top
	for _, b := range bars {
		// Row rule, name, then the two halves of the bar.
		line(inset, y+g.rowH, right, y+g.rowH, 1, rule)
		text(ellipsize(present.InputName(b.Input), nameW, textSize), inset, y+pad, textSize, fg)
		by := y + (g.rowH-g.barH)/2
		// The half farther from the base is drawn first, so both show when
		// low and high lie on the same side.
		type half struct {
			v      float64
			colour color.Color
		}
		halves := []half{{b.Low, tornadoLowColour}, {b.High, tornadoHighColour}}
		if math.Abs(b.High-base) > math.Abs(b.Low-base) {
			halves[0], halves[1] = halves[1], halves[0]
		}
		for i, h := range halves {
			inner := float32(0)
			if i == 1 && sameSide(b.Low, b.High, base) {
				inner = g.barH / 4 // the nearer half, thinner, on top
			}
			rect(bx, xOf(h.v), by+inner, g.barH-2*inner, h.colour)
		}
		// Value labels at the outer ends.
		labels := barLabels(b, base)
		left, rightEnd := min(b.Low, b.High, base), max(b.Low, b.High, base)
		at := func(s string, v float64, onRight bool) {
			m := measure(s, smallSize)
			xx := xOf(v) - pad - m.Width
			if onRight {
				xx = xOf(v) + pad
			}
			text(s, xx, y+(g.rowH-m.Height)/2, smallSize, fg)
		}
		if len(labels) == 2 { // labels[0] at the left end, labels[1] at the right
			at(labels[0], left, false)
			at(labels[1], rightEnd, true)
		} else if b.Low < base && b.High < base { // both below: beyond the left end
			at(labels[0], left, false)
		} else { // both above, or no change: beyond the right end
			at(labels[0], rightEnd, true)
		}
		y += g.rowH
	}
	line(bx, g.top, bx, y, 2, fg)

	// The value axis under the bars: a tick and an amount at each step,
	// a faint rule up through the rows, and its title.
	line(plotL, y, plotR, y, 1, fg)
	ticks := rangeTicks(lo, hi, 5)
	top := 0.0
	for _, v := range ticks {
		top = max(top, math.Abs(v))
	}
	lastRight := float32(math.Inf(-1))
	for _, v := range ticks {
		xx := xOf(v)
		line(xx, g.top, xx, y, 1, rule)
		line(xx, y, xx, y+pad/2, 1, fg)
		label := axisAmount(v, top)
		m := measure(label, smallSize)
		if xx-m.Width/2 > lastRight+pad { // never two labels touching
			text(label, xx-m.Width/2, y+pad/2, smallSize, fg)
			lastRight = xx + m.Width/2
		}
	}
	title := c.axisTitle()
	m = measure(title, smallSize)
	text(title, plotL+(plotR-plotL-m.Width)/2, y+pad/2+g.smallH+pad/2, smallSize, fg)
	return objs
}

// ellipsize shortens s with "…" until it fits width at text size size.
func ellipsize(s string, width, size float32) string {
	if fyne.MeasureText(s, size, fyne.TextStyle{}).Width <= width {
		return s
	}
	r := []rune(s)
	for len(r) > 1 {
		r = r[:len(r)-1]
		if t := string(r) + "…"; fyne.MeasureText(t, size, fyne.TextStyle{}).Width <= width {
			return t
		}
	}
	return "…"
}

// sameSide reports whether a and b both lie strictly above, or both
// strictly below, base.
func sameSide(a, b, base float64) bool {
	return (a > base && b > base) || (a < base && b < base)
}

// barLabels are the value labels of a bar: for a bar that spans the base,
// the left end's value then the right end's; otherwise one label with both
// values, or "no change" when the input does not move the figure.
func barLabels(b model.Bar, base float64) []string {
	const eps = 1e-9
	if math.Abs(b.Low-base) < eps && math.Abs(b.High-base) < eps {
		return []string{"no change"}
	}
	lo, hi := present.Money(b.Low, ""), present.Money(b.High, "")
	if sameSide(b.Low, b.High, base) {
		return []string{"low " + lo + " · high " + hi}
	}
	if b.Low <= b.High {
		return []string{lo, hi}
	}
	return []string{hi, lo}
}
