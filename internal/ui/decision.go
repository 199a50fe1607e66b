package ui

import (
	"fmt"
	"strings"

	"hostplan/internal/ui/widgets"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
)

// decisionPanel sits above the report table: the recommended direction and
// why, what would have to change for the runner-up, whether the order
// survives a ±20 % change of any weight and the first trial; each
// direction's first infrastructure question comes under the table
// (after), so that the table shows on a laptop's screen.
type decisionPanel struct {
	headline  *widget.Label // "Recommended: Hybrid"; shown in the window's header (head)
	scores    *widget.Label // the ranked directions' scores
	badge     *badge        // FRAGILE or ROBUST
	body      *widget.RichText
	questions *fyne.Container // direction, bottleneck and first question, one row each
	qLabels   []*widget.Label // its cells, kept across sets
	qRules    []*widget.Separator
	failure   *widget.Label // why there is no decision
	// head is the headline with its badge: the one headline of the
	// window, which the header shows above every tab.
	head    fyne.CanvasObject
	content fyne.CanvasObject
	after   fyne.CanvasObject // the questions, for under the report table
}

func newDecisionPanel() *decisionPanel {
	p := &decisionPanel{}
	p.headline = widget.NewLabel("")
	p.headline.TextStyle.Bold = true
	p.headline.SizeName = theme.SizeNameSubHeadingText
	p.scores = widget.NewLabel("")
	p.scores.Truncation = fyne.TextTruncateEllipsis
	p.badge = newBadge()
	p.body = widget.NewRichText()
	p.body.Wrapping = fyne.TextWrapWord
	p.questions = container.New(widgets.NewStackingGridLayout(len(questionColumns), len(questionColumns)-1, 240))
	p.failure = widget.NewLabel("")
	p.failure.Wrapping = fyne.TextWrapWord
	p.failure.Importance = widget.DangerImportance

	p.head = container.NewHBox(p.headline, container.NewCenter(p.badge))
	p.content = container.New(&widgets.TightVBox{}, p.scores, p.failure, p.body)
	p.after = container.New(&widgets.TightVBox{}, widget.NewSeparator(), p.questions)
	return p
}

// set shows decision d of report r, or err when there is no decision. The
// page holding the panel must be refreshed after it, as its height changes.
func (p *decisionPanel) set(r *model.Report, d *decide.Decision, err error) {
	if err != nil || d == nil {
		if err == nil {
			err = fmt.Errorf("no decision was made")
		}
		widgets.SetText(p.headline, "No recommendation")
		widgets.SetText(p.scores, "")
		p.badge.Hide()
		widgets.SetText(p.failure, "Could not rank the directions: "+strings.TrimPrefix(err.Error(), "decide: "))
		p.failure.Show()
		p.body.Segments = nil
		p.body.Hide()
		p.questions.Hide()
		return
	}
	p.failure.Hide()
	widgets.SetText(p.headline, headlineText(d))
	widgets.SetText(p.scores, scoreText(d))
	if d.Recommendation == "" {
		p.badge.Hide()
	} else {
		p.badge.set(d)
		p.badge.Show()
	}
	widgets.SetSegments(p.body, decisionSegments(r, d))
	p.body.Show()
	p.setQuestions(questionRows(d))
	p.questions.Show()
}

// questionColumns are the headings of the questions table.
var questionColumns = []string{"Direction", "Likely bottleneck", "First infrastructure question"}

