package catalog

import (
	"bytes"
	"errors"
	"math"
	"slices"
	"sort"
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

// The embedded rate table holds the ECB euro foreign-exchange reference
// rates of 28 February 2025 (ecb.europa.eu euro_reference_exchange_rates;
// as reproduced at eurodripusa.net/?p=3470), for at least these.
func TestRateTableIsTheECBsOfOneDay(t *testing.T) {
	c := mustDefault(t)
	want := map[string]float64{"EUR": 1, "USD": 1.0411, "GBP": 0.82608, "CHF": 0.9394, "JPY": 156.96, "SEK": 11.1880,
		"NOK": 11.7245, "DKK": 7.4583, "PLN": 4.1503, "CZK": 25.029, "CAD": 1.5019, "AUD": 1.6741, "INR": 90.9710, "CNY": 7.5782}
	for cur, per := range want {
		r, ok := c.rate(cur)
		if !ok {
			t.Errorf("no rate for %s", cur)
			continue
		}
		if r.PerEUR != per || r.AsOf != "2025-02-28" {
			t.Errorf("%s: %v per EUR as of %s, want %v as of 2025-02-28", cur, r.PerEUR, r.AsOf, per)
		}
	}
}

func TestRateToCrossesThroughTheEuro(t *testing.T) {
	c := mustDefault(t)
	v, ok := c.RateTo("USD", "EUR", nil)
	if !ok || math.Abs(v.Rate-1/1.0411) > 1e-12 || v.Given {
		t.Errorf("USD→EUR = %+v, want 1/1.0411", v)
	}
	v, ok = c.RateTo("USD", "GBP", nil)
	if !ok || math.Abs(v.Rate-0.82608/1.0411) > 1e-12 {
		t.Errorf("USD→GBP = %+v, want 0.82608/1.0411", v)
	}
	if !strings.Contains(v.Describe(), "cross rate through EUR") || !strings.Contains(v.Describe(), "2025-02-28") {
		t.Errorf("Describe = %q", v.Describe())
	}
	v, ok = c.RateTo("USD", "EUR", []GivenRate{{Currency: "USD", Rate: 0.9, AsOf: "2026-10-01", Source: "treasury"}})
	if !ok || v.Rate != 0.9 || !v.Given || !strings.Contains(v.Describe(), "the scenario's own rate") {
		t.Errorf("a given rate: %+v", v)
	}
	if _, ok := c.RateTo("USD", "XYZ", nil); ok {
		t.Error("a rate to a currency the table lacks")
	}
	if v, ok := c.RateTo("USD", "XYZ", []GivenRate{{Currency: "USD", Rate: 3}}); !ok || v.Rate != 3 {
		t.Errorf("a given rate to a currency the table lacks: %+v %v", v, ok)
	}
}

func TestInCurrencyConvertsEveryPrice(t *testing.T) {
	c := mustDefault(t)
	var was bytes.Buffer
	if err := c.ExportCSV(&was); err != nil {
		t.Fatal(err)
	}
	same, convs, err := c.InCurrency("USD", nil)
	if err != nil {
		t.Fatal(err)
	}
	// The table's partitions in EUR (ULHPC) are converted even in USD.
	if same == c || len(convs) != 1 || convs[0].From != "EUR" {
		t.Fatalf("USD: conversions %+v", convs)
	}
	eur, convs, err := c.InCurrency("EUR", nil)
	if err != nil {
		t.Fatal(err)
	}
	k := 1 / 1.0411
	if len(convs) != 1 || convs[0].From != "USD" || math.Abs(convs[0].Rate-k) > 1e-15 {
		t.Fatalf("EUR: conversions %+v", convs)
	}
	near := func(what string, got, want float64) {
		t.Helper()
		if math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("%s = %v, want %v", what, got, want)
		}
	}
	for i, o := range c.Cloud {
		e := eur.Cloud[i]
		near(o.ID+" on_demand", e.OnDemand, o.OnDemand*k)
		near(o.ID+" spot", e.Spot, o.Spot*k)
		near(o.ID+" commit_1y", e.Commit1Y, o.Commit1Y*k)
		near(o.ID+" commit_3y", e.Commit3Y, o.Commit3Y*k)
		if e.FromCurrency != "USD" || e.GPUsPerNode != o.GPUsPerNode || e.NetworkGBsPerGPU != o.NetworkGBsPerGPU {
			t.Errorf("%s: %+v", o.ID, e)
		}
	}
	near("node price", eur.Nodes[0].Price, c.Nodes[0].Price*k)
	near("electricity", eur.Site.ElectricityPerKWh, c.Site.ElectricityPerKWh*k)
	near("staff", eur.Site.StaffCostPerFTE, c.Site.StaffCostPerFTE*k)
	near("egress", eur.Data[0].EgressPerGB, c.Data[0].EgressPerGB*k)
	near("managed out", eur.Managed[0].PriceOutPerM, c.Managed[0].PriceOutPerM*k)
	if eur.Site.PUE != c.Site.PUE || eur.Nodes[0].PowerKWMax != c.Nodes[0].PowerKWMax {
		t.Error("a figure that is not money changed")
	}
	for i, p := range c.HPC {
		e := eur.HPC[i]
		want := p.PricePerGPUHour
		if p.Currency == "USD" {
			want *= k
		}
		near(p.ID+" price", e.PricePerGPUHour, want)
		if e.Currency != "EUR" {
			t.Errorf("%s: currency %s after conversion", p.ID, e.Currency)
		}
	}
	// The catalog converted from is left alone: the copies share only
	// what they do not change.
	var is bytes.Buffer
	if err := c.ExportCSV(&is); err != nil {
		t.Fatal(err)
	}
	if c.Cloud[0].FromCurrency != "" || c.HPC[0].Currency == "" || !bytes.Equal(was.Bytes(), is.Bytes()) {
		t.Error("InCurrency changed its receiver")
	}
	for _, p := range c.HPC {
		if p.FromCurrency != "" {
			t.Errorf("InCurrency marked the receiver's partition %s converted", p.ID)
		}
	}
	if &same.GPUs[0] != &c.GPUs[0] || &same.Cloud[0] != &c.Cloud[0] || &same.HPC[0] == &c.HPC[0] {
		t.Error("USD: the copy should share the GPUs and cloud offers (nothing converted) and own its partitions")
	}
	_, _, err = c.InCurrency("XYZ", nil)
	var nr *NoRateError
	if !errors.As(err, &nr) || !slices.Contains(nr.Allowed, "EUR") || !strings.Contains(nr.AllowedText(), "exchange_rates") {
		t.Errorf("XYZ: %v", err)
	}
}

