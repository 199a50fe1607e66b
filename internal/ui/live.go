package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/catalog"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/form"
	"hostplan/internal/ui/widgets"
)

// typingPause is how long the window waits after a keystroke before it
// brings the report up to date, so that typing "1200" evaluates once, not
// four times. A choice, a tick, an added or removed row and Enter in a
// field evaluate at once.
var typingPause = 300 * time.Millisecond

// liveEditor is the scenario being edited: the form beside the report,
// the copy of the scenario it edits, and the report kept up to date with
// it. Each change is validated and evaluated off the UI goroutine through
// the Backend, a later change cancelling the work of an earlier one; the
// last good report stays on screen meanwhile, and while the inputs have
// problems, which show beneath their fields. Edits are the user's until
// saved as a new revision (with a note) or discarded; the header and the
// window title say when there are unsaved ones.
type liveEditor struct {
	v       *scenarioView
	backend Backend

	item   Item               // the scenario as stored; ID "" and Revisions 0 while new
	base   *scenario.Scenario // the stored revision edited; nil for a new scenario
	stored []byte             // canonical(base)
	work   *scenario.Scenario // what the form edits; nil when nothing is being edited
	form   *form.Form
	open   bool // the form is on screen

	gen     int // counts evaluations asked for; a late outcome of an earlier one is dropped
	cancel  context.CancelFunc
	running bool // an evaluation of the latest inputs is pending
	saving  bool
	// updating is set while a live update fills the tabs; deferred holds
	// the refills of tabs out of sight, by tab content (fill).
	updating bool
	deferred map[fyne.CanvasObject]deferredFill
	// exists reports whether a stored scenario has an id (set by the
	// planner): a new scenario may not take another's id.
	exists func(id string) bool
	// onSaved is called after a save, to refresh the list (set by the
	// planner).
	onSaved func(id string, rev int)
	// onUnsaved is called when the unsaved state may have changed (set by
	// the planner, which titles the window).
	onUnsaved func(unsaved bool)

	toggle   *widgets.TipButton // the header's "Edit inputs"
	heading  *widget.Label
	mark     *widget.Label       // "• unsaved" in the header
	status   *widget.Label       // the text of statusLine
	line     *widgets.StatusLine // whether the report is up to date
	problems *widget.Label       // problems that belong to no field
	save     *widgets.TipButton
	discard  *widgets.TipButton
	json     *widgets.TipButton
	holder   *fyne.Container // the form, inside scroll
	scroll   *container.Scroll
	kept     keptScroll // where the last form was scrolled to
	// history is the undo and redo of the edits (undo.go).
	history editHistory
	// drafts keeps unsaved inputs on disk (drafts.go); nil without a
	// store's settings. pendingDraft is a draft to bring back once its
	// scenario is shown.
	drafts       *draftKeeper
	pendingDraft *pendingDraft
	panel        fyne.CanvasObject
	split        *container.Split
	area         *fyne.Container // the pane: the report alone, or the form beside it
	report       fyne.CanvasObject
}

// formShare is the part of the pane the form takes beside the report, up
// to maxFormWidth.
const (
	formShare    = 0.42
	maxFormWidth = 560
)

