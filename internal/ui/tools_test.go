package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"

	"hostplan/internal/catalog"
	"hostplan/internal/ui/uitest"
	"hostplan/internal/ui/widgets"
)

// overlayEntries are the dialog's text fields in order.
func overlayEntries(w fyne.Window) []*escEntry {
	var out []*escEntry
	uitest.Find(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool {
		if e, ok := o.(*escEntry); ok {
			out = append(out, e)
		}
		return false
	})
	return out
}

// The catalog window lists the catalog in use with each entry's date and
// source, marks the entries the store's overrides changed, and lists the
// override rows with their dates.
func TestCatalogWindow(t *testing.T) {
	pl := openPlanner(t, "qlora-legal-70b")
	rows, err := catalog.ParseOverridesCSV(strings.NewReader(catalog.OverridesHeader + "\ncloud,aws-p5-h100,on_demand,3.10,2026-10-01,price list seen in October\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pl.ImportOverrides(rows); err != nil {
		t.Fatal(err)
	}
	w, _ := openWindow(t, NewBackend(pl))
	menuAction(t, w, "Tools", "Catalog and overrides…")()
	tabs := overlayOf[*container.AppTabs](w)
	if tabs == nil || len(tabs.Items) != 2 || tabs.Items[1].Text != "Your overrides (1)" {
		t.Fatalf("tabs %v", tabs)
	}
	if !strings.Contains(overlayLabels(w), "1 changed by your overrides") {
		t.Errorf("summary: %s", overlayLabels(w))
	}
	pick := overlayOf[*widgets.KeySelect](w)
	pick.SetSelected("Cloud offers")
	cat, _ := pl.Catalog()
	header, body, bold := catalogTable(cat, "cloud")
	col := func(name string) int {
		for i, h := range header {
			if h == name {
				return i
			}
		}
		t.Fatalf("no column %q in %v", name, header)
		return -1
	}
	found := false
	for i, r := range body {
		if r[0] != "aws-p5-h100" {
			if r[col("Override")] != "" || bold[i] {
				t.Errorf("%s is marked overridden", r[0])
			}
			continue
		}
		found = true
		if r[col("on_demand")] != "3.1" || r[col("As of")] != "2026-10-01" || r[col("Source")] != "price list seen in October" || r[col("Override")] != "override" || !bold[i] {
			t.Errorf("overridden row %q", r)
		}
	}
	if !found {
		t.Error("no row for aws-p5-h100")
	}
}

// The training calculator answers at once from its starting values, and
// a bad input is named by its label beneath its field.
func TestTrainingCalculator(t *testing.T) {
	w, _ := openWindow(t, NewBackend(openPlanner(t, "qlora-legal-70b")))
	menuAction(t, w, "Tools", "Training estimate…")()
	text := overlayLabels(w)
	for _, want := range []string{"Training compute", "5.88e23 FLOPs", "GPU-hours", "Elapsed", "Model state per GPU, ZeRO stage 3"} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, text)
		}
	}
	es := overlayEntries(w)
	gpus := es[2] // parameters, tokens, GPUs, …
	gpus.SetText("1.5")
	text = overlayLabels(w)
	if !strings.Contains(text, "GPUs 1.5 is out of range (allowed: a whole number from 1 to 1,000,000)") {
		t.Errorf("no problem beneath GPUs:\n%s", text)
	}
	if strings.Contains(text, "GPU-hours") {
		t.Error("an answer shows for a bad input")
	}
	gpus.SetText("1024")
	if !strings.Contains(overlayLabels(w), "on 1,024 GPUs at linear scaling") { // grouped, as every number
		t.Errorf("the answer does not follow the GPUs:\n%s", overlayLabels(w))
	}
}

// The checkpoint calculator gives Young's and Daly's intervals, as
// "hostplan estimate checkpoint" does.
func TestCheckpointCalculator(t *testing.T) {
	w, _ := openWindow(t, newFakeBackend())
	menuAction(t, w, "Tools", "Checkpoint interval…")()
	es := overlayEntries(w)
	es[2].SetText("")
	text := overlayLabels(w)
	for _, want := range []string{"Young interval", "170 min", "Daly interval", "163 min", "11.8 %"} {
		if !strings.Contains(text, want) {
			t.Errorf("the answer lacks %q:\n%s", want, text)
		}
	}
	es[1].SetText("ten")
	if !strings.Contains(overlayLabels(w), `Mean time between failures (hours) "ten" is not a number`) {
		t.Errorf("no problem for the MTBF:\n%s", overlayLabels(w))
	}
}

// The scaling-law fit refits the trial points as they are typed.
func TestUSLFit(t *testing.T) {
	w, _ := openWindow(t, newFakeBackend())
	menuAction(t, w, "Tools", "Scaling-law fit of trial points…")()
	text := overlayLabels(w)
	for _, want := range []string{"σ\n0.02", "κ\n0.02", "N_max", "7 GPUs"} {
		if !strings.Contains(text, want) {
			t.Errorf("the fit lacks %q:\n%s", want, text)
		}
	}
	e := overlayOf[*widgets.KeyEntry](w)
	e.SetText("gpus,throughput\n1,1\n2,-2\n")
	if text := overlayLabels(w); !strings.Contains(text, "line 3") || strings.Contains(text, "N_max") {
		t.Errorf("a bad point:\n%s", text)
	}
}
