package report

import (
	"fmt"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/decide"
	"hostplan/internal/document"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// minReviewColumn is the narrowest a scenario's column gets in review
// mode.
const minReviewColumn = 280

// ReviewGrid shows scenarios side by side at a projector's text size, a
// column each, review mode's rows of sideRows across them — the same
// cells as Compare's, without the captions they can do without — so that
// three fit a 1280 × 800 screen and two a 1024 × 768 one.
func ReviewGrid(evs []*Outcome) *fyne.Container {
	c := sideCell{compact: true, basis: NewSideBasis(evs)}
	var objects []fyne.CanvasObject
	rows := 0
	for _, row := range sideRows {
		if !row.review {
			continue
		}
		h := widget.NewLabel(row.heading)
		h.TextStyle.Bold = true
		objects = append(objects, h)
		for _, ev := range evs {
			objects = append(objects, row.cell(ev, c))
		}
		rows++
	}
	for range rows - 1 {
		objects = append(objects, widget.NewSeparator())
	}
	return container.New(widgets.NewFillGridLayout(len(evs)+1, 1, minReviewColumn), objects...)
}

// ReviewSheet is one scenario in review mode.
type ReviewSheet struct {
	Title    *widget.Label
	Facts    *widget.Label // a caption
	Headline *Headline
	Cheapest *widget.Label // body text
	Ranked   *fyne.Container
	Chart    *LineChart
	Content  fyne.CanvasObject
}

func NewReviewSheet(ev *Outcome) *ReviewSheet {
	r, d := ev.Report, ev.Decision
	if ev.DecideErr != nil {
		d = nil
	}
	s := &ReviewSheet{}
	s.Title = widget.NewLabel(ReportTitle(ev.Scenario, r))
	s.Title.SizeName = theme.SizeNameHeadingText
	s.Title.TextStyle.Bold = true
	s.Title.Wrapping = fyne.TextWrapWord
	s.Facts = widgets.Caption(ReportFacts(r))

	s.Headline = NewHeadline() // the window's header's
	s.Headline.Set(d)
	s.Cheapest = widgets.WrappedLabel(CheapestText(r, d))

	why := widget.NewRichText()
	why.Wrapping = fyne.TextWrapWord
	if d != nil {
		h, text, leads := whyParts(d)
		why.Segments = []widget.RichTextSegment{
			&widget.TextSegment{Style: widget.RichTextStyleStrong, Text: h},
			&widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: text},
		}
		why.Segments = append(why.Segments, bullets(leads)...)
	} else if ev.DecideErr != nil {
		why.Segments = []widget.RichTextSegment{&widget.TextSegment{Style: widget.RichTextStyleParagraph,
			Text: noRankingText(ev.DecideErr)}}
	}

	s.Ranked = rankedTable(r, d)
	s.Chart = costChart(r, d)

	risks := widget.NewRichText()
	risks.Wrapping = fyne.TextWrapWord
	risks.Segments = bullets(reviewRisks(r, d))

	questions := widget.NewRichText()
	questions.Wrapping = fyne.TextWrapWord
	questions.Segments = leadershipSegments(ev.Brief)

	left := container.New(&widgets.TightVBox{},
		s.Headline.Content(), s.Cheapest, why,
		widgets.SectionHeading("Directions, ranked"), s.Ranked,
		widgets.SectionHeading("Risks"), risks)
	right := container.New(&widgets.TightVBox{},
		widgets.SectionHeading("Cumulative cost over the horizon"), s.Chart,
		widgets.SectionHeading("Leadership questions"), questions)
	top := container.New(&widgets.TightVBox{}, s.Title, s.Facts, widget.NewSeparator())
	cols := &reviewColumns{wide: 1100}
	s.Content = container.NewBorder(top, nil, nil, nil, container.New(cols, left, right))
	return s
}

