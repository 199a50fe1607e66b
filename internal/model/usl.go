package model

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"gonum.org/v1/gonum/optimize"

	"hostplan/internal/bom"
	"hostplan/internal/present/num"
)

// Errors of the scalability fit, matched with errors.Is. The error returned
// carries a message with the details; these are its kind.
var (
	// ErrTooFewPoints: fewer than three trial points, or fewer than three
	// distinct GPU counts (three parameters need three distinct N).
	ErrTooFewPoints = errors.New("too few trial points")
	// ErrBadPoint: a trial point with a non-positive or non-finite N or X.
	ErrBadPoint = errors.New("bad trial point")
	// ErrDegenerateFit: the optimizer failed, or the result is not finite,
	// or its quality cannot be judged.
	ErrDegenerateFit = errors.New("degenerate fit")
)

// fitError is an error of kind (one of the sentinels above) with its own message.
type fitError struct {
	kind error
	msg  string
}

func (e *fitError) Error() string { return e.msg }
func (e *fitError) Unwrap() error { return e.kind }

func fitErrorf(kind error, format string, a ...any) error {
	return &fitError{kind: kind, msg: fmt.Sprintf(format, a...)}
}

// USL is the Universal Scalability Law (N. J. Gunther, "Guerrilla Capacity
// Planning", Springer 2007):
//
//	X(N) = λN / (1 + σ(N−1) + κN(N−1))
//
// λ is the throughput of one unit (here one GPU), σ ∈ [0, 1] the contention
// (serial) fraction, κ ≥ 0 the coherency (crosstalk) cost that makes
// throughput fall beyond N_max. The methods panic on a USL outside those
// ranges (λ ≤ 0, σ ∉ [0, 1], κ < 0, or any of them not finite): that is misuse,
// FitUSL never returns one.
type USL struct {
	Lambda, Sigma, Kappa float64
}

func (u USL) check(method string) {
	if !(u.Lambda > 0) || math.IsInf(u.Lambda, 0) ||
		!(u.Sigma >= 0 && u.Sigma <= 1) ||
		!(u.Kappa >= 0) || math.IsInf(u.Kappa, 0) {
		panic(fmt.Sprintf("model: USL.%s: coefficients λ=%g σ=%g κ=%g out of range (allowed: λ > 0, 0 ≤ σ ≤ 1, κ ≥ 0, all finite)", method, u.Lambda, u.Sigma, u.Kappa))
	}
}

// Throughput is X(n). It panics if n is negative or not finite.
func (u USL) Throughput(n float64) float64 {
	u.check("Throughput")
	if !(n >= 0) || math.IsInf(n, 0) {
		panic(fmt.Sprintf("model: USL.Throughput: n %g out of range (allowed: a finite number ≥ 0)", n))
	}
	// n ÷ the denominator first: λ·n alone overflows for a large λ and n
	// whose throughput is finite.
	return u.Lambda * (n / (1 + u.Sigma*(n-1) + u.Kappa*n*(n-1)))
}

// Efficiency is X(n) / (n·X(1)), the fraction of linear scaling achieved at
// n; X(1) = λ. It is in (0, 1] for n ≥ 1. It panics unless n > 0 and finite.
func (u USL) Efficiency(n float64) float64 {
	u.check("Efficiency")
	if !(n > 0) || math.IsInf(n, 0) {
		panic(fmt.Sprintf("model: USL.Efficiency: n %g out of range (allowed: a finite number > 0)", n))
	}
	return 1 / (1 + u.Sigma*(n-1) + u.Kappa*n*(n-1))
}

// NMax is the N at which throughput peaks, √((1−σ)/κ) (Gunther 2007;
// dX/dN = 0 ⇔ 1 − σ − κN² = 0). It is the continuous optimum and may be
// below 1 when throughput falls from the first GPU on.
//
// With κ = 0 there is no retrograde region and NMax returns +Inf. Callers
// must not let that reach a report: use NMaxFinite.
func (u USL) NMax() float64 {
	u.check("NMax")
	if u.Kappa == 0 {
		return math.Inf(1)
	}
	return math.Sqrt((1 - u.Sigma) / u.Kappa)
}

// NMaxFinite is NMax with ok = false (and n = 0) when κ = 0, that is when
// throughput keeps rising (or, with σ = 1, stays flat) for every N.
func (u USL) NMaxFinite() (n float64, ok bool) {
	n = u.NMax()
	if math.IsInf(n, 0) {
		return 0, false
	}
	return n, true
}

