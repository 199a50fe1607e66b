package catalog

import (
	"errors"
	"fmt"

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
	var o Overrides
	for i, p := range prices {
		if keep == nil || keep(p.Kind) {
			o.Rows = append(o.Rows, OverrideRow{Kind: p.Kind, ID: p.ID, Field: p.Field, Value: p.Value, AsOf: p.AsOf, Source: p.Source, Line: i + 1})
		}
	}
	if len(o.Rows) == 0 {
		return c, nil
	}
	out, err := c.Apply(o)
	if err == nil {
		return out, nil
	}
	var oe OverrideErrors
	if !errors.As(err, &oe) {
		return c, scenario.Errors{{Path: "price_overrides", Problem: err.Error()}}
	}
	fe := make(scenario.Errors, 0, len(oe))
	for _, e := range oe {
		path := "price_overrides"
		if e.Line > 0 {
			path = fmt.Sprintf("price_overrides[%d]", e.Line-1)
		}
		fe = append(fe, scenario.FieldError{Path: path, Problem: e.Msg})
	}
	return c, fe
}
