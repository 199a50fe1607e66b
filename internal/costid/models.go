package costid

import "strconv"

// A CostModel is the part of the cost identity that differs between the
// directions: how one direction's price per GPU-hour used, other cost per
// run, monthly fixed cost and one-off cost follow from its prices, rates,
// volumes, staff and hardware. Each direction's file in package model
// chooses its model and sets the model's inputs (DirectionResult.Drivers);
// the shared identity (identity.go) carries the four figures on to the
// cost of a run and over the horizon.
//
// Each definition cites its source where it models a published figure;
// docs/report.md lists them all as Words renders them.
type CostModel uint8

const (
	// NoCostModel: the four figures are inputs (a report made by hand).
	NoCostModel CostModel = iota
	ManagedFineTuningCosts
	ManagedInteractiveCosts
	ManagedBatchCosts
	CloudCosts
	CloudCommittedCosts // the cloud on a 1- or 3-year commitment
	OnPremDepreciationCosts
	OnPremPurchaseCosts
	OnPremLeaseCosts
	OnPremExistingCosts
	HPCCosts
	HybridCloudCosts        // hybrid bursting to the cloud with a run of batch work
	HybridCloudServingCosts // hybrid serving from the cloud (nothing staged)
	HybridHPCCosts          // hybrid bursting to shared HPC
	// Mixed pricing: a commitment for the base load, on demand above it.
	CloudMixedCosts
	HybridCloudMixedCosts
	HybridCloudServingMixedCosts
	// A managed dedicated deployment paid per GPU-hour.
	ManagedDedicatedCosts

	// NumCostModels is the number of cost models.
	NumCostModels
)

var costModelNames = [NumCostModels]string{
	NoCostModel:                  "given",
	ManagedFineTuningCosts:       "managed_fine_tuning",
	ManagedInteractiveCosts:      "managed_interactive",
	ManagedBatchCosts:            "managed_batch",
	CloudCosts:                   "cloud",
	CloudCommittedCosts:          "cloud_committed",
	OnPremDepreciationCosts:      "on_prem_depreciation",
	OnPremPurchaseCosts:          "on_prem_purchase",
	OnPremLeaseCosts:             "on_prem_lease",
	OnPremExistingCosts:          "on_prem_existing",
	HPCCosts:                     "hpc",
	HybridCloudCosts:             "hybrid_cloud",
	HybridCloudServingCosts:      "hybrid_cloud_serving",
	HybridHPCCosts:               "hybrid_hpc",
	CloudMixedCosts:              "cloud_mixed",
	HybridCloudMixedCosts:        "hybrid_cloud_mixed",
	HybridCloudServingMixedCosts: "hybrid_cloud_serving_mixed",
	ManagedDedicatedCosts:        "managed_dedicated",
}

// String is the model's stable name, such as "on_prem_purchase".
func (m CostModel) String() string {
	if m < NumCostModels {
		return costModelNames[m]
	}
	return "cost_model(" + strconv.Itoa(int(m)) + ")"
}

// CostModels lists every cost model, NoCostModel first.
func CostModels() []CostModel {
	out := make([]CostModel, NumCostModels)
	for i := range out {
		out[i] = CostModel(i)
	}
	return out
}

// Calendar and staging constants the definitions share with the engine's
// plan (package model), so that both count the same hours.
const (
	HoursPerMonth  = 730         // 8,760 h ÷ 12
	DaysPerMonth   = 365.25 / 12 // a month of the calendar, in days
	PerFileSeconds = 0.005       // time to stage one file
)

// constants are the values of the drivers that are constants (Const).
var constants = map[Driver]float64{MonthHours: HoursPerMonth, MonthDays: DaysPerMonth, FileSeconds: PerFileSeconds}

// Constant is the value of d when it is one of the constants the
// definitions share with the engine's plan (HoursPerMonth …).
func Constant(d Driver) (float64, bool) {
	k, ok := constants[d]
	return k, ok
}

// Constants lists the drivers that are constants, in Driver order.
func Constants() []Driver {
	var out []Driver
	for d := range NumDrivers {
		if _, ok := constants[d]; ok {
			out = append(out, d)
		}
	}
	return out
}