// An override row sets a rate like any other figure, with its own date
// and source, and the conversion follows it.
func TestRateOverride(t *testing.T) {
	c := mustDefault(t)
	o, err := ParseOverridesCSV(strings.NewReader(OverridesHeader + "\nrate,USD,per_eur,1.25,2026-10-01,central bank\n"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := c.Apply(o)
	if err != nil {
		t.Fatal(err)
	}
	v, _ := out.RateTo("USD", "EUR", nil)
	if v.Rate != 1/1.25 || v.AsOf != "2026-10-01" || !strings.Contains(v.Source, "central bank") {
		t.Errorf("after the override: %+v", v)
	}
	bad, _ := ParseOverridesCSV(strings.NewReader(OverridesHeader + "\nrate,USD,per_eur,0,2026-10-01,x\n"))
	if len(bad.Rows) != 0 {
		t.Error("a zero rate parsed")
	}
}

// Every catalog figure bounded as a price (a range whose meaning speaks of
// any currency) is converted, and nothing else is.
func TestMoneyFieldsAreThePrices(t *testing.T) {
	var prices, money []string
	priceWhy := map[string]bool{}
	for _, path := range []string{"cloud.on_demand", "node.price", "managed.price_in_per_m"} {
		k, f, _ := strings.Cut(path, ".")
		r, _ := scenario.CatalogBound(k, f)
		priceWhy[r.Why] = true
	}
	for _, b := range scenario.CatalogBounds() {
		if priceWhy[b.Why] {
			prices = append(prices, b.Path)
		}
	}
	for k, fs := range moneyFields {
		for _, f := range fs {
			money = append(money, k+"."+f)
		}
	}
	sort.Strings(prices)
	sort.Strings(money)
	if !slices.Equal(prices, money) {
		t.Errorf("priced fields %v\nconverted fields %v", prices, money)
	}
}
