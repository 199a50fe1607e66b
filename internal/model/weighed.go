package model

import (
	"math"
	"slices"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// What an evaluation read of the catalog's prices, so that a change of
// prices can tell which evaluations it may change without evaluating
// again (app's stored outcomes and reprice). It must name every entry
// whose price could change the report's verdicts, costs or choices; what
// it leaves out is a promise that the price does not matter.
// app.TestPriceReadsComplete moves every catalog price of the examples
// and checks the promise.

// PriceReads is what an evaluation read of the catalog's prices.
type PriceReads struct {
	// Weighed are the entries (kind/id) whose prices the model read to
	// choose among them or used; a change to one of their prices may
	// change the report. The cloud offers the choice weighed are in
	// Cloud instead.
	Weighed []string `json:"weighed,omitempty"`
	// Cloud is the choice of a cloud offer, nil when none was made.
	Cloud *CloudChoice `json:"cloud,omitempty"`
}

// CloudChoice is how the model chose its cloud offer: the cheapest for
// the work among the offers within the residency and the provider homes,
// by price per GPU-hour (in the pricing mode) × GPU-hours per unit of
// work.
type CloudChoice struct {
	Mode  string `json:"mode"`  // the pricing mode whose prices were compared
	Taken string `json:"taken"` // the offer taken
	// Pinned is an offer the scenario names: no choice was made, and only
	// the taken offer's prices matter.
	Pinned bool `json:"pinned,omitempty"`
	// Fallback is a choice where no offer held the work: every offer's
	// price may matter.
	Fallback bool `json:"fallback,omitempty"`
	// Best is the taken offer's price × work, in the scenario's currency.
	Best float64 `json:"best,omitempty"`
	// Work is, for each other offer within the residency and the homes,
	// its GPU-hours per unit of work: an offer wins the choice when its
	// price × work is below Best. -1: it cannot hold the work (its price
	// does not matter); NaN is never stored (an offer without a price in
	// the mode is in Unpriced).
	Work map[string]float64 `json:"work,omitempty"`
	// Unpriced are the offers within the residency and the homes without
	// a price in the mode: a price given to one may make it the choice.
	Unpriced []string `json:"unpriced,omitempty"`
	// Scale converts an offer's catalog price into the scenario's
	// currency, as the choice compared it: the exchange rate, for each
	// offer of Work whose price was converted (absent: 1).
	Scale map[string]float64 `json:"scale,omitempty"`
}

// weigh records that the evaluation read the prices of catalog entry
// kind/id.
func (e *evaluator) weigh(kind catalog.Kind, id string) {
	if e.reads == nil {
		return
	}
	key := string(kind) + "/" + id
	if !slices.Contains(e.reads.Weighed, key) {
		e.reads.Weighed = append(e.reads.Weighed, key)
	}
}

// weighAll records that the evaluation read the prices of every entry of
// kind.
func (e *evaluator) weighAll(kind catalog.Kind) {
	for _, id := range e.cat.IDs(kind) {
		e.weigh(kind, id)
	}
}

// finishReads sorts what the evaluation of s read and finds the rate that
// converted each weighed cloud offer's catalog price (orig) into the
// scenario's currency (eff: the catalog the evaluation read).
func finishReads(pr *PriceReads, s *scenario.Scenario, orig, eff *catalog.Catalog) {
	if pr == nil {
		return
	}
	slices.Sort(pr.Weighed)
	c := pr.Cloud
	if c != nil && (math.IsInf(c.Best, 0) || math.IsNaN(c.Best)) {
		c.Fallback = true
	}
	if c == nil || c.Pinned || c.Fallback {
		return
	}
	for id, w := range c.Work {
		b, ok := eff.CloudOffer(id)
		if !ok || math.IsInf(w, 0) || math.IsNaN(w) {
			c.Fallback = true // cannot tell: every offer's price matters
			return
		}
		if b.FromCurrency != "" {
			if c.Scale == nil {
				c.Scale = map[string]float64{}
			}
			conv, ok := orig.RateTo(b.FromCurrency, s.Currency, givenRates(s))
			if !ok {
				c.Fallback = true
				return
			}
			c.Scale[id] = conv.Rate
		}
	}
}
