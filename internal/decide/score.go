package decide

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Score is one feasible direction's score on one decision dimension.
type Score struct {
	Dimension string  `json:"dimension"` // scenario.DimensionNames
	Score     float64 `json:"score"`     // 0–1, higher is better
	Weight    float64 `json:"weight"`    // the dimension's weight, normalised to sum 1
	Weighted  float64 `json:"weighted"`  // score × weight: this dimension's share of the total
	Reason    string  `json:"reason"`    // the rule's inputs, in one line
}

// Dimension indexes, in the order of scenario.DimensionNames.
const (
	dimSovereignty = iota
	dimShape
	dimOperations
	dimEconomics
	dimOptionality
	nDims
)

// scorer holds what every direction's scores are computed against.
type scorer struct {
	s        *scenario.Scenario
	r        *model.Report
	cheapest float64 // lowest cost_horizon among feasible directions
}

// scores returns the five scores of one feasible direction, each with its
// reason, in dimension order.
func (c *scorer) scores(d *model.DirectionResult) [nDims]Score {
	var out [nDims]Score
	out[dimSovereignty] = c.sovereignty(d)
	out[dimShape] = c.shape(d)
	out[dimOperations] = c.operations(d)
	out[dimEconomics] = c.economics(d)
	out[dimOptionality] = c.optionality(d)
	for i := range out {
		out[i].Dimension = scenario.DimensionNames[i]
		out[i].Score = clamp01(out[i].Score)
	}
	return out
}

// Sovereignty. Each direction exposes the data to some degree outside the
// organisation's own control (0 none, 1 entirely); the score is
// 1 − sensitivity × exposure, so for public data every direction scores 1
// and for restricted personal data the exposure counts in full.
//
//	on_prem  0     the data stays in the organisation's environment
//	hybrid   0.15  only the approved, minimised snapshot leaves (0.4 without a stated snapshot)
//	hpc      0.4   a shared facility: project-scoped access, shared file systems
//	cloud    0.45  the provider's infrastructure, the organisation's tenancy and keys
//	managed  0.7   the provider processes and may keep inputs, logs and outputs
//
// sensitivity = classification level (public 0, internal 0.35,
// confidential 0.7, restricted 1) + 0.3 with personal data, at most 1.
var exposure = map[string]float64{
	scenario.OnPrem: 0, scenario.Hybrid: 0.15, scenario.HPC: 0.4, scenario.Cloud: 0.45, scenario.Managed: 0.7,
}

var classLevel = map[string]float64{"public": 0, "internal": 0.35, "confidential": 0.7, "restricted": 1}

func sensitivity(d scenario.Data) float64 {
	v := classLevel[d.Classification]
	if d.PersonalData {
		v += 0.3
	}
	return math.Min(1, v)
}

func (c *scorer) sovereignty(d *model.DirectionResult) Score {
	data := c.s.Data
	x := exposure[d.Direction]
	where := map[string]string{
		scenario.OnPrem:  "data stays in the organisation's environment",
		scenario.Hybrid:  "the source stays; only the approved snapshot leaves",
		scenario.HPC:     "data is staged at a shared HPC facility",
		scenario.Cloud:   "the whole data set is held in a provider's cloud",
		scenario.Managed: "the provider receives and may keep the data",
	}[d.Direction]
	if d.Direction == scenario.Hybrid && !data.SnapshotGB.IsSet() {
		x = 0.4
		where = "the source stays; the staged copy is the full data set (no snapshot size given)"
	}
	sens := sensitivity(data)
	who := data.Classification + " data"
	if data.PersonalData {
		who = data.Classification + " personal data"
	}
	return Score{Score: 1 - sens*x,
		Reason: fmt.Sprintf("%s; %s (sensitivity %.2f × exposure %.2f)", where, who, sens, x)}
}

