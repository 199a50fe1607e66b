package ui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"hostplan/internal/ui/uitest"
)

// newScalingBackend is newFakeBackend with the performance figures of
// uitest.AddScaling: scaling curves, checkpoint plans and a serving plan.
func newScalingBackend() *fakeBackend {
	b := newFakeBackend()
	uitest.AddScaling(b.reports["ft-7b"], b.reports["chat"])
	return b
}

// openScalingTab chooses scenario i, waits for its report and opens the
// Scaling tab.
func openScalingTab(t *testing.T, p *planner, i int) *report.Scaling {
	t.Helper()
	p.scenarios.list.Select(i)
	waitFor(t, p.view, stateReady)
	selectTab(t, p.view.tabs, "Scaling")
	return p.view.scaling
}

// selectTab selects the tab titled title.
func selectTab(t *testing.T, tabs *container.AppTabs, title string) {
	t.Helper()
	for _, item := range tabs.Items {
		if item.Text == title {
			tabs.Select(item)
			return
		}
	}
	t.Fatalf("no tab %q", title)
}

func TestScalingTabOrder(t *testing.T) {
	_, p := openWindow(t, newScalingBackend())
	var titles []string
	for _, item := range p.view.tabs.Items {
		titles = append(titles, item.Text)
	}
	if want := []string{"Report", "Scaling", "Uncertainty", "Brief", "Checklist", "Inputs", "Notes"}; !slices.Equal(titles, want) {
		t.Errorf("tabs = %q, want %q", titles, want)
	}
}

// The Scaling tab shows the chosen scenario's performance, the
// recommended direction's row in bold. What the tab shows of a report is
// tested in package report (TestScaling, TestScalingInteractive, …).
func TestScalingTab(t *testing.T) {
	w, p := openWindow(t, newScalingBackend())
	v := openScalingTab(t, p, 0)

	rows := uitest.DrawnRows(v.Summary())
	if len(rows) != 4 {
		t.Fatalf("summary has %d rows, want 4", len(rows))
	}
	for i, row := range rows {
		if row.Bold != (i == 3) {
			t.Errorf("summary row %d bold %v; want only the recommended direction (hybrid) in bold", i, row.Bold)
		}
	}
	v.Selector().SetSelected("On-premises")
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Per direction", "Efficient", "Communication", "70 % threshold", "Efficiency (%)", "GPUs (log scale)", "does not fit GPU memory", "16 (chosen)", "Memory capacity — does not fit"} {
		if !strings.Contains(markup, want) {
			t.Errorf("Scaling tab does not show %q", want)
		}
	}
}

// An interactive service's tab shows its serving plan.
func TestScalingTabInteractive(t *testing.T) {
	w, p := openWindow(t, newScalingBackend())
	openScalingTab(t, p, 1)
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Serving is sized by replicas", "Output tokens/s", "Memory bandwidth"} {
		if !strings.Contains(markup, want) {
			t.Errorf("Scaling tab does not show %q", want)
		}
	}
}

// The chart's threshold is the report's (a scenario can set its own), not
// a constant of the window.
func TestScalingThresholdFromReport(t *testing.T) {
	b := newScalingBackend()
	b.reports["ft-7b"].EfficiencyThreshold = 0.85
	w, p := openWindow(t, b)
	openScalingTab(t, p, 0)
	markup := test.RenderToMarkup(w.Canvas())
	if !strings.Contains(markup, "85 % threshold") || strings.Contains(markup, "70 % threshold") {
		t.Error("the chart does not label the report's 85 % threshold")
	}
}

// TestScalingScreenshot writes the Scaling tab to scaling.png in the folder
// of HOSTPLAN_SCREENSHOT (light theme, 1200 × 800), and beside it the dark
// theme, the lower part of the page, the serving view and a smaller
// window. It is skipped when the variable is unset.
func TestScalingScreenshot(t *testing.T) {
	path := os.Getenv("HOSTPLAN_SCREENSHOT")
	if path == "" {
		t.Skip("set HOSTPLAN_SCREENSHOT=/path/to/file.png to write screenshots")
	}
	dir := filepath.Dir(path)
	for _, variant := range []struct {
		name string
		v    fyne.ThemeVariant
	}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}} {
		a := test.NewTempApp(t)
		a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), variant.v})
		w := NewWindow(a, newScalingBackend())
		p := w.Content().(*planner)
		v := openScalingTab(t, p, 0)
		name := "scaling"
		if variant.name == "dark" {
			name += "-dark"
		}
		writePNG(t, filepath.Join(dir, name+".png"), w.Canvas().Capture())
		v.Scroll().ScrollToBottom()
		writePNG(t, filepath.Join(dir, name+"-end.png"), w.Canvas().Capture())

		if variant.name == "light" {
			v.Selector().SetSelected("On-premises")
			writePNG(t, filepath.Join(dir, "scaling-onprem-end.png"), w.Canvas().Capture())

			openScalingTab(t, p, 1)
			writePNG(t, filepath.Join(dir, "scaling-serving.png"), w.Canvas().Capture())

			w.Resize(fyne.NewSize(1000, 700))
			openScalingTab(t, p, 0)
			writePNG(t, filepath.Join(dir, "scaling-1000x700.png"), w.Canvas().Capture())
			v.Scroll().ScrollToBottom()
			writePNG(t, filepath.Join(dir, "scaling-1000x700-end.png"), w.Canvas().Capture())
		}
		w.Close()
	}
}
