package model

import (
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// inputs are the drivers the identity does not define.
func inputs() []Driver {
	var out []Driver
	for d := range numDrivers {
		if !Defined(d) {
			out = append(out, d)
		}
	}
	return out
}

// identityValues are inputs with values that are not round, the ones that
// take a guard (no runs) and the ones that round differently when the
// operations are regrouped.
func identityValues() []map[Driver]float64 {
	out := []map[Driver]float64{
		{GPUHoursPerRun: 100, VariablePricePerGPUHour: 2.5, OtherCostPerRun: 30, MonthlyFixedCost: 50, RunsPerMonth: 4, HorizonMonths: 12, Month: 7},
		{GPUHoursPerRun: 97.333333, VariablePricePerGPUHour: 3.1415926, OtherCostPerRun: 17.77, MonthlyFixedCost: 98765.4321,
			OneOffCost: 1.23456789e6, RunsPerMonth: 2.7, HorizonMonths: 36, Month: 35},
		{OtherCostPerRun: 1234.5678, MonthlyFixedCost: 5375, RunsPerMonth: 0, HorizonMonths: 6, Month: 1},
		{GPUHoursPerRun: 1e-3, VariablePricePerGPUHour: 0.0123, OtherCostPerRun: 0.2, MonthlyFixedCost: 1e15, OneOffCost: 1e-7, RunsPerMonth: 0.33, HorizonMonths: 120, Month: 120},
	}
	rng := rand.New(rand.NewPCG(9, 9))
	for range 20 {
		m := map[Driver]float64{}
		for _, d := range inputs() {
			m[d] = math.Exp(rng.Float64()*20-8) * float64(rng.IntN(2))
		}
		out = append(out, m)
	}
	return out
}

// TestFormulasAgreeWithEngine renders every definition of the identity to
// a formula, has excelize recalculate it on a scratch workbook and compares
// the result with the engine's. Each figure is written twice: over cells
// that hold the other figures (as the workbook's Costs sheet does) and
// with the figures it refers to written out (as a single cell would).
func TestFormulasAgreeWithEngine(t *testing.T) {
	for i, in := range identityValues() {
		var v Values
		for d, x := range in {
			v.Set(d, x)
		}
		v.Derive()

		f := excelize.NewFile()
		const sh = "Sheet1"
		cellOf := func(d Driver) string { return "B" + strconv.Itoa(int(d)+1) }
		for _, d := range inputs() {
			if err := f.SetCellFloat(sh, cellOf(d), v.Get(d), -1, 64); err != nil {
				t.Fatal(err)
			}
			// Inputs are also defined names, as runs_per_month is in the workbook.
			if err := f.SetDefinedName(&excelize.DefinedName{Name: d.String(), RefersTo: sh + "!$B$" + strconv.Itoa(int(d)+1)}); err != nil {
				t.Fatal(err)
			}
		}
		overCells := func(d Driver) string { return cellOf(d) }
		inline := func(d Driver) string {
			if Defined(d) {
				return ""
			}
			return d.String()
		}
		for d := range numDrivers {
			if !Defined(d) {
				continue
			}
			row := strconv.Itoa(int(d) + 1)
			for col, ref := range map[string]func(Driver) string{"B": overCells, "C": inline} {
				fo := Definition(d).Formula(ref)
				if err := f.SetCellFormula(sh, col+row, fo); err != nil {
					t.Fatal(err)
				}
			}
		}
		for d := range numDrivers {
			if !Defined(d) {
				continue
			}
			want := v.Get(d)
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

// TestRenderingKeepsGrouping: the renderers add parentheses exactly where
// the expression's grouping needs them, so a spreadsheet rounds as the
// engine does (1e16 + (−1e16 + 1) is 0, (1e16 − 1e16) + 1 is 1).
func TestRenderingKeepsGrouping(t *testing.T) {
	a, b, c := Ref(GPUHoursPerRun), Ref(VariablePricePerGPUHour), Ref(OtherCostPerRun)
	names := func(d Driver) string {
		return map[Driver]string{GPUHoursPerRun: "a", VariablePricePerGPUHour: "b", OtherCostPerRun: "c"}[d]
	}
	for _, tc := range []struct {
		e              Expr
		formula, words string
	}{
		{Add(Add(a, b), c), "a+b+c", "a + b + c"},
		{Add(a, Add(b, c)), "a+(b+c)", "a + (b + c)"},
		{Sub(a, Sub(b, c)), "a-(b-c)", "a − (b − c)"},
		{Mul(Add(a, b), c), "(a+b)*c", "(a + b) × c"},
		{Add(Mul(a, b), c), "a*b+c", "a × b + c"},
		{Div(a, Mul(b, c)), "a/(b*c)", "a ÷ (b × c)"},
		{Div(Mul(a, b), c), "a*b/c", "a × b ÷ c"},
		{Mul(a, Num(-2)), "a*(-2)", "a × (-2)"},
		{Add(Num(0.5), Num(1e21)), "0.5+1E+21", "0.5 + 1E+21"},
		{Mul(IfPositive(a, b, c), c), "IF(a>0,b,c)*c", "(b if a > 0, otherwise c) × c"},
		{IfPositive(Sub(a, b), Add(b, c), IfPositive(c, a, b)), "IF(a-b>0,b+c,IF(c>0,a,b))", "b + c if a − b > 0, otherwise (a if c > 0, otherwise b)"},
	} {
		if got := tc.e.Formula(names); got != tc.formula {
			t.Errorf("formula %q, want %q", got, tc.formula)
		}
		if got := tc.e.Words(names); got != tc.words {
			t.Errorf("words %q, want %q", got, tc.words)
		}
	}

	// The grouping survives a spreadsheet: a = 1e16, b = −1e16, c = 1.
	f := excelize.NewFile()
	defer f.Close()
	var v Values
	v.Set(GPUHoursPerRun, 1e16)
	v.Set(VariablePricePerGPUHour, -1e16)
	v.Set(OtherCostPerRun, 1)
	cells := func(d Driver) string {
		return map[Driver]string{GPUHoursPerRun: "A1", VariablePricePerGPUHour: "B1", OtherCostPerRun: "C1"}[d]
	}
	for i, d := range []Driver{GPUHoursPerRun, VariablePricePerGPUHour, OtherCostPerRun} {
		if err := f.SetCellFloat("Sheet1", string(rune('A'+i))+"1", v.Get(d), -1, 64); err != nil {
			t.Fatal(err)
		}
	}
	for i, e := range []Expr{Add(Add(a, b), c), Add(a, Add(b, c))} {
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
	if x, y := Add(Add(a, b), c).Eval(&v), Add(a, Add(b, c)).Eval(&v); x != 1 || y != 0 {
		t.Errorf("engine: (a+b)+c = %g, a+(b+c) = %g; want 1 and 0", x, y)
	}
}

// TestIdentityFormulas pins the workbook's formulas, in defined names: the
// workbook has written these since model 0.1.0.
func TestIdentityFormulas(t *testing.T) {
	for d, want := range map[Driver]string{
		VariableCostPerRun: "gpu_hours_per_run*variable_price_per_gpu_hour+other_cost_per_run",
		CostPerRun:         "IF(runs_per_month>0,variable_cost_per_run+monthly_fixed_cost/runs_per_month,variable_cost_per_run)",
		CostHorizon:        "one_off_cost+horizon_months*monthly_spend",
		CumulativeCost:     "one_off_cost+month*monthly_spend",
	} {
		if got := Definition(d).Formula(nil); got != want {
			t.Errorf("%v = %s, want %s", d, got, want)
		}
	}
	// monthly_spend has no cell in the workbook: it is written out.
	noSpend := func(d Driver) string {
		if d == MonthlySpend {
			return ""
		}
		return d.String()
	}
	if got, want := Definition(CostHorizon).Formula(noSpend), "one_off_cost+horizon_months*(monthly_fixed_cost+runs_per_month*variable_cost_per_run)"; got != want {
		t.Errorf("cost_horizon = %s, want %s", got, want)
	}
	if Defined(GPUHoursPerRun) || Definition(GPUHoursPerRun).Formula(nil) != "gpu_hours_per_run" {
		t.Error("an input is its own definition")
	}
}

// TestDeriveCosts: a direction's derived figures are the identity's, the
// cumulative cost ends at the cost over the horizon, and the Monte Carlo
// form (no months) sets the same figures.
func TestDeriveCosts(t *testing.T) {
	d := DirectionResult{GPUHoursPerRun: 120, VariablePricePerGPUHour: 0.4, OtherCostPerRun: 5, MonthlyFixedCost: 2000, OneOffCost: 60000}
	d.DeriveCosts(4, 12, true)
	// 120 × 0.40 + 5 = 53; 53 + 2000 ÷ 4 = 553; 60 000 + 12 × (2000 + 4 × 53) = 86 544.
	if d.VariableCostPerRun != 53 || d.CostPerRun != 553 || d.CostHorizon != 86544 {
		t.Errorf("variable %g, per run %g, horizon %g; want 53, 553, 86544", d.VariableCostPerRun, d.CostPerRun, d.CostHorizon)
	}
	if len(d.CumulativeByMonth) != 12 || d.CumulativeByMonth[0] != 62212 || d.CumulativeByMonth[11] != d.CostHorizon {
		t.Errorf("cumulative %v", d.CumulativeByMonth)
	}
	q := DirectionResult{GPUHoursPerRun: 120, VariablePricePerGPUHour: 0.4, OtherCostPerRun: 5, MonthlyFixedCost: 2000, OneOffCost: 60000}
	q.DeriveCosts(4, 12, false)
	if q.CumulativeByMonth != nil || q.CostHorizon != d.CostHorizon || q.CostPerRun != d.CostPerRun {
		t.Errorf("without months: %+v", q)
	}
	// No runs: no share of the fixed cost per run.
	d.DeriveCosts(0, 6, true)
	if d.CostPerRun != 53 || d.CostHorizon != 60000+6*2000 {
		t.Errorf("no runs: per run %g, horizon %g", d.CostPerRun, d.CostHorizon)
	}
}

// TestDocsListIdentity: docs/report.md lists every definition as Words
// renders it with the drivers' names.
func TestDocsListIdentity(t *testing.T) {
	b, err := os.ReadFile("../../docs/report.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		lines[strings.Join(strings.Fields(l), " ")] = true
	}
	for _, def := range costIdentity {
		want := def.d.String() + " = " + def.e.Words(nil)
		if !lines[want] {
			t.Errorf("docs/report.md lacks the line %q", want)
		}
	}
}
