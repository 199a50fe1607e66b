package decide

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// modelReasonFormats parses internal/model and returns the format of every
// infeasible reason it can write: the first argument of r.infeasible(…),
// the format of every fmt.Sprintf stored in a field named why (the serving
// plan's reason, passed on as infeasible("%s", p.why)), and the sentence
// prepended to Reasons for a disabled direction (concatenated pieces that
// are not literals become %s).
func modelReasonFormats(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../model/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no model sources: %v", err)
	}
	out := map[string]string{} // format → file:line
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		add := func(e ast.Expr) {
			if s, ok := concat(e); ok && s != "%s" {
				out[s] = fset.Position(e.Pos()).String()
			}
		}
		ast.Inspect(file, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "infeasible" && len(n.Args) > 0 {
					add(n.Args[0])
				}
			case *ast.KeyValueExpr: // servingPlan{why: fmt.Sprintf(…)}
				if id, ok := n.Key.(*ast.Ident); ok && id.Name == "why" {
					add(sprintfFormat(n.Value))
				}
			case *ast.AssignStmt: // x.why = fmt.Sprintf(…); r.Reasons = append([]string{…}, …)
				for i, lhs := range n.Lhs {
					sel, ok := lhs.(*ast.SelectorExpr)
					if !ok || i >= len(n.Rhs) {
						continue
					}
					switch sel.Sel.Name {
					case "why":
						add(sprintfFormat(n.Rhs[i]))
					case "Reasons":
						if call, ok := n.Rhs[i].(*ast.CallExpr); ok && len(call.Args) > 0 {
							if lit, ok := call.Args[0].(*ast.CompositeLit); ok {
								for _, el := range lit.Elts {
									add(el)
								}
							}
						}
					}
				}
			}
			return true
		})
	}
	return out
}

// sprintfFormat returns the format argument of fmt.Sprintf(…), or nil.
func sprintfFormat(e ast.Expr) ast.Expr {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "Sprintf" {
		return call.Args[0]
	}
	return nil
}

// concat turns a string literal, or a + chain of literals and other
// expressions, into a format (non-literals become %s).
func concat(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := concat(e.X)
		b, ok2 := concat(e.Y)
		if !ok1 && !ok2 {
			return "", false
		}
		if !ok1 {
			a = "%s"
		}
		if !ok2 {
			b = "%s"
		}
		return a + b, true
	}
	return "", false
}

var verbRe = regexp.MustCompile(`%[-+# 0]*\d*(\.\d+)?[a-zA-Z%]`)

// fill makes a sentence from a format with plausible values: numbers for
// numeric verbs, a word for %s, a quoted word for %q.
func fill(format string) string {
	return verbRe.ReplaceAllStringFunc(format, func(v string) string {
		switch v[len(v)-1] {
		case '%':
			return "%"
		case 'd':
			return "8"
		case 'f', 'g', 'e':
			return "12.5"
		case 'q':
			return `"checkpoints"`
		}
		return "word"
	})
}

// TestEveryModelReasonIsClassified: every reason format in internal/model
// is in reasonCases with the kind it must get, Classify gives a filled-in
// sentence of it exactly that kind, and the table lists no format the model
// no longer writes. A new reason in the model fails here until it is
// classified.
func TestEveryModelReasonIsClassified(t *testing.T) {
	formats := modelReasonFormats(t)
	if len(formats) < 20 {
		t.Fatalf("found only %d reason formats in internal/model; the parser missed some", len(formats))
	}
	want := map[string]Kind{}
	for _, c := range reasonCases {
		want[c.format] = c.kind
	}
	for f, at := range formats {
		k, listed := want[f]
		if !listed {
			t.Errorf("%s: the model writes a reason this package does not know: %q — add a rule to reasonRules and a case to reasonCases", at, f)
			continue
		}
		got, ok := Classify(fill(f))
		if !ok || got.Kind != k {
			t.Errorf("%s: Classify(%q) = %s (recognised %v), want %s", at, fill(f), got.Kind, ok, k)
		}
		if got.Question == "" {
			t.Errorf("%q has no question", f)
		}
	}
	for f := range want {
		if _, ok := formats[f]; !ok {
			t.Errorf("reasonCases lists %q, which the model no longer writes", f)
		}
	}
}

