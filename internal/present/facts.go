package present

import (
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// Facts is what a field of the scenario file is beyond its words: the
// workload shapes it matters for, the catalog kind whose ids it takes,
// the usual values of a free-text field and whether it is prose. The
// window reads them to choose and show its controls.
type Facts struct {
	// Shapes are the workload shapes the field matters for; nil when it
	// matters for every shape. A path's shapes cover the fields under it
	// (workload.traffic covers workload.traffic.peak_rps).
	Shapes []string
	// Catalog is the kind of catalog entry whose id the field takes; ""
	// for a field that names none.
	Catalog catalog.Kind
	// Suggestions are the usual values of a free-text field.
	Suggestions []string
	// Multiline marks prose, edited over more than one line: the text
	// fields that may hold line breaks (scenario.TextOf).
	Multiline bool
}

// currencies are the usual scenario currencies.
var currencies = []string{"USD", "EUR", "GBP", "CHF", "JPY"}

var (
	trainingShapes = []string{scenario.ShapeFineTuning, scenario.ShapeTraining}
	runShapes      = []string{scenario.ShapeBatch, scenario.ShapeFineTuning, scenario.ShapeTraining}
)

// facts holds the facts of the fields that have any, by path.
var facts = map[string]Facts{
	"currency":                  {Suggestions: currencies},
	"exchange_rates[].currency": {Suggestions: currencies},
	"data.residency":            {Suggestions: []string{"any", "EU", "US", "DE", "UK"}},
	"price_overrides[].kind":    {Suggestions: catalog.KindNames()},

	"workload.model.preset": {Catalog: catalog.KindModel},
	"workload.trial_gpu":    {Catalog: catalog.KindGPU},
	"options.managed.offer": {Catalog: catalog.KindManaged},
	"options.cloud.offer":   {Catalog: catalog.KindCloud},
	"options.on_prem.node":  {Catalog: catalog.KindNode},
	"options.hpc.partition": {Catalog: catalog.KindHPC},

	"workload.traffic":               {Shapes: []string{scenario.ShapeInteractive}},
	"workload.method":                {Shapes: []string{scenario.ShapeFineTuning}},
	"workload.tokens_per_run_b":      {Shapes: runShapes},
	"workload.runs_per_month":        {Shapes: runShapes},
	"workload.epochs":                {Shapes: runShapes},
	"workload.global_batch_tokens":   {Shapes: runShapes},
	"workload.items_per_run_m":       {Shapes: trainingShapes},
	"workload.model.gflops_per_item": {Shapes: trainingShapes},
	"workload.model.gradient_gb":     {Shapes: trainingShapes},
	"workload.recompute":             {Shapes: trainingShapes},
	"workload.sharding":              {Shapes: trainingShapes},
	"workload.sequence_length":       {Shapes: trainingShapes},
	"workload.micro_batch":           {Shapes: trainingShapes},
	"workload.global_batch_items":    {Shapes: trainingShapes},
}

// FactsOf returns the facts of the field at path (list indices
// normalised), its shapes those of the nearest path above it that names
// any.
func FactsOf(path string) Facts {
	p := Normalize(path)
	f := facts[p]
	f.Multiline = scenario.TextOf(p).Multiline
	for q := p; f.Shapes == nil && q != ""; q = parent(q) {
		f.Shapes = facts[q].Shapes
	}
	return f
}

// MattersFor reports whether the field at path matters for a workload of
// the given shape: always when the shape is not chosen yet.
func MattersFor(path, shape string) bool {
	shapes := FactsOf(path).Shapes
	if shape == "" || shapes == nil {
		return true
	}
	for _, s := range shapes {
		if s == shape {
			return true
		}
	}
	return false
}

// parent is the path of the object or list holding the field at p, ""
// at the top: "workload.traffic.peak_rps" → "workload.traffic",
// "workload.trial[]" → "workload.trial".
func parent(p string) string {
	p = strings.TrimSuffix(p, "[]")
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}
