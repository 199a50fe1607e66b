package ui

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"hostplan/internal/catalog"
	"hostplan/internal/ui/uitest"
	"hostplan/internal/ui/widgets"
)

// TestScreenshots draws the window's main views through the real model
// with the example scenarios, in the light theme, at 1920 × 1080,
// 1280 × 800 and 1024 × 768, into the folder HOSTPLAN_SCREENSHOTS (make
// screenshots writes docs/screenshots): a scenario's report
// (report-WxH.png), the form beside it (form-WxH.png), three scenarios
// compared (two at 1024 × 768; compare-WxH.png), the same in review mode
// (review-WxH.png), the repricing an import of prices offers
// (reprice-WxH.png), and the form's cloud offer picker (offers-WxH.png). Fyne's test driver
// draws them, so they are the same on every machine (fonts and all). It is skipped when
// the variable is unset.
func TestScreenshots(t *testing.T) {
	dir := os.Getenv("HOSTPLAN_SCREENSHOTS")
	if dir == "" {
		t.Skip("set HOSTPLAN_SCREENSHOTS=/path/to/folder to draw the window's views")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	const shown = "support-assistant-70b"
	compared := []string{"constrained-snapshot-training", "qlora-legal-70b", "nightly-document-batch"}
	for _, screen := range []struct {
		size fyne.Size
		n    int // scenarios compared and reviewed
	}{{fyne.NewSize(1920, 1080), 3}, {fyne.NewSize(1280, 800), 3}, {fyne.NewSize(1024, 768), 2}} {
		size, compared := screen.size, compared[:screen.n]
		a := test.NewTempApp(t)
		// The test app's own theme is not what users see; use Fyne's.
		a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), theme.VariantLight})
		w := NewWindow(a, newRealBackend(t))
		w.Resize(size)
		p := w.Content().(*planner)
		shot := func(name string) {
			t.Helper()
			settled(t, p)
			// As a frame of the desktop driver does: lay out again what
			// changed size.
			w.Content().Refresh()
			file := filepath.Join(dir, fmt.Sprintf("%s-%.0fx%.0f.png", name, size.Width, size.Height))
			writeSmallPNG(t, file, w.Canvas().Capture())
		}

		if !p.scenarios.selectID(shown) {
			t.Fatalf("no scenario %s", shown)
		}
		waitFor(t, p.view, stateReady)
		if size.Width >= 1920 { // room for the sliders and the table
			test.Tap(p.view.weights.ToggleButton())
		}
		shot("report")

		test.Tap(p.view.live.toggle)
		shot("form")
		test.Tap(p.view.live.toggle)

		p.setComparing(true)
		for _, id := range compared {
			if !p.compare.isTicked(id) {
				tickRow(t, p, p.scenarios.indexOf(id))
			}
		}
		if p.compare.isTicked(shown) { // ticked on entering: one too many
			tickRow(t, p, p.scenarios.indexOf(shown))
			for _, id := range compared {
				if !p.compare.isTicked(id) {
					tickRow(t, p, p.scenarios.indexOf(id))
				}
			}
		}
		shot("compare")

		p.enterReview()
		shot("review")
		p.leaveReview()

		// An import that doubles one cloud price, then the repricing it
		// offers.
		p.setComparing(false)
		p.importPrices("prices.csv", []byte(doubledLambda(t)))
		settled(t, p)
		reprice := overlayButton(w, "Reprice stored scenarios")
		if reprice == nil {
			t.Fatal("the import does not offer repricing")
		}
		reprice.OnTapped()
		shot("reprice")
		w.Close()

		offersShot(t, dir, size, shown)
	}
}

// offersShot draws the form's cloud offer picker (offers-WxH.png) over
// the catalog with the repository's SkyPilot slices imported (real rows
// of aws, gcp and lambda vms.csv files), searching "h100", the second
// match marked.
func offersShot(t *testing.T, dir string, size fyne.Size, id string) {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), theme.VariantLight})
	b := newRealBackend(t)
	base, err := b.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	var rows catalog.Overrides
	for _, cloud := range []string{"aws", "gcp", "lambda"} {
		f, err := os.Open(filepath.Join("..", "catalog", "testdata", "skypilot", cloud, "vms.csv"))
		if err != nil {
			t.Fatal(err)
		}
		imp, err := catalog.ReadSkyPilot(f, base, catalog.SkyPilotOptions{Cloud: cloud, File: cloud + "/vms.csv", AsOf: "2026-12-01",
			Source: "SkyPilot catalog " + cloud + "/vms.csv (the repository's test slice)"})
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		rows.Rows = append(rows.Rows, imp.Overrides().Rows...)
	}
	if _, _, err := b.ImportPrices(rows); err != nil {
		t.Fatal(err)
	}
	w := NewWindow(a, b)
	defer w.Close()
	w.Resize(size)
	p := w.Content().(*planner)
	if !p.scenarios.selectID(id) {
		t.Fatalf("no scenario %s", id)
	}
	waitFor(t, p.view, stateReady)
	test.Tap(p.view.live.toggle)
	settled(t, p)
	ff := p.view.live.form.FieldAt("options.cloud.offer")
	if ff == nil {
		t.Fatal("the form has no cloud offer field")
	}
	choose, ok := uitest.Find(ff.Box(), func(o fyne.CanvasObject) bool {
		b, ok := o.(*widgets.TipButton)
		return ok && b.Text == "Choose…"
	}).(*widgets.TipButton)
	if !ok {
		t.Fatal("the cloud offer field has no Choose… button")
	}
	test.Tap(choose)
	// A search, and the second match marked.
	pick := w.Canvas().Focused() // the picker's search
	if pick == nil {
		t.Fatal("Choose… left the keyboard nowhere")
	}
	test.Type(pick, "h100")
	pick.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	w.Content().Refresh()
	file := filepath.Join(dir, fmt.Sprintf("offers-%.0fx%.0f.png", size.Width, size.Height))
	writeSmallPNG(t, file, w.Canvas().Capture())
}

