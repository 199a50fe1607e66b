package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"hostplan/internal/model"
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
// (16.06 + 100 × 0.537) GB at 80 % of 3,350 GB/s (decode's share of the
// bandwidth) = 26.0 ms, within 50 ms: 100 / 0.026 ≈ 3,842 tokens/s,
// memory-bound — and decode only, which the answer says.
func TestEstimateServe(t *testing.T) {
	code, out, errs := run(t, tempDB(t), "estimate", "serve", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--precision", "16", "--context", "4096", "--latency-ms", "50", "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var m map[string]any
	json.Unmarshal([]byte(out), &m)
	if m["gpus"].(float64) != 1 || m["batch"].(float64) != 100 || m["memory_bound"] != true || m["tokens_per_second_basis"] != "decode_only" {
		t.Errorf("plan %v", m)
	}
	want := 100 / ((16.06 + 100*2*32*8*128*2*4096/1e9) / (3350 * 0.8))
	if tps := m["tokens_per_second"].(float64); math.Abs(tps-want) > 0.5 {
		t.Errorf("tokens/s %g, want ≈ %.0f", tps, want)
	}
	// 405B at 8 bit needs a power-of-two tensor-parallel degree: 8 GPUs.
	_, out, _ = run(t, tempDB(t), "estimate", "serve", "--model", "llama-3.1-405b", "--gpu", "h100-sxm", "--precision", "8", "--context", "8192", "--latency-ms", "60", "--json")
	json.Unmarshal([]byte(out), &m)
	if m["gpus"].(float64) != 8 {
		t.Errorf("405B replica on %v GPUs, want 8", m["gpus"])
	}
	// The published 4 × H100 FP8 case of a 70B model, asked for by GPUs
	// and batch, end to end: requests/s × tokens out, below decode alone,
	// and the text says which is which.
	args := []string{"estimate", "serve", "--model", "llama-3.1-70b", "--gpu", "h100-sxm", "--precision", "8", "--tokens-in", "128", "--tokens-out", "2048", "--gpus", "4", "--batch", "64"}
	code, out, errs = run(t, tempDB(t), append(args, "--json")...)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	m = map[string]any{}
	json.Unmarshal([]byte(out), &m)
	if m["gpus"].(float64) != 4 || m["batch"].(float64) != 64 || m["tokens_per_second_basis"] != "end_to_end" || m["kv_bits"].(float64) != 8 {
		t.Errorf("plan %v", m)
	}
	e2e, dec, rps := m["tokens_per_second"].(float64), m["decode_tokens_per_second"].(float64), m["requests_per_second"].(float64)
	if !(e2e < dec) || math.Abs(e2e-rps*2048) > 1e-6*e2e {
		t.Errorf("end to end %g, decode %g, requests/s %g", e2e, dec, rps)
	}
	_, text, _ := run(t, tempDB(t), args...)
	for _, w := range []string{"end to end, each request's prefill counted", "Decode alone", "tensor parallel over the GPUs given", "as given"} {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	_, text, _ = run(t, tempDB(t), "estimate", "serve", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--precision", "16", "--context", "4096")
	if !strings.Contains(text, "decode only, at 4,096 tokens of context") {
		t.Errorf("decode-only text does not say so:\n%s", text)
	}
}

// estimate serve --cases answers one JSON object per line, a bad line
// with its error while the others still run, and exits 2 when any was
// bad; each answer equals the single command's.
func TestEstimateServeCases(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "cases.jsonl")
	lines := `# three cases
{"model":"llama-3.1-8b","gpu":"h100-sxm","precision":8,"tokens_in":128,"tokens_out":2048}
{"model":"llama-3.1-70b","gpu":"h100-sxm","precision":"8","tokens_in":"1000","tokens_out":1000,"gpus":4,"batch":64}

{"model":"llama-3.1-70b","gpu":"h100-sxm","precision":8,"tokens_in":1000,"tokens_out":1000,"gpus":3}
{"model":"llama-3.1-8b","speed":"fast"}
`
	if err := os.WriteFile(path, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	db := tempDB(t)
	code, out, _ := run(t, db, "estimate", "serve", "--cases", path)
	if code != ExitUsage {
		t.Errorf("exit %d, want %d with a bad case", code, ExitUsage)
	}
	var got []serveCase
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var c serveCase
		if err := json.Unmarshal([]byte(l), &c); err != nil {
			t.Fatalf("%q: %v", l, err)
		}
		got = append(got, c)
	}
	if len(got) != 4 || got[0].Line != 2 || got[1].Line != 3 || got[2].Line != 5 || got[3].Line != 6 {
		t.Fatalf("answers %+v", got)
	}
	if !strings.Contains(got[2].Error, "cannot split the 64 attention heads") || !strings.Contains(got[3].Error, `unknown key "speed"`) {
		t.Errorf("errors %q, %q", got[2].Error, got[3].Error)
	}
	_, one, _ := run(t, db, "estimate", "serve", "--model", "llama-3.1-70b", "--gpu", "h100-sxm", "--precision", "8", "--tokens-in", "1000", "--tokens-out", "1000", "--gpus", "4", "--batch", "64", "--json")
	var single model.ServeEstimate
	json.Unmarshal([]byte(one), &single)
	if got[1].Estimate == nil || *got[1].Estimate != single {
		t.Errorf("case %+v, single command %+v", got[1].Estimate, single)
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
		{[]string{"train", "--params", "7B", "--tokens", "1T", "--gpu", "b900", "--gpus", "8", "--mfu", "0.4"}, `--gpu "b900" is not in the catalog (allowed: a100-80gb`},
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
