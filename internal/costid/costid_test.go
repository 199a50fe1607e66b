package costid

import (
	"bytes"
	"math"
	"math/rand/v2"
	"os"
	"strings"
	"testing"
)

// TestCostCode: cost_gen.go is what go generate writes (the definitions
// compiled), and it computes what Eval computes, to the last bit.
func TestCostCode(t *testing.T) {
	want, err := GeneratedCode(".")
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("cost_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("cost_gen.go is not the cost identity's code; regenerate it with go generate ./internal/costid")
	}
	// Every model, at the shared identity's cases and at random inputs of
	// its own (some zero, to take the guards).
	rng := rand.New(rand.NewPCG(3, 3))
	for _, m := range CostModels() {
		cases := identityValues()
		for range 20 {
			in := map[Driver]float64{}
			for _, d := range m.Inputs() {
				in[d] = math.Exp(rng.Float64()*20-8) * float64(rng.IntN(4)/3+rng.IntN(2))
			}
			cases = append(cases, in)
		}
		for i, in := range cases {
			var gen, eval Values
			for d, x := range in {
				gen[d], eval[d] = x, x
			}
			m.Derive(&gen)
			for _, d := range m.Figures() {
				eval[d] = m.Definition(d).Eval(&eval)
			}
			for d := range NumDrivers {
				if math.Float64bits(gen[d]) != math.Float64bits(eval[d]) {
					t.Errorf("%v case %d: %v: generated code gives %v, Eval %v", m, i, d, gen[d], eval[d])
				}
			}
		}
	}
}

// inputs are the drivers the identity does not define.
func inputs() []Driver {
	var out []Driver
	for d := range NumDrivers {
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

// TestRenderingKeepsGrouping: the renderers add parentheses exactly where
// the expression's grouping needs them, so a spreadsheet rounds as the
// engine does (1e16 + (−1e16 + 1) is 0, (1e16 − 1e16) + 1 is 1; the
// export's tests check a spreadsheet's result).
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
}

func TestEvalKeepsGrouping(t *testing.T) {
	a, b, c := Ref(GPUHoursPerRun), Ref(VariablePricePerGPUHour), Ref(OtherCostPerRun)
	var v Values
	v[GPUHoursPerRun], v[VariablePricePerGPUHour], v[OtherCostPerRun] = 1e16, -1e16, 1
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

// TestDocsListIdentity: docs/report.md lists every definition of the
// shared identity and of every cost model as Words renders it with the
// drivers' names.
func TestDocsListIdentity(t *testing.T) {
	b, err := os.ReadFile("../../docs/report.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		lines[strings.Join(strings.Fields(l), " ")] = true
	}
	for _, m := range CostModels() {
		for _, def := range append(append([]def(nil), costModels[m]...), costIdentity...) {
			want := def.d.String() + " = " + def.e.Words(nil)
			if !lines[want] {
				t.Errorf("docs/report.md lacks the line %q (%v)", want, m)
			}
		}
	}
}

// unitless are the drivers that legitimately have no unit: a flag.
var unitless = map[Driver]bool{CloudFeasible: true}

// TestDriverFacts: every driver has a name, a label, a unit (but the
// unitless ones) and help, and no two drivers share a name.
func TestDriverFacts(t *testing.T) {
	seen := map[string]Driver{}
	for d := range NumDrivers {
		f := drivers[d]
		switch {
		case f.name == "":
			t.Errorf("driver %d has no name", d)
		case f.label == "":
			t.Errorf("driver %s has no label", d)
		case f.help == "":
			t.Errorf("driver %s has no help", d)
		case f.unit == "" && !unitless[d]:
			t.Errorf("driver %s has no unit (list it in unitless if it has none)", d)
		case f.unit != "" && unitless[d]:
			t.Errorf("driver %s is listed as unitless but has the unit %q", d, f.unit)
		}
		if other, ok := seen[f.name]; ok && f.name != "" {
			t.Errorf("drivers %d and %d share the name %q", other, d, f.name)
		}
		seen[f.name] = d
		if got, ok := ByName(f.name); f.name != "" && (!ok || got != d) {
			t.Errorf("ByName(%q) = %v, %v", f.name, got, ok)
		}
	}
	if Unit(GPUHourPrice, "EUR") != "EUR/GPU-hour" || !IsMoney(GPUHourPrice) || IsMoney(GPUHoursPerRun) {
		t.Error("Unit or IsMoney does not read the currency sign")
	}
}
