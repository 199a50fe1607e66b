package model

import (
	"fmt"
	"slices"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
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
		r.infeasible(ReasonNothingToBurst, []string{"data.movement"}, "no data may leave, not even a snapshot, so there is nothing to burst")
	case scenario.MoveAny:
		r.note(NoteHybridUnconstrained, []string{"data.movement"},
			"hybrid earns its complexity only when a constraint needs two environments; here the data may move freely")
	}
	if e.z.serving && d.Movement != scenario.MoveAny {
		r.infeasible(ReasonLiveRequestsCarryData, []string{"data.movement", "workload.shape"}, "live requests would carry source data out of the controlled environment")
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
	extra := o.ExtraFTE.Or(DefaultHybridExtraStaffFTE)
	basis := ""
	if !r.quiet {
		basis = fmt.Sprintf("%s burst plus %.2f FTE for transfers and two environments", target, extra)
	}
	e.staff(r, base+extra, basis)
	// The burst target's own effort is its direction's estimate: one cell.
	e.staffEstimate(r, target, costid.BurstStaffFTE, base)
	r.Drivers[costid.ExtraStaffFTE] = extra
	if !r.quiet {
		r.fromField(costid.ExtraStaffFTE, scenario.Hybrid, costid.ExtraStaffFTE, "options.hybrid.extra_staff_fte", o.ExtraFTE, "estimate", "", "", catalog.Entry{})
	}
	return nil
}
