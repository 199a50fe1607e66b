package report

import (
	"hostplan/internal/decide"
	"hostplan/internal/document"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Outcome is one scenario evaluated: what the report's views show of it —
// the scenario, its report, the decision on it or why there is none, and
// its brief (nil when the brief could not be written).
type Outcome struct {
	Scenario  *scenario.Scenario
	Report    *model.Report
	Decision  *decide.Decision
	DecideErr error
	Brief     *document.Document
}
