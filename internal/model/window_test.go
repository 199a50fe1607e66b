package model

import (
	"errors"
	"math"
	"testing"

	"hostplan/internal/scenario"
)

// Gemma 3 27B from the catalog: 52 of its 62 layers attend over a 1,024-
// token window. At 131,072 tokens of context its cache holds 10 layers ×
// 131,072 + 52 × 1,024 tokens' keys and values, 5.96 times less than 62 ×
// 131,072; below the window nothing changes. Prefill pairs: s²/2 a layer
// up to the window, W·s − W²/2 beyond it.
func TestSlidingWindowCache(t *testing.T) {
	s := base()
	s.Workload = scenario.Workload{Shape: scenario.ShapeInteractive, Precision: "bf16", Model: scenario.Model{Preset: "gemma-3-27b"},
		Traffic: &scenario.Traffic{PeakRPS: scenario.Known(1), MeanRPS: scenario.Known(1), TokensIn: scenario.Known(130_000), TokensOut: scenario.Known(1072)}}
	z, err := sizeWorkload(s, cat(t), true, nil)
	if err != nil {
		t.Fatal(err)
	}
	if z.window != 1024 || z.windowLayers != 52 || z.layers != 62 {
		t.Fatalf("gemma-3-27b: window %d on %d of %d layers", z.window, z.windowLayers, z.layers)
	}
	perLayerToken := z.kvPerToken() / 62
	for _, tc := range []struct{ ctx, layerTokens float64 }{
		{512, 62 * 512},
		{1024, 62 * 1024},
		{131_072, 10*131_072 + 52*1024},
	} {
		if got := z.kvBytesAt(tc.ctx); math.Abs(got-perLayerToken*tc.layerTokens) > 1e-6*got {
			t.Errorf("cache at %g tokens: %g bytes, want %g", tc.ctx, got, perLayerToken*tc.layerTokens)
		}
	}
	if r := z.kvPerToken() * 131_072 / z.kvBytesAt(131_072); math.Abs(r-5.957) > 0.01 {
		t.Errorf("the full cache is %.3f times the windowed one at 128k, want 5.96", r)
	}
	if got, want := z.kvPerSeqGB(), z.kvBytesAt(131_072)/1e9; math.Abs(got-want) > 1e-12 {
		t.Errorf("a sequence's cache %g GB, want %g", got, want)
	}
	W := 1024.0
	for _, s := range []float64{100, 1024, 5000, 131_072} {
		windowed := s * s / 2
		if s > W {
			windowed = W*s - W*W/2
		}
		want := 10*s*s/2 + 52*windowed
		if got := z.prefillPairs(s); math.Abs(got-want) > 1e-9*want {
			t.Errorf("prefill pairs at %g tokens: %g, want %g", s, got, want)
		}
	}
	// Without the window the same model keeps every token on every layer.
	full := *z
	full.window, full.windowLayers = 0, 0
	if got, want := full.prefillPairs(5000), 62*5000*5000/2.0; got != want {
		t.Errorf("without a window: %g pairs, want %g", got, want)
	}
	g, _ := cat(t).GPU("h100-sxm")
	if a, b := z.batchFits(g, 8), full.batchFits(g, 8); a <= 2*b {
		t.Errorf("8 × H100 hold a batch of %d with the window, %d without: the window should hold several times more", a, b)
	}
}

// A window goes with the layers it applies to, and no more layers are
// windowed than the model has; no more layers have experts than the model
// has, and only a model with experts has them; each refusal names its
// field. A scenario
// that changes a preset's window is no longer that preset.
func TestSlidingWindowFields(t *testing.T) {
	for _, tc := range []struct {
		m    scenario.Model
		path string
	}{
		{scenario.Model{ParamsB: 8, Layers: 32, HiddenSize: 4096, Heads: 32, KVHeads: 8, HeadDim: 128, SlidingWindow: 4096}, "workload.model.window_layers"},
		{scenario.Model{ParamsB: 8, Layers: 32, HiddenSize: 4096, Heads: 32, KVHeads: 8, HeadDim: 128, WindowLayers: 16}, "workload.model.sliding_window"},
		{scenario.Model{ParamsB: 8, Layers: 32, HiddenSize: 4096, Heads: 32, KVHeads: 8, HeadDim: 128, SlidingWindow: 4096, WindowLayers: 33}, "workload.model.window_layers"},
		{scenario.Model{Preset: "gemma-3-27b", WindowLayers: 63}, "workload.model.window_layers"},
		{scenario.Model{Preset: "deepseek-v3", MoELayers: 62}, "workload.model.moe_layers"},
		{scenario.Model{ParamsB: 8, Layers: 32, HiddenSize: 4096, Heads: 32, KVHeads: 8, HeadDim: 128, MoELayers: 16}, "workload.model.moe_layers"},
	} {
		s := base()
		s.Workload.Model = tc.m
		_, err := Evaluate(s, cat(t))
		var errs scenario.Errors
		if !errors.As(err, &errs) || len(errs) == 0 || errs[0].Path != tc.path || errs[0].Allowed == "" {
			t.Errorf("%+v: %v, want a problem of %s", tc.m, err, tc.path)
		}
	}
	s := base()
	s.Workload.Model = scenario.Model{Preset: "gemma-3-27b", SlidingWindow: 4096}
	z, err := sizeWorkload(s, cat(t), false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if z.preset != "" || z.window != 4096 || z.windowLayers != 52 {
		t.Errorf("a changed window: preset %q, window %d on %d layers; want no preset, 4096 on the preset's 52", z.preset, z.window, z.windowLayers)
	}
}
