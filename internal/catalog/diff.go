package catalog

import (
	"fmt"
	"sort"
	"strconv"
)

// Change is one difference between two catalogs, at the level of the
// override rows: an entry that appeared or went, or a field whose value
// moved.
type Change struct {
	Kind, ID, Field string
	// What happened: "added" (the entry is only in the newer catalog),
	// "removed" (only in the older), "changed" (a field's value).
	What     string
	Old, New string // the values as override rows write them ("" for an entry added or removed)
	// Rel is the relative move of a number (0.25: 25 % up), 0 when either
	// value is not a number or the old one is 0.
	Rel              float64
	OldAsOf, NewAsOf string
}

// Diff lists what changed from catalog a to catalog b: entries added and
// removed (one change each), then each field whose value differs, in
// catalog order; notes and sources are not compared, dates only with a
// value.
func Diff(a, b *Catalog) []Change {
	index := func(c *Catalog) (map[string]OverrideRow, []string, map[string]bool) {
		rows := map[string]OverrideRow{}
		var order []string
		entries := map[string]bool{}
		for _, r := range c.Rows("") {
			rows[r.key()] = r
			order = append(order, r.key())
			entries[r.entry()] = true
		}
		return rows, order, entries
	}
	ra, oa, ea := index(a)
	rb, ob, eb := index(b)
	var out []Change
	seen := map[string]bool{}
	entryChange := func(r OverrideRow, what string) {
		if !seen[r.entry()] {
			seen[r.entry()] = true
			c := Change{Kind: r.Kind, ID: r.ID, What: what}
			if what == "added" {
				c.NewAsOf = r.AsOf
			} else {
				c.OldAsOf = r.AsOf
			}
			out = append(out, c)
		}
	}
	for _, k := range ob {
		if r := rb[k]; !ea[r.entry()] {
			entryChange(r, "added")
		}
	}
	for _, k := range oa {
		if r := ra[k]; !eb[r.entry()] {
			entryChange(r, "removed")
		}
	}
	for _, k := range oa {
		x, y := ra[k], rb[k]
		if !eb[x.entry()] || x.Field == "note" || x.Value == y.Value {
			continue
		}
		c := Change{Kind: x.Kind, ID: x.ID, Field: x.Field, What: "changed", Old: x.Value, New: y.Value, OldAsOf: x.AsOf, NewAsOf: y.AsOf}
		if p, err := strconv.ParseFloat(x.Value, 64); err == nil && p != 0 {
			if q, err := strconv.ParseFloat(y.Value, 64); err == nil {
				c.Rel = q/p - 1
			}
		}
		out = append(out, c)
	}
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].What) < rank(out[j].What) })
	return out
}

func rank(what string) int {
	switch what {
	case "changed":
		return 0
	case "added":
		return 1
	}
	return 2
}

// String words a change for a listing.
func (c Change) String() string {
	switch c.What {
	case "added":
		return fmt.Sprintf("%s %s: added (as of %s)", c.Kind, c.ID, c.NewAsOf)
	case "removed":
		return fmt.Sprintf("%s %s: removed", c.Kind, c.ID)
	}
	s := fmt.Sprintf("%s %s %s: %s → %s", c.Kind, c.ID, c.Field, c.Old, c.New)
	if c.Rel != 0 {
		s += fmt.Sprintf(" (%+.1f %%)", 100*c.Rel)
	}
	if c.OldAsOf != c.NewAsOf {
		s += fmt.Sprintf(", as of %s → %s", c.OldAsOf, c.NewAsOf)
	}
	return s
}
