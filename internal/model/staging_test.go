package model

import (
	"testing"

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
