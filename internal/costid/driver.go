package costid

import (
	"strconv"
	"strings"
)

// Driver names one quantity of the cost identity: an input, which the
// directions (or the scenario) set, or a figure the identity defines. Its
// facts (the drivers table below) are its name, a stable identifier (the
// report's JSON field where there is one and the suffix of the workbook's
// defined name), its label and unit on the workbook's Drivers and Costs
// sheets and in hostplan reprice, and a line of help.
type Driver uint8

const (
	// Inputs of every direction.
	GPUHoursPerRun Driver = iota
	RunsPerMonth
	HorizonMonths
	Month

	// Constants of the calendar and of staging, which the definitions
	// share with the engine's plan: fixed values (Const, Constant), named
	// so that the workbook shows them in cells of their own.
	MonthHours
	MonthDays
	FileSeconds

	// Operations staff.
	StaffFTE
	BurstStaffFTE
	ExtraStaffFTE
	StaffCostPerFTE
	MonthsPerRun

	// Rented compute and data (cloud, HPC, hybrid).
	GPUHourPrice
	CommittedGPUs
	OnDemandGPUHours
	OnDemandPrice
	StorageGB
	StoragePricePerGBMonth
	OutputGB
	EgressPricePerGB
	CopiedOutGB
	RunHours
	WorkHours
	InterruptionHours
	IdleGPUHoursPerRun
	SourceGBps
	FileCount

	// Managed services; a dedicated deployment (interactive) runs replicas
	// on GPUs the provider runs for one customer, paid per GPU-hour
	// (GPUHourPrice).
	TokensPerRun
	PriceInPerM
	PriceOutPerM
	TrainPerMTokens
	MeanRPS
	TokensIn
	TokensOut
	ReplicaHoursPerDay
	GPUsPerReplica

	// Owned hardware (on-premises).
	NodePrice
	Nodes
	GPUsPerNode
	LifeYears
	MaintenancePerYear
	ColoPerKWMonth
	PowerKWMax
	PowerKWTypical
	IdlePowerFraction
	PUE
	ElectricityPerKWh
	LeasePerNodeMonth
	LeadTimeWeeks
	ExpectedUtilisation
	InfrastructureShare
	CostOfCapital
	// What the on-premises bridge reads of the cloud direction besides its
	// RentalCostPerRun (under a commitment the bridge rents at the
	// OnDemandPrice).
	CloudFeasible

	// The four figures that carry every direction's costs into the shared
	// identity: inputs of a report made by hand (NoCostModel), defined by
	// every direction's cost model.
	VariablePricePerGPUHour
	OtherCostPerRun
	MonthlyFixedCost
	OneOffCost

	// Figures of the directions' cost models (models.go).
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
	RentalPricePerGPUHour
	RentalCostPerRun
	StaffShare
	CapitalChargePerMonth
	ResidualValue
	DedicatedGPUHours

	// Figures the shared identity defines, in the order of costIdentity.
	VariableCostPerRun
	CostPerRun
	MonthlySpend
	CostHorizon
	CumulativeCost

	// NumDrivers is the number of drivers: Driver(0) … NumDrivers−1 are
	// all of them.
	NumDrivers
)

// A fact is what the program says about one driver: its name, its label
// and unit ("¤" stands for the scenario's currency; "" for a flag, which
// has none) and a line of help.
type fact struct {
	name, label, unit, help string
}