// setQuestions fills the questions table, the recommended direction in
// bold; its labels are kept, and one that stays the same is not measured
// again.
func (p *decisionPanel) setQuestions(rows []questionRow) {
	cols := len(questionColumns)
	n := (len(rows) + 1) * cols
	for len(p.qLabels) < n {
		l := widget.NewLabel("")
		if len(p.qLabels)%cols == cols-1 {
			l.Wrapping = fyne.TextWrapWord
		}
		p.qLabels = append(p.qLabels, l)
	}
	for len(p.qRules) < len(rows) {
		p.qRules = append(p.qRules, widget.NewSeparator())
	}
	for col, h := range questionColumns {
		widgets.SetLabel(p.qLabels[col], h, true, widget.MediumImportance)
	}
	for r, q := range rows {
		for col, text := range []string{q.direction, q.bottleneck, q.question} {
			imp := widget.MediumImportance
			if col == 1 && q.ruledOut {
				imp = widget.DangerImportance
			}
			widgets.SetLabel(p.qLabels[(r+1)*cols+col], text, q.recommended, imp)
		}
	}
	objects := make([]fyne.CanvasObject, 0, n+len(rows))
	for _, l := range p.qLabels[:n] {
		objects = append(objects, l)
	}
	for _, r := range p.qRules[:len(rows)] {
		objects = append(objects, r)
	}
	p.questions.Objects = objects
	widgets.Relayout(p.questions)
}

// decisionSegments is the panel's text: why the winner wins, the
// runner-up, robustness and the first trial, each a paragraph with a bold
// lead-in.
func decisionSegments(r *model.Report, d *decide.Decision) []widget.RichTextSegment {
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
		head, text := robustnessParts(d)
		para(head, text)
	}
	if d.FirstTrial != nil {
		para("First trial: ", trialText(d.FirstTrial, r))
	}
	return segs
}

// headlineText is "Recommended: Hybrid", or says that nothing is.
func headlineText(d *decide.Decision) string {
	if d.Recommendation == "" {
		return "No direction is feasible"
	}
	return "Recommended: " + directionName(d, d.Recommendation)
}

