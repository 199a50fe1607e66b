package app

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// example parses an example scenario and applies edit to a copy.
func example(t *testing.T, name string, edit func(s *scenario.Scenario)) *scenario.Scenario {
	t.Helper()
	b, err := os.ReadFile("../../scenarios/" + name + ".json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(s)
	}
	return s
}

func lines(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Check refuses what Evaluate refuses, with the same problems, and lets
// through what Evaluate evaluates: the cases the reliability test found
// (validate said valid, eval refused or panicked) and references of every
// kind.
func TestCheckAgreesWithEvaluate(t *testing.T) {
	p := New(tempPath(t)) // no store: the built-in catalog
	ctx := context.Background()
	for _, tc := range []struct {
		name, example string
		edit          func(s *scenario.Scenario)
		want          string // a line of the problems; "" when it evaluates
	}{
		{"example", "foundation-7b-pretraining", nil, ""},
		{"tokens 1e308", "foundation-7b-pretraining", func(s *scenario.Scenario) { s.Workload.TokensPerRunB = scenario.Known(1e308) },
			"workload.tokens_per_run_b: 1e308 is out of range (allowed: a number > 0 and ≤ 10,000,000)"},
		{"epochs 1e308", "foundation-7b-pretraining", func(s *scenario.Scenario) { s.Workload.Epochs = scenario.Known(1e308) },
			"workload.epochs: 1e308 is out of range"},
		{"peak 1e19", "support-assistant-70b", func(s *scenario.Scenario) { s.Workload.Traffic.PeakRPS = scenario.Known(1e19) },
			"workload.traffic.peak_rps: 1e19 is out of range (allowed: a number > 0 and ≤ 10,000,000)"},
		{"MFU 1e-300", "foundation-7b-pretraining", func(s *scenario.Scenario) { s.Workload.MFU = scenario.Known(1e-300) },
			"workload.mfu: 1e-300 is out of range (allowed: a number ≥ 0.001 and ≤ 1)"},
		{"unknown preset", "foundation-7b-pretraining", func(s *scenario.Scenario) { s.Workload.Model.Preset = "gpt-9" },
			`workload.model.preset: "gpt-9" is not in the catalog (allowed: llama-3.1-8b`},
		{"unknown trial GPU", "foundation-7b-pretraining", func(s *scenario.Scenario) {
			s.Workload.Trial, s.Workload.TrialGPU = []scenario.TrialPoint{{GPUs: 1, Throughput: 10}}, "b900"
		}, `workload.trial_gpu: "b900" is not in the catalog`},
		{"unknown managed offer", "support-assistant-70b", func(s *scenario.Scenario) { s.Options.Managed.Offer = "nope" },
			`options.managed.offer: "nope" is not in the catalog`},
		{"unknown node", "foundation-7b-pretraining", func(s *scenario.Scenario) { s.Options.OnPrem.Node = "nope" },
			`options.on_prem.node: "nope" is not in the catalog`},
		{"unknown partition", "foundation-7b-pretraining", func(s *scenario.Scenario) { s.Options.HPC.Partition = "nope" },
			`options.hpc.partition: "nope" is not in the catalog`},
		{"no spot price", "foundation-7b-pretraining", func(s *scenario.Scenario) {
			s.Options.Cloud.Offer, s.Options.Cloud.Pricing = "aws-p5en-h200", "spot"
		}, "options.cloud.pricing: spot has no catalog price for aws-p5en-h200"},
		{"bad price override", "foundation-7b-pretraining", func(s *scenario.Scenario) {
			s.PriceOverrides = []scenario.PriceOverride{{Kind: "model", ID: "mistral-7b", Field: "params_b", Value: "1e308", AsOf: "2026-01-01", Source: "typo"}}
		}, "price_overrides[0]: model mistral-7b: params_b 1e308 is out of range (allowed: a number > 0 and ≤ 100,000)"},
		{"override adds the offer named", "foundation-7b-pretraining", func(s *scenario.Scenario) {
			s.Options.Cloud.Offer = "aws-p5-h100"
			s.PriceOverrides = []scenario.PriceOverride{{Kind: "cloud", ID: "aws-p5-h100", Field: "on_demand", Value: "5.10", AsOf: "2026-01-01", Source: "quote"}}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := example(t, tc.example, tc.edit)
			cerr := p.Check(ctx, s)
			_, eerr := p.Evaluate(ctx, s)
			_, aerr := p.Analyze(ctx, s, 200)
			if lines(cerr) != lines(eerr) || lines(cerr) != lines(aerr) {
				t.Fatalf("Check, Evaluate and Analyze disagree:\n%v\n--\n%v\n--\n%v", cerr, eerr, aerr)
			}
			if tc.want == "" {
				if cerr != nil {
					t.Fatalf("refused: %v", cerr)
				}
				return
			}
			var es scenario.Errors
			if !errors.As(cerr, &es) || !strings.Contains(cerr.Error(), tc.want) {
				t.Fatalf("want scenario.Errors with %q, got %v", tc.want, cerr)
			}
		})
	}
}

// Every catalog reference and every other problem comes back at once.
func TestCheckReportsEveryProblemTogether(t *testing.T) {
	s := example(t, "foundation-7b-pretraining", func(s *scenario.Scenario) {
		s.Workload.Model.Preset = "gpt-9"
		s.Options.Cloud.Offer = "nope"
		s.Options.HPC.Partition = "nope"
		s.Workload.MFU = scenario.Known(2)
	})
	err := New(tempPath(t)).Check(context.Background(), s)
	var es scenario.Errors
	if !errors.As(err, &es) {
		t.Fatalf("%v", err)
	}
	got := map[string]bool{}
	for _, e := range es {
		got[e.Path] = true
	}
	for _, p := range []string{"workload.model.preset", "options.cloud.offer", "options.hpc.partition", "workload.mfu"} {
		if !got[p] {
			t.Errorf("%s not reported: %v", p, err)
		}
	}
}

// Check uses the catalog in use: the store's overrides when there is a
// store, the built-in catalog otherwise; Save refuses what Check refuses.
func TestCheckUsesTheStoresCatalog(t *testing.T) {
	p := openTemp(t)
	row := "cloud,nebius-h100,%s,2026-10-01,Nebius page"
	var rows []string
	for _, f := range []string{"provider,nebius", "name,Nebius H100", "region,eu-north1", "jurisdiction,EU", "provider_home,NL", "gpu,h100-sxm",
		"gpus_per_node,8", "on_demand,2.95", "commit_1y,0", "commit_3y,0", "spot,0", "network_gbs_per_gpu,50",
		"intra_node_gbs,900", "max_gpus,0", "storage_gbs,2"} {
		rows = append(rows, strings.Replace(row, "%s", f, 1))
	}
	if _, err := p.ImportOverrides(overrideRows(t, rows...)); err != nil {
		t.Fatal(err)
	}
	s := example(t, "foundation-7b-pretraining", func(s *scenario.Scenario) { s.Options.Cloud.Offer = "nebius-h100" })
	if err := p.Check(context.Background(), s); err != nil {
		t.Errorf("with the store's overrides: %v", err)
	}
	if _, err := p.Save(s, Lineage{Author: "test"}); err != nil {
		t.Errorf("Save: %v", err)
	}
	err := New(tempPath(t)).Check(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), `options.cloud.offer: "nebius-h100" is not in the catalog`) {
		t.Errorf("without a store: %v", err)
	}
	bad := example(t, "foundation-7b-pretraining", func(s *scenario.Scenario) { s.Options.HPC.Partition = "nope" })
	if _, err := p.Save(bad, Lineage{Author: "test"}); err == nil || err.Error() != lines(p.Check(context.Background(), bad)) {
		t.Errorf("Save of a scenario Check refuses: %v", err)
	}
}

