package model

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"gonum.org/v1/gonum/stat"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

func analyze(t testing.TB, s *scenario.Scenario, draws int) *Report {
	t.Helper()
	r, err := Analyze(context.Background(), s, cat(t), draws)
	if err != nil {
		t.Fatalf("Analyze: %v", err)
	}
	return r
}

// Same seed → identical report; another seed → different draws.
func TestMonteCarloReproducible(t *testing.T) {
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		t.Fatal(err)
	}
	a, b := analyze(t, s, 2000), analyze(t, s, 2000)
	if !reflect.DeepEqual(a.Uncertainty, b.Uncertainty) || !reflect.DeepEqual(a.Tornado, b.Tornado) {
		t.Error("same seed gave different results")
	}
	s.Seed++
	if c := analyze(t, s, 2000); reflect.DeepEqual(a.Uncertainty.Directions, c.Uncertainty.Directions) {
		t.Error("a different seed gave identical percentiles")
	}
}

// A scenario with no estimates has P10 = P50 = P90 = the deterministic value.
// (The HPC queue wait is otherwise the catalog's estimate, sampled too.)
func TestNoEstimatesNoSpread(t *testing.T) {
	s := base()
	s.Options.HPC.QueueWaitHours = scenario.Known(10)
	r := analyze(t, s, 500)
	for i, d := range r.Uncertainty.Directions {
		det := r.Directions[i]
		if d.CostP10 != d.CostP90 || !near(d.CostP50, det.CostHorizon, 1e-12) || d.TimeP10 != d.TimeP90 {
			t.Errorf("%s: cost %g/%g/%g (deterministic %g), time %g–%g", d.Direction, d.CostP10, d.CostP50, d.CostP90, det.CostHorizon, d.TimeP10, d.TimeP90)
		}
	}
	if len(r.Tornado.Bars) != 0 {
		t.Errorf("tornado without estimates: %+v", r.Tornado.Bars)
	}
	// Without spread, verdicts are certain: feasible directions are feasible
	// in every draw and the cheapest is cheapest in every draw.
	for i, d := range r.Uncertainty.Directions {
		if want := b2f(r.Directions[i].Feasible); d.ProbFeasible != want {
			t.Errorf("%s: P(feasible) %g, want %g", d.Direction, d.ProbFeasible, want)
		}
		if want := b2f(d.Direction == r.Cheapest); d.ProbCheapest != want {
			t.Errorf("%s: P(cheapest) %g, want %g", d.Direction, d.ProbCheapest, want)
		}
	}
}

// One triangular input: runs per month (0.5, 1, 4). The cloud direction's
// horizon cost is linear in it, so its P50 is the cost at the triangle's
// median: for mode c ≥ (a+b)/2, median = a + √((b−a)(c−a)/2)... here the
// mode 1 lies below the midpoint 2.25, so median = b − √((b−a)(b−c)/2) =
// 4 − √(3.5 × 3 / 2) = 1.708712. Sampling error of a median with 10,000
// draws: about 1.2533 σ/√n ≈ 0.01 in runs/month; the test allows 0.03.
func TestMedianOfTriangularInput(t *testing.T) {
	s := base()
	s.Workload.RunsPerMonth = scenario.Estimate(0.5, 1, 4)
	r := analyze(t, s, DefaultDraws)
	cl := r.Direction(scenario.Cloud)
	median := 4 - math.Sqrt(3.5*3/2)
	want := 12 * (cl.MonthlyFixedCost + median*cl.VariableCostPerRun)
	perRun := 12 * cl.VariableCostPerRun
	got := r.Uncertainty.Directions[1].CostP50
	if math.Abs(got-want) > 0.03*perRun {
		t.Errorf("P50 %.2f, want %.2f ± %.2f (median runs %.4f)", got, want, 0.03*perRun, median)
	}
	if r.Uncertainty.Inputs[0] != "workload.runs_per_month" {
		t.Errorf("inputs %v", r.Uncertainty.Inputs)
	}
	// The tornado swings the cost from 0.5 to 4 runs: 12 × 3.5 × variable.
	if len(r.Tornado.Bars) == 0 || r.Tornado.Direction != r.Cheapest {
		t.Fatalf("tornado %+v", r.Tornado)
	}
}

