package model

import (
	"testing"

	"hostplan/internal/scenario"
)

// TestChangedPresetNamedCustom: a preset whose figures the scenario
// changes (Llama 3.1 8B given 13 B parameters) is named as a custom model
// derived from it, not as the preset; the preset as it is keeps its name.
func TestChangedPresetNamedCustom(t *testing.T) {
	for _, c := range []struct {
		name  string
		model scenario.Model
		want  string
	}{
		{"preset", scenario.Model{Preset: "llama-3.1-8b"}, "Llama 3.1 8B"},
		{"preset, its own figures repeated", scenario.Model{Preset: "llama-3.1-8b", ParamsB: 8.03, Layers: 32}, "Llama 3.1 8B"},
		{"parameters changed", scenario.Model{Preset: "llama-3.1-8b", ParamsB: 13}, "custom 13 B derived from Llama 3.1 8B"},
		{"layers changed", scenario.Model{Preset: "llama-3.1-8b", Layers: 40}, "custom 8.03 B derived from Llama 3.1 8B"},
		{"no preset", scenario.Model{ParamsB: 13, Layers: 40, HiddenSize: 5120}, "custom 13 B"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := base()
			s.Workload.Model = c.model
			if got := eval(t, s).Workload.Model; got != c.want {
				t.Errorf("model named %q, want %q", got, c.want)
			}
		})
	}
}
