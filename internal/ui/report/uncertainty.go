package report

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// noUncertainty explains an empty Uncertainty tab.
const noUncertainty = "This report has no Monte Carlo spread: it was evaluated with the likely value of every estimate only."

// Uncertainty is the Uncertainty tab: the Monte Carlo spread of cost and
// time per direction with the probabilities that matter to a decision, the
// inputs that were sampled, and the tornado of one direction's cost. It is
// made once and refilled with each report (Set).
type Uncertainty struct {
	empty  *widget.Label // noUncertainty, shown instead of everything else
	about  *widget.Label // draws, distribution, seed
	spread *widgets.Grid
	legend *widget.Label // what the columns mean
	none   *widget.Label // how often nothing is feasible
	inputs *widget.Label // the sampled estimates with their ranges

	tornadoTitle *widget.Label
	tornadoNote  *widget.Label
	tornado      *TornadoChart
	noTornado    *widget.Label

	withSpread []fyne.CanvasObject // hidden when the report has no Uncertainty
	withBars   []fyne.CanvasObject // hidden when the tornado has no bars
	report     *model.Report       // the report shown
	highlight  string              // the direction whose row is in bold
	stale      bool                // rows changed while the tab was hidden
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

// NewUncertainty makes the tab, empty until Set.
func NewUncertainty() *Uncertainty {
	v := &Uncertainty{}
	wrapped := func() *widget.Label {
		l := widget.NewLabel("")
		l.Wrapping = fyne.TextWrapWord
		return l
	}
	v.empty = wrapped()
	v.empty.SetText(noUncertainty)
	v.about = wrapped()
	v.spread = widgets.NewGrid(spreadHeadings[:], spreadAlign())
	v.legend = wrapped()
	v.legend.SizeName = theme.SizeNameCaptionText
	v.none = wrapped()
	v.inputs = wrapped()

	v.tornadoTitle = widgets.SectionHeading("")
	v.tornadoTitle.Wrapping = fyne.TextWrapWord
	v.tornadoNote = wrapped()
	v.tornadoNote.SizeName = theme.SizeNameCaptionText
	v.tornadoNote.SetText("Each bar moves one estimate to the low and the high end of its range, the others held at their likely values; the largest swing is on top.")
	v.tornado = NewTornadoChart()
	v.noTornado = wrapped()

	v.withSpread = []fyne.CanvasObject{
		widgets.SectionHeading("Spread over the draws"), v.about, v.spread.Box, v.legend, v.none,
		widgets.SectionHeading("Sampled inputs"), v.inputs,
		v.tornadoTitle, v.tornadoNote, v.tornado, v.noTornado,
	}
	v.withBars = []fyne.CanvasObject{v.tornadoNote, v.tornado}
	parts := append([]fyne.CanvasObject{v.empty}, v.withSpread...)
	_, v.scroll, v.content = widgets.ScrolledPage(parts...)
	return v
}

// Content is the tab: the page in its scroll.
func (v *Uncertainty) Content() fyne.CanvasObject { return v.content }

// Scroll is the tab's scroll, which the window keeps where it was across
// a refill.
func (v *Uncertainty) Scroll() *container.Scroll { return v.scroll }

// Set shows the spread and tornado of report r, evaluated from s (which
// gives the ranges of the sampled inputs; it may be nil), the row of
// direction highlight in bold.
func (v *Uncertainty) Set(s *scenario.Scenario, r *model.Report, highlight string) {
	v.report, v.highlight = r, highlight
	u := r.Uncertainty
	widgets.SetText(v.empty, noUncertainty)
	widgets.ShowIf(v.empty, u == nil)
	widgets.ShowAll(v.withSpread, u != nil)
	if u != nil {
		widgets.SetText(v.about, aboutText(u))
		headings := spreadHeadings
		for _, c := range []int{spCostP10, spCostP50, spCostP90} {
			headings[c] += "\n(" + OrText(r.Currency, "cost") + ")"
		}
		v.spread.Headings = headings[:]
		v.spread.Set(spreadRows(r, highlight))
		widgets.SetText(v.legend, spreadLegend(r))
		widgets.SetText(v.none, noneFeasibleText(u))
		widgets.ShowIf(v.none, u.ProbNoneFeasible > 0)
		widgets.SetText(v.inputs, sampledInputsText(s, u))

		t := r.Tornado
		widgets.SetText(v.tornadoTitle, tornadoTitle(r))
		v.tornado.Set(t, r.Currency)
		bars := t != nil && len(t.Bars) > 0
		widgets.ShowAll(v.withBars, bars)
		widgets.ShowIf(v.noTornado, !bars)
		no := "No estimate moves this figure: every input is known, so there is nothing to swing."
		if t == nil {
			no = "This report has no sensitivity analysis."
		}
		widgets.SetText(v.noTornado, no)
	}
	v.scroll.Offset = fyne.Position{}
	widgets.Refit(v.scroll)
}

// Drawing says that the spread of the report on show is being drawn (the
// window evaluates it after the report itself).
func (v *Uncertainty) Drawing() {
	v.report = nil
	widgets.SetText(v.empty, drawingSpread)
	widgets.ShowIf(v.empty, true)
	widgets.ShowAll(v.withSpread, false)
	widgets.Refit(v.scroll)
}

// drawingSpread is what the tab says until the spread lands.
const drawingSpread = "Drawing the Monte Carlo spread of these inputs…"

// SetHighlight puts the row of direction highlight (the recommended one)
// in bold.
func (v *Uncertainty) SetHighlight(highlight string) {
	v.highlight = highlight
	if v.report == nil || v.report.Uncertainty == nil {
		return
	}
	v.spread.Set(spreadRows(v.report, highlight))
	v.stale = !v.content.Visible() // laying out a hidden tab is wasted: do it when shown
	if !v.stale {
		widgets.Refit(v.scroll)
	}
}

// Shown lays the tab out again if its rows changed while it was hidden;
// the window calls it when the tab is chosen.
func (v *Uncertainty) Shown() {
	if v.stale {
		v.stale = false
		widgets.Refit(v.scroll)
	}
}

// Message is the line the tab shows in place of the spread — that the
// report has none, or that it is being drawn — and "" while it shows the
// spread.
func (v *Uncertainty) Message() string {
	if !v.empty.Visible() {
		return ""
	}
	return v.empty.Text
}

// Spread is the table of the spread, one row per direction.
func (v *Uncertainty) Spread() *widgets.Grid { return v.spread }

// aboutText is the line on how the spread was made.
func aboutText(u *model.Uncertainty) string {
	text := fmt.Sprintf("%s draws from %s distributions, seed %d: the same scenario and seed give the same numbers.",
		present.Number(float64(u.Draws)), OrText(u.Distribution, "triangular"), u.Seed)
	if len(u.Inputs) == 0 {
		text += " No input is an estimate, so every draw is the same; give ranges (low, likely, high) to see a spread."
	}
	return text
}

// spreadRows is one row per direction, in the report's order, the
// highlighted direction in bold. A direction the report rules out has
// "—" in every column but its chance of being feasible, which says how
// often it would be in (and "—" there too when it never is).
func spreadRows(r *model.Report, highlight string) []widgets.GridRow {
	u := r.Uncertainty
	rows := make([]widgets.GridRow, 0, len(u.Directions))
	for _, sp := range u.Directions {
		title := present.DirectionTitle(sp.Direction)
		ruledOut := false
		if d := r.Direction(sp.Direction); d != nil {
			title = TitleOf(*d)
			ruledOut = !d.Feasible
		}
		cells := make([]string, numSpreadColumns)
		cells[spDirection] = title
		out := ruledOut || sp.ProbFeasible == 0 // the figures of a direction ruled out would not happen
		cells[spCostP10] = OrDash(out, present.Money(sp.CostP10, ""))
		cells[spCostP50] = OrDash(out, present.Money(sp.CostP50, ""))
		cells[spCostP90] = OrDash(out, present.Money(sp.CostP90, ""))
		cells[spTimeP10] = OrDash(out || sp.TimeP10 == 0, present.Hours(sp.TimeP10))
		cells[spTimeP50] = OrDash(out || sp.TimeP50 == 0, present.Hours(sp.TimeP50))
		cells[spTimeP90] = OrDash(out || sp.TimeP90 == 0, present.Hours(sp.TimeP90))
		cells[spCheapest] = OrDash(out, present.Percent(sp.ProbCheapest))
		cells[spFeasible] = OrDash(sp.ProbFeasible == 0, present.Percent(sp.ProbFeasible))
		cells[spDeadline] = OrDash(out, present.Percent(sp.ProbDeadline))
		cells[spBudget] = OrDash(out, present.Percent(sp.ProbBudget))
		row := widgets.GridRow{Cells: cells, Bold: !out && sp.Direction == highlight, Danger: -1}
		if out {
			cells[spDirection] = title + " (ruled out)"
			row.Danger = spDirection
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
		title = TitleOf(*d)
	}
	return fmt.Sprintf("Sensitivity of %s's %s (base %s)", title, metric, present.Money(t.Base, r.Currency))
}
