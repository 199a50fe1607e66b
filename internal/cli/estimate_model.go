package cli

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"hostplan/internal/model"
	"hostplan/internal/present"
)

func init() {
	estimators["train"] = runEstimateTrain
	estimators["serve"] = runEstimateServe
}

// count parses a positive count written plainly (7e10) or with a suffix
// K, M, B or T (70B, 1.4T).
func count(cmd, name, raw string) (float64, error) {
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
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0, usagef("%s: --%s %q is out of range (allowed: a number > 0, optionally with K, M, B or T, e.g. 70B)", cmd, name, raw)
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
	P, err := count(cmd, "params", *params)
	if err != nil {
		return err
	}
	D, err := count(cmd, "tokens", *tokens)
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
	n, err := gpus.value(cmd, "gpus", positive)
	if err != nil {
		return err
	}
	if n != math.Trunc(n) || n > 1e6 {
		return usagef("%s: --gpus %s is out of range (allowed: a whole number from 1 to 1,000,000)", cmd, gpus.raw)
	}
	var X float64
	switch {
	case mfu.set && tflops.set:
		return usagef("%s: give --mfu or --tflops, not both", cmd)
	case tflops.set:
		t, err := tflops.value(cmd, "tflops", positive)
		if err != nil {
			return err
		}
		X = t * 1e12
	case mfu.set:
		f, err := mfu.value(cmd, "mfu", positive)
		if err != nil {
			return err
		}
		if f > 1 {
			return usagef("%s: --mfu %s is out of range (allowed: a number > 0 and ≤ 1)", cmd, mfu.raw)
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
	if c != math.Trunc(c) || c > 1e7 {
		return usagef("%s: --context %s is out of range (allowed: a whole number from 1 to 10,000,000)", cmd, ctx.raw)
	}
	l, err := lat.value(cmd, "latency-ms", positive)
	if err != nil {
		return err
	}
	f, err := mfu.value(cmd, "mfu", positive, 0.4)
	if err != nil {
		return err
	}
	if f > 1 {
		return usagef("%s: --mfu %s is out of range (allowed: a number > 0 and ≤ 1)", cmd, mfu.raw)
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
