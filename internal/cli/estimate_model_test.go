package cli

import (
	"encoding/json"
	"math"
	"sort"
	"strings"
	"testing"

	"hostplan/internal/present/num"
)

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Chinchilla (Hoffmann et al. 2022): 70 B parameters, 1.4 T tokens →
// 6·N·D = 5.88e23 FLOPs; at 156 TFLOP/s (A100 312 × MFU 0.5) that is
// 5.88e23 / 156e12 / 3600 = 1,047,008.5 GPU-hours, 42.60 days on 1,024 GPUs.
// ZeRO-3 on 1,024 GPUs: 16 × 70e9 / 1024 = 1.09375 GB per GPU.
func TestEstimateTrainJSON(t *testing.T) {
	code, out, errs := run(t, tempDB(t), "estimate", "train", "--params", "70B", "--tokens", "1.4T", "--gpu", "a100-80gb", "--gpus", "1024", "--mfu", "0.5", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(out), &m); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(keys(m), ","); got != "days,flops,gpu_hours,model_state_gb_per_gpu" {
		t.Errorf("keys %s", got)
	}
	state := m["model_state_gb_per_gpu"].(map[string]any)
	if got := strings.Join(keys(state), ","); got != "replicated,zero1,zero2,zero3" {
		t.Errorf("state keys %s", got)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{
		{"flops", m["flops"].(float64), 5.88e23},
		{"gpu_hours", m["gpu_hours"].(float64), 5.88e23 / 156e12 / 3600},
		{"days", m["days"].(float64), 5.88e23 / 156e12 / 3600 / 1024 / 24},
		{"zero3", state["zero3"].(float64), 1.09375},
		{"replicated", state["replicated"].(float64), 1120},
	} {
		if math.Abs(c.got-c.want) > 1e-9*c.want {
			t.Errorf("%s = %g, want %g", c.name, c.got, c.want)
		}
	}
	// --tflops is achieved TFLOP/s per GPU; --recompute makes k = 8.
	_, out, _ = run(t, tempDB(t), "estimate", "train", "--params", "7e10", "--tokens", "1.4e12", "--gpu", "a100-80gb", "--gpus", "1024", "--tflops", "156", "--recompute", "--json")
	json.Unmarshal([]byte(out), &m)
	if got := m["flops"].(float64); got != 8*70e9*1.4e12 {
		t.Errorf("recompute flops %g", got)
	}
}

// Llama 3.1 8B at 16 bit on one H100 (80 GB, 3,350 GB/s): weights 16.06 GB;
// KV cache 2·32·8·128·2 B × 4,096 = 0.537 GB per sequence; usable 72 GB −
// 2 GB overhead − 16.06 → 100 sequences; a decode step moves
// (16.06 + 100 × 0.537) GB at 3,350 GB/s = 20.8 ms, within 50 ms:
// 100 / 0.0208 ≈ 4,800 tokens/s, memory-bound.
func TestEstimateServe(t *testing.T) {
	code, out, errs := run(t, tempDB(t), "estimate", "serve", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--precision", "16", "--context", "4096", "--latency-ms", "50", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var m map[string]any
	json.Unmarshal([]byte(out), &m)
	if m["gpus"].(float64) != 1 || m["batch"].(float64) != 100 || m["memory_bound"] != true {
		t.Errorf("plan %v", m)
	}
	if tps := m["tokens_per_second"].(float64); math.Abs(tps-4803) > 5 {
		t.Errorf("tokens/s %g, want ≈ 4,803", tps)
	}
	// 405B at 8 bit needs a power-of-two tensor-parallel degree: 8 GPUs.
	_, out, _ = run(t, tempDB(t), "estimate", "serve", "--model", "llama-3.1-405b", "--gpu", "h100-sxm", "--precision", "8", "--context", "8192", "--latency-ms", "60", "--json")
	json.Unmarshal([]byte(out), &m)
	if m["gpus"].(float64) != 8 {
		t.Errorf("405B replica on %v GPUs, want 8", m["gpus"])
	}
}

func TestEstimateBadValues(t *testing.T) {
	db := tempDB(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--params", "-3", "--tokens", "1T", "--gpu", "h100-sxm", "--gpus", "8", "--mfu", "0.4"}, `--params "-3" is out of range (allowed: a number > 0`},
		{[]string{"train", "--params", "7B", "--tokens", "NaN", "--gpu", "h100-sxm", "--gpus", "8", "--mfu", "0.4"}, `--tokens "NaN" is not a number (allowed: a number > 0 and ≤ 10,000T, written as ` + num.CountSyntax + ")"},
		{[]string{"train", "--params", "7B", "--tokens", "1T", "--gpu", "b200", "--gpus", "8", "--mfu", "0.4"}, `--gpu "b200" is not in the catalog (allowed: a100-80gb`},
		{[]string{"train", "--params", "7B", "--tokens", "1T", "--gpu", "h100-sxm", "--gpus", "0", "--mfu", "0.4"}, "--gpus 0 is out of range (allowed: a whole number from 1 to 1,000,000)"},
		{[]string{"train", "--params", "7B", "--tokens", "1T", "--gpu", "h100-sxm", "--gpus", "2.5", "--mfu", "0.4"}, "--gpus 2.5 is out of range (allowed: a whole number"},
		{[]string{"train", "--params", "7B", "--tokens", "1T", "--gpu", "h100-sxm", "--gpus", "8", "--mfu", "1.5"}, "--mfu 1.5 is out of range (allowed: a number ≥ 0.001 and ≤ 1)"},
		{[]string{"train", "--params", "7B", "--tokens", "1T", "--gpu", "h100-sxm", "--gpus", "8"}, "--mfu or --tflops is required"},
		{[]string{"serve", "--model", "gpt-5", "--gpu", "h100-sxm", "--precision", "16", "--context", "4096", "--latency-ms", "50"}, `--model "gpt-5" is not in the catalog`},
		{[]string{"serve", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--precision", "12", "--context", "4096", "--latency-ms", "50"}, "--precision 12 is not supported (allowed: 16, 8, 4)"},
		{[]string{"serve", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--precision", "16", "--context", "4096", "--latency-ms", "-1"}, "--latency-ms -1 is out of range"},
		{[]string{"serve", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--precision", "16", "--context", "4096", "--latency-ms", "1"}, "above the 1 ms target"},
	} {
		code, _, errs := run(t, db, append([]string{"estimate"}, tc.args...)...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}
