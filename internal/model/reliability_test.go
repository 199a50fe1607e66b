package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func TestCheckpointIntervals(t *testing.T) {
	for _, tc := range []struct {
		name              string
		delta, mtbf       float64
		young, daly, tolr float64
	}{
		// δ = 0.1 h (6 min), M = 24 h.
		// Young: √(2·0.1·24) = √4.8 = 2.1908902 h.
		// Daly: δ/2M = 0.1/48 = 0.00208333, √ = 0.0456435, ⅓ of it = 0.0152145,
		// (1/9)·0.00208333 = 0.0002315; bracket 1.0154460;
		// 2.1908902 · 1.0154460 = 2.2247307; − 0.1 = 2.1247307 h.
		{"6 min in 24 h", 0.1, 24, 2.1908902, 2.1247307, 1e-7},
		// δ = 1 h, M = 8 h: Young √16 = 4. Daly: δ/2M = 1/16, √ = 0.25;
		// bracket 1 + 0.25/3 + 1/144 = 1.0902778; 4 · 1.0902778 − 1 = 3.3611111 h.
		{"1 h in 8 h", 1, 8, 4, 3.3611111, 1e-7},
		// δ ≥ 2M: Daly falls back to τ = M (scr_ckpt_interval.py); Young
		// still gives √(2·4·2) = 4 and √(2·5·2) = √20 = 4.4721360.
		{"delta 2M", 4, 2, 4, 2, 1e-7},
		{"delta above 2M", 5, 2, math.Sqrt(20), 2, 1e-7},
		// Free checkpoints: interval 0.
		{"delta 0", 0, 24, 0, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := YoungInterval(tc.delta, tc.mtbf); math.Abs(got-tc.young) > tc.tolr*math.Max(1, tc.young) {
				t.Errorf("Young = %.9g, want %.9g", got, tc.young)
			}
			if got := DalyInterval(tc.delta, tc.mtbf); math.Abs(got-tc.daly) > tc.tolr*math.Max(1, tc.daly) {
				t.Errorf("Daly = %.9g, want %.9g", got, tc.daly)
			}
		})
	}
}

// Daly 2006 (Figs. 3–5) compares the model with simulation for δ = 5 min
// and M = 24 h, 6 h and 15 min (R = 10 min, which does not enter τ), and
// states τ_opt = 117, 57 and 9.1 min (figure captions of the paper).
// By hand: δ = 1/12 h, M = 24 h: √(2δM) = 2, δ/2M = 1/576, bracket
// 1 + 0.0138889 + 0.0001929, 2 · 1.0140818 − 0.0833333 = 1.9448302 h =
// 116.69 min. The figures are rounded to 3 (2) significant figures, hence
// tolerances of half a unit in the last digit.
func TestDalyPublishedFigures(t *testing.T) {
	for _, tc := range []struct {
		mtbf, want, tol float64 // hours, minutes, minutes
	}{
		{24, 117, 0.5},
		{6, 57, 0.5},
		{0.25, 9.1, 0.05},
	} {
		if got := 60 * DalyInterval(5.0/60, tc.mtbf); math.Abs(got-tc.want) > tc.tol {
			t.Errorf("M = %g h: Daly %.3f min, want %g ± %g (Daly 2006)", tc.mtbf, got, tc.want, tc.tol)
		}
	}
}