// The tornado puts the largest swing first and each bar's ends are the
// metric with that input at low and high. (Runs stay at one a month or
// more: below, a rented direction's staff is charged for fewer months.)
func TestTornadoOrder(t *testing.T) {
	s := base()
	s.Workload.RunsPerMonth = scenario.Estimate(1, 1.1, 1.2)
	s.Workload.TokensPerRunB = scenario.Estimate(5, 10, 40)
	r := analyze(t, s, 200)
	bars := r.Tornado.Bars
	if len(bars) != 3 || bars[0].Input != "workload.tokens_per_run_b" || bars[0].Swing < bars[1].Swing {
		t.Fatalf("bars %+v", bars)
	}
	// Cost is increasing in tokens: low end cheaper than high end.
	if !(bars[0].Low < r.Tornado.Base && r.Tornado.Base < bars[0].High) {
		t.Errorf("bar %+v around base %g", bars[0], r.Tornado.Base)
	}
}

// Probabilities are shares in [0, 1]; the cheapest shares and "none
// feasible" add up to 1; every example analyses without NaN or Inf.
func TestExamplesAnalyze(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.json")
	for _, f := range files {
		s, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		r := analyze(t, s, 1000)
		sum := r.Uncertainty.ProbNoneFeasible
		for _, d := range r.Uncertainty.Directions {
			for _, p := range []float64{d.ProbCheapest, d.ProbFeasible, d.ProbDeadline, d.ProbBudget} {
				if !(p >= 0 && p <= 1) {
					t.Errorf("%s %s: probability %g", s.ID, d.Direction, p)
				}
			}
			for _, x := range []float64{d.CostP10, d.CostP50, d.CostP90, d.TimeP10, d.TimeP50, d.TimeP90} {
				if math.IsNaN(x) || math.IsInf(x, 0) || x < 0 {
					t.Errorf("%s %s: %g", s.ID, d.Direction, x)
				}
			}
			if !(d.CostP10 <= d.CostP50 && d.CostP50 <= d.CostP90) {
				t.Errorf("%s %s: percentiles out of order", s.ID, d.Direction)
			}
			sum += d.ProbCheapest
		}
		if !near(sum, 1, 1e-12) {
			t.Errorf("%s: cheapest shares sum to %g", s.ID, sum)
		}
	}
}

func BenchmarkAnalyzeExample(b *testing.B) {
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		b.Fatal(err)
	}
	c := cat(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyze(context.Background(), s, c, DefaultDraws); err != nil {
			b.Fatal(err)
		}
	}
}

// The Monte Carlo's fast path (pinned plan, quiet evaluation) at the likely
// values reproduces the full report's numbers and verdicts exactly, for
// every example and for random scenarios: the two paths cannot drift apart.
func TestQuietPathMatchesReport(t *testing.T) {
	var ss []*scenario.Scenario
	files, _ := filepath.Glob("../../scenarios/*.json")
	for _, f := range files {
		s, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		ss = append(ss, s)
	}
	for _, sh := range []string{"replicated", "zero3"} {
		s := base()
		s.Workload.Sharding = sh
		s.Workload.DeadlineHours = scenario.Known(3)
		s.Options = scenario.Options{Cloud: scenario.CloudOptions{Pricing: "spot"}}
		ss = append(ss, s)
	}
	// Ruled out in every way the scenario can say: disabled, no data may
	// leave, a budget cap, another currency.
	s := base()
	s.Currency = "EUR"
	s.Data.Movement = scenario.MoveNone
	s.Dimensions.Economics.BudgetCap = scenario.Known(1)
	s.Options.Hybrid.Disabled = true
	ss = append(ss, s)
	// A trial on the cloud's H100s, fitted and too flat to fit: the plan's
	// pinned fit gives the report's curve.
	truth := USL{Lambda: 5000, Sigma: 0.03, Kappa: 0.0005}
	ss = append(ss, withTrial(base(), truth.Throughput), withTrial(base(), func(float64) float64 { return 5000 }))
	for _, s := range ss {
		full := eval(t, s)
		c, err := scenarioCatalog(s, cat(t)) // as Analyze reads it
		if err != nil {
			t.Fatal(err)
		}
		p := newPlan(s, c, full, newPins(s, full))
		p.likely()
		q, err := p.eval()
		if err != nil {
			t.Fatal(err)
		}
		// Words are the full report's: a quiet evaluation writes none.
		if len(q.Warnings) != 0 {
			t.Errorf("%s: the quiet evaluation wrote warnings %+v", s.ID, q.Warnings)
		}
		for i, d := range full.Directions {
			g := q.Directions[i]
			if len(g.Reasons) != 0 || len(g.Notes) != 0 {
				t.Errorf("%s %s: the quiet evaluation wrote reasons %+v and notes %+v", s.ID, d.Direction, g.Reasons, g.Notes)
			}
			if len(g.Breakdown) != 0 || len(g.Sources) != 0 || g.Scaling != nil || g.Interruptions != nil || g.OwnedCost != nil {
				t.Errorf("%s %s: the quiet evaluation wrote cost lines %+v, sources %v or details", s.ID, d.Direction, g.Breakdown, g.Sources)
			}
			if d.Feasible != g.Feasible || d.GPUs != g.GPUs || !near(d.CostHorizon, g.CostHorizon, 1e-12) || !near(d.TimeToResultHours, g.TimeToResultHours, 1e-12) {
				t.Errorf("%s %s: full feasible %v, %d GPUs, %.6f, %.6f h; quiet %v, %d, %.6f, %.6f h",
					s.ID, d.Direction, d.Feasible, d.GPUs, d.CostHorizon, d.TimeToResultHours, g.Feasible, g.GPUs, g.CostHorizon, g.TimeToResultHours)
			}
		}
	}
}