// Point is one measured trial: N GPUs gave throughput X (in any unit; the
// fitted λ is in the same unit).
type Point struct{ N, X float64 }

// Fit is a USL fitted to trial points, with its coefficient of
// determination R² = 1 − SS_res/SS_tot on X and the number of points used.
type Fit struct {
	USL
	R2     float64
	Points int
}

// FitUSL fits the Universal Scalability Law to trial points by non-linear
// least squares on X, with σ ∈ [0, 1] and κ ≥ 0 (the bounds of the R package
// usl, Moeding, `usl.solve.nls`: lower = 0, σ ≤ 1).
//
// Method. For fixed σ, κ the model is linear in λ: X_i = λ·g_i with
// g_i = N_i / (1 + σ(N_i−1) + κN_i(N_i−1)), so the best λ is Σx·g / Σg²
// (variable projection: Golub & Pereyra, SIAM J. Numer. Anal. 10(2), 1973).
// What remains is a problem in (σ, κ), minimised with gonum/optimize
// (Nelder–Mead, then BFGS with the analytic gradient) over σ = sin²a,
// κ = b², which keeps both in range without constraints. It starts from
// Gunther's linearisation (N/C(N) − 1 = σ(N−1) + κN(N−1) with C = X/λ₀, a
// linear least-squares problem; Gunther 2007) and from the two best points
// of a coarse grid, and keeps the best result. The optimum of a
// bound-constrained problem may lie on a bound, where the reparametrisation
// converges only slowly, so the faces σ = κ = 0, κ = 0 and σ = 0 are fitted
// too; the simplest candidate within 1e-10·SS_tot of the smallest residual
// wins, so a κ that is zero in the data comes back exactly 0.
//
// Errors: ErrTooFewPoints (fewer than three points or three distinct N),
// ErrBadPoint (N or X not a finite number > 0, naming the point),
// ErrDegenerateFit (no finite result, or R² undefined because every X is
// the same). A returned Fit never holds NaN or Inf.
func FitUSL(pts []Point) (Fit, error) {
	if len(pts) < 3 {
		return Fit{}, fitErrorf(ErrTooFewPoints, "need at least three trial points, got %d", len(pts))
	}
	distinct := map[float64]bool{}
	for i, p := range pts {
		if !(p.N > 0) || math.IsInf(p.N, 0) {
			return Fit{}, fitErrorf(ErrBadPoint, "trial point %d: gpus %g is out of range (allowed: a finite number > 0)", i+1, p.N)
		}
		if !(p.X > 0) || math.IsInf(p.X, 0) {
			return Fit{}, fitErrorf(ErrBadPoint, "trial point %d: throughput %g is out of range (allowed: a finite number > 0)", i+1, p.X)
		}
		distinct[p.N] = true
	}
	if len(distinct) < 3 {
		return Fit{}, fitErrorf(ErrTooFewPoints, "need trial points at three or more different GPU counts, got %d", len(distinct))
	}

	// Work on X scaled to a maximum of 1 so tolerances are unit-free.
	scale := 0.0
	for _, p := range pts {
		scale = math.Max(scale, p.X)
	}
	pr := newUSLProblem(pts, scale)
	if !(pr.sst > 0) {
		return Fit{}, fitErrorf(ErrDegenerateFit, "every trial point has the same throughput, so the fit's R² is undefined; measure at GPU counts where throughput differs")
	}

	full, ok := pr.fitFull()
	if !ok {
		return Fit{}, fitErrorf(ErrDegenerateFit, "the optimizer found no finite least-squares fit of the scalability law to these %d points", len(pts))
	}
	// Simplest first: among fits as good as the best, keep the first.
	cands := []uslCandidate{
		pr.project(0, 0),
		pr.fitFace(func(t float64) (float64, float64) { return sin2(t), 0 }, []float64{0.01, 0.1, 0.5, 1.2}),
		pr.fitFace(func(t float64) (float64, float64) { return 0, t * t }, []float64{0.003, 0.03, 0.3}),
		full,
	}
	minSSE := full.sse
	for _, c := range cands {
		if c.ok {
			minSSE = math.Min(minSSE, c.sse)
		}
	}
	best := full
	for _, c := range cands {
		if c.ok && c.sse <= minSSE+1e-10*pr.sst {
			best = c
			break
		}
	}

	f := Fit{USL: USL{Lambda: best.lambda * scale, Sigma: best.sigma, Kappa: best.kappa}, R2: 1 - best.sse/pr.sst, Points: len(pts)}
	for _, v := range []float64{f.Lambda, f.Sigma, f.Kappa, f.R2} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Fit{}, fitErrorf(ErrDegenerateFit, "the least-squares fit of the scalability law is not finite (λ=%g σ=%g κ=%g R²=%g)", f.Lambda, f.Sigma, f.Kappa, f.R2)
		}
	}
	if !(f.Lambda > 0) {
		return Fit{}, fitErrorf(ErrDegenerateFit, "the least-squares fit gives a throughput per GPU of %g", f.Lambda)
	}
	return f, nil
}

