package export

import (
	"hostplan/internal/brief"
	"hostplan/internal/decide"
	"hostplan/internal/document"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Extras are the parts of a workbook that come from outside the model
// report. Each field left empty leaves its sheet out, so a nil *Extras
// gives the workbook of Workbook.
type Extras struct {
	// Decision is decide.Decide's for the same scenario and report: the
	// Decision sheet, and the recommendation on Summary.
	Decision *decide.Decision
	// Brief is the Compute Readiness Brief (brief.Build), shown on the
	// Brief sheet one line of its Markdown a row.
	Brief *document.Document
	// BriefMissing lists the fields a refused brief lacks, each as
	// "Label (path)" (brief.TooFewFieldsError.Missing); the Brief sheet
	// lists them when Brief is nil.
	BriefMissing []string
	// Checklist is brief.Checklist for the scenario's shape and its
	// recorded state (the default state, all open, for a file).
	Checklist []brief.Entry
	// Lineage lists the revisions of the stored scenario, oldest first;
	// for a scenario read from a file, one row with Number 0 that says so.
	Lineage []scenario.Revision
	// Source says where the scenario came from, e.g. "revision 3 of
	// scenario x in /path/hostplan.db" or "file plans/x.json"; shown at
	// the top of the Lineage sheet.
	Source string
	// Cases are the engine's reports of the scenario with every estimate
	// at its low and at its high end (CaseScenario): with them the plan
	// figures on Drivers and each direction's GPU-hours per run follow
	// the case selector too, as the engine's value for each case. Without
	// them the plan figures stay at likely in every case.
	Cases *Cases
}

// Cases are the engine's reports of one scenario at the low and at the
// high end of every estimate.
type Cases struct {
	Low, High *model.Report
}

// CaseScenario is a copy of s with every estimate at its end: "low" or
// "high" (any other: likely), known rather than estimated.
func CaseScenario(s *scenario.Scenario, end string) *scenario.Scenario {
	c := scenario.Clone(s)
	for _, ref := range scenario.EstimateRefs(c) {
		switch end {
		case "low":
			*ref.Ptr = scenario.Known(ref.Ptr.Low)
		case "high":
			*ref.Ptr = scenario.Known(ref.Ptr.High)
		default:
			*ref.Ptr = scenario.Known(ref.Ptr.Likely)
		}
	}
	return c
}
