package model

import (
	"fmt"
	"math"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

func (e *evaluator) hpcPartition() (catalog.Partition, error) {
	o := e.s.Options.HPC
	if o.Partition != "" {
		p, ok := e.cat.Partition(o.Partition)
		if !ok {
			return p, scenario.Errors{{Path: "options.hpc.partition", Problem: fmt.Sprintf("%q is not in the catalog", o.Partition), Allowed: strings.Join(e.cat.IDs(catalog.KindHPC), ", ")}}
		}
		e.weigh(catalog.KindHPC, p.ID)
		return p, nil
	}
	// The cheapest partition in the right jurisdiction and currency whose
	// GPUs can hold the model.
	var best catalog.Partition
	bestCost := math.Inf(1)
	for _, p := range e.cat.HPC {
		g, _ := e.cat.GPU(p.GPU)
		if !e.residencyOK(p.Jurisdiction) || p.Currency != e.s.Currency || e.z.minGPUs(g, e.holdGPUs(p)) == 0 {
			continue
		}
		e.weigh(catalog.KindHPC, p.ID)
		rate, open := e.partitionRate(p)
		// A partition closed to the scenario's access is no choice, nor is
		// an allocation-only partition (no price) for a scenario that
		// states no granted hours.
		if !open || rate == 0 && !e.s.Options.HPC.GrantedGPUHours.IsSet() {
			continue
		}
		if c := rate / g.PeakTFLOPs(e.z.precision); c < bestCost {
			bestCost, best = c, p
		}
	}
	if best.ID == "" {
		best = e.cat.HPC[0]
	}
	e.weigh(catalog.KindHPC, best.ID)
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
		r.infeasible(ReasonHPCNotForServing, []string{"workload.shape"}, "shared HPC runs bounded batch jobs through a scheduler, not an always-on service")
	}
	if !burst {
		e.sovereigntyOutside(r, p.Centre, p.Jurisdiction, "options.hpc.partition")
	} else if !e.residencyOK(p.Jurisdiction) {
		e.burstOutside(r, p.Centre, p.Jurisdiction, "options.hpc.partition")
	}
	if p.Currency != e.s.Currency && !o.PricePerGPUHr.IsSet() && !r.quiet {
		w := newNote(NotePartitionCurrency, []string{"currency", "options.hpc.partition", "options.hpc.price_per_gpu_hour"},
			fmt.Sprintf("the HPC partition %s is priced in %s; the scenario is in %s and no exchange rate converts it (add one in exchange_rates)", p.Centre, p.Currency, e.s.Currency))
		e.currencyWarn = &w
	}
	stageGB := z.stagingGB
	if burst {
		stageGB = e.s.Data.SnapshotGB.Or(z.stagingGB)
	}
	from := z.location
	if burst && from != "" {
		from = scenario.LocationOnSite // hybrid keeps the source on site
	}
	stageH := 0.0
	if !z.serving {
		stageH, _ = e.staging(r, stageGB, from, scenario.LocationHPC)
	}
	if !burst {
		copied := 0.0
		if stageH > 0 {
			copied = stageGB
		}
		e.copyOut(r, copied)
	}
	wait := o.QueueWaitHours.Or(p.QueueWaitHours[1])
	if !o.QueueWaitHours.IsSet() && !r.quiet {
		r.note(NoteQueueWaitAssumed, []string{"options.hpc.queue_wait_hours"},
			"queue wait %.0f h per job assumed at light use (catalog estimate %.0f–%.0f h); give the wait the centre reports", wait, p.QueueWaitHours[0], p.QueueWaitHours[2])
	}
	// One project holds at most its fair share of the partition's GPUs.
	hold := e.holdGPUs(p)
	hw := hardware{gpu: g, perNode: p.GPUsPerNode, intraGBs: p.IntraNodeGBs, netGBs: p.NetworkGBs,
		storageGBs: p.StorageGBs, maxGPUs: hold}
	e.place(r, hw, o.GPUs, stageH+wait, false)
	e.interruptions(r, hw, false)
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
		wait = e.fairShare(r, p, hold, wait)
		r.TimeToResultHours = r.ComputeHours + stageH + float64(chunks)*wait
		if !r.quiet {
			if r.Interruptions == nil {
				r.Interruptions = &Interruptions{CheckpointMinutes: delta * 60}
			}
			r.Interruptions.WallTimeChunks = chunks
			r.note(NoteWallTimeJobs, []string{"options.hpc.partition", "options.hpc.queue_wait_hours"},
				"%d job(s) of at most %.0f h wall time, each ending with a %.1f min checkpoint and waiting %.1f h in the queue", chunks, p.WalltimeHours, delta*60, wait)
		}
		if float64(chunks)*wait > r.ComputeHours {
			r.Bottleneck = BottleneckQueue
		}
		if r.DataPath != nil {
			r.DataPath.StagingHours = stageH
		}
	}
	price := e.hpcRate(r, p)
	if grant := o.GrantedGPUHours; grant.IsSet() {
		need, per := grantNeed(r.GPUHoursPerRun, z.runsPerMonth, e.months(), o.GrantPeriod)
		if need > grant.Likely*(1+1e-9) {
			if r.ruleOut() {
				r.infeasible(ReasonGrantExceeded, []string{"options.hpc.granted_gpu_hours", "options.hpc.grant_period", "workload.runs_per_month"},
					"needs %s GPU-hours %s; the grant is %s", num.Whole(need), per, num.Whole(grant.Likely))
			}
		}
		if price == 0 && !r.quiet {
			r.note(NoteGrantedHours, []string{"options.hpc.granted_gpu_hours", "options.hpc.grant_period"},
				"granted hours: no charge, limited by the grant of %s GPU-hours %s", num.Whole(grant.Likely), per)
		}
	}
	if !burst {
		r.CostModel = costid.HPCCosts
		e.staff(r, staffHPC, "job scripts and scheduler use")
		e.staffEstimate(r, r.Direction, costid.StaffFTE, staffHPC)
	} else {
		r.CostModel = costid.HybridHPCCosts
	}
	return nil
}

