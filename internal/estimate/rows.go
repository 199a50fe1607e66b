package estimate

import (
	"fmt"

	"hostplan/internal/model"
	"hostplan/internal/present"
)

// ServeRows are the serving estimate's answer as rows of what, figure and
// why — the command line's table and the window's calculator show them
// alike. The throughput row says whether it counts each request's
// prefill (end to end, as a load test at saturation measures) or the
// decode steps alone.
func ServeRows(r ServeResult) [][3]string {
	if r.GPUs == 0 {
		return nil
	}
	bound := "compute"
	if r.MemoryBound {
		bound = "memory bandwidth"
	}
	batchWhy := "the largest that fits beside the weights"
	switch {
	case r.BatchGiven:
		batchWhy = "as given"
	case r.Batch == model.MaxBatch:
		batchWhy = fmt.Sprintf("the engine's limit (vLLM's default max_num_seqs of %d)", model.MaxBatch)
	case r.LatencyMS > 0:
		batchWhy = fmt.Sprintf("the largest whose decode step meets %s ms and whose KV cache fits", present.Figure(r.LatencyMS))
	}
	replicaWhy := fmt.Sprintf("%s at %d bit, KV cache at %d bit; the fewest GPUs that hold the weights", r.Model.Name, r.Bits, r.KVBits)
	if r.GPUsGiven {
		replicaWhy = fmt.Sprintf("%s at %d bit, KV cache at %d bit; tensor parallel over the GPUs given", r.Model.Name, r.Bits, r.KVBits)
	}
	step := "limited by " + bound
	if !r.MeetsLatency {
		step += fmt.Sprintf(", above the %s ms target", present.Figure(r.LatencyMS))
	}
	rows := [][3]string{
		{"Replica", present.GPUs(r.GPU.ID, r.GPUs), replicaWhy},
		{"Batch", present.Count(r.Batch, "sequence"), batchWhy},
		{"Decode step", present.Figure(r.StepMS) + " ms", step},
	}
	if r.TokensPerSecondBasis == model.BasisEndToEnd {
		rows = append(rows,
			[3]string{"Throughput", present.Whole(r.TokensPerSecond) + " tokens/s", fmt.Sprintf("end to end, each request's prefill counted; %s per GPU", present.Whole(r.TokensPerSecondPerGPU))},
			[3]string{"Decode alone", present.Whole(r.DecodeTokensPerSecond) + " tokens/s", "the decode steps without the prefills"},
			[3]string{"Requests", present.Figure(r.RequestsPerSecond) + " requests/s", fmt.Sprintf("each %s in and %s out, in %s s (prefill %s ms)",
				present.Count(r.TokensIn, "token"), present.Count(r.TokensOut, "token"), present.Figure(r.RequestLatencyMS/1000), present.Figure(r.PrefillMS))},
		)
	} else {
		rows = append(rows, [3]string{"Throughput", present.Whole(r.TokensPerSecond) + " tokens/s",
			fmt.Sprintf("decode only, at %s of context; %s per GPU (give the tokens in and out for end to end)", present.Count(r.Context, "token"), present.Whole(r.TokensPerSecondPerGPU))})
	}
	return append(rows, [3]string{"Memory per GPU", present.Figure(r.MemoryGBPerGPU) + " GB",
		fmt.Sprintf("weights, KV cache of %s × %s tokens and overhead, of %s GB", present.Whole(float64(r.Batch)), present.Whole(float64(r.Context)), present.Whole(r.GPU.MemoryGB))})
}
