package model

import (
	"math"

	"hostplan/internal/costid"
)

// Restart after an interruption: new capacity, container start and reading
// the last checkpoint back (estimate).
const restartHours = 10.0 / 60

// DefaultSpotInterruptions is the middle of the AWS Spot Instance Advisor's
// 5–10 % bucket: no rate is published for large GPU instances, so it is an
// estimate the user should replace (prices.md).
const DefaultSpotInterruptions = 0.075

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
	f := e.s.Options.Cloud.SpotInterruptions.Or(DefaultSpotInterruptions)
	if !e.s.Options.Cloud.SpotInterruptions.IsSet() && !r.quiet {
		r.note(NoteSpotRateAssumed, []string{"options.cloud.spot_interruptions_per_month"},
			"spot interruptions: %.1f %% of instances a month assumed (AWS Spot Advisor 5–10 %% bucket; no published figure for GPU instances)", f*100)
	}
	if f <= 0 {
		return
	}
	nodes := int(math.Ceil(float64(r.GPUs) / float64(hw.perNode)))
	mtbi := JobMTBI(RateFromMonthlyFraction(f), nodes)
	delta := e.checkpointHours(hw)
	tau := DalyInterval(delta, mtbi)
	ov := CheckpointOverhead(delta, mtbi, tau, restartHours)
	added := r.ComputeHours * ov
	r.Drivers[costid.InterruptionHours] = added
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
		r.Interruptions = &Interruptions{MTBIHours: mtbi, CheckpointMinutes: delta * 60, IntervalHours: tau, OverheadFraction: ov, WallTimeChunks: 1}
		r.note(NoteSpotOverhead, []string{"options.cloud.spot_interruptions_per_month"},
			"spot: job MTBI %.0f h over %d node(s); checkpoint every %.1f h (Daly) adds %.1f %% for checkpoints, lost work and restarts", mtbi, nodes, tau, ov*100)
	}
}
