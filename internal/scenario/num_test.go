package scenario

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"hostplan/internal/present/num"
)

// Every limit a range's message shows reads back, through the reader
// every number entry uses, as the limit itself: a user can copy it from
// the message into the input.
func TestRangeLimitsReadBack(t *testing.T) {
	for _, b := range append(ScenarioBounds(), CatalogBounds()...) {
		for _, x := range []float64{b.Min, b.Max} {
			s := Num(x)
			got, err := num.Parse(s)
			if err != nil || got != x {
				t.Errorf("%s: limit %v written %q reads back %v, %v", b.Path, x, s, got, err)
			}
			if !strings.Contains(b.Range.String(), s) {
				t.Errorf("%s: %q does not show %q", b.Path, b.Range.String(), s)
			}
		}
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 5000 {
		for _, x := range []float64{
			math.Float64frombits(r.Uint64()),
			math.Round((r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(25)))),
		} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				continue
			}
			if got, err := num.Parse(Num(x)); err != nil || got != x {
				t.Fatalf("%v written %q reads back %v, %v", x, Num(x), got, err)
			}
		}
	}
}
