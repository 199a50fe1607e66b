package ui

import (
	"fmt"
	"strings"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/ui/widgets"
)

// decisionPanel sits above the report table: the recommended direction and
// why, what would have to change for the runner-up, whether the order
// survives a ±20 % change of any weight and the first trial; each
// direction's first infrastructure question comes under the table
// (after), so that the table shows on a laptop's screen.
type decisionPanel struct {
	headline  *widget.Label // "Recommended: Hybrid"; shown in the window's header (head)
	scores    *widget.Label // the ranked directions' scores
	badge     *report.Badge // FRAGILE or ROBUST
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
	p.badge = report.NewBadge()
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
	widgets.SetText(p.headline, report.HeadlineText(d))
	widgets.SetText(p.scores, report.ScoreText(d))
	if d.Recommendation == "" {
		p.badge.Hide()
	} else {
		p.badge.Set(d)
		p.badge.Show()
	}
	widgets.SetSegments(p.body, report.DecisionSegments(r, d))
	p.body.Show()
	p.setQuestions(report.QuestionRows(d))
	p.questions.Show()
}

// questionColumns are the headings of the questions table.
var questionColumns = []string{"Direction", "Likely bottleneck", "First infrastructure question"}

// setQuestions fills the questions table, the recommended direction in
// bold; its labels are kept, and one that stays the same is not measured
// again.
func (p *decisionPanel) setQuestions(rows []report.QuestionRow) {
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