// writeSmallPNG writes img to file as a PNG of at most 256 colours at the
// best compression, for images kept in the repository (paletted).
func writeSmallPNG(t *testing.T, file string, img image.Image) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(f, paletted(img)); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s (%d KB)", file, fi.Size()/1024)
}

// paletted is img in its 256 most frequent colours, each other colour
// drawn as the nearest of them: a window's flat colours and the grey
// levels of its antialiased text fit in 256 with no visible change, and
// the PNG is a third of the size.
func paletted(img image.Image) *image.Paletted {
	b := img.Bounds()
	count := map[color.NRGBA]int{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			count[color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)]++
		}
	}
	colours := make([]color.NRGBA, 0, len(count))
	for c := range count {
		colours = append(colours, c)
	}
	sort.Slice(colours, func(i, j int) bool {
		if count[colours[i]] != count[colours[j]] {
			return count[colours[i]] > count[colours[j]]
		}
		a, c := colours[i], colours[j]
		return uint32(a.R)<<24|uint32(a.G)<<16|uint32(a.B)<<8|uint32(a.A) < uint32(c.R)<<24|uint32(c.G)<<16|uint32(c.B)<<8|uint32(c.A)
	})
	pal := make(color.Palette, 0, 256)
	for _, c := range colours[:min(256, len(colours))] {
		pal = append(pal, c)
	}
	out := image.NewPaletted(b, pal)
	index := map[color.NRGBA]uint8{}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			c := color.NRGBAModel.Convert(img.At(x, y)).(color.NRGBA)
			i, ok := index[c]
			if !ok {
				i = uint8(pal.Index(c))
				index[c] = i
			}
			out.SetColorIndex(x, y, i)
		}
	}
	return out
}

// TestScreenshot writes the window, with the first scenario chosen, to PNG
// files named after HOSTPLAN_SCREENSHOT, so a person can look at it: the
// Report tab in the light theme to that path, and every tab in the light
// and dark themes beside it ("-light-inputs.png", "-dark-report.png", …);
// a fragile decision, the JSON editor and a refused import ("-light-fragile",
// "-light-edit-invalid", "-light-import-problems"); and, through the real
// model, every tab of two example scenarios and three of them compared
// ("-real-ID-TAB.png", "-real-compare.png"). It is skipped when the
// variable is unset.
func TestScreenshot(t *testing.T) {
	path := os.Getenv("HOSTPLAN_SCREENSHOT")
	if path == "" {
		t.Skip("set HOSTPLAN_SCREENSHOT=/path/to/file.png to write screenshots")
	}
	base := strings.TrimSuffix(path, ".png")
	for _, variant := range []struct {
		name string
		v    fyne.ThemeVariant
	}{{"light", theme.VariantLight}, {"dark", theme.VariantDark}} {
		a := test.NewTempApp(t)
		// The test app's own theme is not what users see; use Fyne's.
		a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), variant.v})
		w := NewWindow(a, newFakeBackend())
		p := w.Content().(*planner)
		p.scenarios.list.Select(0)
		waitFor(t, p.view, stateReady)
		settle(t, p) // the Monte Carlo spread too, or the Uncertainty tab shows it being drawn

		for i, item := range p.view.tabs.Items {
			tab := strings.ToLower(item.Text)
			p.view.tabs.SelectIndex(i)
			file := fmt.Sprintf("%s-%s-%s.png", base, variant.name, tab)
			writePNG(t, file, w.Canvas().Capture())
			if variant.name == "light" && tab == "report" {
				writePNG(t, path, w.Canvas().Capture())
			}
		}
		if variant.name == "light" {
			selectTab(t, p.view.tabs, "Inputs")
			p.view.inputs.Scroll().ScrollToBottom()
			writePNG(t, base+"-light-inputs-end.png", w.Canvas().Capture())

			p.view.tabs.SelectIndex(0)
			p.scenarios.list.Select(1)
			waitFor(t, p.view, stateReady)
			writePNG(t, base+"-light-none-feasible.png", w.Canvas().Capture())
			selectTab(t, p.view.tabs, "Brief")
			writePNG(t, base+"-light-brief-too-few.png", w.Canvas().Capture())
			p.view.tabs.SelectIndex(0)

			screenshotEditing(t, base, w, p)

			w.Resize(fyne.NewSize(1000, 700)) // a smaller laptop screen
			p.scenarios.list.Select(0)
			waitFor(t, p.view, stateReady)
			writePNG(t, base+"-light-1000x700.png", w.Canvas().Capture())
		}
		w.Close()
	}
	screenshotReal(t, base)
}

