package cli

import (
	"strings"
	"testing"
)

// The table output states a direction's parallel layout under its GPUs
// when the model is split over them: the 7B pre-training runs on 64 H100s
// as a pipeline of 8 inside each node, the 70B service as replicas of 2
// GPUs in tensor parallel; data parallelism alone gets no line.
func TestEvalTableShowsTheLayout(t *testing.T) {
	db := tempDB(t)
	out := storeRun(t, db, "eval", "../../scenarios/foundation-7b-pretraining.json", "--format", "table")
	if !strings.Contains(out, "Cloud IaaS — 64 × h100-sxm, bottleneck: compute, 22.1 GB per GPU, efficient up to 512 GPUs\n  layout: tensor parallel 1 × pipeline 8 × data parallel 8, 128 micro-batches a step, bubble 5 %\n") {
		t.Errorf("no layout line for the cloud in:\n%s", out)
	}
	out = storeRun(t, db, "eval", "../../scenarios/support-assistant-70b.json", "--format", "table")
	if !strings.Contains(out, "  layout: replicas of tensor parallel 2 × pipeline 1 (2 GPUs each), 2 at the peak\n") {
		t.Errorf("no serving layout line in:\n%s", out)
	}
	out = storeRun(t, db, "eval", "../../scenarios/qlora-legal-70b.json", "--format", "table")
	if strings.Contains(out, "layout:") {
		t.Errorf("a data-parallel run has a layout line:\n%s", out)
	}
}