// For δ < 2M, Daly's interval is Young's less δ·(2/3 − (1/9)·√(δ/2M))
// (expand the bracket: √(2δM)·⅓·√(δ/2M) = δ/3 and √(2δM)·(δ/2M)/9 =
// (δ/9)·√(δ/2M)), so it is always below Young's, and the gap tends to 2δ/3
// as δ/M → 0. Checked on seeded random inputs to 1e-9 relative.
func TestDalyBelowYoung(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for range 1000 {
		mtbf := math.Exp(rng.Float64()*10 - 2)         // 0.14 h … 3,000 h
		delta := 2 * mtbf * math.Pow(rng.Float64(), 3) // 0 … 2M, mostly ≪ M
		if delta == 0 {
			continue
		}
		y, d := YoungInterval(delta, mtbf), DalyInterval(delta, mtbf)
		if !(d < y) {
			t.Fatalf("δ=%g M=%g: Daly %g not below Young %g", delta, mtbf, d, y)
		}
		gap := delta * (2.0/3 - math.Sqrt(delta/(2*mtbf))/9)
		if math.Abs((y-d)-gap) > 1e-9*y {
			t.Fatalf("δ=%g M=%g: Young − Daly = %g, want %g", delta, mtbf, y-d, gap)
		}
		if d <= 0 {
			t.Fatalf("δ=%g M=%g: Daly %g not positive", delta, mtbf, d)
		}
	}
	// δ/M = 1e-8: the gap is 2δ/3 to within (1/9)·√(0.5e-8) ≈ 8e-6 of δ.
	delta, mtbf := 1e-6, 100.0
	if gap := YoungInterval(delta, mtbf) - DalyInterval(delta, mtbf); math.Abs(gap/delta-2.0/3) > 1e-5 {
		t.Errorf("gap/δ = %g, want 2/3", gap/delta)
	}
}

func TestCheckpointOverhead(t *testing.T) {
	// At Young's interval with R = 0 the first-order overhead is
	// δ/√(2δM) + √(2δM)/(2M) = 2·√(δ/2M) = √(2δ/M) exactly.
	// δ = 0.1 h, M = 24 h: √(0.2/24) = √0.0083333 = 0.0912871.
	delta, mtbf := 0.1, 24.0
	if got := CheckpointOverhead(delta, mtbf, YoungInterval(delta, mtbf), 0); math.Abs(got-0.0912871) > 1e-7 {
		t.Errorf("overhead at Young = %.7f, want 0.0912871", got)
	}
	rng := rand.New(rand.NewPCG(1, 1))
	for range 200 {
		d, m, r := rng.Float64()+1e-3, 10+1000*rng.Float64(), rng.Float64()
		y := YoungInterval(d, m)
		if got, want := CheckpointOverhead(d, m, y, 0), math.Sqrt(2*d/m); math.Abs(got-want) > 1e-12 {
			t.Fatalf("δ=%g M=%g: overhead at Young %g, want √(2δ/M) = %g", d, m, got, want)
		}
		// Young's interval minimises the first-order overhead.
		for _, k := range []float64{0.5, 0.9, 1.1, 2} {
			if CheckpointOverhead(d, m, k*y, r) < CheckpointOverhead(d, m, y, r) {
				t.Fatalf("δ=%g M=%g: overhead at %g·τ_Young is lower", d, m, k)
			}
		}
	}
	// Restarts: 0.5 h per failure every 24 h adds 0.5/24 = 0.0208333.
	if got := CheckpointOverhead(0.1, 24, 2, 0.5) - CheckpointOverhead(0.1, 24, 2, 0); math.Abs(got-0.5/24) > 1e-12 {
		t.Errorf("restart term %g, want %g", got, 0.5/24)
	}
	// Free checkpoints (δ = 0, τ = 0): only restarts remain, R/M = 1/24.
	if got := CheckpointOverhead(0, 24, 0, 1); math.Abs(got-1.0/24) > 1e-15 {
		t.Errorf("free checkpoints: %g, want 1/24", got)
	}
}

func TestJobMTBI(t *testing.T) {
	// 64 instances at 1e-3 interruptions per hour each: 1/(64·0.001) = 15.625 h.
	if got := JobMTBI(1e-3, 64); math.Abs(got-15.625) > 1e-12 {
		t.Errorf("JobMTBI = %v, want 15.625", got)
	}
	if got := JobMTBI(0.01, 1); math.Abs(got-100) > 1e-12 {
		t.Errorf("one instance: %v, want 100", got)
	}
}

