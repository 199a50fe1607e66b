package model

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"hostplan/internal/scenario"
)

// A managed batch's elapsed time is estimated on the offer's reference
// hardware from the catalog (8 × H100 in the built-in one): with no split
// given, half the tokens are prefill at 2·P FLOPs and causal attention
// over half the prompt ÷ (dense peak × MFU × prefillMFUShare) and half decode, memory-bound
// (at 80 % of the bandwidth, its FLOPs at 75 % of the MFU, the larger of
// the two): on 2 GPUs in tensor parallel, the fewest
// GPU-seconds a token now that their all-reduces cost time, 230
// sequences of 4,096 tokens (0.537 GB of KV cache each) fit beside the
// 16.06 GB of weights ((2 × 70 − 16.06) ÷ 0.537), and a step reads the
// weights and each sequence's cache at its mean context, (16.06 + 230 ×
// 0.403) GB ÷ (bandwidth × 2), plus two all-reduces per layer of the
// batch's 230 × 4,096 × 2 bytes (NCCL's 3.6 µs + 2 × 0.47 µs and the bytes
// at the GPU's measured bus bandwidth, 450 GB/s for H100 and 200 for
// A100), for 230 tokens; the sum over the GPUs. Changing the reference changes the estimate and the
// note that states it; an unknown GPU is refused.
func TestManagedTimeOnReferenceGPUs(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeBatch, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
		TokensPerRunB: scenario.Known(1), RunsPerMonth: scenario.Known(1), MFU: scenario.Known(0.5)}
	s.Options.Managed.Offer = "together-8b"
	check := func(gpus int, tflops, bandwidth, bus float64, name string) {
		t.Helper()
		r := eval(t, s)
		m := r.Direction(scenario.Managed)
		const pair = 4 * 32 * 128 * 32 // attention FLOPs of one query token against one cached token
		X := tflops * 1e12 * 0.5
		prefill := 1e9 * (2*8.03e9 + pair*2048/2) / (X * prefillMFUShare)                    // causal attention over half the prompt
		allReduce := 64 * (3.6e-6 + 2*0.47e-6 + 230*4096*2/(bus*1e9))                        // a step on 2 GPUs
		mem := (16.06 + 230*131072*(2048+1024)/1e9) / (bandwidth * 2 * decodeBandwidthShare) // KV read at the mean context
		comp := 230 * (2*8.03e9 + pair*(2048+1024)) / (2 * X * decodeMFUShare)
		decode := 1e9 * (math.Max(mem, comp) + allReduce) * 2 / 230
		if want := (prefill + decode) / 2 / float64(gpus) / 3600; !near(m.ComputeHours, want, 1e-12) || m.TimeToResultHours != m.ComputeHours {
			t.Errorf("compute %g h, time %g h; want %g on %d × %s", m.ComputeHours, m.TimeToResultHours, want, gpus, name)
		}
		found := false
		for _, n := range m.Notes {
			if n.Code == NoteManagedTimeEstimated {
				found = true
				if want := "batch time estimated as " + strconv.Itoa(gpus) + " × " + name + " at the scenario's MFU"; !strings.HasPrefix(n.Text, want) {
					t.Errorf("note %q, want it to begin %q", n.Text, want)
				}
			}
		}
		if !found {
			t.Errorf("no %s note in %+v", NoteManagedTimeEstimated, m.Notes)
		}
	}
	check(8, 989, 3350, 450, "NVIDIA H100 SXM")
	s.PriceOverrides = []scenario.PriceOverride{
		{Kind: "managed", ID: "together-8b", Field: "reference_gpu", Value: "a100-80gb", AsOf: "2026-01-01", Source: "an estimate"},
		{Kind: "managed", ID: "together-8b", Field: "reference_gpus", Value: "4", AsOf: "2026-01-01", Source: "an estimate"},
	}
	check(4, 312, 2039, 200, "NVIDIA A100 SXM 80GB")
	s.PriceOverrides[0].Value = "b900"
	if _, err := Evaluate(s, cat(t)); err == nil || !strings.Contains(err.Error(), `managed together-8b: unknown reference_gpu "b900"`) {
		t.Errorf("error %v, want one naming the unknown reference_gpu", err)
	}
}

