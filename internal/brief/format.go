package brief

import (
	"fmt"
	"strings"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// How the brief words values. Numbers and titles come from package
// present, so that they read as in the window and the workbook; what is
// here puts a scenario value with its unit and keeps the user's text on
// one line.

// inline puts the user's text on one line (a line break would end a
// Markdown list item or table row, and a row of the workbook).
func inline(s string) string { return strings.Join(strings.Fields(s), " ") }

func orDash(s string) string {
	if s == "" {
		return present.NoValue
	}
	return s
}

func orUnnamed(s string) string {
	if !stated(s) {
		return "the owner (not named)"
	}
	return inline(s)
}

// val renders a scenario value with its unit, each number as
// present.Figure writes it; an estimate shows its range and says so:
// "26 B tokens (20–40, estimate)".
func val(v scenario.Value, unit string) string {
	if !v.IsSet() {
		return "not stated"
	}
	if !v.IsEstimate() {
		return present.Figure(v.Likely) + unit
	}
	return fmt.Sprintf("%s%s (%s–%s, estimate)", present.Figure(v.Likely), unit, present.Figure(v.Low), present.Figure(v.High))
}
