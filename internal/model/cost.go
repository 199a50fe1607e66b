package model

// The cost identity: how a direction's cost figures follow from its cost
// drivers. It is defined once, here, as expressions over named drivers. The
// engine evaluates the expressions (finish, through DeriveCosts); the
// workbook writes the same expressions as spreadsheet formulas (Formula);
// docs/report.md lists them as Words renders them. None of them restates the
// arithmetic, so they cannot drift apart.
//
// The engine runs them thousands of times per Monte Carlo, so it evaluates
// them compiled to Go: cost_gen.go is generated from costIdentity (go test
// ./internal/model -run TestCostCode -generate), and TestCostCode fails
// while it does not match. Expr.Eval evaluates any expression directly.
//
// The monthly fixed cost and the one-off cost are inputs today: each
// direction computes them (and lists their parts in its breakdown). To make
// such a figure follow finer drivers (prices, utilisation, staff), add the
// drivers, give the figure a definition in costIdentity and regenerate
// cost_gen.go: the renderers and the workbook's formulas follow.

import "strconv"

// Driver names one quantity of the cost identity: an input, which the
// directions (or the scenario) set, or a figure the identity defines. Its
// name (String) is a stable identifier, the report's JSON field where there
// is one.
type Driver uint8

const (
	// Inputs.
	GPUHoursPerRun          Driver = iota // GPU-hours one run uses
	VariablePricePerGPUHour               // paid per GPU-hour used
	OtherCostPerRun                       // tokens, transfers, staging, storage per run
	MonthlyFixedCost                      // paid whether or not anything runs
	OneOffCost                            // paid once, at the start of the horizon
	RunsPerMonth                          // workload.runs_per_month at its likely value
	HorizonMonths                         // the planning horizon, in months
	Month                                 // 1 … horizon_months, for the cumulative cost

	// Figures the identity defines, in the order of costIdentity.
	VariableCostPerRun
	CostPerRun
	MonthlySpend
	CostHorizon
	CumulativeCost

	numDrivers
)

var driverNames = [numDrivers]string{
	GPUHoursPerRun:          "gpu_hours_per_run",
	VariablePricePerGPUHour: "variable_price_per_gpu_hour",
	OtherCostPerRun:         "other_cost_per_run",
	MonthlyFixedCost:        "monthly_fixed_cost",
	OneOffCost:              "one_off_cost",
	RunsPerMonth:            "runs_per_month",
	HorizonMonths:           "horizon_months",
	Month:                   "month",
	VariableCostPerRun:      "variable_cost_per_run",
	CostPerRun:              "cost_per_run",
	MonthlySpend:            "monthly_spend",
	CostHorizon:             "cost_horizon",
	CumulativeCost:          "cumulative_cost",
}

// String is the driver's stable name, such as "gpu_hours_per_run".
func (d Driver) String() string {
	if d < numDrivers {
		return driverNames[d]
	}
	return "driver(" + strconv.Itoa(int(d)) + ")"
}

// costIdentity defines each derived figure, in the order they are
// evaluated: a definition refers only to inputs and to figures defined
// above it.
var costIdentity = []struct {
	d Driver
	e Expr
}{
	// What one more run costs: the GPU-hours it uses at the price paid per
	// GPU-hour used, plus its other costs (tokens, transfers, storage).
	{VariableCostPerRun, Add(Mul(Ref(GPUHoursPerRun), Ref(VariablePricePerGPUHour)), Ref(OtherCostPerRun))},
	// Fully loaded cost of a run: its variable cost plus an equal share of
	// the month's fixed cost. With no runs there is no share to carry (and
	// a spreadsheet shows a number, not #DIV/0!).
	{CostPerRun, IfPositive(Ref(RunsPerMonth),
		Add(Ref(VariableCostPerRun), Div(Ref(MonthlyFixedCost), Ref(RunsPerMonth))),
		Ref(VariableCostPerRun))},
	// What a month of work costs: the fixed cost plus the month's runs.
	{MonthlySpend, Add(Ref(MonthlyFixedCost), Mul(Ref(RunsPerMonth), Ref(VariableCostPerRun)))},
	// The total over the horizon: the one-off cost, counted in month 1,
	// plus every month's spend. It is compared with the budget cap and
	// decides the cheapest direction.
	{CostHorizon, Add(Ref(OneOffCost), Mul(Ref(HorizonMonths), Ref(MonthlySpend)))},
	// The total spent by the end of month `month`
	// (cumulative_by_month[month-1]); at month = horizon_months it is the
	// cost over the horizon.
	{CumulativeCost, Add(Ref(OneOffCost), Mul(Ref(Month), Ref(MonthlySpend)))},
}