// scoreText lists the ranked directions with their weighted scores.
func scoreText(d *decide.Decision) string {
	if d.Recommendation == "" {
		return ""
	}
	parts := make([]string, 0, len(d.Ranking))
	for _, name := range d.Ranking {
		if dd := d.For(name); dd != nil {
			parts = append(parts, directionName(d, name)+" "+present.Fixed(dd.Total, 2))
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
	win := directionName(d, d.Recommendation)
	if len(d.WhyWinner) == 0 || d.RunnerUp == nil {
		return "Why " + win + ": ", d.Why, nil
	}
	run := directionName(d, d.RunnerUp.Direction)
	text = "it leads " + run + " by " + present.Fixed(d.RunnerUp.Gap, 3) + " of 1, gained on"
	for _, l := range d.WhyWinner {
		leads = append(leads, present.DimensionTitle(l.Dimension)+": "+present.Fixed(l.Winner, 2)+" against "+present.Fixed(l.RunnerUp, 2)+
			" at weight "+present.Fixed(l.Weight, 2)+" (+"+present.Fixed(l.Lead, 3)+")")
	}
	return "Why " + win + ": ", text, leads
}

// closeLead is the lead, in weighted score out of 1, below which the
// window calls a recommendation close rather than robust even when it
// survives decide's robustness check (no single weight moved by ±20 %
// reorders the first two): a lead of 0.016 of 1 turns on small
// differences in the dimensions' scores, which are judgements, however
// the weights move.
const closeLead = 0.05

// standing is how firmly the recommendation leads.
type standing int

const (
	leadRobust  standing = iota // it survives the robustness check by a clear lead, or stands alone
	leadClose                   // it survives the check by less than closeLead
	leadFragile                 // some check reorders the first two
)

// standingOf is how firmly d's recommendation leads.
func standingOf(d *decide.Decision) standing {
	switch {
	case d.Robustness.Verdict == decide.Fragile:
		return leadFragile
	case d.RunnerUp != nil && d.RunnerUp.Gap < closeLead:
		return leadClose
	}
	return leadRobust
}

// robustnessParts is the verdict as a lead-in and what the checks found:
// the weights whose change by the decision's perturbation reorders the
// first two, or that none does; a lead that survives them by less than
// closeLead is called close.
func robustnessParts(d *decide.Decision) (head, text string) {
	rb := d.Robustness
	head = rb.Verdict.Label()
	if head != "" {
		head += ": "
	}
	switch standingOf(d) {
	case leadFragile:
		return head, "the order changes if one weight moves by " + present.Percent(rb.Perturbation) + ": " + rb.Summary
	case leadClose:
		return "Close: ", "the lead is only " + present.Fixed(d.RunnerUp.Gap, 3) + " of 1 over " + directionName(d, d.RunnerUp.Direction) +
			"; no single weight moved by " + present.Percent(rb.Perturbation) + " reorders them, but a lead this small turns on small differences in the scores."
	}
	return head, rb.Summary
}

// trialText is the first trial in one sentence.
func trialText(t *decide.Trial, r *model.Report) string {
	if t == nil {
		return noValue
	}
	where := present.DirectionTitle(t.Direction)
	if r != nil {
		if d := r.Direction(t.Direction); d != nil {
			where = titleOf(*d)
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

// questionRow is one direction's first infrastructure question.
type questionRow struct {
	direction   string
	bottleneck  string // the likely bottleneck, or "ruled out"
	question    string
	recommended bool
	ruledOut    bool
}

// questionRows lists each direction's first question in the report's
// order: a feasible direction's bottleneck question, or the question the
// constraint that rules it out raises.
func questionRows(d *decide.Decision) []questionRow {
	rows := make([]questionRow, 0, len(d.Directions))
	for _, dd := range d.Directions {
		row := questionRow{
			direction:   orText(dd.Title, present.DirectionTitle(dd.Direction)),
			bottleneck:  present.Sentence(dd.Bottleneck),
			question:    orText(dd.Question, noValue),
			recommended: dd.Direction == d.Recommendation,
			ruledOut:    !dd.Feasible,
		}
		if !dd.Feasible {
			row.bottleneck = "Ruled out"
		}
		rows = append(rows, row)
	}
	return rows
}

// directionName is a direction's title as the decision gives it.
func directionName(d *decide.Decision, direction string) string {
	if dd := d.For(direction); dd != nil && dd.Title != "" {
		return dd.Title
	}
	return present.DirectionTitle(direction)
}

// badge is a small coloured label: FRAGILE and the weight changes that
// flip the order on the warning colour, ROBUST on the success colour. The
// words carry the meaning, the colour only repeats it.
type badge struct {
	widget.BaseWidget
	standing standing
	lead     float64  // the lead over the runner-up, of 1
	flips    []string // e.g. "economics -20 %"
}

func newBadge() *badge {
	b := &badge{}
	b.ExtendBaseWidget(b)
	return b
}

// set shows how firmly d's recommendation leads.
func (b *badge) set(d *decide.Decision) {
	b.standing, b.flips, b.lead = standingOf(d), d.Robustness.FlippedBy, 0
	if d.RunnerUp != nil {
		b.lead = d.RunnerUp.Gap
	}
	b.Refresh()
}

// text is what the badge says: "FRAGILE · economics -20 %", "CLOSE · lead
// 0.016" or "ROBUST".
func (b *badge) text() string {
	switch {
	case b.standing == leadRobust:
		return "ROBUST"
	case b.standing == leadClose:
		return "CLOSE · lead " + present.Fixed(b.lead, 3)
	case len(b.flips) == 0:
		return "FRAGILE"
	case len(b.flips) > 2:
		return "FRAGILE · " + strings.Join(b.flips[:2], ", ") + " and " + whole(len(b.flips)-2) + " more"
	}
	return "FRAGILE · " + strings.Join(b.flips, ", ")
}

// CreateRenderer implements fyne.Widget.
func (b *badge) CreateRenderer() fyne.WidgetRenderer {
	r := &badgeRenderer{b: b, bg: canvas.NewRectangle(nil), label: canvas.NewText("", nil)}
	r.label.TextStyle.Bold = true
	r.Refresh()
	return r
}

type badgeRenderer struct {
	b     *badge
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
	r.label.Text = r.b.text()
	r.label.Color = th.Color(text, v)
	r.label.TextSize = th.Size(theme.SizeNameCaptionText) + 1
	r.label.Alignment = fyne.TextAlignCenter
	r.bg.Refresh()
	r.label.Refresh()
}

func (r *badgeRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.bg, r.label} }
func (r *badgeRenderer) Destroy()                     {}
