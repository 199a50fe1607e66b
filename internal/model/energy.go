package model

import (
	"fmt"
	"math"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// Energy is a direction's electricity and emissions: estimates beside the
// costs, never a cost driver (the on-premises power bill is in the cost
// identity already). Every figure is finite; a direction that is ruled
// out has none.
//
//	kWh a month      = GPU-hours per run × runs a month × kW per GPU × PUE
//	                   + idle kW × PUE × 730 h        (owned hardware only)
//	kWh per run      = kWh a month ÷ runs a month
//	kWh over horizon = kWh a month × months
//	kg CO2e          = kWh × grid g CO2e per kWh ÷ 1,000
//
// kW per GPU is the server's typical draw per GPU, host included: for
// owned hardware the draw above idle (the idle draw of every node is
// counted all month, as the on-premises cost model charges it).
type Energy struct {
	KWhPerRun       float64 `json:"kwh_per_run"`
	KWhHorizon      float64 `json:"kwh_horizon"`
	KgCO2ePerRun    float64 `json:"kg_co2e_per_run"`
	KgCO2eHorizon   float64 `json:"kg_co2e_horizon"`
	GPUHoursPerRun  float64 `json:"gpu_hours_per_run"` // the GPU-hours counted (a managed offer's reference GPUs)
	KWPerGPU        float64 `json:"kw_per_gpu"`        // draw per GPU-hour used, host included, before PUE
	IdleKW          float64 `json:"idle_kw"`           // owned hardware's idle draw, all nodes, before PUE; 0 elsewhere
	PUE             float64 `json:"pue"`
	PUESource       string  `json:"pue_source"`
	GridGCO2ePerKWh float64 `json:"grid_g_co2e_per_kwh"`
	Grid            string  `json:"grid"`       // the catalog grid's id, or "scenario" for an option
	GridYear        int     `json:"grid_year"`  // the year the intensity describes (0 for an option)
	GridAsOf        string  `json:"grid_as_of"` // YYYY-MM-DD, "" for an option
	GridSource      string  `json:"grid_source"`
	// Estimate is true when any input is an estimate rather than a
	// published or given figure; Estimates names them.
	Estimate  bool     `json:"estimate"`
	Estimates []string `json:"estimates"`
	Basis     string   `json:"basis"` // the arithmetic, in words and numbers
}

// hostOverhead is a server's typical draw over its GPUs' board power: the
// DGX H100's 7.5 kW typical (NVIDIA DGX H100 datasheet, 6.5–8.5 kW) over
// 8 × 700 W. It stands in for the host of a GPU the catalog has no node of.
const hostOverhead = 7.5 / (8 * 0.7)

// energy sets r.Energy from the direction's GPU-hours and hardware, the
// operator's PUE and the grid's intensity (catalog energy.json, or the
// scenario's options.energy). Quiet evaluations and ruled-out directions
// get none.
func (e *evaluator) energy(r *DirectionResult) {
	r.Energy = nil
	if r.quiet || !r.Feasible {
		return
	}
	en := &Energy{Estimates: []string{}}
	estimate := func(what string) { en.Estimates = append(en.Estimates, what) }
	var places []string
	var words []string
	cat := e.cat
	dir := r.Direction
	if dir == scenario.Hybrid {
		dir = scenario.Cloud
		if e.s.Options.Hybrid.BurstTo == scenario.HPC {
			dir = scenario.HPC
		}
	}
	switch {
	case r.Direction == scenario.OnPrem:
		v := r.Drivers
		if v[costid.GPUsPerNode] <= 0 {
			return
		}
		en.GPUHoursPerRun = r.GPUHoursPerRun
		en.KWPerGPU = v[costid.PowerKWTypical] * (1 - v[costid.IdlePowerFraction]) / v[costid.GPUsPerNode]
		en.IdleKW = v[costid.PowerKWTypical] * v[costid.IdlePowerFraction] * v[costid.Nodes]
		en.PUE = v[costid.PUE]
		en.PUESource = "the site's PUE"
		if e.s.Options.OnPrem.PUE.IsSet() {
			en.PUESource = "options.on_prem.pue"
		}
		if e.cat.Site.IdlePowerFraction > 0 {
			estimate("idle draw")
		}
		places = []string{"site"}
		words = append(words, fmt.Sprintf("%.3g kW per GPU above idle (node typical %.3g kW × %.0f %% ÷ %.0f GPUs) and %.3g kW idle for %s all month",
			en.KWPerGPU, v[costid.PowerKWTypical], (1-v[costid.IdlePowerFraction])*100, v[costid.GPUsPerNode], en.IdleKW, plural(int(v[costid.Nodes]), "node")))
	case r.Direction == scenario.Managed:
		offer, ok := cat.ManagedOffer(r.Offer)
		if !ok {
			return
		}
		g, ok := cat.GPU(offer.ReferenceGPU)
		if !ok {
			return
		}
		if r.CostModel == costid.ManagedDedicatedCosts {
			// The deployment's own GPU-hours, on the GPU it rents.
			en.GPUHoursPerRun = r.Drivers[costid.DedicatedGPUHours]
			en.KWPerGPU = e.kwPerGPU(g, estimate)
			e.operatorPUE(en, estimate, offer.Provider, "cloud")
			places = []string{offer.ID, offer.Region, offer.Jurisdiction}
			words = append(words, fmt.Sprintf("%.4g GPU-hours of the dedicated deployment on %s at %.3g kW per GPU", en.GPUHoursPerRun, gpuWords(g), en.KWPerGPU))
			break
		}
		en.GPUHoursPerRun = e.managedGPUHours(r, offer, g)
		en.KWPerGPU = e.kwPerGPU(g, estimate)
		e.operatorPUE(en, estimate, offer.Provider, "cloud")
		places = []string{offer.ID, offer.Region, offer.Jurisdiction}
		estimate("GPU-hours on the reference hardware")
		words = append(words, fmt.Sprintf("%.4g GPU-hours on %d × %s, the offer's reference hardware (the provider publishes none), at %.3g kW per GPU",
			en.GPUHoursPerRun, offer.ReferenceGPUs, gpuWords(g), en.KWPerGPU))
	case dir == scenario.Cloud:
		offer, ok := cat.CloudOffer(r.Offer)
		if !ok {
			return
		}
		g, _ := cat.GPU(offer.GPU)
		en.GPUHoursPerRun = r.GPUHoursPerRun
		en.KWPerGPU = e.kwPerGPU(g, estimate)
		e.operatorPUE(en, estimate, offer.Provider, "cloud")
		places = []string{offer.Region, offer.ID, offer.Jurisdiction}
		words = append(words, fmt.Sprintf("%.4g GPU-hours on %s at %.3g kW per GPU", en.GPUHoursPerRun, gpuWords(g), en.KWPerGPU))
	case dir == scenario.HPC:
		p, ok := cat.Partition(r.Offer)
		if !ok {
			return
		}
		g, _ := cat.GPU(p.GPU)
		en.GPUHoursPerRun = r.GPUHoursPerRun
		en.KWPerGPU = e.kwPerGPU(g, estimate)
		e.operatorPUE(en, estimate, p.ID, "hpc")
		places = []string{p.ID, p.Jurisdiction}
		words = append(words, fmt.Sprintf("%.4g GPU-hours on %s at %.3g kW per GPU", en.GPUHoursPerRun, gpuWords(g), en.KWPerGPU))
	default:
		return
	}
	e.grid(en, r.Direction, places, estimate)

	runs := e.z.runsPerMonth
	perMonth := en.GPUHoursPerRun*runs*en.KWPerGPU*en.PUE + en.IdleKW*en.PUE*hoursPerMonth
	if runs > 0 {
		en.KWhPerRun = perMonth / runs
	}
	en.KWhHorizon = perMonth * float64(e.months())
	en.KgCO2ePerRun = en.KWhPerRun * en.GridGCO2ePerKWh / 1000
	en.KgCO2eHorizon = en.KWhHorizon * en.GridGCO2ePerKWh / 1000
	en.Estimate = len(en.Estimates) > 0
	words = append(words, fmt.Sprintf("PUE %.3g (%s); grid %.4g g CO2e/kWh (%s)", en.PUE, en.PUESource, en.GridGCO2ePerKWh, en.Grid))
	en.Basis = strings.Join(words, "; ")
	for _, x := range []float64{en.KWhPerRun, en.KWhHorizon, en.KgCO2ePerRun, en.KgCO2eHorizon, en.GPUHoursPerRun, en.KWPerGPU, en.IdleKW, en.PUE, en.GridGCO2ePerKWh} {
		if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
			return // never a non-finite figure: no block rather than a wrong one
		}
	}
	r.Energy = en
}

