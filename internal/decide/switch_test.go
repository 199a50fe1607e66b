package decide

import (
	"math"
	"os"
	"testing"

	"hostplan/internal/scenario"
)

// Every switch Switches reports is real: deciding again with the weight
// just short of it keeps the winner, and just past it gives the leader it
// names; between the given weight and the nearest switch nothing changes.
func TestSwitchesMatchDecidingAgain(t *testing.T) {
	entries, err := os.ReadDir("../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		if e.IsDir() || len(e.Name()) < 5 || e.Name()[len(e.Name())-5:] != ".json" {
			continue
		}
		s, r := load(t, e.Name())
		d := decide(t, s, r)
		sw := d.Switches()
		if len(sw) != len(scenario.DimensionNames) {
			t.Fatalf("%s: %d switches, want one per dimension", e.Name(), len(sw))
		}
		if len(d.Ranking) < 2 {
			for _, x := range sw {
				if x.Below != nil || x.Above != nil {
					t.Errorf("%s: a switch with one feasible direction: %+v", e.Name(), x)
				}
			}
			continue
		}
		at := func(j int, x float64) string {
			c := scenario.Clone(s)
			setWeight(&c.Dimensions, j, x)
			dd, err := Decide(c, r)
			if err != nil {
				t.Fatalf("%s: %v", e.Name(), err)
			}
			return dd.Recommendation
		}
		for j, x := range sw {
			if x.Dimension != scenario.DimensionNames[j] || x.Given != d.Weights[j].Given {
				t.Errorf("%s: switch %d is %s at %v", e.Name(), j, x.Dimension, x.Given)
			}
			for _, side := range []struct {
				s    *Switch
				sign float64
			}{{x.Below, -1}, {x.Above, 1}} {
				if side.s == nil {
					continue
				}
				checked++
				eps := 1e-6 * math.Max(1, side.s.At)
				if got := at(j, side.s.At-side.sign*eps); got != d.Recommendation {
					t.Errorf("%s: %s weight just short of %v: %s leads, want %s", e.Name(), x.Dimension, side.s.At, got, d.Recommendation)
				}
				if got := at(j, side.s.At+side.sign*eps); got != side.s.Leader || got == d.Recommendation {
					t.Errorf("%s: %s weight just past %v: %s leads, want %s", e.Name(), x.Dimension, side.s.At, got, side.s.Leader)
				}
			}
			// No switch reported on a side: the ends of a wide range keep the winner.
			if x.Above == nil {
				if got := at(j, x.Given*10+10); got != d.Recommendation {
					t.Errorf("%s: no switch above for %s, but at a large weight %s leads", e.Name(), x.Dimension, got)
				}
			}
			if x.Below == nil && x.Given > 0 && sumOf(weightsOf(d)) > x.Given {
				if got := at(j, 0); got != d.Recommendation {
					t.Errorf("%s: no switch below for %s, but at 0 %s leads", e.Name(), x.Dimension, got)
				}
			}
		}
		// The runner-up's single-weight tie is one of the switches.
		if ru := d.RunnerUp; ru != nil && ru.Weight != nil && ru.Weight.NewLeader == ru.Direction {
			found := false
			for _, x := range sw {
				for _, s := range []*Switch{x.Below, x.Above} {
					if x.Dimension == ru.Weight.Dimension && s != nil && math.Abs(s.At-ru.Weight.To) < 1e-9 {
						found = true
					}
				}
			}
			if !found {
				t.Errorf("%s: the runner-up's tie at %s %v is not among the switches %+v", e.Name(), ru.Weight.Dimension, ru.Weight.To, sw)
			}
		}
	}
	t.Logf("%d switches checked", checked)
	if checked == 0 {
		t.Fatal("no example has a switch: the test checks nothing")
	}
}

func weightsOf(d *Decision) []float64 {
	out := make([]float64, len(d.Weights))
	for i, w := range d.Weights {
		out[i] = w.Given
	}
	return out
}

func setWeight(d *scenario.Dimensions, j int, x float64) {
	w := d.Weights()
	w[j] = x
	d.SetWeights(w)
}
