package model_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"reflect"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/model/modeltest"
	"hostplan/internal/scenario"
	"hostplan/scenarios"
)

// A slot is one number of a scenario that the numeric fuzz target sets: a
// Value, a float64 or an integer field, found by its JSON path.
type slot struct {
	path  string
	index []int // reflect field path from Scenario; for a trial point, into Workload.Trial[i]
	trial int   // -1, or the trial point the field belongs to
}

var valueType = reflect.TypeOf(scenario.Value{})

// slots lists every number of s, in field order.
func slots(s *scenario.Scenario) []slot {
	var out []slot
	var walk func(t reflect.Type, index []int, path string, trial int)
	walk = func(t reflect.Type, index []int, path string, trial int) {
		for i := range t.NumField() {
			f := t.Field(i)
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			p := path
			if !f.Anonymous {
				p = strings.TrimPrefix(path+"."+name, ".")
			}
			idx := append(append([]int(nil), index...), i)
			ft := f.Type
			switch {
			case ft == valueType:
				out = append(out, slot{path: p, index: idx, trial: trial})
			case ft.Kind() == reflect.Float64 || ft.Kind() == reflect.Int || ft.Kind() == reflect.Uint64:
				if name == "schema_version" {
					continue
				}
				out = append(out, slot{path: p, index: idx, trial: trial})
			case ft.Kind() == reflect.Struct:
				walk(ft, idx, p, trial)
			case ft.Kind() == reflect.Pointer && ft.Elem().Kind() == reflect.Struct:
				walk(ft.Elem(), idx, p, trial)
			}
		}
	}
	walk(reflect.TypeOf(*s), nil, "", -1)
	for i := range s.Workload.Trial {
		walk(reflect.TypeOf(scenario.TrialPoint{}), nil, fmt.Sprintf("workload.trial[%d]", i), i)
	}
	return out
}

// field returns the settable field of sl in s, allocating a nil pointer
// (traffic) on the way.
func (sl slot) field(s *scenario.Scenario) reflect.Value {
	v := reflect.ValueOf(s).Elem()
	if sl.trial >= 0 {
		v = reflect.ValueOf(&s.Workload.Trial[sl.trial]).Elem()
	}
	for _, i := range sl.index {
		if v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		v = v.Field(i)
	}
	return v
}

// set puts x into the slot. For a Value, part chooses what: 0 a known
// value, 1–3 the low, likely or high point of an estimate (the others
// taken from the value there, or x itself if none).
func (sl slot) set(s *scenario.Scenario, x float64, part uint8) {
	v := sl.field(s)
	switch v.Kind() {
	case reflect.Struct: // scenario.Value
		old := v.Interface().(scenario.Value)
		pts := [3]float64{x, x, x}
		if old.IsSet() {
			pts = [3]float64{old.Low, old.Likely, old.High}
		}
		switch part % 4 {
		case 0:
			v.Set(reflect.ValueOf(scenario.Known(x)))
			return
		default:
			pts[part%4-1] = x
		}
		v.Set(reflect.ValueOf(scenario.Estimate(pts[0], pts[1], pts[2])))
	case reflect.Float64:
		v.SetFloat(x)
	case reflect.Int:
		v.SetInt(saturate(x, math.MinInt64, math.MaxInt64))
	case reflect.Uint64:
		v.SetUint(uint64(saturate(x, 0, math.MaxInt64)))
	}
}

// saturate converts x to an integer in [lo, hi]: NaN is 0.
func saturate(x float64, lo, hi int64) int64 {
	switch {
	case math.IsNaN(x):
		return 0
	case x <= float64(lo):
		return lo
	case x >= float64(hi):
		return hi
	}
	return int64(x)
}

// examples parses every example scenario.
func examples(tb testing.TB) ([]string, [][]byte) {
	tb.Helper()
	names, err := fs.Glob(scenarios.FS, "*.json")
	if err != nil || len(names) == 0 {
		tb.Fatal(names, err)
	}
	var files [][]byte
	for _, n := range names {
		b, err := fs.ReadFile(scenarios.FS, n)
		if err != nil {
			tb.Fatal(err)
		}
		files = append(files, b)
	}
	return names, files
}

