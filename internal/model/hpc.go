package model

import (
	"fmt"
	"math"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

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
		r.infeasible(ReasonHPCNotForServing, []string{"workload.shape"}, "shared HPC runs bounded batch jobs through a scheduler, not an always-on service")
	}
	if !burst {
		e.sovereigntyOutside(r, p.Centre, p.Jurisdiction, "options.hpc.partition")
	} else if !e.residencyOK(p.Jurisdiction) {
		e.burstOutside(r, p.Centre, p.Jurisdiction, "options.hpc.partition")
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
	if !o.QueueWaitHours.IsSet() && !r.quiet {
		r.note(NoteQueueWaitAssumed, []string{"options.hpc.queue_wait_hours"},
			"queue wait %.0f h per job assumed (catalog estimate %.0f–%.0f h); give the wait the centre reports", wait, p.QueueWaitHours[0], p.QueueWaitHours[2])
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
	r.Drivers[GPUHourPrice] = price
	if !r.quiet {
		r.fromField(GPUHourPrice, scenario.HPC, GPUHourPrice, "options.hpc.price_per_gpu_hour", o.PricePerGPUHr, "hpc", p.ID, "price_per_gpu_hour", p.Entry)
	}
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
			r.note(NoteGrantedHours, []string{"options.hpc.granted_gpu_hours"}, "granted hours: no charge, limited by the quota")
		}
	}
	if !burst {
		r.CostModel = HPCCosts
		e.staff(r, staffHPC, "job scripts and scheduler use")
		e.staffEstimate(r, r.Direction, StaffFTE, staffHPC)
	} else {
		r.CostModel = HybridHPCCosts
	}
	return nil
}
