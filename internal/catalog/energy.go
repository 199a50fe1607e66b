package catalog

import "strings"

// Grid is the carbon intensity of the electricity one grid supplies, for
// one year (energy.json): what a kWh drawn there emits.
type Grid struct {
	ID          string  `json:"id"`
	Name        string  `json:"name"`
	GCO2ePerKWh float64 `json:"g_co2e_per_kwh"` // grams of CO2-equivalent per kWh
	Year        int     `json:"year"`           // the year the figure describes
	// Places lists, separated by ";", what draws from this grid: cloud
	// regions (us-east-1), HPC partition ids, jurisdictions (US), "site"
	// for the on-premises site and "world" for the fallback.
	Places   string `json:"places"`
	Estimate bool   `json:"estimate"` // the figure stands in for a place's own
	Entry
}

// PUE is an operator's power usage effectiveness (energy.json): the
// facility's energy over its IT equipment's. ID is a cloud or managed
// provider (aws, gcp, …), an HPC partition id, "cloud" for providers that
// publish none or "hpc" for centres that publish none.
type PUE struct {
	ID       string  `json:"id"`
	Name     string  `json:"name"`
	PUE      float64 `json:"pue"`
	Estimate bool    `json:"estimate"`
	Entry
}

// GridWorld is the place of the grid used where no other matches.
const GridWorld = "world"

// GridFor returns the grid of the first place among places that a grid of
// the catalog lists (case-insensitive), else the "world" grid; ok is
// false when not even that exists.
func (c *Catalog) GridFor(places ...string) (g Grid, place string, ok bool) {
	for _, p := range append(places, GridWorld) {
		if p == "" {
			continue
		}
		for i := range c.Grids {
			for _, q := range strings.Split(c.Grids[i].Places, ";") {
				if strings.EqualFold(strings.TrimSpace(q), p) {
					return c.Grids[i], p, true
				}
			}
		}
	}
	return Grid{}, "", false
}

// PUEOf returns the PUE of the first id among ids the catalog has.
func (c *Catalog) PUEOf(ids ...string) (PUE, bool) {
	for _, id := range ids {
		if p, ok := find(c.PUEs, func(p *PUE) string { return p.ID }, id); ok {
			return p, true
		}
	}
	return PUE{}, false
}
