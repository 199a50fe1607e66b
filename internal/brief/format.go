package brief

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// How the brief words values: numbers, scenario values with their ranges,
// titles, and the user's text kept on one line.

func gpuText(d *model.DirectionResult) string {
	if d.GPU == "" {
		return "per-token service"
	}
	return fmt.Sprintf("%d × %s", d.GPUs, d.GPU)
}

func shapeTitle(shape string) string {
	switch shape {
	case scenario.ShapeInteractive:
		return "interactive inference"
	case scenario.ShapeBatch:
		return "batch inference"
	case scenario.ShapeFineTuning:
		return "fine-tuning"
	case scenario.ShapeTraining:
		return "training or simulation"
	}
	return shape
}

func envTitle(env string) string {
	if t, ok := scenario.DirectionTitle[env]; ok {
		return strings.ToLower(t[:1]) + t[1:]
	}
	return env
}

// inline puts the user's text on one line (a line break would end a
// Markdown list item or table row, and a row of the workbook).
func inline(s string) string { return strings.Join(strings.Fields(s), " ") }

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func orUnnamed(s string) string {
	if !stated(s) {
		return "the owner (not named)"
	}
	return inline(s)
}

// val renders a scenario value with its unit; an estimate shows its range
// and says so: "26 B tokens (20–40, estimate)".
func val(v scenario.Value, unit string) string {
	if !v.IsSet() {
		return "not stated"
	}
	if !v.IsEstimate() {
		return num(v.Likely) + unit
	}
	return fmt.Sprintf("%s%s (%s–%s, estimate)", num(v.Likely), unit, num(v.Low), num(v.High))
}

// num renders a number for reading: thousands grouped from 1,000, three
// significant figures below 100, whole numbers above.
func num(x float64) string {
	switch a := math.Abs(x); {
	case a >= 1000:
		return model.Grouped(x)
	case a >= 100 || x == math.Trunc(x):
		return strconv.FormatFloat(x, 'f', 0, 64)
	default:
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
}
