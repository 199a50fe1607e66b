package model

import (
	"testing"

	"hostplan/internal/scenario"
)

// TestOneLayoutSearchPerPoint: the scaling table searches each point's
// layouts once (its step is the layout found, and the one-GPU step every
// speedup divides is the first point's) — not a search for the layout
// and another for the step, at every point — and a search is not made
// again for the same hardware and count within one sizing.
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
	// The one-GPU step is the first point's: each count searched once.
	if want := len(pts); z.searches != want {
		t.Errorf("%d layout searches for %d points, want %d", z.searches, len(pts), want)
	}
	// Another direction on the same hardware (hybrid's on-premises part)
	// asks the same questions: no search is made again.
	again := c.table()
	if z.searches != len(pts) {
		t.Errorf("a second table on the same hardware searched again: %d searches", z.searches)
	}
	for i := range pts {
		if pts[i] != again[i] {
			t.Errorf("point %d: %+v then %+v", i, pts[i], again[i])
		}
	}
	// Other hardware is searched anew.
	c.hw.netGBs = 25
	c.table()
	if z.searches <= len(pts) {
		t.Errorf("a table on a slower fabric was answered from the first one's searches")
	}
}

// TestMinTrainGPUsIsTheFewest checks the pruned search for the fewest
// training GPUs (a binary search per shape, skipping shapes that cannot
// beat the best so far, answers kept per size) against counting up from
// one GPU until some layout fits, for models, methods and GPUs that need
// one GPU, a node and several nodes.
func TestMinTrainGPUsIsTheFewest(t *testing.T) {
	c := cat(t)
	for _, preset := range []string{"llama-3.1-8b", "llama-3.1-70b", "llama-3.1-405b"} {
		for _, method := range []string{"full", "lora"} {
			for _, sharding := range []string{"none", "zero1", "zero3"} {
				s := base()
				s.Workload.Model = scenario.Model{Preset: preset}
				s.Workload.Method, s.Workload.Sharding = method, sharding
				z, err := sizeWorkload(s, c, true, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, g := range c.GPUs {
					for _, maxTP := range []int{1, 8} {
						const limit = 512
						want := 0
						for n := 1; n <= limit && want == 0; n++ {
							var buf [maxShapes + 1]layout
							for _, l := range z.layouts(n, maxTP, &buf) {
								if z.fitsLayout(g, l) {
									want = n
									break
								}
							}
						}
						for range 2 { // the second answer comes from the memo
							if got := z.minTrainGPUs(g, limit, maxTP); got != want {
								t.Errorf("%s %s %s on %s, tp ≤ %d: %d GPUs, counting up finds %d", preset, method, sharding, g.ID, maxTP, got, want)
							}
						}
					}
				}
			}
		}
	}
}
