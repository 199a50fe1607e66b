package ui

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"hostplan/internal/ui/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
)

// maxCompared is how many scenarios the comparison shows side by side: as
// many as fit one screen with their reasons readable.
const maxCompared = 3

// compareView is the leadership view: two or three scenarios ticked in the
// list, side by side, one column each, the same facts on the same row —
// what is recommended, what it costs over the horizon (P10–P90 when the
// Monte Carlo ran), how long a run takes, the cheapest feasible direction,
// whether the recommendation is fragile, and the first trial to ask for.
// Each scenario is evaluated off the UI goroutine and kept until it
// changes.
type compareView struct {
	backend Backend

	ticked  []Item                   // in the order ticked
	refused string                   // the name of a scenario a fourth tick asked for
	cache   map[string]*compareEntry // by scenario id

	// work lets one evaluation run at a time: the model's Monte Carlo
	// already uses every core, and their results arrive one by one.
	work sync.Mutex

	hint *widget.Label // how to use it, or why a tick was refused
	// export writes the comparison workbook and charts the charts of the
	// compared scenarios (export_actions.go); the planner shows them.
	export, charts *widgets.TipButton
	grid           *fyne.Container
	scroll         *container.Scroll
	content        fyne.CanvasObject
}

// compareEntry is one scenario's evaluation for the comparison.
type compareEntry struct {
	revisions int // the revision evaluated; a later one is evaluated again
	ev        *evaluation
	err       error
	done      bool
}

func newCompareView(b Backend) *compareView {
	v := &compareView{backend: b, cache: map[string]*compareEntry{}}
	heading := widget.NewLabel("Compare scenarios")
	heading.TextStyle.Bold = true
	heading.SizeName = theme.SizeNameSubHeadingText
	v.hint = widget.NewLabel("")
	v.hint.Wrapping = fyne.TextWrapWord
	v.export = widgets.NewTipButton("Export workbook…", theme.DocumentSaveIcon(), "One workbook of the compared scenarios, a column each (Ctrl+E)", nil)
	v.charts = widgets.NewTipButton("Save charts…", theme.FileImageIcon(), "The compared scenarios' charts as PNG and SVG files", nil)
	v.export.Hide()
	v.charts.Hide()
	// The row headings, then one column per scenario ticked, sharing the
	// rest of the width; redraw sets the count.
	v.grid = container.New(widgets.NewFillGridLayout(1, 1, minCompareColumn))
	v.scroll = container.NewVScroll(v.grid)
	top := container.NewBorder(nil, nil, nil, container.NewHBox(v.export, v.charts), heading)
	v.content = container.NewBorder(container.NewVBox(top, v.hint), nil, nil, nil, v.scroll)
	v.refresh()
	return v
}

// isTicked reports whether scenario id is in the comparison.
func (v *compareView) isTicked(id string) bool {
	return slices.ContainsFunc(v.ticked, func(it Item) bool { return it.ID == id })
}

// toggle ticks or unticks it, or refuses a fourth tick with a word why;
// refresh shows the result.
func (v *compareView) toggle(it Item) {
	if i := slices.IndexFunc(v.ticked, func(x Item) bool { return x.ID == it.ID }); i >= 0 {
		v.ticked = slices.Delete(v.ticked, i, i+1)
		v.refused = ""
		return
	}
	if len(v.ticked) >= maxCompared {
		v.refused = itemName(it)
		return
	}
	v.ticked = append(v.ticked, it)
	v.refused = ""
}

// sync follows the list after a reload: a ticked scenario that is gone is
// dropped, and one with a new revision is evaluated again.
func (v *compareView) sync(items []Item) {
	var kept []Item
	for _, t := range v.ticked {
		if i := slices.IndexFunc(items, func(x Item) bool { return x.ID == t.ID }); i >= 0 {
			kept = append(kept, items[i])
		}
	}
	v.ticked = kept
	v.refresh()
}