func TestClassifyUnknown(t *testing.T) {
	c, ok := Classify("the moon is in the wrong phase")
	if ok || c.Kind != KindOther || c.Question == "" {
		t.Errorf("unknown reason: %+v, recognised %v", c, ok)
	}
}

func defaultCatalog(t testing.TB) *catalog.Catalog {
	t.Helper()
	c, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// base is a small valid training scenario every case varies: a 1 B model
// on 10 B tokens once a month, data free to move, a large team, on 8 ×
// H100 in the cloud at 2 per GPU-hour.
func base() *scenario.Scenario {
	return &scenario.Scenario{
		SchemaVersion: 1, ID: "t", Name: "test", Currency: "USD",
		Purpose: scenario.Purpose{Decision: "where to train", SuccessMeasure: "loss", Owner: "Lead"},
		Workload: scenario.Workload{
			Shape: scenario.ShapeTraining, Precision: "bf16",
			Model:         scenario.Model{ParamsB: 1, Layers: 16, HiddenSize: 2048},
			TokensPerRunB: scenario.Known(10), RunsPerMonth: scenario.Known(1),
			MFU: scenario.Known(0.5), Sharding: "replicated",
		},
		Data: scenario.Data{VolumeGB: scenario.Known(10), Classification: "internal", Residency: "any", Movement: scenario.MoveAny,
			ProviderAllowed: true, ReturnOutputs: []string{"checkpoints"}, StorageGBps: scenario.Known(1), RetentionOwner: "Records"},
		Dimensions: scenario.Dimensions{
			Sovereignty:   scenario.Sovereignty{Dimension: scenario.Dimension{Weight: 0.2}},
			WorkloadShape: scenario.ShapeDim{Dimension: scenario.Dimension{Weight: 0.2}},
			Operations:    scenario.Operations{Dimension: scenario.Dimension{Weight: 0.2}, StaffFTE: scenario.Known(2)},
			Economics:     scenario.Economics{Dimension: scenario.Dimension{Weight: 0.2}, HorizonMonths: 12},
			Optionality:   scenario.Optionality{Dimension: scenario.Dimension{Weight: 0.2}},
		},
		Options: scenario.Options{Cloud: scenario.CloudOptions{Offer: "aws-p5-h100", GPUs: 8, PricePerGPUHr: scenario.Known(2)}},
	}
}

// serving turns s into interactive inference of a model preset.
func serving(s *scenario.Scenario, preset string, peak float64) {
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "bf16",
		Model: scenario.Model{Preset: preset},
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(peak), MeanRPS: scenario.Known(peak / 2),
			TokensIn: scenario.Known(500), TokensOut: scenario.Known(200), LatencyTargetMS: scenario.Known(10000)}}
	s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100"}
}

// batch turns s into batch inference of a model preset.
func batch(s *scenario.Scenario, preset string) {
	s.Workload = scenario.Workload{Shape: scenario.ShapeBatch, Precision: "bf16",
		Model: scenario.Model{Preset: preset}, TokensPerRunB: scenario.Known(0.1), RunsPerMonth: scenario.Known(30)}
}

// reasonCase is one reason the model can give: its format (as in the
// model's source), the kind it must be classified as, and a scenario that
// produces it on one direction, with the exact sentence expected (built
// from the scenario's inputs and, for computed figures, the direction's own
// report numbers in the model's format).
type reasonCase struct {
	name      string
	format    string
	kind      Kind
	direction string
	build     func(s *scenario.Scenario)
	want      func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string
}

func lit(s string) func(*scenario.Scenario, *model.Report, *model.DirectionResult) string {
	return func(*scenario.Scenario, *model.Report, *model.DirectionResult) string { return s }
}

const snapshotReason = "the source records must stay in the controlled environment (data.movement is snapshot_only); this direction moves the whole workload out — hybrid sends only the approved snapshot"

