package report

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
)

// DecisionSegments is the panel's text: why the winner wins, the
// runner-up, robustness and the first trial, each a paragraph with a bold
// lead-in.
func DecisionSegments(r *model.Report, d *decide.Decision) []widget.RichTextSegment {
	var segs []widget.RichTextSegment
	para := func(head, text string) {
		segs = append(segs,
			&widget.TextSegment{Style: widget.RichTextStyleStrong, Text: head},
			&widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: text})
	}
	head, text, leads := whyParts(d)
	para(head, text)
	if len(leads) > 0 {
		list := &widget.ListSegment{}
		for _, l := range leads {
			list.Items = append(list.Items, &widget.TextSegment{Style: widget.RichTextStyleParagraph, Text: l})
		}
		segs = append(segs, list)
	}
	if d.RunnerUp != nil {
		para("Runner-up: ", d.RunnerUp.Summary)
	}
	if d.Recommendation != "" {
		head, text := RobustnessParts(d)
		para(head, text)
	}
	if d.FirstTrial != nil {
		para("First trial: ", trialText(d.FirstTrial, r))
	}
	return segs
}

// HeadlineText is "Recommended: Hybrid", or says that nothing is.
func HeadlineText(d *decide.Decision) string {
	if d.Recommendation == "" {
		return "No direction is feasible"
	}
	return "Recommended: " + DirectionName(d, d.Recommendation)
}

// noRankingText says why the directions could not be ranked: decide's
// error, without its package's prefix (the panel and Compare's cell say
// it alike).
func noRankingText(err error) string {
	if err == nil {
		return "Could not rank the directions"
	}
	return "Could not rank the directions: " + strings.TrimPrefix(err.Error(), "decide: ")
}

// ScoreText lists the ranked directions with their weighted scores.
func ScoreText(d *decide.Decision) string {
	if d.Recommendation == "" {
		return ""
	}
	parts := make([]string, 0, len(d.Ranking))
	for _, name := range d.Ranking {
		if dd := d.For(name); dd != nil {
			parts = append(parts, DirectionName(d, name)+" "+present.Fixed(dd.Total, 2))
		}
	}
	return "Scores (of 1): " + strings.Join(parts, " · ")
}

// whyParts is why the winner wins: a heading, a sentence, and one line per
// dimension on which it leads the runner-up, largest lead first; without a
// runner-up to lead, the decision's own sentence.
func whyParts(d *decide.Decision) (head, text string, leads []string) {
	if d.Recommendation == "" {
		return "Why: ", d.Summary, nil
	}
	win := DirectionName(d, d.Recommendation)
	if len(d.WhyWinner) == 0 || d.RunnerUp == nil {
		return "Why " + win + ": ", d.Why, nil
	}
	run := DirectionName(d, d.RunnerUp.Direction)
	text = "it leads " + run + " by " + present.Fixed(d.RunnerUp.Gap, 3) + " of 1, gained on"
	for _, l := range d.WhyWinner {
		leads = append(leads, present.DimensionTitle(l.Dimension)+": "+present.Fixed(l.Winner, 2)+" against "+present.Fixed(l.RunnerUp, 2)+
			" at weight "+present.Fixed(l.Weight, 2)+" (+"+present.Fixed(l.Lead, 3)+")")
	}
	return "Why " + win + ": ", text, leads
}

// standing is how firmly the recommendation leads.
type standing int

const (
	leadRobust  standing = iota // it survives the robustness check by a clear lead, or stands alone
	leadClose                   // it survives the check by less than decide.CloseLead
	leadFragile                 // some check reorders the first two
)

// standingOf is how firmly d's recommendation leads.
func standingOf(d *decide.Decision) standing {
	switch {
	case d.Robustness.Verdict == decide.Fragile:
		return leadFragile
	case d.Robustness.Verdict == decide.Close:
		return leadClose
	}
	return leadRobust
}

// RobustnessParts is the verdict as a lead-in and what the checks found:
// the weights whose change by the decision's perturbation reorders the
// first two, or that none does (decide's words: a lead that survives them
// by less than decide.CloseLead is called close there).
func RobustnessParts(d *decide.Decision) (head, text string) {
	rb := d.Robustness
	head = rb.Verdict.Label()
	if head != "" {
		head += ": "
	}
	if standingOf(d) == leadFragile {
		return head, "the order changes if one weight moves by " + present.Percent(rb.Perturbation) + ": " + rb.Summary
	}
	return head, rb.Summary
}

// trialText is the first trial in one sentence.
func trialText(t *decide.Trial, r *model.Report) string {
	if t == nil {
		return NoValue
	}
	where := present.DirectionTitle(t.Direction)
	if r != nil {
		if d := r.Direction(t.Direction); d != nil {
			where = TitleOf(*d)
		}
	}
	if t.GPU == "" {
		return fmt.Sprintf("about %s h of representative requests through %s, no GPUs reserved.", present.Figure(t.Hours), where)
	}
	counts := make([]string, len(t.GPUCounts))
	for i, n := range t.GPUCounts {
		counts[i] = fmt.Sprint(n)
	}
	text := fmt.Sprintf("%s on %s", present.GPUs(t.GPU, max(t.GPUs, maxInt(t.GPUCounts))), where)
	if len(counts) > 1 {
		text += ", throughput measured at " + strings.Join(counts, ", ") + " GPUs"
	}
	text += fmt.Sprintf(", about %s h and %s GPU-hours", present.Figure(t.Hours), present.Figure(t.GPUHours))
	if t.ShareOfRun > 0 {
		text += fmt.Sprintf(" (%s of one full run)", present.Share(t.ShareOfRun))
	}
	return text + "."
}