// uslProblem is the scaled data of a fit, one row per distinct GPU count:
// the points' mean throughput x there and their number w. Least squares
// over the points is least squares over these rows weighted by w, plus
// the rows' own scatter (within), which no curve changes: Σ_i (x_i − f)²
// = Σ_n [w_n (x̄_n − f(n))² + Σ_{i∈n} (x_i − x̄_n)²]. A trial of 1,000
// points at 64 counts costs the optimizer 64 rows.
type uslProblem struct {
	n, x, w []float64
	within  float64 // Σ (x_i − x̄ of its count)²
	sst     float64 // total sum of squares of x about its mean
}

// newUSLProblem groups pts by GPU count, throughput divided by scale.
func newUSLProblem(pts []Point, scale float64) *uslProblem {
	sum, count := map[float64]float64{}, map[float64]float64{}
	total := 0.0
	for _, p := range pts {
		sum[p.N] += p.X / scale
		count[p.N]++
		total += p.X / scale
	}
	pr := &uslProblem{}
	for _, n := range slices.Sorted(maps.Keys(sum)) {
		pr.n, pr.x, pr.w = append(pr.n, n), append(pr.x, sum[n]/count[n]), append(pr.w, count[n])
	}
	mean := total / float64(len(pts))
	row := map[float64]int{}
	for i, n := range pr.n {
		row[n] = i
	}
	for _, p := range pts {
		x := p.X / scale
		pr.sst += (x - mean) * (x - mean)
		d := x - pr.x[row[p.N]]
		pr.within += d * d
	}
	return pr
}

// uslCandidate is one local optimum: coefficients (λ on the scaled data)
// and the residual sum of squares.
type uslCandidate struct {
	lambda, sigma, kappa, sse float64
	ok                        bool
}

func sin2(a float64) float64 { s := math.Sin(a); return s * s }

// project returns the best λ for fixed σ, κ and the residual sum of squares.
// A candidate is not ok if the denominator 1 + σ(N−1) + κN(N−1) reaches
// zero from the smallest measured N on: below N = 1 a large κ makes it
// vanish, and X there has a pole (and is negative past it).
func (pr *uslProblem) project(sigma, kappa float64) uslCandidate {
	var sxg, sgg float64
	lo := math.Inf(1)
	for i, n := range pr.n {
		lo = math.Min(lo, n)
		g := n / (1 + sigma*(n-1) + kappa*n*(n-1))
		sxg += pr.w[i] * pr.x[i] * g
		sgg += pr.w[i] * g * g
	}
	lambda := sxg / sgg
	sse := pr.within
	for i, n := range pr.n {
		r := pr.x[i] - lambda*n/(1+sigma*(n-1)+kappa*n*(n-1))
		sse += pr.w[i] * r * r
	}
	c := uslCandidate{lambda: lambda, sigma: sigma, kappa: kappa, sse: sse}
	n := lo // where the denominator, convex in N with its vertex at (κ−σ)/2κ, is least
	if kappa > 0 {
		n = math.Max(lo, (kappa-sigma)/(2*kappa))
	}
	c.ok = lambda > 0 && !math.IsInf(lambda, 0) && !math.IsNaN(sse) && !math.IsInf(sse, 0) && 1+sigma*(n-1)+kappa*n*(n-1) > 0
	return c
}

// objective is SSE(σ(a), κ(b)) with λ projected out.
func (pr *uslProblem) objective(v []float64) float64 {
	c := pr.project(sin2(v[0]), v[1]*v[1])
	if !c.ok {
		return math.Inf(1)
	}
	return c.sse
}

