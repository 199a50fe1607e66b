package costid

// Values holds a value for each driver, indexed by Driver.
type Values [NumDrivers]float64

// A def defines one figure.
type def struct {
	d Driver
	e Expr
}

// costIdentity defines the figures every direction shares, in the order
// they are evaluated: a definition refers only to inputs and to figures
// defined above it (or by the direction's cost model).
var costIdentity = []def{
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

// Definition is the expression the shared identity defines d by, or Ref(d)
// for a driver it does not define: NoCostModel.Definition(d).
func Definition(d Driver) Expr { return NoCostModel.Definition(d) }

// Defined reports whether the shared identity defines d:
// NoCostModel.Defines(d).
func Defined(d Driver) bool { return NoCostModel.Defines(d) }

// Derive sets every figure the shared identity defines from the inputs in
// v (the cumulative cost at v[Month]): NoCostModel.Derive(v).
func (v *Values) Derive() { NoCostModel.Derive(v) }

// Derive sets every figure m defines, then the shared identity's, from the
// inputs in v (the cumulative cost at v[Month]).
func (m CostModel) Derive(v *Values) {
	deriveParts[m](v)
	deriveInfo[m](v)
	deriveFigures(v)
	deriveByMonth(v)
}

// DeriveParts sets the figures of m the costs need (Costly): the four the
// shared identity reads and those they, or other directions, refer to.
func (m CostModel) DeriveParts(v *Values) { deriveParts[m](v) }

// DeriveInfo sets m's other figures, which inform a reader; DeriveParts
// must have set the ones they refer to.
func (m CostModel) DeriveInfo(v *Values) { deriveInfo[m](v) }

// DeriveFigures sets the figures of the shared identity that do not depend
// on the month, from the inputs and the four figures in v.
func DeriveFigures(v *Values) { deriveFigures(v) }

// DeriveByMonth sets the figures of the shared identity that depend on the
// month (the cumulative cost), from v[Month] and those DeriveFigures set.
func DeriveByMonth(v *Values) { deriveByMonth(v) }

// ifPositive is IfPositive for the generated code: a when c > 0, otherwise
// b (both computed; a division by zero in the other is discarded).
func ifPositive(c, a, b float64) float64 {
	if c > 0 {
		return a
	}
	return b
}
