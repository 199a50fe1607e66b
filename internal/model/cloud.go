package model

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// cloudOffer resolves the cloud offer and its price for the pricing mode.
func (e *evaluator) cloudOffer(r *DirectionResult) (catalog.CloudOffer, catalog.GPU, float64, error) {
	o := e.s.Options.Cloud
	mode := o.PricingMode()
	var offer catalog.CloudOffer
	if o.Offer != "" {
		x, ok := e.cat.CloudOffer(o.Offer)
		if !ok {
			return offer, catalog.GPU{}, 0, scenario.Errors{{Path: "options.cloud.offer", Problem: fmt.Sprintf("%q is not in the catalog", o.Offer), Allowed: strings.Join(e.cat.IDs(catalog.KindCloud), ", ")}}
		}
		if _, ok := x.Price(mode); !ok && !o.PricePerGPUHr.IsSet() {
			return offer, catalog.GPU{}, 0, scenario.Errors{{Path: "options.cloud.pricing", Problem: fmt.Sprintf("%s has no catalog price for %s", mode, x.ID), Allowed: strings.Join(x.Modes(), ", ") + ", or set options.cloud.price_per_gpu_hour"}}
		}
		offer = x
		if e.reads != nil && e.reads.Cloud == nil {
			e.reads.Cloud = &CloudChoice{Mode: mode, Taken: x.ID, Pinned: true}
		}
	} else {
		// The model's choice: the offer with the lowest GPU-hours × price for
		// one run, within the data residency (gpuHoursPerWork: memory as
		// well as FLOPs); when none holds the work, the lowest price per
		// dense TFLOP/s, whose placement then says why.
		best, bestAny := math.Inf(1), math.Inf(1)
		var fallback catalog.CloudOffer
		excluded := false // an offer left out only by its provider's home
		type fit struct {
			work float64
			fits bool
		}
		fitOf := map[hardware]fit{} // offers on the same hardware size the work once
		var ranked []RunnerUp
		var choice *CloudChoice // what the choice read, recorded on the first
		if e.reads != nil && e.reads.Cloud == nil {
			choice = &CloudChoice{Mode: mode, Work: map[string]float64{}}
		}
		for _, x := range e.cat.Cloud {
			p, ok := x.Price(mode)
			g, _ := e.cat.GPU(x.GPU)
			if g.Stack != "" {
				continue // a TPU is a platform change: taken only when the scenario names its offer
			}
			if choice != nil && !ok && e.residencyOK(x.Jurisdiction) && e.homeOK(x.ProviderHome) {
				choice.Unpriced = append(choice.Unpriced, x.ID)
			}
			if !ok || !e.residencyOK(x.Jurisdiction) {
				continue
			}
			if !e.homeOK(x.ProviderHome) {
				excluded = true
				continue
			}
			if c := p / g.PeakTFLOPs(e.z.precision); c < bestAny {
				bestAny, fallback = c, x
			}
			hw := offerHardware(x, g)
			f, seen := fitOf[hw]
			if !seen {
				f.work, f.fits = e.z.gpuHoursPerWork(hw)
				fitOf[hw] = f
			}
			if choice != nil {
				choice.Work[x.ID] = -1
				if f.fits {
					choice.Work[x.ID] = f.work
				}
			}
			if !f.fits {
				continue
			}
			if p*f.work < best {
				best, offer = p*f.work, x
			}
			if !r.quiet {
				ranked = append(ranked, RunnerUp{Offer: x.ID, OfferName: x.Name, Region: x.Region, Jurisdiction: x.Jurisdiction,
					ProviderHome: x.ProviderHome, PricePerGPUHour: p, RelativeCost: p * f.work})
			}
		}
		if choice != nil {
			choice.Taken, choice.Fallback = offer.ID, offer.ID == ""
			if !choice.Fallback {
				choice.Best = best
			}
			delete(choice.Work, offer.ID)
			e.reads.Cloud = choice
		}
		if offer.ID == "" {
			offer = fallback
		} else if !r.quiet {
			r.RunnersUp = runnersUp(ranked, offer.ID, best)
			if len(r.RunnersUp) > 0 {
				var next []string
				for _, x := range r.RunnersUp {
					next = append(next, fmt.Sprintf("%s at %s %s a GPU-hour (%+.0f %% for the work)", x.OfferName, num.Fixed(x.PricePerGPUHour, 2), e.s.Currency, 100*(x.RelativeCost-1)))
				}
				r.note(NoteOfferChoice, []string{"options.cloud.offer"}, "offer: the cheapest for the work of %d offers (%s prices%s); next: %s",
					len(ranked), pricingWords(mode), withinResidency(e.s.Data.Residency), strings.Join(next, "; "))
			}
		}
		if offer.ID == "" && excluded {
			offer = e.cat.Cloud[0]
			if r.ruleOut() {
				r.infeasible(ReasonProviderHomeExcluded, []string{"dimensions.sovereignty.provider_home", "options.cloud.offer"},
					"no cloud offer in the catalog with a %s price%s belongs to a provider at home in %s", pricingWords(mode), withinResidency(e.s.Data.Residency), strings.Join(e.s.Dimensions.Sovereignty.ProviderHome, ", "))
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
		e.burstOutside(r, offer.Name, offer.Jurisdiction, "options.cloud.offer")
	}
	e.ownership(r, offer.Name, offer.ProviderHome, offer.Jurisdiction, "options.cloud.offer")
	z := e.z
	stageGB := z.stagingGB
	if burst {
		stageGB = e.s.Data.SnapshotGB.Or(z.stagingGB)
	}
	stageH, stageGBs := 0.0, z.sourceGBs
	if !z.serving {
		// The cloud direction copies the data from where it lives; a
		// hybrid burst copies the snapshot from the site, where hybrid
		// keeps the source (unstated: from the source storage).
		from, to := z.location, scenario.LocationCloud
		if burst && from != "" {
			from = scenario.LocationOnSite
		}
		stageH, stageGBs = e.staging(r, stageGB, from, to)
	}
	hw := offerHardware(offer, g)
	e.place(r, hw, e.s.Options.Cloud.GPUs, stageH, e.s.Options.Cloud.PricingMode() == scenario.PricingSpot)
	if r.DataPath != nil {
		r.DataPath.StagingHours = stageH
	}
	r.PricePerGPUHour, r.rated = price, true
	mode := e.s.Options.Cloud.PricingMode()
	v := r.Drivers
	v[costid.GPUHourPrice] = price
	if !r.quiet {
		field := mode // the catalog field of the rate: a mix's commitment
		if c, ok := mixedMode(mode); ok {
			field = c
		}
		r.fromField(costid.GPUHourPrice, scenario.Cloud, costid.GPUHourPrice, "options.cloud.price_per_gpu_hour", e.s.Options.Cloud.PricePerGPUHr, "cloud", offer.ID, field, offer.Entry)
	}
	work := r.ComputeHours
	// Failures in every run; spot interruptions on top (interruptions.go).
	e.interruptions(r, hw, mode == scenario.PricingSpot)
	billed := e.wholeInstances(r, offer)
	committed := 0.0
	_, mixed := mixedMode(mode)
	if z.serving && (mode == scenario.PricingOnDemand || mode == scenario.PricingSpot || mixed) {
		// Rented replicas follow the load; committed ones are paid for
		// the peak every hour.
		e.autoscale(r)
	}
	switch {
	case mixed:
		committed = e.mix(r, offer)
	case mode == scenario.PricingCommit1Y || mode == scenario.PricingCommit3Y:
		// A commitment pays for the reserved GPUs every hour of the month,
		// used or not (the cost model's commitment_per_month): whole
		// instances of an offer sold by the instance.
		committed = float64(billed)
		reserved := committed * hoursPerMonth
		if need := r.GPUHoursPerRun * z.runsPerMonth; need > reserved*(1+1e-9) {
			if r.ruleOut() {
				r.infeasible(ReasonCommittedGPUsShort, []string{"options.cloud.gpus", "options.cloud.pricing", "workload.runs_per_month"},
					"needs %s GPU-hours a month; %d committed GPUs give %s", num.Whole(need), billed, num.Whole(reserved))
			}
		}
		if !r.quiet {
			if reserved > 0 { // no GPUs (nothing fits): no utilisation to state
				r.note(NoteCommittedUtilisation, []string{"options.cloud.gpus", "options.cloud.pricing"},
					"committed pricing: %d GPUs are paid for every hour; utilisation %.0f %%", billed, 100*r.GPUHoursPerRun*z.runsPerMonth/reserved)
			}
		}
	}
	v[costid.CommittedGPUs] = committed
	if committed > 0 && !burst && !mixed { // a mix records its own on-demand rate
		// A run rented for a few months (the on-premises bridge) pays the
		// offer's on-demand rate: no commitment is sold for that long.
		v[costid.OnDemandPrice] = offer.OnDemand
		if !r.quiet {
			r.fromCatalog(costid.OnDemandPrice, scenario.Cloud, "cloud", offer.ID, "on_demand", offer.Entry)
		}
	}

	dp, ok := e.cat.DataPrice(offer.Provider)
	sp, ep := dp, dp // the entries the storage and egress prices come from
	e.weigh(catalog.KindData, offer.Provider)
	if !ok {
		e.weighAll(catalog.KindData)
		// A provider without published data prices in the catalog is not
		// free: the dearest storage and egress prices the catalog has
		// stand in (an estimate the note labels), so an unknown price can
		// neither count as 0 nor make its offer the cheapest.
		sp, ep = e.dearestDataPrices()
	}
	co := e.s.Options.Cloud
	v[costid.StoragePricePerGBMonth], v[costid.EgressPricePerGB] = co.StorageGBMonth.Or(sp.StoragePerGBMonth), co.EgressPerGB.Or(ep.EgressPerGB)
	v[costid.OutputGB] = z.outputGB
	dataKind := "data"
	if sp.Provider == "" {
		dataKind = "" // no data prices in the catalog at all: counted as 0
	}
	if !burst {
		// Data that lives in the cloud lives with this offer's provider:
		// on-premises and HPC pay its price to copy it out (copyOut).
		// (By value: a pointer cost an allocation in each Monte Carlo draw.)
		e.dataHome = dataHome{provider: offer.Provider, egress: v[costid.EgressPricePerGB], given: co.EgressPerGB, kind: dataKind, from: ep}
	}
	if !r.quiet {
		r.fromModel(costid.CommittedGPUs, r.Direction, costid.CommittedGPUs, InputPlan, "options.cloud.gpus")
		r.fromField(costid.StoragePricePerGBMonth, scenario.Cloud, costid.StoragePricePerGBMonth, "options.cloud.storage_per_gb_month", co.StorageGBMonth, dataKind, sp.Provider, "storage_per_gb_month", sp.Entry)
		r.fromField(costid.EgressPricePerGB, scenario.Cloud, costid.EgressPricePerGB, "options.cloud.egress_per_gb", co.EgressPerGB, dataKind, ep.Provider, "egress_per_gb", ep.Entry)
		r.fromField(costid.OutputGB, "", costid.OutputGB, "data.output_gb", e.s.Data.OutputGB, "", "", "", catalog.Entry{})
	}
	switch {
	case r.quiet:
	case ok:
		e.use(r, "data prices "+offer.Provider, dp.Entry)
	case co.StorageGBMonth.IsSet() && co.EgressPerGB.IsSet():
	case sp.Provider == "":
		r.note(NoteDataPricesMissing, []string{"options.cloud.storage_per_gb_month", "options.cloud.egress_per_gb"},
			"no storage or egress price for %s in the catalog, nor any other: counted as 0", offer.Provider)
	default:
		e.use(r, "data prices "+sp.Provider, sp.Entry)
		if ep.Provider != sp.Provider {
			e.use(r, "data prices "+ep.Provider, ep.Entry)
		}
		r.note(NoteDataPricesMissing, []string{"options.cloud.storage_per_gb_month", "options.cloud.egress_per_gb"},
			"no storage or egress price for %s in the catalog: the dearest the catalog has stand in, an estimate (storage %.4g per GB-month, %s's; egress %.4g per GB, %s's); give the provider's own",
			offer.Provider, sp.StoragePerGBMonth, sp.Provider, ep.EgressPerGB, ep.Provider)
	}
	if !burst {
		// The data set lives in the cloud for the horizon; outputs leave
		// each run.
		r.CostModel = costid.CloudCosts
		if committed > 0 {
			r.CostModel = costid.CloudCommittedCosts
		}
		if mixed {
			r.CostModel = costid.CloudMixedCosts
		}
		v[costid.StorageGB] = z.stagingGB
		if !r.quiet {
			// The data volume also sets the time to read the data, and
			// so the plan: it is the plan's figure, not a free driver.
			r.fromModel(costid.StorageGB, scenario.Cloud, costid.StorageGB, InputPlan, "data.volume_gb")
		}
		e.staff(r, staffCloud, "cloud IaaS operations")
		e.staffEstimate(r, r.Direction, costid.StaffFTE, staffCloud)
		return nil
	}
	// The snapshot lives in cloud storage for the run only; outputs
	// return. The run lasts its compute, its staging and its
	// interruptions.
	r.CostModel = costid.HybridCloudCosts
	if mixed {
		r.CostModel = costid.HybridCloudMixedCosts
	}
	snapshot := e.s.Data.SnapshotGB
	v[costid.StorageGB] = stageGB
	if !r.quiet {
		in := CostInput{Driver: costid.StorageGB, Owner: scenario.Hybrid, Name: inputName(scenario.Hybrid, costid.StorageGB), Field: "data.snapshot_gb",
			Low: snapshot.Low, High: snapshot.High, Estimate: snapshot.IsEstimate(), Set: snapshot.IsSet()}
		if !snapshot.IsSet() {
			in.Follows = inputName(scenario.Cloud, costid.StorageGB)
		}
		r.record(in)
	}
	if z.serving {
		r.CostModel = costid.HybridCloudServingCosts
		if mixed {
			r.CostModel = costid.HybridCloudServingMixedCosts
		}
		r.plan(costid.RunHours, r.TimeToResultHours)
		return nil
	}
	r.plan(costid.WorkHours, work)
	r.plan(costid.InterruptionHours, v[costid.InterruptionHours])
	v[costid.SourceGBps], v[costid.FileCount] = stageGBs, z.files
	if !r.quiet {
		if stageGBs < z.sourceGBs {
			// The site's uplink is the narrower link (staging.go).
			up := e.s.Data.UplinkGbitS
			r.record(CostInput{Driver: costid.SourceGBps, Name: inputName("", costid.SourceGBps), Field: "data.uplink_gbit_s",
				Low: up.Low / 8, High: up.High / 8, Estimate: up.IsEstimate(), Set: true})
		} else {
			r.fromField(costid.SourceGBps, "", costid.SourceGBps, "data.storage_gbps", e.s.Data.StorageGBps, "estimate", "", "", catalog.Entry{})
		}
		r.fromField(costid.FileCount, "", costid.FileCount, "data.file_count", e.s.Data.FileCount, "", "", "", catalog.Entry{})
	}
	return nil
}

// cloudLines adds the cost lines of cloud capacity (the cloud direction's,
// or hybrid's burst to the cloud), from its figures.
func (e *evaluator) cloudLines(r *DirectionResult) {
	v, z, months := r.Drivers, e.z, float64(e.months())
	if v[costid.CommittedGPUs] > 0 {
		r.line("Committed GPUs", v[costid.CommitmentPerMonth]*months, "%d GPUs × 730 h × %.4g per GPU-hour × %d months, used or not", int(v[costid.CommittedGPUs]), v[costid.GPUHourPrice], e.months())
	}
	// Mixed pricing: the GPU-hours above the commitment, on demand.
	onDemand := v[costid.OnDemandGPUHours] * v[costid.OnDemandPrice]
	if onDemand > 0 {
		r.line("On demand above the commitment", onDemand*z.runsPerMonth*months, "%.1f GPU-hours × %.4g per GPU-hour per run", v[costid.OnDemandGPUHours], v[costid.OnDemandPrice])
	}
	idle := v[costid.IdleGPUHoursPerRun] * v[costid.VariablePricePerGPUHour]
	if idle > 0 {
		r.line("Idle GPUs of whole instances", idle*z.runsPerMonth*months, "%.4g GPU-hours per run billed beyond those used × %.4g per GPU-hour", v[costid.IdleGPUHoursPerRun], v[costid.VariablePricePerGPUHour])
	}
	other := r.OtherCostPerRun - onDemand - idle
	if r.CostModel != costid.CloudCosts && r.CostModel != costid.CloudCommittedCosts && r.CostModel != costid.CloudMixedCosts {
		r.line("Snapshot storage and output egress", other*z.runsPerMonth*months, "%.4g GB × %.4g per GB-month for %.2f months + %.4g GB × %.4g egress, per run",
			v[costid.StorageGB], v[costid.StoragePricePerGBMonth], v[costid.RunHours]/hoursPerMonth, v[costid.OutputGB], v[costid.EgressPricePerGB])
		return
	}
	r.line("Object storage", v[costid.StoragePerMonth]*months, "%.4g GB × %.4g per GB-month × %d months", v[costid.StorageGB], v[costid.StoragePricePerGBMonth], e.months())
	if other > 0 {
		r.line("Egress of outputs", other*z.runsPerMonth*months, "%.4g GB × %.4g per GB per run", v[costid.OutputGB], v[costid.EgressPricePerGB])
	}
}

// wholeInstances sets the idle GPU-hours a run of batch work is billed
// beyond those it uses when the offer is sold by the instance, and returns
// the GPUs billed. Every catalog offer names an instance type of
// gpus_per_node GPUs (p5.48xlarge: 8 × H100) and no field says a share of
// one is sold, so the GPUs billed are rounded up to whole instances: AWS,
// Google Cloud and Azure bill instance-hours, the instance's price for all
// its GPUs. The run still uses, and is timed on, the GPUs it plans on.
// A service's replicas are packed into instances and are not rounded.
func (e *evaluator) wholeInstances(r *DirectionResult, offer catalog.CloudOffer) int {
	billed := r.GPUs
	if per := offer.GPUsPerNode; per > 1 && !e.z.serving && r.GPUs > 0 {
		billed = (r.GPUs + per - 1) / per * per
	}
	idle := float64(billed-r.GPUs) * r.ComputeHours
	r.plan(costid.IdleGPUHoursPerRun, idle)
	if idle > 0 && !r.quiet {
		cost := "paid within the commitment"
		if perHour := e.s.Options.Cloud.PricingMode(); perHour == scenario.PricingOnDemand || perHour == scenario.PricingSpot {
			cost = fmt.Sprintf("%s a run at %.4g per GPU-hour", num.Whole(idle*r.Drivers[costid.GPUHourPrice]), r.Drivers[costid.GPUHourPrice])
		}
		r.note(NoteWholeInstances, []string{"options.cloud.gpus", "options.cloud.offer"},
			"billed by the instance: the run uses %s of %s of %d GPUs (%s); %d idle %s %s billed for its %s h: %s GPU-hours, %s",
			plural(r.GPUs, "GPU"), plural(billed/offer.GPUsPerNode, "instance"), offer.GPUsPerNode, offer.Name,
			billed-r.GPUs, agree(billed-r.GPUs, "GPU", "GPUs"), agree(billed-r.GPUs, "is", "are"), hoursWords(r.ComputeHours), num.Whole(idle), cost)
	}
	return billed
}

// offerHardware is what a cloud offer gives the run.
func offerHardware(offer catalog.CloudOffer, g catalog.GPU) hardware {
	return hardware{gpu: g, perNode: offer.GPUsPerNode, intraGBs: offer.IntraNodeGBs, netGBs: offer.NetworkGBsPerGPU,
		storageGBs: offer.StorageGBs, maxGPUs: offer.MaxGPUs}
}

// dearestDataPrices are the catalog's data-price entries with the highest
// storage and the highest egress price, which stand in for a provider the
// catalog has none for (empty when the catalog has no data prices).
func (e *evaluator) dearestDataPrices() (storage, egress catalog.DataPrice) {
	for _, d := range e.cat.Data {
		if d.StoragePerGBMonth > storage.StoragePerGBMonth {
			storage = d
		}
		if d.EgressPerGB > egress.EgressPerGB {
			egress = d
		}
	}
	return storage, egress
}

// RunnerUp is an offer the model's choice passed over, for the report: the
// next cheapest for the work.
type RunnerUp struct {
	Offer           string  `json:"offer"`
	OfferName       string  `json:"offer_name"`
	Region          string  `json:"region"`
	Jurisdiction    string  `json:"jurisdiction"`
	ProviderHome    string  `json:"provider_home"`
	PricePerGPUHour float64 `json:"price_per_gpu_hour"`
	// RelativeCost is the offer's cost for the work over the chosen
	// one's: 1.18 costs 18 % more.
	RelativeCost float64 `json:"relative_cost"`
}

// maxRunnersUp is how many passed-over offers the report names.
const maxRunnersUp = 2

// runnersUp are the cheapest offers after the chosen one, by their cost
// for the work relative to the chosen one's (best), each GPU at most once
// per provider and region (the same offer in another size is not news).
func runnersUp(ranked []RunnerUp, chosen string, best float64) []RunnerUp {
	slices.SortStableFunc(ranked, func(a, b RunnerUp) int { return cmp.Compare(a.RelativeCost, b.RelativeCost) })
	var out []RunnerUp
	for _, x := range ranked {
		if x.Offer == chosen || len(out) == maxRunnersUp {
			continue
		}
		if best > 0 {
			x.RelativeCost /= best
		}
		out = append(out, x)
	}
	return out
}
