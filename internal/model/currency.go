package model

import (
	"sort"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// Currencies. The catalog's prices are published in USD (an HPC
// partition's in its own currency); the model converts every one into the
// scenario's currency where the catalog is read, once per evaluation
// (scenarioCatalog), so that every driver, cost, break-even and Monte
// Carlo draw is in the scenario's currency. The rates are the catalog's
// (the ECB euro reference rates of one day, crossed through the euro, or
// an override's), or the scenario's own exchange_rates, which win.
// Prices the scenario enters itself — options and price_overrides — are
// in its currency already and are not converted.

// ExchangeRate is one rate the report's prices were converted with: Rate
// units of To (the scenario's currency) per unit of From, as of AsOf,
// from Source; Given when the scenario set it.
type ExchangeRate struct {
	From   string  `json:"from"`
	To     string  `json:"to"`
	Rate   float64 `json:"rate"`
	AsOf   string  `json:"as_of"`
	Source string  `json:"source"`
	Given  bool    `json:"given"`
}

// givenRates are the scenario's own exchange rates.
func givenRates(s *scenario.Scenario) []catalog.GivenRate {
	if len(s.ExchangeRates) == 0 {
		return nil
	}
	out := make([]catalog.GivenRate, len(s.ExchangeRates))
	for i, x := range s.ExchangeRates {
		out[i] = catalog.GivenRate{Currency: x.Currency, Rate: x.Rate, AsOf: x.AsOf, Source: x.Source}
	}
	return out
}

// scenarioCatalog is cat as one evaluation of s reads it: the scenario's
// rate overrides applied, every price converted into its currency, then
// its price overrides (in its currency) applied. No rate for the
// catalog's currency is a field error of currency naming the currencies
// allowed.
func scenarioCatalog(s *scenario.Scenario, cat *catalog.Catalog) (*catalog.Catalog, error) {
	isRate := func(kind string) bool { return catalog.Kind(kind) == catalog.KindRate }
	cat, errs := cat.ApplyScenario(s.PriceOverrides, isRate)
	if errs != nil {
		return nil, errs
	}
	cat, _, err := cat.InCurrency(s.Currency, givenRates(s))
	if err != nil {
		return nil, CurrencyError(err)
	}
	if cat, errs = cat.ApplyScenario(s.PriceOverrides, func(kind string) bool { return !isRate(kind) }); errs != nil {
		return nil, errs
	}
	return cat, nil
}

// CurrencyError turns the error of catalog.InCurrency into the field
// error of currency that validation reports; other errors pass as they
// are.
func CurrencyError(err error) error {
	if nr, ok := err.(*catalog.NoRateError); ok {
		return scenario.Errors{{Path: "currency", Problem: "the catalog's prices are in " + nr.From + " and no exchange rate converts them into " + nr.To,
			Allowed: nr.AllowedText()}}
	}
	return err
}

// converted notes, once per direction and currency, that en's prices were
// converted into the scenario's currency, and keeps the rate for the
// report's ExchangeRates.
func (e *evaluator) converted(r *DirectionResult, en catalog.Entry) {
	from := en.FromCurrency
	if from == "" || r.quiet {
		return
	}
	if e.rates == nil {
		e.rates = map[string]ExchangeRate{}
	}
	x, ok := e.rates[from]
	if !ok {
		v, found := e.cat.RateTo(from, e.s.Currency, givenRates(e.s))
		if !found {
			return
		}
		x = ExchangeRate{From: v.From, To: v.To, Rate: v.Rate, AsOf: v.AsOf, Source: v.Source, Given: v.Given}
		e.rates[from] = x
	}
	text := "catalog prices converted from " + from + " at "
	for _, n := range r.Notes {
		if n.Code == NoteCurrencyConverted && strings.HasPrefix(n.Text, text) {
			return
		}
	}
	v := catalog.Conversion{From: x.From, To: x.To, Rate: x.Rate, AsOf: x.AsOf, Source: x.Source, Given: x.Given}
	r.note(NoteCurrencyConverted, []string{"currency", "exchange_rates"}, "%s%s", text, v.Describe())
}

// exchangeRates lists the rates the report used, by the currency
// converted from.
func (e *evaluator) exchangeRates() []ExchangeRate {
	out := make([]ExchangeRate, 0, len(e.rates))
	for _, x := range e.rates {
		out = append(out, x)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].From < out[j].From })
	return out
}

// CurrencyProblems is the field error of a scenario whose currency the
// catalog's prices cannot be converted into (with its own
// exchange_rates), or nil. A currency that is not a code at all is
// scenario.Validate's to report.
func CurrencyProblems(s *scenario.Scenario, cat *catalog.Catalog) scenario.Errors {
	if _, ok := cat.RateTo(catalog.PriceCurrency, s.Currency, givenRates(s)); ok || len(s.Currency) != 3 || strings.ToUpper(s.Currency) != s.Currency {
		return nil
	}
	_, _, err := cat.InCurrency(s.Currency, givenRates(s))
	if fe, ok := CurrencyError(err).(scenario.Errors); ok {
		return fe
	}
	return nil
}