// defaultFairShare is the fair share assumed for a partition that states
// none: a quarter of it. An estimate, generous beside the group limits
// centres publish (Arizona's Puma: 4 GPUs per group at standard priority,
// hpcdocs.hpc.arizona.edu/running_jobs/job_limits; Case Western: 6 GPUs
// per membership unit, 1 for a guest).
const defaultFairShare = 0.25

// maxShareUse caps the use of the fair share the queue-wait growth reads
// (queueGrowth): at 90 % of the share the wait is ten times the light-use
// wait, and the estimate says no more than that.
const maxShareUse = 0.9

// share is the largest share of p one project may hold: the scenario's
// options.hpc.fair_share, the partition's, or defaultFairShare.
func (e *evaluator) share(p catalog.Partition) float64 {
	f := p.FairShare
	if f <= 0 {
		f = defaultFairShare
	}
	return e.s.Options.HPC.FairShare.Or(f)
}

// holdGPUs is the most GPUs of p one project may hold at once: its fair
// share of the partition's GPUs, at least one.
func (e *evaluator) holdGPUs(p catalog.Partition) int {
	return min(p.MaxGPUs, max(1, int(math.Floor(e.share(p)*float64(p.MaxGPUs)+1e-9))))
}

// partitionRate is the rate p charges the scenario's access
// (options.hpc.access): the member rate, or the external rate; open is
// false when p publishes no rate for an external user.
func (e *evaluator) partitionRate(p catalog.Partition) (rate float64, open bool) {
	if e.s.Options.HPC.Access == "external" {
		return p.ExternalPricePerGPUHour, p.ExternalPricePerGPUHour > 0
	}
	return p.PricePerGPUHour, true
}

// hpcRate sets r's price per GPU-hour on p: the scenario's own price, or
// the partition's rate for the scenario's access. A member rate is
// labelled as one, with the rate an outsider would pay; an external user
// of a partition that takes none is ruled out.
func (e *evaluator) hpcRate(r *DirectionResult, p catalog.Partition) float64 {
	o := e.s.Options.HPC
	rate, open := e.partitionRate(p)
	field := "price_per_gpu_hour"
	if o.Access == "external" {
		field = "external_price_per_gpu_hour"
	}
	if !open && !o.PricePerGPUHr.IsSet() {
		if r.ruleOut() {
			r.infeasible(ReasonHPCMembersOnly, []string{"options.hpc.access", "options.hpc.partition", "options.hpc.price_per_gpu_hour"},
				"%s publishes no rate for users from outside: only its members and allocation holders run there", p.Centre)
		}
	}
	price := o.PricePerGPUHr.Or(rate)
	r.Drivers[costid.GPUHourPrice] = price
	r.PricePerGPUHour = price
	if r.quiet {
		return price
	}
	r.fromField(costid.GPUHourPrice, scenario.HPC, costid.GPUHourPrice, "options.hpc.price_per_gpu_hour", o.PricePerGPUHr, "hpc", p.ID, field, p.Entry)
	if o.Access != "external" && !o.PricePerGPUHr.IsSet() && p.PricePerGPUHour > 0 && p.ExternalPricePerGPUHour != p.PricePerGPUHour {
		outside := "the centre publishes no rate for users from outside"
		if p.ExternalPricePerGPUHour > 0 {
			outside = fmt.Sprintf("users from outside pay %.4g", p.ExternalPricePerGPUHour)
		}
		r.note(NoteMemberRate, []string{"options.hpc.access", "options.hpc.price_per_gpu_hour"},
			"member rate: %.4g per GPU-hour is what the centre's own members pay; %s", p.PricePerGPUHour, outside)
	}
	return price
}

