package modeltest_test

import (
	"context"
	"errors"
	"io/fs"
	"math"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/model/modeltest"
	"hostplan/internal/scenario"
	"hostplan/scenarios"
)

// Every example's analysis and decision pass the checks.
func TestExamplesPass(t *testing.T) {
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	files, err := fs.Glob(scenarios.FS, "*.json")
	if err != nil || len(files) == 0 {
		t.Fatal(files, err)
	}
	for _, f := range files {
		b, err := fs.ReadFile(scenarios.FS, f)
		if err != nil {
			t.Fatal(err)
		}
		s, err := scenario.Parse(b)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r, err := model.Analyze(context.Background(), s, cat, 200)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := modeltest.Report(r); err != nil {
			t.Errorf("%s: %v", f, err)
		}
		d, err := decide.Decide(s, r)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if err := modeltest.Finite(d); err != nil {
			t.Errorf("%s: decision: %v", f, err)
		}
	}
}

// The checks find a non-finite or negative number wherever it is.
func TestReportFindsBadNumbers(t *testing.T) {
	good := func() *model.Report {
		return &model.Report{Directions: []model.DirectionResult{{CostHorizon: 1, CumulativeByMonth: []float64{1, 2},
			Scaling: []model.ScalingPoint{{GPUs: 1, StepSeconds: 1}}}}, Tornado: &model.Tornado{Bars: []model.Bar{{Low: 1, High: 2}}}}
	}
	if err := modeltest.Report(good()); err != nil {
		t.Fatal(err)
	}
	for name, spoil := range map[string]func(r *model.Report){
		"Report.Directions[0].CostHorizon":          func(r *model.Report) { r.Directions[0].CostHorizon = math.NaN() },
		"Report.Directions[0].CumulativeByMonth[1]": func(r *model.Report) { r.Directions[0].CumulativeByMonth[1] = math.Inf(1) },
		"Report.Directions[0].Scaling[0].GPUs":      func(r *model.Report) { r.Directions[0].Scaling[0].GPUs = -1 },
		"Report.Tornado.Bars[0].High":               func(r *model.Report) { r.Tornado.Bars[0].High = -3 },
	} {
		r := good()
		spoil(r)
		err := modeltest.Report(r)
		if err == nil || !strings.HasPrefix(err.Error(), name+" ") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if err := modeltest.Finite(&decide.Decision{Weights: []decide.Weight{{Normalised: math.NaN()}}}); err == nil {
		t.Error("Finite missed a NaN in a decision")
	}
}

func TestCleanError(t *testing.T) {
	for _, ok := range []error{nil, errors.New("workload.mfu: is out of range (allowed: 0 < mfu ≤ 1)")} {
		if err := modeltest.CleanError(ok); err != nil {
			t.Errorf("%v: %v", ok, err)
		}
	}
	for _, bad := range []error{errors.New(""), errors.New("runtime error: index out of range [3] with length 3"), errors.New("bad \xff")} {
		if modeltest.CleanError(bad) == nil {
			t.Errorf("%q passed", bad)
		}
	}
}
