package model

// The cost identity: how a direction's cost figures follow from its cost
// drivers. It is defined once, here, as expressions over named drivers. The
// engine evaluates the expressions (finish, through DeriveCosts); the
// workbook writes the same expressions as spreadsheet formulas (Formula);
// docs/report.md lists them as Words renders them. None of them restates the
// arithmetic, so they cannot drift apart.
//
// To make a figure that is an input today (a fixed cost, a price) follow
// finer drivers, add the drivers and give the figure a definition in
// costIdentity: the evaluator, the renderers and the workbook's formulas
// follow.

import (
	"fmt"
	"strconv"
)

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
	if d < numDrivers && identity.def[d] >= 0 {
		return costIdentity[identity.def[d]].e
	}
	return Ref(d)
}

// Defined reports whether the identity defines d (otherwise d is an input).
func Defined(d Driver) bool { return d < numDrivers && identity.def[d] >= 0 }

// DeriveCosts sets d's variable cost per run, cost per run and cost over
// the horizon from its drivers, runsPerMonth and horizonMonths, by the cost
// identity; with byMonth also its cumulative cost by month.
func (d *DirectionResult) DeriveCosts(runsPerMonth float64, horizonMonths int, byMonth bool) {
	var v Values
	x := &v.x
	x[GPUHoursPerRun], x[VariablePricePerGPUHour], x[OtherCostPerRun] = d.GPUHoursPerRun, d.VariablePricePerGPUHour, d.OtherCostPerRun
	x[MonthlyFixedCost], x[OneOffCost] = d.MonthlyFixedCost, d.OneOffCost
	x[RunsPerMonth], x[HorizonMonths] = runsPerMonth, float64(horizonMonths)
	run(identity.figures, &v)
	d.VariableCostPerRun, d.CostPerRun, d.CostHorizon = x[VariableCostPerRun], x[CostPerRun], x[CostHorizon]
	if !byMonth {
		return
	}
	d.CumulativeByMonth = make([]float64, max(horizonMonths, 0))
	for m := range d.CumulativeByMonth {
		x[Month] = float64(m + 1)
		run(identity.month, &v)
		d.CumulativeByMonth[m] = x[CumulativeCost]
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

// Values holds a value for each driver (and scratch space for evaluating).
type Values struct {
	x [numDrivers + scratch]float64
}

// Get is d's value.
func (v *Values) Get(d Driver) float64 { return v.x[d] }

// Set sets d's value.
func (v *Values) Set(d Driver, x float64) { v.x[d] = x }

// Derive sets every figure the identity defines from the inputs in v.
func (v *Values) Derive() { run(identity.all, v) }

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

// Eval is e's value at v (a figure it refers to has the value v holds),
// computed as the engine computes the identity.
func (e Expr) Eval(v *Values) float64 {
	var c compiler
	out := c.operand(e, 0)
	run(c.steps, v)
	return v.x[out]
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
	return e.args[0].operand(syn, ref, pr) + syn.op[e.op] + e.args[1].operand(syn, ref, pr+1), pr
}

// operand renders e in parentheses when its precedence is below min.
func (e Expr) operand(syn *syntax, ref func(Driver) string, min int) string {
	s, pr := e.render(syn, ref)
	if pr < min {
		return "(" + s + ")"
	}
	return s
}

// The engine evaluates the identity compiled to steps: each step computes
// one operation on slots of Values (drivers or scratch) and writes another.
// A Monte Carlo draw runs them for every direction, so they are a loop over
// a small array: no map, no allocation, no walk of the expression tree.
type step struct {
	op        op
	dst, a, b uint8
	c         uint8 // opIf: the otherwise slot
	k         float64
}

// scratch is the slots after the drivers that hold intermediate results:
// one per level of nesting in an expression.
const scratch = 8

type compiler struct{ steps []step }

// operand returns the slot that holds e's value once c.steps have run,
// adding the steps that compute it into scratch slots from depth on.
func (c *compiler) operand(e Expr, depth int) uint8 {
	if e.op == opRef {
		return uint8(e.d)
	}
	dst := uint8(int(numDrivers) + depth)
	c.emit(e, dst, depth)
	return dst
}

// emit adds the steps that compute e into slot dst; they use scratch slots
// from depth on.
func (c *compiler) emit(e Expr, dst uint8, depth int) {
	if depth+len(e.args) > scratch {
		panic(fmt.Sprintf("model: a cost expression nests deeper than %d", scratch))
	}
	s := step{op: e.op, dst: dst, k: e.k}
	switch e.op {
	case opRef:
		s.a = uint8(e.d)
	case opNum:
	default:
		s.a = c.operand(e.args[0], depth)
		s.b = c.operand(e.args[1], depth+1)
		if e.op == opIf {
			s.c = c.operand(e.args[2], depth+2)
		}
	}
	c.steps = append(c.steps, s)
}

// run performs steps on v. IfPositive computes both branches and keeps
// one: a division by zero in the other is discarded.
func run(steps []step, v *Values) {
	x := &v.x
	for i := range steps {
		s := steps[i]
		switch s.op {
		case opAdd:
			x[s.dst] = x[s.a] + x[s.b]
		case opMul:
			x[s.dst] = x[s.a] * x[s.b]
		case opSub:
			x[s.dst] = x[s.a] - x[s.b]
		case opDiv:
			x[s.dst] = x[s.a] / x[s.b]
		case opIf:
			if x[s.a] > 0 {
				x[s.dst] = x[s.b]
			} else {
				x[s.dst] = x[s.c]
			}
		case opRef:
			x[s.dst] = x[s.a]
		case opNum:
			x[s.dst] = s.k
		}
	}
}

// identity is costIdentity compiled: the steps of every definition in
// order, and the same split in two: the figures that do not depend on the
// month, and those that do (run once per month).
var identity = compileIdentity()

type compiled struct {
	def            [numDrivers]int8 // index in costIdentity, -1 for an input
	all            []step
	figures, month []step
}

// compileIdentity compiles costIdentity. It panics (when the package is
// loaded, so every test fails) on a figure defined twice or a reference to
// a figure defined further down.
func compileIdentity() *compiled {
	id := &compiled{}
	for i := range id.def {
		id.def[i] = -1
	}
	for i, def := range costIdentity {
		if def.d >= numDrivers || id.def[def.d] >= 0 {
			panic(fmt.Sprintf("model: the cost identity defines %v twice", def.d))
		}
		id.def[def.d] = int8(i)
	}
	var byMonth [numDrivers]bool
	byMonth[Month] = true
	for i, def := range costIdentity {
		for _, d := range refs(def.e, nil) {
			if id.def[d] >= int8(i) {
				panic(fmt.Sprintf("model: the definition of %v refers to %v, defined after it", def.d, d))
			}
			byMonth[def.d] = byMonth[def.d] || byMonth[d]
		}
		var c compiler
		c.emit(def.e, uint8(def.d), 0)
		id.all = append(id.all, c.steps...)
		if byMonth[def.d] {
			id.month = append(id.month, c.steps...)
		} else {
			id.figures = append(id.figures, c.steps...)
		}
	}
	return id
}

// refs appends the drivers e refers to to out.
func refs(e Expr, out []Driver) []Driver {
	if e.op == opRef {
		out = append(out, e.d)
	}
	for _, a := range e.args {
		out = refs(a, out)
	}
	return out
}