// Building blocks of the cost models, each as its direction's file had it.
var (
	// Operations staff of a rented direction, charged for the months it
	// is in use: FTE × loaded cost per year ÷ 12 × the share of months
	// with a run, each run keeping it for the months it takes (at least
	// one). A one-off job is not charged staff for the whole horizon.
	staffShare    = def{StaffShare, Min(Num(1), Mul(Ref(RunsPerMonth), Ref(MonthsPerRun)))}
	staffPerMonth = def{StaffPerMonth, Mul(Div(Mul(Ref(StaffFTE), Ref(StaffCostPerFTE)), Num(12)), Ref(StaffShare))}
	// Owned hardware is kept, and staffed, every month: FTE × loaded cost
	// per year ÷ 12.
	ownedStaff = def{StaffPerMonth, Div(Mul(Ref(StaffFTE), Ref(StaffCostPerFTE)), Num(12))}
	// Hybrid needs its burst target's effort plus its own.
	hybridStaff = def{StaffFTE, Add(Ref(BurstStaffFTE), Ref(ExtraStaffFTE))}

	// A commitment pays for the reserved GPUs every hour of the month,
	// used or not: it is the only charge for compute, so the price per
	// GPU-hour used is 0 and a committed rate is counted once.
	commitment  = def{CommitmentPerMonth, Mul(Mul(Ref(CommittedGPUs), Const(MonthHours)), Ref(GPUHourPrice))}
	rentedPrice = def{VariablePricePerGPUHour, IfPositive(Ref(CommittedGPUs), Num(0), Ref(GPUHourPrice))}
	// What a GPU-hour used costs: the rate, or the commitment spread over
	// the hours used.
	rateUsed = def{RatePerGPUHourUsed, IfPositive(Ref(CommittedGPUs),
		IfPositive(Mul(Ref(GPUHoursPerRun), Ref(RunsPerMonth)),
			Div(Ref(CommitmentPerMonth), Mul(Ref(GPUHoursPerRun), Ref(RunsPerMonth))), Num(0)),
		Ref(GPUHourPrice))}
	// Outputs leave the cloud each run.
	egress = Mul(Ref(OutputGB), Ref(EgressPricePerGB))
	// An offer sold by the instance bills its idle GPUs too: the GPU-hours
	// of whole instances beyond those the run uses, at the price per
	// GPU-hour used (0 under a commitment, which reserves whole instances,
	// and under a mix). AWS bills instance-hours: a p5.48xlarge is 8 H100
	// for its hourly price (aws.amazon.com/ec2/instance-types/p5).
	idleCost = Mul(Ref(IdleGPUHoursPerRun), Ref(VariablePricePerGPUHour))
	// Mixed pricing: the GPU-hours above the commitment, at the on-demand
	// rate, each run; nothing else is paid per GPU-hour used.
	onDemandPart = Mul(Ref(OnDemandGPUHours), Ref(OnDemandPrice))
	mixedPrice   = def{VariablePricePerGPUHour, Num(0)}
	// What a GPU-hour used costs under a mix: the month's commitment and
	// its on-demand hours over the GPU-hours used.
	mixedRateUsed = def{RatePerGPUHourUsed, IfPositive(Mul(Ref(GPUHoursPerRun), Ref(RunsPerMonth)),
		Div(Add(Ref(CommitmentPerMonth), Mul(Ref(RunsPerMonth), onDemandPart)), Mul(Ref(GPUHoursPerRun), Ref(RunsPerMonth))), Num(0))}
	// A run rented by the hour for a few months (the on-premises bridge):
	// at the rate the cloud direction pays by the hour (on-demand or spot);
	// a commitment is sold for one or three years only, so under one the
	// rental pays the offer's on-demand rate. Its other cost is the run's
	// egress (a mix's on-demand hours are among its GPU-hours already).
	rentalRun = def{RentalCostPerRun, Add(Mul(Add(Ref(GPUHoursPerRun), Ref(IdleGPUHoursPerRun)), Ref(RentalPricePerGPUHour)), egress)}

	noOneOff = def{OneOffCost, Num(0)}
	noOther  = def{OtherCostPerRun, Num(0)}
	// Data that lives in a cloud's storage leaves it for every run staged
	// elsewhere: the GB copied out × the cloud's transfer price out (AWS,
	// "Amazon S3 pricing", data transfer out to the internet, per GB;
	// Google Cloud and Azure price it alike).
	copyOut   = def{OtherCostPerRun, Mul(Ref(CopiedOutGB), Ref(EgressPricePerGB))}
	staffOnly = def{MonthlyFixedCost, Ref(StaffPerMonth)}

	// Owned hardware: the nodes and the cluster around them (fabric,
	// storage, installation) as a share of their price.
	capex = def{Capex, Mul(Mul(Ref(NodePrice), Ref(Nodes)), Add(Num(1), Ref(InfrastructureShare)))}
	// The capital in the hardware could earn the cost of capital
	// elsewhere: on the average balance, half the capex over a
	// straight-line life, a year's rate ÷ 12 a month.
	capitalCharge = def{CapitalChargePerMonth, Div(Mul(Ref(Capex), Ref(CostOfCapital)), Num(24))}
	// The hardware's value left at the end of the horizon: the capex less
	// a straight line over the life (an estimate of its resale value;
	// nothing once the horizon reaches the life). A purchase is credited
	// it; depreciation charges only the horizon's share of the capex, so
	// the rest is this value, never charged.
	residual = def{ResidualValue, Mul(Ref(Capex), Sub(Num(1), Min(Num(1), Div(Ref(HorizonMonths), Mul(Ref(LifeYears), Num(12))))))}
	// A lease's hardware is the lessor's at its end, and hardware already
	// owned is neither bought nor sold here: no residual value.
	noResidual  = def{ResidualValue, Num(0)}
	maintenance = def{MaintenancePerMonth, Div(Mul(Ref(Capex), Ref(MaintenancePerYear)), Num(12))}
	space       = def{SpacePerMonth, Mul(Mul(Ref(ColoPerKWMonth), Ref(PowerKWMax)), Ref(Nodes))}
	// Idle draw all month: typical power × idle fraction × PUE × price.
	idlePower = def{IdlePowerPerMonth, Mul(Mul(Mul(Mul(Mul(Ref(PowerKWTypical), Ref(IdlePowerFraction)), Ref(Nodes)),
		Ref(PUE)), Ref(ElectricityPerKWh)), Const(MonthHours))}
	// Active power above idle, per GPU-hour used.
	powerPrice = def{VariablePricePerGPUHour, Mul(Mul(Div(Mul(Ref(PowerKWTypical), Sub(Num(1), Ref(IdlePowerFraction))),
		Ref(GPUsPerNode)), Ref(PUE)), Ref(ElectricityPerKWh))}
	// The runs that fall inside the lead time are rented from the cloud
	// direction by the hour, at its rental cost per run (the hardware's
	// costs already start in month 1, so this is conservative); with the
	// cloud ruled out they wait instead.
	leadDays   = def{LeadTimeDays, Mul(Ref(LeadTimeWeeks), Num(7))}
	leadMonths = def{LeadMonths, Min(Div(Ref(LeadTimeDays), Const(MonthDays)), Ref(HorizonMonths))}
	bridge     = def{Bridge, IfPositive(Ref(CloudFeasible),
		Mul(Mul(Ref(LeadMonths), Ref(RunsPerMonth)), Ref(RentalCostPerRun)), Num(0))}
	// The hardware's use and the effective price of an owned GPU-hour at
	// the expected utilisation: the fixed cost (a purchase spread over the
	// horizon) over the hours used, plus the power above idle.
	capacity       = def{CapacityGPUHours, Mul(Mul(Ref(Nodes), Ref(GPUsPerNode)), Const(MonthHours))}
	ownUtilisation = def{OwnUtilisation, IfPositive(Ref(CapacityGPUHours),
		Div(Mul(Ref(GPUHoursPerRun), Ref(RunsPerMonth)), Ref(CapacityGPUHours)), Num(0))}
	utilisation    = def{Utilisation, IfPositive(Ref(ExpectedUtilisation), Ref(ExpectedUtilisation), Ref(OwnUtilisation))}
	effectivePrice = def{EffectivePricePerGPUHour, IfPositive(Mul(Ref(CapacityGPUHours), Ref(Utilisation)),
		Add(Div(Ref(OwnedFixedPerMonth), Mul(Ref(CapacityGPUHours), Ref(Utilisation))), Ref(VariablePricePerGPUHour)), Num(0))}
)