// Workload shape. The score is the direction's affinity for the demand
// pattern times a time factor:
//
//	serving (interactive): managed 0.9 for variable demand (0.75 when continuous),
//	    cloud 0.8, hybrid 0.6, hpc 0.1, on_prem 0.4 + 0.6·min(1, u/0.7)
//	bounded runs (batch inference, fine-tuning, training): hpc 1 (bounded batch
//	    through a scheduler), cloud 0.85, hybrid 0.8, managed 0.7 for batch
//	    inference and 0.5 for tuning (no control of the job), on_prem 0.4 + 0.6·min(1, u/0.7)
//
// u is the owned GPUs' utilisation: GPU-hours used a month ÷ (GPUs × 730 h),
// or mean ÷ peak replicas for serving; owned hardware suits continuous,
// high utilisation (70 % and above counts in full).
//
// The time factor is 1 while the time to result (or the serving latency)
// is at most half the deadline (or latency target), falling linearly to 0.6
// at the deadline; a lead time before the first run multiplies it by
// 1 − min(0.3, days ÷ 365).
func (c *scorer) shape(d *model.DirectionResult) Score {
	s := c.s
	serving := s.Workload.Shape == scenario.ShapeInteractive
	pattern := s.Dimensions.WorkloadShape.Pattern
	u := c.utilisation(d)
	var aff float64
	var why string
	switch d.Direction {
	case scenario.Managed:
		switch {
		case serving && pattern == "continuous":
			aff, why = 0.75, "a provider service suits variable use better than continuous demand"
		case serving:
			aff, why = 0.9, "a provider service suits variable interactive demand"
		case s.Workload.Shape == scenario.ShapeBatch:
			aff, why = 0.7, "a per-token service takes batches, without control of the schedule"
		default:
			aff, why = 0.5, "a tuning service runs the job out of sight"
		}
	case scenario.Cloud:
		aff, why = 0.85, "rented capacity follows bounded runs"
		if serving {
			aff, why = 0.8, "rented capacity runs an always-on service"
		}
	case scenario.Hybrid:
		aff, why = 0.8, "bursts out for bounded runs"
		if serving {
			aff, why = 0.6, "a live service across two environments"
		}
	case scenario.HPC:
		aff, why = 1, "bounded batch jobs through a scheduler suit it"
		if serving {
			aff, why = 0.1, "a scheduler does not run an always-on service"
		}
	case scenario.OnPrem:
		aff = 0.4 + 0.6*math.Min(1, u/0.7)
		why = fmt.Sprintf("owned GPUs at %s utilisation", present.Percent(u))
	}
	if pattern != "" && !(d.Direction == scenario.Managed && serving && pattern == "continuous") {
		why += " (" + pattern + " demand)"
	}
	tf, tw := c.timeFactor(d)
	return Score{Score: aff * tf, Reason: fmt.Sprintf("%s; %s", why, tw)}
}

// utilisation is the share of the direction's GPUs the work keeps busy.
func (c *scorer) utilisation(d *model.DirectionResult) float64 {
	if sv := d.Serving; sv != nil && sv.ReplicasPeak > 0 {
		return float64(sv.ReplicasMean) / float64(sv.ReplicasPeak)
	}
	if d.GPUs <= 0 {
		return 0
	}
	return math.Min(1, d.GPUHoursPerRun*c.r.Workload.RunsPerMonth/(float64(d.GPUs)*730))
}

func (c *scorer) timeFactor(d *model.DirectionResult) (float64, string) {
	w := c.s.Workload
	f, text := 1.0, ""
	if w.Shape == scenario.ShapeInteractive {
		target := 0.0
		if w.Traffic != nil {
			target = w.Traffic.LatencyTargetMS.Or(0)
		}
		switch {
		case d.Serving == nil:
			text = "latency not modelled for a provider service"
		case target > 0:
			f = deadlineFactor(d.Serving.LatencyMS, target)
			text = fmt.Sprintf("%.0f ms of the %.0f ms latency target", d.Serving.LatencyMS, target)
		default:
			text = fmt.Sprintf("%.0f ms per request, no latency target", d.Serving.LatencyMS)
		}
	} else {
		dl := w.DeadlineHours.Or(c.s.Purpose.AcceptableRuntimeHours.Or(0))
		if dl > 0 {
			f = deadlineFactor(d.TimeToResultHours, dl)
			text = fmt.Sprintf("%s h to result of the %s h allowed", present.Hours(d.TimeToResultHours), present.Hours(dl))
		} else {
			text = fmt.Sprintf("%s h to result, no deadline", present.Hours(d.TimeToResultHours))
		}
	}
	if d.LeadTimeDays > 0 {
		f *= 1 - math.Min(0.3, d.LeadTimeDays/365)
		text += fmt.Sprintf("; first run after %.0f days", d.LeadTimeDays)
	}
	return f, text
}

// deadlineFactor is 1 up to half the limit, then falls linearly to 0.6 at
// the limit (and stays there beyond, which the model has ruled out anyway).
func deadlineFactor(t, limit float64) float64 {
	if limit <= 0 {
		return 1
	}
	x := (t/limit - 0.5) / 0.5
	return 1 - 0.4*clamp01(x)
}

