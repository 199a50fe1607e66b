package report

import (
	"slices"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// ReportTitle is the scenario's name.
func ReportTitle(s *scenario.Scenario, r *model.Report) string {
	switch {
	case r.ScenarioName != "":
		return r.ScenarioName
	case s != nil && s.Name != "":
		return s.Name
	}
	return r.ScenarioID
}

// ReportFacts is the header's line of facts: shape, what one run is, the
// horizon and the date of the prices.
func ReportFacts(r *model.Report) string {
	facts := []string{present.ShapeTitle(r.Shape)}
	if r.RunUnit != "" {
		facts = append(facts, "one run = "+r.RunUnit)
	}
	if r.HorizonMonths > 0 {
		facts = append(facts, "horizon "+present.Count(r.HorizonMonths, "month"))
	}
	facts = append(facts, headerPricesAsOf(r))
	return strings.Join(facts, "  ·  ")
}

// headerPricesAsOf dates the prices the report's answer rests on: the
// oldest price a feasible direction used — a ruled-out direction's old
// price dates nothing the report recommends —, the oldest any direction
// used when none is feasible, or the report's own date when no direction
// has one. Each direction's own date is under the table (pricesAsOf).
func headerPricesAsOf(r *model.Report) string {
	oldest := func(feasible bool) string {
		var d string
		for _, x := range r.Directions {
			if x.Feasible || !feasible {
				d = catalog.OlderAsOf(d, x.PricesAsOf)
			}
		}
		return d
	}
	if d := oldest(true); d != "" {
		return "Prices as of " + d + " (the oldest a feasible direction used)"
	}
	if !slices.ContainsFunc(r.Directions, func(x model.DirectionResult) bool { return x.Feasible }) {
		if d := oldest(false); d != "" {
			return "Prices as of " + d + " (the oldest any direction used)"
		}
	}
	if r.CatalogAsOf == "" {
		return "Prices as of an unknown date"
	}
	return "Prices as of " + r.CatalogAsOf + " (oldest in the catalog used)"
}

// TitleOf is a direction result's title, falling back to the direction's
// standard name.
func TitleOf(d model.DirectionResult) string {
	if d.Title != "" {
		return d.Title
	}
	return present.DirectionTitle(d.Direction)
}
