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
	"time"

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

// FuzzTrialCSV reads a trial CSV as hostplan fit does (ReadTrialCSV) and
// fits the Universal Scalability Law to the points it accepts. Whatever
// the bytes: no panic; a refusal is a clean error (the reader's name a
// line, the fit's match one of ErrTooFewPoints, ErrBadPoint and
// ErrDegenerateFit); every point read is finite and > 0; a fit has finite
// coefficients in range (λ > 0, 0 ≤ σ ≤ 1, κ ≥ 0), R² ≤ 1, a finite N_max ≥ 0,
// and a finite
// throughput and efficiency in (0, 1] at each measured count.
func FuzzTrialCSV(f *testing.F) {
	for _, s := range []string{
		"gpus,throughput\n1,1\n2,1.8868\n4,3.0769\n6,3.5294\n8,3.5398\n10,3.3557\n",
		"# comment\nThroughput, GPUs, note\n100, 1, a\n190,2,b\n350,4,c\n600,8,\"d, e\"\n",
		"gpus,throughput\n1,5\n2,10\n4,20\n8,40\n",
		"gpus,throughput\n1,5\n2,5\n4,5\n",
		"gpus,throughput\n1,1\n1,2\n2,3\n",
		"gpus,throughput\n1,0\n2,-1\n3,x\n",
		"gpus,throughput\n1e-300,1e300\n2,1e-300\n1e300,3\n",
		"gpus,gpus,throughput\n",
		"gpus\n1\n",
		"",
		"\"gpus,throughput\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		modeltest.Within(t, fitTimeout, func() error { return checkTrialCSV(b) })
	})
}

// fitTimeout is far more than reading and fitting any trial file takes
// (milliseconds), and less than the 10 s after which the fuzzing engine
// gives up on a worker without recording the input.
const fitTimeout = 8 * time.Second

func checkTrialCSV(b []byte) error {
	pts, err := model.ReadTrialCSV(strings.NewReader(string(b)))
	if err != nil {
		if cerr := modeltest.CleanError(err); cerr != nil {
			return fmt.Errorf("ReadTrialCSV: %w", cerr)
		}
		if !strings.HasPrefix(err.Error(), "line ") {
			return fmt.Errorf("ReadTrialCSV: %q does not name a line", err)
		}
		return nil
	}
	for i, p := range pts {
		if !(p.N > 0 && p.X > 0) || math.IsInf(p.N, 0) || math.IsInf(p.X, 0) {
			return fmt.Errorf("point %d read as %+v", i+1, p)
		}
	}
	fit, err := model.FitUSL(pts)
	if err != nil {
		if cerr := modeltest.CleanError(err); cerr != nil {
			return fmt.Errorf("FitUSL: %w", cerr)
		}
		if !errors.Is(err, model.ErrTooFewPoints) && !errors.Is(err, model.ErrBadPoint) && !errors.Is(err, model.ErrDegenerateFit) {
			return fmt.Errorf("FitUSL: %v is none of its errors", err)
		}
		return nil
	}
	for _, x := range []float64{fit.Lambda, fit.Sigma, fit.Kappa, fit.R2} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("fit %+v is not finite", fit)
		}
	}
	if !(fit.Lambda > 0) || !(fit.Sigma >= 0 && fit.Sigma <= 1) || !(fit.Kappa >= 0) || fit.R2 > 1+1e-9 || fit.Points != len(pts) {
		return fmt.Errorf("fit %+v out of range for %d points", fit, len(pts))
	}
	// N_max may be below 1, and is 0 when σ = 1 (throughput falls from
	// the first GPU on).
	if n, ok := fit.NMaxFinite(); !(n >= 0) || math.IsInf(n, 0) || !ok && n != 0 {
		return fmt.Errorf("NMax %v, %v", n, ok)
	}
	for _, p := range pts {
		x, e := fit.Throughput(p.N), fit.Efficiency(p.N)
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 || math.IsNaN(e) || math.IsInf(e, 0) || e < 0 || (p.N >= 1 && e > 1+1e-12) {
			return fmt.Errorf("at %v GPUs: throughput %v, efficiency %v (fit %+v)", p.N, x, e, fit)
		}
	}
	return nil
}
