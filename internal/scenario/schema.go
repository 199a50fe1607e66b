package scenario

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// enums names the allowed values of enumerated fields by JSON path ("[]"
// stands for any array index). Validate and the JSON Schema both use it.
var enums = map[string][]string{
	"workload.shape":                    Shapes,
	"workload.precision":                Precisions,
	"workload.method":                   FineTuneMethods,
	"workload.sharding":                 Shardings,
	"workload.kv_cache_precision":       KVPrecisions,
	"data.classification":               Classifications,
	"data.movement":                     Movements,
	"data.location":                     Locations,
	"data.return_outputs[]":             Outputs,
	"data.lifecycle[].stage":            LifecycleStages,
	"data.lifecycle[].status":           StageStatuses,
	"dimensions.operations.skills[]":    Skills,
	"dimensions.workload_shape.pattern": {"continuous", "periodic", "burst"},
	"options.on_prem.financing":         Financings,
	"distribution":                      Distributions,
	"options.cloud.pricing":             PricingModes,
	"options.managed.pricing":           ManagedPricings,
	"options.hybrid.burst_to":           {Cloud, HPC},
	"options.hpc.access":                HPCAccesses,
	"options.hpc.grant_period":          GrantPeriods,
}

// required names the fields every file must have, by JSON path of the
// parent. schema_version is not among them: a file without it is of
// schema 0, the first prototypes' format, and is upgraded when read
// (migrate.go), so those files keep loading; a file that follows this
// schema otherwise reads as the current version (the schema's default).
var required = map[string][]string{
	"":                      {"id", "name", "currency", "purpose", "workload", "data", "dimensions"},
	"purpose":               {"decision", "success_measure", "owner"},
	"workload":              {"shape", "model", "precision"},
	"data":                  {"volume_gb", "classification", "residency", "movement"},
	"dimensions":            {"sovereignty", "workload_shape", "operations", "economics", "optionality"},
	"dimensions.operations": {"staff_fte"},
	"dimensions.economics":  {"horizon_months"},
}

var valueType = reflect.TypeOf(Value{})

// jsonFields lists the JSON-visible fields of struct type t, flattening
// embedded structs as encoding/json does.
func jsonFields(t reflect.Type) []reflect.StructField {
	var out []reflect.StructField
	for _, f := range fieldsOf(t) {
		if f.embedded {
			out = append(out, jsonFields(t.Field(f.index).Type)...)
		} else {
			out = append(out, t.Field(f.index))
		}
	}
	return out
}

func jsonName(f reflect.StructField) string {
	tag := f.Tag.Get("json")
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		return f.Name
	}
	return name
}

// JSONSchema returns a JSON Schema (draft 2020-12) of the scenario file
// format, derived from the Go types so the two cannot drift apart. Every
// number carries its range (bounds.go) as minimum and maximum.
func JSONSchema() map[string]any {
	s := schemaOf(reflect.TypeOf(Scenario{}), "")
	s["$schema"] = "https://json-schema.org/draft/2020-12/schema"
	s["$id"] = "https://hostplan.example/schema/scenario-v1.json"
	s["title"] = "hostplan scenario"
	return s
}

// valueSchema is the schema of a Value whose points lie in r.
func valueSchema(r Range) map[string]any {
	point := func() map[string]any { return rangeSchema(map[string]any{"type": "number"}, r) }
	return map[string]any{
		"description": "A known number, or an estimate {low, likely, high} with low ≤ likely ≤ high.",
		"oneOf": []any{
			point(),
			map[string]any{
				"type":                 "object",
				"required":             []string{"low", "likely", "high"},
				"additionalProperties": false,
				"properties":           map[string]any{"low": point(), "likely": point(), "high": point()},
			},
		},
	}
}

// rangeSchema adds r to the schema of a number as minimum and maximum
// (exclusiveMinimum for an open lower limit). A 0 that means "left out"
// widens the range to 0 where that leaves no gap, and is allowed besides
// it otherwise.
func rangeSchema(s map[string]any, r Range) map[string]any {
	limits := func(m map[string]any, lo float64, open bool) map[string]any {
		if open {
			m["exclusiveMinimum"] = lo
		} else {
			m["minimum"] = lo
		}
		m["maximum"] = r.Max
		return m
	}
	switch {
	case r.Zero == "":
		return limits(s, r.Min, r.MinOpen)
	case r.Min == 0 || r.Whole && r.Min == 1:
		return limits(s, 0, false)
	}
	s["anyOf"] = []any{map[string]any{"const": 0}, limits(map[string]any{}, r.Min, r.MinOpen)}
	return s
}

