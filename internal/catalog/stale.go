package catalog

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// StaleMonths is how much older than the catalog's newest price a figure
// may be before hostplan calls it stale: the report's stale_price note and
// catalog list --stale.
const StaleMonths = 12

// NewestPrice is the newest as_of among the catalog's prices (cloud
// offers, data prices, nodes, the site, HPC partitions, managed offers):
// the date the catalog in use speaks for. An override or an import dated
// later moves it; specifications (GPUs, models) do not count.
func (c *Catalog) NewestPrice() (time.Time, bool) {
	newest := c.Site.AsOf
	later := func(en Entry) {
		if en.AsOf > newest {
			newest = en.AsOf
		}
	}
	for i := range c.Cloud {
		later(c.Cloud[i].Entry)
	}
	for i := range c.Data {
		later(c.Data[i].Entry)
	}
	for i := range c.Nodes {
		later(c.Nodes[i].Entry)
	}
	for i := range c.HPC {
		later(c.HPC[i].Entry)
	}
	for i := range c.Managed {
		later(c.Managed[i].Entry)
	}
	d, err := time.Parse(time.DateOnly, newest)
	return d, err == nil
}

// priceKinds are the kinds whose figures are prices or site assumptions:
// what catalog list --stale reviews (a datasheet's date says nothing about
// how current a price is).
var priceKinds = []Kind{KindCloud, KindData, KindNode, KindSite, KindHPC, KindManaged, KindRate}

// Stale is every figure (number) of the catalog's price kinds dated more than
// StaleMonths before its newest price, oldest first, as override rows
// (each site figure by its own date), with that date.
func (c *Catalog) Stale() ([]OverrideRow, time.Time) {
	ref, ok := c.NewestPrice()
	if !ok {
		return nil, ref
	}
	limit := ref.AddDate(0, -StaleMonths, 0).Format(time.DateOnly)
	var out []OverrideRow
	for _, k := range priceKinds {
		for _, r := range c.Rows(k) {
			if r.AsOf < limit && isFigure(r.Value) {
				out = append(out, r)
			}
		}
	}
	sortRowsByDate(out)
	return out, ref
}

// sortRowsByDate orders rows by as_of, then as they came.
func sortRowsByDate(rows []OverrideRow) {
	slices.SortStableFunc(rows, func(a, b OverrideRow) int { return strings.Compare(a.AsOf, b.AsOf) })
}

// isFigure reports whether an override value is a number (or a
// low;likely;high estimate of numbers): a figure that can be out of date,
// not a name, a region or a note.
func isFigure(v string) bool {
	for _, part := range strings.Split(v, ";") {
		if _, err := strconv.ParseFloat(part, 64); err != nil {
			return false
		}
	}
	return v != ""
}
