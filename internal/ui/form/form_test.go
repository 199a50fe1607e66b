package form

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/uitest"
	"hostplan/internal/ui/widgets"
	"hostplan/scenarios"
)

// example is the example scenario name, as the store seeds it.
func example(t testing.TB, name string) *scenario.Scenario {
	t.Helper()
	data, err := fs.ReadFile(scenarios.FS, name+".json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenario.Parse(data)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s
}

// Every field of the scenario file has a control, labelled and explained
// by package present, with its unit.
func TestFormCoversEveryField(t *testing.T) {
	s := example(t, "qlora-legal-70b")
	s.Workload.Traffic = &scenario.Traffic{PeakRPS: scenario.Known(1)}
	s.Workload.Trial = []scenario.TrialPoint{{GPUs: 1, Throughput: 10}}
	s.Data.Lifecycle = []scenario.LifecycleStage{{Stage: "collect", Status: "open"}}
	s.PriceOverrides = []scenario.PriceOverride{{Kind: "gpu"}}
	test.NewTempApp(t)
	f := New(s, true, nil, func(string, bool) {}, func() {})
	for _, in := range present.Inputs(s) {
		if in.Path == "schema_version" {
			continue // written by hostplan, not the user
		}
		p := in.Path
		for f.FieldAt(p) == nil && p != "" {
			p = parentPath(p)
		}
		ff := f.FieldAt(p)
		if ff == nil {
			t.Errorf("%s has no control", in.Path)
			continue
		}
		if p != in.Path {
			if !strings.HasPrefix(in.Path, p+"[") {
				t.Errorf("%s is edited by %s", in.Path, p)
			}
			continue // a cell of a list
		}
		if ff.label.Text == "" || !strings.Contains(uitest.LabelTexts(ff.box), ff.field.Help) {
			t.Errorf("%s: label %q, help shown %v", p, ff.label.Text, strings.Contains(uitest.LabelTexts(ff.box), ff.field.Help))
		}
		if ff.field.Unit != "" && (ff.unit == nil || ff.unit.Text != ff.field.UnitIn("USD")) {
			t.Errorf("%s: unit not shown", p)
		}
	}
}

// Numbers read back as written, grouped or not; anything else, NaN and
// infinities included, is refused.
func TestNumberText(t *testing.T) {
	for _, x := range []float64{0.075, 1, 24, 4096, 12000, 250000, 2e6, -15000.5, 1e-9, 3.5e18} {
		text := formatNumber(x)
		got, err := parseNumber(text)
		if err != nil || got != x {
			t.Errorf("%v written %q reads back %v, %v", x, text, got, err)
		}
	}
	for x, want := range map[float64]string{250000: "250,000", 4096: "4,096", 999: "999", -1500.25: "-1,500.25"} {
		if got := formatNumber(x); got != want {
			t.Errorf("%v written %q, want %q", x, got, want)
		}
	}
	for _, bad := range []string{"", "12o", "NaN", "inf", "1,2.3.4", "--1", "1,2,3", "12,34", "0x10"} {
		if _, err := parseNumber(bad); err == nil {
			t.Errorf("%q read as a number", bad)
		}
	}
	if _, err := parseWhole("1.5"); err == nil {
		t.Error("1.5 read as a whole number")
	}
}

// An empty MFU shows the MFU the model assumes for the scenario at hand:
// the training table's figures for a fine-tuning run, one figure for
// inference.
func TestFormShowsDefaultMFU(t *testing.T) {
	test.NewTempApp(t)
	s := example(t, "qlora-legal-70b")
	s.Workload.MFU = scenario.Value{}
	f := New(s, true, nil, func(string, bool) {}, func() {})
	r := &model.Report{Workload: model.WorkloadSummary{ActiveParamsB: 7}}
	f.ShowDefaults(s, r)
	known := f.FieldAt("workload.mfu").box.Objects[0]
	var holders []string
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch x := o.(type) {
		case *widgets.KeyEntry:
			holders = append(holders, x.PlaceHolder)
		case *fyne.Container:
			for _, c := range x.Objects {
				walk(c)
			}
		}
	}
	walk(known)
	want := present.MFUHint(s.Workload, 7)
	if !strings.Contains(want, "–") || !slices.Contains(holders, want) {
		t.Errorf("placeholders %q, want %q", holders, want)
	}
}
