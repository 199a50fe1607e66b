package present

import (
	"fmt"
	"strings"
)

// A repricing as it is read, the same on the command line (also as JSON)
// and in the window: each scenario the new prices change, what changed for
// it, and each price that moved, in this package's words and number
// formats and the cost identity's driver labels. The planner (package app)
// fills these in; nothing here computes.

// RepricedScenario is one scenario the new prices change: the latest
// revision's recommendation and cheapest direction on both catalogs, and
// the directions whose cost, verdict or prices moved.
type RepricedScenario struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Revision int    `json:"revision"`
	Currency string `json:"currency"`
	// Recommendation is the direction the decision ranks first ("" when
	// none is feasible); Cheapest the feasible one with the lowest cost
	// over the horizon. Each on the baseline, then on the catalog in use.
	RecommendationBefore string `json:"recommendation_before"`
	RecommendationAfter  string `json:"recommendation_after"`
	CheapestBefore       string `json:"cheapest_before"`
	CheapestAfter        string `json:"cheapest_after"`
	// Directions are those feasible on either catalog whose cost, verdict
	// or prices moved, in the report's order.
	Directions []RepricedDirection `json:"directions"`
}

// RecommendationChanged reports whether the ranked-first direction changed.
func (s RepricedScenario) RecommendationChanged() bool {
	return s.RecommendationBefore != s.RecommendationAfter
}

// CheapestChanged reports whether the cheapest feasible direction changed.
func (s RepricedScenario) CheapestChanged() bool { return s.CheapestBefore != s.CheapestAfter }

// RepricedDirection is one direction's cost over the horizon on both
// catalogs and the catalog prices it used that moved.
type RepricedDirection struct {
	Direction      string  `json:"direction"`
	Title          string  `json:"title"`
	FeasibleBefore bool    `json:"feasible_before"`
	FeasibleAfter  bool    `json:"feasible_after"`
	CostBefore     float64 `json:"cost_before"` // over the horizon
	CostAfter      float64 `json:"cost_after"`
	// Change is (CostAfter − CostBefore) ÷ CostBefore; 0 when CostBefore
	// is 0 (Beyond then says whether it moved at all).
	Change float64 `json:"change"`
	// Beyond is whether the cost moved by more than the threshold.
	Beyond bool `json:"beyond_threshold"`
	// GPU and GPUs are the GPU type and count it plans on each catalog
	// (a direction may pick another offer once prices move).
	GPUBefore  string `json:"gpu_before"`
	GPUAfter   string `json:"gpu_after"`
	GPUsBefore int    `json:"gpus_before"`
	GPUsAfter  int    `json:"gpus_after"`
	// Prices are the catalog prices the direction used that moved.
	Prices []PriceMove `json:"prices"`
}

// VerdictChanged reports whether the direction became feasible or ceased to be.
func (d RepricedDirection) VerdictChanged() bool { return d.FeasibleBefore != d.FeasibleAfter }

// PriceMove is one catalog price a direction used whose value, date or
// entry differs between the two catalogs.
type PriceMove struct {
	// Input is the cost input's name in the report (cloud_price_per_gpu_hour).
	Input string `json:"input"`
	// Label and Unit are its words, as the workbook's Drivers sheet has them.
	Label string `json:"label"`
	Unit  string `json:"unit"`
	// Entry is the catalog entry and field it came from (kind/id/field),
	// EntryName what the entry is called; on each catalog (a direction may
	// pick another offer once prices move).
	EntryBefore     string  `json:"entry_before"`
	EntryAfter      string  `json:"entry_after"`
	EntryNameBefore string  `json:"entry_name_before"`
	EntryNameAfter  string  `json:"entry_name_after"`
	Before          float64 `json:"before"`
	After           float64 `json:"after"`
	AsOfBefore      string  `json:"as_of_before"`
	AsOfAfter       string  `json:"as_of_after"`
}

// directionName names direction d for a reader; "none" for "" (no
// feasible direction).
func directionName(d string) string {
	if d == "" {
		return "none feasible"
	}
	return DirectionTitle(d)
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
	t := fmt.Sprintf("%s: cost over the horizon %s → %s (%s)", d.Title, Money(d.CostBefore, currency), Money(d.CostAfter, currency), move)
	if d.GPUBefore != d.GPUAfter || d.GPUsBefore != d.GPUsAfter {
		t += fmt.Sprintf("; plans on %s → %s", GPUs(d.GPUBefore, d.GPUsBefore), GPUs(d.GPUAfter, d.GPUsAfter))
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
	p := PercentFixed(x, 1)
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
		return Figure(x)
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
			name += " (" + Lower(Humanize(parts[2])) + ")"
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
