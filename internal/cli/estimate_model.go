package cli

import (
	"fmt"
	"text/tabwriter"

	"hostplan/internal/estimate"
	"hostplan/internal/present"
)

func init() {
	estimators["train"] = runEstimateTrain
	estimators["serve"] = runEstimateServe
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
	cat, err := e.plan.Catalog()
	if err != nil {
		return err
	}
	res, err := estimate.Train(cat, estimate.TrainInput{
		Params: estimate.Given(*params), Tokens: estimate.Given(*tokens), GPU: *gpuID,
		GPUs: gpus.input(), MFU: mfu.input(), TFLOPs: tflops.input(),
		Precision: *precision, Recompute: *recompute,
	})
	if err != nil {
		return estimateError(cmd, err)
	}
	est, g, n, X := res.TrainEstimate, res.GPU, res.GPUs, res.Achieved
	if *asJSON {
		return writeJSON(e, est)
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Training compute\t%s FLOPs\t%d·P·D (Kaplan et al. 2020%s)\n", present.Sci(est.FLOPs), res.K, map[bool]string{true: "; +1 forward with recomputation, Narayanan et al. 2021", false: ""}[*recompute])
	fmt.Fprintf(tw, "GPU-hours\t%s\tat %s TFLOP/s achieved per %s\n", present.Whole(est.GPUHours), present.Number(X/1e12), g.ID)
	fmt.Fprintf(tw, "Elapsed\t%s days\ton %s at linear scaling (an estimate: use eval for the scaling curve)\n", present.Fixed(est.Days, 1), present.Count(n, "GPU"))
	for _, sh := range []string{"replicated", "zero1", "zero2", "zero3"} {
		fits := "fits"
		if est.ModelStateGBPerGPU[sh] > g.MemoryGB {
			fits = "does not fit"
		}
		fmt.Fprintf(tw, "Model state per GPU, %s\t%s GB\t%s %s GB before activations\n", sh, present.Fixed(est.ModelStateGBPerGPU[sh], 1), fits, present.Whole(g.MemoryGB))
	}
	return tw.Flush()
}

func runEstimateServe(e *env, args []string) error {
	const cmd = "estimate serve"
	fs := flags(e, cmd)
	modelID := fs.String("model", "", "catalog model id (hostplan catalog models)")
	gpuID := fs.String("gpu", "", "catalog GPU id")
	bits := numVar(fs, "precision", "weight precision in bits: 16, 8 or 4")
	tin := numVar(fs, "tokens-in", "prompt tokens per request (with --tokens-out: end-to-end throughput)")
	tout := numVar(fs, "tokens-out", "output tokens per request")
	ctx := numVar(fs, "context", "tokens per sequence, in place of --tokens-in and --tokens-out: decode-only throughput")
	lat := numVar(fs, "latency-ms", "per-token (decode step) latency target, ms (default: none)")
	gpus := numVar(fs, "gpus", "GPUs per replica, tensor parallel (default: the fewest that hold the weights)")
	batch := numVar(fs, "batch", "sequences decoded together (default: the largest that fits and meets the latency)")
	kv := numVar(fs, "kv-precision", "KV cache bits: 16 or 8 (default: 8 with 8-bit weights, else 16)")
	mfu := numVar(fs, "mfu", "model FLOPs utilisation for the compute roof (default 0.4)")
	cases := fs.String("cases", "", "read one case per line, a JSON object of these flags' names (tokens_in, …), from FILE or - for stdin; print one JSON object per line")
	asJSON := fs.Bool("json", false, "print one JSON object")
	pos, help, err := parseOrHelp(e, fs, cmd+" --model ID --gpu ID --precision BITS (--tokens-in N --tokens-out N | --context TOKENS) [--latency-ms L] [--gpus N] [--batch B] [--kv-precision BITS] [--json] | --cases FILE", args)
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
	if *cases != "" {
		return serveCases(e, cmd, cat, *cases)
	}
	res, err := estimate.Serve(cat, estimate.ServeInput{Model: *modelID, GPU: *gpuID, Bits: bits.input(),
		TokensIn: tin.input(), TokensOut: tout.input(), Context: ctx.input(), LatencyMS: lat.input(),
		GPUs: gpus.input(), Batch: batch.input(), KVBits: kv.input(), MFU: mfu.input()})
	if err != nil {
		return estimateError(cmd, err)
	}
	if *asJSON {
		return writeJSON(e, res.ServeEstimate)
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	for _, r := range estimate.ServeRows(res) {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r[0], r[1], r[2])
	}
	return tw.Flush()
}