// Definition is the expression that defines d, or Ref(d) for an input.
func Definition(d Driver) Expr {
	if Defined(d) {
		return costIdentity[definedAt[d]].e
	}
	return Ref(d)
}

// Defined reports whether the identity defines d (otherwise d is an input).
func Defined(d Driver) bool { return d < numDrivers && definedAt[d] >= 0 }

// definedAt is the index in costIdentity of each figure's definition, -1
// for an input.
var definedAt = func() (at [numDrivers]int) {
	for i := range at {
		at[i] = -1
	}
	for i, def := range costIdentity {
		at[def.d] = i
	}
	return at
}()

// DeriveCosts sets d's variable cost per run, cost per run and cost over
// the horizon from its drivers, runsPerMonth and horizonMonths, by the cost
// identity; with byMonth also its cumulative cost by month.
func (d *DirectionResult) DeriveCosts(runsPerMonth float64, horizonMonths int, byMonth bool) {
	var v Values
	v[GPUHoursPerRun], v[VariablePricePerGPUHour], v[OtherCostPerRun] = d.GPUHoursPerRun, d.VariablePricePerGPUHour, d.OtherCostPerRun
	v[MonthlyFixedCost], v[OneOffCost] = d.MonthlyFixedCost, d.OneOffCost
	v[RunsPerMonth], v[HorizonMonths] = runsPerMonth, float64(horizonMonths)
	deriveFigures(&v)
	d.VariableCostPerRun, d.CostPerRun, d.CostHorizon = v[VariableCostPerRun], v[CostPerRun], v[CostHorizon]
	if !byMonth {
		return
	}
	d.CumulativeByMonth = make([]float64, max(horizonMonths, 0))
	for m := range d.CumulativeByMonth {
		v[Month] = float64(m + 1)
		deriveByMonth(&v)
		d.CumulativeByMonth[m] = v[CumulativeCost]
	}
}

// DeriveCosts sets every direction's derived cost figures, cumulative by
// month included, from its drivers and the report's runs per month and
// horizon: for a report made or edited by hand.
func (r *Report) DeriveCosts() {
	for i := range r.Directions {
		r.Directions[i].DeriveCosts(r.Workload.RunsPerMonth, r.HorizonMonths, true)
	}
}

// Values holds a value for each driver, indexed by Driver.
type Values [numDrivers]float64

// Derive sets every figure the identity defines from the inputs in v (the
// cumulative cost at v[Month]).
func (v *Values) Derive() {
	deriveFigures(v)
	deriveByMonth(v)
}

// ifPositive is IfPositive for the generated code: a when c > 0, otherwise
// b (both computed; a division by zero in the other is discarded).
func ifPositive(c, a, b float64) float64 {
	if c > 0 {
		return a
	}
	return b
}

// Expr is an arithmetic expression over drivers: numbers, drivers, the four
// operations and IfPositive. Build it with Num, Ref, Add, Sub, Mul, Div and
// IfPositive; the zero Expr is the number 0.
type Expr struct {
	op   op
	k    float64 // opNum
	d    Driver  // opRef
	args []Expr
}

type op uint8

const (
	opNum op = iota
	opRef
	opAdd
	opSub
	opMul
	opDiv
	opIf
)

// Num is the number k.
func Num(k float64) Expr { return Expr{op: opNum, k: k} }

// Ref is driver d's value.
func Ref(d Driver) Expr { return Expr{op: opRef, d: d} }

// Add is a + b.
func Add(a, b Expr) Expr { return Expr{op: opAdd, args: []Expr{a, b}} }

// Sub is a − b.
func Sub(a, b Expr) Expr { return Expr{op: opSub, args: []Expr{a, b}} }

// Mul is a × b.
func Mul(a, b Expr) Expr { return Expr{op: opMul, args: []Expr{a, b}} }

// Div is a ÷ b.
func Div(a, b Expr) Expr { return Expr{op: opDiv, args: []Expr{a, b}} }

