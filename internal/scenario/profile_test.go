package scenario

import (
	"strings"
	"testing"
)

// The load over the day: one form at most, 24 hourly levels not all zero,
// and peak hours that leave the rest of the day a load of at least zero.
func TestTrafficProfileValidation(t *testing.T) {
	traffic := func(extra map[string]any) func(m map[string]any) {
		return func(m map[string]any) {
			w := obj(m, "workload")
			w["shape"] = ShapeInteractive
			delete(w, "tokens_per_run_b")
			delete(w, "runs_per_month")
			tr := map[string]any{"peak_rps": 40, "mean_rps": 15, "tokens_in": 1200, "tokens_out": 300}
			for k, v := range extra {
				tr[k] = v
			}
			w["traffic"] = tr
		}
	}
	hours := func(x float64) []any {
		out := make([]any, 24)
		for i := range out {
			out[i] = x
		}
		return out
	}
	for _, c := range []struct {
		name  string
		extra map[string]any
		want  string // "" for valid
	}{
		{"peak hours", map[string]any{"peak_hours_per_day": 9}, ""},
		{"hourly", map[string]any{"hourly_load": hours(2)}, ""},
		{"margin", map[string]any{"peak_hours_per_day": 6, "scale_up_margin": 0.5}, ""},
		{"peak hours over the mean", map[string]any{"peak_hours_per_day": 10},
			"workload.traffic.peak_hours_per_day: 10 h at the peak of 40 requests/s carry more than the day's mean of 15 (allowed: at most 24 × mean ÷ peak = 9 h)"},
		{"both forms", map[string]any{"peak_hours_per_day": 6, "hourly_load": hours(1)},
			"workload.traffic.hourly_load: is given with peak_hours_per_day (allowed: one of the two forms of the load over the day)"},
		{"23 hours", map[string]any{"hourly_load": hours(1)[:23]},
			"workload.traffic.hourly_load: has 23 levels (allowed: 24 levels, one per hour from midnight)"},
		{"all zero", map[string]any{"hourly_load": hours(0)},
			"workload.traffic.hourly_load: is zero every hour (allowed: at least one level > 0)"},
		{"no hours", map[string]any{"peak_hours_per_day": 0},
			"workload.traffic.peak_hours_per_day: 0 is out of range"},
		{"a day and more", map[string]any{"peak_hours_per_day": 25},
			"workload.traffic.peak_hours_per_day: 25 is out of range"},
	} {
		_, err := Parse(edit(t, traffic(c.extra)))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: got %v\nwant %q", c.name, err, c.want)
		}
	}
}

// The grant period and HPC access take the listed values only.
func TestHPCChoices(t *testing.T) {
	for _, c := range []struct {
		field, value, want string
	}{
		{"access", "member", ""},
		{"access", "external", ""},
		{"access", "guest", `options.hpc.access: "guest" is not a known value (allowed: member, external)`},
		{"grant_period", "project", ""},
		{"grant_period", "decade", `options.hpc.grant_period: "decade" is not a known value (allowed: year, project, month)`},
	} {
		_, err := Parse(edit(t, func(m map[string]any) { obj(m, "options", "hpc")[c.field] = c.value }))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s %s: %v", c.field, c.value, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s %s: got %v\nwant %q", c.field, c.value, err, c.want)
		}
	}
}
