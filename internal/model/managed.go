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

func (e *evaluator) managed(r *DirectionResult) error {
	z, s := e.z, e.s
	kind := "inference"
	if s.Workload.Shape == scenario.ShapeFineTuning || s.Workload.Shape == scenario.ShapeTraining {
		kind = "fine_tuning"
	}
	var offer catalog.ManagedOffer
	only := ""            // a dedicated offer the scenario names
	homeExcluded := false // an offer left out only by its provider's home
	if id := s.Options.Managed.Offer; id != "" {
		o, ok := e.cat.ManagedOffer(id)
		if !ok {
			return scenario.Errors{{Path: "options.managed.offer", Problem: fmt.Sprintf("%q is not in the catalog", id), Allowed: strings.Join(e.cat.IDs(catalog.KindManaged), ", ")}}
		}
		e.weigh(catalog.KindManaged, o.ID)
		if o.Model != "" && o.Model != z.preset {
			return scenario.Errors{{Path: "options.managed.offer", Problem: fmt.Sprintf("%s is priced for %s only, not for this scenario's model", o.Name, o.Model),
				Allowed: "an offer priced for the scenario's preset, or by size class"}}
		}
		if o.Kind == "dedicated" {
			only = id
		} else {
			offer = o
		}
	} else {
		// The cheapest offer of the right kind whose size class holds the model.
		best := math.Inf(1)
		for _, o := range e.cat.Managed {
			if o.Kind != kind || o.MaxParamsB < z.paramsB || o.Model != "" && o.Model != z.preset {
				continue
			}
			e.weigh(catalog.KindManaged, o.ID)
			if !e.homeOK(o.ProviderHome) {
				homeExcluded = true
				continue
			}
			if p := o.PriceInPerM + o.PriceOutPerM + o.TrainPerMTokens; p < best && e.residencyOK(o.Jurisdiction) {
				best, offer = p, o
			}
		}
	}
	// Whatever the offer, a provider-operated service receives the data:
	// the sovereignty reasons come first and always.
	d := s.Data
	if d.Movement != scenario.MoveAny {
		if r.ruleOut() {
			r.infeasible(ReasonProviderReceivesData, []string{"data.movement"}, "a managed provider would receive the data, but %s", movementWords(d.Movement))
		}
	} else if !d.ProviderAllowed {
		r.infeasible(ReasonProviderMayNotProcess, []string{"data.provider_may_process"}, "the provider may not receive or keep the data")
	}
	if s.Workload.Shape == scenario.ShapeTraining {
		r.infeasible(ReasonNoManagedTraining, []string{"workload.shape"},
			"no managed service in the catalog trains a model from scratch; add one with a catalog override")
		return nil
	}
	if z.serving && kind == "inference" && e.managedServing(r, offer, only) {
		e.staff(r, staffManaged, "managed service")
		e.staffEstimate(r, r.Direction, costid.StaffFTE, staffManaged)
		return nil
	}
	if only != "" {
		if r.ruleOut() {
			r.infeasible(ReasonNoManagedOffer, []string{"options.managed.offer", "workload.shape"},
				"%s is a dedicated deployment: it serves interactive inference only", only)
		}
		return nil
	}
	if offer.ID == "" && homeExcluded {
		if r.ruleOut() {
			r.infeasible(ReasonProviderHomeExcluded, []string{"dimensions.sovereignty.provider_home", "options.managed.offer"},
				"no managed %s offer in the catalog that serves a %.3g B model%s belongs to a provider at home in %s", strings.ReplaceAll(kind, "_", "-"), z.paramsB, withinResidency(s.Data.Residency), strings.Join(s.Dimensions.Sovereignty.ProviderHome, ", "))
		}
		return nil
	}
	if offer.ID == "" {
		if r.ruleOut() {
			r.infeasible(ReasonNoManagedOffer, []string{"workload.model", "data.residency", "options.managed.offer"},
				"no managed %s offer in the catalog serves a %.3g B model%s", strings.ReplaceAll(kind, "_", "-"), z.paramsB, withinResidency(s.Data.Residency))
		}
		return nil
	}
	r.Offer, r.OfferName = offer.ID, offer.Name
	e.use(r, offer.ID, offer.Entry)
	if !e.residencyOK(offer.Jurisdiction) {
		e.outsideResidency(r, offer.Name, offer.Jurisdiction, "options.managed.offer")
	}
	e.ownership(r, offer.Name, offer.ProviderHome, offer.Jurisdiction, "options.managed.offer")
	if kind == "fine_tuning" && !offer.ReturnsWeights && slices.Contains(d.ReturnOutputs, "checkpoints") {
		if r.ruleOut() {
			r.infeasible(ReasonProviderKeepsWeights, []string{"data.return_outputs", "options.managed.offer"},
				"%s keeps the tuned weights, so the checkpoints cannot come back", offer.Name)
		}
	}

	mo, v := s.Options.Managed, r.Drivers
	prices := func() {
		v[costid.PriceInPerM], v[costid.PriceOutPerM] = mo.PriceInPerM.Or(offer.PriceInPerM), mo.PriceOutPerM.Or(offer.PriceOutPerM)
		if !r.quiet {
			r.fromField(costid.PriceInPerM, scenario.Managed, costid.PriceInPerM, "options.managed.price_in_per_m", mo.PriceInPerM, "managed", offer.ID, "price_in_per_m", offer.Entry)
			r.fromField(costid.PriceOutPerM, scenario.Managed, costid.PriceOutPerM, "options.managed.price_out_per_m", mo.PriceOutPerM, "managed", offer.ID, "price_out_per_m", offer.Entry)
		}
	}
	switch {
	case kind == "fine_tuning":
		// Per-token fine-tuning price × training tokens.
		r.CostModel = costid.ManagedFineTuningCosts
		r.plan(costid.TokensPerRun, z.tokens)
		v[costid.TrainPerMTokens] = offer.TrainPerMTokens
		if !r.quiet {
			r.fromCatalog(costid.TrainPerMTokens, scenario.Managed, "managed", offer.ID, "train_per_m_tokens", offer.Entry)
		}
		e.managedTime(r, offer, "time to result")
	case z.serving:
		// Per-token prices × a month of traffic at the mean rate.
		r.CostModel = costid.ManagedInteractiveCosts
		prices()
		v[costid.MeanRPS], v[costid.TokensIn], v[costid.TokensOut] = z.meanRPS, z.tokensIn, z.tokensOut
		if !r.quiet {
			r.fromField(costid.MeanRPS, "", costid.MeanRPS, "workload.traffic.mean_rps", s.Workload.Traffic.MeanRPS, "", "", "", catalog.Entry{})
			r.fromModel(costid.TokensIn, scenario.Managed, costid.TokensIn, InputPlan, "workload.traffic.tokens_in")
			r.fromModel(costid.TokensOut, scenario.Managed, costid.TokensOut, InputPlan, "workload.traffic.tokens_out")
		}
		r.TimeToResultHours = hoursPerMonth
		r.ComputeHours = hoursPerMonth
	default:
		// Batch: tokens priced by the split between input and output
		// tokens per item (workload.traffic.tokens_in and tokens_out), or
		// at the mean of the two prices when the scenario gives none.
		r.CostModel = costid.ManagedBatchCosts
		prices()
		r.plan(costid.TokensPerRun, z.tokens)
		v[costid.TokensIn], v[costid.TokensOut] = z.tokensIn, z.tokensOut
		if !r.quiet {
			r.fromModel(costid.TokensIn, scenario.Managed, costid.TokensIn, InputPlan, "workload.traffic.tokens_in")
			r.fromModel(costid.TokensOut, scenario.Managed, costid.TokensOut, InputPlan, "workload.traffic.tokens_out")
		}
		if z.tokensIn+z.tokensOut == 0 && !r.quiet {
			r.note(NoteTokenSplitAssumed, []string{"workload.traffic.tokens_in", "workload.traffic.tokens_out"},
				"batch tokens priced at the mean of input and output prices (no split between input and output tokens given)")
		}
		e.managedTime(r, offer, "batch time")
	}
	e.staff(r, staffManaged, "managed service")
	e.staffEstimate(r, r.Direction, costid.StaffFTE, staffManaged)
	return nil
}