// gradient of objective. With λ at its optimum, ∂SSE/∂λ = 0, so
// dSSE/dθ = −2λ Σ r_i ∂g_i/∂θ (Golub & Pereyra 1973), with
// ∂g/∂σ = −N(N−1)/D², ∂g/∂κ = −N²(N−1)/D², dσ/da = sin 2a, dκ/db = 2b.
func (pr *uslProblem) gradient(grad, v []float64) {
	sigma, kappa := sin2(v[0]), v[1]*v[1]
	c := pr.project(sigma, kappa)
	var gs, gk float64
	for i, n := range pr.n {
		d := 1 + sigma*(n-1) + kappa*n*(n-1)
		r := pr.w[i] * (pr.x[i] - c.lambda*n/d)
		gs += r * n * (n - 1) / (d * d)
		gk += r * n * n * (n - 1) / (d * d)
	}
	// −2λ Σ r (−N(N−1)/D²) = 2λ Σ r N(N−1)/D²
	grad[0] = 2 * c.lambda * gs * math.Sin(2*v[0])
	grad[1] = 2 * c.lambda * gk * 2 * v[1]
}

func (pr *uslProblem) settings() *optimize.Settings {
	return &optimize.Settings{
		Converger:       &optimize.FunctionConverge{Absolute: 1e-13 * pr.sst, Relative: 1e-12, Iterations: 50},
		MajorIterations: 4000,
	}
}

// minimize runs Nelder–Mead from v0 and polishes the result with BFGS; it
// returns the better point reached, or ok = false if neither is finite.
func (pr *uslProblem) minimize(p optimize.Problem, v0 []float64) ([]float64, bool) {
	best := append([]float64(nil), v0...)
	bestF := p.Func(best)
	try := func(m optimize.Method, from []float64) {
		res, err := optimize.Minimize(p, from, pr.settings(), m)
		if res == nil || (err != nil && res.Status == optimize.Failure) {
			return
		}
		if f := res.F; !math.IsNaN(f) && !math.IsInf(f, 0) && f <= bestF {
			best, bestF = append(best[:0:0], res.X...), f
		}
	}
	try(&optimize.NelderMead{}, best)
	if p.Grad != nil {
		try(&optimize.BFGS{}, best)
	}
	return best, !math.IsInf(bestF, 0) && !math.IsNaN(bestF)
}

// fitFull fits σ and κ together from several starts.
func (pr *uslProblem) fitFull() (uslCandidate, bool) {
	p := optimize.Problem{Func: pr.objective, Grad: pr.gradient}
	// Starts: the two best points of a coarse grid, and the linearisation.
	var grid []uslCandidate
	for _, s := range []float64{0.001, 0.01, 0.05, 0.2, 0.6} {
		for _, k := range []float64{1e-6, 1e-4, 1e-3, 0.01, 0.1} {
			if c := pr.project(s, k); c.ok {
				grid = append(grid, c)
			}
		}
	}
	sort.Slice(grid, func(i, j int) bool { return grid[i].sse < grid[j].sse })
	var starts [][2]float64 // (σ, κ)
	for _, c := range grid[:min(2, len(grid))] {
		starts = append(starts, [2]float64{c.sigma, c.kappa})
	}
	if s, k, ok := pr.linearStart(); ok {
		starts = append(starts, [2]float64{s, k})
	}
	var best uslCandidate
	for _, st := range starts {
		// Stay off the bounds, where the gradient of the reparametrisation vanishes.
		s := math.Min(math.Max(st[0], 1e-4), 0.99)
		k := math.Max(st[1], 1e-6)
		v, ok := pr.minimize(p, []float64{math.Asin(math.Sqrt(s)), math.Sqrt(k)})
		if !ok {
			continue
		}
		c := pr.project(sin2(v[0]), v[1]*v[1])
		if c.ok && (!best.ok || c.sse < best.sse) {
			best = c
		}
	}
	return best, best.ok
}

// fitFace fits one free parameter t with the other fixed on a bound; coef
// maps t to (σ, κ).
func (pr *uslProblem) fitFace(coef func(t float64) (float64, float64), starts []float64) uslCandidate {
	p := optimize.Problem{Func: func(v []float64) float64 {
		c := pr.project(coef(v[0]))
		if !c.ok {
			return math.Inf(1)
		}
		return c.sse
	}}
	var best uslCandidate
	for _, t0 := range starts {
		v, ok := pr.minimize(p, []float64{t0})
		if !ok {
			continue
		}
		c := pr.project(coef(v[0]))
		if c.ok && (!best.ok || c.sse < best.sse) {
			best = c
		}
	}
	return best
}

