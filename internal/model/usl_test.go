package model

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// uslSynthetic is the exact synthetic case of the R package usl (Moeding),
// tests/coef.R: λ = 1, σ = 0.02, κ = 0.02 evaluated at N = 1, 2, 4, 6, 8, 10
// and rounded to four decimals; usl's coef() returns 0.02, 0.02, 1.00
// (tests/coef.Rout.save). Also in ../shared/reference/figures.md.
var uslSynthetic = []Point{{1, 1}, {2, 1.8868}, {4, 3.0769}, {6, 3.5294}, {8, 3.5398}, {10, 3.3557}}

func TestFitUSLSyntheticCase(t *testing.T) {
	f, err := FitUSL(uslSynthetic)
	if err != nil {
		t.Fatal(err)
	}
	// The data are rounded to 4 decimals (errors up to 5e-5 in X), which
	// moves the least-squares σ and κ by a few 1e-5; 5e-4 absolute is "0.02
	// to the rounding of the data" with a margin, and far tighter than the
	// gap to a wrong fit (κ = 0 would need σ ≈ 0.2).
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"sigma", f.Sigma, 0.02, 5e-4},
		{"kappa", f.Kappa, 0.02, 5e-4},
		{"lambda", f.Lambda, 1, 1e-3},
		// N_max = √((1−σ)/κ) = √(0.98/0.02) = √49 = 7.
		{"n_max", f.NMax(), 7, 0.05},
	} {
		if math.Abs(c.got-c.want) > c.tol {
			t.Errorf("%s = %.6g, want %g ± %g", c.name, c.got, c.want, c.tol)
		}
	}
	if f.R2 <= 0.9999 || f.R2 > 1 {
		t.Errorf("R² = %.8f, want in (0.9999, 1]", f.R2)
	}
	if f.Points != 6 {
		t.Errorf("Points = %d, want 6", f.Points)
	}
	if n, ok := f.NMaxFinite(); !ok || math.Abs(n-7) > 0.05 {
		t.Errorf("NMaxFinite = %g, %v; want 7, true", n, ok)
	}
}

// The fit does not depend on the unit of throughput: λ scales, σ, κ, R²
// do not (tolerances as in the synthetic case, relative for λ).
func TestFitUSLScaleInvariant(t *testing.T) {
	base, err := FitUSL(uslSynthetic)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []float64{1e-6, 2500, 3.7e8} {
		pts := make([]Point, len(uslSynthetic))
		for i, p := range uslSynthetic {
			pts[i] = Point{p.N, p.X * k}
		}
		f, err := FitUSL(pts)
		if err != nil {
			t.Fatalf("×%g: %v", k, err)
		}
		if math.Abs(f.Lambda/k-base.Lambda) > 1e-6 || math.Abs(f.Sigma-base.Sigma) > 1e-6 || math.Abs(f.Kappa-base.Kappa) > 1e-6 || math.Abs(f.R2-base.R2) > 1e-9 {
			t.Errorf("×%g: %+v, base %+v", k, f, base)
		}
	}
}

func TestFitUSLLinearData(t *testing.T) {
	// Noise-free linear scaling, X = 2.5·N: σ = κ = 0 exactly.
	var pts []Point
	for _, n := range []float64{1, 2, 4, 8, 16} {
		pts = append(pts, Point{n, 2.5 * n})
	}
	f, err := FitUSL(pts)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.Lambda-2.5) > 1e-9 || f.Sigma > 1e-9 || f.Kappa > 1e-12 || f.R2 < 1-1e-12 {
		t.Errorf("fit %+v, want λ = 2.5, σ = κ = 0, R² = 1", f)
	}
	if n, ok := f.NMaxFinite(); ok {
		t.Errorf("NMaxFinite = %g, true; want no finite N_max for κ = 0", n)
	}
	if !math.IsInf(f.NMax(), 1) {
		t.Errorf("NMax = %g, want +Inf for κ = 0", f.NMax())
	}
}

