package ui

import (
	"strings"

	"hostplan/internal/present"
)

// Numbers, titles and field labels come from package present, which the
// workbook and the command line share; the helpers here are the window's
// own.

// noValue stands for a number that is missing or not meaningful.
const noValue = present.NoValue

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
