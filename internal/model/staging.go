package model

import (
	"fmt"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// locationWords says where data.location puts the data.
func locationWords(loc string) string {
	switch loc {
	case scenario.LocationOnSite:
		return "on site"
	case scenario.LocationCloud:
		return "in the cloud offer's storage"
	case scenario.LocationHPC:
		return "at the HPC centre"
	}
	return loc
}

// staging is the time to copy gb of data from where it lives (from, a
// data.location or "" when unstated) to compute at to before a run; the
// gbs the copy runs at is returned beside it (0 when nothing is copied).
// Volume over the path's throughput plus the per-file overhead
// (stagingOver); nothing when the data already lives where the direction
// runs (model 0.7.0). With the location stated it writes the data_path
// note.
func (e *evaluator) staging(r *DirectionResult, gb float64, from, to string) (hours, gbs float64) {
	z := e.z
	gbs, moved, uplink := z.stagingPath(from, to)
	if !moved {
		if !r.quiet {
			r.note(NoteDataPath, []string{"data.location"}, "the data lives %s, where this direction runs: it is read in place and nothing is staged", locationWords(from))
		}
		return 0, 0
	}
	hours = z.stagingOver(gb, gbs)
	if from != "" && !r.quiet && gb > 0 {
		how := fmt.Sprintf("from the source storage at %s GB/s", countWords(gbs))
		fields := []string{"data.location", "data.storage_gbps"}
		if uplink {
			how = fmt.Sprintf("over the site's %s Gbit/s uplink (%s GB/s; the source storage gives %s GB/s)", countWords(z.uplinkGBs*8), countWords(gbs), countWords(z.sourceGBs))
			fields = []string{"data.location", "data.uplink_gbit_s"}
		}
		r.note(NoteDataPath, fields, "the data lives %s and is copied %s before each run: %s GB in %s h", locationWords(from), how, countWords(gb), countWords(hours))
	}
	return hours, gbs
}

// dataHome is the cloud storage data.location "cloud" puts the data in:
// the provider of the offer the cloud direction took, and its transfer
// price out, as the cloud direction read it (cloud records it).
type dataHome struct {
	provider string
	egress   float64        // per GB, in the scenario's currency
	given    scenario.Value // options.cloud.egress_per_gb
	kind     string         // "data", or "" when the catalog has no data prices at all
	from     catalog.DataPrice
}

// copyOut charges, on a direction whose compute is outside the cloud, the
// transfer out of the cloud of the gb staged there each run (0 when none
// is, or the data does not live in a cloud): costid's copyOut, at the
// price the cloud direction read — one input both read. Without a cloud
// offer taken there is no price, and a note says the transfer counts as 0.
func (e *evaluator) copyOut(r *DirectionResult, gb float64) {
	if e.z.location != scenario.LocationCloud {
		gb = 0
	}
	v, h := r.Drivers, &e.dataHome
	taken := h.provider != "" // the cloud direction took an offer
	v[costid.CopiedOutGB] = gb
	if taken {
		v[costid.EgressPricePerGB] = h.egress
	}
	if r.quiet {
		return
	}
	r.fromModel(costid.CopiedOutGB, r.Direction, costid.CopiedOutGB, InputPlan, "data.location")
	switch {
	case taken:
		r.fromField(costid.EgressPricePerGB, scenario.Cloud, costid.EgressPricePerGB, "options.cloud.egress_per_gb", h.given, h.kind, h.from.Provider, "egress_per_gb", h.from.Entry)
		if gb > 0 && !h.given.IsSet() && h.kind != "" {
			e.use(r, "data prices "+h.from.Provider, h.from.Entry)
		}
	default:
		r.fromModel(costid.EgressPricePerGB, r.Direction, costid.EgressPricePerGB, InputPlan, "options.cloud.egress_per_gb")
		if gb > 0 {
			r.note(NoteDataPricesMissing, []string{"data.location", "options.cloud.offer"},
				"the data lives in a cloud's storage, but the cloud direction took no offer, so no provider's transfer price out is known: copying %s GB out each run is counted as 0", countWords(gb))
		}
	}
}

// copyOutLine is the cost line of copyOut, when it charges anything.
func (e *evaluator) copyOutLine(r *DirectionResult) {
	v := r.Drivers
	if per := v[costid.CopiedOutGB] * v[costid.EgressPricePerGB]; per > 0 && e.dataHome.provider != "" {
		r.line("Transfer out of the cloud", per*e.z.runsPerMonth*float64(e.months()), "%.4g GB × %.4g per GB out of %s's storage, per run",
			v[costid.CopiedOutGB], v[costid.EgressPricePerGB], e.dataHome.provider)
	}
}
