package estimate

import (
	"fmt"
	"math"
	"strings"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// Package estimate is the quick calculators that need no scenario — a
// training run, a serving replica, a checkpoint interval — as "hostplan
// estimate" and the window's Tools menu run them: the inputs as the user
// gave them (text, read by present/num), checked here once for both faces
// against the ranges of the scenario fields they stand for, then the
// model's estimate on the catalog the caller passes (the planner's, with
// its overrides).

// Input is one calculator input as the user gave it: its text, and
// whether it was given at all (a flag left out, a field left empty).
type Input struct {
	Text  string
	Given bool
}

// Given is an input given as text.
func Given(text string) Input { return Input{Text: text, Given: true} }

// Entered is an input typed into a field: given unless the field is
// empty.
func Entered(text string) Input { return Input{Text: text, Given: strings.TrimSpace(text) != ""} }

// BadInput is a calculator input that cannot be used. Field is its key
// ("params", "gpus", "write-minutes", …; "" for a problem of the inputs
// together that the model found); Say words the problem, naming each
// input by name(key): the command line names its flags ("--gpus"), the
// window its fields' labels.
type BadInput struct {
	Field string
	say   func(name func(field string) string) string
}

// Say words the problem with the inputs named by name.
func (e *BadInput) Say(name func(field string) string) string { return e.say(name) }

// Error words the problem naming the inputs by their flags.
func (e *BadInput) Error() string { return e.Say(FlagName) }

// FlagName names an input by its command-line flag: "--gpus".
func FlagName(field string) string { return "--" + field }

func bad(field string, say func(name func(string) string) string) *BadInput {
	return &BadInput{Field: field, say: say}
}

// Range is the allowed range of a number input.
type Range struct {
	min     float64
	minOpen bool   // min itself is excluded
	text    string // as written after "allowed: "
}

var (
	// Positive allows numbers > 0.
	Positive = Range{0, true, "a number > 0"}
	// NonNegative allows numbers ≥ 0.
	NonNegative = Range{0, false, "a number ≥ 0"}
)

// Number reads a number input of field in r. An input not given is an
// error unless a default is passed.
func Number(in Input, field string, r Range, def ...float64) (float64, *BadInput) {
	if !in.Given {
		if len(def) > 0 {
			return def[0], nil
		}
		return 0, bad(field, func(n func(string) string) string {
			return fmt.Sprintf("%s is required (allowed: %s)", n(field), r.text)
		})
	}
	v, err := num.Parse(in.Text)
	if err != nil {
		return 0, notNumber(field, in.Text, r.text, num.Syntax, err)
	}
	if v < r.min || (r.minOpen && v == r.min) {
		return 0, outOfRange(field, in.Text, r.text)
	}
	return v, nil
}

// notNumber is the problem of text num.Parse or num.ParseCount refused:
// what the input allows (allowed), written as syntax says.
func notNumber(field, text, allowed, syntax string, err error) *BadInput {
	if e, ok := err.(*num.Error); ok && e.TooBig {
		return outOfRange(field, text, allowed)
	}
	return bad(field, func(n func(string) string) string {
		return fmt.Sprintf("%s %q is not a number (allowed: %s, written as %s)", n(field), text, allowed, syntax)
	})
}

// outOfRange is the problem of a value outside what is allowed.
func outOfRange(field, text, allowed string) *BadInput {
	return bad(field, func(n func(string) string) string {
		return fmt.Sprintf("%s %s is out of range (allowed: %s)", n(field), text, allowed)
	})
}

// Count reads a count written plainly (7e10) or with a suffix K, M, B or
// T (70B, 1.4T) and checks it against r, the range of the scenario field
// it stands for, in units of scale (the scenario counts parameters and
// tokens in billions).
func Count(in Input, field string, r scenario.Range, scale float64) (float64, *BadInput) {
	within := fmt.Sprintf("a number > %s and ≤ %s", suffixed(r.Min*scale), suffixed(r.Max*scale))
	allowed := within + ", optionally with K, M, B or T, e.g. 70B"
	if !in.Given {
		return 0, bad(field, func(n func(string) string) string {
			return fmt.Sprintf("%s is required (allowed: %s)", n(field), allowed)
		})
	}
	v, err := num.ParseCount(in.Text)
	if err != nil {
		return 0, notNumber(field, in.Text, within, num.CountSyntax, err)
	}
	if !r.Contains(v / scale) {
		return 0, bad(field, func(n func(string) string) string {
			return fmt.Sprintf("%s %q is out of range (allowed: %s)", n(field), in.Text, allowed)
		})
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

// Within reads a number input of field and checks it against r, the range
// of the scenario (or catalog) field it stands for: the calculators take
// no value a scenario could not hold. An input not given is an error
// unless a default is passed.
func Within(in Input, field string, r scenario.Range, def ...float64) (float64, *BadInput) {
	if !in.Given {
		if len(def) > 0 {
			return def[0], nil
		}
		return 0, bad(field, func(n func(string) string) string {
			return fmt.Sprintf("%s is required (allowed: %s)", n(field), r)
		})
	}
	v, err := num.Parse(in.Text)
	if err != nil {
		return 0, notNumber(field, in.Text, r.String(), num.Syntax, err)
	}
	if !r.Contains(v) {
		return 0, outOfRange(field, in.Text, r.String())
	}
	return v, nil
}

// bound is the range of the scenario field at path.
func bound(path string) scenario.Range {
	r, ok := scenario.BoundOf(path)
	if !ok {
		panic("app: no bound for " + path)
	}
	return r
}

// notInCatalog is the problem of an id the catalog lacks.
func notInCatalog(field, id string, ids []string) *BadInput {
	return bad(field, func(n func(string) string) string {
		return fmt.Sprintf("%s %q is not in the catalog (allowed: %s)", n(field), id, strings.Join(ids, ", "))
	})
}

// TrainInput is what the training estimate needs: the model's parameters
// and the training tokens (counts such as 70B and 1.4T), a catalog GPU and
// how many, and the throughput of each as either the model FLOPs
// utilisation of its peak at Precision (bf16 or fp8) or the achieved
// TFLOP/s, not both.
type TrainInput struct {
	Params, Tokens    Input
	GPU               string
	GPUs, MFU, TFLOPs Input
	Precision         string
	Recompute         bool // full activation recomputation
}

// TrainResult is a training estimate with what it was made from.
type TrainResult struct {
	model.TrainEstimate
	GPU      catalog.GPU
	GPUs     int
	Achieved float64 // FLOP/s per GPU
	K        int     // FLOPs per parameter per token: 6, or 8 with recomputation
}

// Train checks in and sizes the run with model.EstimateTrain on cat. A
// bad input is a *BadInput; the first one found is
// returned, in the order of the fields above.
func Train(cat *catalog.Catalog, in TrainInput) (TrainResult, error) {
	P, b := Count(in.Params, "params", bound("workload.model.params_b"), 1e9)
	if b != nil {
		return TrainResult{}, b
	}
	D, b := Count(in.Tokens, "tokens", bound("workload.tokens_per_run_b"), 1e9)
	if b != nil {
		return TrainResult{}, b
	}
	g, ok := cat.GPU(in.GPU)
	if !ok {
		return TrainResult{}, notInCatalog("gpu", in.GPU, cat.IDs(catalog.KindGPU))
	}
	n, b := Within(in.GPUs, "gpus", bound("workload.trial[].gpus"))
	if b != nil {
		return TrainResult{}, b
	}
	var X float64
	switch {
	case in.MFU.Given && in.TFLOPs.Given:
		return TrainResult{}, bad("mfu", func(n func(string) string) string {
			return fmt.Sprintf("give %s or %s, not both", n("mfu"), n("tflops"))
		})
	case in.TFLOPs.Given:
		r, _ := scenario.CatalogBound("gpu", "bf16_tflops")
		t, b := Within(in.TFLOPs, "tflops", r)
		if b != nil {
			return TrainResult{}, b
		}
		X = t * 1e12
	case in.MFU.Given:
		f, b := Within(in.MFU, "mfu", bound("workload.mfu"))
		if b != nil {
			return TrainResult{}, b
		}
		if in.Precision != "bf16" && in.Precision != "fp8" {
			return TrainResult{}, bad("precision", func(n func(string) string) string {
				return fmt.Sprintf("%s %q is not known (allowed: bf16, fp8)", n("precision"), in.Precision)
			})
		}
		X = g.PeakTFLOPs(in.Precision) * 1e12 * f
		if !(X > 0) {
			return TrainResult{}, bad("precision", func(n func(string) string) string {
				return fmt.Sprintf("%s %s has no %s peak in the catalog (allowed: bf16, or give %s)", n("gpu"), g.ID, in.Precision, n("tflops"))
			})
		}
	default:
		return TrainResult{}, bad("mfu", func(n func(string) string) string {
			return fmt.Sprintf("%s or %s is required (allowed: %s 0 < F ≤ 1, or %s > 0)", n("mfu"), n("tflops"), n("mfu"), n("tflops"))
		})
	}
	k := 6
	if in.Recompute {
		k = 8
	}
	return TrainResult{TrainEstimate: model.EstimateTrain(P, D, int(n), X, in.Recompute), GPU: g, GPUs: int(n), Achieved: X, K: k}, nil
}

// ServeInput is what the serving estimate needs: a catalog model and GPU,
// the weights' precision in bits (16, 8 or 4); the tokens in and out per
// request (end to end) or a context of tokens per sequence (decode only);
// optionally the per-token latency target in milliseconds, the GPUs of a
// replica, the batch, the KV cache's bits (16 or 8) and the model FLOPs
// utilisation of the compute roof (0.4 when not given).
type ServeInput struct {
	Model, GPU                    string
	Bits, Context, LatencyMS, MFU Input
	TokensIn, TokensOut           Input
	GPUs, Batch, KVBits           Input
}

// DefaultServeMFU is the serving estimate's utilisation when none is
// given: the model's default for inference.
const DefaultServeMFU = model.DefaultMFU

// ServeResult is a serving estimate with what it was made from.
type ServeResult struct {
	model.ServeEstimate
	Model     catalog.Model
	GPU       catalog.GPU
	Bits      int
	Context   int     // tokens per sequence: the context given, or in + out
	TokensIn  int     // 0 with a context (decode only)
	TokensOut int     // 0 with a context
	LatencyMS float64 // 0: no target
	// BatchGiven and GPUsGiven: the request fixed them.
	BatchGiven, GPUsGiven bool
}

// Serve checks in and sizes one replica with model.EstimateServe on cat.
// A bad input, or inputs the model cannot serve
// (a model too large, a latency no batch meets), is a *BadInput.
func Serve(cat *catalog.Catalog, in ServeInput) (ServeResult, error) {
	m, ok := cat.Model(in.Model)
	if !ok {
		return ServeResult{}, notInCatalog("model", in.Model, cat.IDs(catalog.KindModel))
	}
	g, ok := cat.GPU(in.GPU)
	if !ok {
		return ServeResult{}, notInCatalog("gpu", in.GPU, cat.IDs(catalog.KindGPU))
	}
	bits, b := oneOf(in.Bits, "precision", []int{16, 8, 4}, 0)
	if b != nil {
		return ServeResult{}, b
	}
	kvBits, b := oneOf(in.KVBits, "kv-precision", []int{16, 8}, 0)
	if b != nil {
		return ServeResult{}, b
	}
	tokens := bound("workload.traffic.tokens_in")
	whole := func(in Input, field string) (float64, *BadInput) {
		v, b := Number(in, field, Positive)
		if b == nil && (v != math.Trunc(v) || !tokens.Contains(v)) {
			b = outOfRange(field, in.Text, "a whole number from 1 to "+scenario.Num(tokens.Max))
		}
		return v, b
	}
	var ctx, tin, tout float64
	switch {
	case in.Context.Given && (in.TokensIn.Given || in.TokensOut.Given):
		return ServeResult{}, bad("context", func(n func(string) string) string {
			return fmt.Sprintf("%s or %s with %s, not both (allowed: a context per sequence for decode alone, or the tokens in and out of a request)", n("context"), n("tokens-in"), n("tokens-out"))
		})
	case in.Context.Given:
		if ctx, b = whole(in.Context, "context"); b != nil {
			return ServeResult{}, b
		}
		tin = ctx
	case in.TokensIn.Given || in.TokensOut.Given:
		if tin, b = whole(in.TokensIn, "tokens-in"); b != nil {
			return ServeResult{}, b
		}
		if tout, b = whole(in.TokensOut, "tokens-out"); b != nil {
			return ServeResult{}, b
		}
		ctx = tin + tout
	default:
		return ServeResult{}, bad("context", func(n func(string) string) string {
			return fmt.Sprintf("%s and %s, or %s, are required (allowed: whole numbers of tokens)", n("tokens-in"), n("tokens-out"), n("context"))
		})
	}
	l, b := Within(in.LatencyMS, "latency-ms", bound("workload.traffic.latency_target_ms"), 0)
	if b != nil {
		return ServeResult{}, b
	}
	f, b := Within(in.MFU, "mfu", bound("workload.mfu"), DefaultServeMFU)
	if b != nil {
		return ServeResult{}, b
	}
	gpus, b := wholeIn(in.GPUs, "gpus", 1, 64)
	if b != nil {
		return ServeResult{}, b
	}
	batch, b := wholeIn(in.Batch, "batch", 1, 65_536)
	if b != nil {
		return ServeResult{}, b
	}
	est, err := model.EstimateServe(m, g, model.ServeRequest{Bits: bits, KVBits: kvBits, GPUs: gpus, Batch: batch,
		TokensIn: tin, TokensOut: tout, LatencyMS: l, MFU: f})
	if err != nil {
		return ServeResult{}, bad("", func(func(string) string) string { return err.Error() })
	}
	res := ServeResult{ServeEstimate: est, Model: m, GPU: g, Bits: bits, Context: int(ctx), LatencyMS: l, BatchGiven: batch > 0, GPUsGiven: gpus > 0}
	if tout > 0 {
		res.TokensIn, res.TokensOut = int(tin), int(tout)
	}
	return res, nil
}

// oneOf reads an optional whole-number input that must be one of allowed
// (def when not given).
func oneOf(in Input, field string, allowed []int, def int) (int, *BadInput) {
	if !in.Given {
		return def, nil
	}
	words := make([]string, len(allowed))
	for i, a := range allowed {
		words[i] = fmt.Sprint(a)
	}
	v, b := Number(in, field, Positive)
	if b == nil {
		for _, a := range allowed {
			if v == float64(a) {
				return a, nil
			}
		}
	}
	return 0, bad(field, func(n func(string) string) string {
		return fmt.Sprintf("%s %s is not supported (allowed: %s)", n(field), in.Text, strings.Join(words, ", "))
	})
}

// wholeIn reads an optional whole number from lo to hi (0 when not given).
func wholeIn(in Input, field string, lo, hi int) (int, *BadInput) {
	if !in.Given {
		return 0, nil
	}
	v, b := Number(in, field, Positive)
	if b == nil && (v != math.Trunc(v) || v < float64(lo) || v > float64(hi)) {
		b = outOfRange(field, in.Text, fmt.Sprintf("a whole number from %s to %s", scenario.Num(float64(lo)), scenario.Num(float64(hi))))
	}
	return int(v), b
}

// CheckpointInput is what the checkpoint estimate needs: the minutes to
// write one checkpoint, the mean time between failures or interruptions
// of the whole job in hours, and the minutes to restart (0 when not
// given).
type CheckpointInput struct {
	WriteMinutes, MTBFHours, RestartMinutes Input
}

// CheckpointResult is the checkpoint estimate: Young's and Daly's
// intervals in minutes and the overhead at Daly's interval as a fraction
// of the compute time. Hopeless is set when one checkpoint takes at least
// twice the mean time between failures: checkpointing cannot keep the job
// going.
type CheckpointResult struct {
	YoungMinutes, DalyMinutes, OverheadFraction float64
	Hopeless                                    bool
}

// Checkpoint checks in and computes the intervals with
// model.YoungInterval, model.DalyInterval and model.CheckpointOverhead. A
// bad input, or inputs so extreme that no finite interval results, is a
// *BadInput.
func Checkpoint(in CheckpointInput) (CheckpointResult, error) {
	w, b := Number(in.WriteMinutes, "write-minutes", Positive)
	if b != nil {
		return CheckpointResult{}, b
	}
	m, b := Number(in.MTBFHours, "mtbf-hours", Positive)
	if b != nil {
		return CheckpointResult{}, b
	}
	r, b := Number(in.RestartMinutes, "restart-minutes", NonNegative, 0)
	if b != nil {
		return CheckpointResult{}, b
	}
	delta, rh := w/60, r/60
	young, daly := model.YoungInterval(delta, m), model.DalyInterval(delta, m)
	// Only values far outside any real job (products beyond 1e308, or below
	// the smallest float64) get here.
	if !(young > 0 && daly > 0) || math.IsInf(young*60, 0) || math.IsInf(daly*60, 0) {
		return CheckpointResult{}, bad("write-minutes", func(n func(string) string) string {
			return fmt.Sprintf("%s %s with %s %s gives no finite interval (allowed: numbers > 0 whose product is between 1e-300 and 1e300)",
				n("write-minutes"), in.WriteMinutes.Text, n("mtbf-hours"), in.MTBFHours.Text)
		})
	}
	out := CheckpointResult{
		YoungMinutes:     young * 60,
		DalyMinutes:      daly * 60,
		OverheadFraction: model.CheckpointOverhead(delta, m, daly, rh),
		Hopeless:         delta >= 2*m,
	}
	if math.IsInf(out.OverheadFraction, 0) || math.IsNaN(out.OverheadFraction) {
		return CheckpointResult{}, bad("restart-minutes", func(n func(string) string) string {
			return fmt.Sprintf("%s %s with %s %s gives no finite overhead", n("restart-minutes"), in.RestartMinutes.Text, n("mtbf-hours"), in.MTBFHours.Text)
		})
	}
	return out, nil
}
