package model

import (
	"testing"

	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// TestStagingWhereDataLives: 500 TB on site behind a 1 Gbit/s uplink.
// On-premises reads it in place; the cloud and HPC copy it over the
// uplink, 0.125 GB/s: 500,000 GB ÷ 0.125 GB/s = 4,000,000 s = 1,111 h
// (plus 5 ms for each of the 1,000 files, a second and a half).
func TestStagingWhereDataLives(t *testing.T) {
	const volume, uplinkH, storageH = 500_000, 500_000 / 0.125 / 3600, 500_000 / 1.0 / 3600
	cases := []struct {
		name                  string
		location              string
		cloud, onPrem, hpc    float64
		noteCloud, noteOnPrem bool
	}{
		{"unstated: every direction from the source storage", "", storageH, storageH, storageH, false, false},
		{"on site", scenario.LocationOnSite, uplinkH, 0, uplinkH, true, true},
		{"in the cloud", scenario.LocationCloud, 0, uplinkH, storageH, true, true},
		{"at the HPC centre", scenario.LocationHPC, storageH, uplinkH, 0, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			s.Data.VolumeGB = scenario.Known(volume)
			s.Data.FileCount = scenario.Known(1000)
			s.Data.Location = c.location
			s.Data.UplinkGbitS = scenario.Known(1)
			r := eval(t, s)
			for dir, want := range map[string]float64{scenario.Cloud: c.cloud, scenario.OnPrem: c.onPrem, scenario.HPC: c.hpc} {
				d := r.Direction(dir)
				if d.DataPath == nil {
					t.Fatalf("%s: no data path", dir)
				}
				got := d.DataPath.StagingHours
				if want == 0 && got != 0 || !near(got, want, 1e-3) && want != 0 {
					t.Errorf("%s staging = %.1f h, want %.1f h", dir, got, want)
				}
			}
			if has := hasNote(r.Direction(scenario.Cloud).Notes, NoteDataPath, ""); has != c.noteCloud {
				t.Errorf("cloud data_path note = %v, want %v", has, c.noteCloud)
			}
			if has := hasNote(r.Direction(scenario.OnPrem).Notes, NoteDataPath, ""); has != c.noteOnPrem {
				t.Errorf("on-premises data_path note = %v, want %v", has, c.noteOnPrem)
			}
		})
	}
}

// TestCopyOutOfTheCloud: data that lives in a cloud's storage leaves it
// for every run staged on premises or at the HPC centre, at the transfer
// price out of the provider whose offer the cloud direction took — the
// same input cell the cloud direction reads. 50,000 GB at that price is
// each run's other cost, with a cost line; data on site or at the centre
// pays nothing of the sort, and neither does the cloud itself.
func TestCopyOutOfTheCloud(t *testing.T) {
	const volume = 50_000
	for _, loc := range []string{scenario.LocationCloud, scenario.LocationOnSite, scenario.LocationHPC, ""} {
		s := base()
		s.Data.VolumeGB = scenario.Known(volume)
		s.Data.Location = loc
		r := eval(t, s)
		cloud := r.Direction(scenario.Cloud)
		price := cloud.Drivers[costid.EgressPricePerGB]
		if price <= 0 {
			t.Fatalf("%q: the cloud's egress price is %v", loc, price)
		}
		for _, dir := range []string{scenario.OnPrem, scenario.HPC} {
			d := r.Direction(dir)
			moved := loc == scenario.LocationCloud
			want := 0.0
			if moved {
				want = volume * price
			}
			if got := d.Drivers[costid.CopiedOutGB] * d.Drivers[costid.EgressPricePerGB]; !near(got, want, 1e-12) {
				t.Errorf("%q %s: copied out × price = %v, want %v", loc, dir, got, want)
			}
			if !near(d.OtherCostPerRun, want, 1e-12) {
				t.Errorf("%q %s: other cost per run %v, want %v", loc, dir, d.OtherCostPerRun, want)
			}
			line := false
			for _, l := range d.Breakdown {
				if l.Item == "Transfer out of the cloud" {
					line = near(l.Amount, want*s.Workload.RunsPerMonth.Likely*float64(s.Dimensions.Economics.HorizonMonths), 1e-9)
				}
			}
			if line != moved {
				t.Errorf("%q %s: transfer line %v, want %v (%+v)", loc, dir, line, moved, d.Breakdown)
			}
			for _, in := range d.CostInputs {
				if in.Driver == costid.EgressPricePerGB && in.Name != inputName(scenario.Cloud, costid.EgressPricePerGB) {
					t.Errorf("%q %s: the egress price is input %q, not the cloud's", loc, dir, in.Name)
				}
			}
		}
	}
}
