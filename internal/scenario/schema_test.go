package scenario

import (
	"reflect"
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