// withTrial gives s a trial on H100s with the throughputs x(N), and an
// estimate to sample.
func withTrial(s *scenario.Scenario, x func(n float64) float64) *scenario.Scenario {
	s.Workload.TrialGPU = "h100-sxm"
	for _, n := range []int{1, 2, 4, 8, 16} {
		s.Workload.Trial = append(s.Workload.Trial, scenario.TrialPoint{GPUs: n, Throughput: x(float64(n))})
	}
	s.Workload.TokensPerRunB = scenario.Estimate(5, 10, 20)
	return s
}

// The draws of a plan with a trial share its fit, made before they start
// (run with -race: the workers only read it), and agree with the report.
func TestAnalyzeWithTrial(t *testing.T) {
	s := withTrial(base(), USL{Lambda: 5000, Sigma: 0.03, Kappa: 0.0005}.Throughput)
	r := analyze(t, s, 4*chunkDraws)
	c := r.Direction(scenario.Cloud)
	if c.Calibration == nil {
		t.Fatal("no calibration on the trial's GPU")
	}
	for _, d := range r.Uncertainty.Directions {
		if d.Direction == scenario.Cloud && !(d.CostP10 <= c.CostHorizon && c.CostHorizon <= d.CostP90) {
			t.Errorf("cloud cost %g outside P10–P90 %g–%g", c.CostHorizon, d.CostP10, d.CostP90)
		}
	}
}

// deciles agrees with gonum's empirical quantile on sorted data, for sizes
// and duplicate patterns that stress the selection.
func TestDecilesMatchGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	for _, n := range []int{1, 2, 3, 9, 10, 11, 100, 1001, 10000} {
		for _, dup := range []int{0, 3} {
			x := make([]float64, n)
			for i := range x {
				x[i] = rng.Float64()
				if dup > 0 {
					x[i] = float64(rng.IntN(dup))
				}
			}
			sorted := slices.Clone(x)
			slices.Sort(sorted)
			a, b, c := deciles(x)
			for _, q := range []struct{ p, got float64 }{{0.1, a}, {0.5, b}, {0.9, c}} {
				if want := stat.Quantile(q.p, stat.Empirical, sorted, nil); q.got != want {
					t.Errorf("n=%d dup=%d p=%g: %g, want %g", n, dup, q.p, q.got, want)
				}
			}
		}
	}
}

