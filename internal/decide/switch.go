package decide

import "math"

// WeightSwitch says, for one dimension, where the recommendation changes
// when that weight alone moves, the others staying as given: the nearest
// weight below and above the given one at which another direction draws
// level with the winner. A window marks them on its weight sliders.
type WeightSwitch struct {
	Dimension string  `json:"dimension"`
	Given     float64 `json:"given"`
	Below     *Switch `json:"below"` // nil when no weight down to 0 changes the winner
	Above     *Switch `json:"above"` // nil when no higher weight changes it
}

// Switch is one point at which the recommendation changes.
type Switch struct {
	At     float64 `json:"at"`     // the raw weight at which the two draw level
	Leader string  `json:"leader"` // who leads just past it
}

// Switches returns, for each of the five dimensions in the order of
// Weights, where the recommendation changes as that weight moves. It reads
// only the decision's own scores and weights, so a face can call it after
// every Decide. The totals are linear in the numerator of the normalised
// weights: with weight x on dimension j and the others as given, direction
// i's total times the weights' sum is A_i + x·S_ij, A_i = Σ_{k≠j} w_k·S_ik,
// so the winner changes where the upper envelope of those lines does, at
// x = (A_w − A_i)/(S_ij − S_wj) for the winner w and some direction i.
// With fewer than two feasible directions every switch is nil.
func (dec *Decision) Switches() []WeightSwitch {
	out := make([]WeightSwitch, len(dec.Weights))
	for j, w := range dec.Weights {
		out[j] = WeightSwitch{Dimension: w.Dimension, Given: w.Given}
	}
	var rows [][]float64 // scores of the feasible directions, report order
	var names []string
	win := -1
	for _, d := range dec.Directions {
		if !d.Feasible || len(d.Scores) != len(dec.Weights) {
			continue
		}
		row := make([]float64, len(d.Scores))
		for j, s := range d.Scores {
			row[j] = s.Score
		}
		if d.Direction == dec.Recommendation {
			win = len(rows)
		}
		rows = append(rows, row)
		names = append(names, d.Direction)
	}
	if win < 0 || len(rows) < 2 {
		return out
	}
	raw := make([]float64, len(dec.Weights))
	for j, w := range dec.Weights {
		raw[j] = w.Given
	}
	for j := range raw {
		a := make([]float64, len(rows)) // A_i: the other dimensions' part
		for i, row := range rows {
			for k, s := range row {
				if k != j {
					a[i] += raw[k] * s
				}
			}
		}
		x0 := raw[j]
		below, above := math.Inf(-1), math.Inf(1)
		for i, row := range rows {
			slope := row[j] - rows[win][j]
			if i == win || math.Abs(slope) < 1e-12 {
				continue
			}
			x := (a[win] - a[i]) / slope
			switch {
			case slope > 0 && x > x0:
				above = math.Min(above, x)
			case slope < 0 && x < x0 && x >= 0:
				below = math.Max(below, x)
			}
		}
		leader := func(x float64) string {
			if sumOf(raw)-x0+x <= 0 {
				return ""
			}
			best := 0
			for i := range rows {
				if a[i]+x*rows[i][j] > a[best]+x*rows[best][j]+tieTol {
					best = i
				}
			}
			return names[best]
		}
		if !math.IsInf(above, 1) {
			out[j].Above = &Switch{At: above, Leader: leader(above + 1e-9*math.Max(1, above))}
		}
		if !math.IsInf(below, -1) {
			if l := leader(math.Max(0, below-1e-9*math.Max(1, below))); l != "" && l != dec.Recommendation {
				out[j].Below = &Switch{At: below, Leader: l}
			}
		}
	}
	return out
}