// rankedTable lists the feasible directions in the decision's order with
// their score and the P10–P90 of cost and time, then the ones ruled out,
// "—" in every figure; the recommended one in bold.
func rankedTable(r *model.Report, d *decide.Decision) *fyne.Container {
	cur := OrText(r.Currency, "cost")
	headings := []string{"#", "Direction", "Score", "Cost P10–P90\n(" + cur + ")", "Time P10–P90\n(h)"}
	g := container.New(widgets.NewNaturalGridLayout(len(headings)))
	for _, h := range headings {
		l := widget.NewLabel(h)
		l.TextStyle.Bold = true
		g.Add(l)
	}
	var order []string
	if d != nil {
		order = append(order, d.Ranking...)
	}
	for _, dr := range r.Directions {
		if !dr.Feasible || d == nil {
			if !containsString(order, dr.Direction) {
				order = append(order, dr.Direction)
			}
		}
	}
	// One unit (k or M) for the whole cost column.
	top := 0.0
	for _, dr := range r.Directions {
		if sp := spreadOf(r, dr.Direction); sp != nil && dr.Feasible {
			top = max(top, sp.CostP90)
		} else if dr.Feasible {
			top = max(top, dr.CostHorizon)
		}
	}
	rows := 0
	for i, name := range order {
		dr := r.Direction(name)
		if dr == nil {
			continue
		}
		rank, score := NoValue, NoValue
		if d != nil && dr.Feasible {
			if dd := d.For(name); dd != nil && dd.Rank > 0 {
				rank, score = fmt.Sprint(dd.Rank), present.Fixed(dd.Total, 2)
			}
		}
		if d == nil && dr.Feasible {
			rank = fmt.Sprint(i + 1)
		}
		direction := TitleOf(*dr)
		cost, time := NoValue, NoValue
		if dr.Feasible {
			cost, time = SpreadRange(r, dr, top)
		} else {
			direction += "\nruled out"
		}
		for col, text := range []string{rank, direction, score, cost, time} {
			l := widget.NewLabel(text)
			l.TextStyle.Bold = dr.Feasible && d != nil && name == d.Recommendation
			if col != 1 {
				l.Alignment = fyne.TextAlignTrailing
			}
			if col == 1 && !dr.Feasible {
				l.Importance = widget.DangerImportance
			}
			g.Add(l)
		}
		rows++
	}
	for range rows {
		g.Add(widget.NewSeparator())
	}
	return g
}

// SpreadRange is a feasible direction's P10–P90 of cost over the horizon
// (in the unit of top: "154–179 k") and of time to result, each with its
// point value under it ("likely 160,895"), or the point value alone when
// the report has no spread or both ends are written the same.
func SpreadRange(r *model.Report, d *model.DirectionResult, top float64) (cost, time string) {
	cost = present.Amount(d.CostHorizon)
	time = OrDash(d.TimeToResultHours == 0, present.Hours(d.TimeToResultHours))
	sp := spreadOf(r, d.Direction)
	if sp == nil {
		return cost, time
	}
	if rng := compactRange(sp.CostP10, sp.CostP90, top); !strings.Contains(rng, "–") {
		cost = rng
	} else {
		cost = rng + "\nlikely " + cost
	}
	if sp.TimeP90 != 0 {
		if rng := rangeText(present.Hours(sp.TimeP10), present.Hours(sp.TimeP90)); strings.Contains(rng, "–") {
			time = rng + "\nlikely " + time
		}
	}
	return cost, time
}

// compactRange is "1.1–1.41 M": both ends in the unit of top.
func compactRange(lo, hi, top float64) string {
	unit, div := compactUnit(top)
	return rangeText(present.Figure(lo/div), present.Figure(hi/div)) + unit
}

// rangeText is "a–b", or a alone when the two are written the same.
func rangeText(a, b string) string {
	if a == b {
		return a
	}
	return a + "–" + b
}

func compactUnit(x float64) (string, float64) {
	switch {
	case math.Abs(x) >= 1e6:
		return " M", 1e6
	case math.Abs(x) >= 1e4:
		return " k", 1e3
	}
	return "", 1
}

// costChart is the cumulative cost of each direction month by month: the
// feasible ones drawn, the recommended one on top, the ruled-out ones
// named in the legend.
func costChart(r *model.Report, d *decide.Decision) *LineChart {
	c := NewLineChart(ChartAxes{months: true, xTitle: "Month", yTitle: "Cumulative cost (" + OrText(r.Currency, "cost") + ")"})
	c.minSize = fyne.NewSize(420, 380)
	var series []ChartSeries
	highlight := -1
	for _, dr := range r.Directions {
		s := ChartSeries{name: TitleOf(dr), colour: colourOf(dr.Direction, !dr.Feasible), mark: directionMarks[dr.Direction], ruledOut: !dr.Feasible, sameAs: -1}
		if dr.Feasible && len(dr.CumulativeByMonth) > 0 {
			s.points = append(s.points, ChartPoint{x: 0, y: dr.OneOffCost, fits: true})
			for m, v := range dr.CumulativeByMonth {
				s.points = append(s.points, ChartPoint{x: float64(m + 1), y: v, fits: true})
			}
		} else if dr.Feasible {
			s.note = "no monthly costs"
		}
		if d != nil && dr.Direction == d.Recommendation {
			highlight = len(series)
		}
		series = append(series, s)
	}
	markSame(series)
	c.SetSeries(series)
	c.SetHighlight(highlight)
	return c
}

