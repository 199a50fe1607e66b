package model

import (
	"fmt"

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
