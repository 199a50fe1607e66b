package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// nonFiniteText finds a number printed as NaN or ±Inf in a sentence.
var nonFiniteText = regexp.MustCompile(`NaN|[+-]Inf|\bInf\b`)

// finiteReport walks every number of r: each must be finite, no sentence
// may print one that is not, and the costs, times and counts of each
// direction must not be negative.
func finiteReport(r *model.Report) error {
	var bad []string
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		switch v.Kind() {
		case reflect.Float64:
			if x := v.Float(); math.IsNaN(x) || math.IsInf(x, 0) {
				bad = append(bad, fmt.Sprintf("%s = %v", path, x))
			}
		case reflect.String:
			if nonFiniteText.MatchString(v.String()) {
				bad = append(bad, fmt.Sprintf("%s = %q", path, v.String()))
			}
		case reflect.Pointer, reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), path)
			}
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				if v.Type().Field(i).IsExported() {
					walk(v.Field(i), path+"."+v.Type().Field(i).Name)
				}
			}
		case reflect.Slice, reflect.Array:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i))
			}
		case reflect.Map:
			for _, k := range v.MapKeys() {
				walk(v.MapIndex(k), fmt.Sprintf("%s[%v]", path, k))
			}
		}
	}
	walk(reflect.ValueOf(r).Elem(), "report")
	for _, d := range r.Directions {
		for name, x := range map[string]float64{"price per GPU-hour": d.PricePerGPUHour, "GPU-hours": d.GPUHoursPerRun,
			"compute hours": d.ComputeHours, "time to result": d.TimeToResultHours, "lead time": d.LeadTimeDays,
			"variable cost per run": d.VariableCostPerRun, "monthly fixed cost": d.MonthlyFixedCost, "one-off cost": d.OneOffCost,
			"cost per run": d.CostPerRun, "cost over the horizon": d.CostHorizon, "GPUs": float64(d.GPUs)} {
			if x < 0 {
				bad = append(bad, fmt.Sprintf("%s %s = %v", d.Direction, name, x))
			}
		}
	}
	if _, err := json.Marshal(r); err != nil {
		bad = append(bad, "JSON: "+err.Error())
	}
	if len(bad) > 0 {
		return errors.New(strings.Join(bad, "; "))
	}
	return nil
}

// limitsOf are the values a test sets a field to: its limits (the open
// lower limit just above it) and, for an estimate, the whole range.
func limitsOf(b scenario.Bound) []any {
	lo := b.Min
	if b.MinOpen {
		lo = math.Nextafter(b.Min, math.Inf(1))
		if b.Min == 0 {
			lo = 1e-9
		}
	}
	if b.Whole {
		lo = math.Ceil(lo)
	}
	return []any{lo, b.Max, map[string]any{"low": lo, "likely": math.Sqrt(math.Max(lo, 1e-300) * b.Max), "high": b.Max}}
}

// Every number of every example at either limit of its range (one at a
// time, then all at their maximum, then all at their minimum) either
// evaluates to finite, non-negative figures — Monte Carlo, the tornado
// and the decision included — or is refused as the scenario's own
// problem, with the same words by Check and Analyze. No panic, and no
// internal error: the ranges are what keep the model's arithmetic finite.
func TestEveryNumberAtItsLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates some thousands of scenarios")
	}
	p := New(tempPath(t))
	ctx := context.Background()
	files, _ := filepath.Glob("../../scenarios/*.json")
	evaluated, refused := 0, 0
	stride, seen := 1, 0
	if raceDetector {
		stride = 7 // a sample: every 7th case
	}
	try := func(t *testing.T, name string, doc map[string]any) {
		t.Helper()
		if seen++; seen%stride != 0 {
			return
		}
		b, _ := json.Marshal(doc)
		s, err := scenario.Parse(b)
		if err != nil {
			var es scenario.Errors
			if !errors.As(err, &es) {
				t.Errorf("%s: Parse: %v", name, err)
			}
			if testing.Verbose() {
				t.Logf("%s: refused: %v", name, err)
			}
			refused++
			return
		}
		cerr := p.Check(ctx, s)
		r, aerr := func() (r *model.Report, err error) {
			defer func() {
				if v := recover(); v != nil {
					err = fmt.Errorf("panic: %v", v)
				}
			}()
			return p.Analyze(ctx, s, 64)
		}()
		if lines(cerr) != lines(aerr) {
			t.Errorf("%s: Check and Analyze disagree:\n%v\n--\n%v", name, cerr, aerr)
			return
		}
		if aerr != nil {
			var es scenario.Errors
			if !errors.As(aerr, &es) {
				t.Errorf("%s: not the scenario's problem: %v", name, aerr)
			}
			if testing.Verbose() {
				t.Logf("%s: refused: %v", name, aerr)
			}
			refused++
			return
		}
		if err := finiteReport(r); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if _, err := decide.Decide(s, r); err != nil && strings.Contains(err.Error(), "internal") {
			t.Errorf("%s: decide: %v", name, err)
		}
		evaluated++
	}
	for _, f := range files {
		base := readDoc(t, f)
		var maxAll, minAll = clone(base), clone(base)
		for _, b := range scenario.ScenarioBounds() {
			if b.Path == "schema_version" || strings.Contains(b.Path, "[]") {
				continue
			}
			vals := limitsOf(b)
			if !isValue(b.Path) {
				vals = vals[:2]
			}
			for _, v := range vals {
				doc := clone(base)
				setDoc(doc, b.Path, v)
				try(t, fmt.Sprintf("%s %s=%v", filepath.Base(f), b.Path, v), doc)
			}
			setDoc(maxAll, b.Path, vals[1])
			setDoc(minAll, b.Path, vals[0])
		}
		setDoc(minAll, "dimensions.economics.weight", 1.0) // not every weight 0
		try(t, filepath.Base(f)+" every number at its maximum", maxAll)
		try(t, filepath.Base(f)+" every number at its minimum", minAll)
		// Mixes: each number at its minimum, its maximum or as it was,
		// drawn with a fixed seed.
		rng := rand.New(rand.NewPCG(uint64(len(f)), 7))
		for k := 0; k < 40; k++ {
			doc := clone(base)
			var set []string
			peak := 2
			for _, b := range scenario.ScenarioBounds() {
				if b.Path == "schema_version" || strings.Contains(b.Path, "[]") || strings.HasPrefix(b.Path, "workload.traffic.") != (doc["workload"].(map[string]any)["traffic"] != nil) {
					continue
				}
				choice := rng.IntN(3)
				switch b.Path {
				case "workload.model.active_params_b", "workload.model.gflops_per_item":
					continue // kept: active ≤ total parameters; items go with GFLOPs per item
				case "workload.traffic.mean_rps":
					choice = peak // mean ≤ peak
				case "workload.traffic.peak_rps":
					peak = choice
				}
				switch choice {
				case 0:
					setDoc(doc, b.Path, limitsOf(b)[0])
					set = append(set, b.Path+"=min")
				case 1:
					setDoc(doc, b.Path, limitsOf(b)[1])
					set = append(set, b.Path+"=max")
				}
			}
			try(t, fmt.Sprintf("%s mix %d (%s)", filepath.Base(f), k, strings.Join(set, " ")), doc)
		}
	}
	t.Logf("%d evaluated, %d refused as the scenario's problem", evaluated, refused)
	if evaluated < 100/stride {
		t.Errorf("only %d scenarios evaluated", evaluated)
	}
}

