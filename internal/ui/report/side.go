package report

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// sideRow is one row of scenarios side by side, in Compare and in Review:
// its heading and the cell of an evaluated scenario. A compact cell (in
// review mode, at a projector's text size) leaves out the captions the
// row can do without.
type sideRow struct {
	heading string
	cell    func(ev *Outcome, c sideCell) fyne.CanvasObject
	review  bool // a row of review mode too
}

// sideCell is how a cell is drawn: compact in review mode (at a
// projector's text size, without the captions a row can do without), and
// on the basis the scenarios side by side are compared on.
type sideCell struct {
	compact bool
	basis   *SideBasis
}

// SideBasis is what scenarios side by side are compared in: the first
// one's currency, the others' money converted into it at a rate their
// reports state, and, when their horizons differ, the shortest horizon,
// each cost also given over it.
type SideBasis struct {
	currency string
	months   int // the shortest horizon; 0 when they are all the same
	evs      []*Outcome
	horizons []int // the horizons, as many as differ, in order
}

// NewSideBasis is the basis of evs, in the order shown.
func NewSideBasis(evs []*Outcome) *SideBasis {
	b := &SideBasis{evs: evs}
	for _, ev := range evs {
		if b.currency == "" {
			b.currency = ev.Report.Currency
		}
		if h := ev.Report.HorizonMonths; h > 0 && !slices.Contains(b.horizons, h) {
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
func (b *SideBasis) rate(cur string) (model.ExchangeRate, bool) {
	for _, ev := range b.evs {
		for _, x := range ev.Report.ExchangeRates {
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
func (b *SideBasis) money(ev *Outcome, x float64) string {
	cur := ev.Report.Currency
	if b == nil || cur == b.currency || cur == "" {
		return present.Money(x, cur)
	}
	if r, ok := b.rate(cur); ok {
		return "≈ " + present.Money(x*r.Rate, b.currency)
	}
	return present.Money(x, cur)
}

// Note says what the comparison converts, and what it cannot.
func (b *SideBasis) Note() string {
	var parts []string
	var others, missing []string
	for _, ev := range b.evs {
		cur := ev.Report.Currency
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
			hs[i] = Whole(h)
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

// CompareRows are the row headings, in order.
var CompareRows = func() []string {
	out := make([]string, len(sideRows))
	for i, r := range sideRows {
		out[i] = r.heading
	}
	return out
}()

// CompareCells are the cells of an evaluated scenario, one per row of
// sideRows.
func CompareCells(ev *Outcome, basis *SideBasis) []fyne.CanvasObject {
	cells := make([]fyne.CanvasObject, len(sideRows))
	for i, row := range sideRows {
		cells[i] = row.cell(ev, sideCell{basis: basis})
	}
	return cells
}

// winner is ev's decision and the report's result of the direction it
// recommends (nil for none).
func (ev *Outcome) winner() (*decide.Decision, *model.DirectionResult) {
	d := ev.Decision
	if ev.DecideErr != nil {
		d = nil
	}
	if d == nil {
		return nil, nil
	}
	return d, ev.Report.Direction(d.Recommendation)
}

// scenarioCell is the scenario's name over its shape and horizon (not
// when compact).
func scenarioCell(ev *Outcome, c sideCell) fyne.CanvasObject {
	name := widgets.WrappedLabel(ReportTitle(ev.Scenario, ev.Report))
	name.TextStyle.Bold = true
	if c.compact {
		return name
	}
	facts := present.ShapeTitle(ev.Report.Shape)
	if h := ev.Report.HorizonMonths; h > 0 {
		facts += " · horizon " + present.Count(h, "month")
	}
	return widgets.Stack(name, widgets.Caption(facts))
}

// recommendedCell is the recommended direction with its score, or why
// there is none; compact, with the robustness badge beside it.
func recommendedCell(ev *Outcome, c sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	switch {
	case ev.DecideErr != nil || ev.Decision == nil:
		l := widgets.WrappedLabel(noRankingText(ev.DecideErr))
		l.Importance = widget.DangerImportance
		return l
	case win == nil:
		l := widgets.WrappedLabel("None: no direction is feasible")
		l.Importance = widget.DangerImportance
		return l
	}
	l := widget.NewLabel(TitleOf(*win))
	l.TextStyle.Bold = true
	l.SizeName = theme.SizeNameSubHeadingText
	l.Truncation = fyne.TextTruncateEllipsis
	if c.compact {
		// The badge beside the name when the column has room, under it
		// when not, inset like a label's text.
		b := NewBadge()
		b.Set(d)
		inner := theme.InnerPadding()
		return container.New(&widgets.FlowLayout{}, l, container.New(layout.NewCustomPaddedLayout(0, 0, inner, inner), container.NewCenter(b)))
	}
	return widgets.Stack(l, widgets.Caption("score "+present.Fixed(d.For(d.Recommendation).Total, 2)+" of 1"))
}

// costCell is the recommended direction's cost over the horizon and its
// P10–P90, on the comparison's basis: converted into its currency, and
// over its common horizon when the horizons differ.
func costCell(ev *Outcome, c sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	if win == nil {
		return widgets.WrappedLabel(NoValue)
	}
	parts := []fyne.CanvasObject{widgets.StrongLabel(present.Money(win.CostHorizon, ev.Report.Currency))}
	var lines []string
	if b := c.basis; b != nil {
		if cur := ev.Report.Currency; cur != b.currency && cur != "" {
			if _, ok := b.rate(cur); ok {
				lines = append(lines, b.money(ev, win.CostHorizon))
			}
		}
		if m := b.months; m > 0 && ev.Report.HorizonMonths != m && len(win.CumulativeByMonth) >= m {
			lines = append(lines, "first "+present.Count(m, "month")+": "+b.money(ev, win.CumulativeByMonth[m-1]))
		}
	}
	if len(lines) > 0 {
		l := widgets.WrappedLabel(strings.Join(lines, "\n"))
		l.TextStyle.Italic = true
		parts = append(parts, l)
	}
	return widgets.Stack(append(parts, widgets.Caption(costSpread(ev.Report, d.Recommendation)))...)
}

// timeCell is the recommended direction's time to result and its P10–P90.
func timeCell(ev *Outcome, _ sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	if win == nil {
		return widgets.WrappedLabel(NoValue)
	}
	return widgets.Stack(widgets.StrongLabel(present.Hours(win.TimeToResultHours)+" h per run"), widgets.Caption(timeSpread(ev.Report, d.Recommendation)))
}

// cheapestCell is the cheapest feasible direction and its cost, with how
// often it stays cheapest (not when compact).
func cheapestCell(ev *Outcome, c sideCell) fyne.CanvasObject {
	compact := c.compact
	r := ev.Report
	cheapest := r.Direction(r.Cheapest)
	if cheapest == nil {
		return widgets.WrappedLabel("None is feasible")
	}
	d, _ := ev.winner()
	text := fmt.Sprintf("%s, %s", TitleOf(*cheapest), present.Money(cheapest.CostHorizon, r.Currency))
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
func robustnessCell(ev *Outcome, _ sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	if win == nil {
		return widgets.WrappedLabel(NoValue)
	}
	b := NewBadge()
	b.Set(d)
	_, text := RobustnessParts(d)
	// Inset like a label's text, so the badge lines up with the words.
	inner, pad := theme.InnerPadding(), theme.Padding()
	badgeRow := container.New(layout.NewCustomPaddedLayout(inner, pad, inner, 0), container.NewHBox(b))
	return widgets.Stack(badgeRow, widgets.Caption(text))
}

// runnerUpCell is the direction ranked second and how far behind.
func runnerUpCell(ev *Outcome, _ sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	switch {
	case win == nil:
		return widgets.WrappedLabel(NoValue)
	case d.RunnerUp == nil:
		return widgets.WrappedLabel("None: the only feasible direction")
	}
	return widgets.WrappedLabel(DirectionName(d, d.RunnerUp.Direction) + ", " + present.Fixed(d.RunnerUp.Gap, 3) + " behind")
}

// ruledOutCell names the infeasible directions.
func ruledOutCell(ev *Outcome, _ sideCell) fyne.CanvasObject {
	return widgets.WrappedLabel(ruledOutText(ev.Report))
}

// trialCell is the first trial to ask for.
func trialCell(ev *Outcome, _ sideCell) fyne.CanvasObject {
	d, win := ev.winner()
	if win == nil || d.FirstTrial == nil {
		return widgets.WrappedLabel(NoValue)
	}
	return widgets.WrappedLabel(trialText(d.FirstTrial, ev.Report))
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
			out = append(out, TitleOf(d))
		}
	}
	if len(out) == 0 {
		return "None"
	}
	return strings.Join(out, ", ")
}
