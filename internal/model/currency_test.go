package model

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// entersMoney reports whether s sets an amount of money itself (in its
// own currency, so not converted).
func entersMoney(s *scenario.Scenario) bool {
	o := s.Options
	for _, v := range []scenario.Value{o.Managed.PriceInPerM, o.Managed.PriceOutPerM, o.Cloud.PricePerGPUHr, o.Cloud.StorageGBMonth,
		o.Cloud.EgressPerGB, o.OnPrem.ElectricityKWh, o.OnPrem.LeasePerNodeMonth, o.OnPrem.NodePrice, o.HPC.PricePerGPUHr,
		s.Dimensions.Economics.BudgetCap} {
		if v.IsSet() {
			return true
		}
	}
	return len(s.PriceOverrides) > 0
}

// plain is base with no price of its own and an estimate to draw.
func plain() *scenario.Scenario {
	s := base()
	s.Options.Cloud.PricePerGPUHr = scenario.Value{}
	s.Workload.MFU = scenario.Estimate(0.3, 0.4, 0.5)
	return s
}

// inEUR is a copy of s in euros.
func inEUR(s *scenario.Scenario) *scenario.Scenario {
	e := *s
	e.Currency = "EUR"
	return &e
}

func relNear(a, b float64) bool {
	return a == b || math.Abs(a-b) <= 1e-9*math.Max(math.Abs(a), math.Abs(b))
}

// A scenario in euros that enters no price of its own costs what it costs
// in dollars times the catalog's rate, in every direction: cost per run,
// fixed cost, horizon cost, every cost driver and the break-even traffic.
// The ECB rate of 2025-02-28: 1.0411 USD per EUR.
func TestEURCostsAreUSDCostsTimesTheRate(t *testing.T) {
	usdPerEUR := 1.0411
	k := 1 / usdPerEUR
	n, compared := 0, 0
	for _, s := range costScenarios(t) {
		if s.Currency != "USD" || entersMoney(s) {
			continue
		}
		n++
		usd, eur := eval(t, s), eval(t, inEUR(s))
		if eur.Currency != "EUR" || len(eur.ExchangeRates) == 0 {
			t.Fatalf("%s: currency %s, rates %+v", s.ID, eur.Currency, eur.ExchangeRates)
		}
		for i, d := range usd.Directions {
			e := eur.Directions[i]
			if d.Feasible != e.Feasible || d.Offer != e.Offer || d.GPUs != e.GPUs || d.CostModel != e.CostModel {
				t.Errorf("%s %s: the plan changed with the currency: %v %s %d → %v %s %d", s.ID, d.Direction, d.Feasible, d.Offer, d.GPUs, e.Feasible, e.Offer, e.GPUs)
				continue
			}
			for _, f := range []struct {
				what     string
				usd, eur float64
			}{
				{"cost per run", d.CostPerRun, e.CostPerRun}, {"monthly fixed", d.MonthlyFixedCost, e.MonthlyFixedCost},
				{"one-off", d.OneOffCost, e.OneOffCost}, {"horizon", d.CostHorizon, e.CostHorizon},
				{"variable price", d.VariablePricePerGPUHour, e.VariablePricePerGPUHour},
			} {
				if !relNear(f.usd*k, f.eur) {
					t.Errorf("%s %s: %s %v EUR, want %v USD × %v = %v", s.ID, d.Direction, f.what, f.eur, f.usd, k, f.usd*k)
				}
			}
			for _, in := range e.CostInputs {
				if in.FromCurrency == "" {
					continue
				}
				if !relNear(d.Drivers[in.Driver]*k, in.Value) {
					t.Errorf("%s %s: driver %s %v EUR, want %v USD × rate", s.ID, d.Direction, in.Name, in.Value, d.Drivers[in.Driver])
				}
			}
		}
		// Break-even points are ratios of money: the same in any currency.
		uc, ec := usd.Comparisons, eur.Comparisons
		if len(uc.BreakEvenMonths) != len(ec.BreakEvenMonths) || len(uc.Traffic) != len(ec.Traffic) {
			t.Errorf("%s: break-even points %+v → %+v", s.ID, uc, ec)
			continue
		}
		compared += len(uc.BreakEvenMonths)
		for i, b := range uc.BreakEvenMonths {
			if e := ec.BreakEvenMonths[i]; e.Cheaper != b.Cheaper || e.Than != b.Than || !relNear(e.Month, b.Month) {
				t.Errorf("%s: break-even %+v in USD, %+v in EUR", s.ID, b, e)
			}
		}
		if (uc.Utilisation == nil) != (ec.Utilisation == nil) || uc.Utilisation != nil && !relNear(uc.Utilisation.Utilisation, ec.Utilisation.Utilisation) {
			t.Errorf("%s: break-even utilisation %+v → %+v", s.ID, uc.Utilisation, ec.Utilisation)
		}
		for i, b := range uc.Traffic {
			if e := ec.Traffic[i]; !relNear(e.MeanRPS, b.MeanRPS) {
				t.Errorf("%s: traffic break-even %+v in USD, %+v in EUR", s.ID, b, e)
			}
		}
	}
	if n < 3 || compared == 0 {
		t.Fatalf("only %d scenarios enter no money of their own, with %d break-even months", n, compared)
	}
}

