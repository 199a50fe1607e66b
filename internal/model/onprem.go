package model

import (
	"fmt"
	"math"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

func (e *evaluator) onPrem(r *DirectionResult) error {
	o := e.s.Options.OnPrem
	site := e.cat.Site
	var node catalog.Node
	if o.Node != "" {
		n, ok := e.cat.Node(o.Node)
		if !ok {
			return scenario.Errors{{Path: "options.on_prem.node", Problem: fmt.Sprintf("%q is not in the catalog", o.Node), Allowed: strings.Join(e.cat.IDs("nodes"), ", ")}}
		}
		node = n
	} else {
		// The node with the lowest purchase price per dense TFLOP/s.
		best := math.Inf(1)
		for _, n := range e.cat.Nodes {
			g, _ := e.cat.GPU(n.GPU)
			if c := n.Price / (float64(n.GPUs) * g.PeakTFLOPs(e.z.precision)); c < best {
				best, node = c, n
			}
		}
	}
	g, _ := e.cat.GPU(node.GPU)
	r.Offer, r.OfferName = node.ID, node.Name
	e.use(r, node.ID, node.Entry)
	e.cite(r, g.ID, g.Entry)
	e.use(r, "site defaults", site.Entry)
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
		stageH = z.stagingHours(z.stagingGB)
	}
	hw := hardware{gpu: g, perNode: node.GPUs, intraGBs: node.IntraNodeGBs, netGBs: node.NetworkGBs,
		storageGBs: node.StorageGBs, maxGPUs: fixedGPUs}
	e.place(r, hw, fixedGPUs, stageH)
	if r.DataPath != nil {
		r.DataPath.StagingHours = stageH
	}
	nodes := o.Nodes
	if nodes == 0 {
		nodes = int(math.Ceil(float64(r.GPUs) / float64(node.GPUs)))
	}
	if !o.Existing {
		r.LeadTimeDays = node.LeadTimeWeeks * 7
		if !r.quiet {
			r.note(NoteLeadTime, []string{"options.on_prem.node", "options.on_prem.existing"},
				"lead time %.0f weeks before the first run (procurement and installation, estimate)", node.LeadTimeWeeks)
		}
	}

	elec := o.ElectricityKWh.Or(site.ElectricityPerKWh)
	pue := o.PUE.Or(site.PUE)
	life := site.LifeYears
	if o.LifeYears > 0 {
		life = o.LifeYears
	}
	months := float64(e.months())
	price := o.NodePrice.Or(node.Price)
	capex := price * float64(nodes)
	// Straight-line depreciation over the stated life.
	dep := capex / (life * 12)
	maint := capex * site.MaintenancePerYear / 12
	space := site.ColoPerKWMonth * node.PowerKWMax * float64(nodes)
	// Idle draw all month: typical power × idle fraction × PUE × price.
	idle := node.PowerKWTypical * site.IdlePowerFraction * float64(nodes) * pue * elec * hoursPerMonth
	switch {
	case o.Existing:
		r.note(NoteExistingHardware, []string{"options.on_prem.existing"}, "existing hardware: no depreciation charged, running costs only")
		dep = 0
	case o.Financing == "purchase":
		// Cash view: the price is paid up front; no residual value is
		// credited at the end of the horizon.
		dep = 0
		r.OneOffCost = capex
		if !r.quiet {
			r.line("Purchase", capex, "%d × %.0f paid at the start (no residual value credited)", nodes, price)
		}
	case o.Financing == "lease":
		dep = o.LeasePerNodeMonth.Likely * float64(nodes)
		if !r.quiet {
			r.line("Lease", dep*months, "%d nodes × %.0f per node-month × %d months", nodes, o.LeasePerNodeMonth.Likely, e.months())
		}
	default:
		if !r.quiet {
			r.line("Depreciation", dep*months, "%d × %.0f purchase ÷ (%.3g years × 12) × %d months", nodes, price, life, e.months())
		}
	}
	r.MonthlyFixedCost = dep + maint + space + idle
	// Active power above idle, per GPU-hour used.
	r.VariablePricePerGPUHour = node.PowerKWTypical * (1 - site.IdlePowerFraction) / float64(node.GPUs) * pue * elec
	if !r.quiet {
		r.line("Maintenance", maint*months, "%.0f %% of %.0f per year ÷ 12 × %d months (estimate)", site.MaintenancePerYear*100, capex, e.months())
		r.line("Space (colocation)", space*months, "%.4g per kW-month × %.4g kW × %d nodes × %d months", site.ColoPerKWMonth, node.PowerKWMax, nodes, e.months())
		r.line("Idle power", idle*months, "%.4g kW × %.0f %% idle × %d nodes × PUE %.3g × %.4g per kWh × 730 h × %d months", node.PowerKWTypical, site.IdlePowerFraction*100, nodes, pue, elec, e.months())
		r.note(NotePowerAboveIdle, []string{"options.on_prem.pue", "options.on_prem.electricity_per_kwh"},
			"power above idle: %.4g per GPU-hour (%.4g kW per GPU × PUE %.3g × %.4g per kWh)", r.VariablePricePerGPUHour, node.PowerKWTypical/float64(node.GPUs), pue, elec)
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
					"needs %s GPU-hours a month; %s %s", Grouped(used), plural(nodes, "node"), agree(nodes, "gives ", "give ")+Grouped(capacity))
			}
		}
	}
	fte := o.StaffFTE.Or(staffOnPrem)
	e.staff(r, fte, "on-premises hardware, facilities and cluster")
	// Effective price per GPU-hour when the hardware is busy u of the time:
	// the monthly fixed cost (amortised capex for a purchase) over the used
	// hours, plus the power above idle.
	fixed := r.MonthlyFixedCost + r.OneOffCost/months
	u := used / capacity
	if o.ExpectedUtilisation.IsSet() {
		u = o.ExpectedUtilisation.Likely
	}
	if u > 0 && capacity > 0 && !r.quiet {
		r.OwnedCost = &OwnedCost{Utilisation: u, EffectivePricePerGPUHour: fixed/(capacity*u) + r.VariablePricePerGPUHour,
			FixedPerMonth: fixed, GPUs: nodes * node.GPUs}
	}
	// After the owned cost: bridge rental is not a cost of the hardware.
	e.bridge(r, months)
	return nil
}

// bridge counts the runs that fall inside the on-premises lead time: they
// are rented from the cloud direction at its variable cost per run (the
// hardware's costs already start in month 1, so this is conservative). When
// the cloud direction is itself ruled out there is nothing to bridge with:
// those runs wait for the hardware, and the note says so.
func (e *evaluator) bridge(r *DirectionResult, months float64) {
	if r.LeadTimeDays <= 0 || e.z.runsPerMonth <= 0 {
		return
	}
	lead := math.Min(r.LeadTimeDays/daysPerMonth, months)
	if !e.cloudFeasible {
		if !r.quiet {
			r.note(NoteBridgeUnavailable, []string{"options.on_prem.existing"},
				"the runs of the first %.1f months wait for the hardware: the cloud direction, the bridge, is ruled out", lead)
		}
		return
	}
	cost := lead * e.z.runsPerMonth * e.cloudRun
	r.OneOffCost += cost
	if !r.quiet {
		r.line("Bridge capacity during the lead time", cost, "%.2f months × %.4g runs/month × %.4g per run on the cloud direction", lead, e.z.runsPerMonth, e.cloudRun)
	}
}
