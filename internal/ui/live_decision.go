package ui

import (
	"hostplan/internal/decide"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/report"
	"hostplan/internal/ui/widgets"
)

// The decision follows the weights live: a slider move decides again on
// the UI goroutine (decide is pure and takes well under a millisecond; no
// model run is needed, as the weights change no figure of the report),
// then the headline, the decision, the weights' marks and, when the
// recommendation changes, the highlighted rows follow at once; the brief,
// which quotes the decision, is written again off the UI goroutine when
// the move ends.

// staleHighlight is no direction: the tables are to be filled again.
const staleHighlight = "\x00"

// recommendation is the direction the shown decision recommends, "" when
// there is none.
func (v *scenarioView) recommendation() string {
	if v.current == nil {
		return ""
	}
	return v.current.recommendation()
}

// recommendation is the direction ev's decision recommends, "" when there
// is none.
func (ev *evaluation) recommendation() string {
	if ev == nil || ev.dec == nil || ev.decErr != nil {
		return ""
	}
	return ev.dec.Recommendation
}

// showDecision shows the current decision: the headline and the line on
// the cheapest direction in the header, the decision panel, the weights
// and the recommended row highlighted in every table.
func (v *scenarioView) showDecision() {
	ev := v.current
	if ev == nil {
		return
	}
	r := ev.r
	var d *decide.Decision
	if ev.decErr == nil {
		d = ev.dec
	}
	icon, imp := report.CheapestIcon(r, d)
	v.cheapestIcon.SetResource(icon)
	// The line keeps the text colour, which reads well in both themes;
	// the icon carries the colour.
	v.cheapest.Importance = imp
	widgets.SetText(v.cheapest, report.CheapestText(r, d))
	v.decision.Set(r, ev.dec, ev.decErr)
	v.weights.Update(ev.s.Dimensions.Weights(), d)

	rec := v.recommendation()
	if rec != v.highlighted {
		v.highlighted = rec
		v.report.Set(r, rec)
		v.scaling.SetHighlight(rec)
		v.uncertainty.SetHighlight(rec)
	}
	widgets.Refit(v.reportScroll)
}

// reweigh is the weights panel's callback: the scenario's weights become
// w and the decision follows at once. The change is an edit of the inputs
// like any other, made through the live editor: it marks the scenario
// unsaved, is saved with the others as a new revision, and Discard puts
// the stored weights back. The evaluation on screen is copied before its
// scenario changes: the report cache keeps the stored revision's.
func (v *scenarioView) reweigh(w [5]float64) {
	ev := v.current
	if ev == nil {
		return
	}
	if !ev.own { // shared with the cache or the backend: edit a copy
		cp := *ev
		cp.s, cp.own, cp.from = scenario.Clone(ev.s), true, ev
		ev = &cp
		v.current = ev
	}
	ev.s.Dimensions.SetWeights(w)
	ev.dec, ev.decErr = safeDecide(ev.s, ev.r)
	v.showDecision()
	v.live.reweigh(w)
}

// rebrief writes the brief again for the current scenario and decision,
// off the UI goroutine; a later edit's brief replaces an earlier one's.
func (v *scenarioView) rebrief() {
	ev := v.current
	if ev == nil {
		return
	}
	v.briefGen++
	gen := v.briefGen
	s, r, d, b := scenario.Clone(ev.s), ev.r, ev.dec, v.backend
	inBackground(func() func() {
		res := makeBrief(b, s, r, d)
		return func() {
			if gen != v.briefGen || v.current != ev {
				return
			}
			ev.brief = res
			v.brief.set(r.ScenarioID, res)
		}
	})
}

// tabShown lays out a tab whose highlighted rows changed while it was
// hidden.
func (v *scenarioView) tabShown(title string) {
	switch title {
	case "Scaling":
		v.scaling.Shown()
	case "Uncertainty":
		v.uncertainty.Shown()
	}
}
