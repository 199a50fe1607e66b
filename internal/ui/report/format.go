package report

import (
	"strconv"
	"strings"

	"hostplan/internal/present"
	"hostplan/internal/present/num"
)

// Numbers, titles and field labels come from package present, which the
// workbook and the command line share; the helpers here are the window's
// own.

// NoValue stands for a number that is missing or not meaningful.
const NoValue = present.NoValue

// Whole writes a whole number as every number the window shows is
// written: its thousands grouped (package num's one grouping).
func Whole(n int) string { return num.Group(strconv.Itoa(n)) }

// ReasonsText renders why a direction is infeasible: one reason as it is,
// several as a bulleted list, one per line.
func ReasonsText(reasons []string) string {
	switch len(reasons) {
	case 0:
		return ""
	case 1:
		return reasons[0]
	}
	return "• " + strings.Join(reasons, "\n• ")
}

func OrText(s, fallback string) string {
	if s == "" {
		return fallback
	}
	return s
}

// OrDash returns NoValue when missing, else text.
func OrDash(missing bool, text string) string {
	if missing {
		return NoValue
	}
	return text
}
