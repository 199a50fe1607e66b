package model

import (
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

func cat(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// base is a small valid training scenario the tests vary.
func base() *scenario.Scenario {
	return &scenario.Scenario{
		SchemaVersion: 1, ID: "t", Name: "test", Currency: "USD",
		Purpose: scenario.Purpose{Decision: "d", SuccessMeasure: "s", Owner: "o"},
		Workload: scenario.Workload{
			Shape: scenario.ShapeTraining, Precision: "bf16",
			Model:         scenario.Model{ParamsB: 1, Layers: 16, HiddenSize: 2048},
			TokensPerRunB: scenario.Known(10), RunsPerMonth: scenario.Known(1),
			MFU: scenario.Known(0.5), Sharding: "replicated",
			// No hardware failures: the hand-worked figures leave them
			// out; failures_test.go counts them.
			FailuresPerMillionGPUHours: scenario.Known(0),
		},
		Data: scenario.Data{VolumeGB: scenario.Known(0), Classification: "internal", Residency: "any", Movement: scenario.MoveAny,
			ProviderAllowed: true, ReturnOutputs: []string{"checkpoints"}, StorageGBps: scenario.Known(1)},
		Dimensions: scenario.Dimensions{
			Sovereignty: scenario.Sovereignty{Dimension: scenario.Dimension{Weight: 1}},
			Operations:  scenario.Operations{StaffFTE: scenario.Known(2)},
			Economics:   scenario.Economics{HorizonMonths: 12},
		},
		Options: scenario.Options{Cloud: scenario.CloudOptions{Offer: "aws-p5-h100", GPUs: 8, PricePerGPUHr: scenario.Known(2)}},
	}
}

func eval(t *testing.T, s *scenario.Scenario) *Report {
	t.Helper()
	r, err := Evaluate(s, cat(t))
	if err != nil {
		t.Fatalf("Evaluate: %v", err)
	}
	return r
}

func near(got, want, rel float64) bool {
	return math.Abs(got-want) <= rel*math.Max(math.Abs(want), 1e-12)
}

// Chinchilla: 70 B parameters on 1.4 T tokens (Hoffmann et al. 2022,
// Table 1) → 6·70e9·1.4e12 = 5.88e23 FLOPs (Kaplan et al. 2020, C = 6·N·D).
func TestTrainingFLOPsChinchilla(t *testing.T) {
	s := base()
	s.Workload.Model.ParamsB = 70
	s.Workload.TokensPerRunB = scenario.Known(1400)
	s.Options.Cloud = scenario.CloudOptions{}
	r := eval(t, s)
	if !near(r.Workload.FLOPsPerRun, 5.88e23, 1e-12) || r.Workload.FLOPsFactor != 6 {
		t.Errorf("FLOPs = %g (k = %g), want 5.88e23 (k = 6)", r.Workload.FLOPsPerRun, r.Workload.FLOPsFactor)
	}
	// Model state: 16 bytes per parameter for mixed-precision Adam
	// (Rajbhandari et al. 2020) → 70e9 × 16 = 1,120 GB.
	if !near(r.Workload.MemoryNeededGB, 1120, 1e-12) {
		t.Errorf("memory = %g GB, want 1120", r.Workload.MemoryNeededGB)
	}
}

// A cloud run worked by hand:
// 1 B parameters × 10 B tokens × 6 = 6e19 FLOPs. H100 dense BF16 989 TFLOP/s
// × MFU 0.5 = 494.5 TFLOP/s per GPU → 6e19 / 494.5e12 = 121,334.68 GPU-s.
// Steps: 10e9 tokens ÷ 4,194,304 per step = 2,384.19. On 8 GPUs (one node,
// NVLink, whose all-reduce bus bandwidth nccl-tests measures at 450 GB/s,
// not the link's 900 GB/s in both directions) each step adds a ring
// all-reduce of 2e9 gradient bytes: 2e9 / 450e9 × 2·7/8 = 7.778 ms, which
// hides behind the backward pass of the step's last micro-batch (1,024
// sequences over 8 GPUs, 128 micro-batches: 2/3 × 6.361 s ÷ 128 = 33 ms;
// Megatron's overlap-grad-reduce). Compute hours = 121,334.68 / 8 / 3600
// = 4.21301 h → 33.7041 GPU-hours × 2 $/GPU-hour = 67.408 $. Staff 0.25
// FTE × 137,900 $/year ÷ 12 = 2,872.92 $/month, nothing stored. One run a
// month for 12 months: 12 × (2,872.92 + 67.408) = 35,283.94 $.
func TestCloudRunByHand(t *testing.T) {
	r := eval(t, base())
	c := r.Direction(scenario.Cloud)
	steps := 10e9 / 4194304
	comm := math.Max(0, 2e9/450e9*2*7/8-6e19/494.5e12/8/steps*2/3/128)
	hours := (6e19/494.5e12/8 + steps*comm) / 3600
	staff := 0.25 * 137900 / 12
	checks := []struct {
		name      string
		got, want float64
	}{
		{"compute hours", c.ComputeHours, hours},
		{"GPU-hours", c.GPUHoursPerRun, 8 * hours},
		{"variable cost per run", c.VariableCostPerRun, 8 * hours * 2},
		{"monthly fixed", c.MonthlyFixedCost, staff},
		{"cost per run", c.CostPerRun, 8*hours*2 + staff},
		{"horizon", c.CostHorizon, 12 * (staff + 8*hours*2)},
		{"month 3 cumulative", c.CumulativeByMonth[2], 3 * (staff + 8*hours*2)},
	}
	for _, ch := range checks {
		if !near(ch.got, ch.want, 1e-9) {
			t.Errorf("%s = %.6f, want %.6f", ch.name, ch.got, ch.want)
		}
	}
	if !c.Feasible || c.GPUs != 8 || c.GPU != "h100-sxm" {
		t.Errorf("cloud = feasible %v, %d × %s", c.Feasible, c.GPUs, c.GPU)
	}
	if !near(c.VariableCostPerRun, 67.408, 1e-4) {
		t.Errorf("hand figure: variable cost %.4f, want 67.408", c.VariableCostPerRun)
	}
}

// An HPC job split by wall time: Caltech partition (72 h wall time, 4 ×
// A100 per node at 312 TFLOP/s, 600 GB/s NVLink inside a node, 6.25 GB/s
// per GPU between nodes, 10 GB/s file system). 6 × 1e9 × 100e9 = 6e20
// FLOPs at MFU 0.5 on 8 GPUs (two nodes): compute 6e20 / (8 × 156e12) =
// 480,769 s over 23,841.86 steps. Data parallelism alone would all-reduce
// 2e9 bytes of gradients a step over the network (0.56 s); the fastest
// layout is a pipeline of 4 stages inside each node and 2 data-parallel
// copies across them: 1,024 sequences a step → 512 micro-batches per
// pipeline, each sending its 4,096 × 2,048 × 2 bytes of activations
// forward and back over NVLink (NCCL's 3.6 + 0.47 µs each) once for each
// of its 4 chunks of 1 layer (interleaved 1F1B), a bubble of 3/2,051 of
// the pipeline's time, and a quarter of the gradients all-reduced between
// the two copies: 0.5e9 / 6.25e9 × 2·1/2 = 0.08 s, of which the last
// micro-batch's backward pass hides 2/3 × 20.16 s ÷ 512 = 26 ms →
// 134.97 h → 2 jobs of ≤ 72 h, each ending with a checkpoint of 16 GB /
// 10 GB/s = 1.6 s and waiting 10 h at light use. One run a month holds
// 8 × 135.08 GPU-hours of the partition's 64 × 730 = 46,720, its share of
// the fair share of 25 % growing each wait to 10 ÷ (1 − use) h.
func TestHPCWallTimeChunks(t *testing.T) {
	s := base()
	s.Workload.TokensPerRunB = scenario.Known(100)
	s.Options.HPC = scenario.HPCOptions{Partition: "caltech-hpc", GPUs: 8, QueueWaitHours: scenario.Known(10)}
	h := eval(t, s).Direction(scenario.HPC)
	steps := 100e9 / 4194304
	perStep := 6e20 / (8 * 156e12) / steps
	sends := 512 * 2 * 4 * (3.6e-6 + 0.47e-6 + 4096*2048*2/600e9)
	perStep += sends + (perStep+sends)*3/(4*512) + 0.5e9/6.25e9*2*1/2 - perStep*2/3/512
	compute := steps * perStep / 3600
	compute += 2 * 16 / 10.0 / 3600
	use := 8 * compute / (64 * 730) / 0.25
	wait := 10 / (1 - use)
	if !near(h.ComputeHours, compute, 1e-9) || !near(h.TimeToResultHours, compute+2*wait, 1e-9) || !near(compute+2*wait, 157.01, 1e-4) {
		t.Errorf("compute %.4f h, time to result %.4f h; want %.4f and %.4f", h.ComputeHours, h.TimeToResultHours, compute, compute+2*wait)
	}
	if l := h.Layout; l == nil || *l != (Layout{Tensor: 1, Pipeline: 4, Data: 2, MicroBatches: 512, Bubble: 3.0 / 2051}) {
		t.Errorf("layout %+v, want a pipeline of 4 × 2 data-parallel copies, 512 micro-batches, bubble 3/2,051", l)
	}
	if h.Interruptions == nil || h.Interruptions.WallTimeChunks != 2 {
		t.Errorf("interruptions %+v, want 2 wall-time chunks", h.Interruptions)
	}
	// 0.14 $/GPU-hour × 8 GPUs × compute hours.
	if !near(h.VariableCostPerRun, 0.14*8*compute, 1e-9) {
		t.Errorf("variable cost %.2f, want %.2f", h.VariableCostPerRun, 0.14*8*compute)
	}
}

// The seed's constrained case: only hybrid is feasible, and the reasons name
// why managed and plain cloud are excluded.
func TestConstrainedExample(t *testing.T) {
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		t.Fatal(err)
	}
	r := eval(t, s)
	if r.Cheapest != scenario.Hybrid {
		t.Errorf("cheapest feasible = %q, want hybrid", r.Cheapest)
	}
	for _, d := range r.Directions {
		if d.Direction == scenario.Hybrid {
			if !d.Feasible {
				t.Errorf("hybrid infeasible: %v", d.Reasons)
			}
			continue
		}
		if d.Feasible {
			t.Errorf("%s should be infeasible", d.Direction)
		}
	}
	cloud := r.Direction(scenario.Cloud).Reasons
	if !hasReason(cloud, ReasonSourceMustStay, "source records must stay in the controlled environment") {
		t.Errorf("cloud reasons %+v do not name the controlled environment", cloud)
	}
	if len(r.Direction(scenario.Managed).Reasons) == 0 {
		t.Error("managed excluded without a reason")
	}
}

// hasReason reports whether rs holds a reason with the code whose text
// contains want.
func hasReason(rs []Reason, code ReasonCode, want string) bool {
	for _, r := range rs {
		if r.Code == code && strings.Contains(r.Text, want) {
			return true
		}
	}
	return false
}

func TestConstraints(t *testing.T) {
	cases := []struct {
		name, direction string
		code            ReasonCode
		want            string
		edit            func(s *scenario.Scenario)
	}{
		{"nothing may leave", scenario.Cloud, ReasonDataMustStay, "no data may leave", func(s *scenario.Scenario) { s.Data.Movement = scenario.MoveNone }},
		{"residency", scenario.Cloud, ReasonOutsideResidency, "processes data in US; the data must stay in EU", func(s *scenario.Scenario) { s.Data.Residency = "EU" }},
		{"provider may not process", scenario.Managed, ReasonProviderMayNotProcess, "the provider may not receive or keep the data", func(s *scenario.Scenario) {
			s.Workload.Shape, s.Workload.Method = scenario.ShapeFineTuning, "lora"
			s.Data.ProviderAllowed = false
		}},
		{"deadline", scenario.Cloud, ReasonDeadlineMissed, "the deadline is 1.0 h", func(s *scenario.Scenario) { s.Workload.DeadlineHours = scenario.Known(1) }},
		{"budget", scenario.Cloud, ReasonBudgetCapExceeded, "the budget cap is 1,000", func(s *scenario.Scenario) { s.Dimensions.Economics.BudgetCap = scenario.Known(1000) }},
		{"staff", scenario.OnPrem, ReasonStaffShort, "the team has 0.10", func(s *scenario.Scenario) { s.Dimensions.Operations.StaffFTE = scenario.Known(0.1) }},
		// ZeRO-3: 90e9 × 16 B = 1,440 GB of state ÷ n, plus 34·4096·2048·16 B =
		// 4.56 GB of activations and 2 GB overhead, within 0.9 × 80 = 72 GB:
		// data parallel alone 1,440 / n ≤ 65.44 → n ≥ 22.005 → 23; with
		// tensor parallelism of 2 the activations halve (Korthikanti et al.
		// 2022): 1,440 / n ≤ 67.72 → n ≥ 21.26 → 22 = 2 × 11.
		{"does not fit", scenario.Cloud, ReasonTooFewGPUs, "at least 22 × NVIDIA H100 SXM fit it", func(s *scenario.Scenario) {
			s.Workload.Model.ParamsB, s.Workload.Sharding = 90, "zero3"
		}},
		{"always-on service on HPC", scenario.HPC, ReasonHPCNotForServing, "not an always-on service", func(s *scenario.Scenario) {
			s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
				Traffic: &scenario.Traffic{PeakRPS: scenario.Known(2), MeanRPS: scenario.Known(1), TokensIn: scenario.Known(500), TokensOut: scenario.Known(200)}}
		}},
		{"outputs may not return", scenario.Hybrid, ReasonOutputsMayNotReturn, "checkpoints may not come back", func(s *scenario.Scenario) {
			s.Data.Movement, s.Data.SnapshotGB, s.Data.ReturnOutputs = scenario.MoveSnapshot, scenario.Known(10), []string{"evaluation"}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.edit(s)
			r := eval(t, s)
			checkWords(t, tc.name, r)
			d := r.Direction(tc.direction)
			if d.Feasible || !hasReason(d.Reasons, tc.code, tc.want) {
				t.Errorf("%s: feasible %v, reasons %+v; want a reason %s containing %q", tc.direction, d.Feasible, d.Reasons, tc.code, tc.want)
			}
		})
	}
}

