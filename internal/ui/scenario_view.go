package ui

import (
	"fmt"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// viewState is what the right pane currently shows.
type viewState int

const (
	stateEmpty   viewState = iota // nothing chosen yet
	stateLoading                  // loading and evaluating the chosen scenario
	stateReady                    // showing a report
	stateFailed                   // showing why the scenario could not be shown
)

// scenarioView is the right pane: the chosen scenario's header and its
// Report, Scaling, Inputs and Notes tabs. Loading and evaluating run off the
// UI goroutine; the result is applied with fyne.Do.
type scenarioView struct {
	backend Backend

	// mu guards gen, state and arrived, which the evaluating goroutine and
	// tests read.
	mu      sync.Mutex
	gen     int // counts choices, so a late result for an earlier one is dropped
	state   viewState
	arrived int // evaluations whose outcome came back, shown or dropped

	message *widget.Label     // placeholder, progress or error text
	body    fyne.CanvasObject // header and tabs, shown with a report

	title        *widget.Label
	facts        *widget.Label
	cheapest     *widget.Label
	cheapestIcon *widget.Icon
	report       *reportTable
	scaling      *scalingView
	inputs       *inputsView
	notes        *widget.RichText
	tabs         *container.AppTabs
	content      fyne.CanvasObject
}

func newScenarioView(b Backend) *scenarioView {
	v := &scenarioView{backend: b}

	v.message = widget.NewLabel("Choose a scenario on the left to see how the five hosting directions compare.")
	v.message.Wrapping = fyne.TextWrapWord

	v.title = widget.NewLabel("")
	v.title.TextStyle.Bold = true
	v.title.SizeName = theme.SizeNameSubHeadingText
	v.title.Truncation = fyne.TextTruncateEllipsis
	v.facts = widget.NewLabel("")
	v.facts.Wrapping = fyne.TextWrapWord
	v.cheapest = widget.NewLabel("")
	v.cheapest.TextStyle.Bold = true
	v.cheapest.Wrapping = fyne.TextWrapWord
	v.cheapestIcon = widget.NewIcon(nil)

	v.report = newReportTable()
	v.scaling = newScalingView()
	v.inputs = newInputsView()
	v.notes = widget.NewRichText()
	v.notes.Wrapping = fyne.TextWrapWord
	v.tabs = container.NewAppTabs(
		container.NewTabItem("Report", v.report.content),
		container.NewTabItem("Scaling", v.scaling.content),
		container.NewTabItem("Inputs", v.inputs.content),
		container.NewTabItem("Notes", container.NewVScroll(v.notes)),
	)

	verdict := container.NewBorder(nil, nil, v.cheapestIcon, nil, v.cheapest)
	header := container.NewVBox(v.title, v.facts, verdict, widget.NewSeparator())
	v.body = container.NewBorder(header, nil, nil, nil, v.tabs)
	v.body.Hide()
	v.content = container.NewStack(container.NewVBox(v.message), v.body)
	return v
}

// show loads and evaluates the chosen scenario and shows the result. It is
// called on the UI goroutine; the work runs on another one.
func (v *scenarioView) show(it Item) {
	v.mu.Lock()
	v.gen++
	gen := v.gen
	v.state = stateLoading
	v.mu.Unlock()

	v.showMessage(fmt.Sprintf("Evaluating “%s”…", itemName(it)), widget.MediumImportance)

	go func() {
		s, r, err := v.evaluate(it)
		fyne.Do(func() { v.apply(gen, s, r, err) })
	}()
}

// evaluate loads the scenario and runs the model. A panic in the backend
// becomes an error on screen rather than the end of the session.
func (v *scenarioView) evaluate(it Item) (s *scenario.Scenario, r *model.Report, err error) {
	defer func() {
		if p := recover(); p != nil {
			s, r, err = nil, nil, fmt.Errorf("could not evaluate “%s”: internal error: %v", itemName(it), p)
		}
	}()
	s, err = v.backend.Load(it.ID)
	if err != nil {
		return nil, nil, fmt.Errorf("could not load “%s”: %w", itemName(it), err)
	}
	if s == nil {
		return nil, nil, fmt.Errorf("could not load “%s”: the store returned nothing", itemName(it))
	}
	r, err = v.backend.Evaluate(s)
	if err != nil {
		return nil, nil, fmt.Errorf("could not evaluate “%s”: %w", itemName(it), err)
	}
	if r == nil {
		return nil, nil, fmt.Errorf("could not evaluate “%s”: the model returned no report", itemName(it))
	}
	return s, r, nil
}

// apply shows the outcome of choice gen, unless a later choice replaced it.
func (v *scenarioView) apply(gen int, s *scenario.Scenario, r *model.Report, err error) {
	v.mu.Lock()
	v.arrived++
	current := gen == v.gen
	v.mu.Unlock()
	if !current {
		return
	}

	next := stateReady
	if err != nil {
		v.showMessage(sentence(err.Error()), widget.DangerImportance)
		next = stateFailed
	} else {
		v.setReport(s, r)
	}

	v.mu.Lock()
	if gen == v.gen {
		v.state = next
	}
	v.mu.Unlock()
}

// currentState reports what the pane shows; safe from any goroutine.
func (v *scenarioView) currentState() viewState {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.state
}

// arrivals reports how many evaluations have come back; safe from any
// goroutine.
func (v *scenarioView) arrivals() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.arrived
}