// reviewRisks are what could upset the recommendation: a fragile order,
// the chance of missing the deadline or the budget, an uncertain cheapest
// direction, a wide cost spread, and the report's warnings.
func reviewRisks(r *model.Report, d *decide.Decision) []string {
	var out []string
	if d == nil || d.Recommendation == "" {
		out = append(out, "No direction is feasible: nothing can run until a constraint is relaxed.")
		return append(out, model.NoteTexts(r.Warnings)...)
	}
	win := DirectionName(d, d.Recommendation)
	if d.Robustness.Fragile {
		out = append(out, "The order is fragile: "+d.Robustness.Summary)
	}
	if sp := spreadOf(r, d.Recommendation); sp != nil {
		if sp.ProbFeasible < 1 {
			out = append(out, fmt.Sprintf("%s meets every constraint in %s of the draws.", win, present.Percent(sp.ProbFeasible)))
		}
		if sp.ProbDeadline < 1 {
			out = append(out, fmt.Sprintf("%s meets the deadline in %s of the draws.", win, present.Percent(sp.ProbDeadline)))
		}
		if sp.ProbBudget < 1 {
			out = append(out, fmt.Sprintf("%s stays within the budget cap in %s of the draws.", win, present.Percent(sp.ProbBudget)))
		}
		if sp.CostP10 > 0 && sp.CostP90/sp.CostP10 > 1.5 {
			out = append(out, fmt.Sprintf("Its cost over the horizon is uncertain: %s to %s %s (P10–P90).",
				present.Amount(sp.CostP10), present.Amount(sp.CostP90), r.Currency))
		}
	}
	if sp := spreadOf(r, r.Cheapest); sp != nil && sp.ProbCheapest < 0.8 {
		c := present.DirectionTitle(r.Cheapest)
		if cd := r.Direction(r.Cheapest); cd != nil {
			c = TitleOf(*cd)
		}
		out = append(out, fmt.Sprintf("Which direction is cheapest is uncertain: %s is in only %s of the draws.", c, present.Percent(sp.ProbCheapest)))
	}
	out = append(out, model.NoteTexts(r.Warnings)...)
	if len(out) == 0 {
		out = append(out, "None stands out: the order survives a change of any weight, and the spread of cost and time stays within the constraints.")
	}
	return out
}

// leadershipSegments are the brief's leadership questions, each in bold
// with its answer under it, or why there are none.
func leadershipSegments(doc *document.Document) []widget.RichTextSegment {
	para := func(text string, strong bool) widget.RichTextSegment {
		st := widget.RichTextStyleParagraph
		if strong {
			st = widget.RichTextStyleStrong
			st.Inline = false
		}
		return &widget.TextSegment{Style: st, Text: text}
	}
	if doc == nil {
		return []widget.RichTextSegment{para("The brief needs more of the scenario's fields before it answers the leadership questions (see the Brief tab).", false)}
	}
	var out []widget.RichTextSegment
	for _, sec := range doc.Sections {
		if sec.Title != "Leadership questions" {
			continue
		}
		for _, bl := range sec.Blocks {
			par, ok := bl.(*document.Paragraph)
			if !ok || len(par.Lines) == 0 {
				continue
			}
			out = append(out, para(par.Lines[0].String(), true))
			var answer []string
			for _, l := range par.Lines[1:] {
				answer = append(answer, l.String())
			}
			out = append(out, para(strings.Join(answer, " "), false))
		}
	}
	if len(out) == 0 {
		return []widget.RichTextSegment{para("The brief has no leadership questions.", false)}
	}
	return out
}

// bullets are items as paragraphs starting with a bullet. Unlike the
// items of a widget.ListSegment, which take the application's theme,
// they take review mode's (the text segments a RichText holds itself
// follow the theme over it; those nested in a list do not).
func bullets(items []string) []widget.RichTextSegment {
	out := make([]widget.RichTextSegment, len(items))
	for i, text := range items {
		out[i] = &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: "•  " + text}
	}
	return out
}

func containsString(xs []string, x string) bool {
	for _, s := range xs {
		if s == x {
			return true
		}
	}
	return false
}

// reviewColumns puts its two objects side by side, halves of the width,
// when the width reaches wide, and one under the other below it; each
// part is as tall as it needs at its width.
type reviewColumns struct {
	wide  float32
	width float32 // the width last laid out at; 0 before the first layout
}

func (c *reviewColumns) gap() float32 { return 4 * theme.Padding() }

func (c *reviewColumns) MinSize(objects []fyne.CanvasObject) fyne.Size {
	a, b := objects[0].MinSize(), objects[1].MinSize()
	if c.width >= c.wide {
		return fyne.NewSize(a.Width+b.Width+c.gap(), max(a.Height, b.Height))
	}
	return fyne.NewSize(max(a.Width, b.Width), a.Height+b.Height+c.gap())
}

func (c *reviewColumns) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	c.width = size.Width
	a, b := objects[0], objects[1]
	if size.Width >= c.wide {
		w := (size.Width - c.gap()) / 2
		for i, o := range []fyne.CanvasObject{a, b} {
			o.Resize(fyne.NewSize(w, o.Size().Height)) // width first: wrapped text
			o.Move(fyne.NewPos(float32(i)*(w+c.gap()), 0))
			o.Resize(fyne.NewSize(w, o.MinSize().Height))
		}
		return
	}
	y := float32(0)
	for _, o := range []fyne.CanvasObject{a, b} {
		o.Resize(fyne.NewSize(size.Width, o.Size().Height))
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, o.MinSize().Height))
		y += o.Size().Height + c.gap()
	}
}
