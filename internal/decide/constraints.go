package decide

import "regexp"

// Kind is the kind of hard constraint an infeasible reason belongs to.
type Kind string

// The constraint kinds, after the list: sovereignty and residency
// (which data may leave, which outputs may return), fit (the work does not
// fit the memory or capacity on offer), deadline (including a latency
// target), budget (the cap, or an HPC grant), operations (staff), and other
// (a direction the scenario excluded, or one with no offer for this work).
const (
	KindSovereignty Kind = "sovereignty"
	KindFit         Kind = "fit"
	KindDeadline    Kind = "deadline"
	KindBudget      Kind = "budget"
	KindOperations  Kind = "operations"
	KindOther       Kind = "other"
)

// Kinds lists the constraint kinds in display order.
var Kinds = []Kind{KindSovereignty, KindFit, KindDeadline, KindBudget, KindOperations, KindOther}

// Constraint is one reason the model gave for ruling a direction out.
type Constraint struct {
	Kind   Kind   `json:"kind"`
	Reason string `json:"reason"` // exactly as the model wrote it
	// Question is the first infrastructure question the reason raises.
	Question string `json:"question"`
}

// reasonRule recognises one sentence the model writes in
// internal/model (directions.go, evaluate.go, size.go). The patterns match
// the fixed words of the model's format strings; the numbers and names in
// between may be anything.
type reasonRule struct {
	re       *regexp.Regexp
	kind     Kind
	question string
}

// Questions shared by several rules.
const (
	qMovement  = "Which data may leave the controlled environment, in what form, and which outputs may come back?"
	qResidency = "Is there capacity of this kind inside the required jurisdiction, or may a minimised snapshot be processed elsewhere?"
	qProvider  = "Would an approved, minimised snapshot change what a provider may receive and keep, or must the work stay self-operated?"
	qMemory    = "Which GPU type and count hold the model's memory at the planned precision and sharding, and can that capacity be had?"
	qCapacity  = "Can this direction supply the GPU count the plan needs, or must the work be split, shrunk or placed elsewhere?"
	qDeadline  = "Can the run be shortened (faster GPUs, better scaling, less data or fewer steps) or the deadline moved?"
	qBudget    = "Which cost driver would have to fall, and by how much, to stay within the budget cap?"
	qGrant     = "Can the allocation be raised, or the run reduced, so that the monthly GPU-hours fit the grant?"
	qStaff     = "Who would operate this environment day to day, and can the team grow or hand the operation to a provider?"
	qSkills    = "Can the team learn, hire or borrow the skill this environment needs before the first run, or should someone else operate it?"
)

