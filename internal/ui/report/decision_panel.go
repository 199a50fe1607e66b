package report

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/ui/widgets"
)

// DecisionPanel is the decision on the Report tab, above the report
// table: the recommended direction and why, what would have to change for
// the runner-up, whether the order survives a ±20 % change of any weight
// and the first trial; each direction's first infrastructure question
// comes under the table (After), so that the table shows on a laptop's
// screen. Its headline (Head) is the window's one headline, in the header
// above every tab.
type DecisionPanel struct {
	headline  *Headline     // "Recommended: Hybrid" and its badge
	scores    *widget.Label // the ranked directions' scores
	body      *widget.RichText
	questions *fyne.Container // direction, bottleneck and first question, one row each
	qLabels   []*widget.Label // its cells, kept across sets
	qRules    []*widget.Separator
	failure   *widget.Label // why there is no decision
	content   fyne.CanvasObject
	after     fyne.CanvasObject // the questions, for under the report table
}

// NewDecisionPanel makes the panel, empty until Set.
func NewDecisionPanel() *DecisionPanel {
	p := &DecisionPanel{}
	p.headline = NewHeadline()
	p.scores = widget.NewLabel("")
	p.scores.Truncation = fyne.TextTruncateEllipsis
	p.body = widget.NewRichText()
	p.body.Wrapping = fyne.TextWrapWord
	p.questions = container.New(widgets.NewStackingGridLayout(len(questionColumns), len(questionColumns)-1, 240))
	p.failure = widget.NewLabel("")
	p.failure.Wrapping = fyne.TextWrapWord
	p.failure.Importance = widget.DangerImportance

	p.content = container.New(&widgets.TightVBox{}, p.scores, p.failure, p.body)
	p.after = container.New(&widgets.TightVBox{}, widget.NewSeparator(), p.questions)
	return p
}

// Head is the headline with its badge, which the window's header shows.
func (p *DecisionPanel) Head() fyne.CanvasObject { return p.headline.Content() }

// Content is the panel above the report table: the scores, and why the
// recommended direction leads or why there is no decision.
func (p *DecisionPanel) Content() fyne.CanvasObject { return p.content }

// After is each direction's first infrastructure question, for under the
// report table.
func (p *DecisionPanel) After() fyne.CanvasObject { return p.after }

// Headline is the headline's text: "Recommended: Hybrid", "No direction is
// feasible" or "No recommendation".
func (p *DecisionPanel) Headline() string { return p.headline.Text() }

// Failure is why there is no decision, "" when there is one.
func (p *DecisionPanel) Failure() string {
	if !p.failure.Visible() {
		return ""
	}
	return p.failure.Text
}

// Set shows decision d of report r, or err when there is no decision. The
// page holding the panel must be refreshed after it, as its height changes.
func (p *DecisionPanel) Set(r *model.Report, d *decide.Decision, err error) {
	if err != nil || d == nil {
		if err == nil {
			err = fmt.Errorf("no decision was made")
		}
		p.headline.Set(nil)
		widgets.SetText(p.scores, "")
		widgets.SetText(p.failure, noRankingText(err))
		p.failure.Show()
		p.body.Segments = nil
		p.body.Hide()
		p.questions.Hide()
		return
	}
	p.failure.Hide()
	p.headline.Set(d)
	widgets.SetText(p.scores, ScoreText(d))
	widgets.SetSegments(p.body, DecisionSegments(r, d))
	p.body.Show()
	p.setQuestions(QuestionRows(d))
	p.questions.Show()
}

// questionColumns are the headings of the questions table.
var questionColumns = []string{"Direction", "Likely bottleneck", "First infrastructure question"}

// setQuestions fills the questions table, the recommended direction in
// bold; its labels are kept, and one that stays the same is not measured
// again.
func (p *DecisionPanel) setQuestions(rows []QuestionRow) {
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
		for col, text := range []string{q.Direction, q.Bottleneck, q.Question} {
			imp := widget.MediumImportance
			if col == 1 && q.RuledOut {
				imp = widget.DangerImportance
			}
			widgets.SetLabel(p.qLabels[(r+1)*cols+col], text, q.Recommended, imp)
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
