package present

import (
	"math"
	"testing"

	"hostplan/internal/scenario"
)

func TestNumber(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    float64
		want string
	}{
		{"zero", 0, "0"},
		{"small integer", 42, "42"},
		{"thousands", 1234, "1,234"},
		{"millions, no exponent", 2e6, "2,000,000"},
		{"fraction", 0.45, "0.45"},
		{"six significant digits", 1234.5678, "1,234.57"},
		{"tiny, no exponent", 1e-5, "0.00001"},
		{"negative", -12345.5, "-12,345.5"},
		{"NaN", math.NaN(), "—"},
		{"infinity", math.Inf(1), "—"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Number(tc.x); got != tc.want {
				t.Errorf("Number(%v) = %q, want %q", tc.x, got, tc.want)
			}
		})
	}
}

func TestFigure(t *testing.T) {
	for _, tc := range []struct {
		name string
		x    float64
		want string
	}{
		{"three significant digits", 0.062376, "0.0624"},
		{"one decimal in the tens", 15.63, "15.6"},
		{"whole number", 7, "7"},
		{"rounds up to 100", 99.96, "100"},
		{"whole from 100", 123.456, "123"},
		{"grouped, every whole digit kept", 1234.6, "1,235"},
		{"tiny, no exponent", 0.0000123456, "0.0000123"},
		{"negative", -2.3456, "-2.35"},
		{"infinity", math.Inf(-1), "—"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Figure(tc.x); got != tc.want {
				t.Errorf("Figure(%v) = %q, want %q", tc.x, got, tc.want)
			}
		})
	}
}

func TestFixedAndWhole(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Fixed(1234.5, 2), "1,234.50"},
		{Fixed(-0.001, 1), "0.0"}, // rounds to zero: no sign
		{Fixed(math.NaN(), 1), "—"},
		{Whole(1234567.8), "1,234,568"},
		{Whole(-2500.4), "-2,500"},
		{Whole(999.5), "1,000"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestMoney(t *testing.T) {
	for _, tc := range []struct {
		name     string
		x        float64
		currency string
		want     string
	}{
		{"whole units from 100", 1234567.89, "USD", "USD 1,234,568"},
		{"exactly 100", 100, "EUR", "EUR 100"},
		{"cents below 100", 3.2, "USD", "USD 3.20"},
		{"zero", 0, "USD", "USD 0.00"},
		{"negative", -2500, "GBP", "GBP -2,500"},
		{"negative rounding to zero", -0.001, "USD", "USD 0.00"},
		{"no currency", 999999, "", "999,999"},
		{"NaN", math.NaN(), "USD", "—"},
		{"yen have no minor units", 3.2, "JPY", "JPY 3"},
		{"yen in thousands", 1234567.89, "JPY", "JPY 1,234,568"},
		{"a yen price below one", 0.35, "JPY", "JPY 0.35"},
		{"francs", 87.5, "CHF", "CHF 87.50"},
		{"pounds", 1234.6, "GBP", "GBP 1,235"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Money(tc.x, tc.currency); got != tc.want {
				t.Errorf("Money(%v, %q) = %q, want %q", tc.x, tc.currency, got, tc.want)
			}
		})
	}
	if got := Amount(87.5); got != "87.50" {
		t.Errorf("Amount(87.5) = %q", got)
	}
}

func TestHours(t *testing.T) {
	for _, tc := range []struct {
		h    float64
		want string
	}{
		{0.25, "0.25"},
		{3.46, "3.5"},
		{99.94, "99.9"},
		{140, "140"},
		{1240.4, "1,240"},
		{math.Inf(1), "—"},
	} {
		if got := Hours(tc.h); got != tc.want {
			t.Errorf("Hours(%v) = %q, want %q", tc.h, got, tc.want)
		}
	}
}

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Percent(0.684), "68 %"},
		{Percent(1), "100 %"},
		{Percent(0.015), "2 %"},
		{PercentFixed(0.1234, 1), "12.3 %"},
		{Share(0.0123), "1.23 %"},
		{Share(0.4567), "45.7 %"},
		{Percent(math.NaN()), "—"},
		{Share(math.Inf(1)), "—"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestValue(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    scenario.Value
		want string
	}{
		{"unset", scenario.Value{}, "—"},
		{"known", scenario.Known(48), "48"},
		{"known, large", scenario.Known(2e6), "2,000,000"},
		{"estimate", scenario.Estimate(1.5, 2, 3), "2 (1.5–3, estimate)"},
		{"estimate, large", scenario.Estimate(8000, 10000, 15000), "10,000 (8,000–15,000, estimate)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Value(tc.v); got != tc.want {
				t.Errorf("Value = %q, want %q", got, tc.want)
			}
		})
	}
	// Below 1,000 the text is exactly Value.String's.
	for _, v := range []scenario.Value{scenario.Known(0.45), scenario.Estimate(1, 2.5, 4), {}} {
		if got, want := Value(v), v.String(); got != want {
			t.Errorf("Value = %q, Value.String = %q", got, want)
		}
	}
	if got, want := MoneyValue(scenario.Known(5e5), "EUR"), "EUR 500,000"; got != want {
		t.Errorf("MoneyValue = %q, want %q", got, want)
	}
	if got, want := MoneyValue(scenario.Value{}, "EUR"), "—"; got != want {
		t.Errorf("MoneyValue of nothing = %q, want %q", got, want)
	}
	if got, want := Range(scenario.Estimate(2e6, 3e6, 5e6)), "2,000,000–5,000,000"; got != want {
		t.Errorf("Range = %q, want %q", got, want)
	}
}

