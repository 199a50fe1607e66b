package model

// The cost identity: how a direction's cost figures follow from its cost
// drivers. It is defined once, as expressions over named drivers: here the
// figures every direction shares (the cost of a run, the monthly spend, the
// cost over the horizon and by month), and in costmodels.go how each
// direction's price per GPU-hour, other cost per run, monthly fixed cost and
// one-off cost follow from its prices, rates, volumes, staff and hardware.
// The engine evaluates the expressions (finish, through DeriveCosts); the
// workbook writes the same expressions as spreadsheet formulas (Formula);
// docs/report.md lists them as Words renders them. None of them restates
// the arithmetic, so they cannot drift apart.
//
// The engine runs them thousands of times per Monte Carlo, so it evaluates
// them compiled to Go: cost_gen.go is generated from the definitions (go
// test ./internal/model -run TestCostCode -generate), and TestCostCode
// fails while it does not match. Expr.Eval evaluates any expression
// directly.
//
// To make a figure follow a further driver, add the driver, use it in the
// figure's definition, set it in the direction's file and regenerate
// cost_gen.go: the renderers and the workbook's formulas follow.

import "strconv"

// Driver names one quantity of the cost identity: an input, which the
// directions (or the scenario) set, or a figure the identity defines. Its
// name (String) is a stable identifier, the report's JSON field where there
// is one and the suffix of the workbook's defined name.
type Driver uint8

const (
	// Inputs of every direction.
	GPUHoursPerRun Driver = iota // GPU-hours one run uses (the engine's plan)
	RunsPerMonth                 // workload.runs_per_month at its likely value
	HorizonMonths                // the planning horizon, in months
	Month                        // 1 … horizon_months, for the cumulative cost

	// Operations staff.
	StaffFTE        // the direction's operating effort (hybrid: defined)
	BurstStaffFTE   // hybrid: the burst target's own effort
	ExtraStaffFTE   // hybrid: transfers and two environments
	StaffCostPerFTE // loaded cost of one FTE for a year
	// The months a run keeps a rented direction in use (at least one):
	// its staff is charged for those months only.
	MonthsPerRun

	// Rented compute and data (cloud, HPC, hybrid).
	GPUHourPrice           // the rate per GPU-hour (the committed rate under a commitment)
	CommittedGPUs          // GPUs paid for every hour under a commitment; 0 pays per hour used
	OnDemandGPUHours       // mixed pricing: GPU-hours per run above the commitment, paid on demand (the engine's plan)
	OnDemandPrice          // mixed pricing: the on-demand rate those GPU-hours are paid at
	StorageGB              // data kept in cloud storage (hybrid: the snapshot)
	StoragePricePerGBMonth // storage price
	OutputGB               // outputs that leave the cloud per run
	EgressPricePerGB       // transfer price out of the cloud
	RunHours               // hybrid: hours the snapshot stays in cloud storage per run (time to result; defined for batch work)
	WorkHours              // hybrid: compute hours of a run, before interruptions (the engine's plan)
	InterruptionHours      // hybrid: hours spot interruptions add to a run (the engine's plan)
	SourceGBps             // throughput of the storage the data is staged from
	FileCount              // files staged per run

	// Managed services.
	TokensPerRun    // tokens one run sends (the engine's plan)
	PriceInPerM     // per million input tokens
	PriceOutPerM    // per million output tokens
	TrainPerMTokens // per million fine-tuning tokens
	MeanRPS         // interactive: mean requests per second
	TokensIn        // interactive: input tokens per request
	TokensOut       // interactive: output tokens per request
	// A dedicated deployment (interactive): replicas on GPUs the provider
	// runs for one customer, paid per GPU-hour (GPUHourPrice).
	ReplicaHoursPerDay // replica-hours a day the load over the day needs (the engine's plan)
	GPUsPerReplica     // GPUs one replica holds (the engine's plan)

	// Owned hardware (on-premises).
	NodePrice           // purchase price of one node
	Nodes               // nodes owned (the engine's plan)
	GPUsPerNode         // GPUs in one node
	LifeYears           // depreciation life
	MaintenancePerYear  // share of the purchase price a year
	ColoPerKWMonth      // colocation space per kW of maximum draw
	PowerKWMax          // a node's maximum draw
	PowerKWTypical      // a node's typical draw
	IdlePowerFraction   // idle draw as a share of typical
	PUE                 // power usage effectiveness
	ElectricityPerKWh   // electricity price
	LeasePerNodeMonth   // lease payment per node and month
	LeadTimeWeeks       // weeks from order to the first run
	ExpectedUtilisation // share of the GPUs' hours used once shared; 0 = this workload's own use
	InfrastructureShare // fabric, storage and installation, as a share of the nodes' price
	CostOfCapital       // yearly rate the money in owned hardware would earn elsewhere
	// The cloud direction's figures the on-premises bridge rents at (it
	// reads the cloud's RentalCostPerRun).
	CloudFeasible // 1 when the cloud direction is feasible, else 0
	// OnDemandPrice (above, with mixed pricing) is also what capacity
	// rented for a few months costs under a commitment: the bridge's rate.

	// The four figures that carry every direction's costs into the shared
	// identity: inputs of a report made by hand (NoCostModel), defined by
	// every direction's cost model.
	VariablePricePerGPUHour // paid per GPU-hour used
	OtherCostPerRun         // tokens, transfers, staging, storage per run
	MonthlyFixedCost        // paid whether or not anything runs
	OneOffCost              // paid once, at the start of the horizon

	// Figures of the directions' cost models (costmodels.go).
	StaffPerMonth
	StagingHours
	CommitmentPerMonth
	StoragePerMonth
	RequestsPerMonth
	TokenPricePerM
	Capex
	DepreciationPerMonth
	LeasePerMonth
	MaintenancePerMonth
	SpacePerMonth
	IdlePowerPerMonth
	Purchase
	LeadTimeDays
	LeadMonths
	Bridge
	OwnedFixedPerMonth
	CapacityGPUHours
	OwnUtilisation
	Utilisation
	EffectivePricePerGPUHour
	RatePerGPUHourUsed
	RentalPricePerGPUHour // cloud: the rate a few months' rental pays
	RentalCostPerRun      // cloud: a run rented by the hour (the bridge's price)
	StaffShare            // share of the months a rented direction is in use
	CapitalChargePerMonth // on-premises: the cost of the capital in the hardware
	ResidualValue         // on-premises: the hardware's value left at the end of the horizon
	DedicatedGPUHours     // managed dedicated: GPU-hours a month the deployment runs

	// Figures the shared identity defines, in the order of costIdentity.
	VariableCostPerRun
	CostPerRun
	MonthlySpend
	CostHorizon
	CumulativeCost

	numDrivers
)