func TestFitUSLAmdahlData(t *testing.T) {
	// Pure contention (Amdahl): σ = 0.05, κ = 0, exact. The fit lands on the
	// κ = 0 face, so there is no retrograde region.
	u := USL{Lambda: 100, Sigma: 0.05}
	var pts []Point
	for _, n := range []float64{1, 2, 4, 8, 16, 32} {
		pts = append(pts, Point{n, u.Throughput(n)})
	}
	f, err := FitUSL(pts)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(f.Sigma-0.05) > 1e-6 || f.Kappa != 0 || math.Abs(f.Lambda-100) > 1e-4 {
		t.Errorf("fit %+v, want λ = 100, σ = 0.05, κ = 0", f)
	}
	if _, ok := f.NMaxFinite(); ok {
		t.Error("NMaxFinite ok for κ = 0")
	}
}

func TestFitUSLErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		pts  []Point
		kind error
		msg  string
	}{
		{"none", nil, ErrTooFewPoints, "need at least three trial points, got 0"},
		{"two", []Point{{1, 1}, {2, 1.9}}, ErrTooFewPoints, "need at least three trial points, got 2"},
		{"two distinct N", []Point{{1, 1}, {2, 1.9}, {2, 1.95}, {1, 1.01}}, ErrTooFewPoints, "three or more different GPU counts, got 2"},
		{"zero N", []Point{{1, 1}, {0, 1.9}, {4, 3}}, ErrBadPoint, "trial point 2: gpus 0 is out of range"},
		{"negative X", []Point{{1, 1}, {2, 1.9}, {4, -3}}, ErrBadPoint, "trial point 3: throughput -3 is out of range"},
		{"NaN X", []Point{{1, math.NaN()}, {2, 1.9}, {4, 3}}, ErrBadPoint, "trial point 1: throughput NaN"},
		{"Inf N", []Point{{1, 1}, {math.Inf(1), 1.9}, {4, 3}}, ErrBadPoint, "trial point 2: gpus +Inf"},
		{"flat", []Point{{1, 5}, {2, 5}, {4, 5}}, ErrDegenerateFit, "same throughput"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := FitUSL(tc.pts)
			if !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want %v", err, tc.kind)
			}
			if !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("message %q lacks %q", err, tc.msg)
			}
			if f != (Fit{}) {
				t.Errorf("fit %+v returned with an error", f)
			}
		})
	}
}

// Exact points from random valid coefficients are recovered: the fitted
// curve matches X within 1e-3 relative at every N. Coefficients themselves
// are not compared: a tiny κ (or σ) is barely identifiable from N ≤ 32.
func TestFitUSLRecoversRandomCurves(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	ns := []float64{1, 2, 4, 8, 16, 32}
	for trial := range 200 {
		u := USL{
			Lambda: 0.5 + 4.5*rng.Float64(),
			Sigma:  0.2 * rng.Float64(),
			Kappa:  0.01 * rng.Float64(),
		}
		pts := make([]Point, len(ns))
		for i, n := range ns {
			pts[i] = Point{n, u.Throughput(n)}
		}
		f, err := FitUSL(pts)
		if err != nil {
			t.Fatalf("trial %d %+v: %v", trial, u, err)
		}
		for _, n := range ns {
			want, got := u.Throughput(n), f.Throughput(n)
			if math.Abs(got-want) > 1e-3*want {
				t.Errorf("trial %d %+v: fit %+v gives X(%g) = %.6g, want %.6g", trial, u, f.USL, n, got, want)
			}
		}
		if !(f.R2 > 0.999999 && f.R2 <= 1) {
			t.Errorf("trial %d: R² = %v", trial, f.R2)
		}
	}
}