// managedLines adds the managed service's cost lines, from its figures.
func (e *evaluator) managedLines(r *DirectionResult) {
	v, z, months := r.Drivers, e.z, float64(e.months())
	switch r.CostModel {
	case costid.ManagedFineTuningCosts:
		r.line("Fine-tuning tokens", r.OtherCostPerRun*z.runsPerMonth*months, "%.4g M tokens per run × %.4g per M tokens", z.tokens/1e6, v[costid.TrainPerMTokens])
	case costid.ManagedInteractiveCosts:
		r.line("Tokens", r.OtherCostPerRun*months, "%.4g requests/month × (%.0f in × %.4g + %.0f out × %.4g) per M tokens", v[costid.RequestsPerMonth], z.tokensIn, v[costid.PriceInPerM], z.tokensOut, v[costid.PriceOutPerM])
	case costid.ManagedBatchCosts:
		if z.tokensIn+z.tokensOut > 0 {
			r.line("Tokens", r.OtherCostPerRun*z.runsPerMonth*months, "%.4g M tokens per batch × %.4g per M tokens (%.0f in at %.4g, %.0f out at %.4g per item)",
				z.tokens/1e6, v[costid.TokenPricePerM], z.tokensIn, v[costid.PriceInPerM], z.tokensOut, v[costid.PriceOutPerM])
			break
		}
		r.line("Tokens", r.OtherCostPerRun*z.runsPerMonth*months, "%.4g M tokens per batch × %.4g per M tokens", z.tokens/1e6, v[costid.TokenPricePerM])
	}
}

// managedTime estimates the elapsed time of a managed run, which the
// provider does not publish: its FLOPs on the offer's reference hardware
// (reference_gpus × reference_gpu in the catalog) at the scenario's MFU;
// a batch's output tokens decoded there, memory-bound (batchSeconds).
func (e *evaluator) managedTime(r *DirectionResult, offer catalog.ManagedOffer, what string) {
	g, ok := e.cat.GPU(offer.ReferenceGPU)
	if !ok || offer.ReferenceGPUs < 1 {
		return // the catalog's check refuses both
	}
	n := float64(offer.ReferenceGPUs)
	r.ComputeHours = e.z.flops / (n * e.z.achieved(g)) / 3600
	if e.z.inferBatch() {
		perToken, _ := e.z.batchSeconds(g, offer.ReferenceGPUs)
		r.ComputeHours = e.z.work * perToken / n / 3600
	}
	r.TimeToResultHours = r.ComputeHours
	if !r.quiet {
		r.note(NoteManagedTimeEstimated, []string{"workload.mfu"}, "%s estimated as %d × %s at the scenario's MFU: the provider publishes none", what, offer.ReferenceGPUs, gpuWords(g))
	}
}
