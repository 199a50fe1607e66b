package scenario

import (
	"fmt"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
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

// need reports a Value the scenario must give; its range is checked with
// every other number (checkLeaves).
func (c *checker) need(path string, v Value) {
	if !v.IsSet() {
		c.add(path, "is required", rangeOf(path).String()+" or {low, likely, high}")
	}
}

// rangeOf is the range of the field at path; every number has one.
func rangeOf(path string) Range {
	r, ok := BoundOf(path)
	if !ok {
		panic("scenario: no bound for " + path)
	}
	return r
}

// checkLeaves checks, in one walk of s's fields, every text
// (checkTextField; the id has its own pattern) and every number against
// its range (checkNumber).
func checkLeaves(c *checker, s *Scenario) {
	walkFields(reflect.ValueOf(s).Elem(), "", func(path string, v reflect.Value) bool {
		switch {
		case path == trialPath && v.Len() <= MaxTrialPoints:
			// The trial's points are numbers only: checked as a list,
			// without a path per number.
			checkTrial(c, s.Workload.Trial)
		case v.Kind() == reflect.String:
			if path != "id" {
				checkTextField(c, path, v.String())
			}
		case isNumber(v):
			checkNumber(c, path, v)
		default:
			return false
		}
		return true
	})
}

// isNumber reports whether v is one of the scenario's numbers: a Value, or
// a float64, int or uint64 field.
func isNumber(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Float64, reflect.Int, reflect.Uint64:
		return true
	}
	return v.Type() == valueType
}

// checkNumber checks the number v at path against its range (bounds.go):
// each point of an estimate, and low ≤ likely ≤ high. A number left out
// (an unset Value, or 0 where 0 means the default) is not checked here.
func checkNumber(c *checker, path string, v reflect.Value) {
	if path == "schema_version" {
		return // Validate reports a version it cannot read in its own words
	}
	r, ok := BoundOf(path)
	if !ok {
		c.add(path, "has no range defined (a bug in hostplan)", "")
		return
	}
	switch x := v.Interface().(type) {
	case Value:
		checkValue(c, path, x, r)
	case float64:
		if !r.Contains(x) {
			c.add(path, outOfRange(x), r.String())
		}
	case int:
		if !r.Contains(float64(x)) {
			c.add(path, outOfRange(float64(x)), r.String())
		}
	case uint64:
		if !r.Contains(float64(x)) {
			c.add(path, outOfRange(float64(x)), r.String())
		}
	}
}

// checkValue checks a Value that is set: each point within r and
// low ≤ likely ≤ high.
func checkValue(c *checker, path string, v Value, r Range) {
	if !v.IsSet() {
		return
	}
	if !v.IsEstimate() {
		if !r.Contains(v.Likely) {
			c.add(path, outOfRange(v.Likely), r.String())
		}
		return
	}
	bad := false
	for _, p := range []struct {
		name string
		x    float64
	}{{"low", v.Low}, {"likely", v.Likely}, {"high", v.High}} {
		if !r.Contains(p.x) {
			c.add(path+"."+p.name, outOfRange(p.x), r.String())
			bad = true
		}
	}
	if !bad && !(v.Low <= v.Likely && v.Likely <= v.High) {
		c.add(path, fmt.Sprintf("estimate %s, %s, %s is out of order", Num(v.Low), Num(v.Likely), Num(v.High)), "low ≤ likely ≤ high")
	}
}

// walkFields calls leaf with the JSON path and value of v and of every
// value under it — through set pointers, structs (an embedded struct
// flattened, as encoding/json does) and lists — not going below a value
// leaf reports it took. A list of trial points longer than MaxTrialPoints
// is not walked (Validate reports its length).
func walkFields(v reflect.Value, path string, leaf func(path string, v reflect.Value) bool) {
	if leaf(path, v) {
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkFields(v.Elem(), path, leaf)
		}
	case reflect.Struct:
		fs := fieldsOf(v.Type())
		paths := fieldPaths(v.Type(), path, fs)
		for i, f := range fs {
			if f.embedded {
				walkFields(v.Field(f.index), path, leaf)
			} else {
				walkFields(v.Field(f.index), paths[i], leaf)
			}
		}
	case reflect.Slice:
		if path == "workload.trial" && v.Len() > MaxTrialPoints {
			return
		}
		for i := 0; i < v.Len(); i++ {
			walkFields(v.Index(i), path+"["+strconv.Itoa(i)+"]", leaf)
		}
	}
}

