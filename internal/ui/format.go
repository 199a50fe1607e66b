package ui

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"hostplan/internal/scenario"
)

// The helpers in this file turn numbers and codes into the text the window
// shows. They are pure functions so they can be tested without a display.

// noValue stands for a number that is missing or not meaningful.
const noValue = "—"

// formatNumber renders x with up to six significant digits, thousands
// separators and no exponent: 2e6 → "2,000,000", 0.45 → "0.45".
func formatNumber(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return noValue
	}
	// Round to six significant digits (as Value.String does), then print
	// the rounded number in full.
	r, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return groupDigits(strconv.FormatFloat(r, 'f', -1, 64))
}

// formatFixed renders x with exactly decimals digits after the point and
// thousands separators: formatFixed(1234.5, 2) → "1,234.50".
func formatFixed(x float64, decimals int) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return noValue
	}
	return groupDigits(strconv.FormatFloat(x, 'f', decimals, 64))
}

// groupDigits inserts a comma every three digits of the integer part of a
// plain decimal number ("-1234567.5" → "-1,234,567.5"). A negative number
// that rounds to zero loses its sign.
func groupDigits(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, hasFrac := strings.Cut(s, ".")
	if strings.Trim(whole+frac, "0") == "" {
		sign = ""
	}
	var b strings.Builder
	b.WriteString(sign)
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if hasFrac {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// formatMoney renders an amount with its currency code: whole units from 100
// up ("USD 12,345"), cents below ("USD 3.20").
func formatMoney(x float64, currency string) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return noValue
	}
	decimals := 0
	if math.Abs(x) < 100 {
		decimals = 2
	}
	amount := formatFixed(x, decimals)
	if currency == "" {
		return amount
	}
	return currency + " " + amount
}

// formatHours renders a duration in hours with a precision that suits its
// size: "0.25", "3.5", "1,240".
func formatHours(h float64) string {
	switch a := math.Abs(h); {
	case math.IsNaN(h) || math.IsInf(h, 0):
		return noValue
	case a < 1:
		return formatFixed(h, 2)
	case a < 100:
		return formatFixed(h, 1)
	default:
		return formatFixed(h, 0)
	}
}

// formatGPUs renders the accelerators a direction uses: "h100-sxm × 8".
func formatGPUs(gpu string, n int) string {
	switch {
	case gpu == "" && n == 0:
		return noValue
	case gpu == "":
		return plural(n, "GPU")
	case n == 0:
		return gpu
	default:
		return fmt.Sprintf("%s × %d", gpu, n)
	}
}

// formatValue renders a scenario input the way Value.String does — a known
// value as its number, an estimate as "likely (low–high, estimate)", an
// unset value as "—" — but with thousands separators and never an exponent,
// so a budget of 2e6 reads "2,000,000".
func formatValue(v scenario.Value) string {
	if !v.IsSet() {
		return noValue
	}
	if !v.IsEstimate() {
		return formatNumber(v.Likely)
	}
	return fmt.Sprintf("%s (%s–%s, estimate)", formatNumber(v.Likely), formatNumber(v.Low), formatNumber(v.High))
}

// formatMoneyValue is formatValue with the currency code in front.
func formatMoneyValue(v scenario.Value, currency string) string {
	if !v.IsSet() || currency == "" {
		return formatValue(v)
	}
	return currency + " " + formatValue(v)
}

// shapeTitles names the workload shapes for people.
var shapeTitles = map[string]string{
	scenario.ShapeInteractive: "Interactive inference",
	scenario.ShapeBatch:       "Batch inference",
	scenario.ShapeFineTuning:  "Fine-tuning",
	scenario.ShapeTraining:    "Training or simulation",
}

// shapeTitle names a workload shape, or humanises an unknown one.
func shapeTitle(shape string) string {
	if t, ok := shapeTitles[shape]; ok {
		return t
	}
	return humanize(shape)
}

// directionTitle names a hosting direction, or humanises an unknown one.
func directionTitle(d string) string {
	if t, ok := scenario.DirectionTitle[d]; ok {
		return t
	}
	return humanize(d)
}

// humanize turns a code such as "snapshot_only" into "Snapshot only".
func humanize(code string) string {
	s := strings.ReplaceAll(code, "_", " ")
	if s == "" {
		return noValue
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sentence capitalises the first letter of s, so an error message can be
// shown as a sentence.
func sentence(s string) string {
	r, size := utf8.DecodeRuneInString(s)
	if size == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[size:]
}

// plural renders a count with its noun: "1 revision", "3 revisions".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return groupDigits(strconv.Itoa(n)) + " " + noun + "s"
}

// yesNo renders a flag.
func yesNo(b bool) string {
	if b {
		return "Yes"
	}
	return "No"
}

// reasonsText renders why a direction is infeasible: one reason as it is,
// several as a bulleted list, one per line.
func reasonsText(reasons []string) string {
	switch len(reasons) {
	case 0:
		return ""
	case 1:
		return reasons[0]
	}
	return "• " + strings.Join(reasons, "\n• ")
}