// On noisy data (5 % Gaussian error on X, coefficients across their whole
// range: σ ∈ [0, 1], κ from 1e-6 to 0.1) the fit is the global least-squares
// optimum: no point of a fine (σ, κ) grid, with λ at its best for each,
// has a smaller residual sum of squares (relative slack 1e-9 for rounding).
func TestFitUSLNoisyIsGlobalOptimum(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	ns := []float64{1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 64}
	for trial := range 20 {
		u := USL{Lambda: 0.1 + 100*rng.Float64(), Sigma: rng.Float64(), Kappa: math.Pow(10, -6+5*rng.Float64())}
		pts := make([]Point, len(ns))
		for i, n := range ns {
			pts[i] = Point{n, u.Throughput(n) * math.Exp(0.05*rng.NormFloat64())}
		}
		pr := newUSLProblem(pts, 1)
		f, err := FitUSL(pts)
		if err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
		got := pr.project(f.Sigma, f.Kappa).sse
		for i := 0; i <= 150; i++ {
			for j := 0; j <= 150; j++ {
				s, k := float64(i)/150, math.Pow(10, -8+7*float64(j)/150)
				if g := pr.project(s, k).sse; g < got*(1-1e-9) {
					t.Fatalf("trial %d %+v: fit %+v has SSE %g; σ=%g κ=%g has %g", trial, u, f.USL, got, s, k, g)
				}
			}
		}
	}
}

func TestUSLMethods(t *testing.T) {
	u := USL{Lambda: 2, Sigma: 0.1, Kappa: 0.01}
	// X(4) = 2·4 / (1 + 0.1·3 + 0.01·4·3) = 8 / 1.42 = 5.633803…
	if got := u.Throughput(4); math.Abs(got-8/1.42) > 1e-12 {
		t.Errorf("Throughput(4) = %v", got)
	}
	// Efficiency(4) = X(4) / (4·X(1)) = 1/1.42.
	if got := u.Efficiency(4); math.Abs(got-1/1.42) > 1e-12 {
		t.Errorf("Efficiency(4) = %v", got)
	}
	if got := u.Efficiency(1); got != 1 {
		t.Errorf("Efficiency(1) = %v, want 1", got)
	}
	// N_max = √(0.9/0.01) = √90 = 9.486833; throughput is lower either side.
	n := u.NMax()
	if math.Abs(n-math.Sqrt(90)) > 1e-12 {
		t.Errorf("NMax = %v", n)
	}
	if !(u.Throughput(n) > u.Throughput(n-0.5) && u.Throughput(n) > u.Throughput(n+0.5)) {
		t.Error("throughput does not peak at NMax")
	}
}

