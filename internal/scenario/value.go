package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Value is a numeric input that is either known (one number) or an estimate
// (low, likely, high). On disk a known value is a bare JSON number and an
// estimate is an object {"low": …, "likely": …, "high": …}, so a reader can
// tell at a glance which numbers are facts and which are guesses.
//
// The zero Value is "not given"; IsSet reports whether the file supplied it.
type Value struct {
	Low, Likely, High float64
	estimate          bool
	set               bool
}

// Known returns a known value v.
func Known(v float64) Value { return Value{Low: v, Likely: v, High: v, set: true} }

// Estimate returns an estimate with the three points low ≤ likely ≤ high.
func Estimate(low, likely, high float64) Value {
	return Value{Low: low, Likely: likely, High: high, estimate: true, set: true}
}

// IsSet reports whether the value was supplied.
func (v Value) IsSet() bool { return v.set }

// IsEstimate reports whether the value is a (low, likely, high) estimate.
func (v Value) IsEstimate() bool { return v.estimate }

// Or returns v's likely value, or def when v is not set.
func (v Value) Or(def float64) float64 {
	if !v.set {
		return def
	}
	return v.Likely
}

// String renders a known value as its number and an estimate as
// "likely (low–high, estimate)".
func (v Value) String() string {
	if !v.set {
		return "—"
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	if !v.estimate {
		return f(v.Likely)
	}
	return fmt.Sprintf("%s (%s–%s, estimate)", f(v.Likely), f(v.Low), f(v.High))
}

type estimateJSON struct {
	Low    *float64 `json:"low"`
	Likely *float64 `json:"likely"`
	High   *float64 `json:"high"`
}

// MarshalJSON writes a known value as a number and an estimate as an object.
func (v Value) MarshalJSON() ([]byte, error) {
	if !v.set {
		return []byte("null"), nil
	}
	for _, x := range []float64{v.Low, v.Likely, v.High} {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("value %v is not a finite number", x)
		}
	}
	if !v.estimate {
		return json.Marshal(v.Likely)
	}
	return json.Marshal(struct {
		Low    float64 `json:"low"`
		Likely float64 `json:"likely"`
		High   float64 `json:"high"`
	}{v.Low, v.Likely, v.High})
}

// UnmarshalJSON reads a number or a {low, likely, high} object. Range checks
// (low ≤ likely ≤ high, positivity) belong to Validate, which knows the field.
func (v *Value) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*v = Value{}
		return nil
	}
	if len(b) > 0 && b[0] == '{' {
		var e estimateJSON
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&e); err != nil {
			return fmt.Errorf("an estimate is {\"low\": n, \"likely\": n, \"high\": n}: %v", err)
		}
		if e.Low == nil || e.Likely == nil || e.High == nil {
			return fmt.Errorf("an estimate needs all of low, likely and high")
		}
		*v = Estimate(*e.Low, *e.Likely, *e.High)
		return nil
	}
	var x float64
	if err := json.Unmarshal(b, &x); err != nil {
		return fmt.Errorf("want a number or {\"low\", \"likely\", \"high\"}, got %s", b)
	}
	*v = Known(x)
	return nil
}