func TestRateFromMonthlyFraction(t *testing.T) {
	for _, tc := range []struct {
		f, want float64
	}{
		// 5 % a month (the lower edge of Spot Advisor's 5–10 % bucket):
		// −ln(0.95) = 0.0512933; / 730 h = 7.02648e-5 per hour.
		{0.05, 7.02648e-5},
		// 20 %: −ln(0.8) = 0.2231436; / 730 = 3.05676e-4.
		{0.20, 3.05676e-4},
		{0, 0},
	} {
		if got := RateFromMonthlyFraction(tc.f); math.Abs(got-tc.want) > 1e-5*tc.want {
			t.Errorf("f = %g: rate %.6g, want %.6g", tc.f, got, tc.want)
		}
	}
	// Round trip: the share of instances interrupted within 730 h at that rate.
	for _, f := range []float64{1e-6, 0.05, 0.5, 0.99} {
		if back := 1 - math.Exp(-730*RateFromMonthlyFraction(f)); math.Abs(back-f) > 1e-12 {
			t.Errorf("f = %g: round trip gives %g", f, back)
		}
	}
	// 64 instances at 5 % a month: M_job = 1/(64·7.02648e-5) = 222.373 h.
	if got := JobMTBI(RateFromMonthlyFraction(0.05), 64); math.Abs(got-222.373) > 1e-3 {
		t.Errorf("job MTBI at 5 %%/month × 64 = %.4f h, want 222.373", got)
	}
}

func TestWallTimeChunks(t *testing.T) {
	for _, tc := range []struct {
		name                        string
		compute, walltime, overhead float64
		want                        int
	}{
		{"exact multiple", 72, 24, 0, 3},
		{"exact multiple of usable", 69, 24, 1, 3},
		{"overhead tips over", 72, 24, 0.1, 4}, // 72 / 23.9 = 3.01
		{"short run", 0.5, 24, 0.2, 1},
		{"no compute", 0, 24, 0.2, 1},
		{"overhead fills the limit", 10, 2, 2, 0},
		{"overhead beyond the limit", 10, 2, 3, 0},
		{"too many jobs", 1e12, 1, 0.5, 0},
		// In binary 6.9 / 2.3 = 3.0000000000000004; still 3 jobs.
		{"rounding", 6.9, 2.3, 0, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := WallTimeChunks(tc.compute, tc.walltime, tc.overhead); got != tc.want {
				t.Errorf("WallTimeChunks(%g, %g, %g) = %d, want %d", tc.compute, tc.walltime, tc.overhead, got, tc.want)
			}
		})
	}
}

func TestReliabilityMisusePanics(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"Young negative delta", func() { YoungInterval(-1, 24) }},
		{"Young zero mtbf", func() { YoungInterval(1, 0) }},
		{"Daly NaN", func() { DalyInterval(nan, 24) }},
		{"Daly Inf mtbf", func() { DalyInterval(1, math.Inf(1)) }},
		{"overhead zero interval", func() { CheckpointOverhead(0.1, 24, 0, 0) }},
		{"overhead negative restart", func() { CheckpointOverhead(0.1, 24, 1, -1) }},
		{"MTBI zero rate", func() { JobMTBI(0, 4) }},
		{"MTBI zero instances", func() { JobMTBI(1e-3, 0) }},
		{"rate f = 1", func() { RateFromMonthlyFraction(1) }},
		{"rate negative f", func() { RateFromMonthlyFraction(-0.1) }},
		{"chunks NaN", func() { WallTimeChunks(nan, 24, 0) }},
		{"chunks zero walltime", func() { WallTimeChunks(10, 0, 0) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				r := recover()
				if s, ok := r.(string); !ok || !strings.HasPrefix(s, "model: ") {
					t.Errorf("recovered %v, want a panic starting with \"model: \"", r)
				}
			}()
			tc.f()
		})
	}
}

func ExampleDalyInterval() {
	// A 6-minute checkpoint on a job that is interrupted every 24 hours.
	delta, mtbf := 0.1, 24.0
	tau := DalyInterval(delta, mtbf)
	fmt.Printf("Young %.2f h, Daly %.2f h, overhead %.1f %%\n",
		YoungInterval(delta, mtbf), tau, 100*CheckpointOverhead(delta, mtbf, tau, 0))
	// Output:
	// Young 2.19 h, Daly 2.12 h, overhead 9.1 %
}