// running is the monthly cost of owned hardware after its financing, in
// the order onprem.go added it up, with the capital charge when capital.
func running(financing Expr, capital bool) Expr {
	sum := Add(Add(Ref(MaintenancePerMonth), Ref(SpacePerMonth)), Ref(IdlePowerPerMonth))
	if financing.op != opNum || financing.k != 0 {
		sum = Add(Add(Add(financing, Ref(MaintenancePerMonth)), Ref(SpacePerMonth)), Ref(IdlePowerPerMonth))
	}
	if capital {
		sum = Add(sum, Ref(CapitalChargePerMonth))
	}
	return Add(sum, Ref(StaffPerMonth))
}

// onPrem is a cost model of owned hardware: financing defines the monthly
// charge for the hardware (nil: none), capital whether the capital in it
// is charged (bought hardware; a lease's payment holds the lessor's, and
// hardware already owned is sunk), oneOff the one-off cost, and extra the
// figures those refer to.
func onPrem(financing *def, capital bool, oneOff, owned Expr, extra ...def) []def {
	defs := []def{ownedStaff, capex, maintenance, space, idlePower, powerPrice, copyOut}
	charge := Num(0)
	if financing != nil {
		defs = append(defs, *financing)
		charge = Ref(financing.d)
	}
	if capital {
		defs = append(defs, capitalCharge)
	}
	defs = append(defs, def{MonthlyFixedCost, running(charge, capital)})
	defs = append(defs, extra...)
	return append(defs, def{OneOffCost, oneOff}, def{OwnedFixedPerMonth, owned},
		capacity, ownUtilisation, utilisation, effectivePrice)
}

