// Package num is hostplan's one way of reading a number a person wrote and
// of grouping the digits of a number written for a person. Every number
// entry (the window's form, the calculators, the command line's flags, a
// catalog CSV) reads through Parse or ParseCount, and every number a
// message or a report shows groups its thousands with Group, so that a
// number copied from a message reads back where it came from.
//
// It imports only the standard library, so that scenario, model, costid
// and catalog, which present imports, can use it too.
package num

import (
	"math"
	"strconv"
	"strings"
)

// Syntax says what Parse accepts, as the "allowed:" part of a message.
const Syntax = "digits with an optional sign, decimal point and exponent, " +
	"thousands grouped in threes by commas, underscores or spaces, e.g. -1,234.5 or 2.5e6"

// CountSyntax says what ParseCount accepts.
const CountSyntax = Syntax + ", then optionally K, M, B (or G) or T, e.g. 1,000B or 1.4T"

// Error is text that is not a number. Its message quotes the text and says
// what is allowed.
type Error struct {
	Text    string // the text as given, spaces around it trimmed
	Count   bool   // read by ParseCount
	TooBig  bool   // a number too large for a float64
	allowed string // set by ParseUint for a number it cannot hold
}

func (e *Error) Error() string {
	if e.allowed != "" {
		return "“" + e.Text + "” is not a whole number ≥ 0 that fits (allowed: " + e.allowed + ")"
	}
	if e.TooBig {
		return "“" + e.Text + "” is out of range (allowed: a number of magnitude below 1.7e308)"
	}
	return "“" + e.Text + "” is not a number (allowed: " + e.Allowed() + ")"
}

// Allowed is what the reader that refused the text accepts: Syntax or
// CountSyntax.
func (e *Error) Allowed() string {
	if e.Count {
		return CountSyntax
	}
	return Syntax
}

// Parse reads a number as people write it: "1200", "1,200", "1 200",
// "1_200", "-0.4", ".5", "2e6", "2.5E-3". A sign may lead; the whole part
// may group its digits in threes with one kind of separator — comma,
// underscore, space or no-break space — placed only between groups of
// three digits (the first group one to three digits, not starting with 0:
// "1,234,567", never "1,23" or "0,500", which could be a decimal comma);
// the decimal part and the exponent are plain digits. Spaces around the
// number are ignored. NaN, infinities, hexadecimal and anything else are
// refused with an *Error that says what is allowed, as is a number too
// large for a float64 ("1e400"). It reads the number as
// strconv.ParseFloat reads its digits, so Format(x) reads back as x.
func Parse(text string) (float64, error) {
	s := strings.TrimSpace(text)
	plain, ok := canonical(s)
	if !ok {
		return 0, &Error{Text: s}
	}
	x, err := strconv.ParseFloat(plain, 64)
	if err != nil {
		if math.IsInf(x, 0) {
			return 0, &Error{Text: s, TooBig: true}
		}
		return 0, &Error{Text: s}
	}
	return x, nil
}

// ParseUint reads a whole number ≥ 0 written as Parse reads numbers, every
// one up to 18,446,744,073,709,551,615 exactly (a seed): "42", "1,024",
// "2e6". A fraction, a negative number or a larger one is refused.
func ParseUint(text string) (uint64, error) {
	s := strings.TrimSpace(text)
	plain, ok := canonical(s)
	if !ok {
		return 0, &Error{Text: s}
	}
	bad := func() (uint64, error) {
		return 0, &Error{Text: s, allowed: "a whole number from 0 to " + Group(strconv.FormatUint(math.MaxUint64, 10))}
	}
	if !strings.ContainsAny(plain, ".e") {
		if strings.HasPrefix(plain, "-") && strings.Trim(plain, "-0") != "" {
			return bad()
		}
		n, err := strconv.ParseUint(strings.TrimLeft(plain, "+-"), 10, 64)
		if err != nil {
			return bad()
		}
		return n, nil
	}
	x, err := strconv.ParseFloat(plain, 64)
	if err != nil || x != math.Trunc(x) || x < 0 || x >= 1<<64 {
		return bad()
	}
	return uint64(x), nil
}

// ParseCount reads a count as Parse does, optionally followed by a
// suffix — K (thousand), M (million), B or G (billion), T (trillion),
// either case, a space before it allowed: "70B", "1,000B", "1.4T", "7e10".
// The number is multiplied by the suffix's power of ten.
func ParseCount(text string) (float64, error) {
	s := strings.TrimSpace(text)
	mult := 1.0
	if n := len(s); n > 0 {
		switch s[n-1] {
		case 'k', 'K':
			mult = 1e3
		case 'm', 'M':
			mult = 1e6
		case 'b', 'B', 'g', 'G':
			mult = 1e9
		case 't', 'T':
			mult = 1e12
		}
		if mult != 1 {
			s = strings.TrimSpace(s[:n-1])
		}
	}
	x, err := Parse(s)
	if err != nil {
		e := err.(*Error)
		e.Text, e.Count = strings.TrimSpace(text), true
		return 0, e
	}
	v := x * mult
	if math.IsInf(v, 0) {
		return 0, &Error{Text: strings.TrimSpace(text), Count: true, TooBig: true}
	}
	return v, nil
}