func maxInt(xs []int) int {
	m := 0
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}

// DirectionName is a direction's title as the decision gives it.
func DirectionName(d *decide.Decision, direction string) string {
	if dd := d.For(direction); dd != nil && dd.Title != "" {
		return dd.Title
	}
	return present.DirectionTitle(direction)
}

// Badge is a small coloured label: FRAGILE and the weight changes that
// flip the order on the warning colour, ROBUST on the success colour. The
// words carry the meaning, the colour only repeats it.
type Badge struct {
	widget.BaseWidget
	standing standing
	lead     float64  // the lead over the runner-up, of 1
	flips    []string // e.g. "economics -20 %"
}

func NewBadge() *Badge {
	b := &Badge{}
	b.ExtendBaseWidget(b)
	return b
}

// Set shows how firmly d's recommendation leads.
func (b *Badge) Set(d *decide.Decision) {
	b.standing, b.flips, b.lead = standingOf(d), d.Robustness.FlippedBy, 0
	if d.RunnerUp != nil {
		b.lead = d.RunnerUp.Gap
	}
	b.Refresh()
}

// Text is what the badge says: "FRAGILE · economics -20 %", "CLOSE · lead
// 0.016" or "ROBUST".
func (b *Badge) Text() string {
	switch {
	case b.standing == leadRobust:
		return "ROBUST"
	case b.standing == leadClose:
		return "CLOSE · lead " + present.Fixed(b.lead, 3)
	case len(b.flips) == 0:
		return "FRAGILE"
	case len(b.flips) > 2:
		return "FRAGILE · " + strings.Join(b.flips[:2], ", ") + " and " + Whole(len(b.flips)-2) + " more"
	}
	return "FRAGILE · " + strings.Join(b.flips, ", ")
}

// CreateRenderer implements fyne.Widget.
func (b *Badge) CreateRenderer() fyne.WidgetRenderer {
	r := &badgeRenderer{b: b, bg: canvas.NewRectangle(nil), label: canvas.NewText("", nil)}
	r.label.TextStyle.Bold = true
	r.Refresh()
	return r
}

type badgeRenderer struct {
	b     *Badge
	bg    *canvas.Rectangle
	label *canvas.Text
}

func (r *badgeRenderer) padding() fyne.Size {
	pad := r.b.Theme().Size(theme.SizeNamePadding)
	return fyne.NewSize(2*pad, pad/2)
}

func (r *badgeRenderer) MinSize() fyne.Size {
	m := fyne.MeasureText(r.label.Text, r.label.TextSize, r.label.TextStyle)
	p := r.padding()
	return fyne.NewSize(m.Width+2*p.Width, m.Height+2*p.Height)
}

func (r *badgeRenderer) Layout(size fyne.Size) {
	r.bg.Resize(size)
	p := r.padding()
	r.label.Move(fyne.NewPos(p.Width, p.Height))
	r.label.Resize(fyne.NewSize(size.Width-2*p.Width, size.Height-2*p.Height))
}

func (r *badgeRenderer) Refresh() {
	th := r.b.Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	fill, text := theme.ColorNameSuccess, theme.ColorNameForegroundOnSuccess
	if r.b.standing != leadRobust {
		fill, text = theme.ColorNameWarning, theme.ColorNameForegroundOnWarning
	}
	r.bg.FillColor = th.Color(fill, v)
	r.bg.CornerRadius = th.Size(theme.SizeNameInputRadius)
	r.label.Text = r.b.Text()
	r.label.Color = th.Color(text, v)
	r.label.TextSize = th.Size(theme.SizeNameCaptionText) + 1
	r.label.Alignment = fyne.TextAlignCenter
	r.bg.Refresh()
	r.label.Refresh()
}

func (r *badgeRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.bg, r.label} }

func (r *badgeRenderer) Destroy() {}

// QuestionRow is one direction's first infrastructure question.
type QuestionRow struct {
	Direction   string
	Bottleneck  string // the likely bottleneck, or "ruled out"
	Question    string
	Recommended bool
	RuledOut    bool
}

// QuestionRows lists each direction's first question in the report's
// order: a feasible direction's bottleneck question, or the question the
// constraint that rules it out raises.
func QuestionRows(d *decide.Decision) []QuestionRow {
	rows := make([]QuestionRow, 0, len(d.Directions))
	for _, dd := range d.Directions {
		row := QuestionRow{
			Direction:   OrText(dd.Title, present.DirectionTitle(dd.Direction)),
			Bottleneck:  present.Sentence(dd.Bottleneck),
			Question:    OrText(dd.Question, NoValue),
			Recommended: dd.Direction == d.Recommendation,
			RuledOut:    !dd.Feasible,
		}
		if !dd.Feasible {
			row.Bottleneck = "Ruled out"
		}
		rows = append(rows, row)
	}
	return rows
}
