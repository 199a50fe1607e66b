package model

import (
	"testing"

	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// trafficAt is r's traffic break-even of the self-hosted direction d.
func trafficAt(t *testing.T, r *Report, d string) TrafficBreakEven {
	t.Helper()
	for _, tb := range r.Comparisons.Traffic {
		if tb.SelfHosted == d {
			return tb
		}
	}
	t.Fatalf("no traffic break-even for %s in %+v", d, r.Comparisons.Traffic)
	return TrafficBreakEven{}
}

// With the peak six hours a day, rented replicas follow the load, and the
// traffic break-even prices them so: at the scenario's own traffic the
// break-even's cost function gives the direction's own monthly cost, and
// the break-even falls below the one of the same service paid at the peak
// all day. Owned hardware stays sized for the peak: its break-even does not
// move.
func TestTrafficBreakEvenFollowsTheLoad(t *testing.T) {
	s := diurnal()
	flat := eval(t, s)
	s.Workload.Traffic.PeakHoursPerDay = scenario.Known(6)
	r := eval(t, s)

	c := r.Direction(scenario.Cloud)
	if c == nil || !c.Feasible || c.Serving == nil {
		t.Fatalf("cloud %+v", c)
	}
	day, margin := FollowedDay(s)
	if len(day) != 2 || !near(day[0].Share, 40.0/15, 1e-12) || day[0].Hours != 6 || margin != DefaultScaleUpMargin {
		t.Fatalf("followed day %+v, margin %g", day, margin)
	}
	staff := c.Drivers[costid.StaffPerMonth]
	sh := SelfHosting{Staff: staff, FixedPerGPUMonth: (c.MonthlyFixedCost - staff) / float64(c.GPUs),
		PricePerGPUHour: c.VariablePricePerGPUHour, RequestsPerReplica: c.Serving.RequestsPerSec,
		GPUsPerReplica: float64(c.Serving.GPUsPerReplica), PeakToMean: 40.0 / 15, Day: day, Margin: margin}
	own := c.MonthlyFixedCost + c.VariablePricePerGPUHour*c.GPUHoursPerRun
	if got := sh.Monthly(15); !near(got, own, 1e-9) {
		t.Errorf("break-even cost at the scenario's traffic %.2f; the direction's own monthly cost (less per-run transfers) %.2f", got, own)
	}
	if got := sh.ReplicaHoursPerDay(15); got != c.Serving.ReplicaHoursPerDay {
		t.Errorf("replica-hours a day at 15 requests/s: %g; the direction's %g", got, c.Serving.ReplicaHoursPerDay)
	}

	followed, allDay := trafficAt(t, r, scenario.Cloud), trafficAt(t, flat, scenario.Cloud)
	// Paid at the peak all day, renting never beats per-token prices in
	// the range searched; following the load, it does from about 17
	// requests/s of mean traffic.
	if !followed.Exists || (allDay.Exists && followed.MeanRPS >= allDay.MeanRPS) {
		t.Errorf("cloud break-even %+v with the load followed, %+v at the peak all day; want a crossing, lower when followed", followed, allDay)
	}
	if a, b := trafficAt(t, r, scenario.OnPrem), trafficAt(t, flat, scenario.OnPrem); a != b {
		t.Errorf("on-premises break-even moved with the load over the day: %+v → %+v", b, a)
	}

	// A commitment pays for the peak every hour: no load is followed.
	s.Options.Cloud.Pricing = "commit_1y"
	if day, _ := FollowedDay(s); day != nil {
		t.Errorf("committed replicas follow a day %+v", day)
	}
}
