// Package model turns a scenario and a catalog into a Report: the work's
// size, and for each of the five hosting directions whether it is feasible,
// its time to result and its cost per run and over the horizon. It is pure
// computation (no GUI, no storage); every formula cites its source.
//
// The report's words are data (reason.go): every reason a direction is
// ruled out, every note and every bottleneck has a stable code, a kind and
// the scenario fields it concerns, beside a sentence in plain words; the
// faces key on the codes and never parse the sentences.
//
// Evaluate sizes the work and asks each direction in turn; they share the
// placement of a run on a GPU count along its scaling curve, the hard
// constraints and the cost of interruptions. Each direction sets the inputs
// of its cost model and says where each came from. Every cost figure comes
// from one cost identity: expressions over named drivers (package costid)
// that the engine runs as generated code and the workbook writes as the
// same formulas. Analyze adds the Monte Carlo spread of a plan pinned to
// the report's choices, and the tornado.
//
// The files (TestPackageDocMapsFiles keeps this list whole):
//
//	evaluate.go       Evaluate: the pipeline, the evaluator, scenario prices as catalog rows
//	report.go         Report, DirectionResult and the other types of the output
//	size.go           the work's size: FLOPs, tokens, items, runs; the model's stated assumptions
//	staging.go        where the data lives and the copy to each direction's compute before a run
//	memory.go         memory per GPU: weights, gradients, optimiser, activations, KV cache
//	mfu.go            model FLOPs utilisation when the scenario gives none (a table by size, GPU, method)
//	parallel.go       parallel layouts (tensor, pipeline, data) and the fastest that fits
//	serving.go        an interactive service: replica layout, decode and prefill, batch, replicas
//	scaling.go        step time and efficiency against the GPU count; batch decoding
//	usl.go            the Universal Scalability Law, fitted to trial points
//	place.go          a run placed on a GPU count of a direction's hardware
//	constraints.go    sovereignty and residency, staff and skills, months a rented direction is in use
//	interruptions.go  hardware failures (every direction) and spot interruptions of a run
//	reliability.go    checkpoint intervals (Young), their overhead, failures
//	autoscale.go      serving over the day: replicas following the load, mixed pricing
//	managed.go        the managed-service direction (per-token)
//	dedicated.go      the managed direction's dedicated deployment (per GPU-hour)
//	cloud.go          the cloud IaaS direction
//	onprem.go         the on-premises direction
//	hpc.go            the shared HPC direction
//	hybrid.go         the hybrid direction: on site with a cloud burst
//	cost.go           DeriveCosts: a direction's cost figures from its drivers (package costid)
//	costinputs.go     each cost input with where it came from, for the workbook
//	currency.go       prices converted into the scenario's currency
//	weighed.go        which catalog prices an evaluation read (reprice skips what a move cannot change)
//	energy.go         energy and emissions per run and over the horizon
//	compare.go        break-even points between directions
//	montecarlo.go     Analyze: the Monte Carlo spread of cost and time
//	tornado.go        one-at-a-time sensitivity of one metric
//	estimate.go       the back-of-envelope calculators (hostplan estimate)
//	reason.go         reasons, notes and bottlenecks as codes, kinds and fields
//	words.go          scenario values in a reader's words for the sentences
//	finite.go         no NaN or Inf leaves the package
package model