// Unknown catalog references come back as field errors, not panics.
func TestUnknownReferences(t *testing.T) {
	s := base()
	s.Options.Cloud.Offer = "nope"
	s.Options.HPC.Partition = "nada"
	_, err := Evaluate(s, cat(t))
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	for _, want := range []string{`options.cloud.offer: "nope" is not in the catalog (allowed: aws-p4de-a100`, `options.hpc.partition: "nada"`} {
		if !strings.Contains(msg, want) {
			t.Errorf("error %q lacks %q", msg, want)
		}
	}
}

// More traffic never needs fewer serving GPUs.
func TestServingGrowsWithTraffic(t *testing.T) {
	prev := 0
	for _, rps := range []float64{1, 4, 16, 64} {
		s := base()
		s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-70b"},
			Traffic: &scenario.Traffic{PeakRPS: scenario.Known(rps), MeanRPS: scenario.Known(rps / 2), TokensIn: scenario.Known(1000),
				TokensOut: scenario.Known(200), LatencyTargetMS: scenario.Known(10000)}}
		c := eval(t, s).Direction(scenario.Cloud)
		if c.GPUs < prev {
			t.Errorf("peak %g requests/s: %d GPUs, fewer than %d at lower traffic", rps, c.GPUs, prev)
		}
		// Weights 70.6e9 × 2 bytes = 141 GB cannot fit one 80 GB GPU.
		if c.GPUs < 2 {
			t.Errorf("70B at 16 bit on %d GPUs", c.GPUs)
		}
		prev = c.GPUs
	}
}