func newLiveEditor(v *scenarioView, b Backend) *liveEditor {
	e := &liveEditor{v: v, backend: b, deferred: map[fyne.CanvasObject]deferredFill{}}
	e.drafts = &draftKeeper{prefs: b}
	e.toggle = widgets.NewTipButton("Edit inputs", theme.DocumentCreateIcon(), "Show or hide the form beside the report", func() { e.setOpen(!e.open) })
	e.mark = widget.NewLabel("• unsaved")
	e.mark.Importance = widget.WarningImportance
	e.mark.TextStyle.Bold = true
	e.mark.Hide()

	e.heading = widget.NewLabel("Inputs")
	e.heading.TextStyle.Bold = true
	e.heading.SizeName = theme.SizeNameSubHeadingText
	e.heading.Truncation = fyne.TextTruncateEllipsis
	e.status = widget.NewLabel("")
	e.line = widgets.NewStatusLine(e.status, 2, nil)
	e.problems = form.ProblemLabel()
	e.save = widgets.NewTipButton("Save…", theme.DocumentSaveIcon(), "Save the edits as a new revision, with a note (Ctrl+S)", e.askNote)
	e.save.Importance = widget.HighImportance
	e.discard = widgets.NewTipButton("Discard", theme.ContentUndoIcon(), "Throw the unsaved edits away: the saved revision comes back", e.discardChanges)
	e.json = widgets.NewTipButton("Advanced: JSON…", theme.SettingsIcon(), "Edit the scenario file itself", func() {
		if v.onEdit != nil {
			v.onEdit()
		}
	})
	e.json.Importance = widget.LowImportance
	closeButton := widgets.NewTipButton("", theme.CancelIcon(), "Hide the inputs (the edits stay)", func() { e.setOpen(false) })
	closeButton.Importance = widget.LowImportance

	e.holder = container.NewStack()
	e.scroll = container.NewVScroll(container.NewPadded(e.holder))
	buttons := container.NewHBox(e.save, e.discard, e.json)
	top := container.NewVBox(
		container.NewBorder(nil, nil, nil, closeButton, e.heading),
		buttons, e.line, e.problems, widget.NewSeparator())
	e.panel = container.NewBorder(top, nil, nil, nil, e.scroll)
	e.setButtons()
	return e
}

// wrap returns the pane: report alone, or the form beside it while open.
// It is called once the view's tabs exist, whose selection then also
// brings a tab a live update left behind up to date.
func (e *liveEditor) wrap(report fyne.CanvasObject) fyne.CanvasObject {
	if selected := e.v.tabs.OnSelected; selected != nil {
		e.v.tabs.OnSelected = func(item *container.TabItem) {
			e.v.showTab(item)
			selected(item)
		}
	} else {
		e.v.tabs.OnSelected = e.v.showTab
	}
	e.report = report
	e.area = container.NewStack(report)
	return e.area
}

// setOpen shows or hides the form. The form is built when first shown
// for the scenario being edited.
func (e *liveEditor) setOpen(open bool) {
	e.open = open
	if open && e.form == nil && e.work != nil {
		e.buildForm()
	}
	if open {
		e.split = container.NewHSplit(e.panel, e.report)
		e.split.Offset = formShare
		if w := e.area.Size().Width; w > 0 {
			// On a wide screen the form needs no more than maxFormWidth;
			// the report takes the rest.
			e.split.Offset = min(formShare, float64(maxFormWidth/w))
		}
		e.area.Objects = []fyne.CanvasObject{e.split}
		e.toggle.SetText("Hide inputs")
	} else {
		e.area.Objects = []fyne.CanvasObject{e.report}
		e.toggle.SetText("Edit inputs")
	}
	e.area.Refresh()
}

// buildForm makes the form over the working copy. Built again for the
// same stored scenario (after Discard, a save or a restore), it shows
// where the form was scrolled to; for another, its top.
func (e *liveEditor) buildForm() {
	e.keepScroll()
	e.makeForm()
}

// buildFormInPlace builds the form again over the working copy, shown
// where it was scrolled (an undo).
func (e *liveEditor) buildFormInPlace() {
	e.keepScroll()
	e.kept.inPlace = true
	e.makeForm()
	e.kept.inPlace = false
}

// makeForm makes the form, scrolled as kept says.
func (e *liveEditor) makeForm() {
	e.form = form.New(e.work, e.base != nil, e.catalog(), e.changed, e.flush)
	e.form.SetWheel(func() fyne.Scrollable { return e.scroll })
	e.holder.Objects = []fyne.CanvasObject{e.form.Content()}
	e.holder.Refresh()
	if k := e.kept; k.id == e.item.ID && (k.id != "" || k.inPlace) {
		// Lay the new form out now, so that the offset is not cut to
		// the height of the empty one.
		c := e.scroll.Content
		c.Resize(fyne.NewSize(max(c.Size().Width, e.scroll.Size().Width), c.MinSize().Height))
		e.scroll.ScrollToOffset(k.offset)
	} else {
		e.scroll.ScrollToTop()
	}
	e.setHeading()
	// The defaults the shown report assumed, until an edit evaluates anew.
	if cur := e.v.current; cur != nil && cur.r != nil && cur.item.ID == e.item.ID {
		e.form.ShowDefaults(e.work, cur.r)
	}
}