var driverNames = [numDrivers]string{
	GPUHoursPerRun:           "gpu_hours_per_run",
	RunsPerMonth:             "runs_per_month",
	HorizonMonths:            "horizon_months",
	Month:                    "month",
	StaffFTE:                 "staff_fte",
	BurstStaffFTE:            "burst_staff_fte",
	ExtraStaffFTE:            "extra_staff_fte",
	StaffCostPerFTE:          "staff_cost_per_fte_year",
	MonthsPerRun:             "months_per_run",
	GPUHourPrice:             "price_per_gpu_hour",
	CommittedGPUs:            "committed_gpus",
	OnDemandGPUHours:         "on_demand_gpu_hours",
	OnDemandPrice:            "on_demand_price_per_gpu_hour",
	StorageGB:                "storage_gb",
	StoragePricePerGBMonth:   "storage_per_gb_month",
	OutputGB:                 "output_gb",
	EgressPricePerGB:         "egress_per_gb",
	RunHours:                 "run_hours",
	WorkHours:                "work_hours",
	InterruptionHours:        "interruption_hours",
	SourceGBps:               "source_gbps",
	FileCount:                "file_count",
	StagingHours:             "staging_hours",
	TokensPerRun:             "tokens_per_run",
	PriceInPerM:              "price_in_per_m",
	PriceOutPerM:             "price_out_per_m",
	TrainPerMTokens:          "train_per_m_tokens",
	MeanRPS:                  "mean_rps",
	TokensIn:                 "tokens_in",
	TokensOut:                "tokens_out",
	ReplicaHoursPerDay:       "replica_hours_per_day",
	GPUsPerReplica:           "gpus_per_replica",
	NodePrice:                "node_price",
	Nodes:                    "nodes",
	GPUsPerNode:              "gpus_per_node",
	LifeYears:                "life_years",
	MaintenancePerYear:       "maintenance_per_year",
	ColoPerKWMonth:           "colo_per_kw_month",
	PowerKWMax:               "power_kw_max",
	PowerKWTypical:           "power_kw_typical",
	IdlePowerFraction:        "idle_power_fraction",
	PUE:                      "pue",
	ElectricityPerKWh:        "electricity_per_kwh",
	LeasePerNodeMonth:        "lease_per_node_month",
	LeadTimeWeeks:            "lead_time_weeks",
	ExpectedUtilisation:      "expected_utilisation",
	InfrastructureShare:      "infrastructure_share",
	CostOfCapital:            "cost_of_capital",
	CloudFeasible:            "cloud_feasible",
	VariablePricePerGPUHour:  "variable_price_per_gpu_hour",
	OtherCostPerRun:          "other_cost_per_run",
	MonthlyFixedCost:         "monthly_fixed_cost",
	OneOffCost:               "one_off_cost",
	StaffPerMonth:            "staff_per_month",
	CommitmentPerMonth:       "commitment_per_month",
	StoragePerMonth:          "storage_per_month",
	RequestsPerMonth:         "requests_per_month",
	TokenPricePerM:           "token_price_per_m",
	Capex:                    "capex",
	DepreciationPerMonth:     "depreciation_per_month",
	LeasePerMonth:            "lease_per_month",
	MaintenancePerMonth:      "maintenance_per_month",
	SpacePerMonth:            "space_per_month",
	IdlePowerPerMonth:        "idle_power_per_month",
	Purchase:                 "purchase",
	LeadTimeDays:             "lead_time_days",
	LeadMonths:               "lead_months",
	Bridge:                   "bridge",
	OwnedFixedPerMonth:       "owned_fixed_per_month",
	CapacityGPUHours:         "capacity_gpu_hours",
	OwnUtilisation:           "own_utilisation",
	Utilisation:              "utilisation",
	EffectivePricePerGPUHour: "effective_price_per_gpu_hour",
	RatePerGPUHourUsed:       "rate_per_gpu_hour_used",
	RentalPricePerGPUHour:    "rental_price_per_gpu_hour",
	RentalCostPerRun:         "rental_cost_per_run",
	StaffShare:               "staff_share",
	CapitalChargePerMonth:    "capital_charge_per_month",
	ResidualValue:            "residual_value",
	DedicatedGPUHours:        "dedicated_gpu_hours",
	VariableCostPerRun:       "variable_cost_per_run",
	CostPerRun:               "cost_per_run",
	MonthlySpend:             "monthly_spend",
	CostHorizon:              "cost_horizon",
	CumulativeCost:           "cumulative_cost",
}

