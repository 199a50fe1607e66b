package model

import (
	"context"
	"math"
	"sort"
)

// Tornado is the one-at-a-time sensitivity of one metric.
type Tornado struct {
	Metric    string  `json:"metric"`    // e.g. "cost_horizon"
	Direction string  `json:"direction"` // whose metric
	Base      float64 `json:"base"`      // with every input at its likely value
	Bars      []Bar   `json:"bars"`      // largest swing first
}

// Bar is the metric with one estimate at its low and at its high end.
type Bar struct {
	Input string  `json:"input"`
	Low   float64 `json:"at_low"`
	High  float64 `json:"at_high"`
	Swing float64 `json:"swing"` // |at_high − at_low|
}

// tornado swings each estimate to its low and high end with the others at
// their likely values and records direction d's cost over the horizon. It
// stops with ctx.Err() before an input when ctx has ended.
func (p *plan) tornado(ctx context.Context, d string) (*Tornado, error) {
	p.likely()
	t := &Tornado{Metric: "cost_horizon", Direction: d, Bars: []Bar{}}
	at := func() (float64, error) {
		r, err := p.eval()
		if err != nil {
			return 0, err
		}
		return r.Direction(d).CostHorizon, nil
	}
	base, err := at()
	if err != nil {
		return nil, err
	}
	t.Base = base
	for i := range p.samplers {
		sm := &p.samplers[i]
		if sm.fix {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		sm.set(sm.v.Low)
		lo, err := at()
		if err != nil {
			return nil, err
		}
		sm.set(sm.v.High)
		hi, err := at()
		if err != nil {
			return nil, err
		}
		sm.set(sm.v.Likely)
		t.Bars = append(t.Bars, Bar{Input: sm.path, Low: lo, High: hi, Swing: math.Abs(hi - lo)})
	}
	sort.SliceStable(t.Bars, func(i, j int) bool { return t.Bars[i].Swing > t.Bars[j].Swing })
	return t, nil
}
