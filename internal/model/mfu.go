package model

import (
	"fmt"

	"hostplan/internal/catalog"
)

// Model FLOPs utilisation (MFU) when the scenario gives none
// (workload.mfu): by the model's size, the GPU's class and the training
// method, each figure implied by published GPU-hours — the FLOPs of the
// run, 6·P·D (Kaplan et al. 2020), over GPU-hours × 3,600 × the dense
// peak — so they include the restarts and stalls of a real run.
//
// Ampere class (dense BF16 peak below 600 TFLOP/s: A100, L40S, V100),
// Llama 2 on A100-80GB, 2 T tokens (Touvron et al. 2023, Table 2):
//
//	7 B    184,320 GPU-hours → 39 %
//	70 B 1,720,320 GPU-hours → 43 % (13 B 38 %, 34 B 35 %)
//	≥ 100 B: 44 %, the low end of the 44–52 % Narayanan et al. (2021,
//	Table 1) report for 145 B–1 T GPT models on A100.
//
// Hopper class (600 TFLOP/s and more: H100, H200, MI300X), whose far
// higher peak is harder to keep busy, Llama 3 on H100-80GB:
//
//	8 B     1.3 M GPU-hours, 15 T tokens   → 16 % (Llama 3 model card, 2024)
//	70 B    6.4 M GPU-hours, 15 T tokens   → 27 % (ibid.; Llama 3.1 70B: 7.0 M for 15.6 T, 26.5 %)
//	405 B  30.84 M GPU-hours, 15.6 T tokens → 35 % (Llama 3.1 model card; Dubey et al. 2024 report 38–43 % per step)
//
// Methods: LoRA trains no base weights, and Hu et al. (2021, §4.2) report
// a 25 % speed-up over full fine-tuning of GPT-3 175B; against the 4·P·D
// FLOPs counted for it (size.go) instead of 6·P·D that is (4/6) × 1.25 =
// 0.83 of full fine-tuning's MFU. QLoRA dequantizes its 4-bit base weights
// in every pass: its authors find it "roughly on par" with 16-bit LoRA
// (artidoro/qlora issue 107, 2023-06-01), users 1.35 to 5 times slower
// (bitsandbytes issue 667, LLaMA-Factory issue 653); 0.7 of LoRA's.
//
// Inference and non-LLM work keep defaultMFU.
var mfuTable = [2][3]float64{
	{0.39, 0.43, 0.44}, // Ampere class: < 13 B, 13–100 B, ≥ 100 B active parameters
	{0.16, 0.27, 0.35}, // Hopper class
}

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
	return defaultTrainingMFU(z.activeB, g, z.method)
}

// defaultTrainingMFU is mfuTable's MFU for training activeB billion
// active parameters on g by method (full, lora, qlora).
func defaultTrainingMFU(activeB float64, g catalog.GPU, method string) float64 {
	class := 0
	if g.BF16TFLOPs >= hopperTFLOPs {
		class = 1
	}
	size := 0
	switch {
	case activeB >= 100:
		size = 2
	case activeB >= 13:
		size = 1
	}
	m := mfuTable[class][size]
	switch method {
	case "lora":
		m *= mfuLoRA
	case "qlora":
		m *= mfuQLoRA
	}
	return m
}

// mfuWords states the MFU assumed when the scenario gives none.
func (z *size) mfuWords() string {
	if !z.training || z.items {
		return fmt.Sprintf("MFU %.0f %% assumed (Narayanan et al. 2021 report 44–52 %% for large dense training); replace it with the utilisation a trial measures", defaultMFU*100)
	}
	method := "full training"
	switch z.method {
	case "lora":
		method = "LoRA"
	case "qlora":
		method = "QLoRA"
	}
	ampere := defaultTrainingMFU(z.activeB, catalog.GPU{BF16TFLOPs: 0}, z.method)
	hopper := defaultTrainingMFU(z.activeB, catalog.GPU{BF16TFLOPs: hopperTFLOPs}, z.method)
	return fmt.Sprintf("MFU assumed by model size, GPU class and method: %.0f %% on A100-class and %.0f %% on H100-class GPUs for %.3g B parameters (%s), as published GPU-hours imply (Llama 2 and Llama 3); replace it with the utilisation a trial measures",
		ampere*100, hopper*100, z.activeB, method)
}
