package export

// The workbook writes the cost identity's definitions as formulas: these
// tests have excelize recalculate them and compare with the engine.

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/costid"
)

// TestFormulasAgreeWithEngine renders every definition of the identity to
// a formula, has excelize recalculate it on a scratch workbook and compares
// the result with the engine's. Each figure is written twice: over cells
// that hold the other figures (as the workbook's Costs sheet does) and
// with the figures it refers to written out (as a single cell would).
func TestFormulasAgreeWithEngine(t *testing.T) {
	for i, in := range identityValues() {
		var v costid.Values
		for d, x := range in {
			v[d] = x
		}
		v.Derive()

		f := excelize.NewFile()
		const sh = "Sheet1"
		cellOf := func(d costid.Driver) string { return "B" + strconv.Itoa(int(d)+1) }
		for _, d := range inputs() {
			if err := f.SetCellFloat(sh, cellOf(d), v[d], -1, 64); err != nil {
				t.Fatal(err)
			}
			// Inputs are also defined names, as runs_per_month is in the workbook.
			if err := f.SetDefinedName(&excelize.DefinedName{Name: d.String(), RefersTo: sh + "!$B$" + strconv.Itoa(int(d)+1)}); err != nil {
				t.Fatal(err)
			}
		}
		overCells := func(d costid.Driver) string { return cellOf(d) }
		inline := func(d costid.Driver) string {
			if costid.Defined(d) {
				return ""
			}
			return d.String()
		}
		for d := range costid.NumDrivers {
			if !costid.Defined(d) {
				continue
			}
			row := strconv.Itoa(int(d) + 1)
			for col, ref := range map[string]func(costid.Driver) string{"B": overCells, "C": inline} {
				fo := costid.Definition(d).Formula(ref)
				if err := f.SetCellFormula(sh, col+row, fo); err != nil {
					t.Fatal(err)
				}
			}
		}
		for d := range costid.NumDrivers {
			if !costid.Defined(d) {
				continue
			}
			want := v[d]
			for _, col := range []string{"B", "C"} {
				c := col + strconv.Itoa(int(d)+1)
				fo, _ := f.GetCellFormula(sh, c)
				s, err := f.CalcCellValue(sh, c, excelize.Options{RawCellValue: true})
				if err != nil {
					t.Fatalf("case %d: %s = %s: %v", i, c, fo, err)
				}
				got, err := strconv.ParseFloat(s, 64)
				if err != nil {
					t.Fatalf("case %d: %s = %s gives %q", i, c, fo, s)
				}
				if math.Abs(got-want) > 1e-12*math.Abs(want) {
					t.Errorf("case %d: %v: spreadsheet %s = %.17g, engine %.17g", i, d, fo, got, want)
				}
			}
		}
		f.Close()
	}
}

// TestSpreadsheetKeepsGrouping: a formula keeps its expression's grouping
// through a spreadsheet, which rounds as the engine does: a = 1e16,
// b = −1e16, c = 1 give (a + b) + c = 1 and a + (b + c) = 0.
func TestSpreadsheetKeepsGrouping(t *testing.T) {
	a, b, c := costid.Ref(costid.GPUHoursPerRun), costid.Ref(costid.VariablePricePerGPUHour), costid.Ref(costid.OtherCostPerRun)
	f := excelize.NewFile()
	defer f.Close()
	var v costid.Values
	v[costid.GPUHoursPerRun], v[costid.VariablePricePerGPUHour], v[costid.OtherCostPerRun] = 1e16, -1e16, 1
	cells := func(d costid.Driver) string {
		return map[costid.Driver]string{costid.GPUHoursPerRun: "A1", costid.VariablePricePerGPUHour: "B1", costid.OtherCostPerRun: "C1"}[d]
	}
	for i, d := range []costid.Driver{costid.GPUHoursPerRun, costid.VariablePricePerGPUHour, costid.OtherCostPerRun} {
		if err := f.SetCellFloat("Sheet1", string(rune('A'+i))+"1", v[d], -1, 64); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range []costid.Expr{costid.Add(costid.Add(a, b), c), costid.Add(a, costid.Add(b, c))} {
		c := "A" + strconv.Itoa(i+2)
		if err := f.SetCellFormula("Sheet1", c, e.Formula(cells)); err != nil {
			t.Fatal(err)
		}
		got, err := f.CalcCellValue("Sheet1", c, excelize.Options{RawCellValue: true})
		if err != nil {
			t.Fatal(err)
		}
		if want := e.Eval(&v); got != strconv.FormatFloat(want, 'f', -1, 64) {
			t.Errorf("%s: spreadsheet %s, engine %g", e.Formula(cells), got, want)
		}
	}
}

// inputs are the drivers the shared identity does not define.
func inputs() []costid.Driver {
	var out []costid.Driver
	for d := range costid.NumDrivers {
		if !costid.Defined(d) {
			out = append(out, d)
		}
	}
	return out
}

// identityValues are inputs with values that are not round, the ones that
// take a guard (no runs) and the ones that round differently when the
// operations are regrouped.
func identityValues() []map[costid.Driver]float64 {
	out := []map[costid.Driver]float64{
		{costid.GPUHoursPerRun: 100, costid.VariablePricePerGPUHour: 2.5, costid.OtherCostPerRun: 30, costid.MonthlyFixedCost: 50, costid.RunsPerMonth: 4, costid.HorizonMonths: 12, costid.Month: 7},
		{costid.GPUHoursPerRun: 97.333333, costid.VariablePricePerGPUHour: 3.1415926, costid.OtherCostPerRun: 17.77, costid.MonthlyFixedCost: 98765.4321,
			costid.OneOffCost: 1.23456789e6, costid.RunsPerMonth: 2.7, costid.HorizonMonths: 36, costid.Month: 35},
		{costid.OtherCostPerRun: 1234.5678, costid.MonthlyFixedCost: 5375, costid.RunsPerMonth: 0, costid.HorizonMonths: 6, costid.Month: 1},
		{costid.GPUHoursPerRun: 1e-3, costid.VariablePricePerGPUHour: 0.0123, costid.OtherCostPerRun: 0.2, costid.MonthlyFixedCost: 1e15, costid.OneOffCost: 1e-7, costid.RunsPerMonth: 0.33, costid.HorizonMonths: 120, costid.Month: 120},
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for range 20 {
		m := map[costid.Driver]float64{}
		for _, d := range inputs() {
			m[d] = math.Exp(rng.Float64()*20-8) * float64(rng.IntN(2))
		}
		out = append(out, m)
	}
	return out
}