// linearStart estimates σ and κ from Gunther's linearisation: with
// λ₀ = X(1) (or max X/N without a point at N = 1) and C = X/λ₀,
// N/C − 1 = σ(N−1) + κN(N−1), a least-squares problem without intercept in
// two unknowns (Gunther 2007). A negative estimate is replaced by a fit of
// the other coefficient alone.
func (pr *uslProblem) linearStart() (sigma, kappa float64, ok bool) {
	lambda0 := 0.0
	for i, n := range pr.n {
		lambda0 = math.Max(lambda0, pr.x[i]/n)
	}
	for i, n := range pr.n {
		if n == 1 {
			lambda0 = pr.x[i]
			break
		}
	}
	var a11, a12, a22, b1, b2 float64
	for i, n := range pr.n {
		u, w, k := n-1, n*(n-1), pr.w[i] // k points at this count
		y := n*lambda0/pr.x[i] - 1
		a11 += k * u * u
		a12 += k * u * w
		a22 += k * w * w
		b1 += k * u * y
		b2 += k * w * y
	}
	det := a11*a22 - a12*a12
	if det != 0 {
		sigma = (a22*b1 - a12*b2) / det
		kappa = (a11*b2 - a12*b1) / det
	}
	if det == 0 || sigma < 0 || kappa < 0 {
		sigma, kappa = 0, 0
		if s := b1 / a11; a11 > 0 && s > 0 {
			sigma = s
		} else if k := b2 / a22; a22 > 0 && k > 0 {
			kappa = k
		}
	}
	if math.IsNaN(sigma) || math.IsNaN(kappa) || math.IsInf(sigma, 0) || math.IsInf(kappa, 0) {
		return 0, 0, false
	}
	return sigma, kappa, true
}

// ReadTrialCSV reads trial points from CSV with a header row naming the
// columns gpus and throughput (any case, either order; other columns are
// ignored; lines starting with # are comments). Every value must be a finite
// number > 0. All problems are returned together (errors.Join), one per
// line, each naming the line: `line 4: throughput "abc" is not a number`.
func ReadTrialCSV(r io.Reader) ([]Point, error) {
	cr := csv.NewReader(bom.Reader(r)) // a spreadsheet's byte order mark carries nothing
	cr.Comment = '#'
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	header, err := cr.Read()
	if err == io.EOF {
		return nil, errors.New("line 1: missing header (want columns gpus,throughput)")
	}
	if err != nil {
		return nil, csvError(err)
	}
	line, _ := cr.FieldPos(0)
	col := map[string]int{"gpus": -1, "throughput": -1}
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if j, known := col[h]; known {
			if j >= 0 {
				return nil, fmt.Errorf("line %d: column %q appears twice", line, h)
			}
			col[h] = i
		}
	}
	var missing []string
	for _, name := range []string{"gpus", "throughput"} {
		if col[name] < 0 {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("line %d: header lacks column %s (want columns gpus,throughput, got %q)", line, strings.Join(missing, " and "), strings.Join(header, ","))
	}

	var pts []Point
	var errs []error
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			// A quoting error leaves the reader unable to find the next record.
			errs = append(errs, csvError(err))
			break
		}
		line, _ := cr.FieldPos(0)
		var p Point
		ok := true
		for _, c := range []struct {
			name string
			dst  *float64
		}{{"gpus", &p.N}, {"throughput", &p.X}} {
			i := col[c.name]
			if i >= len(rec) {
				errs = append(errs, fmt.Errorf("line %d: %s is missing", line, c.name))
				ok = false
				continue
			}
			s := strings.TrimSpace(rec[i])
			v, err := num.Parse(s)
			switch {
			case err != nil:
				errs = append(errs, fmt.Errorf("line %d: %s %q is not a number (allowed: %s)", line, c.name, s, num.Syntax))
				ok = false
			case !(v > 0) || math.IsInf(v, 0):
				errs = append(errs, fmt.Errorf("line %d: %s %s is out of range (allowed: a finite number > 0)", line, c.name, s))
				ok = false
			default:
				*c.dst = v
			}
		}
		if ok {
			pts = append(pts, p)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return pts, nil
}

// csvError rewords encoding/csv's errors as "line N: problem".
func csvError(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return fmt.Errorf("line %d: %v", pe.Line, pe.Err)
	}
	return err
}
