package model

import (
	"testing"

	"hostplan/internal/scenario"
)

// TestOneLayoutSearchPerPoint: the scaling table searches each point's
// layouts once (its step is the layout found), plus once for the
// one-GPU step every speedup divides — not a search for the layout and
// another for the step, at every point.
func TestOneLayoutSearchPerPoint(t *testing.T) {
	s := base()
	s.Workload.Model = scenario.Model{Preset: "llama-3.1-70b"}
	s.Workload.Sharding = "zero1"
	z, err := sizeWorkload(s, cat(t), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	g, _ := cat(t).GPU("h100-sxm")
	c := curve{z: z, hw: hardware{gpu: g, perNode: 8, intraGBs: 900, netGBs: 50, storageGBs: 2, maxGPUs: 256}}
	z.searches = 0
	pts := c.table()
	if len(pts) != 9 { // 1, 2, 4, … 256
		t.Fatalf("%d points", len(pts))
	}
	if want := len(pts) + 1; z.searches != want {
		t.Errorf("%d layout searches for %d points, want %d", z.searches, len(pts), want)
	}
}