// separator reports whether r may group thousands.
func separator(r rune) bool { return r == ',' || r == '_' || r == ' ' || r == '\u00a0' }

// canonical checks s against Parse's syntax and returns it with the
// grouping separators removed, as strconv.ParseFloat reads it.
func canonical(s string) (string, bool) {
	var b strings.Builder
	rs := []rune(s)
	i := 0
	if i < len(rs) && (rs[i] == '+' || rs[i] == '-') {
		b.WriteRune(rs[i])
		i++
	}
	// The whole part: digits, grouped in threes or not at all.
	var sep rune
	group, first, digits := 0, rune(0), 0
	for ; i < len(rs); i++ {
		r := rs[i]
		switch {
		case r >= '0' && r <= '9':
			if digits == 0 {
				first = r
			}
			b.WriteRune(r)
			group++
			digits++
		case separator(r):
			if sep == 0 {
				// The first group: one to three digits, no leading 0.
				if group < 1 || group > 3 || first == '0' {
					return "", false
				}
				sep = r
			} else if r != sep || group != 3 {
				return "", false
			}
			group = 0
		default:
			goto whole
		}
	}
whole:
	if sep != 0 && group != 3 {
		return "", false
	}
	// The decimal part.
	if i < len(rs) && rs[i] == '.' {
		b.WriteByte('.')
		i++
		for ; i < len(rs) && rs[i] >= '0' && rs[i] <= '9'; i++ {
			b.WriteRune(rs[i])
			digits++
		}
	}
	if digits == 0 {
		return "", false
	}
	// The exponent.
	if i < len(rs) && (rs[i] == 'e' || rs[i] == 'E') {
		b.WriteByte('e')
		i++
		if i < len(rs) && (rs[i] == '+' || rs[i] == '-') {
			b.WriteRune(rs[i])
			i++
		}
		n := 0
		for ; i < len(rs) && rs[i] >= '0' && rs[i] <= '9'; i++ {
			b.WriteRune(rs[i])
			n++
		}
		if n == 0 {
			return "", false
		}
	}
	return b.String(), i == len(rs)
}

// Group is the one rule for writing a number's thousands: it puts a comma
// between every three digits of the whole part of a plain decimal number
// ("-1234567.5" → "-1,234,567.5", "1234" → "1,234"), leaving the decimal
// part and any exponent alone. A number whose digits are all zero loses a
// minus sign ("-0.00" → "0.00"), as rounding to zero makes it neither
// negative nor positive. Parse reads the result back.
func Group(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") || strings.HasPrefix(s, "+") {
		sign, s = s[:1], s[1:]
	}
	end := strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(s)
	}
	whole, rest := s[:end], s[end:]
	if sign == "-" && strings.Trim(s, "0.") == "" && strings.Contains(s, "0") {
		sign = ""
	}
	var b strings.Builder
	b.WriteString(sign)
	for i := range len(whole) {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(whole[i])
	}
	b.WriteString(rest)
	return b.String()
}

// Fixed writes x with exactly decimals digits after the point and its
// thousands grouped: Fixed(1234.5, 2) → "1,234.50", Fixed(-2.5e6, 0) →
// "-2,500,000". NaN and infinities are written as strconv writes them.
func Fixed(x float64, decimals int) string {
	return Group(strconv.FormatFloat(x, 'f', decimals, 64))
}

// Whole writes x rounded to a whole number with its thousands grouped:
// 1234567.8 → "1,234,568".
func Whole(x float64) string { return Fixed(x, 0) }

// Format writes x exactly, for an entry a person edits: the shortest
// decimal that Parse reads back as x, thousands grouped ("250,000",
// "1,234.5", "0.075"), with an exponent only for magnitudes from 10¹⁵ or
// below 10⁻⁶ ("1e15", "2.5e-7"). Negative zero is "-0". NaN and infinities
// are written as strconv writes them (Parse refuses them).
func Format(x float64) string {
	if x == 0 {
		if math.Signbit(x) {
			return "-0"
		}
		return "0"
	}
	if a := math.Abs(x); a >= 1e15 || a < 1e-6 {
		return Exp(x)
	}
	return Group(strconv.FormatFloat(x, 'f', -1, 64))
}

// Exp writes x in the shortest form that reads back with an exponent
// when strconv's 'g' uses one, without the exponent's "+" and leading
// zeros: 1e15, 2.5e-7, 1.7976931348623157e308.
func Exp(x float64) string {
	g := strconv.FormatFloat(x, 'g', -1, 64)
	m, e, ok := strings.Cut(g, "e")
	if !ok {
		return g
	}
	sign := ""
	if strings.HasPrefix(e, "-") {
		sign = "-"
	}
	return m + "e" + sign + strings.TrimLeft(e, "+-0")
}
