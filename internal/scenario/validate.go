package scenario

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// FieldError is one problem with one field, named by its JSON path.
type FieldError struct {
	Path    string // e.g. "workload.traffic.peak_rps.low"
	Problem string // what is wrong
	Allowed string // what is allowed; may be empty
}

func (e FieldError) Error() string {
	if e.Allowed == "" {
		return e.Path + ": " + e.Problem
	}
	return e.Path + ": " + e.Problem + " (allowed: " + e.Allowed + ")"
}

// Errors is every problem found in one scenario.
type Errors []FieldError

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// checker collects field errors.
type checker struct{ errs Errors }

func (c *checker) add(path, problem, allowed string) {
	c.errs = append(c.errs, FieldError{Path: path, Problem: problem, Allowed: allowed})
}

func (c *checker) oneOf(path, v string, allowed []string, required bool) {
	if v == "" {
		if required {
			c.add(path, "is required", strings.Join(allowed, ", "))
		}
		return
	}
	if !slices.Contains(allowed, v) {
		c.add(path, fmt.Sprintf("%q is not a known value", v), strings.Join(allowed, ", "))
	}
}

func (c *checker) text(path, v string) {
	if strings.TrimSpace(v) == "" {
		c.add(path, "is required", "a non-empty text")
	}
}

// bounds describe the allowed range of a numeric field.
type bounds struct {
	min, max     float64
	minExclusive bool
}

func (b bounds) String() string {
	lo := "≥ " + num(b.min)
	if b.minExclusive {
		lo = "> " + num(b.min)
	}
	if math.IsInf(b.max, 1) {
		return "a number " + lo
	}
	return "a number " + lo + " and ≤ " + num(b.max)
}