// drivers holds every driver's facts: the one place a driver is named,
// labelled and explained.
var drivers = [NumDrivers]fact{
	GPUHoursPerRun:           {"gpu_hours_per_run", "GPU-hours per run", "GPU-hours", "GPU-hours one run uses (the engine's plan)"},
	RunsPerMonth:             {"runs_per_month", "runs per month", "runs/month", "workload.runs_per_month at its likely value"},
	HorizonMonths:            {"horizon_months", "planning horizon", "months", "the planning horizon, in months"},
	Month:                    {"month", "month of the horizon", "month", "1 … horizon_months, for the cumulative cost"},
	MonthHours:               {"hours_per_month", "hours in a month", "hours/month", "the engine's constant: 8,760 hours a year ÷ 12"},
	MonthDays:                {"days_per_month", "days in a month", "days/month", "the engine's constant: 365.25 days a year ÷ 12"},
	FileSeconds:              {"seconds_per_file", "time to stage one file", "seconds", "the engine's constant: seconds staging takes per file, besides the throughput"},
	StaffFTE:                 {"staff_fte", "operations staff", "FTE", "the direction's operating effort (hybrid: defined)"},
	BurstStaffFTE:            {"burst_staff_fte", "the burst target's operations staff", "FTE", "hybrid: the burst target's own effort"},
	ExtraStaffFTE:            {"extra_staff_fte", "extra staff for transfers and two environments", "FTE", "hybrid: transfers and two environments"},
	StaffCostPerFTE:          {"staff_cost_per_fte_year", "loaded cost of one FTE", "¤/FTE-year", "loaded cost of one FTE for a year"},
	MonthsPerRun:             {"months_per_run", "months a run keeps the direction in use", "months", "the months a run keeps a rented direction in use (at least one): its staff is charged for those months only"},
	GPUHourPrice:             {"price_per_gpu_hour", "price per GPU-hour", "¤/GPU-hour", "the rate per GPU-hour (the committed rate under a commitment)"},
	CommittedGPUs:            {"committed_gpus", "committed GPUs (0: pay per hour used)", "GPUs", "GPUs paid for every hour under a commitment; 0 pays per hour used"},
	OnDemandGPUHours:         {"on_demand_gpu_hours", "GPU-hours per run above the commitment, paid on demand", "GPU-hours", "mixed pricing: GPU-hours per run above the commitment, paid on demand (the engine's plan)"},
	OnDemandPrice:            {"on_demand_price_per_gpu_hour", "on-demand price of the GPU-hours above the commitment", "¤/GPU-hour", "mixed pricing: the on-demand rate those GPU-hours are paid at; under a commitment also the rate of the on-premises bridge's rental"},
	StorageGB:                {"storage_gb", "data kept in cloud storage", "GB", "data kept in cloud storage (hybrid: the snapshot)"},
	StoragePricePerGBMonth:   {"storage_per_gb_month", "storage price", "¤/GB-month", "storage price"},
	OutputGB:                 {"output_gb", "outputs returned per run", "GB", "outputs that leave the cloud per run"},
	EgressPricePerGB:         {"egress_per_gb", "transfer price out of the cloud", "¤/GB", "transfer price out of the cloud"},
	CopiedOutGB:              {"copied_out_gb", "data copied out of the cloud per run", "GB", "on-premises and shared HPC: the data staged out of the cloud storage it lives in (data.location cloud) to this direction's compute, per run"},
	RunHours:                 {"run_hours", "hours a run keeps the snapshot in storage", "hours", "hybrid: hours the snapshot stays in cloud storage per run (time to result; defined for batch work)"},
	WorkHours:                {"work_hours", "compute hours of a run before interruptions", "hours", "hybrid: compute hours of a run, before interruptions (the engine's plan)"},
	InterruptionHours:        {"interruption_hours", "hours interruptions add to a run", "hours", "hybrid: hours hardware failures and spot interruptions add to a run: checkpoints, lost work and restarts (the engine's plan)"},
	IdleGPUHoursPerRun:       {"idle_gpu_hours_per_run", "idle GPU-hours per run billed with whole instances", "GPU-hours", "cloud: GPU-hours per run of the GPUs an instance bills beyond those the run uses, when the offer is sold by the instance (the engine's plan)"},
	SourceGBps:               {"source_gbps", "throughput the data is staged at", "GB/s", "throughput the data is staged at: the source storage, or the site's uplink when it is slower and the copy crosses it"},
	FileCount:                {"file_count", "files staged per run", "files", "files staged per run"},
	TokensPerRun:             {"tokens_per_run", "tokens per run", "tokens", "tokens one run sends (the engine's plan)"},
	PriceInPerM:              {"price_in_per_m", "price per million input tokens", "¤/M tokens", "price per million input tokens"},
	PriceOutPerM:             {"price_out_per_m", "price per million output tokens", "¤/M tokens", "price per million output tokens"},
	TrainPerMTokens:          {"train_per_m_tokens", "price per million fine-tuning tokens", "¤/M tokens", "price per million fine-tuning tokens"},
	MeanRPS:                  {"mean_rps", "mean traffic", "requests/s", "interactive: mean requests per second"},
	TokensIn:                 {"tokens_in", "input tokens per request", "tokens", "interactive: input tokens per request"},
	TokensOut:                {"tokens_out", "output tokens per request", "tokens", "interactive: output tokens per request"},
	ReplicaHoursPerDay:       {"replica_hours_per_day", "replica-hours a day of a dedicated deployment", "replica-hours", "replica-hours a day the load over the day needs (the engine's plan)"},
	GPUsPerReplica:           {"gpus_per_replica", "GPUs per replica", "GPUs", "GPUs one replica holds (the engine's plan)"},
	NodePrice:                {"node_price", "price of one node", "¤", "purchase price of one node"},
	Nodes:                    {"nodes", "nodes", "nodes", "nodes owned (the engine's plan)"},
	GPUsPerNode:              {"gpus_per_node", "GPUs per node", "GPUs", "GPUs in one node"},
	LifeYears:                {"life_years", "depreciation life", "years", "depreciation life"},
	MaintenancePerYear:       {"maintenance_per_year", "maintenance a year, share of the price", "fraction", "share of the purchase price a year"},
	ColoPerKWMonth:           {"colo_per_kw_month", "colocation space", "¤/kW-month", "colocation space per kW of maximum draw"},
	PowerKWMax:               {"power_kw_max", "maximum draw of a node", "kW", "a node's maximum draw"},
	PowerKWTypical:           {"power_kw_typical", "typical draw of a node", "kW", "a node's typical draw"},
	IdlePowerFraction:        {"idle_power_fraction", "idle draw, share of typical", "fraction", "idle draw as a share of typical"},
	PUE:                      {"pue", "power usage effectiveness (PUE)", "ratio", "power usage effectiveness"},
	ElectricityPerKWh:        {"electricity_per_kwh", "electricity price", "¤/kWh", "electricity price"},
	LeasePerNodeMonth:        {"lease_per_node_month", "lease per node", "¤/node-month", "lease payment per node and month"},
	LeadTimeWeeks:            {"lead_time_weeks", "lead time from order to the first run", "weeks", "weeks from order to the first run"},
	ExpectedUtilisation:      {"expected_utilisation", "expected utilisation (0: this workload's own)", "fraction", "share of the GPUs' hours used once shared; 0 = this workload's own use"},
	InfrastructureShare:      {"infrastructure_share", "fabric, storage and installation, share of the nodes' price", "fraction", "fabric, storage and installation, as a share of the nodes' price"},
	CostOfCapital:            {"cost_of_capital", "cost of capital", "fraction/year", "yearly rate the money in owned hardware would earn elsewhere"},
	CloudFeasible:            {"cloud_feasible", "cloud feasible (1 yes, 0 no: Summary's verdict)", "", "1 when the cloud direction is feasible, else 0: the on-premises bridge rents from it only then"},
	VariablePricePerGPUHour:  {"variable_price_per_gpu_hour", "price per GPU-hour used", "¤/GPU-hour", "paid per GPU-hour used"},
	OtherCostPerRun:          {"other_cost_per_run", "other cost per run", "¤/run", "tokens, transfers, staging, storage per run"},
	MonthlyFixedCost:         {"monthly_fixed_cost", "monthly fixed cost", "¤/month", "paid whether or not anything runs"},
	OneOffCost:               {"one_off_cost", "one-off cost", "¤", "paid once, at the start of the horizon"},
	StaffPerMonth:            {"staff_per_month", "operations staff per month", "¤/month", "the operations staff's loaded cost a month"},
	StagingHours:             {"staging_hours", "hours to stage the snapshot", "hours", "hybrid: hours to stage the snapshot into the cloud per run"},
	CommitmentPerMonth:       {"commitment_per_month", "commitment: committed GPUs every hour", "¤/month", "the committed GPUs paid every hour of the month, used or not"},
	StoragePerMonth:          {"storage_per_month", "object storage per month", "¤/month", "cloud: the data set kept in object storage for a month"},
	RequestsPerMonth:         {"requests_per_month", "requests per month", "requests", "interactive: a month of traffic at the mean rate"},
	TokenPricePerM:           {"token_price_per_m", "price per million tokens (mean in/out)", "¤/M tokens", "batch: the input and output prices weighted by the split of tokens"},
	Capex:                    {"capex", "purchase price of the nodes", "¤", "on-premises: the nodes and the cluster around them"},
	DepreciationPerMonth:     {"depreciation_per_month", "depreciation per month", "¤/month", "on-premises: the capex spread straight over the life"},
	LeasePerMonth:            {"lease_per_month", "lease per month", "¤/month", "on-premises: the lease payment for every node"},
	MaintenancePerMonth:      {"maintenance_per_month", "maintenance per month", "¤/month", "on-premises: maintenance, a share of the capex a year"},
	SpacePerMonth:            {"space_per_month", "colocation space per month", "¤/month", "on-premises: colocation space for the nodes' maximum draw"},
	IdlePowerPerMonth:        {"idle_power_per_month", "idle power per month", "¤/month", "on-premises: the nodes' idle draw all month"},
	Purchase:                 {"purchase", "purchase, paid at the start", "¤", "on-premises: the capex, paid at the start of the horizon"},
	LeadTimeDays:             {"lead_time_days", "lead time", "days", "on-premises: days from order to the first run"},
	LeadMonths:               {"lead_months", "months of runs in the lead time", "months", "on-premises: months of the horizon before the hardware runs"},
	Bridge:                   {"bridge", "bridge: lead-time runs rented from the cloud", "¤", "on-premises: the runs in the lead time rented from the cloud direction"},
	OwnedFixedPerMonth:       {"owned_fixed_per_month", "owned cost per month, purchase net of residual value spread", "¤/month", "on-premises: the fixed cost a month, a purchase net of its residual value spread over the horizon"},
	CapacityGPUHours:         {"capacity_gpu_hours", "GPU-hours the nodes offer a month", "GPU-hours/month", "on-premises: every GPU of every node for every hour of a month"},
	OwnUtilisation:           {"own_utilisation", "utilisation by this workload", "fraction", "on-premises: the share of the capacity this workload uses"},
	Utilisation:              {"utilisation", "utilisation of the effective price", "fraction", "on-premises: the expected utilisation, else this workload's own"},
	EffectivePricePerGPUHour: {"effective_price_per_gpu_hour", "effective price of an owned GPU-hour", "¤/GPU-hour", "on-premises: the fixed cost over the hours used, plus the power above idle"},
	RatePerGPUHourUsed:       {"rate_per_gpu_hour_used", "rate per GPU-hour used", "¤/GPU-hour", "rented: what a GPU-hour used costs, a commitment spread over the hours used"},
	RentalPricePerGPUHour:    {"rental_price_per_gpu_hour", "rate a few months' rental pays", "¤/GPU-hour", "cloud: the rate a few months' rental pays"},
	RentalCostPerRun:         {"rental_cost_per_run", "a run rented by the hour (the on-premises bridge's price)", "¤/run", "cloud: a run rented by the hour (the bridge's price)"},
	StaffShare:               {"staff_share", "share of the months the direction is in use (staff charged)", "fraction", "share of the months a rented direction is in use"},
	CapitalChargePerMonth:    {"capital_charge_per_month", "cost of the capital in the hardware per month", "¤/month", "on-premises: the cost of the capital in the hardware"},
	ResidualValue:            {"residual_value", "the hardware's value left at the end of the horizon", "¤", "on-premises: the hardware's value left at the end of the horizon"},
	DedicatedGPUHours:        {"dedicated_gpu_hours", "GPU-hours a month of a dedicated deployment", "GPU-hours", "managed dedicated: GPU-hours a month the deployment runs"},
	VariableCostPerRun:       {"variable_cost_per_run", "variable cost per run", "¤/run", "what one more run costs"},
	CostPerRun:               {"cost_per_run", "cost per run", "¤/run", "a run's variable cost plus an equal share of the month's fixed cost"},
	MonthlySpend:             {"monthly_spend", "monthly spend", "¤/month", "the fixed cost plus the month's runs"},
	CostHorizon:              {"cost_horizon", "cost over the horizon", "¤", "the one-off cost plus every month's spend; compared with the budget cap"},
	CumulativeCost:           {"cumulative_cost", "cumulative cost to the month", "¤", "the total spent by the end of the month"},
}