// refresh redraws and evaluates what is ticked and not yet evaluated. The
// redraw comes first: nothing on the UI goroutine follows the start of
// an evaluation.
func (v *compareView) refresh() {
	var todo []Item
	for _, it := range v.ticked {
		if e, ok := v.cache[it.ID]; ok && e.revisions == it.Revisions {
			continue
		}
		v.cache[it.ID] = &compareEntry{revisions: it.Revisions}
		todo = append(todo, it)
	}
	v.redraw()
	v.refused = ""
	b := v.backend
	for _, it := range todo {
		e := v.cache[it.ID]
		inBackground(func() func() {
			v.work.Lock()
			defer v.work.Unlock()
			ev, err := evaluateItem(context.Background(), b, it, true)
			return func() {
				e.ev, e.err, e.done = ev, err, true
				if v.cache[it.ID] == e && v.isTicked(it.ID) {
					v.redraw()
				}
			}
		})
	}
}

// sideRow is one row of scenarios side by side, in Compare and in Review:
// its heading and the cell of an evaluated scenario. A compact cell (in
// review mode, at a projector's text size) leaves out the captions the
// row can do without.
type sideRow struct {
	heading string
	cell    func(ev *evaluation, c sideCell) fyne.CanvasObject
	review  bool // a row of review mode too
}

// sideCell is how a cell is drawn: compact in review mode (at a
// projector's text size, without the captions a row can do without), and
// on the basis the scenarios side by side are compared on.
type sideCell struct {
	compact bool
	basis   *sideBasis
}

// sideBasis is what scenarios side by side are compared in: the first
// one's currency, the others' money converted into it at a rate their
// reports state, and, when their horizons differ, the shortest horizon,
// each cost also given over it.
type sideBasis struct {
	currency string
	months   int // the shortest horizon; 0 when they are all the same
	evs      []*evaluation
	horizons []int // the horizons, as many as differ, in order
}

// newSideBasis is the basis of evs, in the order shown.
func newSideBasis(evs []*evaluation) *sideBasis {
	b := &sideBasis{evs: evs}
	for _, ev := range evs {
		if b.currency == "" {
			b.currency = ev.r.Currency
		}
		if h := ev.r.HorizonMonths; h > 0 && !slices.Contains(b.horizons, h) {
			b.horizons = append(b.horizons, h)
		}
	}
	if len(b.horizons) > 1 {
		b.months = slices.Min(b.horizons)
	}
	slices.Sort(b.horizons)
	return b
}

// rate is the rate that converts money in currency cur into the basis's
// currency, from the reports' exchange rates either way round; false
// when none states one.
func (b *sideBasis) rate(cur string) (model.ExchangeRate, bool) {
	for _, ev := range b.evs {
		for _, x := range ev.r.ExchangeRates {
			switch {
			case x.Rate <= 0:
			case x.From == cur && x.To == b.currency:
				return x, true
			case x.From == b.currency && x.To == cur:
				return model.ExchangeRate{From: cur, To: b.currency, Rate: 1 / x.Rate, AsOf: x.AsOf, Source: "the inverse of " + present.Figure(x.Rate) + " " + cur + " per " + b.currency + ", " + x.Source}, true
			}
		}
	}
	return model.ExchangeRate{}, false
}

// money is x of ev's currency as the basis shows it beside ev's own
// figure: "≈ EUR 1,170,000", or "" when ev is in the basis's currency or
// no rate converts it.
func (b *sideBasis) money(ev *evaluation, x float64) string {
	cur := ev.r.Currency
	if b == nil || cur == b.currency || cur == "" {
		return present.Money(x, cur)
	}
	if r, ok := b.rate(cur); ok {
		return "≈ " + present.Money(x*r.Rate, b.currency)
	}
	return present.Money(x, cur)
}

// note says what the comparison converts, and what it cannot.
func (b *sideBasis) note() string {
	var parts []string
	var others, missing []string
	for _, ev := range b.evs {
		cur := ev.r.Currency
		if cur == b.currency || cur == "" || slices.Contains(others, cur) || slices.Contains(missing, cur) {
			continue
		}
		if r, ok := b.rate(cur); ok {
			others = append(others, cur)
			text := "money in " + cur + " is also shown in " + b.currency + " at " + present.Figure(r.Rate) + " " + b.currency + " per " + cur
			if r.AsOf != "" {
				text += " (rate of " + r.AsOf
				if r.Source != "" {
					text += ", " + r.Source
				}
				text += ")"
			}
			parts = append(parts, text)
		} else {
			missing = append(missing, cur)
		}
	}
	if len(missing) > 0 {
		parts = append(parts, "money in "+strings.Join(missing, " and ")+" is not converted into "+b.currency+": no report states a rate between them, so compare those costs with care")
	}
	if b.months > 0 {
		hs := make([]string, len(b.horizons))
		for i, h := range b.horizons {
			hs[i] = whole(h)
		}
		parts = append(parts, "the horizons differ ("+strings.Join(hs, " and ")+" months), so each cost is also given over the first "+present.Count(b.months, "month")+", the shortest")
	}
	if len(parts) == 0 {
		return ""
	}
	return present.Sentence(strings.Join(parts, "; ")) + "."
}

