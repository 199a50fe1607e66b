package export

import (
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Columns of the Inputs sheet.
const (
	colInLabel = 1 + iota
	colInValue
	colInUnit
	colInBasis
	colInField
	colInName
	colInHelp
)

// basis says whether a value is known, an estimate (with its range) or not
// given.
func basis(v scenario.Value) string {
	switch {
	case !v.IsSet():
		return "not given"
	case v.IsEstimate():
		return "estimate (" + present.Range(v) + ")"
	}
	return "known"
}

func writeInputs(b *book, s *scenario.Scenario) {
	const sh = sheetInputs
	b.headerRow(sh, 1, "Input", "Value", "Unit", "Known or estimate", "Field", "Defined name", "What it means")

	b.str(sh, 1, 2, "Every input of the scenario, as the engine read it. The costs depend on the drivers, named cells of the Drivers sheet: change them there.")
	b.style(sh, cell(1, 2), cell(1, 2), b.bold)
	row := 3
	section := ""
	for _, in := range present.Inputs(s) {
		if title := present.Section(in.Path); title != "" && title != section {
			section = title
			row++
			b.str(sh, 1, row, title)
			b.style(sh, cell(1, row), cell(1, row), b.bold)
			row++
		}
		writeInput(b, row, in, s.Currency)
		row++
	}
	b.widths(sh, 40, 16, 18, 26, 40, 18, 100)
	b.freeze(sh, 1)
}

// writeInput writes one scenario input on row of the Inputs sheet: numbers
// as numbers, choices by their labels.
func writeInput(b *book, row int, in present.Input, currency string) {
	const sh = sheetInputs
	b.str(sh, colInLabel, row, in.Label())
	b.str(sh, colInUnit, row, in.Field.UnitIn(currency))
	b.str(sh, colInField, row, in.Path)
	b.str(sh, colInHelp, row, in.Field.Help)
	given := "known"
	if !in.Given() {
		given = "not given"
	}
	switch v := in.Value.(type) {
	case scenario.Value:
		given = basis(v)
		if v.IsSet() {
			b.num(sh, colInValue, row, v.Likely, b.count, in.Path)
		}
	case int:
		if v != 0 {
			b.num(sh, colInValue, row, float64(v), b.count, in.Path)
		}
	case float64:
		if v != 0 {
			b.num(sh, colInValue, row, v, b.count, in.Path)
		}
	case uint64:
		// Text: a seed may exceed the 15 significant digits a cell keeps.
		if v != 0 {
			b.str(sh, colInValue, row, in.Text())
		}
	case bool:
		// A flag left out of the file is false: known either way.
		given = "known"
		b.str(sh, colInValue, row, present.YesNo(v))
	case string, []string:
		text := ""
		if in.Given() {
			text = in.Text()
		}
		b.str(sh, colInValue, row, text)
	}
	b.str(sh, colInBasis, row, given)
}