// FuzzScenarioNumbers sets one or two numbers of a valid example scenario
// (any Value, float or integer field, optional ones included, or one point
// of an estimate) to fuzzed values and runs validation, the model with a
// short Monte Carlo run and the tornado, and the decision. Whatever the
// numbers: no panic; a scenario that validation refuses is refused with
// scenario.Errors; one it accepts evaluates to a report whose every figure
// is finite and non-negative, or is refused with scenario.Errors naming
// the fields; the decision's numbers are finite.
func FuzzScenarioNumbers(f *testing.F) {
	names, files := examples(f)
	cat, err := catalog.Default()
	if err != nil {
		f.Fatal(err)
	}
	type example struct {
		name  string
		data  []byte
		slots []slot
	}
	var exs []example
	for i, b := range files {
		s, err := scenario.Parse(b)
		if err != nil {
			f.Fatalf("%s: %v", names[i], err)
		}
		exs = append(exs, example{names[i], b, slots(s)})
	}
	// Seeds: every example as it is, and values within every field's range:
	// a likely value doubled or halved, a known value replacing an
	// estimate, an optional field set, values that validation refuses.
	for i := range exs {
		f.Add(uint8(i), uint16(0), 0.0, uint8(0), uint16(0), 0.0, uint8(0), uint8(0)) // slot 0 = seed, set to 0: refused or fine
	}
	for _, c := range []struct {
		ex    uint8
		a     string
		va    float64
		pa    uint8
		b     string
		vb    float64
		pb    uint8
		draws uint8
	}{
		{0, "workload.tokens_per_run_b", 30, 2, "workload.tokens_per_run_b", 60, 3, 20},
		{1, "workload.mfu", 0.2, 0, "workload.epochs", 3, 0, 20},
		{2, "dimensions.economics.weight", 0, 0, "dimensions.sovereignty.weight", 5, 0, 10},
		{3, "options.cloud.gpus", 16, 0, "options.on_prem.nodes", 2, 0, 10},
		{4, "data.volume_gb", 1e4, 3, "data.storage_gbps", 0.5, 0, 10},
		{5, "workload.traffic.peak_rps", 30, 0, "workload.traffic.mean_rps", 3, 0, 10},
		{5, "workload.mfu", -1, 0, "workload.mfu", math.NaN(), 0, 0},
		{0, "options.hpc.queue_wait_hours", 100, 3, "dimensions.economics.horizon_months", 6, 0, 10},
		{1, "workload.mfu", math.Inf(1), 0, "data.volume_gb", -3, 2, 0},
	} {
		ex := exs[int(c.ex)%len(exs)]
		at := func(path string) uint16 {
			for i, sl := range ex.slots {
				if sl.path == path {
					return uint16(i)
				}
			}
			f.Fatalf("%s has no number %s", ex.name, path)
			return 0
		}
		f.Add(c.ex, at(c.a), c.va, c.pa, at(c.b), c.vb, c.pb, c.draws)
	}
	ctx := context.Background()

	f.Fuzz(func(t *testing.T, exi uint8, a uint16, va float64, pa uint8, b uint16, vb float64, pb uint8, draws uint8) {
		ex := exs[int(exi)%len(exs)]
		s, err := scenario.Parse(ex.data)
		if err != nil {
			t.Fatal(err)
		}
		sa, sb := ex.slots[int(a)%len(ex.slots)], ex.slots[int(b)%len(ex.slots)]
		sa.set(s, va, pa)
		sb.set(s, vb, pb)
		t.Logf("%s: %s = %v (part %d), %s = %v (part %d), %d draws", ex.name, sa.path, va, pa, sb.path, vb, pb, draws)
		if errs := scenario.Validate(s); errs != nil {
			if cerr := modeltest.CleanError(errs); cerr != nil {
				t.Fatalf("Validate: %v", cerr)
			}
			return
		}
		r, err := model.Analyze(ctx, s, cat, int(draws)%64)
		if err != nil {
			if cerr := modeltest.CleanError(err); cerr != nil {
				t.Fatalf("Analyze: %v", cerr)
			}
			var fe scenario.Errors
			if !errors.As(err, &fe) {
				t.Fatalf("Analyze of a valid scenario: %v (%T), not scenario.Errors naming the fields", err, err)
			}
			return
		}
		if err := modeltest.Report(r); err != nil {
			t.Fatalf("Analyze: %v", err)
		}
		d, err := decide.Decide(s, r)
		if err != nil {
			if cerr := modeltest.CleanError(err); cerr != nil {
				t.Fatalf("Decide: %v", cerr)
			}
			return
		}
		if err := modeltest.Finite(d); err != nil {
			t.Fatalf("Decide: %v", err)
		}
	})
}