// jsonField is a struct field as walkFields sees it: an embedded struct
// (flattened, as encoding/json does) or an exported field by its JSON name.
type jsonField struct {
	index    int
	name     string
	embedded bool
}

// fieldCache holds fieldsOf's answer per struct type: the scenario's
// types are few and fixed, and every validation walks them.
var fieldCache sync.Map // reflect.Type → []jsonField

// structKey is a struct visited at a path outside any list.
type structKey struct {
	t    reflect.Type
	path string
}

// childPaths holds the paths of the fields of each struct visited outside
// a list, in fieldsOf's order: a scenario has a few hundred, and every
// validation walks them all.
var childPaths struct {
	sync.RWMutex
	m map[structKey][]string
}

// fieldPaths are the paths of the fields fs of struct type t at path
// (join of path and each name; "" for an embedded struct's entry), made
// once per struct outside a list — inside one the indices make too many
// to keep.
func fieldPaths(t reflect.Type, path string, fs []jsonField) []string {
	inList := strings.Contains(path, "[")
	if !inList {
		childPaths.RLock()
		ps, ok := childPaths.m[structKey{t, path}]
		childPaths.RUnlock()
		if ok {
			return ps
		}
	}
	ps := make([]string, len(fs))
	for i, f := range fs {
		if !f.embedded {
			ps[i] = join(path, f.name)
		}
	}
	if !inList {
		childPaths.Lock()
		if childPaths.m == nil {
			childPaths.m = map[structKey][]string{}
		}
		childPaths.m[structKey{t, path}] = ps
		childPaths.Unlock()
	}
	return ps
}

// fieldsOf lists the fields of struct type t that walkFields visits, in
// declaration order.
func fieldsOf(t reflect.Type) []jsonField {
	if fs, ok := fieldCache.Load(t); ok {
		return fs.([]jsonField)
	}
	var fs []jsonField
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		switch {
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			fs = append(fs, jsonField{index: i, embedded: true})
		case f.IsExported() && jsonName(f) != "-":
			fs = append(fs, jsonField{index: i, name: jsonName(f)})
		}
	}
	fieldCache.Store(t, fs)
	return fs
}

// quoteClipped quotes v for a message, its first 64 characters and their
// count when it is longer: a long value is not echoed whole.
func quoteClipped(v string) string {
	const keep = 64
	if n := utf8.RuneCountInString(v); n > keep {
		return fmt.Sprintf("%q… (%s characters)", string([]rune(v)[:keep]), Num(float64(n)))
	}
	return fmt.Sprintf("%q", v)
}

var idPattern = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// Validate returns every problem in s, or nil when it is valid. It checks
// every number against its range (bounds.go), required fields per workload
// shape and the allowed values of every enumerated field. Catalog
// references (presets, offers) and price overrides need the catalog in
// use: app.Planner.Check runs them with everything here.
func Validate(s *Scenario) Errors {
	c := &checker{}
	if s.SchemaVersion != SchemaVersion {
		c.add("schema_version", fmt.Sprintf("%d is not supported", s.SchemaVersion), strconv.Itoa(SchemaVersion))
	}
	if !idPattern.MatchString(s.ID) {
		c.add("id", fmt.Sprintf("%s is not a valid id", quoteClipped(s.ID)), "1–64 lower-case letters, digits and '-', starting with a letter or digit")
	}
	c.text("name", s.Name)
	c.oneOf("distribution", s.Distribution, Distributions, false)
	if len(s.Currency) != 3 || strings.ToUpper(s.Currency) != s.Currency {
		c.add("currency", fmt.Sprintf("%q is not a currency code", s.Currency), "a three-letter ISO 4217 code such as USD or EUR")
	}

	c.text("purpose.decision", s.Purpose.Decision)
	c.text("purpose.success_measure", s.Purpose.SuccessMeasure)
	c.text("purpose.owner", s.Purpose.Owner)

	validateWorkload(c, &s.Workload)
	validateData(c, &s.Data)
	validateDimensions(c, &s.Dimensions)
	validateOptions(c, &s.Options)
	for i, o := range s.PriceOverrides {
		path := "price_overrides[" + strconv.Itoa(i) + "]"
		for _, f := range []struct{ name, v string }{{"kind", o.Kind}, {"id", o.ID}, {"field", o.Field}, {"value", o.Value}, {"as_of", o.AsOf}, {"source", o.Source}} {
			if strings.TrimSpace(f.v) == "" {
				c.add(path+"."+f.name, "is required", "see hostplan catalog export for kinds, ids and fields")
			}
		}
	}
	validateRates(c, s)
	checkLeaves(c, s)

	if len(c.errs) == 0 {
		return nil
	}
	return c.errs
}

