package present

import (
	"math"
	"strconv"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// The defaults the engine takes for numbers a scenario leaves out, as the
// fields' help states them: each help builds its words from the engine's
// own constant (package model) or the default catalog's site, never from
// a number typed again, and fields_test checks that writing the value in
// changes no example's report.

// fieldDefault is the default of one number field.
type fieldDefault struct {
	// named are the numbers the field's help names, the engine's own.
	named []float64
	// value is the engine's default for workload w, whose model has
	// activeB billion parameters active per token; false when it has no
	// one value (a table by GPU).
	value func(w scenario.Workload, activeB float64) (float64, bool)
}

// always is a default that is the same for every workload.
func always(x float64) fieldDefault {
	return fieldDefault{named: []float64{x}, value: func(scenario.Workload, float64) (float64, bool) { return x, true }}
}

// defaultSite is the site of the default catalog, whose figures an
// on-premises direction takes when the scenario gives none.
var defaultSite = func() catalog.Site {
	c, err := catalog.Default()
	if err != nil {
		panic("present: " + err.Error())
	}
	return c.Site
}()

// defaults holds the default of every number field whose help names one.
var defaults = map[string]fieldDefault{
	"workload.traffic.scale_up_margin": always(model.DefaultScaleUpMargin),
	"workload.mfu": {named: []float64{model.DefaultMFU}, value: func(w scenario.Workload, activeB float64) (float64, bool) {
		x, _, table := model.DefaultMFUs(w, activeB)
		return x, !table
	}},
	"workload.sequence_length": always(model.DefaultSequenceLength),
	"workload.micro_batch":     always(model.DefaultMicroBatch),
	"workload.global_batch_tokens": {
		named: []float64{model.DefaultTrainingBatchTokens, model.DefaultFineTuningBatchTokens, model.DefaultBatchInferenceTokens},
		value: func(w scenario.Workload, _ float64) (float64, bool) {
			switch w.Shape {
			case scenario.ShapeTraining:
				return model.DefaultTrainingBatchTokens, true
			case scenario.ShapeFineTuning:
				return model.DefaultFineTuningBatchTokens, true
			}
			return model.DefaultBatchInferenceTokens, true
		}},
	"workload.global_batch_items":                always(model.DefaultBatchItems),
	"workload.epochs":                            always(model.DefaultEpochs),
	"workload.efficiency_threshold":              always(model.DefaultEfficiencyThreshold),
	"workload.failures_per_million_gpu_hours":    always(model.DefaultGPUFailuresPerMillionHours),
	"data.storage_gbps":                          always(model.DefaultStorageGBps),
	"options.cloud.spot_interruptions_per_month": always(model.DefaultSpotInterruptions),
	"options.hybrid.extra_staff_fte":             always(model.DefaultHybridExtraStaffFTE),
	"options.on_prem.infrastructure_share":       always(defaultSite.InfrastructureShare),
	"options.on_prem.cost_of_capital":            always(defaultSite.CostOfCapital),
	"options.on_prem.rack_kw":                    always(defaultSite.RackKW),
}

// exact writes a default as the help names it: every digit, thousands
// grouped (4,096; 0.075; 4,194,304).
func exact(x float64) string { return num.Group(strconv.FormatFloat(x, 'f', -1, 64)) }

// MFUHint is what the form shows in an empty workload.mfu, short enough
// for the entry: the MFU the model assumes for workload w, whose model has
// activeB billion parameters active per token — one figure ("0.4"), or for
// training the table's range over the GPU classes ("0.16–0.39": H100-class
// and A100-class GPUs differ; the field's help names the table).
func MFUHint(w scenario.Workload, activeB float64) string {
	ampere, hopper, table := model.DefaultMFUs(w, activeB)
	if !table || Figure(ampere) == Figure(hopper) {
		return exact(ampere)
	}
	return Figure(math.Min(ampere, hopper)) + "–" + Figure(math.Max(ampere, hopper))
}