// The finite-number guard names the field that led there when taming one
// number gives a finite report, and is an internal error otherwise.
func TestNonFiniteFigureIsTracedToAField(t *testing.T) {
	def, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	// A catalog no check would let through: staff costing 1.5e308 a year
	// (on-premises needs 0.752 FTE in this example: 1.5e308 × 0.752 ÷ 12
	// × 24 months overflows).
	cat := *def
	cat.Site.StaffCostPerFTE = 1.5e308
	s := example(t, "foundation-7b-pretraining", nil)
	r, err := model.Evaluate(s, &cat)
	var nf *model.NonFiniteError
	if !errors.As(err, &nf) {
		t.Fatalf("the guard did not fire: %v", err)
	}
	_, err = evaluated(s, &cat, r, err)
	var es scenario.Errors
	if !errors.As(err, &es) || len(es) != 1 || !strings.Contains(es[0].Problem, "of On-premises is +Inf, not a number: hostplan's ranges should have prevented this") {
		t.Fatalf("not traced to a field: %v", err)
	}
	// Taming that field gives a finite report.
	fixed := example(t, "foundation-7b-pretraining", nil)
	r2, err := func() (*model.Report, error) {
		b, _ := scenario.Marshal(fixed)
		var doc map[string]any
		_ = json.Unmarshal(b, &doc)
		visitNumbers(doc, "", func(path string, set func(any)) bool {
			if path == es[0].Path {
				rg, _ := scenario.BoundOf(path)
				set(tame(rg))
				return true
			}
			return false
		})
		b, _ = json.Marshal(doc)
		var t2 scenario.Scenario
		_ = json.Unmarshal(b, &t2)
		return model.Evaluate(&t2, &cat)
	}()
	if err != nil || r2 == nil {
		t.Errorf("taming %s: %v", es[0].Path, err)
	}

	// Colocation at 1e308 a kW-month is infinite for any scenario: no
	// field is named, and the failure is an internal error.
	cat3 := *def
	cat3.Site.ColoPerKWMonth = 1e308
	r, err = model.Evaluate(s, &cat3)
	if !errors.As(err, &nf) {
		t.Fatalf("the guard did not fire: %v", err)
	}
	if _, err := evaluated(s, &cat3, r, err); err == nil || !strings.HasPrefix(err.Error(), "internal error: model: ") || errors.As(err, &es) {
		t.Errorf("want an internal error, got %v", err)
	}

	// A catalog whose GPUs run at 1e-300 TFLOP/s (the catalog's ranges
	// refuse it) makes the model panic in its own argument checks; the
	// probe's evaluations turn that into an error.
	cat2 := *def
	cat2.GPUs = append([]catalog.GPU(nil), def.GPUs...)
	for i := range cat2.GPUs {
		cat2.GPUs[i].BF16TFLOPs, cat2.GPUs[i].FP8TFLOPs = 1e-300, 0
	}
	if _, err := safeEvaluate(s, &cat2); err == nil || !strings.HasPrefix(err.Error(), "internal error: ") {
		t.Errorf("want an internal error, got %v", err)
	}
	if !math.IsInf(nf.Value, 0) && !math.IsNaN(nf.Value) {
		t.Errorf("NonFiniteError value %v", nf.Value)
	}
}