// The Monte Carlo draws are in the scenario's currency too.
func TestEURSpreadIsUSDSpreadTimesTheRate(t *testing.T) {
	usdPerEUR := 1.0411
	s := plain()
	s.Seed = 7
	usd, err := Analyze(context.Background(), s, cat(t), 300)
	if err != nil {
		t.Fatal(err)
	}
	eur, err := Analyze(context.Background(), inEUR(s), cat(t), 300)
	if err != nil {
		t.Fatal(err)
	}
	for dir, u := range usd.Uncertainty.Directions {
		e := eur.Uncertainty.Directions[dir]
		if u.Direction == scenario.Cloud && u.CostP10 == u.CostP90 {
			t.Errorf("%s: no spread to compare", u.Direction)
		}
		if !relNear(u.CostP50/usdPerEUR, e.CostP50) || !relNear(u.CostP90/usdPerEUR, e.CostP90) {
			t.Errorf("%s: P50 %v / P90 %v EUR, USD %v / %v", u.Direction, e.CostP50, e.CostP90, u.CostP50, u.CostP90)
		}
	}
	if !relNear(usd.Tornado.Base/usdPerEUR, eur.Tornado.Base) {
		t.Errorf("tornado base %v EUR, USD %v", eur.Tornado.Base, usd.Tornado.Base)
	}
}

// An HPC partition priced in euros, in a scenario in dollars, is
// converted at the catalog's rate (ULHPC: 1.92 EUR per GPU-hour).
func TestPartitionInEurosConverted(t *testing.T) {
	s := base()
	s.Options.HPC.Partition = "ulhpc-v100"
	r := eval(t, s)
	h := r.Direction(scenario.HPC)
	if want := 1.92 * 1.0411; !relNear(h.VariablePricePerGPUHour, want) {
		t.Errorf("ULHPC at %v USD per GPU-hour, want 1.92 EUR × 1.0411 = %v", h.VariablePricePerGPUHour, want)
	}
	if !strings.Contains(strings.Join(NoteTexts(h.Notes), "\n"), "catalog prices converted from EUR at 1.0411 USD per EUR, the catalog's rate as of 2025-02-28") {
		t.Errorf("notes %q", NoteTexts(h.Notes))
	}
	for _, w := range r.Warnings {
		if w.Code == NotePartitionCurrency {
			t.Errorf("warning %q with a rate for EUR", w.Text)
		}
	}
	// A partition in a currency without a rate keeps the warning.
	c, err := cat(t).Apply(catalog.Overrides{Rows: []catalog.OverrideRow{{Kind: "hpc", ID: "ulhpc-v100", Field: "currency", Value: "XTS", AsOf: "2026-10-01", Source: "test"}}})
	if err != nil {
		t.Fatal(err)
	}
	r, err = Evaluate(s, c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(NoteTexts(r.Warnings), "\n"), "priced in XTS; the scenario is in USD and no exchange rate converts it") {
		t.Errorf("warnings %q", NoteTexts(r.Warnings))
	}
}

// The scenario's own rate wins over the table, and says so.
func TestScenarioRateOverridesTheTable(t *testing.T) {
	s := inEUR(plain())
	s.ExchangeRates = []scenario.ExchangeRate{{Currency: "USD", Rate: 0.5, AsOf: "2026-10-01", Source: "treasury forecast"}}
	usd, eur := eval(t, plain()), eval(t, s)
	c, e := usd.Direction(scenario.Cloud), eur.Direction(scenario.Cloud)
	if !relNear(c.VariablePricePerGPUHour*0.5, e.VariablePricePerGPUHour) || !relNear(c.CostHorizon*0.5, e.CostHorizon) {
		t.Errorf("at 0.5 EUR per USD: %v / %v EUR, USD %v / %v", e.VariablePricePerGPUHour, e.CostHorizon, c.VariablePricePerGPUHour, c.CostHorizon)
	}
	if len(eur.ExchangeRates) != 1 || !eur.ExchangeRates[0].Given || eur.ExchangeRates[0].Rate != 0.5 {
		t.Errorf("rates %+v", eur.ExchangeRates)
	}
	if !strings.Contains(strings.Join(NoteTexts(e.Notes), "\n"), "converted from USD at 0.5 EUR per USD, the scenario's own rate as of 2026-10-01 — treasury forecast") {
		t.Errorf("notes %q", NoteTexts(e.Notes))
	}
}

