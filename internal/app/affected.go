package app

// Which outcomes a change of prices can change: an outcome found on one
// catalog is also the outcome on another when every row that differs is a
// price the evaluation did not read, or a price of a cloud offer it
// weighed that stays above the one it took (model.PriceReads). Reprice
// then takes the outcome as it is instead of evaluating again.
// TestPriceReadsComplete moves every catalog price of the examples and
// checks that each outcome said to be unaffected is the one an evaluation
// finds.

import (
	"slices"

	"hostplan/internal/catalog"
)

// rowChange is a catalog row (kind, id, field) whose value or date
// differs between two catalogs.
type rowChange struct {
	kind      catalog.Kind
	id, field string
	// dateOnly: only the date differs — an entry's date goes with all its
	// fields, so a new price dates its offer's specifications too.
	dateOnly bool
}

// catalogChanges lists the rows whose value or date differ between a and
// b (notes and sources are not read by the model's numbers), and whether
// an entry is in one and not the other.
func catalogChanges(a, b *catalog.Catalog) (changes []rowChange, entries bool) {
	type row struct{ value, asOf string }
	index := func(c *catalog.Catalog) (map[[3]string]row, map[[2]string]bool) {
		rows, ents := map[[3]string]row{}, map[[2]string]bool{}
		for _, r := range c.Rows("") {
			if r.Field == "note" {
				continue
			}
			rows[[3]string{r.Kind, r.ID, r.Field}] = row{r.Value, r.AsOf}
			ents[[2]string{r.Kind, r.ID}] = true
		}
		return rows, ents
	}
	ra, ea := index(a)
	rb, eb := index(b)
	for e := range ea {
		entries = entries || !eb[e]
	}
	for e := range eb {
		entries = entries || !ea[e]
	}
	add := func(k [3]string, dateOnly bool) {
		changes = append(changes, rowChange{catalog.Kind(k[0]), k[1], k[2], dateOnly})
	}
	for k, x := range ra {
		if y, ok := rb[k]; !ok || x != y {
			add(k, ok && x.value == y.value)
		}
	}
	for k := range rb {
		if _, ok := ra[k]; !ok {
			add(k, false)
		}
	}
	return changes, entries
}

// scaleMargin is how far above the taken offer's price × work another
// offer's must be to be sure it still loses: the choice compared prices
// converted into the scenario's currency, which this recomputes to within
// rounding.
const scaleMargin = 1e-9

// unaffected reports whether o, an outcome found on one catalog, is also
// the outcome on other, which differs from it by changes (catalogChanges;
// no entry added or removed).
func unaffected(o *Outcome, changes []rowChange, other *catalog.Catalog) bool {
	if o == nil || o.Reads == nil {
		return false
	}
	for _, c := range changes {
		price := catalog.IsMoney(string(c.kind), c.field)
		if c.dateOnly && catalog.HasMoney(string(c.kind)) {
			// A date is read only with a price used: that entry's.
			if ch := o.Reads.Cloud; c.kind == catalog.KindCloud && (ch == nil || ch.Fallback || c.id == ch.Taken) ||
				slices.Contains(o.Reads.Weighed, string(c.kind)+"/"+c.id) {
				return false
			}
			continue
		}
		if !price {
			return false // a specification or a term: anything may follow from it
		}
		if c.kind != catalog.KindCloud {
			if slices.Contains(o.Reads.Weighed, string(c.kind)+"/"+c.id) {
				return false
			}
			continue
		}
		ch := o.Reads.Cloud
		switch {
		case ch == nil || ch.Fallback || c.id == ch.Taken || slices.Contains(ch.Unpriced, c.id):
			return false
		case ch.Pinned:
			continue // only the named offer's prices are read
		}
		w, weighed := ch.Work[c.id]
		if !weighed || w < 0 {
			continue // outside the residency or the homes, or it cannot hold the work
		}
		x, ok := other.CloudOffer(c.id)
		if !ok {
			return false
		}
		p, priced := x.Price(ch.Mode)
		if !priced {
			continue // it leaves the choice, which it did not win
		}
		scale, ok := ch.Scale[c.id]
		if !ok {
			scale = 1 // not converted
		}
		if !(p*scale*w > ch.Best*(1+scaleMargin)) {
			return false // it may now be the cheapest for the work
		}
	}
	return true
}
