package scenario

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

// holdsValue finds a Value wherever a type can hold one, and EstimateRefs
// skips the slices that cannot (a trial of many points).
func TestHoldsValue(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want bool
	}{
		{Value{}, true}, {TrialPoint{}, false}, {[]TrialPoint{}, false}, {Workload{}, true},
		{&Traffic{}, true}, {[]PriceOverride{}, false}, {Scenario{}, true}, {"", false},
	} {
		if got := holdsValue(reflect.TypeOf(tc.v)); got != tc.want {
			t.Errorf("holdsValue(%T) = %v, want %v", tc.v, got, tc.want)
		}
	}
}

// A trial's points are checked without a path per number, and a problem
// still names its point: the points' numbers against their ranges, as
// any number is.
func TestTrialPointsChecked(t *testing.T) {
	s, err := Parse(valid(t))
	if err != nil {
		t.Fatal(err)
	}
	s.Workload.Trial = make([]TrialPoint, 500)
	for i := range s.Workload.Trial {
		s.Workload.Trial[i] = TrialPoint{GPUs: i + 1, Throughput: float64(100 * (i + 1))}
	}
	s.Workload.Trial[7].GPUs = 0
	s.Workload.Trial[9].Throughput = -1
	errs := Validate(s)
	var paths []string
	for _, e := range errs {
		if strings.HasPrefix(e.Path, "workload.trial[") {
			paths = append(paths, e.Path)
			if e.Allowed == "" {
				t.Errorf("%s: no allowed values", e.Path)
			}
		}
	}
	if want := []string{"workload.trial[7].gpus", "workload.trial[9].throughput"}; !slices.Equal(paths, want) {
		t.Errorf("problems at %v, want %v (all: %v)", paths, want, errs)
	}
}
