// Package ui is hostplan's desktop window, its shell: the stored
// scenarios on the left, the chosen one's header and tabs on the right,
// and a side-by-side comparison of two or three scenarios. It wires the
// window's parts, each a package of its own: the views of a report
// (package report) — the Report tab's weights, decision and table, the
// Scaling, Uncertainty and Inputs tabs, the notes, and the cells Compare
// and Review show —, the scenario's form (package form), and the widgets
// and layouts they share (package widgets). None of them reaches the
// store or the model; the shell does, through Backend.
//
// What the shell holds: the window and its list of scenarios, which
// searches, filters and sorts them and manages them (rename, delete with
// undo, history and restore; scenarios.go, list_*.go, history.go); the
// right pane (scenario_view.go), which evaluates the chosen scenario off
// the UI goroutine and fills the report's views with it; the live editing
// of a scenario in the form beside its report (live*.go), edits saved as
// new revisions or discarded, the weights' sliders re-ranking at once
// (live_decision.go); new scenarios from a template per workload shape
// (new_scenario.go); the Brief and Checklist tabs (brief_view.go,
// checklist_view.go), which read and store the checklist through the
// backend; the comparison (compare.go) and review mode, one to three
// scenarios full screen in large text for leadership (review.go); the
// main menu (menu.go) with the exports, the catalog, the calculators and
// the scaling-law fit (Tools; calculators.go, usl_fit.go) and the About
// dialog (Help, about.go); and zoom, light or dark, the window's size and
// the last scenario, kept in the store's settings (viewing.go, theme.go).
//
// It reaches the store and the model only through Backend, whose real
// implementation (NewBackend, backend.go) adapts the application layer
// (internal/app); tests run it over a temporary store, or use a fake to
// inject a failure or a hand-built report. The decision (decide) and the
// brief (brief) are pure functions of a scenario and its report, and the
// window calls them itself, off the UI goroutine. Numbers, titles and
// field labels are written by package present, as in the workbook and the
// command line.
package ui