var reasonCases = []reasonCase{
	{
		name: "disabled", format: "excluded by the scenario (options.%s.disabled)", kind: KindOther, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Options.Cloud.Disabled = true },
		want:  lit("excluded by the scenario (options.cloud.disabled)"),
	},
	{
		name: "nothing may leave", format: "data.movement is none: no data may leave the controlled environment", kind: KindSovereignty, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Data.Movement = scenario.MoveNone },
		want:  lit("data.movement is none: no data may leave the controlled environment"),
	},
	{
		name: "snapshot only", format: snapshotReason, kind: KindSovereignty, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Data.Movement, s.Data.SnapshotGB = scenario.MoveSnapshot, scenario.Known(2)
		},
		want: lit(snapshotReason),
	},
	{
		name: "residency", format: "processes data in %s; data.residency requires %s", kind: KindSovereignty, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Data.Residency = "EU" },
		want:  lit("processes data in US; data.residency requires EU"),
	},
	{
		name: "no managed pre-training", format: "no managed service in the catalog trains a model from scratch; add one with a catalog override", kind: KindOther, direction: scenario.Managed,
		build: func(s *scenario.Scenario) {},
		want:  lit("no managed service in the catalog trains a model from scratch; add one with a catalog override"),
	},
	{
		name: "no managed offer for the size", format: "no managed %s offer in the catalog serves a %.3g B model in %s", kind: KindFit, direction: scenario.Managed,
		build: func(s *scenario.Scenario) {
			batch(s, "")
			s.Workload.Model = scenario.Model{ParamsB: 500, Layers: 120, HiddenSize: 16384}
		},
		want: lit("no managed inference offer in the catalog serves a 500 B model in any"),
	},
	{
		name: "provider receives a snapshot-only data set", format: "a managed provider would receive the data; data.movement is %s", kind: KindSovereignty, direction: scenario.Managed,
		build: func(s *scenario.Scenario) {
			batch(s, "llama-3.1-8b")
			s.Data.Movement, s.Data.SnapshotGB = scenario.MoveSnapshot, scenario.Known(2)
			s.Data.ReturnOutputs = []string{"predictions"}
		},
		want: lit("a managed provider would receive the data; data.movement is snapshot_only"),
	},
	{
		name: "provider may not process", format: "data.provider_may_process is false: the provider may not receive or keep the data", kind: KindSovereignty, direction: scenario.Managed,
		build: func(s *scenario.Scenario) { batch(s, "llama-3.1-8b"); s.Data.ProviderAllowed = false },
		want:  lit("data.provider_may_process is false: the provider may not receive or keep the data"),
	},
	{
		name: "managed residency", format: "%s processes data in %s; data.residency requires %s", kind: KindSovereignty, direction: scenario.Managed,
		build: func(s *scenario.Scenario) {
			batch(s, "llama-3.1-8b")
			s.Data.Residency = "EU"
			s.Options.Managed.Offer = "together-8b"
			s.Options.Cloud = scenario.CloudOptions{}
		},
		want: lit("Together Llama 3.1 8B processes data in US; data.residency requires EU"),
	},
	{
		name: "tuned weights stay with the provider", format: "%s keeps the tuned weights: checkpoints cannot be returned", kind: KindSovereignty, direction: scenario.Managed,
		build: func(s *scenario.Scenario) {
			s.Workload.Shape, s.Workload.Method = scenario.ShapeFineTuning, "lora"
		},
		want: lit("OpenAI fine-tuning (gpt-4o-mini) as a small-model proxy keeps the tuned weights: checkpoints cannot be returned"),
	},
	{
		name: "no cloud price in the region", format: "no cloud offer in the catalog has a %s price in %s", kind: KindOther, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Data.Residency = "EU"
			s.Options.Cloud = scenario.CloudOptions{Pricing: "spot"}
		},
		want: lit("no cloud offer in the catalog has a spot price in EU"),
	},
	{
		name: "cloud burst target residency", format: "the burst target %s is in %s; data.residency requires %s", kind: KindSovereignty, direction: scenario.Hybrid,
		build: func(s *scenario.Scenario) { s.Data.Residency = "EU" },
		want:  lit("the burst target AWS p5.48xlarge (8×H100) is in US; data.residency requires EU"),
	},
	{
		name: "owned capacity", format: "needs %.0f GPU-hours a month; %d nodes give %.0f", kind: KindFit, direction: scenario.OnPrem,
		build: func(s *scenario.Scenario) {
			s.Options.OnPrem = scenario.OnPremOptions{Node: "dgx-h100", Nodes: 1}
			s.Workload.RunsPerMonth = scenario.Known(400)
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("needs %.0f GPU-hours a month; 1 nodes give %.0f", d.GPUHoursPerRun*400, 8*730.0)
		},
	},
	{
		name: "committed capacity", format: "needs %.0f GPU-hours a month; %d committed GPUs give %.0f", kind: KindFit, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Options.Cloud = scenario.CloudOptions{Offer: "gcp-a3-h100", Pricing: "commit_1y", GPUs: 8}
			s.Workload.RunsPerMonth = scenario.Known(400)
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("needs %.0f GPU-hours a month; 8 committed GPUs give %.0f", d.GPUHoursPerRun*400, 8*730.0)
		},
	},
	{
		name: "HPC does not serve", format: "shared HPC runs bounded batch jobs through a scheduler, not an always-on service", kind: KindOther, direction: scenario.HPC,
		build: func(s *scenario.Scenario) { serving(s, "llama-3.1-8b", 2) },
		want:  lit("shared HPC runs bounded batch jobs through a scheduler, not an always-on service"),
	},
	{
		name: "HPC burst target residency", format: "the burst target %s is in %s; data.residency requires %s", kind: KindSovereignty, direction: scenario.Hybrid,
		build: func(s *scenario.Scenario) {
			s.Data.Residency = "EU"
			s.Options.Hybrid.BurstTo = scenario.HPC
			s.Options.HPC.Partition = "caltech-hpc"
		},
		want: lit("the burst target Caltech HPC is in US; data.residency requires EU"),
	},
	{
		// A 60,000 B model has 960 TB of state: at Kennesaw's 5 GB/s one
		// checkpoint takes 53 h, longer than its 48 h wall time.
		name: "checkpoint longer than wall time", format: "writing one checkpoint (%.1f h) does not fit the %.0f h wall-time limit", kind: KindFit, direction: scenario.HPC,
		build: func(s *scenario.Scenario) {
			s.Workload.Model = scenario.Model{ParamsB: 60000, Layers: 200, HiddenSize: 50000}
			s.Workload.TokensPerRunB = scenario.Known(1)
			s.Options.HPC.Partition = "kennesaw-vhpc"
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("writing one checkpoint (%.1f h) does not fit the 48 h wall-time limit", d.Interruptions.CheckpointMinutes/60)
		},
	},
	{
		name: "grant", format: "needs %.0f GPU-hours a month; the grant is %.0f", kind: KindBudget, direction: scenario.HPC,
		build: func(s *scenario.Scenario) {
			s.Options.HPC.Partition = "caltech-hpc"
			s.Options.HPC.GrantedGPUHours = scenario.Known(1)
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("needs %.0f GPU-hours a month; the grant is 1", d.GPUHoursPerRun*r.Workload.RunsPerMonth)
		},
	},
	{
		name: "not even a snapshot", format: "data.movement is none: not even a snapshot may leave, so there is nothing to burst", kind: KindSovereignty, direction: scenario.Hybrid,
		build: func(s *scenario.Scenario) { s.Data.Movement = scenario.MoveNone },
		want:  lit("data.movement is none: not even a snapshot may leave, so there is nothing to burst"),
	},
	{
		name: "live requests", format: "live requests would carry source data out of the controlled environment", kind: KindSovereignty, direction: scenario.Hybrid,
		build: func(s *scenario.Scenario) {
			serving(s, "llama-3.1-8b", 2)
			s.Data.Movement, s.Data.SnapshotGB = scenario.MoveSnapshot, scenario.Known(2)
		},
		want: lit("live requests would carry source data out of the controlled environment"),
	},
	{
		name: "outputs may not return", format: "the run's %s may not return (data.return_outputs lacks %q)", kind: KindSovereignty, direction: scenario.Hybrid,
		build: func(s *scenario.Scenario) { s.Data.ReturnOutputs = nil },
		want:  lit(`the run's checkpoints may not return (data.return_outputs lacks "checkpoints")`),
	},
	{
		// 512 nodes each reclaimed with 99 % probability a month interrupt
		// the job every 0.3 h; a 70 B model's 1,120 GB of state takes
		// 0.16 h to write at 2 GB/s, so the overhead exceeds the work.
		name: "spot interruptions", format: "on spot capacity the job is interrupted every %.1f h on average: checkpoints, lost work and restarts would take longer than the work", kind: KindOther, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Workload.Model = scenario.Model{Preset: "llama-3.1-70b"}
			s.Workload.Sharding = "zero3"
			s.Options.Cloud = scenario.CloudOptions{Offer: "aws-p5-h100", Pricing: "spot", GPUs: 4096, SpotInterruptions: scenario.Known(0.99)}
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("on spot capacity the job is interrupted every %.1f h on average: checkpoints, lost work and restarts would take longer than the work", d.Interruptions.MTBIHours)
		},
	},
	{
		name: "weights do not fit", format: "the %.0f GB of weights do not fit 64 × %s", kind: KindFit, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			serving(s, "", 2)
			s.Workload.Model = scenario.Model{ParamsB: 5000, Layers: 200, HiddenSize: 40000, KVHeads: 8, HeadDim: 128}
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("the %.0f GB of weights do not fit 64 × h100-sxm", r.Workload.WeightsGB)
		},
	},
	{
		name: "latency target", format: "no batch on up to 64 × %s meets the %.0f ms latency target", kind: KindDeadline, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			serving(s, "llama-3.1-8b", 2)
			s.Workload.Traffic.LatencyTargetMS = scenario.Known(1)
		},
		want: lit("no batch on up to 64 × h100-sxm meets the 1 ms latency target"),
	},
	{
		name: "replicas beyond the nodes", format: "needs %d GPUs (%d replicas × %d) at the peak of %.3g requests/s; at most %d are available", kind: KindFit, direction: scenario.OnPrem,
		build: func(s *scenario.Scenario) {
			serving(s, "llama-3.1-8b", 2000)
			s.Options.OnPrem = scenario.OnPremOptions{Node: "dgx-h100", Nodes: 1}
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			sv := d.Serving
			return fmt.Sprintf("needs %d GPUs (%d replicas × %d) at the peak of 2e+03 requests/s; at most 8 are available", d.GPUs, sv.ReplicasPeak, sv.GPUsPerReplica)
		},
	},
	{
		// 100 B parameters replicated need 1,600 GB of model state per GPU
		// (16 bytes each): no count of one node's 8 GPUs holds it.
		name: "does not fit the node", format: "the run needs %.0f GB per GPU even on %d × %s (%.0f GB each, %.0f %% usable; sharding %s)", kind: KindFit, direction: scenario.OnPrem,
		build: func(s *scenario.Scenario) {
			s.Workload.Model = scenario.Model{ParamsB: 100, Layers: 80, HiddenSize: 10240}
			s.Options.OnPrem = scenario.OnPremOptions{Node: "dgx-h100", Nodes: 1}
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("the run needs %.0f GB per GPU even on 8 × h100-sxm (80 GB each, 90 %% usable; sharding replicated)", d.MemoryPerGPUGB)
		},
	},
	{
		// 5 B parameters under ZeRO-3 need 16 × 5 = 80 GB of model state
		// on one GPU, more than an H100's usable 72 GB; two hold it.
		name: "too few GPUs chosen", format: "%d GPUs were chosen but the run needs %.0f GB per GPU there; at least %d × %s fit it", kind: KindFit, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) {
			s.Workload.Model = scenario.Model{ParamsB: 5, Layers: 32, HiddenSize: 4096}
			s.Workload.Sharding = "zero3"
			s.Options.Cloud.GPUs = 1
		},
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			need := 0
			for _, p := range d.Scaling {
				if p.Fits {
					need = p.GPUs
					break
				}
			}
			return fmt.Sprintf("1 GPUs were chosen but the run needs %.0f GB per GPU there; at least %d × h100-sxm fit it", d.MemoryPerGPUGB, need)
		},
	},
	{
		name: "more GPUs than the partition", format: "%d GPUs were chosen; at most %d are available", kind: KindFit, direction: scenario.HPC,
		build: func(s *scenario.Scenario) { s.Options.HPC = scenario.HPCOptions{Partition: "caltech-hpc", GPUs: 128} },
		want:  lit("128 GPUs were chosen; at most 64 are available"),
	},
	{
		name: "deadline", format: "a run takes %.1f h; the deadline is %.1f h", kind: KindDeadline, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Workload.DeadlineHours = scenario.Known(1) },
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("a run takes %.1f h; the deadline is 1.0 h", d.TimeToResultHours)
		},
	},
	{
		name: "staff", format: "needs %.2f FTE of operations (%s); the team has %.2f", kind: KindOperations, direction: scenario.OnPrem,
		build: func(s *scenario.Scenario) { s.Dimensions.Operations.StaffFTE = scenario.Known(0.5) },
		want:  lit("needs 1.00 FTE of operations (on-premises hardware, facilities and cluster); the team has 0.50"),
	},
	{
		name: "skills", format: "needs the %s skill; the team lists %s", kind: KindOperations, direction: scenario.HPC,
		build: func(s *scenario.Scenario) { s.Dimensions.Operations.Skills = []string{"cloud", "mlops"} },
		want:  lit("needs the hpc_scheduler skill; the team lists cloud, mlops"),
	},
	{
		name: "budget cap", format: "costs %s %s over %d months; the budget cap is %s", kind: KindBudget, direction: scenario.Cloud,
		build: func(s *scenario.Scenario) { s.Dimensions.Economics.BudgetCap = scenario.Known(1000) },
		want: func(s *scenario.Scenario, r *model.Report, d *model.DirectionResult) string {
			return fmt.Sprintf("costs %s USD over 12 months; the budget cap is 1,000", model.Grouped(d.CostHorizon))
		},
	},
}

