package catalog

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"hostplan/internal/scenario"
)

// PriceCurrency is the currency of the catalog's prices; an HPC partition
// states its own (Partition.Currency).
const PriceCurrency = "USD"

// BaseCurrency is the currency the rate table quotes every other against
// (the ECB's euro reference rates).
const BaseCurrency = "EUR"

// moneyFields are the fields of each kind that hold an amount of money:
// what InCurrency converts. Every catalog bound whose meaning speaks of a
// currency is one of them (TestMoneyFieldsAreThePrices).
var moneyFields = map[string][]string{
	"cloud":   {"on_demand", "commit_1y", "commit_3y", "spot"},
	"data":    {"storage_per_gb_month", "egress_per_gb"},
	"node":    {"price"},
	"site":    {"electricity_per_kwh", "colo_per_kw_month", "staff_cost_per_fte_year"},
	"hpc":     {"price_per_gpu_hour", "external_price_per_gpu_hour"},
	"managed": {"price_in_per_m", "price_out_per_m", "train_per_m_tokens", "gpu_hour_price"},
}

// IsMoney reports whether field of kind is an amount of money, which
// InCurrency converts.
func IsMoney(kind, field string) bool {
	for _, f := range moneyFields[kind] {
		if f == field {
			return true
		}
	}
	return false
}

// HasMoney reports whether kind has fields that hold money (IsMoney).
func HasMoney(kind string) bool { return len(moneyFields[kind]) > 0 }

// A GivenRate is an exchange rate a scenario sets itself: Rate units of
// the scenario's currency per unit of Currency.
type GivenRate struct {
	Currency     string
	Rate         float64
	AsOf, Source string
}

// Conversion is one rate InCurrency converted prices with: Rate units of
// To per unit of From, from the rate table (a cross rate through the euro
// unless one side is the euro) or from the scenario (Given).
type Conversion struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Rate   float64 `json:"rate"`
	AsOf   string  `json:"as_of"`
	Source string  `json:"source"`
	Given  bool    `json:"given"` // the scenario's own rate
}

// Describe says the conversion in words: "0.960523 EUR per USD, the
// catalog's rate as of 2025-02-28 — ECB euro foreign exchange reference
// rates of 28 February 2025 (…)".
func (v Conversion) Describe() string {
	how := "the catalog's rate"
	switch {
	case v.Given:
		how = "the scenario's own rate"
	case v.From != BaseCurrency && v.To != BaseCurrency:
		how = "a cross rate through EUR of the catalog's rates"
	}
	s := fmt.Sprintf("%s %s per %s, %s", scenario.Num(roundRate(v.Rate)), v.To, v.From, how)
	if v.AsOf != "" {
		s += " as of " + v.AsOf
	}
	if v.Source != "" {
		s += " — " + v.Source
	}
	return s
}

// roundRate keeps six significant digits of a rate for words.
func roundRate(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return y
}

// RateTo returns the rate that converts an amount in from into to, and
// whether there is one: a scenario's own rate for from wins; otherwise the
// table's rates of both, crossed through the euro. A currency to itself
// is 1.
func (c *Catalog) RateTo(from, to string, given []GivenRate) (Conversion, bool) {
	if from == to {
		return Conversion{From: from, To: to, Rate: 1}, true
	}
	for _, g := range given {
		if g.Currency == from {
			return Conversion{From: from, To: to, Rate: g.Rate, AsOf: g.AsOf, Source: g.Source, Given: true}, true
		}
	}
	f, okf := c.rate(from)
	t, okt := c.rate(to)
	if !okf || !okt || f.PerEUR <= 0 || t.PerEUR <= 0 {
		return Conversion{}, false
	}
	// Units of to per euro over units of from per euro.
	v := Conversion{From: from, To: to, Rate: t.PerEUR / f.PerEUR, AsOf: OldestAsOf(f.Entry, t.Entry), Source: f.Source}
	// The euro's own entry is 1 by definition: its date and source say
	// nothing about the rate.
	switch BaseCurrency {
	case from:
		v.AsOf, v.Source = t.AsOf, t.Source
	case to:
		v.AsOf = f.AsOf
	}
	return v, true
}

