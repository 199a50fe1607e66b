package catalog

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"hostplan/internal/scenario"
)

// ApplyScenario applies a scenario's own price overrides (its
// price_overrides) to c: those whose kind keep accepts, all of them when
// keep is nil. Row i of the list is price_overrides[i]: a bad row is a field
// error of that path, every bad row at once, and c is returned unchanged
// with them. This is the one place a scenario's prices become catalog
// rows; the model applies them (rates before the currency conversion, the
// rest after) and the planner's checks do.
func (c *Catalog) ApplyScenario(prices []scenario.PriceOverride, keep func(kind string) bool) (*Catalog, scenario.Errors) {
	var (
		o    Overrides
		bad  scenario.Errors
		seen = map[string]int{} // kind/id/field → index
	)
	for i, p := range prices {
		if keep == nil || keep(p.Kind) {
			row := OverrideRow{Kind: p.Kind, ID: p.ID, Field: p.Field, Value: p.Value, AsOf: p.AsOf, Source: p.Source, Line: i + 1}
			path := fmt.Sprintf("price_overrides[%d]", i)
			if m := row.future(); m != "" {
				bad = append(bad, scenario.FieldError{Path: path, Problem: m})
			}
			if j, dup := seen[row.key()]; dup {
				bad = append(bad, scenario.FieldError{Path: path, Problem: row.twice(fmt.Sprintf("in price_overrides[%d]", j))})
				continue
			}
			seen[row.key()] = i
			o.Rows = append(o.Rows, row)
		}
	}
	if len(o.Rows) == 0 {
		return c, bad
	}
	out, err := c.Apply(o)
	if err == nil && bad == nil {
		return out, nil
	}
	var oe OverrideErrors
	if err != nil && !errors.As(err, &oe) {
		return c, append(bad, scenario.FieldError{Path: "price_overrides", Problem: err.Error()})
	}
	fe := make(scenario.Errors, 0, len(oe)+len(bad))
	for _, e := range oe {
		path := "price_overrides"
		if e.Line > 0 {
			path = fmt.Sprintf("price_overrides[%d]", e.Line-1)
		}
		fe = append(fe, scenario.FieldError{Path: path, Problem: e.Msg})
	}
	fe = append(fe, bad...)
	slices.SortStableFunc(fe, func(a, b scenario.FieldError) int { return cmp.Compare(rowOf(a.Path), rowOf(b.Path)) })
	return c, fe
}

// rowOf is the index in a path price_overrides[i]…, -1 for another.
func rowOf(path string) int {
	var i int
	if _, err := fmt.Sscanf(path, "price_overrides[%d]", &i); err != nil {
		return -1
	}
	return i
}
