package decide

import (
	"hostplan/internal/present"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

const tol = 1e-12

func twoRows(a, b []float64, w []float64) *ranking {
	return &ranking{names: []string{"a", "b"}, S: mat.NewDense(2, nDims, append(append([]float64(nil), a...), b...)), raw: w}
}

// Totals are S·w with w normalised: weights 3:2:2:2:1 on
// a = (1, .5, .5, .6, .5) give (3 + 1 + 1 + 1.2 + .5)/10 = .67.
func TestTotalsNormalise(t *testing.T) {
	k := twoRows([]float64{1, .5, .5, .6, .5}, []float64{.5, .5, .5, 1, .5}, []float64{3, 2, 2, 2, 1})
	got := k.totals(k.raw)
	if math.Abs(got[0]-0.67) > tol || math.Abs(got[1]-0.60) > tol {
		t.Errorf("totals %v, want [0.67 0.60]", got)
	}
}

// a leads b by D = .07 with weights (.3, .2, .2, .2, .1); Δ = a − b =
// (.5, 0, 0, −.4, 0). Sovereignty ties at .3 − .07/.5 = .16, economics at
// .2 + .07/.4 = .375; the smaller move is sovereignty's (.14 < .175).
func TestWeightFlipExact(t *testing.T) {
	k := twoRows([]float64{1, .5, .5, .6, .5}, []float64{.5, .5, .5, 1, .5}, []float64{.3, .2, .2, .2, .1})
	dim, to, ok := k.weightFlip(0, 1)
	if !ok || dim != dimSovereignty || math.Abs(to-0.16) > tol {
		t.Fatalf("flip = dim %d to %v (ok %v), want sovereignty to 0.16", dim, to, ok)
	}
	w := slices.Clone(k.raw)
	w[dim] = to
	tt := k.totals(w)
	if math.Abs(tt[0]-tt[1]) > tol {
		t.Errorf("at the flip the totals are %v, want a tie", tt)
	}
	if got := k.leaderPast(dim, to); got != 1 {
		t.Errorf("just past the tie row %d leads, want 1 (b)", got)
	}
}

// b is worse or equal everywhere except through sovereignty, whose weight
// would have to reach 0 for a tie: the tie is reported, and nobody passes.
func TestWeightFlipToZeroTies(t *testing.T) {
	k := twoRows([]float64{1, 1, 1, 1, 1}, []float64{.5, 1, 1, 1, 1}, []float64{.2, .2, .2, .2, .2})
	dim, to, ok := k.weightFlip(0, 1)
	if !ok || dim != dimSovereignty || to != 0 {
		t.Fatalf("flip = dim %d to %v (ok %v), want sovereignty to 0", dim, to, ok)
	}
	if got := k.leaderPast(dim, to); got != 0 {
		t.Errorf("row %d leads at weight 0, want the tie kept in order (0)", got)
	}
}

// b loses on everything: no weight change can make it catch up.
func TestWeightFlipImpossible(t *testing.T) {
	k := twoRows([]float64{1, 1, 1, 1, 1}, []float64{.5, .5, .5, .5, .5}, []float64{.2, .2, .2, .2, .2})
	if _, _, ok := k.weightFlip(0, 1); ok {
		t.Error("found a flip where b is dominated")
	}
}

// Cost flips, equal weights .2 (economics scores are cheapest ÷ cost):
func TestCostFlip(t *testing.T) {
	for _, tc := range []struct {
		name   string
		a, b   []float64
		costs  []float64
		want   float64
		wantOK bool
	}{
		// b already cheapest (100 against 200): b must fall further, to c
		// with a's economics c/200: .5 + .2c/200 = .38 + .2 → c = 80.
		{"below the cheapest", []float64{1, .5, .5, .5, .5}, []float64{.4, .5, .5, 1, .5}, []float64{200, 100}, 80, true},
		// a is cheapest (100); b at 200. Without economics a has .5, b .48:
		// b must become the cheapest, .5 + .2c/100 = .48 + .2 → c = 90.
		{"past the cheapest", []float64{1, .5, .5, 1, .5}, []float64{.9, .5, .5, .5, .5}, []float64{100, 200}, 90, true},
		// b has .55 without economics, a .5: b need not be cheapest,
		// .5 + .2 = .55 + .2·100/c → c = 133.33.
		{"above the cheapest", []float64{1, .5, .5, 1, .5}, []float64{1, .5, .5, .5, .75}, []float64{100, 200}, 400.0 / 3, true},
		// b loses by .3 without economics, more than economics can give.
		{"out of reach", []float64{1, 1, 1, 1, 1}, []float64{.1, .1, .1, .5, .1}, []float64{100, 200}, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			k := twoRows(tc.a, tc.b, []float64{.2, .2, .2, .2, .2})
			got, ok := k.costFlip(0, 1, tc.costs)
			if ok != tc.wantOK || math.Abs(got-tc.want) > 1e-9 {
				t.Fatalf("costFlip = %v (ok %v), want %v (ok %v)", got, ok, tc.want, tc.wantOK)
			}
			if !ok {
				return
			}
			// Re-score economics at the new cost and check the tie.
			costs := slices.Clone(tc.costs)
			costs[1] = got
			cheapest := min(costs[0], costs[1])
			k.S.Set(0, dimEconomics, cheapest/costs[0])
			k.S.Set(1, dimEconomics, cheapest/costs[1])
			tt := k.totals(k.raw)
			if math.Abs(tt[0]-tt[1]) > 1e-9 {
				t.Errorf("at cost %v the totals are %v, want a tie", got, tt)
			}
		})
	}
}

