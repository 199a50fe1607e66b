// Package report turns a scenario's report into the window's widgets: the
// figures and words every view shares (facts.go, format.go, decision.go);
// the one headline, the recommended direction with its badge, which the
// window's header and review mode both show (headline.go); the charts
// (chart.go, chart_parts.go, tornado.go); the notes; and the cells of
// scenarios side by side, which Compare and Review both show (side.go),
// with review mode's sheet and grid (review.go).
//
// The tabs of one scenario's report are here too, each a type made once
// and refilled with every report the window shows (Set), so that a live
// edit redraws only what changed: the Report tab's weights, sliders
// that re-rank at once through a callback (weights.go), its decision
// (decision_panel.go) and its table of the directions (table.go), the
// Scaling tab (scaling.go), the Uncertainty tab (uncertainty.go) and the
// Inputs tab (inputs.go).
//
// Each view is a function of an Outcome, a model.Report or the decision
// on it, with callbacks for what the user does; none reaches the store,
// and the window's shell (package ui) wires them to its evaluations.
package report
