package model

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// sovereigntyOutside marks r infeasible when the whole workload, source
// data included, may not run outside the controlled environment.
func (e *evaluator) sovereigntyOutside(r *DirectionResult, name, jurisdiction, offerField string) {
	d := e.s.Data
	switch d.Movement {
	case scenario.MoveNone:
		r.infeasible(ReasonDataMustStay, []string{"data.movement"}, "no data may leave the controlled environment")
	case scenario.MoveSnapshot:
		r.infeasible(ReasonSourceMustStay, []string{"data.movement"},
			"the source records must stay in the controlled environment and only an approved snapshot may leave; this direction moves the whole workload out — hybrid sends only the snapshot")
	}
	if !e.residencyOK(jurisdiction) {
		e.outsideResidency(r, name, jurisdiction, offerField)
	}
}

// residencyOK reports whether a provider jurisdiction satisfies data.residency.
// An offer's jurisdiction inside the residency region meets it: data
// that must stay in the EU may be processed in a region in France.
func (e *evaluator) residencyOK(jurisdiction string) bool {
	res := e.s.Data.Residency
	return res == "any" || res == "" || within(jurisdiction, res)
}

// euMembers are the 27 member states of the European Union by ISO 3166-1
// alpha-2 code (europa.eu, "EU countries", since 1 February 2020), which
// a provider home or residency of "EU" stands for.
var euMembers = []string{"AT", "BE", "BG", "CY", "CZ", "DE", "DK", "EE", "ES", "FI", "FR", "GR", "HR", "HU", "IE", "IT",
	"LT", "LU", "LV", "MT", "NL", "PL", "PT", "RO", "SE", "SI", "SK"}

// within reports whether place (a country or jurisdiction code) lies in
// region: the same code, or a member state when region is EU.
func within(place, region string) bool {
	return place != "" && (place == region || region == "EU" && slices.Contains(euMembers, place))
}

// homeOK reports whether a provider at home in home may hold the data
// under dimensions.sovereignty.provider_home (none listed: any may).
func (e *evaluator) homeOK(home string) bool {
	allowed := e.s.Dimensions.Sovereignty.ProviderHome
	if len(allowed) == 0 {
		return true
	}
	for _, a := range allowed {
		if within(home, a) {
			return true
		}
	}
	return false
}

// homeWords is a provider's legal home in a reader's words.
func homeWords(home string) string {
	if home == "" {
		return "a home the catalog does not give"
	}
	return home
}

// ownership rules r out when the provider of the offer called name is at
// home outside dimensions.sovereignty.provider_home; with no homes
// required it warns when data.residency is met only by the region of a
// provider at home outside it: the laws of a provider's home can reach
// data it holds abroad (the US CLOUD Act, 18 U.S.C. § 2713, for a US
// provider), so residency alone does not keep the data under the
// region's law alone.
func (e *evaluator) ownership(r *DirectionResult, name, home, jurisdiction, offerField string) {
	allowed := e.s.Dimensions.Sovereignty.ProviderHome
	if len(allowed) > 0 {
		if !e.homeOK(home) && r.ruleOut() {
			r.infeasible(ReasonProviderHomeExcluded, []string{"dimensions.sovereignty.provider_home", offerField},
				"%s belongs to a provider at home in %s; the provider must be at home in %s", name, homeWords(home), strings.Join(allowed, ", "))
		}
		return
	}
	res := e.s.Data.Residency
	if r.quiet || res == "" || res == "any" || !e.residencyOK(jurisdiction) || within(home, res) {
		return
	}
	r.note(NoteForeignOwned, []string{"data.residency", "dimensions.sovereignty.provider_home", offerField},
		"%s keeps the data in %s as the residency requires, but its provider is at home in %s, whose laws can reach data it holds abroad (for a US provider the CLOUD Act, 18 U.S.C. § 2713); listing the provider homes allowed rules such offers out",
		name, jurisdiction, homeWords(home))
}

// Staff each direction needs, in full-time equivalents (estimates, labelled
// as such in the notes; a user can override on-premises and hybrid).
// On-premises needs the site's staff per node, at least its minimum
// (onPremStaff).
const (
	staffManaged               = 0.05
	staffCloud                 = 0.25
	staffHPC                   = 0.1
	DefaultHybridExtraStaffFTE = 0.25 // on top of the burst target's own
)