func validateRates(c *checker, s *Scenario) {
	seen := map[string]int{}
	for i, x := range s.ExchangeRates {
		path := "exchange_rates[" + strconv.Itoa(i) + "]"
		switch {
		case len(x.Currency) != 3 || strings.ToUpper(x.Currency) != x.Currency:
			c.add(path+".currency", fmt.Sprintf("%q is not a currency code", x.Currency), "a three-letter ISO 4217 code such as USD or EUR")
		case x.Currency == s.Currency:
			c.add(path+".currency", fmt.Sprintf("%s is the scenario's own currency", x.Currency), "another currency than "+s.Currency)
		default:
			if j, dup := seen[x.Currency]; dup {
				c.add(path+".currency", fmt.Sprintf("%s also has a rate in exchange_rates[%d]", x.Currency, j), "one rate per currency")
			}
			seen[x.Currency] = i
		}
		if x.AsOf != "" {
			if d, err := time.Parse(time.DateOnly, x.AsOf); err != nil {
				c.add(path+".as_of", fmt.Sprintf("%q is not a date", x.AsOf), "YYYY-MM-DD, or left out")
			} else if future, allowed := FutureAsOf(d); future {
				c.add(path+".as_of", fmt.Sprintf("%s is in the future", x.AsOf), allowed)
			}
		}
	}
}