// hybridCloud is the cost model of hybrid bursting to the cloud, with run
// the definitions of the run's hours (none: an input).
func hybridCloud(run ...def) []def {
	defs := append([]def{hybridStaff, staffShare, staffPerMonth, commitment, rentedPrice}, run...)
	return append(defs,
		// The snapshot lives in cloud storage while the run lasts; the
		// outputs return.
		def{OtherCostPerRun, Add(Add(Mul(Mul(Ref(StorageGB), Ref(StoragePricePerGBMonth)), Div(Ref(RunHours), Const(MonthHours))), egress), idleCost)},
		def{MonthlyFixedCost, Add(Ref(CommitmentPerMonth), Ref(StaffPerMonth))},
		noOneOff, rateUsed)
}

// mixed is a cloud cost model under mixed pricing: its price per GPU-hour
// used is 0, its other cost per run adds the GPU-hours above the
// commitment at the on-demand rate, and its rate per GPU-hour used counts
// them.
func mixed(defs []def) []def {
	out := make([]def, 0, len(defs))
	for _, d := range defs {
		switch d.d {
		case VariablePricePerGPUHour:
			d = mixedPrice
		case OtherCostPerRun:
			d.e = Add(d.e, onDemandPart)
		case RatePerGPUHourUsed:
			d = mixedRateUsed
		}
		out = append(out, d)
	}
	return out
}

// cloudCosts is the cost model of the cloud direction, whose runs rent
// by the hour at rental (the on-premises bridge).
func cloudCosts(rental Expr) []def {
	return []def{staffShare, staffPerMonth, commitment, rentedPrice,
		// The data set lives in cloud storage for the horizon.
		{StoragePerMonth, Mul(Ref(StorageGB), Ref(StoragePricePerGBMonth))},
		{OtherCostPerRun, Add(egress, idleCost)},
		{MonthlyFixedCost, Add(Add(Ref(CommitmentPerMonth), Ref(StoragePerMonth)), Ref(StaffPerMonth))},
		noOneOff, rateUsed, {RentalPricePerGPUHour, rental}, rentalRun}
}

