package decide

import "hostplan/internal/model"

// Kind is the kind of hard constraint an infeasible reason belongs to: the
// model's (model.Kind), so that the report and the decision cannot
// disagree.
type Kind = model.Kind

// The constraint kinds (see model.Kind).
const (
	KindSovereignty = model.KindSovereignty
	KindFit         = model.KindFit
	KindDeadline    = model.KindDeadline
	KindBudget      = model.KindBudget
	KindOperations  = model.KindOperations
	KindOther       = model.KindOther
)

// Kinds lists the constraint kinds in display order.
var Kinds = model.Kinds

// Constraint is one reason the model gave for ruling a direction out, with
// the first infrastructure question it raises.
type Constraint struct {
	Code   model.ReasonCode `json:"code"`
	Kind   Kind             `json:"kind"`
	Fields []string         `json:"fields"` // the scenario fields it concerns
	Reason string           `json:"reason"` // the model's text
	// Question is the first infrastructure question the reason raises.
	Question string `json:"question"`
}

// Questions shared by several codes.
const (
	qMovement  = "Which data may leave the controlled environment, in what form, and which outputs may come back?"
	qResidency = "Is there capacity of this kind inside the required jurisdiction, or may a minimised snapshot be processed elsewhere?"
	qProvider  = "Would an approved, minimised snapshot change what a provider may receive and keep, or must the work stay self-operated?"
	qMemory    = "Which GPU type and count hold the model's memory at the planned precision and sharding, and can that capacity be had?"
	qCapacity  = "Can this direction supply the GPU count the plan needs, or must the work be split, shrunk or placed elsewhere?"
	qDeadline  = "Can the run be shortened (faster GPUs, better scaling, less data or fewer steps) or the deadline moved?"
	qBudget    = "Which cost driver would have to fall, and by how much, to stay within the budget cap?"
	qGrant     = "Can the allocation be raised, or the run reduced, so that the GPU-hours of each grant period fit it?"
	qStaff     = "Who would operate this environment day to day, and can the team grow or hand the operation to a provider?"
	qSkills    = "Can the team learn, hire or borrow the skill this environment needs before the first run, or should someone else operate it?"
	qUnknown   = "What would have to change for this direction to be considered at all?"
)

// questions is the one table from the model's reason codes to the first
// infrastructure question each raises (the kind comes with the reason).
// The package's tests make sure every code the model defines is here.
var questions = map[model.ReasonCode]string{
	// Scenario choices and availability.
	model.ReasonExcluded:           "Was this direction set aside on purpose, and is the reason recorded for the review?",
	model.ReasonNoManagedTraining:  "Is there a provider that trains a model of this kind from scratch, or is pre-training self-operated by nature?",
	model.ReasonNoManagedOffer:     "Is there a managed service that holds a model of this size in the required region?",
	model.ReasonNoCloudPrice:       "Which provider offers this GPU class in the required region, and under which pricing mode?",
	model.ReasonHPCMembersOnly:     "Is the organisation eligible for the centre's member rate or an allocation, or which centre sells time to users from outside?",
	model.ReasonHPCNotForServing:   "Does any part of the work run as bounded batch jobs that a scheduler could take, leaving the live service elsewhere?",
	model.ReasonSpotTooInterrupted: "Can the run checkpoint and resume quickly enough for spot capacity, or should it use reserved or on-demand capacity?",

	// Sovereignty and residency.
	model.ReasonDataMustStay:          qMovement,
	model.ReasonNothingToBurst:        qMovement,
	model.ReasonSourceMustStay:        "Can the work run on an approved, minimised snapshot while the source records stay where they are?",
	model.ReasonProviderReceivesData:  qProvider,
	model.ReasonProviderMayNotProcess: qProvider,
	model.ReasonProviderKeepsWeights:  "Must the tuned weights come back to the organisation, and which services return them?",
	model.ReasonBurstOutsideResidency: qResidency,
	model.ReasonOutsideResidency:      qResidency,
	model.ReasonProviderHomeExcluded:  "Is there capacity of this kind from a provider at home in an allowed jurisdiction (a local cloud, a national HPC centre, owned hardware), or may the homes allowed be widened?",
	model.ReasonLiveRequestsCarryData: "Can requests be served inside the controlled environment, or be stripped of source data before they leave?",
	model.ReasonOutputsMayNotReturn:   "Which of the run's outputs may return, and who approves them before they do?",

	// Fit: memory and capacity.
	model.ReasonWeightsDoNotFit:        qMemory,
	model.ReasonStateDoesNotFit:        qMemory,
	model.ReasonTooFewGPUs:             qMemory,
	model.ReasonTooManyGPUs:            qCapacity,
	model.ReasonReplicasOverCapacity:   qCapacity,
	model.ReasonOwnedCapacityShort:     qCapacity,
	model.ReasonCommittedGPUsShort:     "Would more committed GPUs, or on-demand capacity for the overflow, cover the monthly work?",
	model.ReasonFairShareExceeded:      "Would the centre reserve a larger share for this project, or should the steady part of the work run on capacity it holds (committed cloud GPUs or owned nodes)?",
	model.ReasonCheckpointOverWallTime: "Can checkpoints be written fast enough (faster storage, smaller state) to fit the partition's wall-time limit?",
	model.ReasonFailuresTooFrequent:    "How often do this fleet's GPUs fail, and can the run use fewer GPUs, faster checkpoints or quicker restarts?",
	model.ReasonRackPowerExceeded:      "Can the site power and cool racks of this density (liquid cooling, a high-density hall), or should lower-power nodes or colocation take them?",

	// Deadline and latency.
	model.ReasonDeadlineMissed:        qDeadline,
	model.ReasonRunLongerThanInterval: "Can one run finish before the next is due (more or faster GPUs, less data), or can the runs be spaced further apart?",
	model.ReasonRunLongerThanHorizon:  "Can one run be made to finish within the horizon (more or faster GPUs, less data), or should the horizon be longer?",
	model.ReasonLatencyTargetMissed:   "Is the latency target firm, and would a smaller model, lower precision or faster GPU meet it?",

	// Budget and allocation.
	model.ReasonBudgetCapExceeded: qBudget,
	model.ReasonGrantExceeded:     qGrant,

	// Operations.
	model.ReasonStaffShort:   qStaff,
	model.ReasonSkillMissing: qSkills,
}

// Classify returns the constraint one reason of the model stands for: its
// code, kind, fields and text, and the first question it raises. ok is
// false for a code the table does not know (a report from a newer model);
// the question is then a generic one.
func Classify(r model.Reason) (c Constraint, ok bool) {
	q, ok := questions[r.Code]
	if !ok {
		q = qUnknown
	}
	kind := r.Kind
	if kind == "" {
		kind = r.Code.Kind()
	}
	fields := r.Fields
	if fields == nil {
		fields = []string{}
	}
	return Constraint{Code: r.Code, Kind: kind, Fields: fields, Reason: r.Text, Question: q}, ok
}