func validateWorkload(c *checker, w *Workload) {
	c.oneOf("workload.shape", w.Shape, Shapes, true)
	c.oneOf("workload.precision", w.Precision, Precisions, true)
	m := w.Model
	if m.Preset == "" && m.ParamsB == 0 && m.GFLOPsPerItem == 0 {
		c.add("workload.model", "names no model", "a catalog preset, params_b, or gflops_per_item for non-LLM work")
	}
	if m.ActiveParamsB > 0 && m.ParamsB > 0 && m.ActiveParamsB > m.ParamsB {
		c.add("workload.model.active_params_b", "is larger than params_b", "active parameters ≤ total parameters")
	}

	switch w.Shape {
	case ShapeFineTuning:
		c.oneOf("workload.method", w.Method, FineTuneMethods, true)
	default:
		if w.Method != "" {
			c.add("workload.method", "applies to fine-tuning only", "empty for shape "+w.Shape)
		}
	}

	switch w.Shape {
	case ShapeInteractive:
		if w.Traffic == nil {
			c.add("workload.traffic", "is required for interactive inference", "an object with peak_rps, mean_rps, tokens_in, tokens_out, latency_target_ms")
		}
	case ShapeBatch, ShapeFineTuning, ShapeTraining:
		if !w.RunsPerMonth.IsSet() {
			c.add("workload.runs_per_month", "is required for shape "+w.Shape, rangeOf("workload.runs_per_month").String()+" or {low, likely, high}")
		}
		if m.GFLOPsPerItem > 0 {
			if !w.ItemsPerRunM.IsSet() {
				c.add("workload.items_per_run_m", "is required with model.gflops_per_item", rangeOf("workload.items_per_run_m").String()+" (millions of items)")
			}
		} else if !w.TokensPerRunB.IsSet() {
			c.add("workload.tokens_per_run_b", "is required for shape "+w.Shape, rangeOf("workload.tokens_per_run_b").String()+" (billions of tokens) or {low, likely, high}")
		}
	}
	if t := w.Traffic; t != nil {
		c.need("workload.traffic.peak_rps", t.PeakRPS)
		c.need("workload.traffic.mean_rps", t.MeanRPS)
		c.need("workload.traffic.tokens_in", t.TokensIn)
		c.need("workload.traffic.tokens_out", t.TokensOut)
		if t.PeakRPS.IsSet() && t.MeanRPS.IsSet() && t.MeanRPS.Likely > t.PeakRPS.Likely {
			c.add("workload.traffic.mean_rps", "is above peak_rps", "mean ≤ peak")
		}
		validateProfile(c, t)
	}
	c.oneOf("workload.sharding", w.Sharding, Shardings, false)
	c.oneOf("workload.kv_cache_precision", w.KVCachePrecision, KVPrecisions, false)
	if w.Recompute && (w.Shape == ShapeBatch || w.Shape == ShapeInteractive) {
		c.add("workload.recompute", "applies to training and fine-tuning only", "false for shape "+w.Shape)
	}
	if len(w.Trial) > 0 && w.TrialGPU == "" {
		c.add("workload.trial_gpu", "is required with trial points", "the catalog GPU id the trial ran on")
	}
	if n := len(w.Trial); n > MaxTrialPoints {
		c.add("workload.trial", fmt.Sprintf("has %s points", Num(float64(n))), fmt.Sprintf("at most %s trial points", Num(MaxTrialPoints)))
	}
}

func validateData(c *checker, d *Data) {
	c.need("data.volume_gb", d.VolumeGB)
	c.oneOf("data.classification", d.Classification, Classifications, true)
	if strings.TrimSpace(d.Residency) == "" {
		c.add("data.residency", "is required", `a region code such as "EU", "US", "DE", or "any"`)
	}
	c.oneOf("data.movement", d.Movement, Movements, true)
	c.oneOf("data.location", d.Location, Locations, false)
	if d.Movement == MoveSnapshot && !d.SnapshotGB.IsSet() {
		c.add("data.snapshot_gb", "is required when movement is snapshot_only", rangeOf("data.snapshot_gb").String())
	}
	for i, o := range d.ReturnOutputs {
		c.oneOf("data.return_outputs["+strconv.Itoa(i)+"]", o, Outputs, true)
	}
	seen := map[string]bool{}
	for i, st := range d.Lifecycle {
		path := "data.lifecycle[" + strconv.Itoa(i) + "]"
		c.oneOf(path+".stage", st.Stage, LifecycleStages, true)
		if seen[st.Stage] {
			c.add(path+".stage", fmt.Sprintf("%q appears twice", st.Stage), "each stage once")
		}
		seen[st.Stage] = true
		c.oneOf(path+".status", st.Status, StageStatuses, true)
	}
}

func validateDimensions(c *checker, d *Dimensions) {
	total, bad := 0.0, false
	for i, w := range d.Weights() {
		if rangeOf("dimensions." + DimensionNames[i] + ".weight").Contains(w) {
			total += w
		} else {
			bad = true // reported with every other number
		}
	}
	if total == 0 && !bad {
		c.add("dimensions", "all five weights are zero", "at least one weight > 0")
	}
	c.need("dimensions.operations.staff_fte", d.Operations.StaffFTE)
	for i, sk := range d.Operations.Skills {
		c.oneOf("dimensions.operations.skills["+strconv.Itoa(i)+"]", sk, Skills, true)
	}
	c.oneOf("dimensions.workload_shape.pattern", d.WorkloadShape.Pattern, []string{"continuous", "periodic", "burst"}, false)
	for i, h := range d.Sovereignty.ProviderHome {
		if !homeCode(h) {
			c.add(fmt.Sprintf("dimensions.sovereignty.provider_home[%d]", i), fmt.Sprintf("%q is not a country code", h),
				"a two-letter ISO 3166-1 code in capitals (US, FR, DE, …) or EU")
		}
	}
}