// catalog is the catalog in use, which the form's catalog fields offer;
// nil when it cannot be read (the fields then take any text, and the
// model names an unknown one).
func (e *liveEditor) catalog() *catalog.Catalog {
	var cat *catalog.Catalog
	if safeCall(func() (err error) { cat, err = e.backend.Catalog(); return err }) != nil {
		return nil
	}
	return cat
}

func (e *liveEditor) setHeading() {
	switch {
	case e.work == nil:
		e.heading.SetText("Inputs")
	case e.base == nil:
		e.heading.SetText("New scenario")
	default:
		e.heading.SetText("Inputs of “" + itemName(e.item) + "”")
	}
}

// keptScroll is where the form of a stored scenario was scrolled to.
type keptScroll struct {
	id      string // the scenario's id; "" for none (a new scenario)
	offset  fyne.Position
	inPlace bool // the form is built again for the same inputs, new or stored
}

// keepScroll notes where the form on show is scrolled to, for the next
// form of the same scenario.
func (e *liveEditor) keepScroll() {
	if e.form != nil {
		e.kept = keptScroll{id: e.item.ID, offset: e.scroll.Offset}
	}
}

// stop cancels the evaluation of an edit and forgets the working copy:
// the view is about to show another scenario.
func (e *liveEditor) stop() {
	e.keepScroll()
	e.v.stopSpread()
	e.gen++
	if e.cancel != nil {
		e.cancel()
		e.cancel = nil
	}
	e.running = false
	e.work, e.base, e.stored, e.form = nil, nil, nil, nil
	e.item = Item{}
	e.holder.Objects = nil
	e.holder.Refresh()
	e.setStatus("", widget.MediumImportance)
	form.SetProblemText(e.problems, nil)
	e.setHeading()
	e.changedState()
}

// begin edits the stored scenario the view has just shown.
func (e *liveEditor) begin(ev *evaluation) {
	e.stop()
	e.item, e.base, e.stored = ev.item, ev.s, canonical(ev.s)
	e.work = scenario.Clone(ev.s)
	e.history.reset(e.work)
	if e.open {
		e.buildForm()
	}
	e.setHeading()
	e.setStatus("", widget.MediumImportance)
	e.changedState()
	if pd := e.pendingDraft; pd != nil && pd.d.ID == ev.item.ID {
		e.pendingDraft = nil
		e.applyDraft(pd.s, pd.d)
	}
}

// beginNew edits a new scenario, not stored yet, with the form open, and
// evaluates it at once.
func (e *liveEditor) beginNew(s *scenario.Scenario) {
	e.stop()
	e.work = s
	e.history.reset(s)
	e.item = Item{Name: s.Name, Shape: s.Workload.Shape}
	e.form = nil
	e.setOpen(true)
	e.changedState()
	e.schedule(0)
}

// changed is called by the form after each edit, of the field at path.
func (e *liveEditor) changed(path string, immediate bool) {
	e.history.record(e.work, path)
	e.changedState()
	delay := typingPause
	if immediate {
		delay = 0
	}
	e.schedule(delay)
}

// edit changes the inputs being edited from outside the form (the
// weights, say) as if the change had been made in it: the form shows it,
// the report follows at once and the change counts as unsaved. It
// reports false when no scenario is being edited.
func (e *liveEditor) edit(change func(s *scenario.Scenario)) bool {
	if e.work == nil {
		return false
	}
	change(e.work)
	if e.form != nil {
		e.form.Load()
	}
	e.changed("", true)
	return true
}