// A rate from the catalog overrides (the CSV a user imports) applies, with
// its own date and source.
func TestOverriddenRateApplies(t *testing.T) {
	o, err := catalog.ParseOverridesCSV(strings.NewReader(catalog.OverridesHeader + "\nrate,USD,per_eur,1.25,2026-10-01,bank quote\n"))
	if err != nil {
		t.Fatal(err)
	}
	c, err := cat(t).Apply(o)
	if err != nil {
		t.Fatal(err)
	}
	usd := eval(t, plain())
	eur, err := Evaluate(inEUR(plain()), c)
	if err != nil {
		t.Fatal(err)
	}
	u, e := usd.Direction(scenario.OnPrem), eur.Direction(scenario.OnPrem)
	if !relNear(u.CostHorizon/1.25, e.CostHorizon) {
		t.Errorf("on-prem %v EUR at 1.25 USD per EUR, USD %v", e.CostHorizon, u.CostHorizon)
	}
	if x := eur.ExchangeRates; len(x) != 1 || x[0].AsOf != "2026-10-01" || x[0].Source != "bank quote" || x[0].Rate != 1/1.25 {
		t.Errorf("rates %+v", x)
	}
	// The same through the scenario's own price_overrides.
	s := inEUR(plain())
	s.PriceOverrides = []scenario.PriceOverride{{Kind: "rate", ID: "USD", Field: "per_eur", Value: "1.25", AsOf: "2026-10-01", Source: "bank quote"}}
	if r := eval(t, s); !relNear(r.Direction(scenario.OnPrem).CostHorizon, e.CostHorizon) {
		t.Errorf("a rate in price_overrides: %v EUR, want %v", r.Direction(scenario.OnPrem).CostHorizon, e.CostHorizon)
	}
}

// A currency the catalog has no rate for is refused, naming currency and
// what is allowed; the scenario's own rate for USD makes it valid.
func TestUnknownCurrencyRefused(t *testing.T) {
	s := base()
	s.Currency = "XTS"
	_, err := Evaluate(s, cat(t))
	var fe scenario.Errors
	if !errors.As(err, &fe) || len(fe) != 1 || fe[0].Path != "currency" ||
		!strings.Contains(fe[0].Problem, "no exchange rate converts them into XTS") ||
		!strings.Contains(fe[0].Allowed, "CHF, CNY, CZK, DKK, EUR, GBP") || !strings.Contains(fe[0].Allowed, "or an exchange_rates entry for USD") {
		t.Fatalf("XTS: %v", err)
	}
	if got := CurrencyProblems(s, cat(t)); len(got) != 1 || got[0] != fe[0] {
		t.Errorf("CurrencyProblems = %v, Evaluate %v", got, fe)
	}
	if _, err := Analyze(context.Background(), s, cat(t), 10); !errors.As(err, &fe) {
		t.Errorf("Analyze: %v", err)
	}
	s.ExchangeRates = []scenario.ExchangeRate{{Currency: "USD", Rate: 2}}
	r := eval(t, s)
	if r.Currency != "XTS" || CurrencyProblems(s, cat(t)) != nil {
		t.Errorf("with its own rate: %s %v", r.Currency, CurrencyProblems(s, cat(t)))
	}
}

// The scenario's rates are checked like any field.
func TestExchangeRatesValidated(t *testing.T) {
	s := inEUR(base())
	s.ExchangeRates = []scenario.ExchangeRate{{Currency: "usd", Rate: 1}, {Currency: "EUR", Rate: 1}, {Currency: "GBP", Rate: 0},
		{Currency: "GBP", Rate: 1.2, AsOf: "soon"}}
	errs := scenario.Validate(s)
	want := []string{
		`exchange_rates[0].currency: "usd" is not a currency code`,
		`exchange_rates[1].currency: EUR is the scenario's own currency`,
		`exchange_rates[3].currency: GBP also has a rate in exchange_rates[2]`,
		`exchange_rates[3].as_of: "soon" is not a date`,
		`exchange_rates[2].rate: 0 is out of range`,
	}
	for _, w := range want {
		if !strings.Contains(errs.Error(), w) {
			t.Errorf("%v\ndoes not say %q", errs, w)
		}
	}
}