// Operations. The score is the staff factor times the skills factor:
//
//	staff  = 1 − 0.5 × min(1, FTE needed ÷ team FTE)
//	skills = 0.5 + 0.5 × (skills present ÷ skills needed), 1 when none are needed
//
// The FTE needed is the model's (the "Operations staff" line of the cost
// breakdown). Skills needed (scenario.Skills): managed none; cloud
// "cloud"; on_prem "datacentre" and "gpu_cluster"; hpc "hpc_scheduler";
// hybrid its burst target's plus "mlops" (the pipelines that move the
// snapshot out and the outputs back); serving adds "kubernetes" to every
// self-operated direction.
func (c *scorer) operations(d *model.DirectionResult) Score {
	team := c.s.Dimensions.Operations.StaffFTE.Or(0)
	need, ok := staffFTE(d)
	staff := 1.0
	var text string
	switch {
	case !ok:
		text = "staff need not stated"
	case team <= 0 && need > 0:
		staff = 0.5
		text = fmt.Sprintf("needs %.2f FTE; the team has none", need)
	case team > 0:
		staff = 1 - 0.5*math.Min(1, need/team)
		text = fmt.Sprintf("needs %.2f of the team's %.2f FTE", need, team)
	default:
		text = "needs no staff"
	}
	needed := c.skillsNeeded(d.Direction)
	missing := c.missingSkills(d.Direction)
	skills := 1.0
	switch {
	case len(needed) == 0:
		text += "; no operating skills needed"
	default:
		skills = 0.5 + 0.5*float64(len(needed)-len(missing))/float64(len(needed))
		if len(missing) == 0 {
			text += "; has " + strings.Join(needed, ", ")
		} else {
			text += "; lacks " + strings.Join(missing, ", ")
		}
	}
	return Score{Score: staff * skills, Reason: text}
}

func (c *scorer) skillsNeeded(direction string) []string {
	var out []string
	switch direction {
	case scenario.Managed:
		return nil
	case scenario.Cloud:
		out = []string{"cloud"}
	case scenario.OnPrem:
		out = []string{"datacentre", "gpu_cluster"}
	case scenario.HPC:
		out = []string{"hpc_scheduler"}
	case scenario.Hybrid:
		out = []string{"cloud"}
		if c.s.Options.Hybrid.BurstTo == scenario.HPC {
			out = []string{"hpc_scheduler"}
		}
		out = append(out, "mlops")
	}
	if c.s.Workload.Shape == scenario.ShapeInteractive {
		out = append(out, "kubernetes")
	}
	return out
}

// missingSkills returns the skills a direction needs that the team lacks.
func (c *scorer) missingSkills(direction string) []string {
	missing := []string{}
	for _, sk := range c.skillsNeeded(direction) {
		if !slices.Contains(c.s.Dimensions.Operations.Skills, sk) {
			missing = append(missing, sk)
		}
	}
	return missing
}

// staffFTE is the operating effort the model charged for a direction
// (report field staff_fte; 0 when the direction never got that far).
func staffFTE(d *model.DirectionResult) (float64, bool) {
	return d.StaffFTE, d.StaffFTE > 0
}

// Economics. The cheapest feasible cost over the horizon scores 1; every
// other direction scores cheapest ÷ its cost (half as dear → 0.5).
func (c *scorer) economics(d *model.DirectionResult) Score {
	cur := c.r.Currency
	cost := d.CostHorizon
	text := fmt.Sprintf("%s %s over %d months", present.Amount(cost), cur, c.r.HorizonMonths)
	if cost <= 0 || cost <= c.cheapest {
		return Score{Score: 1, Reason: text + ", the cheapest feasible"}
	}
	return Score{Score: c.cheapest / cost, Reason: fmt.Sprintf("%s, %.2f × the cheapest feasible (%s)", text, cost/c.cheapest, present.Amount(c.cheapest))}
}

// Optionality (exit cost and lock-in). Portability of each direction:
//
//	cloud   0.85  containers and object storage on rented IaaS move elsewhere
//	hybrid  0.85  the source never left; the burst target can be swapped
//	hpc     0.8   batch scripts and containers move between centres
//	on_prem 0.45  new hardware is sunk for its life (0.7 when it is already owned)
//	managed 0.25  the provider's API and formats, and for tuning its weights
//
// When the scenario requires an exit (optionality.exit_required) the score
// is the portability itself; otherwise lock-in matters half as much:
// 1 − 0.5 × (1 − portability).
func (c *scorer) optionality(d *model.DirectionResult) Score {
	var p float64
	var why string
	switch d.Direction {
	case scenario.Cloud:
		p, why = 0.85, "containers and object storage move to another provider"
	case scenario.Hybrid:
		p, why = 0.85, "the source never leaves and the burst target can be swapped"
	case scenario.HPC:
		p, why = 0.8, "job scripts and containers move between centres"
	case scenario.OnPrem:
		p, why = 0.45, "purchased hardware is sunk for its life"
		if c.s.Options.OnPrem.Existing {
			p, why = 0.7, "the hardware is already owned; nothing new is sunk"
		}
	case scenario.Managed:
		p, why = 0.25, "tied to the provider's API, formats and retained artefacts"
	}
	if c.s.Dimensions.Optionality.ExitRequired {
		return Score{Score: p, Reason: why + "; an exit is required"}
	}
	return Score{Score: 1 - 0.5*(1-p), Reason: why + "; no exit required, so lock-in counts half"}
}

func clamp01(x float64) float64 {
	if math.IsNaN(x) || x < 0 {
		return 0
	}
	return math.Min(1, x)
}
