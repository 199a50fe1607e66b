package ui

import (
	"math"
	"testing"

	"hostplan/internal/scenario"
)

func TestFormatNumber(t *testing.T) {
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
			if got := formatNumber(tc.x); got != tc.want {
				t.Errorf("formatNumber(%v) = %q, want %q", tc.x, got, tc.want)
			}
		})
	}
}

func TestFormatMoney(t *testing.T) {
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
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := formatMoney(tc.x, tc.currency); got != tc.want {
				t.Errorf("formatMoney(%v, %q) = %q, want %q", tc.x, tc.currency, got, tc.want)
			}
		})
	}
}

func TestFormatHours(t *testing.T) {
	for _, tc := range []struct {
		h    float64
		want string
	}{
		{0.25, "0.25"},
		{3.46, "3.5"},
		{99.94, "99.9"},
		{1240.4, "1,240"},
		{math.Inf(1), "—"},
	} {
		if got := formatHours(tc.h); got != tc.want {
			t.Errorf("formatHours(%v) = %q, want %q", tc.h, got, tc.want)
		}
	}
}

func TestFormatGPUs(t *testing.T) {
	for _, tc := range []struct {
		gpu  string
		n    int
		want string
	}{
		{"h100-sxm", 8, "h100-sxm × 8"},
		{"", 0, "—"},
		{"", 1, "1 GPU"},
		{"l40s", 0, "l40s"},
	} {
		if got := formatGPUs(tc.gpu, tc.n); got != tc.want {
			t.Errorf("formatGPUs(%q, %d) = %q, want %q", tc.gpu, tc.n, got, tc.want)
		}
	}
}

func TestFormatValue(t *testing.T) {
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
			if got := formatValue(tc.v); got != tc.want {
				t.Errorf("formatValue = %q, want %q", got, tc.want)
			}
		})
	}
	// Below 1,000 the text is exactly Value.String's.
	for _, v := range []scenario.Value{scenario.Known(0.45), scenario.Estimate(1, 2.5, 4), {}} {
		if got, want := formatValue(v), v.String(); got != want {
			t.Errorf("formatValue = %q, Value.String = %q", got, want)
		}
	}
	if got, want := formatMoneyValue(scenario.Known(5e5), "EUR"), "EUR 500,000"; got != want {
		t.Errorf("formatMoneyValue = %q, want %q", got, want)
	}
}

func TestWords(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{shapeTitle(scenario.ShapeFineTuning), "Fine-tuning"},
		{shapeTitle("protein_folding"), "Protein folding"},
		{directionTitle(scenario.OnPrem), "On-premises"},
		{humanize(""), "—"},
		{plural(1, "revision"), "1 revision"},
		{plural(1200, "revision"), "1,200 revisions"},
		{reasonsText(nil), ""},
		{reasonsText([]string{"too slow"}), "too slow"},
		{reasonsText([]string{"too slow", "too dear"}), "• too slow\n• too dear"},
		{itemDetail(Item{Shape: scenario.ShapeBatch, Revisions: 2}), "Batch inference · 2 revisions"},
		{itemName(Item{ID: "x1"}), "x1"},
		{sentence("could not load “x”: gone"), "Could not load “x”: gone"},
		{sentence(""), ""},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
