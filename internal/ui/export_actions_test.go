package ui

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/xuri/excelize/v2"
)

// saveThrough fills the save dialog on top of w with path and presses its
// button labelled action, answering Replace when asked; it returns the
// confirmation's text.
func saveThrough(t *testing.T, w fyne.Window, p *planner, path, action string) string {
	t.Helper()
	entry := overlayOf[*escEntry](w)
	if entry == nil {
		t.Fatal("no save dialog")
	}
	entry.SetText(path)
	b := overlayButton(w, action)
	if b == nil || b.Disabled() {
		t.Fatalf("%s disabled for %s: %s", action, path, overlayLabels(w))
	}
	test.Tap(b)
	if r := overlayButton(w, "Replace"); r != nil {
		test.Tap(r)
	}
	written(t, p)
	return overlayLabels(w)
}

// written waits until the window's writing is done: drawing six charts at
// slide size takes tens of seconds under the race detector on a busy
// machine, longer than settle waits.
func written(t *testing.T, p *planner) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for p.pending() > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("after 2 min: %d pieces of work still running", p.pending())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The comparison view exports the Compare workbook of the ticked
// scenarios, a column each in the order ticked — the workbook "hostplan
// export A B C -o compare.xlsx" writes — and File › Export workbook… does
// the same while comparing.
func TestExportComparisonFromWindow(t *testing.T) {
	ids := []string{"qlora-legal-70b", "constrained-snapshot-training", "support-assistant-70b"}
	w, p := openWindow(t, newRealBackend(t, ids...))
	test.Tap(p.scenarios.compare)
	if !p.compare.export.Visible() || !p.compare.export.Disabled() {
		t.Fatalf("with nothing ticked the export button is visible %v, disabled %v", p.compare.export.Visible(), p.compare.export.Disabled())
	}
	for _, id := range ids {
		tickRow(t, p, p.scenarios.indexOf(id))
	}
	if p.compare.export.Disabled() || p.compare.charts.Disabled() {
		t.Fatal("export or charts disabled with three scenarios evaluated")
	}
	test.Tap(p.compare.export)
	if e := overlayOf[*escEntry](w); e == nil || filepath.Base(e.Text) != "compare.xlsx" {
		t.Fatalf("the dialog proposes %v", e)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "compare.xlsx")
	got := saveThrough(t, w, p, path, "Export")
	if !strings.Contains(got, path) || !strings.Contains(got, "Wrote the comparison of") {
		t.Errorf("the confirmation says %q", got)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if sheets := f.GetSheetList(); !slices.Equal(sheets, []string{"Compare"}) {
		t.Fatalf("sheets %v, want [Compare]", sheets)
	}
	for i, col := range []string{"B", "C", "D"} {
		if got, _ := f.GetCellValue("Compare", col+"5"); got != ids[i] {
			t.Errorf("Compare!%s5 = %q, want %q", col, got, ids[i])
		}
	}

	p.dialogs.escape() // the confirmation
	menuAction(t, w, "File", "Export workbook…")()
	if e := overlayOf[*escEntry](w); e == nil || filepath.Base(e.Text) != "compare.xlsx" {
		t.Fatalf("File › Export workbook… while comparing proposes %v", e)
	}
	again := filepath.Join(dir, "again.xlsx")
	saveThrough(t, w, p, again, "Export")
	if fi, err := os.Stat(again); err != nil || fi.Size() == 0 {
		t.Errorf("no comparison written from the menu: %v", err)
	}
}

// Save charts… writes each chart of the report on show as PNG and SVG,
// as "hostplan export ID --charts DIR" names them, making the folder;
// while comparing, the charts of each compared scenario. Writing again
// asks before replacing them.
func TestSaveChartsFromWindow(t *testing.T) {
	ids := []string{"qlora-legal-70b", "constrained-snapshot-training"}
	w, p := openWindow(t, newRealBackend(t, ids...))
	p.scenarios.selectID(ids[0])
	waitShown(t, p, ids[0])
	menuAction(t, w, "File", "Save charts…")()
	settle(t, p) // the tornado's spread, if it had not landed
	if e := overlayOf[*escEntry](w); e == nil || filepath.Base(e.Text) != ids[0]+"-charts" {
		t.Fatalf("the dialog proposes %v", e)
	}
	dir := filepath.Join(t.TempDir(), "slides") // made by the window
	got := saveThrough(t, w, p, dir, "Save")
	if !strings.Contains(got, dir) || !strings.Contains(got, "3 charts of") {
		t.Errorf("the confirmation says %q", got)
	}
	checkCharts(t, dir, ids[0])

	// A file in the way of the folder is refused.
	p.dialogs.escape()
	menuAction(t, w, "File", "Save charts…")()
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	overlayOf[*escEntry](w).SetText(file)
	if b := overlayButton(w, "Save"); !b.Disabled() || !strings.Contains(overlayLabels(w), "is a file, not a folder") {
		t.Errorf("a file as the folder: Save disabled %v, %q", b.Disabled(), overlayLabels(w))
	}
	// Again into the same folder: asked first, then replaced.
	overlayOf[*escEntry](w).SetText(dir)
	test.Tap(overlayButton(w, "Save"))
	if !strings.Contains(overlayLabels(w), "6 files to write are already in "+dir) {
		t.Errorf("not asked before replacing: %q", overlayLabels(w))
	}
	test.Tap(overlayButton(w, "Replace"))
	written(t, p)
	p.dialogs.escape()

	test.Tap(p.scenarios.compare)
	for _, id := range ids {
		if !p.compare.isTicked(id) {
			tickRow(t, p, p.scenarios.indexOf(id))
		}
	}
	test.Tap(p.compare.charts)
	both := filepath.Join(t.TempDir(), "both")
	saveThrough(t, w, p, both, "Save")
	for _, id := range ids {
		checkCharts(t, both, id)
	}
}

// checkCharts checks that dir holds the charts of scenario id: a PNG that
// decodes and an SVG, for each of the cumulative cost, efficiency and
// tornado.
func checkCharts(t *testing.T, dir, id string) {
	t.Helper()
	for _, name := range []string{"cumulative-cost", "efficiency", "tornado"} {
		b, err := os.ReadFile(filepath.Join(dir, id+"-"+name+".png"))
		if err != nil {
			t.Error(err)
			continue
		}
		if _, err := png.Decode(bytes.NewReader(b)); err != nil {
			t.Errorf("%s-%s.png: %v", id, name, err)
		}
		svg, err := os.ReadFile(filepath.Join(dir, id+"-"+name+".svg"))
		if err != nil || !bytes.Contains(svg, []byte("<svg")) {
			t.Errorf("%s-%s.svg: %v", id, name, err)
		}
	}
}