// The catalog at the limits of its ranges, applied as overrides, keeps
// the examples finite too.
func TestCatalogAtItsLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("evaluates some hundreds of scenarios")
	}
	def, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob("../../scenarios/*.json")
	for _, b := range scenario.CatalogBounds() {
		kind, field, _ := strings.Cut(b.Path, ".")
		items := def.Items(catalog.Kind(kind))
		if len(items) == 0 {
			continue
		}
		for _, x := range limitsOf(b)[:2] {
			value := scenario.Num(x.(float64))
			value = strings.ReplaceAll(value, ",", "")
			if field == "queue_wait_hours" {
				value = value + ";" + value + ";" + value
			}
			var o catalog.Overrides
			for _, it := range items {
				o.Rows = append(o.Rows, catalog.OverrideRow{Kind: kind, ID: it.ID, Field: field, Value: value, AsOf: "2026-01-01", Source: "limit"})
			}
			cat, err := def.Apply(o)
			if err != nil {
				continue // a cross-field rule (active ≤ total parameters) refuses it
			}
			for i, f := range files {
				if raceDetector && i > 0 {
					break // a sample: the first example
				}
				s, err := scenario.Parse(readBytes(t, f))
				if err != nil {
					t.Fatal(err)
				}
				name := fmt.Sprintf("%s with every %s at %s", filepath.Base(f), b.Path, value)
				r, err := func() (r *model.Report, err error) {
					defer func() {
						if v := recover(); v != nil {
							err = fmt.Errorf("panic: %v", v)
						}
					}()
					if errs := Problems(s, cat); errs != nil {
						return nil, errs
					}
					r, err = model.Analyze(context.Background(), s, cat, 32)
					return evaluatedReport(s, cat, r, err)
				}()
				if err != nil {
					var es scenario.Errors
					if !errors.As(err, &es) {
						t.Errorf("%s: %v", name, err)
					}
					continue
				}
				if err := finiteReport(r); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			}
		}
	}
}

// evaluatedReport is evaluated, named for the test's readers.
var evaluatedReport = evaluated

func readBytes(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func readDoc(t *testing.T, path string) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(readBytes(t, path), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func clone(m map[string]any) map[string]any {
	b, _ := json.Marshal(m)
	var out map[string]any
	json.Unmarshal(b, &out)
	return out
}

// setDoc sets the field at a dotted path, creating objects on the way.
func setDoc(m map[string]any, path string, v any) {
	parts := strings.Split(path, ".")
	for _, p := range parts[:len(parts)-1] {
		next, ok := m[p].(map[string]any)
		if !ok {
			next = map[string]any{}
			m[p] = next
		}
		m = next
	}
	m[parts[len(parts)-1]] = v
}

// isValue reports whether the field at path may be an estimate.
func isValue(path string) bool { return valuePaths[path] }

var valuePaths = func() map[string]bool {
	m := map[string]bool{}
	var walk func(t reflect.Type, path string)
	walk = func(t reflect.Type, path string) {
		if t == reflect.TypeOf(scenario.Value{}) {
			m[path] = true
			return
		}
		switch t.Kind() {
		case reflect.Pointer:
			walk(t.Elem(), path)
		case reflect.Struct:
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				switch {
				case f.Anonymous:
					walk(f.Type, path)
				case f.IsExported() && name != "-":
					p := name
					if path != "" {
						p = path + "." + name
					}
					walk(f.Type, p)
				}
			}
		}
	}
	walk(reflect.TypeOf(scenario.Scenario{}), "")
	return m
}()
