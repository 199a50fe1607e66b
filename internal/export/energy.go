package export

import (
	"strings"

	"hostplan/internal/costid"
	"hostplan/internal/model"
)

// The Energy sheet: each feasible direction's electricity and emissions
// (model.Energy) as live formulas — kWh = GPU-hours × kW per GPU × PUE,
// with owned hardware's idle draw all month, and kg CO2e = kWh × the
// grid's intensity ÷ 1,000. The GPU-hours are the Costs sheet's (a managed
// offer's reference hardware: a figure here), runs and months the Drivers
// sheet's; owned hardware's power and PUE are its cost drivers, so one
// change moves its cost and its energy; the others' kW per GPU, PUE and
// grid intensity are named inputs here. Energy is no cost: nothing on the
// Costs sheet reads this one, and the Audit sheet, which checks the cost
// identity, leaves it out: the engine's energy of a rented direction also
// moves with figures that are not cost drivers (a node's typical power, a
// managed offer's reference GPU-hours), which stay fixed here.

const sheetEnergy = "Energy"

// Columns of the Energy sheet.
const (
	colEnDirection = 1 + iota
	colEnTitle
	colEnGPUHours
	colEnKW
	colEnIdleKW
	colEnPUE
	colEnGrid
	colEnKWhRun
	colEnKWhHorizon
	colEnKgRun
	colEnKgHorizon
	colEnGridSource
	colEnEstimates
)

const fmtEnergy = "#,##0.00"

// energyName is the defined name of direction d's energy inputs.
func energyName(d, what string) string { return d + "_energy_" + what }

func writeEnergy(b *book, r *model.Report) {
	const sh = sheetEnergy
	b.headerRow(sh, 1, "Direction", "Title", "GPU-hours per run", "kW per GPU", "Idle kW (owned)", "PUE",
		"Grid (g CO2e/kWh)", "kWh per run", "kWh over horizon", "kg CO2e per run", "kg CO2e over horizon", "Grid source", "Estimates")
	b.freeze(sh, 1)
	num := b.numFmt(fmtEnergy, false)
	row := 2
	for i := range r.Directions {
		d := &r.Directions[i]
		e := d.Energy
		if e == nil {
			continue
		}
		field := func(name string) string { return "directions[" + d.Direction + "].energy." + name }
		inputs := map[costid.Driver]string{}
		for _, in := range d.CostInputs {
			inputs[in.Driver] = in.Name
		}
		b.str(sh, colEnDirection, row, d.Direction)
		b.str(sh, colEnTitle, row, d.Title)

		// GPU-hours: the Costs sheet's, or the managed offer's reference
		// hardware (an estimate the engine made).
		if d.Direction != "managed" && d.CostModel != costid.NoCostModel {
			b.formula(sh, colEnGPUHours, row, d.Direction+"_gpu_hours_per_run", b.gpuHours, numResult(e.GPUHoursPerRun))
		} else {
			b.num(sh, colEnGPUHours, row, e.GPUHoursPerRun, b.gpuHours, field("gpu_hours_per_run"))
			b.figure(energyName(d.Direction, "gpu_hours_per_run"), sh, colEnGPUHours, row)
		}

		// Owned hardware: power and PUE are its cost drivers.
		typical, idle, perNode, nodes, pue := inputs[costid.PowerKWTypical], inputs[costid.IdlePowerFraction], inputs[costid.GPUsPerNode], inputs[costid.Nodes], inputs[costid.PUE]
		owned := d.Direction == "on_prem" && typical != "" && idle != "" && perNode != "" && nodes != "" && pue != ""
		if owned {
			b.formula(sh, colEnKW, row, typical+"*(1-"+idle+")/"+perNode, num, numResult(e.KWPerGPU))
			b.formula(sh, colEnIdleKW, row, typical+"*"+idle+"*"+nodes, num, numResult(e.IdleKW))
			b.formula(sh, colEnPUE, row, pue, b.numFmt(fmtRatio, false), numResult(e.PUE))
		} else {
			b.num(sh, colEnKW, row, e.KWPerGPU, num, field("kw_per_gpu"))
			b.name(energyName(d.Direction, "kw_per_gpu"), sh, colEnKW, row)
			b.num(sh, colEnIdleKW, row, e.IdleKW, num, field("idle_kw"))
			b.name(energyName(d.Direction, "idle_kw"), sh, colEnIdleKW, row)
			b.num(sh, colEnPUE, row, e.PUE, b.numFmt(fmtRatio, false), field("pue"))
			b.name(energyName(d.Direction, "pue"), sh, colEnPUE, row)
		}
		b.num(sh, colEnGrid, row, e.GridGCO2ePerKWh, num, field("grid_g_co2e_per_kwh"))
		b.name(energyName(d.Direction, "grid_g_co2e_per_kwh"), sh, colEnGrid, row)

		c := func(col int) string { return cell(col, row) }
		month := c(colEnGPUHours) + "*" + nameRunsPerMonth + "*" + c(colEnKW) + "*" + c(colEnPUE) + "+" + c(colEnIdleKW) + "*" + c(colEnPUE) + "*" + costid.MonthHours.String()
		b.formula(sh, colEnKWhRun, row, "IF("+nameRunsPerMonth+">0,("+month+")/"+nameRunsPerMonth+",0)", num, numResult(e.KWhPerRun))
		b.formula(sh, colEnKWhHorizon, row, "("+month+")*"+nameHorizonMonths, num, numResult(e.KWhHorizon))
		b.formula(sh, colEnKgRun, row, c(colEnKWhRun)+"*"+c(colEnGrid)+"/1000", num, numResult(e.KgCO2ePerRun))
		b.formula(sh, colEnKgHorizon, row, c(colEnKWhHorizon)+"*"+c(colEnGrid)+"/1000", num, numResult(e.KgCO2eHorizon))
		b.str(sh, colEnGridSource, row, e.GridSource)
		est := "none"
		if e.Estimate {
			est = strings.Join(e.Estimates, ", ")
		}
		b.str(sh, colEnEstimates, row, est)
		row++
	}
	if row == 2 {
		b.str(sh, 1, row, "No direction is feasible: no energy figures.")
		row++
	}
	row++
	for _, line := range []string{
		"kWh a month = GPU-hours per run × runs per month × kW per GPU × PUE + idle kW × PUE × hours per month (the named cell hours_per_month, 730); kWh per run = kWh a month ÷ runs per month; kWh over horizon = kWh a month × horizon months.",
		"kg CO2e = kWh × grid g CO2e/kWh ÷ 1,000. Estimates beside the costs, never a cost.",
		"On-premises reads its power, idle share, nodes and PUE from the Drivers sheet (they set its power bill too); change the others' kW per GPU, PUE and grid intensity here.",
		"Managed services publish no hardware: their GPU-hours are the offer's reference GPUs, an estimate.",
	} {
		b.str(sh, 1, row, line)
		row++
	}
}
