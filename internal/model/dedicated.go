package model

import (
	"fmt"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// Managed dedicated capacity. Beside its per-token service a provider may
// sell a dedicated deployment of an open model: replicas on GPUs it runs
// for one customer, paid per GPU-hour while they run (catalog managed
// offers of kind dedicated: Hugging Face Inference Endpoints, Fireworks
// on-demand deployments). A replica serves what the engine's serving plan
// on that GPU serves (serve), and the replicas follow the load over the
// day as rented cloud replicas do (autoscale), at least one: an
// interactive service keeps one warm. The managed direction takes per
// token or dedicated, whichever costs less over the horizon, unless
// options.managed.pricing says which.

// dedicated is a dedicated deployment of the served model on one offer.
type dedicated struct {
	offer        catalog.ManagedOffer
	gpu          catalog.GPU
	plan         servingPlan
	replicaHours float64 // a day
	low          int     // the fewest replicas over the day
	gpuHours     float64 // a month
	perMonth     float64 // gpuHours × the offer's price
}

// dedicatedFor is the cheapest dedicated deployment that serves the
// traffic: on the offer only when only is set, otherwise on any dedicated
// offer whose jurisdiction the residency allows. A replica may hold at
// most the offer's reference_gpus GPUs.
func (e *evaluator) dedicatedFor(only string) (best dedicated, ok bool) {
	z := e.z
	var buf [24]load
	day := e.day(&buf)
	margin := DefaultScaleUpMargin
	if t := e.s.Workload.Traffic; t != nil {
		margin = t.ScaleUpMargin.Or(DefaultScaleUpMargin)
	}
	pin, pinned := e.pinnedServe(scenario.Managed)
	for _, o := range e.cat.Managed {
		if o.Kind != "dedicated" || (only != "" && o.ID != only) || (only == "" && (!e.residencyOK(o.Jurisdiction) || !e.homeOK(o.ProviderHome))) {
			continue
		}
		e.weigh(catalog.KindManaged, o.ID)
		g, found := e.cat.GPU(o.ReferenceGPU)
		if !found {
			continue
		}
		hw := referenceNode(g)
		var p servingPlan
		if pinned {
			p = z.servePinned(hw, pin[0], pin[1], pin[2])
		} else {
			p = z.serve(hw)
		}
		if !p.ok || p.capped || p.gpus() > o.ReferenceGPUs {
			continue
		}
		d := dedicated{offer: o, gpu: g, plan: p, low: p.replicas, replicaHours: float64(p.replicas) * 24}
		if day != nil {
			d.replicaHours = 0
			for _, x := range day {
				n := replicasAt(x.rps, margin, p.rpsPerRep, p.replicas)
				d.low = min(d.low, n)
				d.replicaHours += float64(n) * x.hours
			}
		}
		d.gpuHours = d.replicaHours * float64(p.gpus()) * hoursPerMonth / 24
		d.perMonth = d.gpuHours * o.GPUHourPrice
		if !ok || d.perMonth < best.perMonth {
			best, ok = d, true
		}
	}
	return best, ok
}

// perTokenMonth is a month of the traffic at the per-token prices of
// offer (or the scenario's own).
func (e *evaluator) perTokenMonth(offer catalog.ManagedOffer) float64 {
	mo := e.s.Options.Managed
	in, out := mo.PriceInPerM.Or(offer.PriceInPerM), mo.PriceOutPerM.Or(offer.PriceOutPerM)
	return e.z.meanRPS * hoursPerMonth * 3600 * (e.z.tokensIn*in + e.z.tokensOut*out) / 1e6
}

// useDedicated costs r as the dedicated deployment d.
func (e *evaluator) useDedicated(r *DirectionResult, d dedicated) {
	v, p, o := r.Drivers, d.plan, d.offer
	r.Offer, r.OfferName = o.ID, o.Name
	e.use(r, o.ID, o.Entry)
	r.CostModel = costid.ManagedDedicatedCosts
	v[costid.ReplicaHoursPerDay], v[costid.GPUsPerReplica] = d.replicaHours, float64(p.gpus())
	v[costid.GPUHourPrice] = o.GPUHourPrice
	r.GPU, r.GPUs, r.PricePerGPUHour = d.gpu.ID, p.gpus()*p.replicas, o.GPUHourPrice
	r.ComputeHours, r.TimeToResultHours = hoursPerMonth, hoursPerMonth
	r.MemoryPerGPUGB = e.z.memPerGPU(p.gpus(), p.batch)
	r.Bottleneck = BottleneckCompute
	if p.memoryBound {
		r.Bottleneck = BottleneckMemoryBandwidth
	}
	r.Layout = &Layout{Tensor: p.tp, Pipeline: p.pp, Data: p.replicas, MicroBatches: 1}
	r.Serving = &Serving{GPUsPerReplica: p.gpus(), Batch: p.batch, ReplicasPeak: p.replicas, ReplicasMean: p.meanReplicas,
		DecodeStepMS: p.stepMS, TokensPerSecond: p.tokensPerSecond, RequestsPerSec: p.rpsPerRep, LatencyMS: p.latencyMS, MemoryBound: p.memoryBound,
		ReplicasLow: d.low, ReplicaHoursPerDay: d.replicaHours}
	if r.quiet {
		return
	}
	r.fromModel(costid.ReplicaHoursPerDay, scenario.Managed, costid.ReplicaHoursPerDay, InputPlan, "workload.traffic.peak_hours_per_day")
	r.fromModel(costid.GPUsPerReplica, scenario.Managed, costid.GPUsPerReplica, InputPlan, "workload.traffic.peak_rps")
	r.fromCatalog(costid.GPUHourPrice, scenario.Managed, "managed", o.ID, "gpu_hour_price", o.Entry)
	over := fmt.Sprintf("%d to %d replica(s)", d.low, p.replicas)
	if d.low == p.replicas {
		over = fmt.Sprintf("%d replica(s) all day", p.replicas)
	}
	r.note(NoteServingPlan, []string{"workload.traffic.peak_rps", "workload.traffic.mean_rps", "workload.traffic.latency_target_ms"},
		"dedicated deployment: %s of %d × %s (%d for the peak), batch %d, decode step %.1f ms, %.2f requests/s per replica; %.1f replica-hours a day",
		over, p.gpus(), gpuWords(d.gpu), p.replicas, p.batch, p.stepMS, p.rpsPerRep, d.replicaHours)
}

// dedicatedLines adds a dedicated deployment's cost line.
func (e *evaluator) dedicatedLines(r *DirectionResult) {
	v, months := r.Drivers, float64(e.months())
	r.line("Dedicated GPU-hours", r.OtherCostPerRun*months, "%.4g replica-hours a day × %.0f GPU(s) a replica × %.4g days a month × %.4g per GPU-hour",
		v[costid.ReplicaHoursPerDay], v[costid.GPUsPerReplica], hoursPerMonth/24.0, v[costid.GPUHourPrice])
}

// managedServing chooses between per-token pricing on offer (none when
// its ID is "") and a dedicated deployment for interactive serving, and
// sets r by the choice; only names a dedicated offer the scenario chose.
// It reports whether it settled r: a dedicated deployment, or none where
// the scenario asks for one; otherwise per-token pricing is r's to set.
func (e *evaluator) managedServing(r *DirectionResult, offer catalog.ManagedOffer, only string) (settled bool) {
	mode := e.s.Options.Managed.Pricing
	if only != "" {
		mode = "dedicated"
	}
	var d dedicated
	ok := false
	if mode != "per_token" || !r.quiet { // forced per token, for the note only
		d, ok = e.dedicatedFor(only)
	}
	tokens := 0.0
	if offer.ID != "" {
		tokens = e.perTokenMonth(offer)
	}
	e.tokensPerMonth = tokens
	switch {
	case mode == "dedicated" && !ok:
		if r.ruleOut() {
			r.infeasible(ReasonNoManagedOffer, []string{"options.managed.pricing", "options.managed.offer", "data.residency"},
				"no dedicated deployment in the catalog serves a %.3g B model at the peak of %s requests/s%s", e.z.paramsB, countWords(e.z.peakRPS), withinResidency(e.s.Data.Residency))
		}
		return true
	case !ok || (mode == "" && offer.ID != "" && tokens <= d.perMonth) || mode == "per_token":
		if ok && !r.quiet {
			r.note(NoteManagedPricing, []string{"options.managed.pricing"},
				"per-token pricing: %s a month; a dedicated deployment (%s) would cost %s a month", num.Whole(tokens), d.offer.Name, num.Whole(d.perMonth))
		}
		return false
	}
	e.useDedicated(r, d)
	if !e.residencyOK(d.offer.Jurisdiction) {
		e.outsideResidency(r, d.offer.Name, d.offer.Jurisdiction, "options.managed.offer")
	}
	e.ownership(r, d.offer.Name, d.offer.ProviderHome, d.offer.Jurisdiction, "options.managed.offer")
	if !r.quiet {
		other := "no per-token offer holds the model"
		if offer.ID != "" {
			other = fmt.Sprintf("per token (%s) would cost %s a month", offer.Name, num.Whole(tokens))
		}
		why := "it costs less"
		if mode == "dedicated" {
			why = "the scenario asks for it"
		}
		r.note(NoteManagedPricing, []string{"options.managed.pricing"},
			"a dedicated deployment (%s, %s per GPU-hour): %s a month, because %s; %s", d.offer.Name, strings.TrimSpace(fmt.Sprintf("%.4g", d.offer.GPUHourPrice)), num.Whole(d.perMonth), why, other)
	}
	return true
}
