package model

import (
	"fmt"
	"math"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// NodeChoice says how the model chooses a server node when the scenario
// names none (onPrem); the workbook and the window quote it.
const NodeChoice = "the node whose purchase in whole nodes costs least for the work (memory as well as FLOPs; a node larger than the run can use is charged for its idle GPUs)"

func (e *evaluator) onPrem(r *DirectionResult) error {
	o := e.s.Options.OnPrem
	site := e.cat.Site
	var node catalog.Node
	if o.Node != "" {
		n, ok := e.cat.Node(o.Node)
		if !ok {
			return scenario.Errors{{Path: "options.on_prem.node", Problem: fmt.Sprintf("%q is not in the catalog", o.Node), Allowed: strings.Join(e.cat.IDs(catalog.KindNode), ", ")}}
		}
		node = n
		e.weigh(catalog.KindNode, n.ID)
	} else {
		e.weighAll(catalog.KindNode) // the choice, and its fallback, read every node's price
		// The node with the lowest purchase price per GPU × GPU-hours for
		// the work (gpuHoursPerWork: memory as well as FLOPs), bought in
		// whole nodes: a service pays for the nodes its replicas fill, and
		// a run that cannot use a node's GPUs (a rack of 72 for a job of
		// 8) pays for the idle ones; when none holds it, the lowest price
		// per dense TFLOP/s.
		best, bestTie, bestAny := math.Inf(1), math.Inf(1), math.Inf(1)
		var fallback catalog.Node
		for _, n := range e.cat.Nodes {
			g, _ := e.cat.GPU(n.GPU)
			perGPU := n.Price / float64(n.GPUs)
			if c := perGPU / g.PeakTFLOPs(e.z.precision); c < bestAny {
				bestAny, fallback = c, n
			}
			work, fits := e.z.gpuHoursPerWork(hardware{gpu: g, perNode: n.GPUs, intraGBs: n.IntraNodeGBs, netGBs: n.NetworkGBs})
			if !fits {
				continue
			}
			c, tie := perGPU*work, perGPU*work
			if e.z.serving {
				c = math.Ceil(work/float64(n.GPUs)) * n.Price // work is the GPUs the peak needs
			} else if used := max(e.z.minGPUs(g, maxTableGPUs), min(8, n.GPUs)); n.GPUs > used {
				c *= float64(n.GPUs) / float64(used)
			}
			// At the same price, the node with the more capacity for it.
			if c < best || c == best && tie < bestTie {
				best, bestTie, node = c, tie, n
			}
		}
		if node.ID == "" {
			node = fallback
		}
	}
	g, _ := e.cat.GPU(node.GPU)
	r.Offer, r.OfferName = node.ID, node.Name
	e.use(r, node.ID, node.Entry)
	e.cite(r, g.ID, g.Entry)
	// The site's prices, each with its own date, unless the scenario gives
	// its own (whose date is the scenario's).
	e.cite(r, "site defaults", site.Entry)
	e.dated(r, "site colocation price", site.Figure("colo_per_kw_month"))
	e.dated(r, "site maintenance rate", site.Figure("maintenance_per_year"))
	if !o.ElectricityKWh.IsSet() {
		e.dated(r, "site electricity price", site.Figure("electricity_per_kwh"))
	}
	if !o.PUE.IsSet() {
		e.dated(r, "site PUE", site.Figure("pue"))
	}
	if e.s.Data.Movement != scenario.MoveNone && e.s.Data.ControlledEnv != "" && e.s.Data.ControlledEnv != scenario.OnPrem {
		if !r.quiet {
			r.note(NoteControlledElsewhere, []string{"data.controlled_environment"},
				"the controlled environment is %s: on-premises here means new owned hardware", directionWords(e.s.Data.ControlledEnv))
		}
	}

	z := e.z
	fixedGPUs := 0
	if o.Nodes > 0 {
		fixedGPUs = o.Nodes * node.GPUs
	}
	stageH := 0.0
	if !z.serving {
		stageH, _ = e.staging(r, z.stagingGB, z.location, scenario.LocationOnSite)
	}
	copied := 0.0
	if stageH > 0 {
		copied = z.stagingGB
	}
	e.copyOut(r, copied)
	hw := hardware{gpu: g, perNode: node.GPUs, intraGBs: node.IntraNodeGBs, netGBs: node.NetworkGBs,
		storageGBs: node.StorageGBs, maxGPUs: fixedGPUs}
	e.place(r, hw, fixedGPUs, stageH, false)
	e.interruptions(r, hw, false)
	if r.DataPath != nil {
		r.DataPath.StagingHours = stageH
	}
	nodes := o.Nodes
	if nodes == 0 {
		nodes = int(math.Ceil(float64(r.GPUs) / float64(node.GPUs)))
	}
	e.racks(r, node, nodes)
	if !o.Existing {
		r.LeadTimeDays = node.LeadTimeWeeks * 7
		if !r.quiet {
			r.note(NoteLeadTime, []string{"options.on_prem.node", "options.on_prem.existing"},
				"lead time %.0f weeks before the first run (procurement and installation, estimate)", node.LeadTimeWeeks)
		}
	}

	// The cost model's inputs: the node, the site and the financing.
	v := r.Drivers
	life := site.LifeYears
	if o.LifeYears > 0 {
		life = o.LifeYears
	}
	v[costid.NodePrice], v[costid.Nodes], v[costid.GPUsPerNode], v[costid.LifeYears] = o.NodePrice.Or(node.Price), float64(nodes), float64(node.GPUs), life
	v[costid.MaintenancePerYear], v[costid.ColoPerKWMonth], v[costid.IdlePowerFraction] = site.MaintenancePerYear, site.ColoPerKWMonth, site.IdlePowerFraction
	v[costid.PowerKWMax], v[costid.PowerKWTypical] = node.PowerKWMax, node.PowerKWTypical
	v[costid.PUE], v[costid.ElectricityPerKWh] = o.PUE.Or(site.PUE), o.ElectricityKWh.Or(site.ElectricityPerKWh)
	v[costid.ExpectedUtilisation] = o.ExpectedUtilisation.Or(0)
	v[costid.InfrastructureShare], v[costid.CostOfCapital] = o.InfrastructureShare.Or(site.InfrastructureShare), o.CostOfCapital.Or(site.CostOfCapital)
	switch {
	case o.Existing:
		r.CostModel = costid.OnPremExistingCosts
		r.note(NoteExistingHardware, []string{"options.on_prem.existing"}, "existing hardware: no depreciation charged and no residual value counted, running costs only")
	case o.Financing == "purchase":
		// Cash view: the price is paid up front and the hardware's value
		// left at the end of the horizon (residual value) is credited.
		r.CostModel = costid.OnPremPurchaseCosts
	case o.Financing == "lease":
		r.CostModel = costid.OnPremLeaseCosts
		v[costid.LeasePerNodeMonth] = o.LeasePerNodeMonth.Likely
	default:
		// Straight-line depreciation over the stated life.
		r.CostModel = costid.OnPremDepreciationCosts
	}
	if !o.Existing {
		// The bridge rents the runs of the lead time from the cloud
		// direction, evaluated before this one.
		v[costid.LeadTimeWeeks], v[costid.RentalCostPerRun], v[costid.CloudFeasible] = node.LeadTimeWeeks, e.cloudRun, b2f(e.cloudFeasible)
	}
	if !r.quiet {
		e.onPremSources(r, node)
	}
	if !r.quiet {
		// The notes and the owned cost read figures of the cost model.
		r.deriveParts(z.runsPerMonth, e.months())
		e.residualNote(r)
		r.note(NotePowerAboveIdle, []string{"options.on_prem.pue", "options.on_prem.electricity_per_kwh"},
			"power above idle: %.4g per GPU-hour (%.4g kW per GPU × PUE %.3g × %.4g per kWh)", r.Drivers[costid.VariablePricePerGPUHour], node.PowerKWTypical/float64(node.GPUs), r.Drivers[costid.PUE], r.Drivers[costid.ElectricityPerKWh])
	}
	used := r.GPUHoursPerRun * z.runsPerMonth
	capacity := float64(nodes*node.GPUs) * hoursPerMonth
	if capacity > 0 {
		util := used / capacity
		if !r.quiet {
			r.note(NoteOwnedUtilisation, []string{"options.on_prem.nodes", "workload.runs_per_month"},
				"utilisation %.1f %% of %d GPUs (%.0f of %.0f GPU-hours a month)", util*100, nodes*node.GPUs, used, capacity)
		}
		if util > 1 {
			if r.ruleOut() {
				r.infeasible(ReasonOwnedCapacityShort, []string{"options.on_prem.nodes", "workload.runs_per_month"},
					"needs %s GPU-hours a month; %s %s", num.Whole(used), plural(nodes, "node"), agree(nodes, "gives ", "give ")+num.Whole(capacity))
			}
		}
	}
	fte := o.StaffFTE.Or(onPremStaff(site, nodes))
	if !o.StaffFTE.IsSet() && !r.quiet {
		r.note(NoteOwnedStaff, []string{"options.on_prem.staff_fte"},
			"staff %.2f FTE: %.3g FTE per node × %s, at least %.2g FTE (site estimate; give the staff your site has)", fte, site.StaffFTEPerNode, plural(nodes, "node"), site.StaffFTEMin)
	}
	e.staff(r, fte, "on-premises hardware, facilities and cluster")
	v[costid.StaffFTE] = fte
	if !r.quiet {
		r.fromField(costid.StaffFTE, scenario.OnPrem, costid.StaffFTE, "options.on_prem.staff_fte", o.StaffFTE, "estimate", "", "", catalog.Entry{})
	}
	// The effective price per GPU-hour when the hardware is busy u of the
	// time (the cost model's effective_price_per_gpu_hour).
	u := used / capacity
	if o.ExpectedUtilisation.IsSet() {
		u = o.ExpectedUtilisation.Likely
	}
	if u > 0 && capacity > 0 && !r.quiet {
		r.deriveParts(z.runsPerMonth, e.months())
		r.OwnedCost = &OwnedCost{Utilisation: u, EffectivePricePerGPUHour: r.Drivers[costid.EffectivePricePerGPUHour],
			FixedPerMonth: r.Drivers[costid.OwnedFixedPerMonth], GPUs: nodes * node.GPUs}
	}
	if r.LeadTimeDays > 0 && e.z.runsPerMonth > 0 && !e.cloudFeasible && !r.quiet {
		lead := math.Min(r.LeadTimeDays/costid.DaysPerMonth, float64(e.months()))
		r.note(NoteBridgeUnavailable, []string{"options.on_prem.existing"},
			"the runs of the first %.1f months wait for the hardware: the cloud direction, the bridge, is ruled out", lead)
	}
	return nil
}

// residualNote states the residual value rule of r's financing: a
// purchase is credited the hardware's value left at the end of the
// horizon, straight line over the life; depreciation charges only the
// horizon's share, so that value is never charged; a lease's hardware is
// the lessor's (hardware already owned: the existing_hardware note).
func (e *evaluator) residualNote(r *DirectionResult) {
	v, n := r.Drivers, e.months()
	lifeMonths := v[costid.LifeYears] * 12
	fields := []string{"options.on_prem.financing", "options.on_prem.life_years"}
	switch r.CostModel {
	case costid.OnPremPurchaseCosts, costid.OnPremDepreciationCosts:
		if float64(n) >= lifeMonths {
			what := "no replacement is bought"
			if r.CostModel == costid.OnPremDepreciationCosts {
				what = "depreciation goes on past it, as if the hardware were replaced"
			}
			r.note(NoteResidualValue, fields, "residual value none: the %d-month horizon reaches the hardware's %.3g-year life (%s)", n, v[costid.LifeYears], what)
			return
		}
		what := "credited against the purchase"
		if r.CostModel == costid.OnPremDepreciationCosts {
			what = "never charged, as depreciation charges the horizon's share only"
		}
		r.note(NoteResidualValue, fields, "residual value %s (the capex %s less a straight line over %d of the life's %.0f months, an estimate of its resale value): %s",
			num.Whole(v[costid.ResidualValue]), num.Whole(v[costid.Capex]), n, lifeMonths, what)
	case costid.OnPremLeaseCosts:
		r.note(NoteResidualValue, fields, "residual value none: the leased hardware is the lessor's at the end of the lease (a buy-out is not modelled)")
	}
}

// onPremStaff is the operations staff owned hardware needs: the site's
// FTE per node × the nodes, at least the site's minimum (catalog site
// staff_fte_per_node and staff_fte_min, with their sources).
func onPremStaff(site catalog.Site, nodes int) float64 {
	return math.Max(site.StaffFTEMin, site.StaffFTEPerNode*float64(nodes))
}

// racks places the nodes in racks under the site's power limit per rack
// (options.on_prem.rack_kw, else the site's): as many nodes to a rack as
// their maximum draw allows; a node drawing more than a rack takes cannot
// be placed, and rules the direction out.
func (e *evaluator) racks(r *DirectionResult, node catalog.Node, nodes int) {
	limit := e.s.Options.OnPrem.RackKW.Or(e.cat.Site.RackKW)
	if limit <= 0 {
		return
	}
	perRack := math.Floor(limit / node.PowerKWMax)
	if perRack < 1 {
		if r.ruleOut() {
			r.infeasible(ReasonRackPowerExceeded, []string{"options.on_prem.rack_kw", "options.on_prem.node"},
				"one %s draws up to %.1f kW; the site's racks take %.1f kW", node.Name, node.PowerKWMax, limit)
		}
		return
	}
	if !r.quiet {
		racks := math.Ceil(float64(nodes) / perRack)
		r.note(NoteRacks, []string{"options.on_prem.rack_kw"}, "%s in %s of at most %.0f kW (%.0f per rack at %.1f kW each)",
			plural(nodes, "node"), plural(int(racks), "rack"), limit, perRack, node.PowerKWMax)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// onPremSources says where each input of owned hardware's cost model came
// from.
func (e *evaluator) onPremSources(r *DirectionResult, node catalog.Node) {
	o, site := e.s.Options.OnPrem, e.cat.Site
	op, siteID := scenario.OnPrem, catalog.SiteID
	r.fromField(costid.NodePrice, op, costid.NodePrice, "options.on_prem.node_price", o.NodePrice, "node", node.ID, "price", node.Entry)
	r.fromModel(costid.Nodes, op, costid.Nodes, InputPlan, "options.on_prem.nodes")
	r.fromModel(costid.GPUsPerNode, op, costid.GPUsPerNode, InputPlan, "options.on_prem.node")
	life := scenario.Value{}
	if o.LifeYears > 0 {
		life = scenario.Known(o.LifeYears)
	}
	r.fromField(costid.LifeYears, op, costid.LifeYears, "options.on_prem.life_years", life, "site", siteID, "life_years", site.Figure("life_years"))
	r.fromCatalog(costid.MaintenancePerYear, op, "site", siteID, "maintenance_per_year", site.Figure("maintenance_per_year"))
	r.fromCatalog(costid.ColoPerKWMonth, op, "site", siteID, "colo_per_kw_month", site.Figure("colo_per_kw_month"))
	r.fromCatalog(costid.PowerKWMax, op, "node", node.ID, "power_kw_max", node.Entry)
	r.fromCatalog(costid.PowerKWTypical, op, "node", node.ID, "power_kw_typical", node.Entry)
	r.fromCatalog(costid.IdlePowerFraction, op, "site", siteID, "idle_power_fraction", site.Figure("idle_power_fraction"))
	r.fromField(costid.PUE, op, costid.PUE, "options.on_prem.pue", o.PUE, "site", siteID, "pue", site.Figure("pue"))
	r.fromField(costid.ElectricityPerKWh, op, costid.ElectricityPerKWh, "options.on_prem.electricity_per_kwh", o.ElectricityKWh, "site", siteID, "electricity_per_kwh", site.Figure("electricity_per_kwh"))
	if r.CostModel == costid.OnPremLeaseCosts {
		r.fromField(costid.LeasePerNodeMonth, op, costid.LeasePerNodeMonth, "options.on_prem.lease_per_node_month", o.LeasePerNodeMonth, "", "", "", catalog.Entry{})
	}
	if !o.Existing {
		r.fromCatalog(costid.LeadTimeWeeks, op, "node", node.ID, "lead_time_weeks", node.Entry)
		r.fromModel(costid.RentalCostPerRun, scenario.Cloud, costid.RentalCostPerRun, InputFigure, "")
		r.fromModel(costid.CloudFeasible, "", costid.CloudFeasible, InputFigure, "")
	}
	r.fromField(costid.ExpectedUtilisation, op, costid.ExpectedUtilisation, "options.on_prem.expected_utilisation", o.ExpectedUtilisation, "", "", "", catalog.Entry{})
	r.fromField(costid.InfrastructureShare, op, costid.InfrastructureShare, "options.on_prem.infrastructure_share", o.InfrastructureShare, "site", siteID, "infrastructure_share", site.Figure("infrastructure_share"))
	if r.CostModel == costid.OnPremDepreciationCosts || r.CostModel == costid.OnPremPurchaseCosts {
		r.fromField(costid.CostOfCapital, op, costid.CostOfCapital, "options.on_prem.cost_of_capital", o.CostOfCapital, "site", siteID, "cost_of_capital", site.Figure("cost_of_capital"))
	}
}

// onPremLines adds the cost lines of owned hardware, from its figures.
func (e *evaluator) onPremLines(r *DirectionResult) {
	v, z := r.Drivers, e.z
	months, n := float64(e.months()), e.months()
	nodes := int(v[costid.Nodes])
	switch r.CostModel {
	case costid.OnPremPurchaseCosts:
		r.line("Purchase", v[costid.Purchase], "%d × %.0f + %.0f %% for fabric, storage and installation, paid at the start", nodes, v[costid.NodePrice], v[costid.InfrastructureShare]*100)
		if v[costid.ResidualValue] > 0 {
			r.line("Residual value", -v[costid.ResidualValue], "the hardware's value left after %d of %.0f months of life (straight line, estimate), credited in the total", n, v[costid.LifeYears]*12)
		}
	case costid.OnPremLeaseCosts:
		r.line("Lease", v[costid.LeasePerMonth]*months, "%d nodes × %.0f per node-month × %d months", nodes, v[costid.LeasePerNodeMonth], n)
	case costid.OnPremDepreciationCosts:
		r.line("Depreciation", v[costid.DepreciationPerMonth]*months, "%d × %.0f + %.0f %% for fabric, storage and installation ÷ (%.3g years × 12) × %d months", nodes, v[costid.NodePrice], v[costid.InfrastructureShare]*100, v[costid.LifeYears], n)
	}
	if v[costid.CapitalChargePerMonth] > 0 {
		r.line("Cost of capital", v[costid.CapitalChargePerMonth]*months, "%.0f %% a year on half the %.0f capex (the average balance) ÷ 12 × %d months", v[costid.CostOfCapital]*100, v[costid.Capex], n)
	}
	r.line("Maintenance", v[costid.MaintenancePerMonth]*months, "%.0f %% of %.0f per year ÷ 12 × %d months (estimate)", v[costid.MaintenancePerYear]*100, v[costid.Capex], n)
	r.line("Space (colocation)", v[costid.SpacePerMonth]*months, "%.4g per kW-month × %.4g kW × %d nodes × %d months", v[costid.ColoPerKWMonth], v[costid.PowerKWMax], nodes, n)
	r.line("Idle power", v[costid.IdlePowerPerMonth]*months, "%.4g kW × %.0f %% idle × %d nodes × PUE %.3g × %.4g per kWh × 730 h × %d months",
		v[costid.PowerKWTypical], v[costid.IdlePowerFraction]*100, nodes, v[costid.PUE], v[costid.ElectricityPerKWh], n)
	e.staffLine(r)
	// The bridge: the runs inside the lead time, rented from the cloud
	// (bridge, in costid's models.go).
	if r.LeadTimeDays > 0 && z.runsPerMonth > 0 && e.cloudFeasible {
		r.line("Bridge capacity during the lead time", v[costid.Bridge], "%.2f months × %.4g runs/month × %.4g per run rented by the hour on the cloud direction", v[costid.LeadMonths], z.runsPerMonth, e.cloudRun)
	}
}
