package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

func init() {
	estimators["train"] = runEstimateTrain
	estimators["serve"] = runEstimateServe
}

// count parses a count written plainly (7e10) or with a suffix K, M, B or
// T (70B, 1.4T) and checks it against r, a range in units of scale (the
// scenario's ranges count parameters and tokens in billions).
func count(cmd, name, raw string, r scenario.Range, scale float64) (float64, error) {
	s := strings.TrimSpace(raw)
	mult := 1.0
	if n := len(s); n > 0 {
		switch strings.ToUpper(s[n-1:]) {
		case "K":
			mult, s = 1e3, s[:n-1]
		case "M":
			mult, s = 1e6, s[:n-1]
		case "B", "G":
			mult, s = 1e9, s[:n-1]
		case "T":
			mult, s = 1e12, s[:n-1]
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	v *= mult
	if err != nil || !r.Contains(v/scale) {
		return 0, usagef("%s: --%s %q is out of range (allowed: a number > %s and ≤ %s, optionally with K, M, B or T, e.g. 70B)", cmd, name, raw, suffixed(r.Min*scale), suffixed(r.Max*scale))
	}
	return v, nil
}

// suffixed writes a count with the largest suffix that keeps it whole:
// 1e14 is 100T.
func suffixed(x float64) string {
	for _, u := range []struct {
		mult float64
		sfx  string
	}{{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "K"}} {
		if x >= u.mult && x/u.mult == math.Trunc(x/u.mult) {
			return scenario.Num(x/u.mult) + u.sfx
		}
	}
	return scenario.Num(x)
}

// bound is the range of the scenario field at path, which a flag of the
// same meaning shares.
func bound(path string) scenario.Range {
	r, ok := scenario.BoundOf(path)
	if !ok {
		panic("cli: no bound for " + path)
	}
	return r
}

// within checks f against the range r of the scenario field it stands
// for, as numFlag.value does with its own ranges.
func (f *numFlag) within(cmd, name string, r scenario.Range, def ...float64) (float64, error) {
	if !f.set {
		if len(def) > 0 {
			return def[0], nil
		}
		return 0, usagef("%s: --%s is required (allowed: %s)", cmd, name, r)
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(f.raw), 64)
	if err != nil {
		return 0, usagef("%s: --%s %q is not a number (allowed: %s)", cmd, name, f.raw, r)
	}
	if !r.Contains(v) {
		return 0, usagef("%s: --%s %s is out of range (allowed: %s)", cmd, name, f.raw, r)
	}
	return v, nil
}

func runEstimateTrain(e *env, args []string) error {
	const cmd = "estimate train"
	fs := flags(e, cmd)
	params := fs.String("params", "", "parameters (e.g. 70B or 7e10)")
	tokens := fs.String("tokens", "", "training tokens (e.g. 1.4T)")
	gpuID := fs.String("gpu", "", "catalog GPU id (hostplan catalog gpus)")
	gpus := numVar(fs, "gpus", "GPU count (a whole number ≥ 1)")
	mfu := numVar(fs, "mfu", "model FLOPs utilisation, 0 < F ≤ 1")
	tflops := numVar(fs, "tflops", "achieved TFLOP/s per GPU (instead of --mfu)")
	recompute := fs.Bool("recompute", false, "full activation recomputation (k = 8)")
	precision := fs.String("precision", "bf16", "bf16 or fp8: which peak --mfu applies to")
	asJSON := fs.Bool("json", false, "print one JSON object: flops, gpu_hours, days, model_state_gb_per_gpu")
	pos, help, err := parseOrHelp(e, fs, cmd+" --params P --tokens D --gpu ID --gpus N (--mfu F | --tflops X) [--recompute] [--json]", args)
	if err != nil || help {
		return err
	}
	if len(pos) > 0 {
		return usagef("%s: unexpected argument %q (it takes flags only)", cmd, pos[0])
	}
	if *params == "" || *tokens == "" {
		return usagef("%s: --params and --tokens are required (allowed: numbers > 0, e.g. --params 70B --tokens 1.4T)", cmd)
	}
	P, err := count(cmd, "params", *params, bound("workload.model.params_b"), 1e9)
	if err != nil {
		return err
	}
	D, err := count(cmd, "tokens", *tokens, bound("workload.tokens_per_run_b"), 1e9)
	if err != nil {
		return err
	}
	cat, err := e.plan.Catalog()
	if err != nil {
		return err
	}
	g, ok := cat.GPU(*gpuID)
	if !ok {
		return usagef("%s: --gpu %q is not in the catalog (allowed: %s)", cmd, *gpuID, strings.Join(cat.IDs("gpus"), ", "))
	}
	n, err := gpus.within(cmd, "gpus", bound("workload.trial[].gpus"))
	if err != nil {
		return err
	}
	var X float64
	switch {
	case mfu.set && tflops.set:
		return usagef("%s: give --mfu or --tflops, not both", cmd)
	case tflops.set:
		r, _ := scenario.CatalogBound("gpu", "bf16_tflops")
		t, err := tflops.within(cmd, "tflops", r)
		if err != nil {
			return err
		}
		X = t * 1e12
	case mfu.set:
		f, err := mfu.within(cmd, "mfu", bound("workload.mfu"))
		if err != nil {
			return err
		}
		if *precision != "bf16" && *precision != "fp8" {
			return usagef("%s: --precision %q is not known (allowed: bf16, fp8)", cmd, *precision)
		}
		X = g.PeakTFLOPs(*precision) * 1e12 * f
	default:
		return usagef("%s: --mfu or --tflops is required (allowed: --mfu 0 < F ≤ 1, or --tflops > 0)", cmd)
	}
	est := model.EstimateTrain(P, D, int(n), X, *recompute)
	if *asJSON {
		return writeJSON(e, est)
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	k := 6
	if *recompute {
		k = 8
	}
	fmt.Fprintf(tw, "Training compute\t%.4g FLOPs\t%d·P·D (Kaplan et al. 2020%s)\n", est.FLOPs, k, map[bool]string{true: "; +1 forward with recomputation, Narayanan et al. 2021", false: ""}[*recompute])
	fmt.Fprintf(tw, "GPU-hours\t%s\tat %.4g TFLOP/s achieved per %s\n", present.Whole(est.GPUHours), X/1e12, g.ID)
	fmt.Fprintf(tw, "Elapsed\t%.1f days\ton %d GPUs at linear scaling (an estimate: use eval for the scaling curve)\n", est.Days, int(n))
	for _, sh := range []string{"replicated", "zero1", "zero2", "zero3"} {
		fits := "fits"
		if est.ModelStateGBPerGPU[sh] > g.MemoryGB {
			fits = "does not fit"
		}
		fmt.Fprintf(tw, "Model state per GPU, %s\t%.1f GB\t%s %.0f GB before activations\n", sh, est.ModelStateGBPerGPU[sh], fits, g.MemoryGB)
	}
	return tw.Flush()
}

func runEstimateServe(e *env, args []string) error {
	const cmd = "estimate serve"
	fs := flags(e, cmd)
	modelID := fs.String("model", "", "catalog model id (hostplan catalog models)")
	gpuID := fs.String("gpu", "", "catalog GPU id")
	bits := numVar(fs, "precision", "weight precision in bits: 16, 8 or 4")
	ctx := numVar(fs, "context", "tokens per sequence (prompt + output)")
	lat := numVar(fs, "latency-ms", "per-token (decode step) latency target, ms")
	mfu := numVar(fs, "mfu", "model FLOPs utilisation for the compute roof (default 0.4)")
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, help, err := parseOrHelp(e, fs, cmd+" --model ID --gpu ID --precision BITS --context TOKENS --latency-ms L [--json]", args)
	if err != nil || help {
		return err
	}
	if len(pos) > 0 {
		return usagef("%s: unexpected argument %q (it takes flags only)", cmd, pos[0])
	}
	cat, err := e.plan.Catalog()
	if err != nil {
		return err
	}
	m, ok := cat.Model(*modelID)
	if !ok {
		return usagef("%s: --model %q is not in the catalog (allowed: %s)", cmd, *modelID, strings.Join(cat.IDs("models"), ", "))
	}
	g, ok := cat.GPU(*gpuID)
	if !ok {
		return usagef("%s: --gpu %q is not in the catalog (allowed: %s)", cmd, *gpuID, strings.Join(cat.IDs("gpus"), ", "))
	}
	b, err := bits.value(cmd, "precision", positive)
	if err != nil {
		return err
	}
	if b != 16 && b != 8 && b != 4 {
		return usagef("%s: --precision %s is not supported (allowed: 16, 8, 4)", cmd, bits.raw)
	}
	c, err := ctx.value(cmd, "context", positive)
	if err != nil {
		return err
	}
	if tokens := bound("workload.traffic.tokens_in"); c != math.Trunc(c) || !tokens.Contains(c) {
		return usagef("%s: --context %s is out of range (allowed: a whole number from 1 to %s)", cmd, ctx.raw, scenario.Num(tokens.Max))
	}
	l, err := lat.within(cmd, "latency-ms", bound("workload.traffic.latency_target_ms"))
	if err != nil {
		return err
	}
	f, err := mfu.within(cmd, "mfu", bound("workload.mfu"), 0.4)
	if err != nil {
		return err
	}
	est, err := model.EstimateServe(m, g, int(b), c, l, f)
	if err != nil {
		return usagef("%s: %v", cmd, err)
	}
	if *asJSON {
		return writeJSON(e, est)
	}
	bound := "compute"
	if est.MemoryBound {
		bound = "memory bandwidth"
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Replica\t%d × %s\t%s at %d bit\n", est.GPUs, g.ID, m.Name, int(b))
	fmt.Fprintf(tw, "Batch\t%d sequences\tlargest whose decode step meets %.0f ms and whose KV cache fits\n", est.Batch, l)
	fmt.Fprintf(tw, "Decode step\t%.1f ms\tlimited by %s\n", est.StepMS, bound)
	fmt.Fprintf(tw, "Throughput\t%.0f tokens/s\t%.0f per GPU\n", est.TokensPerSecond, est.TokensPerSecondPerGPU)
	fmt.Fprintf(tw, "Memory per GPU\t%.1f GB\tweights, KV cache of %d × %d tokens, overhead; of %.0f GB\n", est.MemoryGBPerGPU, est.Batch, int(c), g.MemoryGB)
	return tw.Flush()
}
