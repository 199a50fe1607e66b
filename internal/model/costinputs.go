package model

import (
	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// A CostInput is one input of a direction's cost model as the report used
// it, and where it came from: a scenario field, a catalog entry, the
// engine's plan, the model's own estimate or another direction's figure.
// The export turns each into a named cell with its unit, source and date.
type CostInput struct {
	Driver costid.Driver
	// Owner is the direction whose input this is, "" for one of the whole
	// workload (runs per month, horizon, staff cost, output volume): hybrid
	// reads the cloud's (or HPC's) prices and staff estimate, on-premises
	// the cloud's cost per run for its bridge. Directions that read the
	// same input read one cell.
	Owner string
	// Name is the input's name in the report, unique to the figure it
	// reads: owner_driver, such as cloud_price_per_gpu_hour (hybrid's
	// price per GPU-hour is named so too), or the driver's name for one of
	// the whole workload.
	Name string
	Kind InputKind
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
	// FromCurrency is the currency a catalog price was published in when
	// the model converted it into the scenario's (the report's
	// ExchangeRates hold the rate); "" when it was not converted.
	FromCurrency string
	// Set is whether the scenario sets Field.
	Set bool
	// Follows names the input whose value this one takes while its field
	// is left out (hybrid's snapshot is the data volume unless given).
	Follows string
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

// Recording where a direction's cost inputs came from. The directions set
// the values in r.Drivers; in a full report (never in a quiet evaluation,
// which must not allocate) they then say where each came from, and these
// read the value back from r.Drivers.

// inputName is the name of owner's input d: "runs_per_month" for one of
// the whole workload, "cloud_price_per_gpu_hour" for a direction's.
func inputName(owner string, d costid.Driver) string {
	if owner == "" {
		return d.String()
	}
	return owner + "_" + d.String()
}

// record appends in, with its value from r.Drivers, to r's cost inputs.
func (r *DirectionResult) record(in CostInput) {
	in.Value = r.Drivers[in.Driver]
	if !in.Estimate {
		in.Low, in.High = in.Value, in.Value
	}
	r.CostInputs = append(r.CostInputs, in)
}

// fromField says that input d came from the scenario field path, v, or
// when v is not set from the catalog entry en at kind/id/cfield; with kind
// "estimate" from the model's own estimate, with kind "" from the value a
// field left out stands for (0: none). owner and as name the cell the
// input is read from (as: owner's driver, usually d).
func (r *DirectionResult) fromField(d costid.Driver, owner string, as costid.Driver, path string, v scenario.Value, kind, id, cfield string, en catalog.Entry) {
	in := CostInput{Driver: d, Owner: owner, Name: inputName(owner, as), Field: path, Set: v.IsSet()}
	switch {
	case v.IsSet():
		in.Low, in.High, in.Estimate = v.Low, v.High, v.IsEstimate()
	case kind == "estimate":
		in.Kind = InputEstimate
	case kind != "":
		in.Catalog, in.AsOf, in.Source, in.FromCurrency = kind+"/"+id+"/"+cfield, en.AsOf, en.Source, money(kind, cfield, en)
	}
	r.record(in)
}

// fromCatalog says that input d came from the catalog entry en at
// kind/id/cfield, which no scenario field overrides.
func (r *DirectionResult) fromCatalog(d costid.Driver, owner, kind, id, cfield string, en catalog.Entry) {
	r.record(CostInput{Driver: d, Owner: owner, Name: inputName(owner, d), Catalog: kind + "/" + id + "/" + cfield, AsOf: en.AsOf, Source: en.Source,
		FromCurrency: money(kind, cfield, en)})
}

// money is the currency the catalog figure kind/cfield of entry en was
// converted from, when it is an amount of money the model converted.
func money(kind, cfield string, en catalog.Entry) string {
	if en.FromCurrency != "" && catalog.IsMoney(kind, cfield) {
		return en.FromCurrency
	}
	return ""
}

// fromModel says that input d, owner's as, is of kind k (plan, estimate,
// figure); path names the scenario field behind it, if any.
func (r *DirectionResult) fromModel(d costid.Driver, owner string, as costid.Driver, k InputKind, path string) {
	r.record(CostInput{Driver: d, Owner: owner, Name: inputName(owner, as), Kind: k, Field: path})
}

// plan sets input d to x, a figure of the direction's own plan.
func (r *DirectionResult) plan(d costid.Driver, x float64) {
	r.Drivers[d] = x
	if !r.quiet {
		r.fromModel(d, r.Direction, d, InputPlan, "")
	}
}