// homeCode reports whether h is two capital letters (an ISO 3166-1
// alpha-2 code, EU among them as the reserved code of the Union).
func homeCode(h string) bool {
	return len(h) == 2 && h[0] >= 'A' && h[0] <= 'Z' && h[1] >= 'A' && h[1] <= 'Z'
}

func validateOptions(c *checker, o *Options) {
	c.oneOf("options.cloud.pricing", o.Cloud.Pricing, PricingModes, false)
	c.oneOf("options.managed.pricing", o.Managed.Pricing, ManagedPricings, false)
	c.oneOf("options.on_prem.financing", o.OnPrem.Financing, Financings, false)
	if o.OnPrem.Financing == "lease" {
		c.need("options.on_prem.lease_per_node_month", o.OnPrem.LeasePerNodeMonth)
	}
	c.oneOf("options.hybrid.burst_to", o.Hybrid.BurstTo, []string{Cloud, HPC}, false)
	c.oneOf("options.hpc.access", o.HPC.Access, HPCAccesses, false)
	c.oneOf("options.hpc.grant_period", o.HPC.GrantPeriod, GrantPeriods, false)
}

// validateProfile checks the traffic's load over the day: one form at
// most; 24 hourly levels, not all zero; peak hours that leave the rest of
// the day a load of at least zero (peak × hours ≤ mean × 24).
func validateProfile(c *checker, t *Traffic) {
	if t.PeakHoursPerDay.IsSet() && len(t.HourlyLoad) > 0 {
		c.add("workload.traffic.hourly_load", "is given with peak_hours_per_day", "one of the two forms of the load over the day")
	}
	if n := len(t.HourlyLoad); n > 0 {
		if n != 24 {
			c.add("workload.traffic.hourly_load", fmt.Sprintf("has %d levels", n), "24 levels, one per hour from midnight")
		} else if !slices.ContainsFunc(t.HourlyLoad, func(x float64) bool { return x > 0 }) {
			c.add("workload.traffic.hourly_load", "is zero every hour", "at least one level > 0")
		}
	}
	h, peak, mean := t.PeakHoursPerDay, t.PeakRPS, t.MeanRPS
	if h.IsSet() && peak.IsSet() && mean.IsSet() && peak.Likely > 0 && h.Likely*peak.Likely > 24*mean.Likely*(1+1e-9) {
		c.add("workload.traffic.peak_hours_per_day", fmt.Sprintf("%s h at the peak of %s requests/s carry more than the day's mean of %s", Num(h.Likely), Num(peak.Likely), Num(mean.Likely)),
			fmt.Sprintf("at most 24 × mean ÷ peak = %s h", Num(math.Floor(24*mean.Likely/peak.Likely*100)/100)))
	}
}

// trialPath is the path of the trial's points.
const trialPath = "workload.trial"

// checkTrial checks each trial point's numbers against their ranges,
// building a point's path only for a problem: a trial of 1,000 points
// built 2,000 paths to check 2,000 numbers.
func checkTrial(c *checker, pts []TrialPoint) {
	gr, gok := BoundOf(trialPath + "[0].gpus")
	tr, tok := BoundOf(trialPath + "[0].throughput")
	for i, p := range pts {
		switch {
		case !gok:
			c.add(fmt.Sprintf("%s[%d].gpus", trialPath, i), "has no range defined (a bug in hostplan)", "")
		case !gr.Contains(float64(p.GPUs)):
			c.add(fmt.Sprintf("%s[%d].gpus", trialPath, i), outOfRange(float64(p.GPUs)), gr.String())
		}
		switch {
		case !tok:
			c.add(fmt.Sprintf("%s[%d].throughput", trialPath, i), "has no range defined (a bug in hostplan)", "")
		case !tr.Contains(p.Throughput):
			c.add(fmt.Sprintf("%s[%d].throughput", trialPath, i), outOfRange(p.Throughput), tr.String())
		}
	}
}
