package export

import (
	"hostplan/internal/brief"
	"hostplan/internal/costid"
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
	// Pricing is the engine's report of OtherPricing(s, r): with it the
	// managed service's cost on Costs is per token or a dedicated
	// deployment, whichever the drivers make cheaper, as the engine
	// chooses. Without it the pricing stays the one chosen at export, and
	// Costs says so.
	Pricing *model.Report
	// Author is who the workbook names as its author, when the user gives
	// one (hostplan export --author): in its document properties and on
	// the lineage row of a scenario read from a file. Empty: the workbook
	// names hostplan as its creator and no person.
	Author string
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

// OtherPricing is a copy of s with the managed service priced the way the
// engine did not choose in r: per token where it chose a dedicated
// deployment, a dedicated deployment where it chose per token; nil when
// the engine had no choice to make (the scenario fixes the pricing, or the
// managed direction does not serve interactive traffic). The engine's
// report of it, as Extras.Pricing, lets the workbook take whichever costs
// less as the drivers change, as the engine does.
func OtherPricing(s *scenario.Scenario, r *model.Report) *scenario.Scenario {
	if s.Options.Managed.Pricing != "" {
		return nil
	}
	d := r.Direction(scenario.Managed)
	if d == nil {
		return nil
	}
	other := ""
	switch d.CostModel {
	case costid.ManagedInteractiveCosts:
		other = scenario.ManagedPricings[1]
	case costid.ManagedDedicatedCosts:
		other = scenario.ManagedPricings[0]
	default:
		return nil
	}
	c := scenario.Clone(s)
	c.Options.Managed.Pricing = other
	return c
}