// String is the driver's stable name, such as "gpu_hours_per_run".
func (d Driver) String() string {
	if d < numDrivers {
		return driverNames[d]
	}
	return "driver(" + strconv.Itoa(int(d)) + ")"
}

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

// DeriveCosts sets d's cost figures from its drivers, runsPerMonth and
// horizonMonths, by the cost identity; with byMonth also its cumulative
// cost by month. With a cost model and its drivers (Drivers) the four
// figures it defines (price per GPU-hour, other cost per run, monthly fixed
// and one-off cost) are derived too and written to d; otherwise d's own
// values of them are the inputs.
func (d *DirectionResult) DeriveCosts(runsPerMonth float64, horizonMonths int, byMonth bool) {
	var own Values
	v := d.Drivers
	if v == nil || d.CostModel == NoCostModel {
		v = &own
		v[GPUHoursPerRun], v[VariablePricePerGPUHour], v[OtherCostPerRun] = d.GPUHoursPerRun, d.VariablePricePerGPUHour, d.OtherCostPerRun
		v[MonthlyFixedCost], v[OneOffCost] = d.MonthlyFixedCost, d.OneOffCost
		v[RunsPerMonth], v[HorizonMonths] = runsPerMonth, float64(horizonMonths)
	} else {
		// Through d.Drivers, not v: own must not escape to the heap.
		dv := d.Drivers
		dv[GPUHoursPerRun], dv[RunsPerMonth], dv[HorizonMonths] = d.GPUHoursPerRun, runsPerMonth, float64(horizonMonths)
		deriveParts[d.CostModel](dv)
		if byMonth {
			deriveInfo[d.CostModel](dv)
		}
	}
	deriveFigures(v)
	d.VariablePricePerGPUHour, d.OtherCostPerRun = v[VariablePricePerGPUHour], v[OtherCostPerRun]
	d.MonthlyFixedCost, d.OneOffCost = v[MonthlyFixedCost], v[OneOffCost]
	d.VariableCostPerRun, d.CostPerRun, d.CostHorizon = v[VariableCostPerRun], v[CostPerRun], v[CostHorizon]
	if !byMonth {
		return
	}
	d.CumulativeByMonth = make([]float64, max(horizonMonths, 0))
	for m := range d.CumulativeByMonth {
		v[Month] = float64(m + 1)
		deriveByMonth(v)
		d.CumulativeByMonth[m] = v[CumulativeCost]
	}
}

// deriveParts sets every figure of d's cost model from its drivers, with
// its GPU-hours per run, runsPerMonth and horizonMonths.
func (d *DirectionResult) deriveParts(runsPerMonth float64, horizonMonths int) {
	v := d.Drivers
	v[GPUHoursPerRun], v[RunsPerMonth], v[HorizonMonths] = d.GPUHoursPerRun, runsPerMonth, float64(horizonMonths)
	deriveParts[d.CostModel](v)
	deriveInfo[d.CostModel](v)
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

// ifPositive is IfPositive for the generated code: a when c > 0, otherwise
// b (both computed; a division by zero in the other is discarded).
func ifPositive(c, a, b float64) float64 {
	if c > 0 {
		return a
	}
	return b
}
