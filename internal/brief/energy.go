package brief

import (
	"fmt"
	"strings"

	"hostplan/internal/document"
	"hostplan/internal/present"
)

// The energy and emissions of each feasible direction: the report's
// estimates (model.Energy), shown beside the costs, never among them.

// decimalsFor shows small figures with enough decimals to read.
func decimalsFor(x float64) int {
	switch {
	case x < 10:
		return 2
	case x < 100:
		return 1
	}
	return 0
}

func (w *writer) energy() {
	t := &document.Table{Header: []string{"direction", "kWh per run", "MWh over the horizon", "t CO2e over the horizon", "PUE", "grid g CO2e/kWh", "grid", "estimates"}}
	for _, d := range w.r.Directions {
		e := d.Energy
		if e == nil {
			continue
		}
		mwh, t2 := e.KWhHorizon/1000, e.KgCO2eHorizon/1000
		grid := e.Grid
		if e.GridYear > 0 {
			grid = fmt.Sprintf("%s, %d", e.Grid, e.GridYear)
		}
		est := present.NoValue
		if e.Estimate {
			est = strings.Join(e.Estimates, ", ")
		}
		t.Rows = append(t.Rows, []document.Cell{textCell(plain(d.Title)), figureCell(e.KWhPerRun, decimalsFor(e.KWhPerRun)),
			figureCell(mwh, decimalsFor(mwh)), figureCell(t2, decimalsFor(t2)), figureCell(e.PUE, 2),
			figureCell(e.GridGCO2ePerKWh, 0), textCell(plain(grid)), textCell(plain(est))})
	}
	if len(t.Rows) == 0 {
		return
	}
	w.section(3, "Energy and emissions (estimates)")
	w.para(txt(plain(fmt.Sprintf("Per %s and over %d months: GPU-hours × kW per GPU × PUE, with owned hardware's idle draw all month; emissions at the grid's yearly average intensity. Not a cost: ", w.r.RunUnit, w.r.HorizonMonths)),
		code("options.energy.grid_g_co2e_per_kwh"), plain(" sets your own grid's figure. Directions that are ruled out have none.")))
	w.add(t)
}