func (b bounds) ok(x float64) bool {
	if math.IsNaN(x) || math.IsInf(x, 0) || x > b.max {
		return false
	}
	if b.minExclusive {
		return x > b.min
	}
	return x >= b.min
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

var (
	positive    = bounds{min: 0, max: math.Inf(1), minExclusive: true}
	nonNegative = bounds{min: 0, max: math.Inf(1)}
	fraction    = bounds{min: 0, max: 1, minExclusive: true}
)

// value checks a Value: each point within b and low ≤ likely ≤ high.
func (c *checker) value(path string, v Value, b bounds, required bool) {
	if !v.IsSet() {
		if required {
			c.add(path, "is required", b.String()+" or {low, likely, high}")
		}
		return
	}
	if !v.IsEstimate() {
		if !b.ok(v.Likely) {
			c.add(path, num(v.Likely)+" is out of range", b.String())
		}
		return
	}
	bad := false
	for _, p := range []struct {
		name string
		x    float64
	}{{"low", v.Low}, {"likely", v.Likely}, {"high", v.High}} {
		if !b.ok(p.x) {
			c.add(path+"."+p.name, num(p.x)+" is out of range", b.String())
			bad = true
		}
	}
	if !bad && !(v.Low <= v.Likely && v.Likely <= v.High) {
		c.add(path, fmt.Sprintf("estimate %s, %s, %s is out of order", num(v.Low), num(v.Likely), num(v.High)), "low ≤ likely ≤ high")
	}
}

func (c *checker) number(path string, x float64, b bounds, required bool) {
	if x == 0 && !required {
		return
	}
	if !b.ok(x) {
		c.add(path, num(x)+" is out of range", b.String())
	}
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// Validate returns every problem in s, or nil when it is valid. It checks
// ranges, required fields per workload shape and the allowed values of every
// enumerated field; catalog references (presets, offers) are checked by the
// model against the catalog in use.
func Validate(s *Scenario) Errors {
	c := &checker{}
	if s.SchemaVersion != SchemaVersion {
		c.add("schema_version", fmt.Sprintf("%d is not supported", s.SchemaVersion), strconv.Itoa(SchemaVersion))
	}
	if !idPattern.MatchString(s.ID) {
		c.add("id", fmt.Sprintf("%q is not a valid id", s.ID), "1–64 lower-case letters, digits and '-', starting with a letter or digit")
	}
	c.text("name", s.Name)
	c.oneOf("distribution", s.Distribution, Distributions, false)
	if len(s.Currency) != 3 || strings.ToUpper(s.Currency) != s.Currency {
		c.add("currency", fmt.Sprintf("%q is not a currency code", s.Currency), "a three-letter ISO 4217 code such as USD or EUR")
	}

	c.text("purpose.decision", s.Purpose.Decision)
	c.text("purpose.success_measure", s.Purpose.SuccessMeasure)
	c.text("purpose.owner", s.Purpose.Owner)
	c.value("purpose.acceptable_runtime_hours", s.Purpose.AcceptableRuntimeHours, positive, false)

	validateWorkload(c, &s.Workload)
	validateData(c, &s.Data)
	validateDimensions(c, &s.Dimensions)
	validateOptions(c, &s.Options)
	for i, o := range s.PriceOverrides {
		path := fmt.Sprintf("price_overrides[%d]", i)
		for _, f := range []struct{ name, v string }{{"kind", o.Kind}, {"id", o.ID}, {"field", o.Field}, {"value", o.Value}, {"as_of", o.AsOf}, {"source", o.Source}} {
			if strings.TrimSpace(f.v) == "" {
				c.add(path+"."+f.name, "is required", "see hostplan catalog export for kinds, ids and fields")
			}
		}
	}

	if len(c.errs) == 0 {
		return nil
	}
	return c.errs
}

func validateWorkload(c *checker, w *Workload) {
	c.oneOf("workload.shape", w.Shape, Shapes, true)
	c.oneOf("workload.precision", w.Precision, Precisions, true)
	m := w.Model
	if m.Preset == "" && m.ParamsB == 0 && m.GFLOPsPerItem == 0 {
		c.add("workload.model", "names no model", "a catalog preset, params_b, or gflops_per_item for non-LLM work")
	}
	c.number("workload.model.params_b", m.ParamsB, positive, false)
	c.number("workload.model.active_params_b", m.ActiveParamsB, positive, false)
	if m.ActiveParamsB > 0 && m.ParamsB > 0 && m.ActiveParamsB > m.ParamsB {
		c.add("workload.model.active_params_b", "is larger than params_b", "active parameters ≤ total parameters")
	}
	for _, f := range []struct {
		name string
		v    int
	}{{"layers", m.Layers}, {"hidden_size", m.HiddenSize}, {"kv_heads", m.KVHeads}, {"head_dim", m.HeadDim}} {
		if f.v < 0 {
			c.add("workload.model."+f.name, strconv.Itoa(f.v)+" is negative", "a whole number ≥ 1")
		}
	}
	c.number("workload.model.gflops_per_item", m.GFLOPsPerItem, positive, false)
	c.number("workload.model.gradient_gb", m.GradientGB, positive, false)

	switch w.Shape {
	case ShapeFineTuning:
		c.oneOf("workload.method", w.Method, FineTuneMethods, true)
	default:
		if w.Method != "" {
			c.add("workload.method", "applies to fine-tuning only", "empty for shape "+w.Shape)
		}
	}

	c.value("workload.tokens_per_run_b", w.TokensPerRunB, positive, false)
	c.value("workload.items_per_run_m", w.ItemsPerRunM, positive, false)
	c.value("workload.runs_per_month", w.RunsPerMonth, positive, false)
	c.value("workload.deadline_hours", w.DeadlineHours, positive, false)
	c.value("workload.mfu", w.MFU, fraction, false)

	switch w.Shape {
	case ShapeInteractive:
		if w.Traffic == nil {
			c.add("workload.traffic", "is required for interactive inference", "an object with peak_rps, mean_rps, tokens_in, tokens_out, latency_target_ms")
		}
	case ShapeBatch, ShapeFineTuning, ShapeTraining:
		if !w.RunsPerMonth.IsSet() {
			c.add("workload.runs_per_month", "is required for shape "+w.Shape, positive.String()+" or {low, likely, high}")
		}
		if m.GFLOPsPerItem > 0 {
			if !w.ItemsPerRunM.IsSet() {
				c.add("workload.items_per_run_m", "is required with model.gflops_per_item", positive.String())
			}
		} else if !w.TokensPerRunB.IsSet() {
			c.add("workload.tokens_per_run_b", "is required for shape "+w.Shape, positive.String()+" (billions of tokens) or {low, likely, high}")
		}
	}
	if t := w.Traffic; t != nil {
		c.value("workload.traffic.peak_rps", t.PeakRPS, positive, true)
		c.value("workload.traffic.mean_rps", t.MeanRPS, positive, true)
		c.value("workload.traffic.tokens_in", t.TokensIn, positive, true)
		c.value("workload.traffic.tokens_out", t.TokensOut, positive, true)
		c.value("workload.traffic.latency_target_ms", t.LatencyTargetMS, positive, false)
		if t.PeakRPS.IsSet() && t.MeanRPS.IsSet() && t.MeanRPS.Likely > t.PeakRPS.Likely {
			c.add("workload.traffic.mean_rps", "is above peak_rps", "mean ≤ peak")
		}
	}
	c.oneOf("workload.sharding", w.Sharding, Shardings, false)
	for _, f := range []struct {
		name string
		v    int
	}{{"sequence_length", w.SequenceLength}, {"micro_batch", w.MicroBatch}, {"global_batch_tokens", w.GlobalBatchTokens}, {"global_batch_items", w.GlobalBatchItems}} {
		if f.v < 0 {
			c.add("workload."+f.name, strconv.Itoa(f.v)+" is negative", "a whole number ≥ 1, or omit for the default")
		}
	}
	c.value("workload.epochs", w.Epochs, positive, false)
	c.value("workload.serial_fraction", w.SerialFraction, bounds{min: 0, max: 0.99}, false)
	c.value("workload.efficiency_threshold", w.EfficiencyThreshold, fraction, false)
	if w.Recompute && (w.Shape == ShapeBatch || w.Shape == ShapeInteractive) {
		c.add("workload.recompute", "applies to training and fine-tuning only", "false for shape "+w.Shape)
	}
	if len(w.Trial) > 0 && w.TrialGPU == "" {
		c.add("workload.trial_gpu", "is required with trial points", "the catalog GPU id the trial ran on")
	}
	for i, p := range w.Trial {
		path := fmt.Sprintf("workload.trial[%d]", i)
		if p.GPUs < 1 {
			c.add(path+".gpus", strconv.Itoa(p.GPUs)+" is out of range", "a whole number ≥ 1")
		}
		c.number(path+".throughput", p.Throughput, positive, true)
	}
}

func validateData(c *checker, d *Data) {
	c.value("data.volume_gb", d.VolumeGB, nonNegative, true)
	c.value("data.file_count", d.FileCount, positive, false)
	c.oneOf("data.classification", d.Classification, Classifications, true)
	if strings.TrimSpace(d.Residency) == "" {
		c.add("data.residency", "is required", `a region code such as "EU", "US", "DE", or "any"`)
	}
	c.oneOf("data.movement", d.Movement, Movements, true)
	c.value("data.snapshot_gb", d.SnapshotGB, nonNegative, false)
	if d.Movement == MoveSnapshot && !d.SnapshotGB.IsSet() {
		c.add("data.snapshot_gb", "is required when movement is snapshot_only", nonNegative.String())
	}
	for i, o := range d.ReturnOutputs {
		c.oneOf(fmt.Sprintf("data.return_outputs[%d]", i), o, Outputs, true)
	}
	c.value("data.output_gb", d.OutputGB, nonNegative, false)
	c.value("data.storage_gbps", d.StorageGBps, positive, false)
	seen := map[string]bool{}
	for i, st := range d.Lifecycle {
		path := fmt.Sprintf("data.lifecycle[%d]", i)
		c.oneOf(path+".stage", st.Stage, LifecycleStages, true)
		if seen[st.Stage] {
			c.add(path+".stage", fmt.Sprintf("%q appears twice", st.Stage), "each stage once")
		}
		seen[st.Stage] = true
		c.oneOf(path+".status", st.Status, StageStatuses, true)
	}
}

func validateDimensions(c *checker, d *Dimensions) {
	total := 0.0
	for i, w := range d.Weights() {
		path := "dimensions." + DimensionNames[i] + ".weight"
		if !nonNegative.ok(w) {
			c.add(path, num(w)+" is out of range", nonNegative.String())
			continue
		}
		total += w
	}
	if total == 0 {
		c.add("dimensions", "all five weights are zero", "at least one weight > 0")
	}
	c.value("dimensions.operations.staff_fte", d.Operations.StaffFTE, nonNegative, true)
	for i, sk := range d.Operations.Skills {
		c.oneOf(fmt.Sprintf("dimensions.operations.skills[%d]", i), sk, Skills, true)
	}
	c.value("dimensions.economics.budget_cap", d.Economics.BudgetCap, positive, false)
	if h := d.Economics.HorizonMonths; h < 1 || h > 120 {
		c.add("dimensions.economics.horizon_months", strconv.Itoa(h)+" is out of range", "a whole number from 1 to 120")
	}
	c.oneOf("dimensions.workload_shape.pattern", d.WorkloadShape.Pattern, []string{"continuous", "periodic", "burst"}, false)
}

func validateOptions(c *checker, o *Options) {
	c.value("options.managed.price_in_per_m", o.Managed.PriceInPerM, nonNegative, false)
	c.value("options.managed.price_out_per_m", o.Managed.PriceOutPerM, nonNegative, false)

	c.oneOf("options.cloud.pricing", o.Cloud.Pricing, PricingModes, false)
	if o.Cloud.GPUs < 0 {
		c.add("options.cloud.gpus", strconv.Itoa(o.Cloud.GPUs)+" is negative", "a whole number ≥ 1, or omit for the model's choice")
	}
	c.value("options.cloud.price_per_gpu_hour", o.Cloud.PricePerGPUHr, nonNegative, false)
	c.value("options.cloud.storage_per_gb_month", o.Cloud.StorageGBMonth, nonNegative, false)
	c.value("options.cloud.egress_per_gb", o.Cloud.EgressPerGB, nonNegative, false)
	c.value("options.cloud.spot_interruptions_per_month", o.Cloud.SpotInterruptions, bounds{min: 0, max: 0.99}, false)

	if o.OnPrem.Nodes < 0 {
		c.add("options.on_prem.nodes", strconv.Itoa(o.OnPrem.Nodes)+" is negative", "a whole number ≥ 1, or omit for the model's choice")
	}
	c.value("options.on_prem.electricity_per_kwh", o.OnPrem.ElectricityKWh, nonNegative, false)
	c.value("options.on_prem.pue", o.OnPrem.PUE, bounds{min: 1, max: 3}, false)
	c.number("options.on_prem.life_years", o.OnPrem.LifeYears, bounds{min: 1, max: 15}, false)
	c.value("options.on_prem.staff_fte", o.OnPrem.StaffFTE, nonNegative, false)
	c.oneOf("options.on_prem.financing", o.OnPrem.Financing, Financings, false)
	c.value("options.on_prem.lease_per_node_month", o.OnPrem.LeasePerNodeMonth, positive, o.OnPrem.Financing == "lease")
	c.value("options.on_prem.node_price", o.OnPrem.NodePrice, positive, false)
	c.value("options.on_prem.expected_utilisation", o.OnPrem.ExpectedUtilisation, fraction, false)

	if o.HPC.GPUs < 0 {
		c.add("options.hpc.gpus", strconv.Itoa(o.HPC.GPUs)+" is negative", "a whole number ≥ 1, or omit for the model's choice")
	}
	c.value("options.hpc.queue_wait_hours", o.HPC.QueueWaitHours, nonNegative, false)
	c.value("options.hpc.granted_gpu_hours", o.HPC.GrantedGPUHours, nonNegative, false)
	c.value("options.hpc.price_per_gpu_hour", o.HPC.PricePerGPUHr, nonNegative, false)

	c.oneOf("options.hybrid.burst_to", o.Hybrid.BurstTo, []string{Cloud, HPC}, false)
	c.value("options.hybrid.extra_staff_fte", o.Hybrid.ExtraFTE, nonNegative, false)
}