// screenshotEditing writes the JSON editor with problems and when valid,
// and the problems of a bad import.
func screenshotEditing(t *testing.T, base string, w fyne.Window, p *planner) {
	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)
	writePNG(t, base+"-light-header.png", w.Canvas().Capture())
	r, d := uitest.FragileDecision()
	p.view.decision.Set(r, d, nil)
	p.view.reportScroll.Content.Refresh() // as setReport does after it
	writePNG(t, base+"-light-fragile.png", w.Canvas().Capture())
	p.view.decision.Set(p.view.current.r, p.view.current.dec, p.view.current.decErr)
	p.view.reportScroll.Content.Refresh()

	test.Tap(p.view.edit)
	e := p.editor()
	good := e.entry.Text
	bad := strings.Replace(good, `"currency": "USD"`, `"currency": "usd"`, 1)
	bad = strings.Replace(bad, `"shape": "fine_tuning"`, `"shape": "finetune"`, 1)
	e.entry.SetText(bad)
	writePNG(t, base+"-light-edit-invalid.png", w.Canvas().Capture())
	e.entry.SetText(strings.Replace(good, `"name": "Fine-tune 7B on claims notes"`, `"name": "Fine-tune 7B, v2"`, 1))
	writePNG(t, base+"-light-edit-valid.png", w.Canvas().Capture())
	e.dialog.Hide()

	p.importBytes("claims.json", []byte(bad))
	writePNG(t, base+"-light-import-problems.png", w.Canvas().Capture())
	for _, o := range w.Canvas().Overlays().List() {
		w.Canvas().Overlays().Remove(o)
	}
}

// screenshotReal writes every tab of example scenarios evaluated by the
// real model, as "-real-ID-TAB.png" beside base.
func screenshotReal(t *testing.T, base string) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), theme.VariantLight})
	w := NewWindow(a, newRealBackend(t))
	defer w.Close()
	p := w.Content().(*planner)
	for i, it := range p.scenarios.items {
		if it.ID != "qlora-legal-70b" && it.ID != "constrained-snapshot-training" {
			continue
		}
		p.scenarios.list.Select(i)
		waitFor(t, p.view, stateReady)
		for j, item := range p.view.tabs.Items {
			p.view.tabs.SelectIndex(j)
			writePNG(t, fmt.Sprintf("%s-real-%s-%s.png", base, it.ID, strings.ToLower(item.Text)), w.Canvas().Capture())
			if item.Text == "Brief" {
				p.view.brief.scroll.ScrollToOffset(fyne.NewPos(0, 1100))
				writePNG(t, fmt.Sprintf("%s-real-%s-brief-recommendation.png", base, it.ID), w.Canvas().Capture())
			}
			if item.Text == "Uncertainty" {
				p.view.uncertainty.Scroll().ScrollToBottom()
				writePNG(t, fmt.Sprintf("%s-real-%s-uncertainty-end.png", base, it.ID), w.Canvas().Capture())
			}
		}
		p.view.tabs.SelectIndex(0)
	}

	// Three scenarios side by side, as a review would see them.
	settle(t, p)
	test.Tap(p.scenarios.compare) // ticks the one on show
	for i, it := range p.scenarios.items {
		switch it.ID {
		case "constrained-snapshot-training", "foundation-7b-pretraining":
			if !p.compare.isTicked(it.ID) {
				settle(t, p) // one change at a time
				p.scenarios.list.Select(i)
			}
		}
	}
	settle(t, p)
	writePNG(t, base+"-real-compare.png", w.Canvas().Capture())
	w.Resize(fyne.NewSize(1000, 700))
	writePNG(t, base+"-real-compare-1000x700.png", w.Canvas().Capture())
	a.Settings().SetTheme(fixedVariant{theme.DefaultTheme(), theme.VariantDark})
	w.Resize(fyne.NewSize(1200, 800))
	writePNG(t, base+"-real-compare-dark.png", w.Canvas().Capture())
}

// fixedVariant is a theme that always uses one variant, light or dark.
type fixedVariant struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (f fixedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return f.Theme.Color(n, f.variant)
}

func writePNG(t *testing.T, file string, img image.Image) {
	t.Helper()
	f, err := os.Create(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", file)
}
