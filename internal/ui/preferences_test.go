package ui

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"github.com/xuri/excelize/v2"

	"hostplan/internal/ui/widgets"
)

// The author set in File ▸ Preferences is who every revision saved from
// the window is by, and the author the workbook it exports names.
func TestAuthorPreference(t *testing.T) {
	t.Setenv("USER", "login-name")
	pl := openPlanner(t, "qlora-legal-70b")
	w, p := openWindow(t, NewBackend(pl))
	const id = "qlora-legal-70b"

	menuAction(t, w, "File", "Preferences…")()
	name := overlayOf[*widgets.KeyEntry](w)
	if name == nil || name.PlaceHolder != "login-name" {
		t.Fatalf("the Preferences dialog has no author field showing the login name: %v", name)
	}
	test.Type(name, "Ana Ortiz")
	test.Tap(overlayButton(w, "Save"))
	if w.Canvas().Overlays().Top() != nil {
		t.Fatal("Save left the dialog open")
	}
	if got, _, _ := pl.Setting(settingAuthor); got != "Ana Ortiz" {
		t.Errorf("the setting holds %q", got)
	}

	f := openForm(t, p, 0)
	retype(field(t, f, "purpose.owner").entries()[0], "Legal platform team")
	settled(t, p)
	test.Tap(p.view.live.save)
	note := overlay[*widgets.KeyEntry](p)
	if note == nil {
		t.Fatal("Save asked for no note")
	}
	test.Type(note, "owner named")
	note.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	settled(t, p)
	h := history(t, pl, id)
	if last := h[len(h)-1]; last.Note != "owner named" || last.Author != "Ana Ortiz" {
		t.Errorf("the revision saved from the window: %+v, want by Ana Ortiz", last)
	}

	menuAction(t, w, "File", "Export workbook…")()
	path := filepath.Join(t.TempDir(), "review.xlsx")
	if got := saveThrough(t, w, p, path, "Export"); !strings.Contains(got, path) {
		t.Fatalf("export said %q", got)
	}
	wb, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer wb.Close()
	props, err := wb.GetDocProps()
	if err != nil || props.Creator != "Ana Ortiz" {
		t.Errorf("the workbook's author %q (%v), want Ana Ortiz", props.Creator, err)
	}
	// A comparison the window writes names the author too.
	cmp := filepath.Join(t.TempDir(), "compare.xlsx")
	if err := NewBackend(pl).ExportComparison(context.Background(), []string{id, id}, cmp); err != nil {
		t.Fatal(err)
	}
	cb, err := excelize.OpenFile(cmp)
	if err != nil {
		t.Fatal(err)
	}
	defer cb.Close()
	if props, err := cb.GetDocProps(); err != nil || props.Creator != "Ana Ortiz" {
		t.Errorf("the comparison's author %q (%v), want Ana Ortiz", props.Creator, err)
	}
}
