package export

import (
	"fmt"

	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// pricingPerToken is the managed service's per-token pricing for
// interactive serving (scenario.ManagedPricings; the other is a dedicated
// deployment).
var pricingPerToken = scenario.ManagedPricings[0]

// Defined names of the managed service's cost a month under each pricing,
// when the workbook takes the cheaper (pricingSwitch).
const (
	namePerTokenMonth  = "managed_per_token_per_month"
	nameDedicatedMonth = "managed_dedicated_per_month"
)

// managedSwitch is the managed service under both its pricings, when the
// workbook takes whichever costs less, as the engine does
// (model.managedServing): the direction the engine chose and the one it
// did not (Extras.Pricing), and which of them is which.
type managedSwitch struct {
	chosen, other       *model.DirectionResult
	perToken, dedicated *model.DirectionResult
}

// pricingSwitch is the managed service of r under both pricings, or nil
// when x gives no report of the other pricing (OtherPricing) or it does
// not price the managed service the other way.
func pricingSwitch(r *model.Report, x *Extras) *managedSwitch {
	if x == nil || x.Pricing == nil || x.Pricing.ScenarioID != r.ScenarioID || x.Pricing.Currency != r.Currency {
		return nil
	}
	chosen, other := r.Direction(scenario.Managed), x.Pricing.Direction(scenario.Managed)
	if chosen == nil || other == nil || other.Drivers == nil {
		return nil
	}
	sw := &managedSwitch{chosen: chosen, other: other}
	switch {
	case chosen.CostModel == costid.ManagedInteractiveCosts && other.CostModel == costid.ManagedDedicatedCosts:
		sw.perToken, sw.dedicated = chosen, other
	case chosen.CostModel == costid.ManagedDedicatedCosts && other.CostModel == costid.ManagedInteractiveCosts:
		sw.perToken, sw.dedicated = other, chosen
	default:
		return nil
	}
	return sw
}

// withOtherPricing is r with the inputs of the managed service's other
// pricing added to its own, so that the Drivers sheet lists both.
func withOtherPricing(r *model.Report, sw *managedSwitch) *model.Report {
	if sw == nil {
		return r
	}
	c := *r
	c.Directions = append([]model.DirectionResult(nil), r.Directions...)
	d := c.Direction(scenario.Managed)
	have := map[string]bool{}
	for _, in := range d.CostInputs {
		have[in.Name] = true
	}
	d.CostInputs = append([]model.CostInput(nil), d.CostInputs...)
	for _, in := range sw.other.CostInputs {
		if !have[in.Name] {
			d.CostInputs = append(d.CostInputs, in)
		}
	}
	return &c
}

// cheaperFormula is the managed service's other cost per run (a month of
// serving) under the pricing that costs less, per token when they are
// equal, as model.managedServing takes it.
func cheaperFormula() string {
	return fmt.Sprintf("IF(%[1]s<=%[2]s,%[1]s,%[2]s)", namePerTokenMonth, nameDedicatedMonth)
}

// writePricingSwitch writes, from row on, the managed service's cost a
// month under each pricing and which one the formulas take; i is the
// managed service's row on Costs. It returns the next free row.
func writePricingSwitch(b *book, r *model.Report, sw *managedSwitch, i, row int) int {
	const sh = sheetCosts
	cur := r.Currency
	b.str(sh, 1, row, "Per token or a dedicated deployment: the cheaper, as the engine chooses")
	b.style(sh, cell(1, row), cell(1, row), b.bold)
	row++
	// The other pricing's own figures.
	chosenDefines := map[costid.Driver]bool{}
	for _, x := range sw.chosen.CostModel.Figures() {
		chosenDefines[x] = true
	}
	ref := figureRefs(sw.other, costRow(i))
	for _, x := range detailFigures(sw.other) {
		if chosenDefines[x] {
			continue
		}
		name := sw.other.Direction + "_" + x.String()
		b.str(sh, 1, row, upperFirst(costid.Label(x))+" (a dedicated deployment)")
		if sw.other == sw.perToken {
			b.str(sh, 1, row, upperFirst(costid.Label(x))+" (per token)")
		}
		style := b.costStyle(x)
		if !costid.IsMoney(x) {
			style = b.numFmt(driverFormat(x), false)
		}
		b.formula(sh, 3, row, sw.other.CostModel.Formula(x, ref), style, numResult(figure(sw.other, x)))
		b.audited(sh, 3, row, sw.other.Title+" ("+sw.other.CostModel.String()+"): "+costid.Label(x), figure(sw.other, x))
		b.name(name, sh, 3, row)
		b.str(sh, 4, row, costid.Unit(x, cur))
		b.str(sh, 5, row, name)
		b.str(sh, 7, row, sw.other.CostModel.Words(x, nil))
		row++
	}
	for _, p := range []struct {
		d     *model.DirectionResult
		name  string
		words string
	}{
		{sw.perToken, namePerTokenMonth, "A month per token"},
		{sw.dedicated, nameDedicatedMonth, "A month of a dedicated deployment"},
	} {
		b.str(sh, 1, row, p.words)
		b.formula(sh, 3, row, p.d.CostModel.Formula(costid.OtherCostPerRun, figureRefs(p.d, costRow(i))), b.money, numResult(p.d.OtherCostPerRun))
		b.audited(sh, 3, row, p.words, p.d.OtherCostPerRun)
		b.name(p.name, sh, 3, row)
		b.str(sh, 4, row, costid.Unit(costid.OtherCostPerRun, cur))
		b.str(sh, 5, row, p.name)
		b.str(sh, 7, row, p.d.CostModel.Words(costid.OtherCostPerRun, nil))
		row++
	}
	taken := "per token"
	if sw.chosen == sw.dedicated {
		taken = "a dedicated deployment"
	}
	b.str(sh, 1, row, "Pricing taken")
	b.formula(sh, 3, row, fmt.Sprintf(`IF(%s<=%s,"per token","a dedicated deployment")`, namePerTokenMonth, nameDedicatedMonth), b.bold, textResult(taken))
	b.auditedText(sh, 3, row, "managed service: pricing taken", taken)
	b.str(sh, 7, row, "the cheaper of the two; per token when they cost the same")
	return row + 2
}
