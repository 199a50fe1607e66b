package chart

import (
	"math"

	"gonum.org/v1/plot"

	"hostplan/internal/present"
)

// moneyTicks mark round amounts, about six of them, each labelled with
// thousands separators and no exponent ("1,500,000", not "1.5e+06").
type moneyTicks struct{}

func (moneyTicks) Ticks(lo, hi float64) []plot.Tick {
	step := niceStep((hi - lo) / 6)
	var ts []plot.Tick
	for k := math.Ceil(lo / step); k*step <= hi+step*1e-9; k++ {
		x := k * step
		if x == 0 {
			x = 0 // not -0
		}
		ts = append(ts, plot.Tick{Value: x, Label: present.Number(x)})
	}
	return ts
}

// niceStep is the round step (1, 2, 2.5 or 5 times a power of ten) at or
// above rough; 1 when rough is not positive.
func niceStep(rough float64) float64 {
	if !(rough > 0) || math.IsInf(rough, 0) {
		return 1
	}
	mag := math.Pow(10, math.Floor(math.Log10(rough)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*mag >= rough*(1-1e-9) {
			return m * mag
		}
	}
	return 10 * mag
}

// monthTicks label whole months: every month up to a year, then every
// 3, 6 or 12, with a minor tick every month (every 3 past two years), so
// the labels never crowd.
type monthTicks struct{}

func (monthTicks) Ticks(lo, hi float64) []plot.Tick {
	step, minor := 1, 1
	switch span := hi - lo; {
	case span > 60:
		step, minor = 12, 3
	case span > 24:
		step, minor = 6, 3
	case span > 12:
		step = 3
	}
	var ts []plot.Tick
	for m := int(math.Ceil(lo)); float64(m) <= hi; m++ {
		if m%minor != 0 {
			continue
		}
		t := plot.Tick{Value: float64(m)}
		if m%step == 0 {
			t.Label = present.Number(float64(m))
		}
		ts = append(ts, t)
	}
	return ts
}

// powerTicks mark every power of two on a log₂ axis of GPU counts, each
// labelled while there are few, every other one past 16 of them.
type powerTicks struct{}

func (powerTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	n := int(math.Round(math.Log2(hi/lo))) + 1
	every := 1
	if n > 16 {
		every = 2
	}
	for k, x := 0, lo; x <= hi*1.0000001; k, x = k+1, x*2 {
		t := plot.Tick{Value: x}
		if k%every == 0 {
			t.Label = present.Number(x)
		}
		ts = append(ts, t)
	}
	return ts
}

// percentTicks label a fraction axis in percent every quarter.
type percentTicks struct{}

func (percentTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for x := 0.0; x <= hi+1e-9; x += 0.25 {
		if x >= lo-1e-9 {
			ts = append(ts, plot.Tick{Value: x, Label: present.Percent(x)})
		}
	}
	return ts
}