// String is d's stable name, such as "gpu_hours_per_run".
func (d Driver) String() string {
	if d < NumDrivers {
		return drivers[d].name
	}
	return "driver(" + strconv.Itoa(int(d)) + ")"
}

// Label is d's label in plain words, as the Drivers and Costs sheets and
// hostplan reprice write it ("price per GPU-hour").
func Label(d Driver) string {
	if d < NumDrivers {
		return drivers[d].label
	}
	return d.String()
}

// Unit is d's unit with "¤" written as currency ("USD/GPU-hour"); "" for
// a driver without one.
func Unit(d Driver, currency string) string {
	if d < NumDrivers {
		return strings.ReplaceAll(drivers[d].unit, "¤", currency)
	}
	return ""
}

// IsMoney reports whether d is an amount of money (its unit is in the
// currency).
func IsMoney(d Driver) bool {
	return d < NumDrivers && strings.Contains(drivers[d].unit, "¤")
}

// Help is a line that explains d.
func Help(d Driver) string {
	if d < NumDrivers {
		return drivers[d].help
	}
	return ""
}

// ByName is the driver named name (its String), if there is one.
func ByName(name string) (Driver, bool) {
	for d := range NumDrivers {
		if drivers[d].name == name {
			return d, true
		}
	}
	return 0, false
}