// sideRows are the rows, in order.
var sideRows = []sideRow{
	{"Scenario", scenarioCell, true},
	{"Recommended", recommendedCell, true},
	{"Cost over the horizon", costCell, true},
	{"Time to result", timeCell, true},
	{"Cheapest feasible", cheapestCell, true},
	{"Robustness", robustnessCell, false},
	{"Runner-up", runnerUpCell, true},
	{"Ruled out", ruledOutCell, true},
	{"First trial", trialCell, true},
}

// compareRows are the row headings, in order.
var compareRows = func() []string {
	out := make([]string, len(sideRows))
	for i, r := range sideRows {
		out[i] = r.heading
	}
	return out
}()

// redraw rebuilds the columns from the cache.
func (v *compareView) redraw() {
	v.hint.Importance = widget.MediumImportance
	switch len(v.ticked) {
	case maxCompared:
		if v.refused != "" {
			v.hint.Importance = widget.DangerImportance
			v.hint.SetText("At most " + whole(maxCompared) + " scenarios fit side by side: untick one before adding “" + v.refused + "”.")
			break
		}
		fallthrough
	default:
		v.hint.SetText("Each column is one scenario; the figures are for its recommended direction unless the row says otherwise.")
	case 0:
		v.hint.SetText("Tick two or three scenarios in the list on the left to see them side by side.")
	case 1:
		v.hint.SetText("Tick one or two more scenarios to compare with it.")
	}
	var objects []fyne.CanvasObject
	if len(v.ticked) > 0 {
		basis := v.basis()
		if note := basis.note(); note != "" {
			v.hint.SetText(v.hint.Text + " " + note)
		}
		cols := make([][]fyne.CanvasObject, len(v.ticked))
		for i, it := range v.ticked {
			cols[i] = v.column(it, basis)
		}
		for r, heading := range compareRows {
			l := widget.NewLabel(heading)
			l.TextStyle.Bold = true
			objects = append(objects, l)
			for _, col := range cols {
				objects = append(objects, col[r])
			}
		}
		for range len(compareRows) - 1 {
			objects = append(objects, widget.NewSeparator())
		}
	}
	widgets.EnableIf(v.export, len(v.ticked) >= 2)
	widgets.EnableIf(v.charts, len(v.ticked) > 0 && v.evaluated())
	v.grid.Layout.(*widgets.GridLayout).Cols = len(v.ticked) + 1
	v.grid.Objects = objects
	v.grid.Refresh()
}

// evaluated reports whether every ticked scenario is evaluated.
func (v *compareView) evaluated() bool {
	for _, it := range v.ticked {
		if e := v.cache[it.ID]; e == nil || !e.done || e.ev == nil {
			return false
		}
	}
	return true
}

// basis is what the evaluated scenarios ticked are compared on.
func (v *compareView) basis() *sideBasis {
	var evs []*evaluation
	for _, it := range v.ticked {
		if e := v.cache[it.ID]; e != nil && e.done && e.ev != nil {
			evs = append(evs, e.ev)
		}
	}
	return newSideBasis(evs)
}

// column builds one scenario's cells, one per row of compareRows, on
// basis.
func (v *compareView) column(it Item, basis *sideBasis) []fyne.CanvasObject {
	cells := make([]fyne.CanvasObject, len(compareRows))
	name := widgets.WrappedLabel(itemName(it))
	name.TextStyle.Bold = true
	e := v.cache[it.ID]
	switch {
	case e == nil || !e.done:
		cells[0] = widgets.Stack(name, widgets.WrappedLabel("Evaluating…"))
	case e.err != nil:
		msg := widgets.WrappedLabel(present.Sentence(e.err.Error()))
		msg.Importance = widget.DangerImportance
		cells[0] = widgets.Stack(name, msg)
	default:
		return compareCells(e.ev, basis)
	}
	for i := 1; i < len(cells); i++ {
		cells[i] = widgets.WrappedLabel("")
	}
	return cells
}

