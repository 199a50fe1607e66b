package decide

import (
	"math"
	"sort"

	"gonum.org/v1/gonum/mat"
)

// ranking is the feasible directions' scores and the user's weights: the
// total of direction i is row i of S times w (w normalised to sum 1).
type ranking struct {
	names []string   // feasible directions, in report order
	S     *mat.Dense // len(names) × 5 scores
	raw   []float64  // the user's weights, as given
}

// normalise returns w scaled to sum 1. Validation guarantees a positive
// sum; a zero sum is a programming error.
func normalise(w []float64) []float64 {
	sum := 0.0
	for _, x := range w {
		sum += x
	}
	if !(sum > 0) {
		panic("decide: weights sum to zero")
	}
	out := make([]float64, len(w))
	for i, x := range w {
		out[i] = x / sum
	}
	return out
}

// totals returns S·w for the weights w (normalised first).
func (k *ranking) totals(w []float64) []float64 {
	n, _ := k.S.Dims()
	t := mat.NewVecDense(n, nil)
	t.MulVec(k.S, mat.NewVecDense(len(w), normalise(w)))
	out := make([]float64, n)
	for i := range out {
		out[i] = t.AtVec(i)
	}
	return out
}

// order returns the row indexes by total, highest first; a tie keeps the
// report order. Totals closer than tieTol count as equal so that rounding
// in the last bits cannot reorder directions.
func order(totals []float64) []int {
	idx := make([]int, len(totals))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		return totals[idx[a]] > totals[idx[b]]+tieTol
	})
	return idx
}

const tieTol = 1e-12

// diff returns row a minus row b of S.
func (k *ranking) diff(a, b int) []float64 {
	_, c := k.S.Dims()
	out := make([]float64, c)
	for j := range out {
		out[j] = k.S.At(a, j) - k.S.At(b, j)
	}
	return out
}

// weightFlip finds the smallest change of one raw weight (the others held)
// at which rows a (ahead) and b tie. The weighted difference is linear in
// each weight, D(w_k + δ) = D + δ·Δ_k with D = Σ w_j Δ_j, Δ = S_a − S_b, so
// the tie is at δ = −D/Δ_k exactly; a weight cannot go below zero. It
// returns the dimension and the raw weight at the tie, ok false when no
// single weight can make b catch a.
func (k *ranking) weightFlip(a, b int) (dim int, to float64, ok bool) {
	delta := k.diff(a, b)
	D := 0.0
	for j, d := range delta {
		D += k.raw[j] * d
	}
	best := math.Inf(1)
	for j, d := range delta {
		if math.Abs(d) < 1e-12 {
			continue
		}
		step := -D / d
		if k.raw[j]+step < 0 {
			continue
		}
		if math.Abs(step) < best {
			best, dim, to, ok = math.Abs(step), j, k.raw[j]+step, true
		}
	}
	return dim, to, ok
}

// leaderPast returns who leads when raw weight dim moves just past to, in
// the direction away from its current value.
func (k *ranking) leaderPast(dim int, to float64) int {
	w := append([]float64(nil), k.raw...)
	eps := 1e-9 * math.Max(1, math.Abs(to))
	if to > w[dim] {
		w[dim] = to + eps
	} else {
		w[dim] = math.Max(0, to-eps)
	}
	if sumOf(w) <= 0 {
		return order(k.totals(k.raw))[0]
	}
	return order(k.totals(w))[0]
}

func sumOf(w []float64) float64 {
	s := 0.0
	for _, x := range w {
		s += x
	}
	return s
}

// costFlip finds the runner-up's cost over the horizon at which it ties the
// winner, every other input held. Economics scores are cheapest ÷ cost, so
// as b's cost c falls the scores move in two regimes (m = the cheapest
// other feasible cost):
//
//	c ≥ m: b scores m/c, the others keep theirs;
//	c < m: b scores 1 and every other direction d scores c/cost_d.
//
// Each regime is linear in 1/c or c, so the tie is solved exactly. ok is
// false when no positive cost makes b catch a (it loses on the other
// dimensions by more than economics can give back).
func (k *ranking) costFlip(a, b int, costs []float64) (to float64, ok bool) {
	w := normalise(k.raw)
	we := w[dimEconomics]
	if we <= 0 || costs[a] <= 0 {
		return 0, false
	}
	var Aa, Ab float64 // weighted totals without economics
	for j := range w {
		if j == dimEconomics {
			continue
		}
		Aa += w[j] * k.S.At(a, j)
		Ab += w[j] * k.S.At(b, j)
	}
	m := math.Inf(1)
	for i, c := range costs {
		if i != b && c < m {
			m = c
		}
	}
	if math.IsInf(m, 1) || m <= 0 {
		return 0, false
	}
	// Regime c ≥ m: Aa + we·m/ca = Ab + we·m/c.
	x := (Aa + we*m/costs[a] - Ab) / we
	if x > 0 && x <= 1 {
		return m / x, true
	}
	// Regime c < m: Aa + we·c/ca = Ab + we.
	c := costs[a] * (Ab + we - Aa) / we
	if c > 0 && c < m {
		return c, true
	}
	return 0, false
}