func TestCountAndGPUs(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{Count(1, "revision"), "1 revision"},
		{Count(0, "problem"), "0 problems"},
		{Count(4096, "GPU"), "4,096 GPUs"},
		{GPUs("h100-sxm", 8), "8 × h100-sxm"},
		{GPUs("", 0), "—"},
		{GPUs("", 1), "1 GPU"},
		{GPUs("l40s", 0), "l40s"},
		{YesNo(true), "Yes"},
		{YesNo(false), "No"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestTitles(t *testing.T) {
	for _, tc := range []struct {
		got, want string
	}{
		{DirectionTitle(scenario.OnPrem), "On-premises"},
		{DirectionTitle("edge_site"), "Edge site"},
		{ShapeTitle(scenario.ShapeTraining), "Training or simulation"},
		{Lower(ShapeTitle(scenario.ShapeInteractive)), "interactive inference"},
		{Lower(DirectionTitle(scenario.Cloud)), "cloud IaaS"},
		{Lower("HPC batch scheduling"), "HPC batch scheduling"},
		{Lower("LoRA"), "LoRA"},
		{Lower(""), ""},
		{DimensionTitle("workload_shape"), "Workload shape"},
		{DimensionTitle("sovereignty"), "Sovereignty"},
		{DimensionTitle("luck"), "Luck"},
		{MetricTitle("cost_horizon"), "Cost over the horizon"},
		{MetricTitle("time_p90"), "Time p90"},
		{Humanize("data_path"), "Data path"},
		{Humanize(""), "—"},
		{Sentence("évaluer"), "Évaluer"},
		{And(), ""},
		{And("1"), "1"},
		{And("1", "2"), "1 and 2"},
		{And("1", "2", "4"), "1, 2 and 4"},
		{ChoiceHelp("data.lifecycle[3].stage", "compute"), "Stage 5: the run itself."},
		{ChoiceHelp("data.lifecycle[].stage", "dispose"), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestConversion(t *testing.T) {
	if got := Conversion("USD", "EUR", 1/1.0411, "2025-02-28"); got != "prices in USD converted at 0.960523 EUR per USD (rate of 2025-02-28)" {
		t.Errorf("Conversion = %q", got)
	}
	if got := Conversion("EUR", "USD", 1.0411, ""); got != "prices in EUR converted at 1.0411 USD per EUR" {
		t.Errorf("Conversion without a date = %q", got)
	}
}

func TestLayout(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Layout(8, 2, 3, 16, 1.0/17, false), "tensor parallel 8 × pipeline 2 × data parallel 3, 16 micro-batches a step, bubble 6 %"},
		{Layout(4, 1, 2, 1, 0, false), "tensor parallel 4 × pipeline 1 × data parallel 2, 1 micro-batch a step, bubble 0 %"},
		{Layout(8, 2, 3, 1, 0, true), "replicas of tensor parallel 8 × pipeline 2 (16 GPUs each), 3 at the peak"},
	} {
		if c.got != c.want {
			t.Errorf("%q, want %q", c.got, c.want)
		}
	}
}

func TestSci(t *testing.T) {
	for x, want := range map[float64]string{4.2e23: "4.2e23", 1.23456e-9: "1.235e-9", 6.02214076e23: "6.022e23", 1234: "1,234"} {
		if got := Sci(x); got != want {
			t.Errorf("Sci(%v) = %q, want %q", x, got, want)
		}
	}
	if got := Sci(math.Inf(1)); got != NoValue {
		t.Errorf("Sci(+Inf) = %q, want %q", got, NoValue)
	}
}