func schemaOf(t reflect.Type, path string) map[string]any {
	if t == valueType {
		return valueSchema(rangeOf(path))
	}
	switch t.Kind() {
	case reflect.Pointer:
		return schemaOf(t.Elem(), path)
	case reflect.Struct:
		props := map[string]any{}
		for _, f := range jsonFields(t) {
			name := jsonName(f)
			props[name] = schemaOf(f.Type, join(path, name))
		}
		out := map[string]any{"type": "object", "properties": props, "additionalProperties": false}
		if req, ok := required[path]; ok {
			out["required"] = req
		}
		return out
	case reflect.Slice:
		out := map[string]any{"type": "array", "items": schemaOf(t.Elem(), path+"[]")}
		if path == "workload.trial" {
			out["maxItems"] = MaxTrialPoints
		}
		return out
	case reflect.String:
		out := map[string]any{"type": "string", "maxLength": TextOf(path).Max}
		if e, ok := enums[path]; ok {
			out["enum"] = e
		}
		return out
	case reflect.Bool:
		return map[string]any{"type": "boolean"}
	case reflect.Int, reflect.Int64, reflect.Uint64:
		out := rangeSchema(map[string]any{"type": "integer"}, rangeOf(path))
		if path == "schema_version" {
			out["default"] = SchemaVersion
		}
		return out
	case reflect.Float64:
		return rangeSchema(map[string]any{"type": "number"}, rangeOf(path))
	}
	panic("scenario: no schema for " + t.String())
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// checkShape walks decoded JSON against the Go type and reports every
// unknown field, wrong type and missing required field, with its path.
func checkShape(c *checker, v any, t reflect.Type, path, schemaPath string) {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if v == nil {
		return // null is "not given"; Validate decides whether that is allowed
	}
	if t == valueType {
		switch x := v.(type) {
		case float64, decimal:
		case map[string]any:
			for _, k := range sortedKeys(x) {
				if k != "low" && k != "likely" && k != "high" {
					c.add(join(path, k), "is not a field of an estimate", "low, likely, high")
				} else if _, ok := asNumber(x[k]); !ok {
					c.add(join(path, k), "must be a number", "a number")
				}
			}
			for _, k := range []string{"low", "likely", "high"} {
				if _, ok := x[k]; !ok {
					c.add(join(path, k), "is missing from the estimate", "low, likely and high together")
				}
			}
		default:
			c.add(path, "must be a number or an estimate", "a number or {low, likely, high}")
		}
		return
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			c.add(orRoot(path), "must be an object", "a JSON object")
			return
		}
		fields := map[string]reflect.StructField{}
		var names []string
		for _, f := range jsonFields(t) {
			fields[jsonName(f)] = f
			names = append(names, jsonName(f))
		}
		for _, k := range sortedKeys(obj) {
			f, ok := fields[k]
			if !ok {
				c.add(join(path, k), "is not a known field", strings.Join(names, ", "))
				continue
			}
			checkShape(c, obj[k], f.Type, join(path, k), join(schemaPath, k))
		}
		for _, r := range required[schemaPath] {
			if _, ok := obj[r]; !ok {
				c.add(join(path, r), "is required", "see hostplan schema")
			}
		}
	case reflect.Slice:
		arr, ok := v.([]any)
		if !ok {
			c.add(path, "must be a list", "a JSON array")
			return
		}
		for i, e := range arr {
			checkShape(c, e, t.Elem(), fmt.Sprintf("%s[%d]", path, i), schemaPath+"[]")
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			c.add(path, "must be text", "a JSON string")
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			c.add(path, "must be true or false", "true, false")
		}
	case reflect.Int, reflect.Int64, reflect.Uint64:
		// A whole number written as one: 32, not 32.0 or 3.2e1, which
		// encoding/json does not read into an integer.
		x, ok := v.(float64)
		switch {
		case !ok:
			c.add(path, "must be a whole number", "an integer")
		case math.Abs(x) >= 1<<63:
			allowed := "an integer"
			if r, ok := BoundOf(path); ok {
				allowed = r.String()
			}
			c.add(path, outOfRange(x), allowed)
		case x < 0 && t.Kind() == reflect.Uint64:
			c.add(path, "must not be negative", "an integer ≥ 0")
		}
	case reflect.Float64:
		if _, ok := asNumber(v); !ok {
			c.add(path, "must be a number", "a number")
		}
	}
}