// reweigh makes the weights of the inputs being edited w, as a slider
// moves: the form shows them and they count as unsaved. The weights change
// no figure of the report, so the report on screen stays (the view has
// decided again) and nothing is evaluated, unless an evaluation of an
// earlier edit is pending: it is started again with the weights, so that
// what lands carries them.
func (e *liveEditor) reweigh(w [5]float64) {
	if e.work == nil {
		return
	}
	path := ""
	for i, x := range e.work.Dimensions.Weights() {
		if x != w[i] {
			path = weightPaths[i] // the one moved: a step of the history
		}
	}
	e.work.Dimensions.SetWeights(w)
	e.history.record(e.work, path)
	if e.form != nil {
		e.form.LoadPaths(weightPaths...)
	}
	if e.running {
		e.schedule(0)
	}
	e.changedState()
}

// weightPaths are the form's fields of the five weights.
var weightPaths = func() []string {
	out := make([]string, len(scenario.DimensionNames))
	for i, name := range scenario.DimensionNames {
		out[i] = "dimensions." + name + ".weight"
	}
	return out
}()

// flush evaluates the inputs now (Enter in a field).
func (e *liveEditor) flush() {
	if e.running {
		e.schedule(0)
	}
}

// dirty reports whether the inputs differ from the stored revision, or
// hold text that is not a value yet; a new scenario is always unsaved.
func (e *liveEditor) dirty() bool {
	if e.work == nil {
		return false
	}
	if e.base == nil || (e.form != nil && e.form.Pending()) {
		return true
	}
	return !bytes.Equal(canonical(e.work), e.stored)
}

// unsaved reports whether the inputs or the checklist have unsaved edits.
func (e *liveEditor) unsaved() bool {
	return e.dirty() || e.v.checklist.dirty()
}

// changedState shows whether there are unsaved edits.
func (e *liveEditor) changedState() {
	e.keepDraft()
	u := e.unsaved()
	widgets.ShowIf(e.mark, u)
	e.setButtons()
	if e.onUnsaved != nil {
		e.onUnsaved(u)
	}
}

func (e *liveEditor) setButtons() {
	if e.dirty() && !e.saving {
		e.save.Enable()
		e.discard.Enable()
	} else {
		e.save.Disable()
		e.discard.Disable()
	}
	if e.work == nil || e.saving {
		e.json.Disable()
	} else {
		e.json.Enable()
	}
}

// schedule validates and evaluates the inputs after delay, off the UI
// goroutine, cancelling what an earlier edit started.
func (e *liveEditor) schedule(delay time.Duration) {
	e.gen++
	gen := e.gen
	e.v.stopSpread()
	if e.cancel != nil {
		e.cancel()
		e.cancel = nil
	}
	if e.work == nil {
		return
	}
	if e.form != nil && e.form.Pending() {
		e.running = false
		e.showOutcome(nil)
		return
	}
	snap, err := cloneScenario(e.work)
	if err != nil {
		e.running = false
		e.setStatus("Cannot evaluate these inputs: "+err.Error(), widget.DangerImportance)
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	e.cancel = cancel
	e.running = true
	if delay == 0 {
		e.setStatus("Updating the report…", widget.MediumImportance)
	}
	item := e.item
	item.Name, item.Shape = snap.Name, snap.Workload.Shape
	b := e.backend
	inBackground(func() func() {
		defer cancel()
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return func() {}
			}
		}
		if errs := scenario.Validate(snap); errs != nil {
			return func() { e.outcome(gen, nil, errs) }
		}
		ev, err := evaluateScenario(ctx, b, item, snap, false)
		return func() {
			e.outcome(gen, ev, err)
			if ev != nil && err == nil && gen == e.gen && e.v.current == ev {
				e.v.addSpread(ev, false) // the edit's report first, its spread after
			}
		}
	})
}

// cloneScenario copies s, or says why it cannot be written.
func cloneScenario(s *scenario.Scenario) (*scenario.Scenario, error) {
	if _, err := scenario.Marshal(s); err != nil {
		return nil, err
	}
	return scenario.Clone(s), nil
}