// With weights (.22, .2, .2, .25, .13) a leads b by .01: sovereignty −20 %
// (.176) puts b first (.591 against .603), and so does economics +20 %
// (.3). The other eight moves keep the order.
func TestRobustnessFragile(t *testing.T) {
	k := twoRows([]float64{1, .5, .5, .6, .5}, []float64{.5, .5, .5, 1, .5}, []float64{.22, .2, .2, .25, .13})
	rb := robustness(k, order(k.totals(k.raw)))
	if !rb.Fragile || rb.Verdict != Fragile || rb.Perturbation != 0.2 {
		t.Fatalf("not fragile at ±20 %%: %+v", rb)
	}
	if want := []string{"sovereignty -20 %", "economics +20 %"}; !slices.Equal(rb.FlippedBy, want) {
		t.Errorf("flipped by %v, want %v", rb.FlippedBy, want)
	}
	if len(rb.Checks) != 10 {
		t.Errorf("%d checks, want 10", len(rb.Checks))
	}
	for _, c := range rb.Checks {
		if !c.Survives && c.Winner != "b" {
			t.Errorf("%s %+.1f: winner %s, want b", c.Dimension, c.Change, c.Winner)
		}
	}
}

// The same case with sovereignty and workload shape swapped: the flip is
// named in words, "workload shape", not by its key.
func TestRobustnessNamesDimensionInWords(t *testing.T) {
	k := twoRows([]float64{.5, 1, .5, .6, .5}, []float64{.5, .5, .5, 1, .5}, []float64{.2, .22, .2, .25, .13})
	rb := robustness(k, order(k.totals(k.raw)))
	if want := []string{"workload shape -20 %", "economics +20 %"}; !slices.Equal(rb.FlippedBy, want) {
		t.Errorf("flipped by %v, want %v", rb.FlippedBy, want)
	}
	if !strings.HasPrefix(rb.Summary, "workload shape -20 % puts B first") {
		t.Errorf("summary %q", rb.Summary)
	}
}

func TestRobustnessRobust(t *testing.T) {
	k := twoRows([]float64{1, .5, .5, .6, .5}, []float64{.5, .5, .5, 1, .5}, []float64{.3, .2, .2, .2, .1})
	if rb := robustness(k, order(k.totals(k.raw))); rb.Fragile || rb.Verdict != Robust || len(rb.FlippedBy) != 0 {
		t.Errorf("fragile: %+v", rb)
	}
}

// Equal totals keep the report order; rounding noise does not reorder.
func TestOrderTies(t *testing.T) {
	if got := order([]float64{0.5, 0.5 + 1e-15, 0.7}); !slices.Equal(got, []int{2, 0, 1}) {
		t.Errorf("order = %v, want [2 0 1]", got)
	}
}

// A lead that every check keeps but that is under CloseLead is close, not
// robust, and the summary gives the lead; at CloseLead or more it is
// robust. Only sovereignty tells a and b apart, so no weight's move can
// reorder them: the lead is 0.5 × the sovereignty weight's share.
func TestRobustnessClose(t *testing.T) {
	for _, tc := range []struct {
		sov  float64
		want Verdict
	}{{0.06, Close}, {0.09, Close}, {0.1, Robust}, {0.3, Robust}} {
		rest := (1 - tc.sov) / 4
		k := twoRows([]float64{1, .5, .5, .5, .5}, []float64{.5, .5, .5, .5, .5}, []float64{tc.sov, rest, rest, rest, rest})
		rb := robustness(k, order(k.totals(k.raw)))
		if rb.Verdict != tc.want || rb.Fragile {
			t.Errorf("sovereignty weight %v (lead %.3f): %+v, want %s", tc.sov, tc.sov/2, rb, tc.want)
		}
		if lead := present.Fixed(tc.sov/2, 3); tc.want == Close && !strings.Contains(rb.Summary, "by only "+lead+" of 1") {
			t.Errorf("close summary %q does not give the lead %s", rb.Summary, lead)
		}
		if !strings.HasPrefix(rb.Text(), rb.Verdict.Label()+": ") {
			t.Errorf("text %q does not lead with the verdict", rb.Text())
		}
	}
}