func TestExamplesEvaluate(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.json")
	for _, f := range files {
		s, err := scenario.Load(f)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		r := eval(t, s)
		if len(r.Directions) != 5 || r.CatalogAsOf == "" {
			t.Errorf("%s: %d directions, as_of %q", f, len(r.Directions), r.CatalogAsOf)
		}
		for _, d := range r.Directions {
			if !d.Feasible && len(d.Reasons) == 0 {
				t.Errorf("%s: %s infeasible without a reason", f, d.Direction)
			}
			if len(d.CumulativeByMonth) != r.HorizonMonths {
				t.Errorf("%s: %s has %d months of cumulative cost", f, d.Direction, len(d.CumulativeByMonth))
			}
		}
	}
}

// Property: for random valid scenarios no number is NaN or Inf, times are
// never negative and the horizon cost is the last cumulative month.
func TestRandomScenariosStayFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	c := cat(t)
	presets := c.IDs(catalog.KindModel)
	shapes := scenario.Shapes
	for i := 0; i < 300; i++ {
		s := base()
		s.Options = scenario.Options{}
		s.Workload.Shape = shapes[rng.IntN(len(shapes))]
		s.Workload.Model = scenario.Model{Preset: presets[rng.IntN(len(presets))]}
		s.Workload.Precision = scenario.Precisions[rng.IntN(len(scenario.Precisions))]
		s.Workload.TokensPerRunB = scenario.Known(math.Pow(10, rng.Float64()*6-3))
		s.Workload.RunsPerMonth = scenario.Known(math.Pow(10, rng.Float64()*3-2))
		s.Workload.MFU = scenario.Known(0.05 + rng.Float64()*0.9)
		s.Data.VolumeGB = scenario.Known(rng.Float64() * 1e5)
		s.Data.FileCount = scenario.Known(1 + rng.Float64()*1e7)
		s.Dimensions.Economics.HorizonMonths = 1 + rng.IntN(120)
		if s.Workload.Shape == scenario.ShapeFineTuning {
			s.Workload.Method = scenario.FineTuneMethods[rng.IntN(3)]
		}
		if s.Workload.Shape == scenario.ShapeInteractive {
			peak := math.Pow(10, rng.Float64()*4-2)
			s.Workload.Traffic = &scenario.Traffic{PeakRPS: scenario.Known(peak), MeanRPS: scenario.Known(peak * rng.Float64()),
				TokensIn: scenario.Known(1 + rng.Float64()*8000), TokensOut: scenario.Known(1 + rng.Float64()*2000),
				LatencyTargetMS: scenario.Known(100 + rng.Float64()*30000)}
			if s.Workload.Traffic.MeanRPS.Likely == 0 {
				s.Workload.Traffic.MeanRPS = scenario.Known(peak)
			}
		}
		r, err := Evaluate(s, c)
		if err != nil {
			t.Fatalf("case %d (%s, %s): %v", i, s.Workload.Shape, s.Workload.Model.Preset, err)
		}
		checkWords(t, fmt.Sprintf("case %d", i), r)
		for _, d := range r.Directions {
			if d.TimeToResultHours < 0 || d.CostHorizon < 0 || d.ComputeHours < 0 {
				t.Errorf("case %d %s: negative time or cost %+v", i, d.Direction, d)
			}
			if n := len(d.CumulativeByMonth); n > 0 && !near(d.CumulativeByMonth[n-1], d.CostHorizon, 1e-9) {
				t.Errorf("case %d %s: last month %g ≠ horizon %g", i, d.Direction, d.CumulativeByMonth[n-1], d.CostHorizon)
			}
		}
	}
}