func TestUSLMisusePanics(t *testing.T) {
	for _, tc := range []struct {
		name string
		f    func()
	}{
		{"sigma above 1", func() { USL{1, 1.5, 0}.NMax() }},
		{"negative kappa", func() { USL{1, 0, -1}.Throughput(2) }},
		{"zero lambda", func() { USL{0, 0, 0}.Efficiency(2) }},
		{"NaN n", func() { USL{1, 0, 0}.Throughput(math.NaN()) }},
		{"negative n", func() { USL{1, 0, 0}.Throughput(-1) }},
		{"zero n efficiency", func() { USL{1, 0, 0}.Efficiency(0) }},
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

func TestReadTrialCSV(t *testing.T) {
	pts, err := ReadTrialCSV(strings.NewReader("# trial on 2025-03-01\nThroughput, GPUs,notes\n1.0,1,first\n1.8868, 2,\n\n3.0769,4,x\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Point{{1, 1}, {2, 1.8868}, {4, 3.0769}}
	if fmt.Sprint(pts) != fmt.Sprint(want) {
		t.Errorf("points %v, want %v", pts, want)
	}

	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"empty", "", []string{"line 1: missing header"}},
		{"no header", "1,1\n2,1.9\n", []string{"line 1: header lacks column gpus and throughput"}},
		{"one column", "gpus,speed\n1,1\n", []string{"line 1: header lacks column throughput"}},
		{"twice", "gpus,throughput,GPUS\n", []string{`line 1: column "gpus" appears twice`}},
		{"bad values", "gpus,throughput\n1,1\n2,1.9\nfour,abc\n8,0\n16,NaN\n-1,3\n32\n",
			[]string{
				`line 4: gpus "four" is not a number`,
				`line 4: throughput "abc" is not a number`,
				`line 5: throughput 0 is out of range (allowed: a finite number > 0)`,
				`line 6: throughput "NaN" is not a number`,
				`line 7: gpus -1 is out of range`,
				`line 8: throughput is missing`,
			}},
		{"bad quote", "gpus,throughput\n1,\"1\n", []string{"line 2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pts, err := ReadTrialCSV(strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("no error, points %v", pts)
			}
			lines := strings.Split(err.Error(), "\n")
			if len(lines) != len(tc.want) {
				t.Errorf("got %d problems, want %d:\n%v", len(lines), len(tc.want), err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func ExampleFitUSL() {
	// The synthetic case of the R package usl: λ = 1, σ = κ = 0.02.
	pts := []Point{{1, 1}, {2, 1.8868}, {4, 3.0769}, {6, 3.5294}, {8, 3.5398}, {10, 3.3557}}
	f, err := FitUSL(pts)
	if err != nil {
		fmt.Println(err)
		return
	}
	n, _ := f.NMaxFinite()
	fmt.Printf("λ = %.3f, σ = %.3f, κ = %.3f, R² > 0.9999: %v\n", f.Lambda, f.Sigma, f.Kappa, f.R2 > 0.9999)
	fmt.Printf("throughput peaks at N = %.1f; efficiency at 8 GPUs %.0f %%\n", n, 100*f.Efficiency(8))
	// Output:
	// λ = 1.000, σ = 0.020, κ = 0.020, R² > 0.9999: true
	// throughput peaks at N = 7.0; efficiency at 8 GPUs 44 %
}

// A trial CSV saved by a spreadsheet with a byte order mark reads as one
// without.
func TestReadTrialCSVWithBOM(t *testing.T) {
	plain := "gpus,throughput\n1,100\n2,190\n"
	want, err := ReadTrialCSV(strings.NewReader(plain))
	if err != nil {
		t.Fatal(err)
	}
	got, err := ReadTrialCSV(strings.NewReader("\uFEFF" + plain))
	if err != nil || len(got) != len(want) || got[1] != want[1] {
		t.Fatalf("with a BOM: %v, %v; want %v", got, err, want)
	}
}

// A trial that measures each GPU count several times is fitted as the
// least squares over every point, though the optimizer sees one row per
// count: the fit's R² is the one computed point by point, and no (σ, κ)
// of a grid, with λ at its best over the points, does better.
func TestFitUSLGroupsRepeatedCounts(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	u := USL{Lambda: 4000, Sigma: 0.04, Kappa: 0.0008}
	var pts []Point
	for _, n := range []float64{1, 2, 4, 8, 16, 32} {
		for range 5 {
			pts = append(pts, Point{n, u.Throughput(n) * math.Exp(0.08*rng.NormFloat64())})
		}
	}
	f, err := FitUSL(pts)
	if err != nil {
		t.Fatal(err)
	}
	// Least squares point by point: λ projected out in closed form.
	sse := func(sigma, kappa float64) (float64, float64) {
		var sxg, sgg float64
		for _, p := range pts {
			g := p.N / (1 + sigma*(p.N-1) + kappa*p.N*(p.N-1))
			sxg += p.X * g
			sgg += g * g
		}
		l, e := sxg/sgg, 0.0
		for _, p := range pts {
			r := p.X - l*p.N/(1+sigma*(p.N-1)+kappa*p.N*(p.N-1))
			e += r * r
		}
		return e, l
	}
	mean, sst := 0.0, 0.0
	for _, p := range pts {
		mean += p.X / float64(len(pts))
	}
	for _, p := range pts {
		sst += (p.X - mean) * (p.X - mean)
	}
	got, lambda := sse(f.Sigma, f.Kappa)
	if r2 := 1 - got/sst; math.Abs(r2-f.R2) > 1e-9 {
		t.Errorf("R² %.12f; point by point %.12f", f.R2, r2)
	}
	if math.Abs(lambda-f.Lambda) > 1e-6*lambda {
		t.Errorf("λ %g; point by point %g", f.Lambda, lambda)
	}
	if f.Points != len(pts) {
		t.Errorf("%d points reported, want %d", f.Points, len(pts))
	}
	for i := 0; i <= 100; i++ {
		for j := 0; j <= 100; j++ {
			s, k := float64(i)/100, math.Pow(10, -8+7*float64(j)/100)
			if g, _ := sse(s, k); g < got*(1-1e-9) {
				t.Fatalf("fit %+v has SSE %g; σ=%g κ=%g has %g", f.USL, got, s, k, g)
			}
		}
	}
}
