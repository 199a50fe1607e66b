package ui

import (
	"strconv"
	"strings"

	"hostplan/internal/present"
	"hostplan/internal/present/num"
)

// Numbers, titles and field labels come from package present, which the
// workbook and the command line share; the helpers here are the window's
// own.

// noValue stands for a number that is missing or not meaningful.
const noValue = present.NoValue

// whole writes a whole number as every number the window shows is
// written: its thousands grouped (package num's one grouping).
func whole(n int) string { return num.Group(strconv.Itoa(n)) }

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