// compareCells are the cells of an evaluated scenario, one per row of
// sideRows.
func compareCells(ev *evaluation, basis *sideBasis) []fyne.CanvasObject {
	cells := make([]fyne.CanvasObject, len(sideRows))
	for i, row := range sideRows {
		cells[i] = row.cell(ev, sideCell{basis: basis})
	}
	return cells
}

// winner is ev's decision and the report's result of the direction it
// recommends (nil for none).
func (ev *evaluation) winner() (*decide.Decision, *model.DirectionResult) {
	d := ev.dec
	if ev.decErr != nil {
		d = nil
	}
	if d == nil {
		return nil, nil
	}
	return d, ev.r.Direction(d.Recommendation)
}

// scenarioCell is the scenario's name over its shape and horizon (not
// when compact).
func scenarioCell(ev *evaluation, c sideCell) fyne.CanvasObject {
	name := widgets.WrappedLabel(reportTitle(ev.s, ev.r))
	name.TextStyle.Bold = true
	if c.compact {
		return name
	}
	facts := present.ShapeTitle(ev.r.Shape)
	if h := ev.r.HorizonMonths; h > 0 {
		facts += " · horizon " + present.Count(h, "month")
	}
	return widgets.Stack(name, widgets.Caption(facts))
}

// recommendedCell is the recommended direction with its score, or why
// there is none; compact, with the robustness badge beside it.
func recommendedCell(ev *evaluation, c sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	switch {
	case ev.decErr != nil || ev.dec == nil:
		l := widgets.WrappedLabel("No recommendation: " + strings.TrimPrefix(fmt.Sprint(ev.decErr), "decide: "))
		l.Importance = widget.DangerImportance
		return l
	case win == nil:
		l := widgets.WrappedLabel("None: no direction is feasible")
		l.Importance = widget.DangerImportance
		return l
	}
	l := widget.NewLabel(titleOf(*win))
	l.TextStyle.Bold = true
	l.SizeName = theme.SizeNameSubHeadingText
	l.Truncation = fyne.TextTruncateEllipsis
	if c.compact {
		// The badge beside the name when the column has room, under it
		// when not, inset like a label's text.
		b := newBadge()
		b.set(d)
		inner := theme.InnerPadding()
		return container.New(&widgets.FlowLayout{}, l, container.New(layout.NewCustomPaddedLayout(0, 0, inner, inner), container.NewCenter(b)))
	}
	return widgets.Stack(l, widgets.Caption("score "+present.Fixed(d.For(d.Recommendation).Total, 2)+" of 1"))
}

// costCell is the recommended direction's cost over the horizon and its
// P10–P90, on the comparison's basis: converted into its currency, and
// over its common horizon when the horizons differ.
func costCell(ev *evaluation, c sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	if win == nil {
		return widgets.WrappedLabel(noValue)
	}
	parts := []fyne.CanvasObject{widgets.StrongLabel(present.Money(win.CostHorizon, ev.r.Currency))}
	var lines []string
	if b := c.basis; b != nil {
		if cur := ev.r.Currency; cur != b.currency && cur != "" {
			if _, ok := b.rate(cur); ok {
				lines = append(lines, b.money(ev, win.CostHorizon))
			}
		}
		if m := b.months; m > 0 && ev.r.HorizonMonths != m && len(win.CumulativeByMonth) >= m {
			lines = append(lines, "first "+present.Count(m, "month")+": "+b.money(ev, win.CumulativeByMonth[m-1]))
		}
	}
	if len(lines) > 0 {
		l := widgets.WrappedLabel(strings.Join(lines, "\n"))
		l.TextStyle.Italic = true
		parts = append(parts, l)
	}
	return widgets.Stack(append(parts, widgets.Caption(costSpread(ev.r, d.Recommendation)))...)
}

// timeCell is the recommended direction's time to result and its P10–P90.
func timeCell(ev *evaluation, _ sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	if win == nil {
		return widgets.WrappedLabel(noValue)
	}
	return widgets.Stack(widgets.StrongLabel(present.Hours(win.TimeToResultHours)+" h per run"), widgets.Caption(timeSpread(ev.r, d.Recommendation)))
}