// kwPerGPU is the typical draw of a server per GPU of type g: a catalog
// node's typical power over its GPUs where one holds g, else the GPU's
// board power × hostOverhead (an estimate).
func (e *evaluator) kwPerGPU(g catalog.GPU, estimate func(string)) float64 {
	for _, n := range e.cat.Nodes {
		if n.GPU == g.ID && n.GPUs > 0 && n.PowerKWTypical > 0 {
			return n.PowerKWTypical / float64(n.GPUs)
		}
	}
	estimate("power per GPU (board power × host overhead)")
	return g.PowerW / 1000 * hostOverhead
}

// operatorPUE sets the PUE of the operator id, else of the fallback entry
// (cloud or hpc), else 1.58 (the site's default): published or labelled
// an estimate in the catalog.
func (e *evaluator) operatorPUE(en *Energy, estimate func(string), id, fallback string) {
	p, ok := e.cat.PUEOf(id, fallback)
	if !ok {
		en.PUE, en.PUESource = e.cat.Site.PUE, "the site's PUE, no operator figure in the catalog"
		estimate("PUE")
		return
	}
	en.PUE = p.PUE
	en.PUESource = fmt.Sprintf("%s, as of %s", p.Name, p.AsOf)
	if p.Estimate || p.ID != id {
		estimate("PUE")
	}
}

