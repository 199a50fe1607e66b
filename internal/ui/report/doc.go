// Package report turns a scenario's report into the window's widgets: the
// figures and words every view shares (facts.go, format.go, headline.go,
// decision.go), the charts (chart.go, chart_parts.go, tornado.go), the
// notes, and the cells of scenarios side by side, which Compare and Review
// both show (side.go), with review mode's sheet and grid (review.go). Each
// is a function of an Outcome or a model.Report; none reaches the store.
package report