// decimal is a decoded JSON number written with a fraction or an exponent
// (2.5, 1e3); a number written as a whole number decodes to float64.
// Integer fields take only the latter, as encoding/json does.
type decimal float64

// asNumber returns decoded JSON v as a number, however it was written.
func asNumber(v any) (float64, bool) {
	switch x := v.(type) {
	case float64:
		return x, true
	case decimal:
		return float64(x), true
	}
	return 0, false
}

func orRoot(path string) string {
	if path == "" {
		return "(file)"
	}
	return path
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// SchemaJSON returns the JSON Schema, indented.
func SchemaJSON() []byte {
	b, err := json.MarshalIndent(JSONSchema(), "", "  ")
	if err != nil {
		panic("scenario: schema: " + err.Error())
	}
	return append(b, '\n')
}

// Estimates returns the JSON paths of every input given as an estimate
// (low, likely, high), in field order.
func Estimates(s *Scenario) []string {
	var out []string
	for _, r := range EstimateRefs(s) {
		out = append(out, r.Path)
	}
	return out
}

// ValueRef is one input of a scenario and where it lives, so Monte Carlo
// can set it in a working copy.
type ValueRef struct {
	Path string
	Ptr  *Value
}

// EstimateRefs returns every estimate in s with a pointer into s, in field
// order (the order of Estimates).
func EstimateRefs(s *Scenario) []ValueRef {
	var out []ValueRef
	walkValuePtrs(reflect.ValueOf(s).Elem(), "", func(path string, v *Value) {
		if v.IsEstimate() {
			out = append(out, ValueRef{Path: path, Ptr: v})
		}
	})
	return out
}

func walkValuePtrs(v reflect.Value, path string, fn func(string, *Value)) {
	if v.Type() == valueType {
		fn(path, v.Addr().Interface().(*Value))
		return
	}
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkValuePtrs(v.Elem(), path, fn)
		}
	case reflect.Struct:
		fs := fieldsOf(v.Type())
		paths := fieldPaths(v.Type(), path, fs)
		for i, f := range fs {
			p := path
			if !f.embedded {
				p = paths[i]
			}
			walkValuePtrs(v.Field(f.index), p, fn)
		}
	case reflect.Slice:
		if !holdsValue(v.Type().Elem()) {
			return // trial points, tags: no Value to find, and no paths to build
		}
		for i := 0; i < v.Len(); i++ {
			walkValuePtrs(v.Index(i), path+"["+strconv.Itoa(i)+"]", fn)
		}
	}
}

// valueHolders caches holdsValue by type.
var valueHolders sync.Map // reflect.Type → bool

// holdsValue reports whether a value of type t can hold a Value: is one,
// or has one among its fields, elements or what it points to.
func holdsValue(t reflect.Type) bool {
	if h, ok := valueHolders.Load(t); ok {
		return h.(bool)
	}
	h := holdsValueIn(t, map[reflect.Type]bool{})
	valueHolders.Store(t, h)
	return h
}

func holdsValueIn(t reflect.Type, seen map[reflect.Type]bool) bool {
	return holdsIn(t, seen, func(t reflect.Type) bool { return t == valueType })
}

// holdsIn reports whether t, or a type t holds (fields, elements, what it
// points to), is one that is says yes to.
func holdsIn(t reflect.Type, seen map[reflect.Type]bool, is func(reflect.Type) bool) bool {
	if is(t) {
		return true
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array:
		return holdsIn(t.Elem(), seen, is)
	case reflect.Struct:
		for i := range t.NumField() {
			if holdsIn(t.Field(i).Type, seen, is) {
				return true
			}
		}
	}
	return false
}