// costModels holds each model's definitions, in the order they are
// evaluated; the shared identity follows.
var costModels = [NumCostModels][]def{
	NoCostModel: nil,
	ManagedFineTuningCosts: {staffShare, staffPerMonth, {VariablePricePerGPUHour, Num(0)},
		// Per-token fine-tuning price × training tokens.
		{OtherCostPerRun, Mul(Div(Ref(TokensPerRun), Num(1e6)), Ref(TrainPerMTokens))},
		staffOnly, noOneOff},
	ManagedInteractiveCosts: {staffShare, staffPerMonth, {VariablePricePerGPUHour, Num(0)},
		// Per-token prices × a month of traffic at the mean rate.
		{RequestsPerMonth, Mul(Mul(Ref(MeanRPS), Const(MonthHours)), Num(3600))},
		{OtherCostPerRun, Div(Mul(Ref(RequestsPerMonth), Add(Mul(Ref(TokensIn), Ref(PriceInPerM)), Mul(Ref(TokensOut), Ref(PriceOutPerM)))), Num(1e6))},
		staffOnly, noOneOff},
	ManagedBatchCosts: {staffShare, staffPerMonth, {VariablePricePerGPUHour, Num(0)},
		// Batch tokens at the input and output prices weighted by the
		// scenario's split (tokens in and out per item); with no split
		// given, at the mean of the two.
		{TokenPricePerM, IfPositive(Add(Ref(TokensIn), Ref(TokensOut)),
			Div(Add(Mul(Ref(TokensIn), Ref(PriceInPerM)), Mul(Ref(TokensOut), Ref(PriceOutPerM))), Add(Ref(TokensIn), Ref(TokensOut))),
			Div(Add(Ref(PriceInPerM), Ref(PriceOutPerM)), Num(2)))},
		{OtherCostPerRun, Mul(Div(Ref(TokensPerRun), Num(1e6)), Ref(TokenPricePerM))},
		staffOnly, noOneOff},
	CloudCosts:          cloudCosts(Ref(GPUHourPrice)),
	CloudCommittedCosts: cloudCosts(Ref(OnDemandPrice)),
	OnPremDepreciationCosts: onPrem(&def{DepreciationPerMonth, Div(Ref(Capex), Mul(Ref(LifeYears), Num(12)))}, true,
		Ref(Bridge), Ref(MonthlyFixedCost), residual, leadDays, leadMonths, bridge),
	// A purchase is paid at the start and the hardware's value left at the
	// end of the horizon is credited in the total (the one-off cost is the
	// purchase net of it).
	OnPremPurchaseCosts: onPrem(nil, true, Add(Sub(Ref(Purchase), Ref(ResidualValue)), Ref(Bridge)),
		Add(Ref(MonthlyFixedCost), Div(Sub(Ref(Purchase), Ref(ResidualValue)), Ref(HorizonMonths))),
		def{Purchase, Ref(Capex)}, residual, leadDays, leadMonths, bridge),
	OnPremLeaseCosts: onPrem(&def{LeasePerMonth, Mul(Ref(LeasePerNodeMonth), Ref(Nodes))}, false,
		Ref(Bridge), Ref(MonthlyFixedCost), noResidual, leadDays, leadMonths, bridge),
	OnPremExistingCosts:     onPrem(nil, false, Num(0), Ref(MonthlyFixedCost), noResidual),
	HPCCosts:                {staffShare, staffPerMonth, {VariablePricePerGPUHour, Ref(GPUHourPrice)}, copyOut, staffOnly, noOneOff},
	HybridCloudCosts:        hybridCloud(burstRun...),
	HybridCloudServingCosts: hybridCloud(),
	HybridHPCCosts:          {hybridStaff, staffShare, staffPerMonth, {VariablePricePerGPUHour, Ref(GPUHourPrice)}, noOther, staffOnly, noOneOff},

	CloudMixedCosts:              mixed(cloudCosts(Ref(OnDemandPrice))),
	HybridCloudMixedCosts:        mixed(hybridCloud(burstRun...)),
	HybridCloudServingMixedCosts: mixed(hybridCloud()),

	ManagedDedicatedCosts: {staffShare, staffPerMonth, {VariablePricePerGPUHour, Num(0)},
		// The replicas the load over the day needs (at least one, the
		// provider's minimum), each of its GPUs for every hour it runs, a
		// month of such days (730 h ÷ 24), at the provider's price per
		// GPU-hour: the deployment is paid while it runs, as Hugging Face
		// Inference Endpoints and Fireworks on-demand deployments bill.
		{DedicatedGPUHours, Div(Mul(Mul(Ref(ReplicaHoursPerDay), Ref(GPUsPerReplica)), Const(MonthHours)), Num(24))},
		{OtherCostPerRun, Mul(Ref(DedicatedGPUHours), Ref(GPUHourPrice))},
		staffOnly, noOneOff},
}

