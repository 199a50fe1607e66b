package present

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// NoValue stands for a number that is missing or not meaningful (NaN or
// ±Inf never reach a reader).
const NoValue = "—"

func bad(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }

// Number writes x with up to six significant digits, thousands separators
// and no exponent: 2e6 → "2,000,000", 0.45 → "0.45", 1234.5678 →
// "1,234.57". It is the form of an input as the user gave it.
func Number(x float64) string { return sig(x, 6) }

// Figure writes a computed figure for reading: three significant digits
// below 100, whole numbers from 100, thousands separators and no exponent:
// 0.062376 → "0.0624", 15.63 → "15.6", 1234.5 → "1,235".
func Figure(x float64) string {
	if bad(x) {
		return NoValue
	}
	if math.Abs(x) >= 100 {
		return Fixed(x, 0)
	}
	return sig(x, 3)
}

// Sci writes a figure too large or small to read in full with four
// significant digits and an exponent: 4.2e23, 1.234e-9; one that reads in
// full with four digits (1,234) without.
func Sci(x float64) string {
	if bad(x) {
		return NoValue
	}
	g := strconv.FormatFloat(x, 'g', 4, 64)
	if !strings.Contains(g, "e") {
		return sig(x, 4) // small enough to read in full, grouped
	}
	r, _ := strconv.ParseFloat(g, 64)
	return num.Exp(r)
}

// sig rounds x to digits significant digits, then writes the rounded
// number in full.
func sig(x float64, digits int) string {
	if bad(x) {
		return NoValue
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', digits, 64), 64)
	return num.Group(strconv.FormatFloat(r, 'f', -1, 64))
}

// Fixed writes x with exactly decimals digits after the point and
// thousands separators: Fixed(1234.5, 2) → "1,234.50".
func Fixed(x float64, decimals int) string {
	if bad(x) {
		return NoValue
	}
	return num.Fixed(x, decimals)
}

// Whole writes x rounded to a whole number with thousands separators:
// 1234567.8 → "1,234,568".
func Whole(x float64) string { return Fixed(x, 0) }

// Amount writes an amount of money without its currency: whole units from
// 100 up ("12,345"), cents below ("3.20"), so a small per-run cost does
// not read as zero.
func Amount(x float64) string {
	if math.Abs(x) < 100 {
		return Fixed(x, 2)
	}
	return Fixed(x, 0)
}

// Money writes an amount with its currency code in front: "USD 12,345",
// "EUR 3.20", "JPY 3" (a currency without minor units has no cents,
// but below 1, which would read as nothing); Amount alone when the
// currency is empty.
func Money(x float64, currency string) string {
	a := Amount(x)
	if MinorDigits(currency) == 0 && math.Abs(x) >= 1 {
		a = Fixed(x, 0)
	}
	if currency == "" || a == NoValue {
		return a
	}
	return currency + " " + a
}

// MinorDigits is how many decimals an amount in currency is written
// with: 0 for the currencies without minor units in common use (ISO 4217
// exponent 0: JPY, KRW, ISK, …), 2 otherwise.
func MinorDigits(currency string) int {
	switch currency {
	case "JPY", "KRW", "ISK", "CLP", "VND", "PYG", "UGX", "XAF", "XOF":
		return 0
	}
	return 2
}

// Hours writes a duration in hours with a precision that suits its size:
// "0.25", "3.5", "1,240".
func Hours(h float64) string {
	switch a := math.Abs(h); {
	case a < 1:
		return Fixed(h, 2)
	case a < 100:
		return Fixed(h, 1)
	default:
		return Fixed(h, 0)
	}
}

// Percent writes a fraction as a whole percentage: 0.684 → "68 %".
func Percent(f float64) string { return PercentFixed(f, 0) }

// PercentFixed writes a fraction as a percentage with decimals digits
// after the point: PercentFixed(0.1234, 1) → "12.3 %".
func PercentFixed(f float64, decimals int) string {
	s := Fixed(f*100, decimals)
	if s == NoValue {
		return s
	}
	return s + " %"
}

// Share writes a fraction that may be small as a percentage with Figure's
// precision: 0.0123 → "1.23 %", 0.4567 → "45.7 %".
func Share(f float64) string {
	s := Figure(f * 100)
	if s == NoValue {
		return s
	}
	return s + " %"
}

// Value writes a scenario input as Number does: a known value as its
// number, an estimate as "likely (low–high, estimate)", an unset value as
// NoValue. Below 1,000 it reads exactly as scenario.Value.String.
func Value(v scenario.Value) string {
	if !v.IsSet() {
		return NoValue
	}
	if !v.IsEstimate() {
		return Number(v.Likely)
	}
	return fmt.Sprintf("%s (%s–%s, estimate)", Number(v.Likely), Number(v.Low), Number(v.High))
}

// MoneyValue is Value with the currency code in front.
func MoneyValue(v scenario.Value, currency string) string {
	if !v.IsSet() || currency == "" {
		return Value(v)
	}
	return currency + " " + Value(v)
}

// Range writes an estimate's range, "low–high".
func Range(v scenario.Value) string { return Number(v.Low) + "–" + Number(v.High) }

// Count writes a count with its noun: "1 revision", "3 revisions",
// "1,024 GPUs".
func Count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return num.Group(strconv.Itoa(n)) + " " + noun + "s"
}

// GPUs writes the accelerators a direction or a run uses, count first:
// "8 × h100-sxm"; "4 GPUs" without a type, the type alone without a count.
func GPUs(gpu string, n int) string {
	switch {
	case gpu == "" && n == 0:
		return NoValue
	case gpu == "":
		return Count(n, "GPU")
	case n == 0:
		return gpu
	default:
		return strconv.Itoa(n) + " × " + gpu
	}
}

// YesNo writes a flag.
func YesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}

// Conversion says how catalog prices were converted into a report's
// currency: "prices in USD converted at 0.960523 EUR per USD (rate of
// 2025-02-28)". The rate keeps six significant digits.
func Conversion(from, to string, rate float64, asOf string) string {
	s := fmt.Sprintf("prices in %s converted at %s %s per %s", from, strconv.FormatFloat(rate, 'g', 6, 64), to, from)
	if asOf != "" {
		s += " (rate of " + asOf + ")"
	}
	return s
}