// Property: for random valid scenarios with estimates, the Monte Carlo and
// the tornado never produce NaN or Inf, and P10 ≤ P50 ≤ P90.
func TestRandomAnalyzeStaysFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	c := cat(t)
	presets := c.IDs(catalog.KindModel)
	est := func(lo, hi float64) scenario.Value {
		a := lo + rng.Float64()*(hi-lo)
		b := a + rng.Float64()*(hi-a)
		m := a + rng.Float64()*(b-a)
		return scenario.Estimate(a, m, b)
	}
	for i := 0; i < 40; i++ {
		s := base()
		s.Options = scenario.Options{}
		s.Seed = uint64(i)
		s.Workload.Shape = scenario.Shapes[rng.IntN(len(scenario.Shapes))]
		s.Workload.Model = scenario.Model{Preset: presets[rng.IntN(len(presets))]}
		s.Workload.TokensPerRunB = est(0.01, 100)
		s.Workload.RunsPerMonth = est(0.1, 30)
		s.Workload.MFU = est(0.05, 0.6)
		s.Data.VolumeGB = est(0, 1e4)
		s.Dimensions.Economics.BudgetCap = est(1e3, 1e7)
		s.Workload.DeadlineHours = est(1, 1000)
		if s.Workload.Shape == scenario.ShapeFineTuning {
			s.Workload.Method = "qlora"
		}
		if s.Workload.Shape == scenario.ShapeInteractive {
			s.Workload.Traffic = &scenario.Traffic{PeakRPS: est(1, 50), MeanRPS: scenario.Known(0.5), TokensIn: est(100, 4000),
				TokensOut: est(10, 800), LatencyTargetMS: scenario.Known(20000)}
		}
		r, err := Analyze(context.Background(), s, c, 300)
		if err != nil {
			t.Fatalf("case %d (%s %s): %v", i, s.Workload.Shape, s.Workload.Model.Preset, err)
		}
		for _, d := range r.Uncertainty.Directions {
			for _, x := range []float64{d.CostP10, d.CostP50, d.CostP90, d.TimeP10, d.TimeP50, d.TimeP90} {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					t.Fatalf("case %d %s: %+v", i, d.Direction, d)
				}
			}
			if !(d.CostP10 <= d.CostP50 && d.CostP50 <= d.CostP90 && d.TimeP10 <= d.TimeP50 && d.TimeP50 <= d.TimeP90) {
				t.Errorf("case %d %s: percentiles out of order %+v", i, d.Direction, d)
			}
		}
		for _, b := range r.Tornado.Bars {
			if math.IsNaN(b.Swing) || math.IsInf(b.Swing, 0) {
				t.Fatalf("case %d: bar %+v", i, b)
			}
		}
	}
}

// The report names the range of every sampled input, catalog estimates
// included (the Caltech partition's queue wait is 2–12–48 h in the catalog).
func TestUncertaintyRanges(t *testing.T) {
	s := base()
	s.Workload.RunsPerMonth = scenario.Estimate(0.5, 1, 4)
	s.Options.HPC.Partition = "caltech-hpc"
	u := analyze(t, s, 100).Uncertainty
	if len(u.Ranges) != len(u.Inputs) {
		t.Fatalf("%d ranges for %d inputs", len(u.Ranges), len(u.Inputs))
	}
	want := map[string][3]float64{"workload.runs_per_month": {0.5, 1, 4}, "options.hpc.queue_wait_hours (catalog)": {2, 12, 48}}
	for _, r := range u.Ranges {
		if w, ok := want[r.Input]; ok && [3]float64{r.Low, r.Likely, r.High} != w {
			t.Errorf("%s: %v–%v–%v, want %v", r.Input, r.Low, r.Likely, r.High, w)
		}
	}
}

// countingContext ends once its Err has been asked after limit times: the
// draws ask between chunks, so it ends a run at a known point.
type countingContext struct {
	context.Context
	mu    sync.Mutex
	limit int
	asked int
	done  chan struct{}
}

func newCountingContext(limit int) *countingContext {
	return &countingContext{Context: context.Background(), limit: limit, done: make(chan struct{})}
}

func (c *countingContext) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.asked++
	if c.asked <= c.limit {
		return nil
	}
	if c.asked == c.limit+1 {
		close(c.done)
	}
	return context.Canceled
}

func (c *countingContext) Done() <-chan struct{} { return c.done }

func (c *countingContext) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.asked
}

