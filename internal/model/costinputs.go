package model

// A CostInput is one input of a direction's cost model as the report used
// it, and where it came from: a scenario field, a catalog entry, the
// engine's plan, the model's own estimate or another direction's figure.
// The export turns each into a named cell with its unit, source and date.
type CostInput struct {
	Driver Driver
	// Owner is the direction whose input this is, "" for one of the whole
	// workload (runs per month, horizon, staff cost, output volume): hybrid
	// reads the cloud's (or HPC's) prices and staff estimate, on-premises
	// the cloud's cost per run for its bridge. Directions that read the
	// same input read one cell.
	Owner string
	Kind  InputKind
	// Value is the value used: an estimate's likely value. Low and High
	// are an estimate's range (Estimate), both Value otherwise.
	Value, Low, High float64
	Estimate         bool
	// Field is the scenario field that sets the input ("" when none
	// does); Catalog the catalog entry that gave it when the scenario
	// leaves the field out, as kind/id/field (a price override's key),
	// with the entry's AsOf and Source.
	Field, Catalog string
	AsOf, Source   string
}

// InputKind says what sort of figure a cost input is.
type InputKind uint8

const (
	// InputGiven is a price, rate, volume or count the scenario or the
	// catalog gives: a driver a reader may change, and the costs follow.
	InputGiven InputKind = iota
	// InputEstimate is the model's own estimate (the staff a direction
	// needs): a driver too, with no scenario field.
	InputEstimate
	// InputPlan is a figure of the engine's plan (GPU-hours per run, GPUs,
	// nodes, tokens per run, time to result): changing the scenario may
	// change the plan, so it is the engine's, not a free driver.
	InputPlan
	// InputFigure is another direction's figure (the cloud's variable
	// cost per run and verdict, which the on-premises bridge rents at).
	InputFigure
)

var inputKindNames = [...]string{InputGiven: "given", InputEstimate: "estimate", InputPlan: "plan", InputFigure: "figure"}

// String is the kind's name: given, estimate, plan or figure.
func (k InputKind) String() string {
	if int(k) < len(inputKindNames) {
		return inputKindNames[k]
	}
	return "input_kind"
}