// grid sets the grid intensity: the scenario's option for the direction,
// else for every direction, else the catalog's grid of the first place
// that has one (the world average last).
func (e *evaluator) grid(en *Energy, dir string, places []string, estimate func(string)) {
	o := e.s.Options.Energy
	own := map[string]scenario.Value{
		scenario.Managed: o.ManagedGridGCO2ePerKWh, scenario.Cloud: o.CloudGridGCO2ePerKWh,
		scenario.OnPrem: o.OnPremGridGCO2ePerKWh, scenario.HPC: o.HPCGridGCO2ePerKWh, scenario.Hybrid: o.HybridGridGCO2ePerKWh,
	}[dir]
	for _, v := range []struct {
		val  scenario.Value
		path string
	}{{own, "options.energy." + dir + "_grid_g_co2e_per_kwh"}, {o.GridGCO2ePerKWh, "options.energy.grid_g_co2e_per_kwh"}} {
		if v.val.IsSet() {
			en.GridGCO2ePerKWh, en.Grid, en.GridSource = v.val.Likely, "scenario", v.path
			if v.val.IsEstimate() {
				estimate("grid intensity")
			}
			return
		}
	}
	g, place, ok := e.cat.GridFor(places...)
	if !ok {
		estimate("grid intensity")
		en.Grid, en.GridSource = "none", "no grid in the catalog: give options.energy.grid_g_co2e_per_kwh"
		return
	}
	en.GridGCO2ePerKWh, en.Grid, en.GridYear, en.GridAsOf = g.GCO2ePerKWh, g.ID, g.Year, g.AsOf
	en.GridSource = fmt.Sprintf("%s, %d: %s", g.Name, g.Year, g.Source)
	if g.Estimate || place == catalog.GridWorld {
		estimate("grid intensity")
	}
}

// managedGPUHours is a managed run's GPU-hours on the offer's reference
// hardware (the estimate managedTime makes of its elapsed time): for a
// month of service, the month's tokens at the GPU-seconds per token of a
// full batch on the reference GPU (batchSeconds), as a provider batching
// many users' requests runs them.
func (e *evaluator) managedGPUHours(r *DirectionResult, offer catalog.ManagedOffer, g catalog.GPU) float64 {
	if !e.z.serving {
		return r.ComputeHours * float64(offer.ReferenceGPUs)
	}
	perToken, _ := e.z.batchSeconds(g, offer.ReferenceGPUs)
	return e.z.tokens * perToken / 3600
}