// staff sets the operating effort, fte, and checks it against the team
// (dimensions.operations.staff_fte); the cost model adds its monthly cost
// (staff_per_month) and staffLine its cost line, in basis's words.
func (e *evaluator) staff(r *DirectionResult, fte float64, basis string) {
	r.StaffFTE = fte
	r.staffBasis = basis
	team := e.s.Dimensions.Operations.StaffFTE.Or(0)
	if fte > team+1e-9 {
		if r.ruleOut() {
			r.infeasible(ReasonStaffShort, e.staffFields(r.Direction), "needs %.2f FTE of operations (%s); the team has %.2f", fte, basis, team)
		}
	}
	e.skills(r)
	if r.Direction != scenario.OnPrem {
		e.monthsInUse(r)
	}
	site := e.cat.Site
	r.Drivers[costid.StaffCostPerFTE] = site.StaffCostPerFTE
	if r.quiet {
		return
	}
	if e.staffSource == "" { // the site's sources run to kilobytes: joined once
		e.staffSource = "BLS network and computer systems administrator pay ÷ 70.2 % wage share of compensation (" + site.Source + ")"
	}
	en := catalog.Entry{AsOf: site.FigureAsOf("staff_cost_per_fte_year"), Source: e.staffSource, FromCurrency: site.FromCurrency}
	r.fromCatalog(costid.StaffCostPerFTE, "", "site", catalog.SiteID, "staff_cost_per_fte_year", en)
	e.use(r, "staff cost", en)
}

// monthsInUse sets the months one run keeps a rented direction in use,
// which its staff is charged for (staff_share in costid's models.go): the
// months its time to result spans, at least one (a service runs every
// month). Owned hardware is staffed every month instead.
func (e *evaluator) monthsInUse(r *DirectionResult) {
	m := 1.0
	if h := r.TimeToResultHours; h > hoursPerMonth && !math.IsInf(h, 0) {
		m = math.Ceil(h / hoursPerMonth)
	}
	r.plan(costid.MonthsPerRun, m)
	if share := math.Min(1, e.z.runsPerMonth*m); share < 1 && !r.quiet {
		r.note(NoteStaffMonths, []string{"workload.runs_per_month", "dimensions.economics.horizon_months"},
			"operations staff charged for the months in use: %.3g runs a month × %s each = %.0f %% of the %d months",
			e.z.runsPerMonth, monthsWords(m), share*100, e.months())
	}
}

// monthsWords is "1 month" or "3 months".
func monthsWords(m float64) string {
	if m == 1 {
		return "1 month"
	}
	return fmt.Sprintf("%.0f months", m)
}

// staffEstimate sets r's input d to fte, owner's staff estimate (one of
// the model's own: no scenario field sets it).
func (e *evaluator) staffEstimate(r *DirectionResult, owner string, d costid.Driver, fte float64) {
	r.Drivers[d] = fte
	if !r.quiet {
		r.fromModel(d, owner, costid.StaffFTE, InputEstimate, "")
	}
}

// staffLine adds the cost line of the operations staff.
func (e *evaluator) staffLine(r *DirectionResult) {
	if r.Direction != scenario.OnPrem && r.Drivers[costid.StaffShare] < 1 {
		r.line("Operations staff", r.Drivers[costid.StaffPerMonth]*float64(e.months()), "%.2f FTE (%s, estimate) × %.0f per year loaded ÷ 12 × %d months × %.3g of the months in use",
			r.StaffFTE, r.staffBasis, r.Drivers[costid.StaffCostPerFTE], e.months(), r.Drivers[costid.StaffShare])
		return
	}
	r.line("Operations staff", r.Drivers[costid.StaffPerMonth]*float64(e.months()), "%.2f FTE (%s, estimate) × %.0f per year loaded ÷ 12 × %d months", r.StaffFTE, r.staffBasis, r.Drivers[costid.StaffCostPerFTE], e.months())
}

// coreSkill is the one skill a team must have to operate a direction at
// all (dimensions.operations.skills); other useful skills only lower the
// decision's operations score.
func (e *evaluator) coreSkill(d string) string {
	switch d {
	case scenario.Cloud:
		return "cloud"
	case scenario.OnPrem:
		if e.s.Options.OnPrem.Existing {
			return "gpu_cluster"
		}
		return "datacentre"
	case scenario.HPC:
		return "hpc_scheduler"
	case scenario.Hybrid:
		if e.s.Options.Hybrid.BurstTo == scenario.HPC {
			return "hpc_scheduler"
		}
		return "cloud"
	}
	return ""
}

// skills rules a direction out when the team lists its skills and lacks the
// direction's core one. A scenario that lists no skills is not judged.
func (e *evaluator) skills(r *DirectionResult) {
	have := e.s.Dimensions.Operations.Skills
	need := e.coreSkill(r.Direction)
	if len(have) == 0 || need == "" || slices.Contains(have, need) {
		return
	}
	if r.ruleOut() {
		words := make([]string, len(have))
		for i, h := range have {
			words[i] = skillWords(h)
		}
		r.infeasible(ReasonSkillMissing, []string{"dimensions.operations.skills"}, "needs the %s skill; the team lists %s", skillWords(need), strings.Join(words, ", "))
	}
}
