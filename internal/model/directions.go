package model

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// producedOutputs is what a run of each shape must send back to be useful.
func producedOutputs(shape string) []string {
	switch shape {
	case scenario.ShapeTraining, scenario.ShapeFineTuning:
		return []string{"checkpoints"}
	case scenario.ShapeBatch:
		return []string{"predictions"}
	}
	return nil
}

// sovereigntyOutside marks r infeasible when the whole workload, source
// data included, may not run outside the controlled environment.
func (e *evaluator) sovereigntyOutside(r *DirectionResult, name, jurisdiction, offerField string) {
	d := e.s.Data
	switch d.Movement {
	case scenario.MoveNone:
		if r.ruleOut() {
			r.infeasible(ReasonDataMustStay, []string{"data.movement"}, "no data may leave the controlled environment")
		}
	case scenario.MoveSnapshot:
		if r.ruleOut() {
			r.infeasible(ReasonSourceMustStay, []string{"data.movement"},
				"the source records must stay in the controlled environment and only an approved snapshot may leave; this direction moves the whole workload out — hybrid sends only the snapshot")
		}
	}
	if !e.residencyOK(jurisdiction) {
		if r.ruleOut() {
			e.outsideResidency(r, name, jurisdiction, offerField)
		}
	}
}

func (e *evaluator) managed(r *DirectionResult) error {
	z, s := e.z, e.s
	kind := "inference"
	if s.Workload.Shape == scenario.ShapeFineTuning || s.Workload.Shape == scenario.ShapeTraining {
		kind = "fine_tuning"
	}
	var offer catalog.ManagedOffer
	if id := s.Options.Managed.Offer; id != "" {
		o, ok := e.cat.ManagedOffer(id)
		if !ok {
			return scenario.Errors{{Path: "options.managed.offer", Problem: fmt.Sprintf("%q is not in the catalog", id), Allowed: strings.Join(e.cat.IDs("managed"), ", ")}}
		}
		offer = o
	} else {
		// The cheapest offer of the right kind whose size class holds the model.
		best := math.Inf(1)
		for _, o := range e.cat.Managed {
			if o.Kind != kind || o.MaxParamsB < z.paramsB {
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
		if r.ruleOut() {
			r.infeasible(ReasonProviderMayNotProcess, []string{"data.provider_may_process"}, "the provider may not receive or keep the data")
		}
	}
	if s.Workload.Shape == scenario.ShapeTraining {
		if r.ruleOut() {
			r.infeasible(ReasonNoManagedTraining, []string{"workload.shape"},
				"no managed service in the catalog trains a model from scratch; add one with a catalog override")
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
		if r.ruleOut() {
			e.outsideResidency(r, offer.Name, offer.Jurisdiction, "options.managed.offer")
		}
	}
	if kind == "fine_tuning" && !offer.ReturnsWeights && slices.Contains(d.ReturnOutputs, "checkpoints") {
		if r.ruleOut() {
			r.infeasible(ReasonProviderKeepsWeights, []string{"data.return_outputs", "options.managed.offer"},
				"%s keeps the tuned weights, so the checkpoints cannot come back", offer.Name)
		}
	}

	in := s.Options.Managed.PriceInPerM.Or(offer.PriceInPerM)
	out := s.Options.Managed.PriceOutPerM.Or(offer.PriceOutPerM)
	switch {
	case kind == "fine_tuning":
		// Per-token fine-tuning price × training tokens.
		r.OtherCostPerRun = z.tokens / 1e6 * offer.TrainPerMTokens
		if !r.quiet {
			r.line("Fine-tuning tokens", r.OtherCostPerRun*z.runsPerMonth*float64(e.months()), "%.4g M tokens per run × %.4g per M tokens", z.tokens/1e6, offer.TrainPerMTokens)
		}
		// The provider does not publish elapsed time: estimate it as 8 × H100.
		if g, ok := e.cat.GPU("h100-sxm"); ok {
			r.ComputeHours = z.flops / (8 * z.achieved(g)) / 3600
			r.TimeToResultHours = r.ComputeHours
			if !r.quiet {
				r.note(NoteManagedTimeEstimated, []string{"workload.mfu"}, "time to result estimated as 8 × H100 at the scenario's MFU: the provider publishes none")
			}
		}
	case z.serving:
		// Per-token prices × a month of traffic at the mean rate.
		reqs := z.meanRPS * hoursPerMonth * 3600
		r.OtherCostPerRun = reqs * (z.tokensIn*in + z.tokensOut*out) / 1e6
		if !r.quiet {
			r.line("Tokens", r.OtherCostPerRun*float64(e.months()), "%.4g requests/month × (%.0f in × %.4g + %.0f out × %.4g) per M tokens", reqs, z.tokensIn, in, z.tokensOut, out)
		}
		r.TimeToResultHours = hoursPerMonth
		r.ComputeHours = hoursPerMonth
	default:
		// Batch: tokens priced at the mean of input and output prices unless
		// traffic gives the split.
		price := (in + out) / 2
		if t := s.Workload.Traffic; t != nil && z.tokensIn+z.tokensOut > 0 {
			price = (t.TokensIn.Or(0)*in + t.TokensOut.Or(0)*out) / (t.TokensIn.Or(0) + t.TokensOut.Or(0))
		} else {
			if !r.quiet {
				r.note(NoteTokenSplitAssumed, []string{"workload.traffic.tokens_in", "workload.traffic.tokens_out"},
					"batch tokens priced at the mean of input and output prices (no split between input and output tokens given)")
			}
		}
		r.OtherCostPerRun = z.tokens / 1e6 * price
		if !r.quiet {
			r.line("Tokens", r.OtherCostPerRun*z.runsPerMonth*float64(e.months()), "%.4g M tokens per batch × %.4g per M tokens", z.tokens/1e6, price)
		}
		if g, ok := e.cat.GPU("h100-sxm"); ok {
			r.ComputeHours = z.flops / (8 * z.achieved(g)) / 3600
			r.TimeToResultHours = r.ComputeHours
			if !r.quiet {
				r.note(NoteManagedTimeEstimated, []string{"workload.mfu"}, "batch time estimated as 8 × H100 at the scenario's MFU: the provider publishes none")
			}
		}
	}
	e.staff(r, staffManaged, "managed service")
	return nil
}

// cloudOffer resolves the cloud offer and its price for the pricing mode.
func (e *evaluator) cloudOffer(r *DirectionResult) (catalog.CloudOffer, catalog.GPU, float64, error) {
	o := e.s.Options.Cloud
	mode := o.Pricing
	if mode == "" {
		mode = "on_demand"
	}
	var offer catalog.CloudOffer
	if o.Offer != "" {
		x, ok := e.cat.CloudOffer(o.Offer)
		if !ok {
			return offer, catalog.GPU{}, 0, scenario.Errors{{Path: "options.cloud.offer", Problem: fmt.Sprintf("%q is not in the catalog", o.Offer), Allowed: strings.Join(e.cat.IDs("cloud"), ", ")}}
		}
		if _, ok := x.Price(mode); !ok && !o.PricePerGPUHr.IsSet() {
			return offer, catalog.GPU{}, 0, scenario.Errors{{Path: "options.cloud.pricing", Problem: fmt.Sprintf("%s has no catalog price for %s", mode, x.ID), Allowed: strings.Join(x.Modes(), ", ") + ", or set options.cloud.price_per_gpu_hour"}}
		}
		offer = x
	} else {
		// The model's choice: the offer with the lowest GPU-hours × price for
		// one run, within the data residency.
		best := math.Inf(1)
		for _, x := range e.cat.Cloud {
			p, ok := x.Price(mode)
			g, _ := e.cat.GPU(x.GPU)
			if !ok || !e.residencyOK(x.Jurisdiction) {
				continue
			}
			cost := p / g.PeakTFLOPs(e.z.precision) // price per unit of compute
			if e.z.serving {
				plan := e.z.serve(g)
				if !plan.ok {
					continue
				}
				cost = p * float64(plan.tp*plan.replicas)
			}
			if cost < best {
				best, offer = cost, x
			}
		}
		if offer.ID == "" {
			offer = e.cat.Cloud[0]
			if r.ruleOut() {
				r.infeasible(ReasonNoCloudPrice, []string{"options.cloud.pricing", "data.residency"},
					"no cloud offer in the catalog has a %s price%s", pricingWords(mode), withinResidency(e.s.Data.Residency))
			}
		}
	}
	g, _ := e.cat.GPU(offer.GPU)
	price, _ := offer.Price(mode)
	price = o.PricePerGPUHr.Or(price)
	if !r.quiet {
		r.note(NotePricingMode, []string{"options.cloud.pricing"}, "pricing: %s", pricingWords(mode))
	}
	return offer, g, price, nil
}

func (e *evaluator) cloud(r *DirectionResult, burst bool) error {
	offer, g, price, err := e.cloudOffer(r)
	if err != nil {
		return err
	}
	r.Offer, r.OfferName = offer.ID, offer.Name
	e.use(r, offer.ID, offer.Entry)
	e.cite(r, g.ID, g.Entry)
	if !burst {
		e.sovereigntyOutside(r, offer.Name, offer.Jurisdiction, "options.cloud.offer")
	} else if !e.residencyOK(offer.Jurisdiction) {
		if r.ruleOut() {
			e.burstOutside(r, offer.Name, offer.Jurisdiction, "options.cloud.offer")
		}
	}
	z := e.z
	stageGB := z.stagingGB
	if burst {
		stageGB = e.s.Data.SnapshotGB.Or(z.stagingGB)
	}
	stageH := 0.0
	if !z.serving {
		stageH = z.stagingHours(stageGB)
	}
	hw := hardware{gpu: g, perNode: offer.GPUsPerNode, intraGBs: offer.IntraNodeGBs, netGBs: offer.NetworkGBsPerGPU,
		storageGBs: offer.StorageGBs, maxGPUs: offer.MaxGPUs}
	e.place(r, hw, e.s.Options.Cloud.GPUs, stageH)
	if r.DataPath != nil {
		r.DataPath.StagingHours = stageH
	}
	r.VariablePricePerGPUHour = price
	r.PricePerGPUHour = price
	switch mode := e.s.Options.Cloud.Pricing; {
	case mode == "spot" && !z.serving:
		e.spot(r, hw)
	case mode == "commit_1y" || mode == "commit_3y":
		// A commitment pays for the reserved GPUs every hour of the month,
		// used or not.
		reserved := float64(r.GPUs) * hoursPerMonth
		if need := r.GPUHoursPerRun * z.runsPerMonth; need > reserved*(1+1e-9) {
			if r.ruleOut() {
				r.infeasible(ReasonCommittedGPUsShort, []string{"options.cloud.gpus", "options.cloud.pricing", "workload.runs_per_month"},
					"needs %s GPU-hours a month; %d committed GPUs give %s", Grouped(need), r.GPUs, Grouped(reserved))
			}
		}
		r.VariablePricePerGPUHour = 0
		commit := reserved * price
		r.MonthlyFixedCost += commit
		if !r.quiet {
			r.line("Committed GPUs", commit*float64(e.months()), "%d GPUs × 730 h × %.4g per GPU-hour × %d months, used or not", r.GPUs, price, e.months())
		}
		if !r.quiet && reserved > 0 { // no GPUs (nothing fits): no utilisation to state
			r.note(NoteCommittedUtilisation, []string{"options.cloud.gpus", "options.cloud.pricing"},
				"committed pricing: %d GPUs are paid for every hour; utilisation %.0f %%", r.GPUs, 100*r.GPUHoursPerRun*z.runsPerMonth/reserved)
		}
	}

	dp, ok := e.cat.DataPrice(offer.Provider)
	storage := e.s.Options.Cloud.StorageGBMonth.Or(dp.StoragePerGBMonth)
	egress := e.s.Options.Cloud.EgressPerGB.Or(dp.EgressPerGB)
	if ok {
		if !r.quiet {
			e.use(r, "data prices "+offer.Provider, dp.Entry)
		}
	} else if !e.s.Options.Cloud.StorageGBMonth.IsSet() {
		if !r.quiet {
			r.note(NoteDataPricesMissing, []string{"options.cloud.storage_per_gb_month", "options.cloud.egress_per_gb"},
				"no storage or egress price for %s in the catalog: counted as 0", offer.Provider)
		}
	}
	if burst {
		// The snapshot lives in cloud storage for the run only; outputs return.
		runMonths := r.TimeToResultHours / hoursPerMonth
		r.OtherCostPerRun = stageGB*storage*runMonths + z.outputGB*egress
		if !r.quiet {
			r.line("Snapshot storage and output egress", r.OtherCostPerRun*z.runsPerMonth*float64(e.months()), "%.4g GB × %.4g per GB-month for %.2f months + %.4g GB × %.4g egress, per run", stageGB, storage, runMonths, z.outputGB, egress)
		}
	} else {
		// The data set lives in the cloud for the horizon; outputs leave each run.
		monthly := stageGB * storage
		r.MonthlyFixedCost += monthly
		if !r.quiet {
			r.line("Object storage", monthly*float64(e.months()), "%.4g GB × %.4g per GB-month × %d months", stageGB, storage, e.months())
		}
		r.OtherCostPerRun = z.outputGB * egress
		if r.OtherCostPerRun > 0 {
			if !r.quiet {
				r.line("Egress of outputs", r.OtherCostPerRun*z.runsPerMonth*float64(e.months()), "%.4g GB × %.4g per GB per run", z.outputGB, egress)
			}
		}
		e.staff(r, staffCloud, "cloud IaaS operations")
	}
	return nil
}

func (e *evaluator) onPrem(r *DirectionResult) error {
	o := e.s.Options.OnPrem
	site := e.cat.Site
	var node catalog.Node
	if o.Node != "" {
		n, ok := e.cat.Node(o.Node)
		if !ok {
			return scenario.Errors{{Path: "options.on_prem.node", Problem: fmt.Sprintf("%q is not in the catalog", o.Node), Allowed: strings.Join(e.cat.IDs("nodes"), ", ")}}
		}
		node = n
	} else {
		// The node with the lowest purchase price per dense TFLOP/s.
		best := math.Inf(1)
		for _, n := range e.cat.Nodes {
			g, _ := e.cat.GPU(n.GPU)
			if c := n.Price / (float64(n.GPUs) * g.PeakTFLOPs(e.z.precision)); c < best {
				best, node = c, n
			}
		}
	}
	g, _ := e.cat.GPU(node.GPU)
	r.Offer, r.OfferName = node.ID, node.Name
	e.use(r, node.ID, node.Entry)
	e.cite(r, g.ID, g.Entry)
	e.use(r, "site defaults", site.Entry)
	if e.s.Data.Movement != scenario.MoveNone && e.s.Data.ControlledEnv != "" && e.s.Data.ControlledEnv != scenario.OnPrem {
		if !r.quiet {
			r.note(NoteControlledElsewhere, []string{"data.controlled_environment"},
				"the controlled environment is %s: on-premises here means new owned hardware", directionWords(e.s.Data.ControlledEnv))
		}
	}

	z := e.z
	fixedGPUs := 0
	if o.Nodes > 0 {
		fixedGPUs = o.Nodes * node.GPUs
	}
	stageH := 0.0
	if !z.serving {
		stageH = z.stagingHours(z.stagingGB)
	}
	hw := hardware{gpu: g, perNode: node.GPUs, intraGBs: node.IntraNodeGBs, netGBs: node.NetworkGBs,
		storageGBs: node.StorageGBs, maxGPUs: fixedGPUs}
	e.place(r, hw, fixedGPUs, stageH)
	if r.DataPath != nil {
		r.DataPath.StagingHours = stageH
	}
	nodes := o.Nodes
	if nodes == 0 {
		nodes = int(math.Ceil(float64(r.GPUs) / float64(node.GPUs)))
	}
	if !o.Existing {
		r.LeadTimeDays = node.LeadTimeWeeks * 7
		if !r.quiet {
			r.note(NoteLeadTime, []string{"options.on_prem.node", "options.on_prem.existing"},
				"lead time %.0f weeks before the first run (procurement and installation, estimate)", node.LeadTimeWeeks)
		}
	}

	elec := o.ElectricityKWh.Or(site.ElectricityPerKWh)
	pue := o.PUE.Or(site.PUE)
	life := site.LifeYears
	if o.LifeYears > 0 {
		life = o.LifeYears
	}
	months := float64(e.months())
	price := o.NodePrice.Or(node.Price)
	capex := price * float64(nodes)
	// Straight-line depreciation over the stated life.
	dep := capex / (life * 12)
	maint := capex * site.MaintenancePerYear / 12
	space := site.ColoPerKWMonth * node.PowerKWMax * float64(nodes)
	// Idle draw all month: typical power × idle fraction × PUE × price.
	idle := node.PowerKWTypical * site.IdlePowerFraction * float64(nodes) * pue * elec * hoursPerMonth
	switch {
	case o.Existing:
		if !r.quiet {
			r.note(NoteExistingHardware, []string{"options.on_prem.existing"}, "existing hardware: no depreciation charged, running costs only")
		}
		dep = 0
	case o.Financing == "purchase":
		// Cash view: the price is paid up front; no residual value is
		// credited at the end of the horizon.
		dep = 0
		r.OneOffCost = capex
		if !r.quiet {
			r.line("Purchase", capex, "%d × %.0f paid at the start (no residual value credited)", nodes, price)
		}
	case o.Financing == "lease":
		dep = o.LeasePerNodeMonth.Likely * float64(nodes)
		if !r.quiet {
			r.line("Lease", dep*months, "%d nodes × %.0f per node-month × %d months", nodes, o.LeasePerNodeMonth.Likely, e.months())
		}
	default:
		if !r.quiet {
			r.line("Depreciation", dep*months, "%d × %.0f purchase ÷ (%.3g years × 12) × %d months", nodes, price, life, e.months())
		}
	}
	if !r.quiet {
		r.line("Maintenance", maint*months, "%.0f %% of %.0f per year ÷ 12 × %d months (estimate)", site.MaintenancePerYear*100, capex, e.months())
	}
	if !r.quiet {
		r.line("Space (colocation)", space*months, "%.4g per kW-month × %.4g kW × %d nodes × %d months", site.ColoPerKWMonth, node.PowerKWMax, nodes, e.months())
	}
	if !r.quiet {
		r.line("Idle power", idle*months, "%.4g kW × %.0f %% idle × %d nodes × PUE %.3g × %.4g per kWh × 730 h × %d months", node.PowerKWTypical, site.IdlePowerFraction*100, nodes, pue, elec, e.months())
	}
	r.MonthlyFixedCost = dep + maint + space + idle
	// Active power above idle, per GPU-hour used.
	r.VariablePricePerGPUHour = node.PowerKWTypical * (1 - site.IdlePowerFraction) / float64(node.GPUs) * pue * elec
	if !r.quiet {
		r.note(NotePowerAboveIdle, []string{"options.on_prem.pue", "options.on_prem.electricity_per_kwh"},
			"power above idle: %.4g per GPU-hour (%.4g kW per GPU × PUE %.3g × %.4g per kWh)", r.VariablePricePerGPUHour, node.PowerKWTypical/float64(node.GPUs), pue, elec)
	}
	used := r.GPUHoursPerRun * z.runsPerMonth
	capacity := float64(nodes*node.GPUs) * hoursPerMonth
	if capacity > 0 {
		util := used / capacity
		if !r.quiet {
			r.note(NoteOwnedUtilisation, []string{"options.on_prem.nodes", "workload.runs_per_month"},
				"utilisation %.1f %% of %d GPUs (%.0f of %.0f GPU-hours a month)", util*100, nodes*node.GPUs, used, capacity)
		}
		if util > 1 {
			if r.ruleOut() {
				r.infeasible(ReasonOwnedCapacityShort, []string{"options.on_prem.nodes", "workload.runs_per_month"},
					"needs %s GPU-hours a month; %s %s", Grouped(used), plural(nodes, "node"), agree(nodes, "gives ", "give ")+Grouped(capacity))
			}
		}
	}
	fte := o.StaffFTE.Or(staffOnPrem)
	e.staff(r, fte, "on-premises hardware, facilities and cluster")
	// Effective price per GPU-hour when the hardware is busy u of the time:
	// the monthly fixed cost (amortised capex for a purchase) over the used
	// hours, plus the power above idle.
	fixed := r.MonthlyFixedCost + r.OneOffCost/months
	u := used / capacity
	if o.ExpectedUtilisation.IsSet() {
		u = o.ExpectedUtilisation.Likely
	}
	if u > 0 && capacity > 0 && !r.quiet {
		r.OwnedCost = &OwnedCost{Utilisation: u, EffectivePricePerGPUHour: fixed/(capacity*u) + r.VariablePricePerGPUHour,
			FixedPerMonth: fixed, GPUs: nodes * node.GPUs}
	}
	// After the owned cost: bridge rental is not a cost of the hardware.
	e.bridge(r, months)
	return nil
}

func (e *evaluator) hpcPartition() (catalog.Partition, error) {
	o := e.s.Options.HPC
	if o.Partition != "" {
		p, ok := e.cat.Partition(o.Partition)
		if !ok {
			return p, scenario.Errors{{Path: "options.hpc.partition", Problem: fmt.Sprintf("%q is not in the catalog", o.Partition), Allowed: strings.Join(e.cat.IDs("hpc"), ", ")}}
		}
		return p, nil
	}
	// The cheapest partition in the right jurisdiction and currency whose
	// GPUs can hold the model.
	var best catalog.Partition
	bestCost := math.Inf(1)
	for _, p := range e.cat.HPC {
		g, _ := e.cat.GPU(p.GPU)
		if !e.residencyOK(p.Jurisdiction) || p.Currency != e.s.Currency || e.z.minGPUs(g, p.MaxGPUs) == 0 {
			continue
		}
		// An allocation-only partition (no price) is a choice only for a
		// scenario that states its granted hours.
		if p.PricePerGPUHour == 0 && !e.s.Options.HPC.GrantedGPUHours.IsSet() {
			continue
		}
		if c := p.PricePerGPUHour / g.PeakTFLOPs(e.z.precision); c < bestCost {
			bestCost, best = c, p
		}
	}
	if best.ID == "" {
		best = e.cat.HPC[0]
	}
	return best, nil
}

func (e *evaluator) hpc(r *DirectionResult, burst bool) error {
	p, err := e.hpcPartition()
	if err != nil {
		return err
	}
	o := e.s.Options.HPC
	g, _ := e.cat.GPU(p.GPU)
	r.Offer, r.OfferName = p.ID, p.Centre
	e.use(r, p.ID, p.Entry)
	e.cite(r, g.ID, g.Entry)
	z := e.z
	if z.serving {
		if r.ruleOut() {
			r.infeasible(ReasonHPCNotForServing, []string{"workload.shape"}, "shared HPC runs bounded batch jobs through a scheduler, not an always-on service")
		}
	}
	if !burst {
		e.sovereigntyOutside(r, p.Centre, p.Jurisdiction, "options.hpc.partition")
	} else if !e.residencyOK(p.Jurisdiction) {
		if r.ruleOut() {
			e.burstOutside(r, p.Centre, p.Jurisdiction, "options.hpc.partition")
		}
	}
	if p.Currency != e.s.Currency && !o.PricePerGPUHr.IsSet() && !r.quiet {
		w := newNote(NotePartitionCurrency, []string{"currency", "options.hpc.partition", "options.hpc.price_per_gpu_hour"},
			fmt.Sprintf("the HPC partition %s is priced in %s; the scenario is in %s and no exchange rate is applied", p.Centre, p.Currency, e.s.Currency))
		e.currencyWarn = &w
	}
	stageGB := z.stagingGB
	if burst {
		stageGB = e.s.Data.SnapshotGB.Or(z.stagingGB)
	}
	stageH := z.stagingHours(stageGB)
	wait := o.QueueWaitHours.Or(p.QueueWaitHours[1])
	if !o.QueueWaitHours.IsSet() {
		if !r.quiet {
			r.note(NoteQueueWaitAssumed, []string{"options.hpc.queue_wait_hours"},
				"queue wait %.0f h per job assumed (catalog estimate %.0f–%.0f h); give the wait the centre reports", wait, p.QueueWaitHours[0], p.QueueWaitHours[2])
		}
	}
	hw := hardware{gpu: g, perNode: p.GPUsPerNode, intraGBs: p.IntraNodeGBs, netGBs: p.NetworkGBs,
		storageGBs: p.StorageGBs, maxGPUs: p.MaxGPUs}
	e.place(r, hw, o.GPUs, stageH+wait)
	if !z.serving {
		// The wall-time limit splits the run into jobs, each ending with a
		// checkpoint and queued again.
		delta := e.checkpointHours(hw)
		chunks := WallTimeChunks(r.ComputeHours, p.WalltimeHours, delta)
		if chunks == 0 {
			if r.ruleOut() {
				r.infeasible(ReasonCheckpointOverWallTime, []string{"options.hpc.partition"},
					"writing one checkpoint (%.1f h) does not fit the %.0f h wall-time limit", delta, p.WalltimeHours)
			}
			chunks = 1
		}
		extra := float64(chunks) * delta
		r.ComputeHours += extra
		r.GPUHoursPerRun = r.ComputeHours * float64(r.GPUs)
		r.TimeToResultHours = r.ComputeHours + stageH + float64(chunks)*wait
		if !r.quiet {
			r.Interruptions = &Interruptions{CheckpointMinutes: delta * 60, WallTimeChunks: chunks}
		}
		if !r.quiet {
			r.note(NoteWallTimeJobs, []string{"options.hpc.partition", "options.hpc.queue_wait_hours"},
				"%d job(s) of at most %.0f h wall time, each ending with a %.1f min checkpoint and waiting %.0f h in the queue", chunks, p.WalltimeHours, delta*60, wait)
		}
		if float64(chunks)*wait > r.ComputeHours {
			r.Bottleneck = BottleneckQueue
		}
		if r.DataPath != nil {
			r.DataPath.StagingHours = stageH
		}
	}
	price := o.PricePerGPUHr.Or(p.PricePerGPUHour)
	r.VariablePricePerGPUHour = price
	r.PricePerGPUHour = price
	if grant := o.GrantedGPUHours; grant.IsSet() {
		need := r.GPUHoursPerRun * z.runsPerMonth
		if need > grant.Likely {
			if r.ruleOut() {
				r.infeasible(ReasonGrantExceeded, []string{"options.hpc.granted_gpu_hours", "workload.runs_per_month"},
					"needs %s GPU-hours a month; the grant is %s", Grouped(need), Grouped(grant.Likely))
			}
		}
		if price == 0 {
			if !r.quiet {
				r.note(NoteGrantedHours, []string{"options.hpc.granted_gpu_hours"}, "granted hours: no charge, limited by the quota")
			}
		}
	}
	if !burst {
		e.staff(r, staffHPC, "job scripts and scheduler use")
	}
	return nil
}

func (e *evaluator) hybrid(r *DirectionResult) error {
	o := e.s.Options.Hybrid
	target := o.BurstTo
	if target == "" {
		target = scenario.Cloud
	}
	var err error
	if target == scenario.HPC {
		err = e.hpc(r, true)
	} else {
		err = e.cloud(r, true)
	}
	if err != nil {
		return err
	}
	if !r.quiet {
		r.note(NoteBurstPlan, []string{"options.hybrid.burst_to"},
			"the source data and its preparation stay in the controlled environment; compute bursts to %s", scenario.DirectionTitle[target])
	}
	d := e.s.Data
	switch d.Movement {
	case scenario.MoveNone:
		if r.ruleOut() {
			r.infeasible(ReasonNothingToBurst, []string{"data.movement"}, "no data may leave, not even a snapshot, so there is nothing to burst")
		}
	case scenario.MoveAny:
		if !r.quiet {
			r.note(NoteHybridUnconstrained, []string{"data.movement"},
				"hybrid earns its complexity only when a constraint needs two environments; here the data may move freely")
		}
	}
	if e.z.serving && d.Movement != scenario.MoveAny {
		if r.ruleOut() {
			r.infeasible(ReasonLiveRequestsCarryData, []string{"data.movement", "workload.shape"}, "live requests would carry source data out of the controlled environment")
		}
	}
	for _, need := range producedOutputs(e.s.Workload.Shape) {
		if !slices.Contains(d.ReturnOutputs, need) {
			if r.ruleOut() {
				r.infeasible(ReasonOutputsMayNotReturn, []string{"data.return_outputs"},
					"the run's %s may not come back: they are not among the outputs allowed to return", need)
			}
		}
	}
	base := staffCloud
	if target == scenario.HPC {
		base = staffHPC
	}
	extra := o.ExtraFTE.Or(staffHybrid)
	basis := ""
	if !r.quiet {
		basis = fmt.Sprintf("%s burst plus %.2f FTE for transfers and two environments", target, extra)
	}
	e.staff(r, base+extra, basis)
	return nil
}

// Restart after an interruption: new capacity, container start and reading
// the last checkpoint back (estimate).
const restartHours = 10.0 / 60

// defaultSpotInterruptions is the middle of the AWS Spot Instance Advisor's
// 5–10 % bucket: no rate is published for large GPU instances, so it is an
// estimate the user should replace (prices.md).
const defaultSpotInterruptions = 0.075

// checkpointHours is the time to write the full model state (weights,
// gradients and optimizer state) to the direction's storage.
func (e *evaluator) checkpointHours(hw hardware) float64 {
	if hw.storageGBs <= 0 {
		return 0
	}
	return e.z.totalStateGB() / hw.storageGBs / 3600
}

// spot adds the expected cost of interruptions to a run on spot capacity:
// the job stops when any of its nodes is reclaimed, so its mean time
// between interruptions is M = 1 / (nodes · rate); checkpoints are written
// at Daly's interval and the overhead is the time writing them plus the lost
// work and restarts (reliability.go).
func (e *evaluator) spot(r *DirectionResult, hw hardware) {
	f := e.s.Options.Cloud.SpotInterruptions.Or(defaultSpotInterruptions)
	if !e.s.Options.Cloud.SpotInterruptions.IsSet() {
		if !r.quiet {
			r.note(NoteSpotRateAssumed, []string{"options.cloud.spot_interruptions_per_month"},
				"spot interruptions: %.1f %% of instances a month assumed (AWS Spot Advisor 5–10 %% bucket; no published figure for GPU instances)", f*100)
		}
	}
	if f <= 0 {
		return
	}
	nodes := int(math.Ceil(float64(r.GPUs) / float64(hw.perNode)))
	mtbi := JobMTBI(RateFromMonthlyFraction(f), nodes)
	delta := e.checkpointHours(hw)
	tau := DalyInterval(delta, mtbi)
	ov := CheckpointOverhead(delta, mtbi, tau, restartHours)
	if !r.quiet {
		r.Interruptions = &Interruptions{MTBIHours: mtbi, CheckpointMinutes: delta * 60, IntervalHours: tau, OverheadFraction: ov, WallTimeChunks: 1}
	}
	added := r.ComputeHours * ov
	r.ComputeHours += added
	r.GPUHoursPerRun = r.ComputeHours * float64(r.GPUs)
	r.TimeToResultHours += added
	if ov >= 1 {
		if r.ruleOut() {
			r.infeasible(ReasonSpotTooInterrupted, []string{"options.cloud.pricing", "options.cloud.spot_interruptions_per_month", "options.cloud.gpus"},
				"on spot capacity the job is interrupted every %.1f h on average: checkpoints, lost work and restarts would take longer than the work", mtbi)
		}
	}
	if !r.quiet {
		r.note(NoteSpotOverhead, []string{"options.cloud.spot_interruptions_per_month"},
			"spot: job MTBI %.0f h over %d node(s); checkpoint every %.1f h (Daly) adds %.1f %% for checkpoints, lost work and restarts", mtbi, nodes, tau, ov*100)
	}
}

// daysPerMonth is 365.25 ÷ 12.
const daysPerMonth = 365.25 / 12

// bridge counts the runs that fall inside the on-premises lead time: they
// are rented from the cloud direction at its variable cost per run (the
// hardware's costs already start in month 1, so this is conservative). When
// the cloud direction is itself ruled out there is nothing to bridge with:
// those runs wait for the hardware, and the note says so.
func (e *evaluator) bridge(r *DirectionResult, months float64) {
	if r.LeadTimeDays <= 0 || e.z.runsPerMonth <= 0 {
		return
	}
	lead := math.Min(r.LeadTimeDays/daysPerMonth, months)
	if !e.cloudFeasible {
		if !r.quiet {
			r.note(NoteBridgeUnavailable, []string{"options.on_prem.existing"},
				"the runs of the first %.1f months wait for the hardware: the cloud direction, the bridge, is ruled out", lead)
		}
		return
	}
	cost := lead * e.z.runsPerMonth * e.cloudRun
	r.OneOffCost += cost
	if !r.quiet {
		r.line("Bridge capacity during the lead time", cost, "%.2f months × %.4g runs/month × %.4g per run on the cloud direction", lead, e.z.runsPerMonth, e.cloudRun)
	}
}