// Managed batch tokens are priced by the scenario's split between input
// and output tokens (workload.traffic.tokens_in and tokens_out per item):
// 1 B tokens a batch at 3,000 in and 250 out, 0.10 $ per M in and 0.50 $
// per M out, is 1,000 M × (3,000 × 0.10 + 250 × 0.50) ÷ 3,250 = 130.77 $,
// not the mean price's 1,000 × 0.30 = 300 $ it was before (with a note
// that no split was given). Without a split the mean price remains, and
// the note says so.
func TestManagedBatchUsesTokenSplit(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeBatch, Precision: "bf16", Model: scenario.Model{Preset: "llama-3.1-8b"},
		TokensPerRunB: scenario.Known(1), RunsPerMonth: scenario.Known(1), MFU: scenario.Known(0.5),
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(1), MeanRPS: scenario.Known(1), TokensIn: scenario.Known(3000), TokensOut: scenario.Known(250)}}
	s.Options.Managed = scenario.ManagedOptions{Offer: "together-8b", PriceInPerM: scenario.Known(0.10), PriceOutPerM: scenario.Known(0.50)}
	has := func(ns []Note, c NoteCode) bool {
		for _, n := range ns {
			if n.Code == c {
				return true
			}
		}
		return false
	}
	m := eval(t, s).Direction(scenario.Managed)
	if want := 1000 * (3000*0.10 + 250*0.50) / 3250; !near(m.OtherCostPerRun, want, 1e-12) {
		t.Errorf("tokens per batch = %.4f $, want %.4f $ (the split 3,000 in / 250 out)", m.OtherCostPerRun, want)
	}
	if has(m.Notes, NoteTokenSplitAssumed) {
		t.Errorf("note %s with a split given: %v", NoteTokenSplitAssumed, NoteTexts(m.Notes))
	}
	s.Workload.Traffic = nil
	m = eval(t, s).Direction(scenario.Managed)
	if !near(m.OtherCostPerRun, 300, 1e-12) || !has(m.Notes, NoteTokenSplitAssumed) {
		t.Errorf("no split: %.4f $ with notes %v; want 300 $ (the mean price) and a %s note", m.OtherCostPerRun, NoteTexts(m.Notes), NoteTokenSplitAssumed)
	}
}

// An offer priced for one model serves that model only: a DeepSeek-V3
// service takes the cheapest per-token price for DeepSeek-V3 (Bedrock's,
// 0.58 in and 1.68 out a million tokens), a Llama 3.1 70B service never
// takes it, a preset whose figures the scenario changes is no longer the
// model it was priced for, and naming it for another model is refused on
// the field.
func TestManagedOfferForOneModel(t *testing.T) {
	s := diurnal()
	s.Options = scenario.Options{}
	s.Workload.Model = scenario.Model{Preset: "deepseek-v3"}
	m := eval(t, s).Direction(scenario.Managed)
	if m.Offer != "bedrock-deepseek-v3" {
		t.Errorf("DeepSeek-V3: managed offer %q, want bedrock-deepseek-v3", m.Offer)
	}
	s.Workload.Model = scenario.Model{Preset: "llama-3.1-70b"}
	if m := eval(t, s).Direction(scenario.Managed); m.Offer == "bedrock-deepseek-v3" || m.Offer == "together-deepseek-v3" {
		t.Errorf("Llama 3.1 70B took %s, an offer priced for DeepSeek-V3", m.Offer)
	}
	s.Workload.Model = scenario.Model{Preset: "deepseek-v3", Layers: 60}
	if m := eval(t, s).Direction(scenario.Managed); m.Offer == "bedrock-deepseek-v3" || m.Offer == "together-deepseek-v3" {
		t.Errorf("a changed DeepSeek-V3 took %s, an offer priced for the preset", m.Offer)
	}
	s.Workload.Model = scenario.Model{Preset: "llama-3.1-70b"}
	s.Options.Managed.Offer = "bedrock-deepseek-v3"
	_, err := Evaluate(s, cat(t))
	var es scenario.Errors
	if !errors.As(err, &es) || es[0].Path != "options.managed.offer" || !strings.Contains(es[0].Problem, "priced for deepseek-v3 only") {
		t.Errorf("naming DeepSeek-V3's offer for Llama 3.1 70B: %v", err)
	}
}
