package model

import (
	"fmt"
	"math"

	"hostplan/internal/catalog"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// place chooses a GPU count on the direction's hardware and computes the
// run's compute time, scaling curve and bottleneck. fixed > 0 is the user's
// count; otherwise the smallest count that fits memory and fills a node, and
// with a deadline the first doubling that meets it (or the fastest one).
// overheadH is the time outside compute (staging, queue waits).
func (e *evaluator) place(r *DirectionResult, hw hardware, fixed int, overheadH float64, spot bool) {
	z := e.z
	g := hw.gpu
	r.GPU = g.ID
	limit := hw.limit()
	if z.serving {
		var p servingPlan
		if pv, ok := e.pinnedServe(r.Direction); ok {
			p = z.servePinned(hw, pv[0], pv[1], pv[2])
		} else {
			p = z.serve(hw)
		}
		if !p.ok {
			e.servingFailed(r, p, g)
			r.GPUs = p.gpus()
			r.Bottleneck = BottleneckMemoryCapacity
			return
		}
		r.GPUs = p.gpus() * p.replicas
		if r.GPUs > limit {
			if r.ruleOut() {
				more := ""
				if p.capped {
					more = "more than "
				}
				r.infeasible(ReasonReplicasOverCapacity, []string{"workload.traffic.peak_rps", e.countField(r.Direction)},
					"needs %s%d GPUs (%s × %d) at the peak of %s requests/s; at most %d are available", more, r.GPUs, plural(p.replicas, "replica"), p.gpus(), countWords(z.peakRPS), limit)
			}
		}
		r.ComputeHours = hoursPerMonth
		r.GPUHoursPerRun = float64(r.GPUs) * hoursPerMonth
		r.TimeToResultHours = hoursPerMonth
		r.MemoryPerGPUGB = z.memPerGPU(p.gpus(), p.batch)
		r.Bottleneck = BottleneckCompute
		if p.memoryBound {
			r.Bottleneck = BottleneckMemoryBandwidth
		}
		r.Layout = &Layout{Tensor: p.tp, Pipeline: p.pp, Data: p.replicas, MicroBatches: 1}
		r.Serving = &Serving{GPUsPerReplica: p.gpus(), Batch: p.batch, ReplicasPeak: p.replicas, ReplicasMean: p.meanReplicas,
			DecodeStepMS: p.stepMS, TokensPerSecond: p.tokensPerSecond, RequestsPerSec: p.rpsPerRep, LatencyMS: p.latencyMS, MemoryBound: p.memoryBound}
		if !r.quiet {
			across := ""
			switch {
			case p.pp > 1:
				across = fmt.Sprintf(" (a pipeline of %d stages, one per node, each tensor parallel over %d)", p.pp, p.tp)
			case p.tp > hw.perNode:
				across = fmt.Sprintf(" (tensor parallel across %d nodes)", (p.tp+hw.perNode-1)/hw.perNode)
			}
			r.note(NoteServingPlan, []string{"workload.traffic.peak_rps", "workload.traffic.mean_rps", "workload.traffic.latency_target_ms"},
				"serving: %d replica(s) of %d × %s%s for the peak (%d for the mean load), batch %d, decode step %.1f ms, %.2f requests/s per replica", p.replicas, p.gpus(), gpuWords(g), across, p.meanReplicas, p.batch, p.stepMS, p.rpsPerRep)
		}
		return
	}
	c := curve{z: z, hw: hw}
	if z.hasTrial && z.trialGPU == g.ID {
		if fit, err := e.fit(); err == nil {
			c.usl = fit
			if !r.quiet {
				r.Calibration = calibration(*fit)
				r.note(NoteScalingFromTrial, []string{"workload.trial"},
					"scaling from the trial: Universal Scalability Law fitted to %d points (σ %.4g, κ %.4g, R² %.4f)", fit.Points, fit.Sigma, fit.Kappa, fit.R2)
			}
		} else {
			if !r.quiet {
				r.note(NoteTrialNotFitted, []string{"workload.trial", "workload.trial_gpu"},
					"the trial on %s could not be fitted (%v): the analytic curve is used", gpuWords(g), err)
			}
		}
	}
	n := fixed
	if pn, ok := e.pinnedGPUs(r.Direction); ok && n == 0 {
		n = pn
	}
	if r.quiet && n > 0 {
		// A Monte Carlo draw of a pinned plan: the count (and the
		// layout) is given; only whether it still fits matters.
		var fits bool
		if z.training {
			c.pin = e.pinnedLayout(r.Direction)
			_, fits = c.layoutAt(n)
		} else {
			fits = z.fits(g, n, 1)
		}
		if !fits || n > limit {
			r.Feasible = false
		}
		e.finishPlace(r, c, n, overheadH)
		return
	}
	var need int
	if z.training {
		need = z.minTrainGPUs(g, limit, hw.perNode)
	} else {
		need = z.minGPUs(g, limit)
	}
	if need == 0 {
		if r.ruleOut() {
			r.infeasible(ReasonStateDoesNotFit, []string{"workload.model", "workload.precision", "workload.sharding", e.countField(r.Direction)},
				"the run needs %.0f GB per GPU even on %d × %s (%.0f GB each, %.0f %% usable; %s)", z.memOn(hw, limit), limit, gpuWords(g), g.MemoryGB, usableFraction*100, shardingWords(z.sharding))
		}
		need = min(hw.perNode, limit) // figures for one node, to show the scale of the gap
	}
	if n == 0 {
		n = max(need, min(hw.perNode, limit))
		if dl := e.s.Workload.DeadlineHours; dl.IsSet() {
			// hours(m) is at(m)'s time to result, without the rest.
			best, bestT := n, math.Inf(1)
			for m := n; ; m = min(m*2, limit) {
				// The run's time on m GPUs with the checkpoints, lost work
				// and restarts its interruptions add there: more GPUs fail
				// more often.
				t := c.hours(m)
				if ov := e.interruptionParts(hw, m, t, spot).ov; ov < 1 {
					t *= 1 + ov
				} else {
					t = math.Inf(1)
				}
				if t < bestT {
					best, bestT = m, t
				}
				if t+overheadH <= dl.Likely || m == limit {
					if t+overheadH <= dl.Likely {
						best = m
					}
					break
				}
			}
			n = best
		}
	} else {
		if n < need {
			if r.ruleOut() {
				r.infeasible(ReasonTooFewGPUs, []string{e.countField(r.Direction)},
					"%s %s chosen but the run needs %.0f GB per GPU there; at least %d × %s fit it", plural(n, "GPU"), agree(n, "was", "were"), z.memOn(hw, n), need, gpuWords(g))
			}
		}
		if n > limit {
			if r.ruleOut() {
				r.infeasible(ReasonTooManyGPUs, []string{e.countField(r.Direction)}, "%s %s chosen; at most %d are available", plural(n, "GPU"), agree(n, "was", "were"), limit)
			}
		}
	}
	e.finishPlace(r, c, n, overheadH)
}

// finishPlace sets the run's figures on n GPUs along the curve: in a quiet
// evaluation the times only, otherwise also the scaling table, the
// bottleneck and the data path.
func (e *evaluator) finishPlace(r *DirectionResult, c curve, n int, overheadH float64) {
	z, hw := e.z, c.hw
	if r.quiet {
		h := c.hours(n)
		r.GPUs, r.ComputeHours, r.GPUHoursPerRun, r.TimeToResultHours = n, h, h*float64(n), h+overheadH
		return
	}
	t1 := c.oneStep()
	pt, l := c.point(n, t1)
	r.GPUs = n
	r.ComputeHours = pt.TimeToResultHours
	r.GPUHoursPerRun = r.ComputeHours * float64(n)
	r.TimeToResultHours = r.ComputeHours + overheadH
	r.MemoryPerGPUGB = z.memPerGPU(n, 1)
	if z.training && pt.Fits {
		r.trainLayout = &l
	}
	if z.training && c.usl == nil {
		// When no layout fits, the figures are those of data parallelism
		// and the memory the least any layout needs: the gap.
		fits := pt.Fits
		r.MemoryPerGPUGB = z.memOn(hw, n)
		if fits {
			r.MemoryPerGPUGB = z.layoutMemGB(l)
			r.Layout = l.report()
		}
		if (l.tp > 1 || l.pp > 1) && fits {
			r.note(NoteParallelLayout, []string{e.countField(r.Direction)},
				"layout: tensor parallel %d × pipeline %d × data parallel %d, %d micro-batches per step, bubble %.0f %% (the fastest split of %d GPUs that fits memory)",
				l.tp, l.pp, l.dp, l.micro, l.bubble*100, n)
		}
	}
	r.Scaling = c.tableWith(t1, pt, n)
	r.MaxEfficientGPUs = maxEfficient(r.Scaling, z.threshold)
	r.Bottleneck = pt.Bottleneck
	if pt.Efficiency < z.threshold {
		r.note(NoteBelowEfficiencyThreshold, []string{"workload.efficiency_threshold", e.countField(r.Direction)},
			"scaling efficiency at %d GPUs is %.0f %%, below the %.0f %% threshold; the largest efficient count is %d", n, pt.Efficiency*100, z.threshold*100, r.MaxEfficientGPUs)
	}
	if hw.storageGBs > 0 && r.ComputeHours > 0 {
		r.DataPath = &DataPath{NeededGBs: z.dataReadGB / (r.ComputeHours * 3600), AvailableGBs: hw.storageGBs}
	}
}

// calibration turns a fit into its report form (N_max 0 when there is none).
func calibration(f Fit) *Calibration {
	nmax, ok := f.NMaxFinite()
	if !ok {
		nmax = 0
	}
	return &Calibration{Lambda: f.Lambda, Sigma: f.Sigma, Kappa: f.Kappa, R2: f.R2, NMax: nmax}
}

// deadline marks r infeasible when one run takes longer than allowed.
func (e *evaluator) deadline(r *DirectionResult) {
	if dl := e.s.Workload.DeadlineHours; dl.IsSet() && !e.z.serving && r.TimeToResultHours > dl.Likely {
		if r.ruleOut() {
			r.infeasible(ReasonDeadlineMissed, []string{"workload.deadline_hours"}, "a run takes %.1f h; the deadline is %.1f h", r.TimeToResultHours, dl.Likely)
		}
	}
}

// schedule marks r infeasible when its runs do not fit the calendar: one
// run taking longer than the horizon, or than the time between two runs
// (730 h ÷ runs a month), so that the next would have to start before it
// ends. The plan holds one run at a time on its GPUs (on-premises sizes
// its nodes, HPC its fair share and a commitment its GPUs for that);
// running two at once needs twice the capacity, a plan of its own.
// A service runs all month and is not checked.
func (e *evaluator) schedule(r *DirectionResult) {
	runs := e.z.runsPerMonth
	if e.z.serving || runs <= 0 || r.TimeToResultHours <= 0 {
		return
	}
	horizon := float64(e.months()) * hoursPerMonth
	count := e.countField(r.Direction)
	if r.Direction == scenario.Managed {
		count = "options.managed.offer"
	}
	if r.TimeToResultHours > horizon {
		if r.ruleOut() {
			r.infeasible(ReasonRunLongerThanHorizon, []string{"dimensions.economics.horizon_months", count},
				"a run takes %s h (%.1f months); the horizon is %d months (%s h)", num.Whole(r.TimeToResultHours), r.TimeToResultHours/hoursPerMonth, e.months(), num.Whole(horizon))
		}
		return
	}
	if interval := hoursPerMonth / runs; r.TimeToResultHours > interval*(1+1e-9) {
		if r.ruleOut() {
			r.infeasible(ReasonRunLongerThanInterval, []string{"workload.runs_per_month", count},
				"a run takes %s h; at %.4g runs a month the next starts every %s h, before it ends", num.Whole(r.TimeToResultHours), runs, num.Whole(interval))
		}
	}
}

func (e *evaluator) pinnedGPUs(d string) (int, bool) {
	if e.pin == nil {
		return 0, false
	}
	n, ok := e.pin.gpus[d]
	return n, ok
}

func (e *evaluator) pinnedServe(d string) ([3]int, bool) {
	if e.pin == nil {
		return [3]int{}, false
	}
	v, ok := e.pin.serve[d]
	return v, ok
}

// pinnedLayout is the training layout a Monte Carlo draw holds fixed.
func (e *evaluator) pinnedLayout(d string) *layout {
	if e.pin == nil {
		return nil
	}
	return e.pin.layout[d]
}

// trialFit is the trial's Universal Scalability Law fit, or why it failed.
type trialFit struct {
	fit Fit
	err error
}

// fit returns the trial's fit: a pinned plan's, made before its draws, or
// made once for this evaluation.
// The fit is shared, read only, by every draw of a plan: a pointer into it.
func (e *evaluator) fit() (*Fit, error) {
	if e.trial == nil {
		f, err := FitUSL(e.z.trial)
		e.trial = &trialFit{fit: f, err: err}
	}
	return &e.trial.fit, e.trial.err
}

// fitByGPU sizes the run on every GPU type of the catalog.
func fitByGPU(z *size, cat *catalog.Catalog) []GPUFit {
	out := make([]GPUFit, 0, len(cat.GPUs))
	for _, g := range cat.GPUs {
		n := z.minGPUs(g, maxTableGPUs)
		if !z.training && n > 0 {
			n = nextPow2(n) // tensor-parallel degrees divide the heads
		}
		f := GPUFit{GPU: g.ID, MinGPUs: n}
		if n > 0 {
			f.MemoryPerGPUGB = z.memPerGPU(n, 1)
		}
		out = append(out, f)
	}
	return out
}