// settled waits for the goroutines Analyze started to be gone: no more than
// before it ran.
func settled(t *testing.T, before int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			t.Fatalf("%d goroutines still running after Analyze returned (%d before)", runtime.NumGoroutine(), before)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// The draws ask the context once per chunk, and a context that ends
// mid-run stops them at the next chunk: Analyze returns context.Canceled,
// the workers ask only once more each, and none is left running.
func TestAnalyzeStopsBetweenChunks(t *testing.T) {
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		t.Fatal(err)
	}
	c := cat(t)
	const chunks = 50
	never := newCountingContext(math.MaxInt)
	if _, err := Analyze(never, s, c, chunks*chunkDraws); err != nil {
		t.Fatal(err)
	}
	if n := never.count(); n < chunks {
		t.Errorf("the context was asked %d times in %d chunks of draws", n, chunks)
	}

	before := runtime.NumGoroutine()
	ctx := newCountingContext(4) // Analyze's own check, then three chunks
	r, err := Analyze(ctx, s, c, chunks*chunkDraws)
	if !errors.Is(err, context.Canceled) || r != nil {
		t.Fatalf("Analyze = %v, %v; want no report and context.Canceled", r, err)
	}
	// Each worker asks once more before it stops, and monteCarlo once at the end.
	if n := ctx.count(); n > 4+runtime.GOMAXPROCS(0)+1 {
		t.Errorf("the context was asked %d times: the draws went on past its end", n)
	}
	settled(t, before)
}

// Cancelled by the clock while 400,000 draws run, Analyze returns promptly
// with context.Canceled and leaves no goroutine behind.
func TestAnalyzeCancelled(t *testing.T) {
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		t.Fatal(err)
	}
	c := cat(t)
	// The same run with a fortieth of the draws, for scale.
	start := time.Now()
	analyze(t, s, 10000)
	fortieth := time.Since(start)

	before := runtime.NumGoroutine()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(fortieth, cancel)
	start = time.Now()
	r, err := Analyze(ctx, s, c, 400000)
	took := time.Since(start)
	if !errors.Is(err, context.Canceled) || r != nil {
		t.Fatalf("Analyze = %v, %v; want no report and context.Canceled", r, err)
	}
	// Whole, the run would take about 40 × fortieth.
	if took > 10*fortieth+250*time.Millisecond {
		t.Errorf("cancelled after %v, Analyze returned after %v (the whole run: about %v)", fortieth, took, 40*fortieth)
	}
	settled(t, before)

	// An ended context stops Analyze before it starts.
	if _, err := Analyze(ctx, s, c, 100); !errors.Is(err, context.Canceled) {
		t.Errorf("Analyze with an ended context: %v", err)
	}
}

// BenchmarkAnalyzeTrial measures what a trial's points cost an analysis:
// none, 10 and 1,000 points (GPU counts 1–64 over and over, on the
// cloud's GPU, so that every draw uses the fitted curve).
func BenchmarkAnalyzeTrial(b *testing.B) {
	truth := USL{Lambda: 5000, Sigma: 0.03, Kappa: 0.0005}
	for _, points := range []int{0, 10, 1000} {
		s := base()
		s.Workload.TokensPerRunB = scenario.Estimate(5, 10, 20)
		if points > 0 {
			s.Workload.TrialGPU = "h100-sxm"
			for i := range points {
				n := 1 + i%64
				s.Workload.Trial = append(s.Workload.Trial, scenario.TrialPoint{GPUs: n, Throughput: truth.Throughput(float64(n)) * (1 + 0.01*float64(i%7-3))})
			}
		}
		c := cat(b)
		b.Run(fmt.Sprintf("points=%d", points), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Analyze(context.Background(), s, c, DefaultDraws); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// cloneWork is scenario.Clone: an equal scenario, the trial points its
// own (a change to the copy's leaves the original's alone).
func TestCloneWorkIsClone(t *testing.T) {
	s := base()
	s.Workload.Trial = []scenario.TrialPoint{{GPUs: 1, Throughput: 100}, {GPUs: 2, Throughput: 190}, {GPUs: 4, Throughput: 350}}
	s.Workload.TrialGPU = "h100-sxm"
	w := cloneWork(s)
	if !reflect.DeepEqual(w, scenario.Clone(s)) {
		t.Errorf("cloneWork differs from scenario.Clone:\n%+v\n%+v", w, scenario.Clone(s))
	}
	w.Workload.Trial[0].Throughput = 1
	if s.Workload.Trial[0].Throughput != 100 {
		t.Error("the copy shares the original's trial points")
	}
}