// IfPositive is then when cond > 0, otherwise otherwise: a spreadsheet's
// IF(cond>0, then, otherwise), the guard around a division.
func IfPositive(cond, then, otherwise Expr) Expr {
	return Expr{op: opIf, args: []Expr{cond, then, otherwise}}
}

// Eval is e's value at v (a figure e refers to has the value v holds).
// Each operation is rounded as it is written, as in a spreadsheet.
func (e Expr) Eval(v *Values) float64 {
	switch e.op {
	case opNum:
		return e.k
	case opRef:
		return v[e.d]
	case opIf:
		if e.args[0].Eval(v) > 0 {
			return e.args[1].Eval(v)
		}
		return e.args[2].Eval(v)
	}
	a, b := e.args[0].Eval(v), e.args[1].Eval(v)
	switch e.op {
	case opAdd:
		return a + b
	case opSub:
		return a - b
	case opMul:
		return a * b
	}
	return a / b
}

// Formula renders e as a spreadsheet formula, without the leading "=".
// ref gives each driver's cell reference or defined name; where it gives
// "", a defined figure is written as its definition and an input as its
// name; nil writes every driver as its name. Parentheses keep e's grouping exactly, so a spreadsheet performs
// Eval's operations in Eval's order.
func (e Expr) Formula(ref func(Driver) string) string {
	s, _ := e.render(&formulaSyntax, ref)
	return s
}

// Words renders e for a reader: "a × b + c", "a if c > 0, otherwise b".
// label gives each driver's words as ref does in Formula; nil uses the
// drivers' names.
func (e Expr) Words(label func(Driver) string) string {
	s, _ := e.render(&wordSyntax, label)
	return s
}

// A syntax spells the operations for one renderer. Precedence: 1 for + and
// −, 2 for × and ÷, 3 for an operand that needs no parentheses; the
// choice has its own.
type syntax struct {
	op       [opIf]string
	choice   func(cond, then, otherwise string) string
	choicePr int
	// rounded, when set, wraps a product or quotient (Go code: float64(…),
	// so that the compiler cannot fuse it with an addition).
	rounded func(string) string
}

var (
	formulaSyntax = syntax{
		op: [opIf]string{opAdd: "+", opSub: "-", opMul: "*", opDiv: "/"},
		choice: func(c, a, b string) string {
			return "IF(" + c + ">0," + a + "," + b + ")"
		},
		choicePr: 3,
	}
	wordSyntax = syntax{
		op: [opIf]string{opAdd: " + ", opSub: " − ", opMul: " × ", opDiv: " ÷ "},
		choice: func(c, a, b string) string {
			return a + " if " + c + " > 0, otherwise " + b
		},
		choicePr: 0,
	}
)

// render returns e spelled in syn and its precedence.
func (e Expr) render(syn *syntax, ref func(Driver) string) (string, int) {
	switch e.op {
	case opNum:
		s := strconv.FormatFloat(e.k, 'G', -1, 64)
		if e.k < 0 {
			s = "(" + s + ")"
		}
		return s, 3
	case opRef:
		if ref == nil {
			return e.d.String(), 3
		}
		if s := ref(e.d); s != "" {
			return s, 3
		}
		if Defined(e.d) {
			return Definition(e.d).render(syn, ref)
		}
		return e.d.String(), 3
	case opIf:
		// A formula's IF delimits its arguments; words need parentheses
		// around anything that is not a term.
		min := 0
		if syn.choicePr == 0 {
			min = 1
		}
		c := e.args[0].operand(syn, ref, min)
		a := e.args[1].operand(syn, ref, min)
		b := e.args[2].operand(syn, ref, min)
		return syn.choice(c, a, b), syn.choicePr
	}
	pr := 1
	if e.op == opMul || e.op == opDiv {
		pr = 2
	}
	// The right operand of an operation of its own precedence keeps its
	// parentheses: a − (b − c), and a + (b + c), which rounds differently
	// from a + b + c.
	s := e.args[0].operand(syn, ref, pr) + syn.op[e.op] + e.args[1].operand(syn, ref, pr+1)
	if pr == 2 && syn.rounded != nil {
		return syn.rounded(s), 3
	}
	return s, pr
}

// operand renders e in parentheses when its precedence is below min.
func (e Expr) operand(syn *syntax, ref func(Driver) string, min int) string {
	s, pr := e.render(syn, ref)
	if pr < min {
		return "(" + s + ")"
	}
	return s
}