// TestConstraintScenarios builds one scenario per reason, evaluates it with
// the default catalog, and checks that the direction carries exactly the
// expected sentence and that the decision classifies it as the case says.
func TestConstraintScenarios(t *testing.T) {
	cat := defaultCatalog(t)
	for _, tc := range reasonCases {
		t.Run(tc.name, func(t *testing.T) {
			s := base()
			tc.build(s)
			r, err := model.Evaluate(s, cat)
			if err != nil {
				t.Fatalf("Evaluate: %v", err)
			}
			d := r.Direction(tc.direction)
			want := tc.want(s, r, d)
			if d.Feasible || !slices.Contains(d.Reasons, want) {
				t.Fatalf("%s: feasible %v, reasons %q\nwant the reason %q", tc.direction, d.Feasible, d.Reasons, want)
			}
			dec, err := Decide(s, r)
			if err != nil {
				t.Fatalf("Decide: %v", err)
			}
			dd := dec.For(tc.direction)
			if dd.Feasible || dd.Rank != 0 || len(dd.Scores) != 0 {
				t.Errorf("%s is infeasible but ranked %d with %d scores", tc.direction, dd.Rank, len(dd.Scores))
			}
			found := false
			for _, c := range dd.Constraints {
				if _, ok := Classify(c.Reason); !ok {
					t.Errorf("unrecognised reason %q", c.Reason)
				}
				if c.Reason == want {
					found = true
					if c.Kind != tc.kind {
						t.Errorf("%q classified %s, want %s", want, c.Kind, tc.kind)
					}
				}
			}
			if !found {
				t.Errorf("the decision does not carry %q", want)
			}
			if dd.Question != dd.Constraints[0].Question || dd.Question == "" {
				t.Errorf("first question %q, want the first constraint's %q", dd.Question, dd.Constraints[0].Question)
			}
			if slices.Contains(dec.Ranking, tc.direction) {
				t.Errorf("ranking %v includes the infeasible %s", dec.Ranking, tc.direction)
			}
		})
	}
}