// outcome applies the evaluation of the edit numbered gen, unless a
// later edit replaced it.
func (e *liveEditor) outcome(gen int, ev *evaluation, err error) {
	if gen != e.gen || e.work == nil {
		return
	}
	e.running = false
	e.cancel = nil
	if err != nil && errors.Is(err, context.Canceled) {
		return
	}
	var errs scenario.Errors
	if err != nil && !errors.As(err, &errs) {
		if e.form != nil {
			e.form.SetProblems(nil)
		}
		e.setStatus(present.Sentence(err.Error())+" The report shown is of the last inputs that could be evaluated.", widget.DangerImportance)
		return
	}
	if e.form != nil {
		e.form.SetProblems(errs)
	}
	if ev != nil {
		if e.form != nil {
			e.form.ShowDefaults(ev.s, ev.r)
		}
		e.v.liveReport(ev, e.base != nil)
	}
	e.showOutcome(errs)
}

// showOutcome says whether the report is up to date with the inputs.
func (e *liveEditor) showOutcome(errs scenario.Errors) {
	n := len(errs)
	if e.form != nil {
		n = e.form.ProblemCount()
		form.SetProblemText(e.problems, e.form.Unplaced())
	} else {
		form.SetProblemText(e.problems, problemLines(errs))
	}
	switch {
	case n == 0:
		e.setStatus("The report is up to date with these inputs.", widget.SuccessImportance)
	case e.v.current == nil:
		e.setStatus(fmt.Sprintf("No report yet: %s to fix, shown beneath the fields.", present.Count(n, "problem")), widget.DangerImportance)
		e.v.showMessage(fmt.Sprintf("The report appears once the inputs are complete: %s to fix in the form on the left.", present.Count(n, "problem")), widget.MediumImportance)
	default:
		e.setStatus(fmt.Sprintf("%s, shown beneath the fields: the report is still that of the last valid inputs.", present.Sentence(present.Count(n, "problem"))), widget.DangerImportance)
	}
}

// setStatus says whether the report is up to date with the inputs, in a
// line of its own room (widgets.StatusLine).
func (e *liveEditor) setStatus(text string, imp widget.Importance) {
	e.line.Set(text, imp)
}

// liveReport shows the evaluation of an edit in place of the one on
// screen, keeping each tab where it was scrolled to and the checklist as
// the user left it; tabs out of sight that take long to fill are filled
// when next shown (fill). stored says whether the scenario is a stored
// one, so that the list can mark it.
func (v *scenarioView) liveReport(ev *evaluation, stored bool) {
	offsets := []fyne.Position{v.reportScroll.Offset, v.scaling.Scroll().Offset, v.uncertainty.Scroll().Offset, v.brief.scroll.Offset}
	v.live.updating = true
	v.setReport(ev)
	v.live.updating = false
	for i, s := range []*container.Scroll{v.reportScroll, v.scaling.Scroll(), v.uncertainty.Scroll(), v.brief.scroll} {
		s.ScrollToOffset(offsets[i]) // moves the view only; setReport laid the tabs out
	}
	v.shown = ""
	if stored {
		v.shown = ev.item.ID
	}
}

// deferredFill is the refill of a tab that a live update left for later.
type deferredFill struct {
	fill   func()
	scroll *container.Scroll // kept where it is across the refill; nil for none
}

// fill refills the tab whose content is tab: at once, unless a live
// update is under way and the tab is out of sight, in which case it is
// refilled when next shown (showTab). Typing in the form then redraws the
// tab in view only.
func (v *scenarioView) fill(tab fyne.CanvasObject, scroll *container.Scroll, f func()) {
	if v.live.updating && !tab.Visible() {
		v.live.deferred[tab] = deferredFill{f, scroll}
		return
	}
	delete(v.live.deferred, tab)
	f()
}

// showTab refills a tab a live update left out of date, as it comes into
// view.
func (v *scenarioView) showTab(item *container.TabItem) {
	d, ok := v.live.deferred[item.Content]
	if !ok {
		return
	}
	delete(v.live.deferred, item.Content)
	if d.scroll == nil {
		d.fill()
		return
	}
	offset := d.scroll.Offset
	d.fill()
	d.scroll.ScrollToOffset(offset)
}
