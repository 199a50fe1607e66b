package export

import (
	"strings"

	"hostplan/internal/model"
)

// driverWords are the label and unit of each driver of the cost identity
// on the Drivers and Costs sheets; "¤" in a unit is the scenario's
// currency.
var driverWords = map[model.Driver][2]string{
	model.GPUHoursPerRun:           {"GPU-hours per run", "GPU-hours"},
	model.RunsPerMonth:             {"runs per month", "runs/month"},
	model.HorizonMonths:            {"planning horizon", "months"},
	model.StaffFTE:                 {"operations staff", "FTE"},
	model.BurstStaffFTE:            {"the burst target's operations staff", "FTE"},
	model.ExtraStaffFTE:            {"extra staff for transfers and two environments", "FTE"},
	model.StaffCostPerFTE:          {"loaded cost of one FTE", "¤/FTE-year"},
	model.GPUHourPrice:             {"price per GPU-hour", "¤/GPU-hour"},
	model.CommittedGPUs:            {"committed GPUs (0: pay per hour used)", "GPUs"},
	model.OnDemandGPUHours:         {"GPU-hours per run above the commitment, paid on demand", "GPU-hours"},
	model.OnDemandPrice:            {"on-demand price of the GPU-hours above the commitment", "¤/GPU-hour"},
	model.StorageGB:                {"data kept in cloud storage", "GB"},
	model.StoragePricePerGBMonth:   {"storage price", "¤/GB-month"},
	model.OutputGB:                 {"outputs returned per run", "GB"},
	model.EgressPricePerGB:         {"transfer price out of the cloud", "¤/GB"},
	model.RunHours:                 {"hours a run keeps the snapshot in storage", "hours"},
	model.WorkHours:                {"compute hours of a run before interruptions", "hours"},
	model.InterruptionHours:        {"hours interruptions add to a run", "hours"},
	model.SourceGBps:               {"throughput of the storage the data is staged from", "GB/s"},
	model.FileCount:                {"files staged per run", "files"},
	model.TokensPerRun:             {"tokens per run", "tokens"},
	model.PriceInPerM:              {"price per million input tokens", "¤/M tokens"},
	model.PriceOutPerM:             {"price per million output tokens", "¤/M tokens"},
	model.TrainPerMTokens:          {"price per million fine-tuning tokens", "¤/M tokens"},
	model.MeanRPS:                  {"mean traffic", "requests/s"},
	model.TokensIn:                 {"input tokens per request", "tokens"},
	model.TokensOut:                {"output tokens per request", "tokens"},
	model.ReplicaHoursPerDay:       {"replica-hours a day of a dedicated deployment", "replica-hours"},
	model.GPUsPerReplica:           {"GPUs per replica", "GPUs"},
	model.NodePrice:                {"price of one node", "¤"},
	model.Nodes:                    {"nodes", "nodes"},
	model.GPUsPerNode:              {"GPUs per node", "GPUs"},
	model.LifeYears:                {"depreciation life", "years"},
	model.MaintenancePerYear:       {"maintenance a year, share of the price", "fraction"},
	model.ColoPerKWMonth:           {"colocation space", "¤/kW-month"},
	model.PowerKWMax:               {"maximum draw of a node", "kW"},
	model.PowerKWTypical:           {"typical draw of a node", "kW"},
	model.IdlePowerFraction:        {"idle draw, share of typical", "fraction"},
	model.PUE:                      {"power usage effectiveness (PUE)", "ratio"},
	model.ElectricityPerKWh:        {"electricity price", "¤/kWh"},
	model.LeasePerNodeMonth:        {"lease per node", "¤/node-month"},
	model.LeadTimeWeeks:            {"lead time from order to the first run", "weeks"},
	model.ExpectedUtilisation:      {"expected utilisation (0: this workload's own)", "fraction"},
	model.CloudFeasible:            {"cloud feasible (1 yes, 0 no: Summary's verdict)", ""},
	model.VariablePricePerGPUHour:  {"price per GPU-hour used", "¤/GPU-hour"},
	model.OtherCostPerRun:          {"other cost per run", "¤/run"},
	model.MonthlyFixedCost:         {"monthly fixed cost", "¤/month"},
	model.OneOffCost:               {"one-off cost", "¤"},
	model.StaffPerMonth:            {"operations staff per month", "¤/month"},
	model.StagingHours:             {"hours to stage the snapshot", "hours"},
	model.CommitmentPerMonth:       {"commitment: committed GPUs every hour", "¤/month"},
	model.StoragePerMonth:          {"object storage per month", "¤/month"},
	model.RequestsPerMonth:         {"requests per month", "requests"},
	model.DedicatedGPUHours:        {"GPU-hours a month of a dedicated deployment", "GPU-hours"},
	model.TokenPricePerM:           {"price per million tokens (mean in/out)", "¤/M tokens"},
	model.Capex:                    {"purchase price of the nodes", "¤"},
	model.DepreciationPerMonth:     {"depreciation per month", "¤/month"},
	model.LeasePerMonth:            {"lease per month", "¤/month"},
	model.MaintenancePerMonth:      {"maintenance per month", "¤/month"},
	model.SpacePerMonth:            {"colocation space per month", "¤/month"},
	model.IdlePowerPerMonth:        {"idle power per month", "¤/month"},
	model.Purchase:                 {"purchase, paid at the start", "¤"},
	model.LeadTimeDays:             {"lead time", "days"},
	model.LeadMonths:               {"months of runs in the lead time", "months"},
	model.Bridge:                   {"bridge: lead-time runs rented from the cloud", "¤"},
	model.OwnedFixedPerMonth:       {"owned cost per month, purchase net of residual value spread", "¤/month"},
	model.CapacityGPUHours:         {"GPU-hours the nodes offer a month", "GPU-hours/month"},
	model.OwnUtilisation:           {"utilisation by this workload", "fraction"},
	model.Utilisation:              {"utilisation of the effective price", "fraction"},
	model.EffectivePricePerGPUHour: {"effective price of an owned GPU-hour", "¤/GPU-hour"},
	model.RatePerGPUHourUsed:       {"rate per GPU-hour used", "¤/GPU-hour"},
	model.VariableCostPerRun:       {"variable cost per run", "¤/run"},
	model.CostPerRun:               {"cost per run", "¤/run"},
	model.MonthlySpend:             {"monthly spend", "¤/month"},
	model.CostHorizon:              {"cost over the horizon", "¤"},
	model.MonthsPerRun:             {"months a run keeps the direction in use", "months"},
	model.InfrastructureShare:      {"fabric, storage and installation, share of the nodes' price", "fraction"},
	model.CostOfCapital:            {"cost of capital", "fraction/year"},
	model.RentalPricePerGPUHour:    {"rate a few months' rental pays", "¤/GPU-hour"},
	model.RentalCostPerRun:         {"a run rented by the hour (the on-premises bridge's price)", "¤/run"},
	model.StaffShare:               {"share of the months the direction is in use (staff charged)", "fraction"},
	model.CapitalChargePerMonth:    {"cost of the capital in the hardware per month", "¤/month"},
	model.ResidualValue:            {"the hardware's value left at the end of the horizon", "¤"},
	model.Month:                    {"month of the horizon", "month"},
	model.CumulativeCost:           {"cumulative cost to the month", "¤"},
}

// driverLabel is d's label.
func driverLabel(d model.Driver) string {
	if w, ok := driverWords[d]; ok {
		return w[0]
	}
	return strings.ReplaceAll(d.String(), "_", " ")
}

// driverUnit is d's unit in currency.
func driverUnit(d model.Driver, currency string) string {
	return strings.ReplaceAll(driverWords[d][1], "¤", currency)
}

// isMoney reports whether d is an amount of money (a unit in ¤).
func isMoney(d model.Driver) bool { return strings.Contains(driverWords[d][1], "¤") }