func BenchmarkEvaluateExample(b *testing.B) { benchEvaluate(b, Evaluate) }

// benchEvaluate times evaluate on the constrained example.
func benchEvaluate(b *testing.B, evaluate func(*scenario.Scenario, *catalog.Catalog) (*Report, error)) {
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		b.Fatal(err)
	}
	c := cat(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := evaluate(s, c); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkEvaluateLean is BenchmarkEvaluateExample without the words
// (EvaluateLean, what reprice and the stored outcomes evaluate).
func BenchmarkEvaluateLean(b *testing.B) { benchEvaluate(b, EvaluateLean) }

// A scenario in another currency than the catalog's has its prices
// converted, and says so on every direction that used them, with the rate,
// its date and its source; it no longer warns that nothing is converted.
func TestOtherCurrencyIsConverted(t *testing.T) {
	s := base()
	s.Currency = "EUR"
	r := eval(t, s)
	for _, w := range r.Warnings {
		if w.Code == NoteCatalogCurrency || w.Code == NotePartitionCurrency {
			t.Errorf("warning %+v with a rate in the catalog", w)
		}
	}
	for _, d := range r.Directions {
		if d.PricesAsOf == "" {
			continue // used no catalog price
		}
		text := strings.Join(NoteTexts(d.Notes), "\n")
		if !strings.Contains(text, "catalog prices converted from USD at 0.960523 EUR per USD, the catalog's rate as of 2025-02-28 — ECB euro foreign exchange reference rates of 28 February 2025") {
			t.Errorf("%s: notes %q do not name the rate", d.Direction, text)
		}
	}
	usdPerEUR := 1.0411
	if len(r.ExchangeRates) != 1 || r.ExchangeRates[0] != (ExchangeRate{From: "USD", To: "EUR", Rate: 1 / usdPerEUR, AsOf: "2025-02-28", Source: r.ExchangeRates[0].Source}) {
		t.Errorf("exchange rates %+v", r.ExchangeRates)
	}
}

// A free allocation partition is not picked for a scenario without a grant:
// its zero price would make HPC look free.
func TestHPCDefaultNeedsGrantForAllocation(t *testing.T) {
	s := base()
	h := eval(t, s).Direction(scenario.HPC)
	if h.Offer == "ncsa-delta-a100" || h.VariablePricePerGPUHour == 0 {
		t.Errorf("picked %s at %g per GPU-hour without a grant", h.Offer, h.VariablePricePerGPUHour)
	}
	s.Options.HPC.GrantedGPUHours = scenario.Known(1e6)
	if h := eval(t, s).Direction(scenario.HPC); h.Offer != "ncsa-delta-a100" {
		t.Errorf("with a grant the free partition should win, got %s", h.Offer)
	}
}
