package model

import (
	"fmt"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// The model's sentences name scenario values in a reader's words, never as
// JSON paths or enum values; the paths go into the reason's or note's
// Fields.

// movementWords says what data.movement allows.
func movementWords(movement string) string {
	switch movement {
	case scenario.MoveNone:
		return "no data may leave the controlled environment"
	case scenario.MoveSnapshot:
		return "only an approved snapshot may leave the controlled environment"
	}
	return "the data may move freely"
}

// withinResidency is " within EU" for a required jurisdiction, "" when the
// data may be processed anywhere.
func withinResidency(residency string) string {
	if residency == "" || residency == "any" {
		return ""
	}
	return " within " + residency
}

// pricingWords names a cloud pricing mode.
func pricingWords(mode string) string {
	switch mode {
	case scenario.PricingOnDemand, "":
		return "on-demand"
	case scenario.PricingCommit1Y:
		return "1-year commitment"
	case scenario.PricingCommit3Y:
		return "3-year commitment"
	case scenario.PricingMixed1Y:
		return "1-year commitment for the base load, on demand above it"
	case scenario.PricingMixed3Y:
		return "3-year commitment for the base load, on demand above it"
	}
	return strings.ReplaceAll(mode, "_", " ")
}

// shardingWords names how the model state is spread over the GPUs.
func shardingWords(sharding string) string {
	switch sharding {
	case "replicated":
		return "model state replicated on every GPU"
	case "zero1", "zero2", "zero3":
		return "model state sharded by ZeRO stage " + sharding[4:]
	}
	return "sharding " + sharding
}

// skillWords names an operating skill (dimensions.operations.skills).
func skillWords(skill string) string {
	switch skill {
	case "kubernetes":
		return "Kubernetes"
	case "gpu_cluster":
		return "GPU cluster"
	case "hpc_scheduler":
		return "HPC scheduler"
	case "datacentre":
		return "data-centre"
	case "mlops":
		return "MLOps"
	}
	return strings.ReplaceAll(skill, "_", " ")
}

// directionWords names a direction, or says the id as it is when it is
// not one (data.controlled_environment is free text).
func directionWords(d string) string {
	if t, ok := scenario.DirectionTitle[d]; ok {
		return t
	}
	return strings.ReplaceAll(d, "_", " ")
}

// gpuWords names a GPU type by its catalog name.
func gpuWords(g catalog.GPU) string {
	if g.Name != "" {
		return g.Name
	}
	return g.ID
}

// countWords is a number in words a reader scans easily: 3 significant
// digits below 1,000, grouped thousands above.
func countWords(x float64) string {
	if x >= 1000 {
		return num.Whole(x)
	}
	return fmt.Sprintf("%.3g", x)
}

// plural is "1 node" or "3 nodes".
func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// agree picks the verb form for a count: one for 1, many otherwise.
func agree(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// countField is the scenario field that sets a direction's GPU count: the
// burst target's for hybrid, nodes for on-premises.
func (e *evaluator) countField(direction string) string {
	switch direction {
	case scenario.OnPrem:
		return "options.on_prem.nodes"
	case scenario.HPC:
		return "options.hpc.gpus"
	case scenario.Hybrid:
		if e.s.Options.Hybrid.BurstTo == scenario.HPC {
			return "options.hpc.gpus"
		}
	}
	return "options.cloud.gpus"
}

// Writing reasons and notes: each with its code and the fields it
// concerns. The writers (infeasible, note, line; use and cite for
// sources) write nothing in a quiet evaluation, which evaluate alone
// decides. A writer whose text has arguments is called under `if
// r.ruleOut()` or `if !r.quiet` all the same: Go builds the arguments
// before the call, and boxing the numbers for the format would cost a
// Monte Carlo draw more than its arithmetic (without these guards a draw
// made about 45 allocations and an analysis took 1.7 times as long). A
// writer with a fixed text needs no guard: its field list is copied only
// when written, so it costs nothing.

// ruleOut marks the direction infeasible and reports whether to write the
// reason (not in a quiet evaluation, where only the verdict counts).
func (r *DirectionResult) ruleOut() bool {
	r.Feasible = false
	return !r.quiet
}

// infeasible rules the direction out with a reason: its code, the
// scenario fields it concerns and its text. In a quiet (Monte Carlo)
// evaluation only the verdict is kept: the words are the full report's.
func (r *DirectionResult) infeasible(code ReasonCode, fields []string, format string, a ...any) {
	r.Feasible = false
	if !r.quiet {
		r.Reasons = append(r.Reasons, newReason(code, fields, fmt.Sprintf(format, a...)))
	}
}

// note adds a note with its code, the fields it concerns and its text (not
// in a quiet evaluation).
func (r *DirectionResult) note(code NoteCode, fields []string, format string, a ...any) {
	if !r.quiet && !r.lean {
		r.Notes = append(r.Notes, newNote(code, fields, fmt.Sprintf(format, a...)))
	}
}

// servingFailed rules r out with the reason no serving plan on GPU g
// holds the load.
func (e *evaluator) servingFailed(r *DirectionResult, p servingPlan, g catalog.GPU) {
	if !r.ruleOut() {
		return
	}
	if p.fail == ReasonLatencyTargetMissed {
		r.infeasible(ReasonLatencyTargetMissed, []string{"workload.traffic.latency_target_ms"},
			"no batch on up to 64 × %s meets the %.0f ms latency target", gpuWords(g), e.z.latencyMS)
		return
	}
	r.infeasible(ReasonWeightsDoNotFit, []string{"workload.model", "workload.precision"},
		"the %.0f GB of weights do not fit 64 × %s", e.z.weightsGB, gpuWords(g))
}

// staffFields are the scenario fields behind a direction's staff check.
func (e *evaluator) staffFields(direction string) []string {
	switch direction {
	case scenario.OnPrem:
		return []string{"dimensions.operations.staff_fte", "options.on_prem.staff_fte"}
	case scenario.Hybrid:
		return []string{"dimensions.operations.staff_fte", "options.hybrid.extra_staff_fte"}
	}
	return []string{"dimensions.operations.staff_fte"}
}

// outsideResidency rules r out: the offer called name processes data in
// jurisdiction, outside data.residency.
func (e *evaluator) outsideResidency(r *DirectionResult, name, jurisdiction, offerField string) {
	if !r.ruleOut() {
		return
	}
	r.infeasible(ReasonOutsideResidency, []string{"data.residency", offerField},
		"%s processes data in %s; the data must stay in %s", name, jurisdiction, e.s.Data.Residency)
}

// burstOutside rules hybrid out: its burst target, the offer called name,
// is in jurisdiction, outside data.residency.
func (e *evaluator) burstOutside(r *DirectionResult, name, jurisdiction, offerField string) {
	if !r.ruleOut() {
		return
	}
	r.infeasible(ReasonBurstOutsideResidency, []string{"data.residency", "options.hybrid.burst_to", offerField},
		"the burst target %s is in %s; the data must stay in %s", name, jurisdiction, e.s.Data.Residency)
}
