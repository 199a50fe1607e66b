package cli

import (
	"strings"
	"testing"
)

// The table output states a direction's parallel layout under its GPUs
// when the model is split over them: the 70B service as replicas of 2
// GPUs in tensor parallel; data parallelism alone gets no line — the 7B
// pre-training on 64 H100s, whose gradient all-reduce hides behind the
// backward pass, and the QLoRA fine-tune.
func TestEvalTableShowsTheLayout(t *testing.T) {
	db := tempDB(t)
	out := storeRun(t, db, "eval", "../../scenarios/foundation-7b-pretraining.json", "--format", "table")
	if !strings.Contains(out, "Cloud IaaS — 64 × h100-sxm, bottleneck: compute, 22.1 GB per GPU, efficient up to 4096 GPUs\n  data path:") {
		t.Errorf("the data-parallel cloud run has a layout line, or another line, in:\n%s", out)
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