// fairShare checks the share of partition p the work asks for against the
// fair share, on hold GPUs at most, and returns the queue wait per job:
// wait, the wait at light use, grown with the share asked (queueGrowth).
// Work that asks for more than the fair share over time is ruled out: the
// scheduler would hold its jobs back until others' work has run.
func (e *evaluator) fairShare(r *DirectionResult, p catalog.Partition, hold int, wait float64) float64 {
	f := e.share(p)
	asked := shareAsked(r.GPUHoursPerRun, e.z.runsPerMonth, r.GPUs, p.MaxGPUs)
	use := asked / f
	if use > 1+1e-9 {
		if r.ruleOut() {
			r.infeasible(ReasonFairShareExceeded, []string{"options.hpc.fair_share", "workload.runs_per_month", "options.hpc.partition"},
				"the work holds %.0f %% of the partition's %d GPUs month after month (%s GPU-hours a month); one project may hold at most %.0f %% (%d GPUs)",
				100*asked, p.MaxGPUs, num.Whole(asked*float64(p.MaxGPUs)*hoursPerMonth), 100*f, hold)
		}
	}
	grown := wait * queueGrowth(use)
	if !r.quiet {
		r.note(NoteFairShare, []string{"options.hpc.fair_share", "options.hpc.queue_wait_hours"},
			"fair share: one project may hold %.0f %% of the partition (%d of its %d GPUs); this work asks for %.0f %% of its GPU-hours in its busiest month, %.0f %% of the share, so each job waits about %.1f h instead of %.1f h (an estimate: the light-use wait ÷ (1 − use of the share), the use counted up to 90 %%)",
			100*f, hold, p.MaxGPUs, 100*asked, 100*use, grown, wait)
	}
	return grown
}

// shareAsked is the share of a partition of capacity GPUs the work holds
// in its busiest month: a month of runs, or, when runs come less often
// than monthly, one whole run — at most its gpus for the whole month. Fair
// share schedulers reckon a project's use over recent weeks (NSC: the last
// 30 days; Slurm decays past use with a half-life), not over the year.
// No runs hold nothing.
func shareAsked(gpuHoursPerRun, runsPerMonth float64, gpus, capacity int) float64 {
	if capacity <= 0 || runsPerMonth <= 0 {
		return 0
	}
	month := math.Max(gpuHoursPerRun*runsPerMonth, math.Min(gpuHoursPerRun, float64(gpus)*hoursPerMonth))
	return month / (float64(capacity) * hoursPerMonth)
}

// queueGrowth is the factor by which a job's queue wait grows when the
// project uses the share use (0 to 1) of its fair share: 1 ÷ (1 − use),
// the growth of the mean wait of a single-server queue with its load
// (M/M/1: W ∝ ρ ÷ (1 − ρ); Kleinrock 1975, Queueing Systems I, §3.2),
// read as a fair-share scheduler lowers a project's priority with its
// recent use. Measured queue times at NSC rise steeply, without bound, as
// a project's use nears its allocation (P. Larsson, "On long queue
// times", nsc.liu.se/~pla/blog/2014/05/15/queuepriority, 2014). An
// estimate: use is capped at maxShareUse.
func queueGrowth(use float64) float64 {
	return 1 / (1 - math.Min(math.Max(use, 0), maxShareUse))
}

// grantNeed is the GPU-hours the work needs within one grant period (year
// when period is ""), and the period in words: a month of runs; a year of
// runs (the horizon when shorter); the whole horizon's runs for a project
// grant. A grant of a year or a project holds at least one whole run.
func grantNeed(gpuHoursPerRun, runsPerMonth float64, months int, period string) (float64, string) {
	switch period {
	case "month":
		return gpuHoursPerRun * runsPerMonth, "a month"
	case "project":
		return gpuHoursPerRun * atLeastOneRun(runsPerMonth*float64(months), runsPerMonth), fmt.Sprintf("over the %d months of the project", months)
	}
	return gpuHoursPerRun * atLeastOneRun(runsPerMonth*float64(min(months, 12)), runsPerMonth), "a year"
}

// atLeastOneRun is runs, but at least one when any run is planned.
func atLeastOneRun(runs, runsPerMonth float64) float64 {
	if runsPerMonth > 0 {
		return math.Max(runs, 1)
	}
	return runs
}
