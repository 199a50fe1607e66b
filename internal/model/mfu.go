package model

import (
	"fmt"
	"math"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// Model FLOPs utilisation (MFU) when the scenario gives none
// (workload.mfu): by the model's size, the GPU's class and the training
// method. Each figure is the utilisation of the GPU's kernels on the FLOPs
// the run executes; the layout's own losses — the pipeline bubble, the
// tensor-parallel all-reduces, the pipeline sends and the data-parallel
// exchange the backward pass does not hide — are counted by the layout
// (layoutStep), not here. Each is derived from published figures: the
// run's FLOPs over GPU-hours × 3,600 × the dense peak, with the losses
// the engine models at the published run's layout taken out, so they
// still hold the restarts and stalls of a real run.
//
// Ampere class (dense BF16 peak below 600 TFLOP/s: A100, L40S, V100),
// Llama 2 on A100-80GB, 2 T tokens (Touvron et al. 2023, Table 2), on
// one node here, where the layout loses under 1 %:
//
//	7 B    184,320 GPU-hours → 39 %
//	70 B 1,720,320 GPU-hours → 43 % (13 B 38 %, 34 B 35 %)
//	≥ 100 B: 56 %, the kernel utilisation at which the engine gives the
//	148 TFLOP/s per GPU (47 % of peak) Narayanan et al. (2021, Table 1)
//	measured for their 145.6 B GPT on 1,536 A100 (TP 8, PP 8, DP 24,
//	batches of 1,536 sequences of 2,048, FLOPs counted with
//	recomputation): 12 % of that step is its tensor-parallel
//	all-reduces and pipeline bubble.
//
// Hopper class (600 TFLOP/s and more: H100, H200, MI300X), whose far
// higher peak is harder to keep busy:
//
//	8 B    30 %: torchtitan measures Llama 3.1 8B on one node of 8 × H100
//	       (FSDP, BF16) at 5,762 tokens/s per GPU, 6,667 with
//	       torch.compile (pytorch/torchtitan docs/performance.md, Table 1;
//	       33–39 % MFU by its own count, which adds attention FLOPs):
//	       6·P·D at 6,215 tokens/s, their middle, is 30 % of 989 TFLOP/s.
//	       (Before model 0.6.0 this was Meta's fleet-level 16 % — the Llama
//	       3 model card's 1.3 M GPU-hours for 15 T tokens, restarts and all.)
//	70 B    6.4 M GPU-hours, 15 T tokens   → 27 % (Llama 3 model card; Llama 3.1 70B: 7.0 M for 15.6 T, 26.5 %)
//	405 B  30.84 M GPU-hours, 15.6 T tokens → 44 %: 6·P·D over those
//	GPU-hours is 34.5 % of peak, and at Meta's layout (TP 8, PP 16, DP
//	128, 16 M-token batches of 8,192-token sequences; Dubey et al. 2024,
//	Table 4) the engine counts 0.70 s of tensor-parallel all-reduces and
//	a bubble of 15/(7·16) in each 7.3 s step, so the kernels ran at 44 %
//	(Meta report 38–43 % per step before restarts).
//
// Between the published sizes the MFU is interpolated linearly in the
// logarithm of the size, and held at the nearest size outside them, so
// that it never steps: a model a little larger never trains faster. (Until
// model 0.6.0 the table stepped at 13 B and 100 B: a 13.0 B model's run was
// cheaper than a 12.9 B one's.) Every slope between points is far below
// 1 in log–log, so the time, ∝ P ÷ MFU, grows with the size.
//
// FP8: a run at FP8 is not twice as fast as at BF16, as the FP8 peak alone
// would make it: torchtitan's Float8 linear layers raise Llama 3.1 8B on 8
// × H100 from 6,667 to 8,532 tokens/s per GPU, 1.28 times (same table).
// The default MFU of an FP8 run is therefore 1.28 × the BF16 MFU on the
// BF16 peak, stated on the FP8 peak.
//
// The 8 B and 70 B figures keep their published runs' own layout losses,
// unknown (Meta publish no layout for them): at one node they are what
// the runs imply.
//
// Methods: LoRA trains no base weights, and Hu et al. (2021, §4.2) report
// a 25 % speed-up over full fine-tuning of GPT-3 175B; against the 4·P·D
// FLOPs counted for it (size.go) instead of 6·P·D that is (4/6) × 1.25 =
// 0.83 of full fine-tuning's MFU. QLoRA dequantizes its 4-bit base weights
// in every pass: its authors find it "roughly on par" with 16-bit LoRA
// (artidoro/qlora issue 107, 2023-06-01), users 1.35 to 5 times slower
// (bitsandbytes issue 667, LLaMA-Factory issue 653); 0.7 of LoRA's.
//
// Inference and non-LLM work keep DefaultMFU.
var mfuTable = [2][]mfuPoint{
	{{6.74, 0.39}, {13, 0.38}, {70, 0.43}, {145.6, 0.56}}, // Ampere class: Llama 2 7B, 13B, 70B; Narayanan et al.'s 145.6 B
	{{8.03, 0.30}, {70, 0.27}, {405, 0.44}},               // Hopper class: torchtitan's Llama 3.1 8B; Llama 3 70B, 405B
}

// mfuPoint is one published size (billion active parameters) and its MFU.
type mfuPoint struct{ paramsB, mfu float64 }

// fp8Gain is the measured speed-up of FP8 over BF16 training (torchtitan,
// Llama 3.1 8B on 8 × H100: 8,532 ÷ 6,667 tokens/s per GPU).
const fp8Gain = 8532.0 / 6667

// Method factors on the full-training MFU (see mfuTable).
const (
	mfuLoRA  = 4.0 / 6 * 1.25
	mfuQLoRA = mfuLoRA * 0.7
	// hopperTFLOPs separates the GPU classes: a dense BF16 peak at or
	// above it is Hopper class.
	hopperTFLOPs = 600
)

// mfuFor is the MFU on GPU g: the scenario's, or the default for the
// model's size, g's class and the method (mfuTable).
func (z *size) mfuFor(g catalog.GPU) float64 {
	if z.mfuSet || !z.training || z.items {
		return z.mfu
	}
	m := defaultTrainingMFU(z.activeB, g, z.method)
	if z.precision == "fp8" {
		m = fp8MFU(m, g)
	}
	return m
}

// defaultTrainingMFU is mfuTable's MFU for training activeB billion
// active parameters on g by method (full, lora, qlora).
func defaultTrainingMFU(activeB float64, g catalog.GPU, method string) float64 {
	class := 0
	if g.BF16TFLOPs >= hopperTFLOPs {
		class = 1
	}
	m := interpolateMFU(mfuTable[class], activeB)
	switch method {
	case "lora":
		m *= mfuLoRA
	case "qlora":
		m *= mfuQLoRA
	}
	return m
}

// interpolateMFU is the MFU at activeB billion parameters along pts
// (ascending sizes): linear in log size between two points, the nearest
// point's outside them.
func interpolateMFU(pts []mfuPoint, activeB float64) float64 {
	if !(activeB > pts[0].paramsB) {
		return pts[0].mfu
	}
	for i := 1; i < len(pts); i++ {
		a, b := pts[i-1], pts[i]
		if activeB <= b.paramsB {
			t := math.Log(activeB/a.paramsB) / math.Log(b.paramsB/a.paramsB)
			return a.mfu + t*(b.mfu-a.mfu)
		}
	}
	return pts[len(pts)-1].mfu
}

// fp8MFU is the default MFU of an FP8 run on g, on g's FP8 peak: the
// BF16 MFU m sped up by the measured fp8Gain, not by the peak's ratio.
func fp8MFU(m float64, g catalog.GPU) float64 {
	if g.FP8TFLOPs > g.BF16TFLOPs && g.BF16TFLOPs > 0 {
		return m * fp8Gain * g.BF16TFLOPs / g.FP8TFLOPs
	}
	return m
}

// DefaultMFUs is the MFU the model assumes for workload w when it gives
// none (workload.mfu), with activeB billion parameters active per token:
// for training and fine-tuning a language model, mfuTable's figures on an
// A100-class GPU (ampere) and an H100-class one (hopper), table true; for
// inference and other work DefaultMFU on every GPU.
func DefaultMFUs(w scenario.Workload, activeB float64) (ampere, hopper float64, table bool) {
	training := w.Shape == scenario.ShapeTraining || w.Shape == scenario.ShapeFineTuning
	if !training || w.Model.GFLOPsPerItem > 0 {
		return DefaultMFU, DefaultMFU, false
	}
	ampere, hopper = hintMFUs(activeB, w.Method, w.Precision)
	return ampere, hopper, true
}

// hintMFUs are the default training MFUs on an A100-class and an
// H100-class GPU at precision: an FP8 run's on the H100's FP8 peak
// (fp8MFU; the A100 has no FP8, so its figure stays on BF16).
func hintMFUs(activeB float64, method, precision string) (ampere, hopper float64) {
	ampere = defaultTrainingMFU(activeB, catalog.GPU{BF16TFLOPs: 0}, method)
	hopper = defaultTrainingMFU(activeB, catalog.GPU{BF16TFLOPs: hopperTFLOPs}, method)
	if precision == "fp8" {
		hopper = fp8MFU(hopper, catalog.GPU{BF16TFLOPs: hopperTFLOPs, FP8TFLOPs: 2 * hopperTFLOPs})
	}
	return ampere, hopper
}

// mfuWords states the MFU assumed when the scenario gives none.
func (z *size) mfuWords() string {
	if !z.training || z.items {
		return fmt.Sprintf("MFU %.0f %% assumed (Narayanan et al. 2021 report 44–52 %% for large dense training); replace it with the utilisation a trial measures", DefaultMFU*100)
	}
	method := "full training"
	switch z.method {
	case "lora":
		method = "LoRA"
	case "qlora":
		method = "QLoRA"
	}
	ampere, hopper := hintMFUs(z.activeB, z.method, z.precision)
	peak := ""
	if z.precision == "fp8" {
		peak = fmt.Sprintf(" (FP8 on H100-class GPUs: %.2f× the BF16 speed, measured by torchtitan, stated on the FP8 peak)", fp8Gain)
	}
	return fmt.Sprintf("MFU assumed by model size, GPU class and method: %.0f %% on A100-class and %.0f %% on H100-class GPUs%s for %.3g B parameters (%s), as published GPU-hours and single-node measurements imply (Llama 2 and 3, torchtitan); replace it with the utilisation a trial measures",
		ampere*100, hopper*100, peak, z.activeB, method)
}
