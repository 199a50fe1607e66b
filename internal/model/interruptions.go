package model

import (
	"fmt"
	"math"

	"hostplan/internal/costid"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// Restart after a spot interruption: new capacity, container start and
// reading the last checkpoint back (estimate).
const restartHours = 10.0 / 60

// DefaultSpotInterruptions is the middle of the AWS Spot Instance Advisor's
// 5–10 % bucket: no rate is published for large GPU instances, so it is an
// estimate the user should replace (prices.md).
const DefaultSpotInterruptions = 0.075

// DefaultGPUFailuresPerMillionHours is the rate of unexpected
// interruptions of a job per GPU, per million GPU-hours, when the scenario
// gives none (workload.failures_per_million_gpu_hours): Meta's Llama 3
// 405B pre-training saw 419 unexpected interruptions in a 54-day snapshot
// on 16,384 H100 GPUs (Dubey et al. 2024, "The Llama 3 Herd of Models",
// §3.3.4, Table 5; 78 % of them hardware: GPUs, HBM, host, network), so
// 419 ÷ (54 × 24 h × 16,384 GPUs) × 10⁶ = 19.73, rounded to 19.7. A job
// on N GPUs then fails every 10⁶ ÷ (19.7 × N) hours: 49.6 h on 1,024.
// An estimate from one fleet: give your own.
const DefaultGPUFailuresPerMillionHours = 19.7

// failureRestartHours is the time a restart after a failure takes:
// detecting it, draining or replacing the failed node, relaunching the job
// and reading the last checkpoint back. An estimate; Llama 3 kept its
// effective training time above 90 % with such restarts (Dubey et al.
// 2024, §3.3.4).
const failureRestartHours = 15.0 / 60

// failureMinBatchHours is the compute time above which batch inference
// counts failures too: a shorter batch is simply rerun from its progress
// (an estimate). Training and fine-tuning count them at any length.
const failureMinBatchHours = 24.0

// checkpointHours is the time to write the full model state (weights,
// gradients and optimizer state) to the direction's storage.
func (e *evaluator) checkpointHours(hw hardware) float64 {
	if hw.storageGBs <= 0 {
		return 0
	}
	return e.z.totalStateGB() / hw.storageGBs / 3600
}

// failureRatePerGPUHour is the rate at which one GPU of the run fails:
// the scenario's workload.failures_per_million_gpu_hours, or
// DefaultGPUFailuresPerMillionHours.
func (e *evaluator) failureRatePerGPUHour() float64 {
	return e.s.Workload.FailuresPerMillionGPUHours.Or(DefaultGPUFailuresPerMillionHours) / 1e6
}

// countsFailures reports whether a run of computeHours counts hardware
// failures: training and fine-tuning always, batch work longer than
// failureMinBatchHours, a service never (its replicas are restarted
// behind the load balancer).
func (e *evaluator) countsFailures(computeHours float64) bool {
	switch {
	case e.z.serving:
		return false
	case e.z.training:
		return true
	}
	return computeHours > failureMinBatchHours
}

// interruptionParts are a run's interruptions: the rates of spot
// reclaims and of hardware failures (the job's, per hour), the mean time
// between them, the mean restart, the checkpoint's write time and
// Daly's interval, and the overhead — the share of the compute they add.
type interruptionParts struct {
	spotRate, failRate, mtbi, restart, delta, tau, ov float64
}

// interruptionParts works out the interruptions of a run of computeHours
// on gpus GPUs of hw (on spot capacity when spot); all zero when none
// count. The deadline search (place) and the run's figures
// (interruptions) both read it.
func (e *evaluator) interruptionParts(hw hardware, gpus int, computeHours float64, spot bool) interruptionParts {
	var p interruptionParts
	nodes := int(math.Ceil(float64(gpus) / float64(max(hw.perNode, 1))))
	if spot {
		if f := e.s.Options.Cloud.SpotInterruptions.Or(DefaultSpotInterruptions); f > 0 {
			p.spotRate = float64(nodes) * RateFromMonthlyFraction(f)
		}
	}
	if e.countsFailures(computeHours) {
		p.failRate = float64(gpus) * e.failureRatePerGPUHour()
	}
	rate := p.spotRate + p.failRate
	if rate <= 0 {
		return p
	}
	p.mtbi = 1 / rate
	p.restart = (p.spotRate*restartHours + p.failRate*failureRestartHours) / rate
	p.delta = e.checkpointHours(hw)
	p.tau = DalyInterval(p.delta, p.mtbi)
	p.ov = CheckpointOverhead(p.delta, p.mtbi, p.tau, p.restart)
	return p
}

// interruptions adds the expected cost of interruptions to a run that is
// not a service, in every direction: hardware failures of any of its GPUs
// (the job stops when one fails, so its mean time between failures is
// 1 / (GPUs · rate)) and, on spot capacity, the reclaiming of any of its
// instances on top (1 / (nodes · spot rate)). The rates add (the minimum
// of independent exponential lifetimes); checkpoints are written at Daly's
// interval for the joint mean time M, and the overhead is the time writing
// them plus the lost work and restarts (reliability.go), each interruption
// restarting in its own time. The added hours lengthen the compute, and
// so the GPU-hours paid and the time to result.
func (e *evaluator) interruptions(r *DirectionResult, hw hardware, spot bool) {
	if e.z.serving || r.GPUs <= 0 || r.ComputeHours <= 0 {
		return
	}
	if spot && !e.s.Options.Cloud.SpotInterruptions.IsSet() && !r.quiet {
		r.note(NoteSpotRateAssumed, []string{"options.cloud.spot_interruptions_per_month"},
			"spot interruptions: %.1f %% of instances a month assumed (AWS Spot Advisor 5–10 %% bucket; no published figure for GPU instances)", DefaultSpotInterruptions*100)
	}
	ip := e.interruptionParts(hw, r.GPUs, r.ComputeHours, spot)
	if ip.spotRate+ip.failRate <= 0 {
		return
	}
	spotRate, failRate, mtbi, restart, delta, tau, ov := ip.spotRate, ip.failRate, ip.mtbi, ip.restart, ip.delta, ip.tau, ip.ov
	nodes := int(math.Ceil(float64(r.GPUs) / float64(max(hw.perNode, 1))))
	added := r.ComputeHours * ov
	r.Drivers[costid.InterruptionHours] = added
	r.ComputeHours += added
	r.GPUHoursPerRun = r.ComputeHours * float64(r.GPUs)
	r.TimeToResultHours += added
	if ov >= 1 {
		switch {
		case spotRate > 0:
			if r.ruleOut() {
				r.infeasible(ReasonSpotTooInterrupted, []string{"options.cloud.pricing", "options.cloud.spot_interruptions_per_month", "options.cloud.gpus"},
					"on spot capacity the job is interrupted every %.1f h on average: checkpoints, lost work and restarts would take longer than the work", mtbi)
			}
		default:
			if r.ruleOut() {
				r.infeasible(ReasonFailuresTooFrequent, []string{"workload.failures_per_million_gpu_hours", e.countField(r.Direction)},
					"on %s the job fails every %.1f h on average: checkpoints, lost work and restarts would take longer than the work", plural(r.GPUs, "GPU"), mtbi)
			}
		}
	}
	if r.quiet {
		return
	}
	r.Interruptions = &Interruptions{MTBIHours: mtbi, CheckpointMinutes: delta * 60, IntervalHours: tau, RestartMinutes: restart * 60,
		OverheadFraction: ov, WallTimeChunks: 1}
	failures := ""
	if failRate > 0 {
		failures = failureWords(e.s.Workload.FailuresPerMillionGPUHours, r.GPUs, 1/failRate)
	}
	fields := []string{"workload.failures_per_million_gpu_hours"}
	if spotRate > 0 {
		if failRate > 0 {
			failures = "; with " + failures
		}
		r.note(NoteSpotOverhead, append(fields, "options.cloud.spot_interruptions_per_month"),
			"spot: job MTBI %s h over %s%s; checkpoint of %.3g min every %.3g h (Daly), restart %.0f min (estimate), adds %.2g %% (%s h) for checkpoints, lost work and restarts",
			hoursWords(mtbi), plural(nodes, "node"), failures, delta*60, tau, restart*60, ov*100, hoursWords(added))
		return
	}
	r.note(NoteFailureOverhead, fields,
		"%s; checkpoint of %.3g min every %.3g h (Daly), restart %.0f min (estimate), adds %.2g %% (%s h) for checkpoints, lost work and restarts",
		failures, delta*60, tau, restart*60, ov*100, hoursWords(added))
}

// failureWords states the failure rate of a run on gpus GPUs and its mean
// time between failures, with the rate's source when it is the default.
func failureWords(v scenario.Value, gpus int, mtbf float64) string {
	src := "the scenario's rate"
	if !v.IsSet() {
		src = "an estimate from Llama 3's 419 unexpected interruptions in 54 days on 16,384 GPUs"
	}
	return fmt.Sprintf("hardware failures at %.3g per million GPU-hours (%s) give a job MTBF of %s h on %s",
		v.Or(DefaultGPUFailuresPerMillionHours), src, hoursWords(mtbf), plural(gpus, "GPU"))
}

// hoursWords writes hours to three significant figures, grouped from 1,000.
func hoursWords(h float64) string {
	if h >= 1000 {
		return num.Whole(h)
	}
	return fmt.Sprintf("%.3g", h)
}
