package model

import (
	"math"
	"slices"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// Serving over the day and mixed pricing. Rented replicas follow the
// traffic's load over the day (workload.traffic.peak_hours_per_day or
// hourly_load) with a scale-up margin; owned hardware and committed GPUs
// stay sized for the peak, since they are paid for every hour. Mixed
// pricing commits the GPUs that are busy often enough for the committed
// rate to cost less than on demand, and pays on demand for the rest.

// DefaultScaleUpMargin is the capacity replicas keep above the load: a
// replica is added at 80 % of its capacity, as Hugging Face Inference
// Endpoints do (huggingface.co/docs/inference-endpoints/autoscaling: a
// new replica when GPU utilisation reaches 80 %); Baseten's default target
// is 70 % (docs.baseten.co/deploy/autoscaling), a margin of 0.43.
const DefaultScaleUpMargin = 1/0.8 - 1

// load is one stretch of a typical day: its request rate and its length.
type load struct{ rps, hours float64 }

// day is the traffic's load over a typical day, in buf, or nil when the
// scenario gives none. Peak hours put the peak rate on that many hours and
// the rest of the day's mean on the others (at least 0); hourly levels are
// scaled so that the day averages the mean rate, each at most the peak.
func (e *evaluator) day(buf *[24]load) []load {
	return dayLoads(e.s.Workload.Traffic, e.z.peakRPS, e.z.meanRPS, buf)
}

// DefaultPeakHours is how many hours a day a service is assumed to run at
// its peak when the scenario gives its peak and mean rates but neither
// the peak hours nor the load by hour: a working day, the rest of the day
// at the rate that keeps the mean. An assumption, stated in the report.
const DefaultPeakHours = 8.0

// AssumedDay reports whether the load over the day of t is the model's
// assumption (DefaultPeakHours): a mean below the peak and no day given.
func AssumedDay(t *scenario.Traffic) bool {
	return t != nil && !t.PeakHoursPerDay.IsSet() && len(t.HourlyLoad) != 24 && assumesDay(t.PeakRPS.Or(0), t.MeanRPS.Or(0))
}

func assumesDay(peak, mean float64) bool { return mean > 0 && mean < peak }

// AssumedPeakHours is the hours at the peak of the assumed day: at most
// DefaultPeakHours, fewer when even a quiet rest of the day (no load)
// would put the mean above the one given.
func AssumedPeakHours(peak, mean float64) float64 {
	return math.Min(DefaultPeakHours, 24*mean/peak)
}

// dayLoads is day for the traffic t with its peak and mean rates.
func dayLoads(t *scenario.Traffic, peak, mean float64, buf *[24]load) []load {
	if t == nil {
		return nil
	}
	twoLevels := func(h float64) []load {
		base := 0.0
		if h < 24 {
			base = math.Min(peak, math.Max(0, (24*mean-h*peak)/(24-h)))
		}
		buf[0], buf[1] = load{peak, h}, load{base, 24 - h}
		return buf[:2]
	}
	switch {
	case t.PeakHoursPerDay.IsSet():
		return twoLevels(math.Min(t.PeakHoursPerDay.Likely, 24))
	case len(t.HourlyLoad) == 24:
		sum := 0.0
		for _, x := range t.HourlyLoad {
			sum += x
		}
		if sum <= 0 {
			return nil
		}
		for i, x := range t.HourlyLoad {
			buf[i] = load{math.Min(peak, mean*24*x/sum), 1}
		}
		return buf[:24]
	case assumesDay(peak, mean):
		return twoLevels(AssumedPeakHours(peak, mean))
	}
	return nil
}

// replicasAt is the replicas a load of rps needs with the scale-up margin:
// at least one (an interactive service keeps one warm), at most peak, the
// replicas sized for the peak.
func replicasAt(rps, margin, perReplica float64, peak int) int {
	n, _ := replicasFor(rps*(1+margin), perReplica)
	return min(n, peak)
}

// autoscale makes r's rented replicas follow the load over the day: its
// GPU-hours per month become the replicas each stretch of the day needs,
// not the peak's all day. r.GPUs stays the peak's (the most it holds).
// Without a load over the day it notes that the peak is paid all day.
func (e *evaluator) autoscale(r *DirectionResult) {
	sv := r.Serving
	if sv == nil || sv.RequestsPerSec <= 0 {
		return
	}
	var buf [24]load
	d := e.day(&buf)
	if d == nil {
		if !r.quiet {
			r.note(NoteNoTrafficProfile, []string{"workload.traffic.peak_hours_per_day", "workload.traffic.hourly_load"},
				"no load over the day given: the rented replicas are paid for at the peak all day; give the peak hours a day or the load by hour to cost replicas that follow the load")
		}
		return
	}
	margin := e.s.Workload.Traffic.ScaleUpMargin.Or(DefaultScaleUpMargin)
	low, hours := sv.ReplicasPeak, 0.0
	for _, x := range d {
		n := replicasAt(x.rps, margin, sv.RequestsPerSec, sv.ReplicasPeak)
		low = min(low, n)
		hours += float64(n) * x.hours
	}
	r.GPUHoursPerRun = hours * float64(sv.GPUsPerReplica) * hoursPerMonth / 24
	if r.quiet {
		return
	}
	sv.ReplicasLow, sv.ReplicaHoursPerDay = low, hours
	if t := e.s.Workload.Traffic; AssumedDay(t) {
		r.note(NoteAssumedDay, []string{"workload.traffic.peak_hours_per_day", "workload.traffic.hourly_load", "workload.traffic.mean_rps"},
			"no load over the day given: assumed at the peak (%s requests/s) %s h a day and %s requests/s the rest, which keeps the mean of %s; give the peak hours a day or the load by hour to set the day",
			num.Format(d[0].rps), num.Format(d[0].hours), num.Format(d[1].rps), num.Format(e.z.meanRPS))
	}
	r.note(NoteAutoscaled, []string{"workload.traffic.peak_hours_per_day", "workload.traffic.hourly_load", "workload.traffic.scale_up_margin"},
		"replicas follow the load over the day: %d to %d, keeping %.0f %% above the load; %.1f replica-hours a day instead of %d at the peak all day",
		low, sv.ReplicasPeak, 100*margin, hours, 24*sv.ReplicasPeak)
}

// mixedMode reports whether mode commits for the base load and pays on
// demand above it, and the commitment's own mode.
func mixedMode(mode string) (commit string, ok bool) {
	switch mode {
	case scenario.PricingMixed1Y:
		return scenario.PricingCommit1Y, true
	case scenario.PricingMixed3Y:
		return scenario.PricingCommit3Y, true
	}
	return "", false
}

// mix sets r's commitment and on-demand hours under mixed pricing at the
// committed rate v[GPUHourPrice] and the offer's on-demand rate: a unit of
// capacity (a replica, or the GPUs of one run) is committed when it is
// busy for more of the month than the ratio of the two rates — below it,
// on demand costs less (the break-even of a reservation: commit when
// utilisation > committed rate ÷ on-demand rate). Returns the GPUs
// committed.
func (e *evaluator) mix(r *DirectionResult, offer catalog.CloudOffer) float64 {
	v := r.Drivers
	onDemand := offer.OnDemand
	v[costid.OnDemandPrice] = onDemand
	threshold := math.Inf(1)
	if onDemand > 0 {
		threshold = hoursPerMonth * v[costid.GPUHourPrice] / onDemand
	}
	// Units are taken in bands of equal busy hours a month: width units,
	// each busy hours; the busiest band first.
	committed, over := 0.0, 0.0
	band := func(width, hours float64) {
		if hours > threshold {
			committed += width
		} else {
			over += width * hours
		}
	}
	unit := r.GPUs
	runs := e.z.runsPerMonth
	if sv := r.Serving; sv != nil && sv.RequestsPerSec > 0 {
		unit = sv.GPUsPerReplica
		var buf [24]load
		d := e.day(&buf)
		if d == nil {
			band(float64(sv.ReplicasPeak), hoursPerMonth) // every replica all day
		} else {
			// The replicas each stretch needs, fewest first: the replicas
			// between two counts are busy in every stretch that needs the
			// larger.
			margin := e.s.Workload.Traffic.ScaleUpMargin.Or(DefaultScaleUpMargin)
			var need, levels [24]int
			for i, x := range d {
				need[i] = replicasAt(x.rps, margin, sv.RequestsPerSec, sv.ReplicasPeak)
			}
			sorted := levels[:len(d)]
			copy(sorted, need[:len(d)])
			slices.Sort(sorted)
			prev := 0
			for _, lv := range sorted {
				if lv == prev {
					continue
				}
				hours := 0.0
				for i, x := range d {
					if need[i] >= lv {
						hours += x.hours
					}
				}
				band(float64(lv-prev), hours*hoursPerMonth/24)
				prev = lv
			}
		}
	} else if unit > 0 {
		// Runs of r.ComputeHours on r.GPUs: the month's busy hours, one
		// unit after another when runs overlap.
		total := runs * r.ComputeHours
		full := math.Floor(total / hoursPerMonth)
		band(full, hoursPerMonth)
		band(1, total-full*hoursPerMonth)
	}
	gpus := committed * float64(unit)
	v[costid.OnDemandGPUHours] = 0
	if runs > 0 {
		v[costid.OnDemandGPUHours] = over * float64(unit) / runs
	}
	if !r.quiet {
		r.fromCatalog(costid.OnDemandPrice, scenario.Cloud, "cloud", offer.ID, "on_demand", offer.Entry)
		r.fromModel(costid.OnDemandGPUHours, r.Direction, costid.OnDemandGPUHours, InputPlan, "options.cloud.pricing")
		r.note(NoteMixedPricing, []string{"options.cloud.pricing"},
			"mixed pricing: %.0f GPUs committed at %.4g per GPU-hour for the load that lasts, %s GPU-hours a month above them on demand at %.4g; a GPU is worth committing when busy more than %.0f %% of the month",
			gpus, v[costid.GPUHourPrice], num.Whole(over*float64(unit)), onDemand, 100*math.Min(1, threshold/hoursPerMonth))
	}
	return gpus
}