// A rate imported into the store's overrides converts the catalog's
// prices for a scenario in euros; a currency no rate reaches is refused by
// Check, naming currency and the currencies allowed.
func TestImportedRateConverts(t *testing.T) {
	p := openTemp(t)
	s := example(t, "nightly-document-batch", func(s *scenario.Scenario) { s.Currency = "EUR" })
	before, err := p.Evaluate(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ImportOverrides(overrideRows(t, "rate,USD,per_eur,1.25,2026-11-30,bank quote")); err != nil {
		t.Fatal(err)
	}
	after, err := p.Evaluate(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if x := after.ExchangeRates; len(x) != 1 || x[0].Rate != 1/1.25 || x[0].AsOf != "2026-11-30" || x[0].Source != "bank quote" {
		t.Errorf("rates after the import: %+v", x)
	}
	// 1.0411 USD per EUR before, 1.25 after.
	b, a := before.Direction(scenario.Cloud).CostHorizon, after.Direction(scenario.Cloud).CostHorizon
	if math.Abs(a-b*1.0411/1.25) > 1e-9*b {
		t.Errorf("cloud over the horizon %v EUR after, %v before: want before × 1.0411 ÷ 1.25", a, b)
	}
	s.Currency = "XTS"
	err = p.Check(context.Background(), s)
	if err == nil || !strings.Contains(err.Error(), "currency: the catalog's prices are in USD and no exchange rate converts them into XTS (allowed: AUD, ") {
		t.Errorf("XTS: %v", err)
	}
	c, err := p.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	if errs := Problems(s, c); len(errs) != 1 || errs[0].Path != "currency" {
		t.Errorf("Problems: %v", errs)
	}
}