func (c *Catalog) rate(cur string) (Rate, bool) {
	return find(c.Rates, func(r *Rate) string { return r.Currency }, cur)
}

// Currencies lists the currencies the rate table converts between, in
// alphabetical order.
func (c *Catalog) Currencies() []string {
	out := make([]string, 0, len(c.Rates))
	for _, r := range c.Rates {
		out = append(out, r.Currency)
	}
	sort.Strings(out)
	return out
}

// KnownCurrencies lists the currencies the catalog knows, in alphabetical
// order: its prices' (PriceCurrency), its rate table's and its HPC
// partitions'. A scenario's own exchange rate converts from one of them.
func (c *Catalog) KnownCurrencies() []string {
	out := append(c.Currencies(), PriceCurrency)
	for _, p := range c.HPC {
		if p.Currency != "" {
			out = append(out, p.Currency)
		}
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// NoRateError is a scenario currency the catalog's prices cannot be
// converted into.
type NoRateError struct {
	From, To string
	Allowed  []string // the currencies the rate table holds
}

func (e *NoRateError) Error() string {
	return fmt.Sprintf("no exchange rate from %s to %s", e.From, e.To)
}

// AllowedText is what a scenario may do instead, for a message's
// "allowed:" part.
func (e *NoRateError) AllowedText() string {
	return strings.Join(e.Allowed, ", ") + ", or an exchange_rates entry for " + e.From
}

// InCurrency returns a copy of c with every price in currency to: the
// catalog's prices (PriceCurrency) and each HPC partition's (its own
// currency) multiplied by the rate RateTo finds, each converted entry
// marked with the currency it came from (Entry.FromCurrency), and the
// rates it used, by the currency converted from. A partition whose
// currency has no rate keeps its prices and currency (the model then
// leaves it out or says so); no rate for the catalog's own currency is a
// *NoRateError. A catalog in that currency already is c itself.
func (c *Catalog) InCurrency(to string, given []GivenRate) (*Catalog, []Conversion, error) {
	main, ok := c.RateTo(PriceCurrency, to, given)
	if !ok {
		return nil, nil, &NoRateError{From: PriceCurrency, To: to, Allowed: c.Currencies()}
	}
	needs := main.From != to
	for _, p := range c.HPC {
		needs = needs || p.Currency != to
	}
	if !needs {
		return c, nil, nil
	}
	// Only the kinds with a price to convert are copied (copyKind); the
	// others — the GPUs and models among them — are shared with c, which
	// nothing changes. An evaluation converts the catalog each time, and a
	// whole copy was a sixth of what it allocated.
	n := *c
	out := &n
	var convs []Conversion
	used := map[string]bool{}
	for _, k := range kinds {
		names := moneyFields[string(k.name)]
		if len(names) == 0 {
			continue
		}
		copied := false
		vals := c.entries(k)
		for i := range vals {
			conv := main
			if k.name == "hpc" {
				var ok bool
				if conv, ok = c.RateTo(vals[i].Interface().(Partition).Currency, to, given); !ok {
					continue
				}
			}
			if conv.From == conv.To {
				continue
			}
			if !copied {
				out.copyKind(k)
				vals, copied = out.entries(k), true
			}
			v := vals[i]
			if k.name == "hpc" {
				v.Addr().Interface().(*Partition).Currency = to
			}
			for _, name := range names {
				f, _ := k.field(name)
				x := v.FieldByIndex(f.index)
				x.SetFloat(x.Float() * conv.Rate)
			}
			entryPtr(v).FromCurrency = conv.From
			if !used[conv.From] {
				used[conv.From] = true
				convs = append(convs, conv)
			}
		}
	}
	sort.Slice(convs, func(i, j int) bool { return convs[i].From < convs[j].From })
	return out, convs, nil
}

// currencyCode reports whether s is three capital letters.
func currencyCode(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, r := range s {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}
