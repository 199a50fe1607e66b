package ui

import (
	"context"
	"fmt"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/brief"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// scenarioView is the right pane: the chosen scenario's header and its
// Report, Scaling, Uncertainty, Brief, Checklist, Inputs and Notes tabs.
// Loading, evaluating, deciding and writing the brief run off the UI
// goroutine; the result is applied with fyne.Do.
type scenarioView struct {
	backend Backend
	window  fyne.Window // parent of dialogs
	dialogs *dialogs    // the window's open dialogs, which Escape closes

	onEdit, onDuplicate func() // the header's actions, set by the planner
	edit, duplicate     *widgets.TipButton

	gen int // counts choices, so a late result for an earlier one is dropped
	// cancel ends the evaluation of the choice in progress, when a later
	// choice replaces it.
	cancel context.CancelFunc
	shown  string // the id of the scenario whose report is shown

	message *widget.Label     // placeholder, progress or error text
	body    fyne.CanvasObject // header and tabs, shown with a report

	title        *widgets.TipLabel
	facts        *widget.Label
	cheapest     *widget.Label
	cheapestIcon *widget.Icon
	current      *evaluation // what the pane shows; nil before the first report
	decision     *report.DecisionPanel
	weights      *report.Weights // live weights (live_decision.go)
	briefGen     int             // counts briefs written again after an edit
	highlighted  string          // the direction the tables show in bold
	report       *report.Table
	reportScroll *container.Scroll // the Report tab: decision over table, one page
	scaling      *report.Scaling
	uncertainty  *report.Uncertainty
	brief        *briefView
	checklist    *checklistView
	inputs       *report.Inputs
	notes        *widget.RichText
	notesTab     *container.Scroll
	tabs         *container.AppTabs
	content      fyne.CanvasObject

	// live edits the scenario on show in a form beside the report
	// (live.go); cache keeps the reports of stored revisions already
	// shown (report_cache.go).
	live  *liveEditor
	cache *reportCache
	// spreadCancel stops the Monte Carlo spread being drawn (addSpread).
	spreadCancel context.CancelFunc
}

func newScenarioView(w fyne.Window, b Backend, ds *dialogs) *scenarioView {
	v := &scenarioView{backend: b, window: w, dialogs: ds, cache: newReportCache(reportCacheSize)}
	v.live = newLiveEditor(v, b)

	v.message = widget.NewLabel(chooseMessage)
	v.message.Wrapping = fyne.TextWrapWord

	v.title = widgets.NewTipLabel("")
	v.title.TextStyle.Bold = true
	v.title.SizeName = theme.SizeNameSubHeadingText
	v.facts = widget.NewLabel("")
	v.facts.Wrapping = fyne.TextWrapWord
	v.cheapest = widget.NewLabel("")
	v.cheapest.Wrapping = fyne.TextWrapWord
	v.cheapestIcon = widget.NewIcon(nil)

	v.decision = report.NewDecisionPanel()
	v.weights = report.NewWeights()
	v.weights.OnChange = v.reweigh
	v.weights.OnSettled = v.rebrief
	v.report = report.NewTable()
	v.scaling = report.NewScaling()
	v.uncertainty = report.NewUncertainty()
	v.brief = newBriefView()
	v.checklist = newChecklistView(b)
	v.checklist.onSaved = v.checklistSaved
	v.inputs = report.NewInputs()
	v.notes = widget.NewRichText()
	v.notes.Wrapping = fyne.TextWrapWord
	v.notesTab = container.NewVScroll(v.notes)
	v.tabs = container.NewAppTabs(
		container.NewTabItem("Report", v.reportPage()),
		container.NewTabItem("Scaling", v.scaling.Content()),
		container.NewTabItem("Uncertainty", v.uncertainty.Content()),
		container.NewTabItem("Brief", v.brief.content),
		container.NewTabItem("Checklist", v.checklist.content),
		container.NewTabItem("Inputs", v.inputs.Content()),
		container.NewTabItem("Notes", v.notesTab),
	)

	v.edit = widgets.NewTipButton("JSON…", theme.SettingsIcon(), "Edit the scenario file itself", func() {
		if v.onEdit != nil {
			v.onEdit()
		}
	})
	v.duplicate = widgets.NewTipButton("Duplicate", theme.ContentCopyIcon(), "A copy of this scenario under a new id, to change without touching this one", func() {
		if v.onDuplicate != nil {
			v.onDuplicate()
		}
	})
	v.edit.Importance = widget.LowImportance
	actions := container.NewHBox(v.live.mark, v.live.toggle, v.edit, v.duplicate)
	v.tabs.OnSelected = func(item *container.TabItem) {
		v.brief.setShown(item.Text == "Brief")
		v.tabShown(item.Text) // live_decision.go
	}
	verdict := container.NewBorder(nil, nil, v.cheapestIcon, nil, v.cheapest)
	titleRow := container.NewBorder(nil, nil, nil, actions, v.title)
	header := container.NewVBox(titleRow, v.facts, v.decision.Head(), verdict, widget.NewSeparator())
	v.body = container.NewBorder(header, nil, nil, nil, v.tabs)
	v.body.Hide()
	v.content = v.live.wrap(container.NewStack(container.NewVBox(v.message), v.body))
	return v
}

// reportPage lays out the weights (a line until opened), the decision,
// the report table and each direction's first question as one page that
// scrolls as a whole; on a 1280 × 800 screen the table shows without
// scrolling.
func (v *scenarioView) reportPage() fyne.CanvasObject {
	_, scroll, content := widgets.ScrolledPage(v.weights.Content(), v.decision.Content(),
		widgets.SectionHeading("Cost and feasibility per direction"), v.report.Content(), v.decision.After())
	v.reportScroll = scroll
	v.weights.OnOpen = func(bool) { widgets.Refit(v.reportScroll) }
	return content
}

// show loads and evaluates the chosen scenario and shows the result. It is
// called on the UI goroutine; the work runs on another one.
func (v *scenarioView) show(it Item) {
	v.gen++
	gen := v.gen
	if v.cancel != nil {
		v.cancel()
	}
	v.live.stop()
	if ev := v.cache.get(it.ID, it.Revisions); ev != nil {
		v.apply(gen, ev, nil) // shown before: no evaluation, no blank pane
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	v.cancel = cancel

	v.showMessage(fmt.Sprintf("Evaluating “%s”…", itemName(it)), widget.MediumImportance)

	b := v.backend
	inBackground(func() func() {
		ev, err := evaluateItem(ctx, b, it, false)
		cancel() // done: release the context
		return func() {
			v.apply(gen, ev, err)
			if err == nil && gen == v.gen {
				v.addSpread(ev, true)
			}
		}
	})
}

// addSpread draws the Monte Carlo spread of ev, the evaluation just shown
// without it, off the UI goroutine, and shows it when it lands: the
// Uncertainty tab is filled, and with keep, ev — a stored revision's
// evaluation, now whole — is kept in the cache. It lands on the
// evaluation on show if that is still ev or a copy of it (the weights
// moved meanwhile); a later choice or edit cancels it.
func (v *scenarioView) addSpread(ev *evaluation, keep bool) {
	v.stopSpread()
	ctx, cancel := context.WithCancel(context.Background())
	v.spreadCancel = cancel
	b, s := v.backend, ev.s
	if ev.own {
		s = scenario.Clone(s) // the form edits it meanwhile
	}
	inBackground(func() func() {
		defer cancel()
		r, err := safeAnalyze(ctx, b, s)
		return func() {
			cur := v.current
			if err != nil || r == nil || cur == nil || cur.origin() != ev.origin() {
				return
			}
			ev.r, ev.spread = r, true
			cur.r, cur.spread = r, true
			if keep {
				v.cache.put(ev)
			}
			rec := cur.recommendation()
			v.fill(v.uncertainty.Content(), v.uncertainty.Scroll(), func() { v.uncertainty.Set(cur.s, r, rec) })
		}
	})
}

// stopSpread cancels the spread being drawn, if any.
func (v *scenarioView) stopSpread() {
	if v.spreadCancel != nil {
		v.spreadCancel()
		v.spreadCancel = nil
	}
}

// safeAnalyze is Backend.Analyze with a panic turned into an error.
func safeAnalyze(ctx context.Context, b Backend, s *scenario.Scenario) (r *model.Report, err error) {
	defer func() {
		if p := recover(); p != nil {
			r, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	return b.Analyze(ctx, s)
}

// evaluation is everything the view shows of one scenario, computed off
// the UI goroutine: the scenario, its report and the decision on it (or
// why there is none).
type evaluation struct {
	item   Item
	s      *scenario.Scenario
	r      *model.Report
	dec    *decide.Decision
	decErr error
	brief  briefResult
	own    bool // s is the view's own copy, which edits change
	// spread says whether r has the Monte Carlo spread (addSpread).
	spread bool
	// from is the evaluation this one copies (a move of the weights
	// copies the evaluation on show); nil for an original.
	from *evaluation
}

// outcome is ev as the report's views take it.
func (ev *evaluation) outcome() *report.Outcome {
	return &report.Outcome{Scenario: ev.s, Report: ev.r, Decision: ev.dec, DecideErr: ev.decErr, Brief: ev.brief.doc}
}

// outcomes are evs as the report's views take them.
func outcomes(evs []*evaluation) []*report.Outcome {
	out := make([]*report.Outcome, len(evs))
	for i, ev := range evs {
		out[i] = ev.outcome()
	}
	return out
}

// origin is the evaluation ev copies, or ev itself.
func (ev *evaluation) origin() *evaluation {
	for ev.from != nil {
		ev = ev.from
	}
	return ev
}

// evaluateItem loads the scenario, runs the model (with the Monte Carlo
// spread when spread is true) and decides. A panic in the backend or in
// deciding becomes an error on screen rather than the end of the session.
// Loading and evaluating must succeed; a failure to decide is kept in
// decErr and shown beside the report.
func evaluateItem(ctx context.Context, b Backend, it Item, spread bool) (ev *evaluation, err error) {
	defer func() {
		if p := recover(); p != nil {
			ev, err = nil, fmt.Errorf("could not evaluate “%s”: internal error: %v", itemName(it), p)
		}
	}()
	s, err := b.Load(it.ID)
	if err != nil {
		return nil, fmt.Errorf("could not load “%s”: %w", itemName(it), err)
	}
	if s == nil {
		return nil, fmt.Errorf("could not load “%s”: the store returned nothing", itemName(it))
	}
	return evaluateScenario(ctx, b, it, s, spread)
}

// evaluateScenario runs the model on s, the scenario of it, and decides,
// as evaluateItem does once it has loaded s.
func evaluateScenario(ctx context.Context, b Backend, it Item, s *scenario.Scenario, spread bool) (ev *evaluation, err error) {
	defer func() {
		if p := recover(); p != nil {
			ev, err = nil, fmt.Errorf("could not evaluate “%s”: internal error: %v", itemName(it), p)
		}
	}()
	evaluate := b.Evaluate
	if spread {
		evaluate = b.Analyze
	}
	r, err := evaluate(ctx, s)
	if err != nil {
		return nil, fmt.Errorf("could not evaluate “%s”: %w", itemName(it), err)
	}
	if r == nil {
		return nil, fmt.Errorf("could not evaluate “%s”: the model returned no report", itemName(it))
	}
	ev = &evaluation{item: it, s: s, r: r, spread: spread}
	ev.dec, ev.decErr = safeDecide(s, r)
	ev.brief = makeBrief(b, s, r, ev.dec)
	return ev, nil
}

// safeDecide is decide.Decide with a panic turned into an error.
func safeDecide(s *scenario.Scenario, r *model.Report) (d *decide.Decision, err error) {
	defer func() {
		if p := recover(); p != nil {
			d, err = nil, fmt.Errorf("internal error: %v", p)
		}
	}()
	return decide.Decide(s, r)
}

// apply shows the outcome of choice gen, unless a later choice replaced it.
func (v *scenarioView) apply(gen int, ev *evaluation, err error) {
	if gen != v.gen {
		return
	}
	v.shown = ""
	if err != nil {
		v.showMessage(present.Sentence(err.Error()), widget.DangerImportance)
		return
	}
	v.setReport(ev)
	v.shown = ev.item.ID
	if ev.spread { // else once its spread lands (addSpread)
		v.cache.put(ev)
	}
	v.live.begin(ev)
}

// shownID is the id of the scenario whose report the pane shows, "" when
// it shows none.
func (v *scenarioView) shownID() string {
	return v.shown
}

func (v *scenarioView) showMessage(text string, imp widget.Importance) {
	v.body.Hide()
	v.message.Importance = imp
	v.message.SetText(text)
	v.message.Show()
}

// setReport fills the header and the tabs from an evaluation.
func (v *scenarioView) setReport(ev *evaluation) {
	s, r := ev.s, ev.r
	v.current = ev
	widgets.SetText(&v.title.Label, report.ReportTitle(s, r))
	widgets.SetText(v.facts, report.ReportFacts(r))
	v.highlighted = staleHighlight // showDecision fills the tables
	v.reportScroll.Offset = fyne.Position{}
	rec := ev.recommendation()
	v.fill(v.scaling.Content(), v.scaling.Scroll(), func() { v.scaling.Set(r, rec) })
	if ev.spread {
		v.fill(v.uncertainty.Content(), v.uncertainty.Scroll(), func() { v.uncertainty.Set(s, r, rec) })
	} else {
		v.fill(v.uncertainty.Content(), v.uncertainty.Scroll(), v.uncertainty.Drawing)
	}
	v.brief.set(r.ScenarioID, ev.brief)
	if !v.checklist.shows(ev.item.ID, s.Workload.Shape) { // keeps edits while the inputs change
		v.checklist.set(ev.item.ID, s.Workload.Shape, ev.brief.checklist, ev.brief.checklistErr)
	}
	v.fill(v.inputs.Content(), nil, func() { v.inputs.Set(s) })
	v.fill(v.notesTab, nil, func() { widgets.SetSegments(v.notes, report.NotesSegments(r)) })
	// The sliders' saved weights are the stored revision's, also while
	// a live update shows edited ones.
	saved := s.Dimensions.Weights()
	if v.live.updating && v.live.base != nil {
		saved = v.live.base.Dimensions.Weights()
	}
	v.weights.Set(saved, s.Dimensions.Weights(), ev.dec)
	v.showDecision() // last: the headline and the rows it highlights

	v.message.Hide()
	v.body.Show()
}

// checklistSaved writes the brief again with the checklist state just
// stored, when it is still the shown scenario's.
func (v *scenarioView) checklistSaved(id string, st brief.ChecklistState) {
	if v.current == nil || v.current.item.ID != id {
		return
	}
	v.current.brief = rebriefed(v.current, st)
	v.brief.set(v.current.r.ScenarioID, v.current.brief)
}