func (v *scenarioView) showMessage(text string, imp widget.Importance) {
	v.body.Hide()
	v.message.Importance = imp
	v.message.SetText(text)
	v.message.Show()
}

// setReport fills the header and the tabs from s and its report r.
func (v *scenarioView) setReport(s *scenario.Scenario, r *model.Report) {
	v.title.SetText(reportTitle(s, r))
	v.facts.SetText(reportFacts(r))
	// The verdict keeps the text colour, which reads well in both themes;
	// the icon carries the green or red.
	v.cheapest.Importance = widget.MediumImportance
	v.cheapestIcon.SetResource(theme.NewSuccessThemedResource(theme.ConfirmIcon()))
	if r.Direction(r.Cheapest) == nil {
		v.cheapest.Importance = widget.DangerImportance
		v.cheapestIcon.SetResource(theme.NewErrorThemedResource(theme.ErrorIcon()))
	}
	v.cheapest.SetText(cheapestText(r))

	v.report.set(r)
	v.scaling.set(r)
	v.inputs.set(s)
	v.notes.Segments = notesSegments(r)
	v.notes.Refresh()

	v.message.Hide()
	v.body.Show()
}

// reportTitle is the scenario's name.
func reportTitle(s *scenario.Scenario, r *model.Report) string {
	switch {
	case r.ScenarioName != "":
		return r.ScenarioName
	case s != nil && s.Name != "":
		return s.Name
	}
	return r.ScenarioID
}

// reportFacts is the header's line of facts: shape, what one run is, the
// horizon and the date of the prices.
func reportFacts(r *model.Report) string {
	facts := []string{shapeTitle(r.Shape)}
	if r.RunUnit != "" {
		facts = append(facts, "one run = "+r.RunUnit)
	}
	if r.HorizonMonths > 0 {
		facts = append(facts, "horizon "+plural(r.HorizonMonths, "month"))
	}
	asOf := r.CatalogAsOf
	if asOf == "" {
		asOf = "unknown"
	}
	facts = append(facts, "Prices as of "+asOf)
	return strings.Join(facts, "  ·  ")
}

// cheapestText names the cheapest feasible direction and its cost over the
// horizon, or says that none is feasible.
func cheapestText(r *model.Report) string {
	d := r.Direction(r.Cheapest)
	if d == nil {
		return "No direction is feasible for this scenario: see “Why not” below."
	}
	return fmt.Sprintf("Cheapest feasible direction: %s, %s over %s",
		titleOf(*d), formatMoney(d.CostHorizon, r.Currency), plural(r.HorizonMonths, "month"))
}

// titleOf is a direction result's title, falling back to the direction's
// standard name.
func titleOf(d model.DirectionResult) string {
	if d.Title != "" {
		return d.Title
	}
	return directionTitle(d.Direction)
}