// burstRun defines the hours of a hybrid burst to the cloud with a run of
// batch work.
var burstRun = []def{
	// Staging the snapshot: volume ÷ throughput + a fixed time per file.
	{StagingHours, Div(Add(Div(Ref(StorageGB), Ref(SourceGBps)), Mul(Ref(FileCount), Const(FileSeconds))), Num(3600))},
	// The run lasts its compute, its staging and its interruptions.
	{RunHours, Add(Add(Ref(WorkHours), Ref(StagingHours)), Ref(InterruptionHours))},
}

// costly reports whether figure d of m is needed for the costs: the four
// figures the shared identity reads, those other directions read
// (readByOthers), and every figure they refer to. The others — a
// commitment's rate per GPU-hour used, the effective price of an owned
// GPU-hour — inform a reader, and a Monte Carlo draw skips them.
func (m CostModel) costly(d Driver) bool { return m < NumCostModels && needed[m][d] }

// readByOthers are the figures of a model another direction's costs read:
// the on-premises bridge rents a run of the cloud direction's.
var readByOthers = [NumCostModels][]Driver{CloudCosts: {RentalCostPerRun}, CloudCommittedCosts: {RentalCostPerRun}, CloudMixedCosts: {RentalCostPerRun}}

// needed is, for each model, the figures costly reports.
var needed = func() (out [NumCostModels][NumDrivers]bool) {
	for m := range NumCostModels {
		var walk func(d Driver)
		walk = func(d Driver) {
			if out[m][d] {
				return
			}
			out[m][d] = true
			for _, def := range costModels[m] {
				if def.d == d {
					var used [NumDrivers]bool
					mark(def.e, &used)
					for x := range NumDrivers {
						if used[x] {
							walk(x)
						}
					}
				}
			}
		}
		for _, d := range append([]Driver{VariablePricePerGPUHour, OtherCostPerRun, MonthlyFixedCost, OneOffCost}, readByOthers[m]...) {
			walk(d)
		}
	}
	return out
}()

// definedAt is, for each model, the index of each figure's definition: in
// costModels[m] from 0, in costIdentity from len(costModels[m]); -1 for an
// input.
var definedAt = func() (at [NumCostModels][NumDrivers]int) {
	for m := range at {
		for i := range at[m] {
			at[m][i] = -1
		}
		n := len(costModels[m])
		for i, d := range costModels[m] {
			at[m][d.d] = i
		}
		for i, d := range costIdentity {
			at[m][d.d] = n + i
		}
	}
	return at
}()

// Defines reports whether m (or the shared identity) defines d; otherwise
// d is an input.
func (m CostModel) Defines(d Driver) bool {
	return m < NumCostModels && d < NumDrivers && definedAt[m][d] >= 0
}

// Definition is the expression that defines d under m, or Ref(d) for an
// input.
func (m CostModel) Definition(d Driver) Expr {
	if !m.Defines(d) {
		return Ref(d)
	}
	i := definedAt[m][d]
	if n := len(costModels[m]); i >= n {
		return costIdentity[i-n].e
	}
	return costModels[m][i].e
}

// Figures lists the figures m defines and then the shared identity's, in
// the order they are evaluated.
func (m CostModel) Figures() []Driver {
	var out []Driver
	for _, d := range costModels[m] {
		out = append(out, d.d)
	}
	for _, d := range costIdentity {
		out = append(out, d.d)
	}
	return out
}

// Inputs lists the inputs m's figures refer to, in Driver order.
func (m CostModel) Inputs() []Driver {
	var used [NumDrivers]bool
	for _, d := range m.Figures() {
		mark(m.Definition(d), &used)
	}
	var out []Driver
	for d := range NumDrivers {
		if used[d] && !m.Defines(d) {
			out = append(out, d)
		}
	}
	return out
}

func mark(e Expr, used *[NumDrivers]bool) {
	if e.op == opRef {
		used[e.d] = true
	}
	for _, a := range e.args {
		mark(a, used)
	}
}

// Formula renders the definition of d under m as a spreadsheet formula
// (without the leading "="), as Expr.Formula does, writing a figure m
// defines as its definition where ref gives "".
func (m CostModel) Formula(d Driver, ref func(Driver) string) string {
	s, _ := m.Definition(d).render(&renderer{&formulaSyntax, ref, m})
	return s
}

// Words renders the definition of d under m for a reader, as Expr.Words
// does.
func (m CostModel) Words(d Driver, label func(Driver) string) string {
	s, _ := m.Definition(d).render(&renderer{&wordSyntax, label, m})
	return s
}