// cheapestCell is the cheapest feasible direction and its cost, with how
// often it stays cheapest (not when compact).
func cheapestCell(ev *evaluation, c sideCell) fyne.CanvasObject {
	compact := c.compact
	r := ev.r
	cheapest := r.Direction(r.Cheapest)
	if cheapest == nil {
		return widgets.WrappedLabel("None is feasible")
	}
	d, _ := ev.winner()
	text := fmt.Sprintf("%s, %s", titleOf(*cheapest), present.Money(cheapest.CostHorizon, r.Currency))
	if d != nil && cheapest.Direction == d.Recommendation {
		text = "The recommended one"
	}
	// How often it stays cheapest, when it does not in every draw.
	if sp := spreadOf(r, r.Cheapest); compact || sp == nil || sp.ProbCheapest >= 1 {
		return widgets.WrappedLabel(text)
	}
	return widgets.Stack(widgets.WrappedLabel(text), widgets.Caption(cheapestOdds(r)))
}

// robustnessCell is the robustness badge over what it means.
func robustnessCell(ev *evaluation, _ sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	if win == nil {
		return widgets.WrappedLabel(noValue)
	}
	b := newBadge()
	b.set(d)
	_, text := robustnessParts(d)
	// Inset like a label's text, so the badge lines up with the words.
	inner, pad := theme.InnerPadding(), theme.Padding()
	badgeRow := container.New(layout.NewCustomPaddedLayout(inner, pad, inner, 0), container.NewHBox(b))
	return widgets.Stack(badgeRow, widgets.Caption(text))
}

// runnerUpCell is the direction ranked second and how far behind.
func runnerUpCell(ev *evaluation, _ sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	switch {
	case win == nil:
		return widgets.WrappedLabel(noValue)
	case d.RunnerUp == nil:
		return widgets.WrappedLabel("None: the only feasible direction")
	}
	return widgets.WrappedLabel(directionName(d, d.RunnerUp.Direction) + ", " + present.Fixed(d.RunnerUp.Gap, 3) + " behind")
}

// ruledOutCell names the infeasible directions.
func ruledOutCell(ev *evaluation, _ sideCell) fyne.CanvasObject {
	return widgets.WrappedLabel(ruledOutText(ev.r))
}

// trialCell is the first trial to ask for.
func trialCell(ev *evaluation, _ sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	if win == nil || d.FirstTrial == nil {
		return widgets.WrappedLabel(noValue)
	}
	return widgets.WrappedLabel(trialText(d.FirstTrial, ev.r))
}

// costSpread is the P10–P90 of a direction's cost over the horizon.
func costSpread(r *model.Report, direction string) string {
	sp := spreadOf(r, direction)
	if sp == nil {
		return "no Monte Carlo spread"
	}
	return fmt.Sprintf("P10–P90 %s – %s", present.Money(sp.CostP10, r.Currency), present.Money(sp.CostP90, ""))
}

// timeSpread is the P10–P90 of a direction's time to result.
func timeSpread(r *model.Report, direction string) string {
	sp := spreadOf(r, direction)
	if sp == nil {
		return "no Monte Carlo spread"
	}
	text := fmt.Sprintf("P10–P90 %s – %s h", present.Hours(sp.TimeP10), present.Hours(sp.TimeP90))
	if sp.ProbDeadline < 1 {
		text += fmt.Sprintf("; meets the deadline in %s of draws", present.Percent(sp.ProbDeadline))
	}
	return text
}

// cheapestOdds says how often the cheapest direction stays cheapest.
func cheapestOdds(r *model.Report) string {
	sp := spreadOf(r, r.Cheapest)
	if sp == nil {
		return ""
	}
	return fmt.Sprintf("cheapest in %s of draws", present.Percent(sp.ProbCheapest))
}

func spreadOf(r *model.Report, direction string) *model.DirectionSpread {
	if r.Uncertainty == nil {
		return nil
	}
	for i := range r.Uncertainty.Directions {
		if r.Uncertainty.Directions[i].Direction == direction {
			return &r.Uncertainty.Directions[i]
		}
	}
	return nil
}

// ruledOutText names the infeasible directions.
func ruledOutText(r *model.Report) string {
	var out []string
	for _, d := range r.Directions {
		if !d.Feasible {
			out = append(out, titleOf(d))
		}
	}
	if len(out) == 0 {
		return "None"
	}
	return strings.Join(out, ", ")
}

// minCompareColumn is the narrowest a scenario's column gets.
const minCompareColumn = 160
