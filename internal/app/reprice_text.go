package app

import (
	"fmt"
	"strings"

	"hostplan/internal/present"
)

// The sentences a repricing is read in, the same on the command line and
// in the window: what changed for a scenario, and each price that moved,
// in the words and number formats of package present and the workbook's
// driver labels.

// directionName names direction d for a reader; "none" for "" (no
// feasible direction).
func directionName(d string) string {
	if d == "" {
		return "none feasible"
	}
	return present.DirectionTitle(d)
}

// Changes says what changed for the scenario, a sentence each: the
// recommendation, the cheapest direction, then each direction's cost
// over the horizon and verdict.
func (s RepricedScenario) Changes() []string {
	var out []string
	if s.RecommendationChanged() {
		out = append(out, fmt.Sprintf("Recommendation: %s → %s", directionName(s.RecommendationBefore), directionName(s.RecommendationAfter)))
	}
	if s.CheapestChanged() {
		out = append(out, fmt.Sprintf("Cheapest over the horizon: %s → %s", directionName(s.CheapestBefore), directionName(s.CheapestAfter)))
	}
	for _, d := range s.Directions {
		out = append(out, d.Text(s.Currency))
	}
	return out
}

// Text is the direction's cost over the horizon on both catalogs, with
// the move, then the GPUs it plans on when they changed and its verdict
// when that changed: "Cloud IaaS: cost over
// the horizon USD 119,694 → USD 239,388 (+100 %)".
func (d RepricedDirection) Text(currency string) string {
	move := "unchanged"
	switch {
	case d.CostBefore == d.CostAfter:
	case d.CostBefore == 0:
		move = "from nothing"
	default:
		move = signed(d.Change)
	}
	t := fmt.Sprintf("%s: cost over the horizon %s → %s (%s)", d.Title, present.Money(d.CostBefore, currency), present.Money(d.CostAfter, currency), move)
	if d.GPUBefore != d.GPUAfter || d.GPUsBefore != d.GPUsAfter {
		t += fmt.Sprintf("; plans on %s → %s", present.GPUs(d.GPUBefore, d.GPUsBefore), present.GPUs(d.GPUAfter, d.GPUsAfter))
	}
	switch {
	case d.FeasibleBefore && !d.FeasibleAfter:
		t += "; no longer feasible"
	case !d.FeasibleBefore && d.FeasibleAfter:
		t += "; now feasible"
	}
	return t
}

// signed writes a share as a signed percentage: "+12.5 %", "−3 %".
func signed(x float64) string {
	p := present.PercentFixed(x, 1)
	p = strings.Replace(p, ".0 %", " %", 1)
	if x > 0 {
		return "+" + p
	}
	return strings.Replace(p, "-", "−", 1)
}

// Prices names every price that moved, direction by direction:
// "Cloud IaaS — price per GPU-hour, Lambda 8× H100 (on demand): 2.99 →
// 5.98 USD/GPU-hour, as of 2024-03-01 → 2026-10-01".
func (s RepricedScenario) Prices() []string {
	var out []string
	for _, d := range s.Directions {
		for _, m := range d.Prices {
			out = append(out, d.Title+" — "+m.Text())
		}
	}
	return out
}

// Text is the price in words with its old and new values and dates.
func (m PriceMove) Text() string {
	what := m.Label
	if e := m.entryWords(); e != "" {
		what += ", " + e
	}
	val := func(x float64, entry string) string {
		if entry == "" {
			return "not used"
		}
		return present.Figure(x)
	}
	t := fmt.Sprintf("%s: %s → %s", what, val(m.Before, m.EntryBefore), val(m.After, m.EntryAfter))
	if m.Unit != "" {
		t += " " + m.Unit
	}
	if m.AsOfBefore != m.AsOfAfter || m.AsOfAfter == "" {
		t += fmt.Sprintf(", as of %s → %s", orNone(m.AsOfBefore), orNone(m.AsOfAfter))
	} else {
		t += ", as of " + m.AsOfAfter
	}
	return t
}

// entryWords names the catalog entry and field the price came from, both
// when the direction picked another entry: "Lambda 8×H100 SXM (on
// demand)"; the field only for a cloud offer's pricing mode (the label
// names the others).
func (m PriceMove) entryWords() string {
	one := func(name, key string) string {
		if key == "" {
			return ""
		}
		parts := strings.Split(key, "/")
		if name == "" && len(parts) > 1 {
			name = parts[1]
		}
		if len(parts) == 3 && parts[0] == "cloud" { // the pricing mode
			name += " (" + present.Lower(present.Humanize(parts[2])) + ")"
		}
		return name
	}
	a, b := one(m.EntryNameBefore, m.EntryBefore), one(m.EntryNameAfter, m.EntryAfter)
	switch {
	case a == b || a == "":
		return b
	case b == "":
		return a
	}
	return a + " → " + b
}

func orNone(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