// reasonRules are tried in order; the first match decides.
var reasonRules = []reasonRule{
	// Scenario choices and availability.
	{re(`^excluded by the scenario \(options\.\w+\.disabled\)$`), KindOther,
		"Was this direction set aside on purpose, and is the reason recorded for the review?"},
	{re(`^no managed service in the catalog trains a model from scratch`), KindOther,
		"Is there a provider that trains a model of this kind from scratch, or is pre-training self-operated by nature?"},
	{re(`^no managed \S+ offer in the catalog serves a .+ B model in \S+$`), KindFit,
		"Is there a managed service that holds a model of this size in the required region?"},
	{re(`^no cloud offer in the catalog has a \S+ price in \S+$`), KindOther,
		"Which provider offers this GPU class in the required region, and under which pricing mode?"},
	{re(`^shared HPC runs bounded batch jobs through a scheduler, not an always-on service$`), KindOther,
		"Does any part of the work run as bounded batch jobs that a scheduler could take, leaving the live service elsewhere?"},
	{re(`^on spot capacity the job is interrupted every [\d.]+ h on average`), KindOther,
		"Can the run checkpoint and resume quickly enough for spot capacity, or should it use reserved or on-demand capacity?"},

	// Sovereignty and residency.
	{re(`^data\.movement is none: no data may leave the controlled environment$`), KindSovereignty, qMovement},
	{re(`^data\.movement is none: not even a snapshot may leave`), KindSovereignty, qMovement},
	{re(`^the source records must stay in the controlled environment \(data\.movement is snapshot_only\)`), KindSovereignty,
		"Can the work run on an approved, minimised snapshot while the source records stay where they are?"},
	{re(`^a managed provider would receive the data; data\.movement is \S+$`), KindSovereignty, qProvider},
	{re(`^data\.provider_may_process is false: `), KindSovereignty, qProvider},
	{re(`^.+ keeps the tuned weights: checkpoints cannot be returned$`), KindSovereignty,
		"Must the tuned weights come back to the organisation, and which services return them?"},
	{re(`^the burst target .+ is in \S+; data\.residency requires \S+$`), KindSovereignty, qResidency},
	{re(`^(.+ )?processes data in \S+; data\.residency requires \S+$`), KindSovereignty, qResidency},
	{re(`^live requests would carry source data out of the controlled environment$`), KindSovereignty,
		"Can requests be served inside the controlled environment, or be stripped of source data before they leave?"},
	{re(`^the run's .+ may not return \(data\.return_outputs lacks ".+"\)$`), KindSovereignty,
		"Which of the run's outputs may return, and who approves them before they do?"},

	// Fit: memory and capacity.
	{re(`^the [\d.]+ GB of weights do not fit 64 × \S+$`), KindFit, qMemory},
	{re(`^the run needs [\d.]+ GB per GPU even on \d+ × `), KindFit, qMemory},
	{re(`^\d+ GPUs were chosen but the run needs [\d.]+ GB per GPU there`), KindFit, qMemory},
	{re(`^\d+ GPUs were chosen; at most \d+ are available$`), KindFit, qCapacity},
	{re(`^needs \d+ GPUs \(\d+ replicas × \d+\) at the peak of .+ requests/s; at most \d+ are available$`), KindFit, qCapacity},
	{re(`^needs [\d.]+ GPU-hours a month; \d+ nodes give [\d.]+$`), KindFit, qCapacity},
	{re(`^needs [\d.]+ GPU-hours a month; \d+ committed GPUs give [\d.]+$`), KindFit,
		"Would more committed GPUs, or on-demand capacity for the overflow, cover the monthly work?"},
	{re(`^writing one checkpoint \([\d.]+ h\) does not fit the [\d.]+ h wall-time limit$`), KindFit,
		"Can checkpoints be written fast enough (faster storage, smaller state) to fit the partition's wall-time limit?"},

	// Deadline and latency.
	{re(`^a run takes [\d.]+ h; the deadline is [\d.]+ h$`), KindDeadline, qDeadline},
	{re(`^no batch on up to 64 × \S+ meets the [\d.]+ ms latency target$`), KindDeadline,
		"Is the latency target firm, and would a smaller model, lower precision or faster GPU meet it?"},

	// Budget and allocation.
	{re(`^costs \S+ \S+ over \d+ months; the budget cap is \S+$`), KindBudget, qBudget},
	{re(`^needs [\d.]+ GPU-hours a month; the grant is [\d.]+$`), KindBudget, qGrant},

	// Operations.
	{re(`^needs [\d.]+ FTE of operations \(.+\); the team has [\d.]+$`), KindOperations, qStaff},
	{re(`^needs the \w+ skill; the team lists .+$`), KindOperations, qSkills},
}

func re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

// Classify returns the kind of one infeasible reason and the first question
// it raises. ok is false for a sentence no rule recognises; it is then
// KindOther with a generic question (the package's tests make sure every
// reason the model can write is recognised).
func Classify(reason string) (c Constraint, ok bool) {
	for _, r := range reasonRules {
		if r.re.MatchString(reason) {
			return Constraint{Kind: r.kind, Reason: reason, Question: r.question}, true
		}
	}
	return Constraint{Kind: KindOther, Reason: reason,
		Question: "What would have to change for this direction to be considered at all?"}, false
}
