package ui

import (
	"context"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hostplan/internal/ui/report"
	"hostplan/internal/ui/uitest"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
	"github.com/xuri/excelize/v2"

	"hostplan/internal/app"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// shownIDs are the ids of the rows the list shows, in order.
func shownIDs(p *planner) []string {
	ids := make([]string, len(p.scenarios.items))
	for i, it := range p.scenarios.items {
		ids[i] = it.ID
	}
	return ids
}

// menuAction finds the action of the main menu's entry label in menu.
func menuAction(t *testing.T, w fyne.Window, menu, label string) func() {
	t.Helper()
	mm := w.MainMenu()
	if mm == nil {
		t.Fatal("the window has no main menu")
	}
	for _, m := range mm.Items {
		if m.Label != menu {
			continue
		}
		for _, it := range m.Items {
			if it.Label == label {
				return it.Action
			}
		}
	}
	t.Fatalf("no entry %q in the %s menu", label, menu)
	return nil
}

// overlayButton is the button labelled text (a prefix) in the dialog on
// top of the window, nil when there is none.
func overlayButton(w fyne.Window, text string) *widget.Button {
	b, _ := uitest.Find(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool {
		b, ok := o.(*widget.Button)
		return ok && strings.HasPrefix(b.Text, text)
	}).(*widget.Button)
	return b
}

// overlayLabels joins the text of the labels in the dialog on top.
func overlayLabels(w fyne.Window) string {
	var texts []string
	uitest.Find(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool {
		if l, ok := o.(*widget.Label); ok {
			texts = append(texts, l.Text)
		}
		return false
	})
	return strings.Join(texts, "\n")
}

// overlayOf returns the first object of type T in the dialog on top.
func overlayOf[T fyne.CanvasObject](w fyne.Window) T {
	o, _ := uitest.Find(w.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool {
		_, ok := o.(T)
		return ok
	}).(T)
	return o
}

// Typing in the search field narrows the list to the names (and ids) that
// hold every word; Escape in the field empties it. The shape filter and
// the sort work on what remains.
func TestSearchNarrowsList(t *testing.T) {
	_, p := openWindow(t, newRealBackend(t))
	s := p.scenarios
	all := shownIDs(p)
	if len(all) < 6 {
		t.Fatalf("%d scenarios listed", len(all))
	}
	test.Type(s.search, "qlora")
	if got := shownIDs(p); !slices.Equal(got, []string{"qlora-legal-70b"}) {
		t.Errorf("after typing qlora the list shows %v", got)
	}
	if !strings.Contains(s.status.Text, "1 of 6 scenarios shown") {
		t.Errorf("status %q", s.status.Text)
	}
	s.search.SetText("TRAINING")
	training := shownIDs(p)
	if len(training) == 0 || len(training) >= len(all) {
		t.Fatalf("\"TRAINING\" shows %v of %v", training, all)
	}
	for _, id := range training {
		it, _ := s.item(id)
		if !strings.Contains(strings.ToLower(it.Name+" "+it.ID), "training") {
			t.Errorf("%s (%q) does not match", id, it.Name)
		}
	}
	s.search.SetText("training nothing-like-this")
	if got := shownIDs(p); len(got) != 0 {
		t.Errorf("two words, one matching nothing: %v", got)
	}
	s.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if s.search.Text != "" || len(shownIDs(p)) != len(all) {
		t.Errorf("Escape left %q and %d rows", s.search.Text, len(shownIDs(p)))
	}

	s.shape.SetSelected("Fine-tuning")
	for _, id := range shownIDs(p) {
		if it, _ := s.item(id); it.Shape != scenario.ShapeFineTuning {
			t.Errorf("the fine-tuning filter shows %s (%s)", id, it.Shape)
		}
	}
	if len(shownIDs(p)) == 0 {
		t.Error("no fine-tuning scenario shown")
	}
	s.shape.SetSelectedIndex(0)

	s.order.SetSelected(sortLabels[byShape])
	var ranks []int
	for _, it := range s.items {
		ranks = append(ranks, slices.Index(scenario.Shapes, it.Shape))
	}
	if !slices.IsSorted(ranks) {
		t.Errorf("sorted by shape: %v", shownIDs(p))
	}
}

// Sorting by revisions puts the most revised first; by last change the
// newest first.
func TestSortByRevisionsAndChange(t *testing.T) {
	pl := openPlanner(t)
	s, _, _ := pl.Load("flood-simulation-ensemble")
	s.Seed++
	if _, err := pl.Save(s, app.Lineage{Note: "second"}); err != nil {
		t.Fatal(err)
	}
	_, p := openWindow(t, NewBackend(pl))
	p.scenarios.order.SetSelected(sortLabels[byRevisions])
	if got := shownIDs(p); got[0] != "flood-simulation-ensemble" {
		t.Errorf("by revisions: %v", got)
	}
	p.scenarios.order.SetSelected(sortLabels[byChanged])
	if got := shownIDs(p); got[0] != "flood-simulation-ensemble" {
		t.Errorf("by last change: %v", got)
	}
	p.scenarios.order.SetSelected(sortLabels[byName])
	if got := shownIDs(p); got[0] == "flood-simulation-ensemble" {
		t.Errorf("by name: %v", got)
	}
}

// Filtering by recommendation decides every scenario in the background
// and shows those whose decision ranks the chosen direction first; the
// rows then name it.
func TestRecommendationFilter(t *testing.T) {
	pl := openPlanner(t)
	_, p := openWindow(t, NewBackend(pl))
	want := map[string][]string{}
	items, _ := pl.List()
	for _, it := range items {
		_, dir, err := pl.Recommend(context.Background(), it.ID)
		if err != nil {
			t.Fatal(err)
		}
		want[dir] = append(want[dir], it.ID)
	}
	if len(want) < 2 {
		t.Fatalf("the examples all recommend the same: %v", want)
	}
	for _, d := range scenario.Directions {
		p.scenarios.recommend.SetSelected(recommendOption(d))
		settle(t, p)
		got := shownIDs(p)
		slices.Sort(got)
		slices.Sort(want[d])
		if !slices.Equal(got, want[d]) {
			t.Errorf("%s: the list shows %v, want %v", d, got, want[d])
		}
		for _, it := range p.scenarios.items {
			if detail := p.scenarios.detail(it); !strings.Contains(detail, directionLabel(d)) {
				t.Errorf("%s: row detail %q", it.ID, detail)
			}
		}
	}
	p.scenarios.recommend.SetSelected(anyRecommend)
	if len(shownIDs(p)) != len(items) {
		t.Errorf("any recommendation shows %d of %d", len(shownIDs(p)), len(items))
	}
}

// Arrows in the list choose the row below and above; Down in the search
// field goes to the list.
func TestArrowsMoveInList(t *testing.T) {
	_, p := openWindow(t, newFakeBackend())
	s := p.scenarios
	s.search.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	waitShown(t, p, "ft-7b")
	s.list.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	waitShown(t, p, "chat")
	s.list.TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown}) // the last row: stays
	s.list.TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	waitShown(t, p, "ft-7b")
}

// The pointer over a row writes its whole name in the status line.
func TestHoverShowsWholeName(t *testing.T) {
	b := newFakeBackend()
	long := strings.Repeat("A very long scenario name that the narrow list cuts short ", 3)
	b.items[0].Name = long
	w, p := openWindow(t, b)
	w.Resize(fyne.NewSize(1000, 700))
	row := uitest.Find(p.scenarios.list, func(o fyne.CanvasObject) bool {
		r, ok := o.(*scenarioRow)
		return ok && r.index == 0
	}).(*scenarioRow)
	row.MouseIn(nil)
	if !strings.Contains(p.scenarios.status.Text, long) {
		t.Errorf("status %q lacks the whole name", p.scenarios.status.Text)
	}
	row.MouseOut()
	if got := p.scenarios.status.Text; got != "2 scenarios" {
		t.Errorf("status after the pointer left: %q", got)
	}
}

// Delete takes the scenario out of the list and the store's live
// scenarios; Undo brings it back and shows it.
func TestDeleteAndUndo(t *testing.T) {
	pl := openPlanner(t)
	w, p := openWindow(t, NewBackend(pl))
	const id = "qlora-legal-70b"
	if !p.scenarios.selectID(id) {
		t.Fatal("no qlora-legal-70b")
	}
	waitShown(t, p, id)
	menuAction(t, w, "Scenario", "Delete")()
	settle(t, p)
	if p.scenarios.has(id) || slices.Contains(shownIDs(p), id) {
		t.Error("the deleted scenario is still listed")
	}
	if _, _, err := pl.Load(id); err == nil {
		t.Error("the store still has it live")
	}
	if p.view.shownID() != "" || !strings.Contains(p.view.message.Text, "was deleted") {
		t.Errorf("the pane shows %q: %q", p.view.shownID(), p.view.message.Text)
	}
	if !p.scenarios.undo.Visible() || !strings.HasPrefix(p.scenarios.notice.Text, "Deleted") {
		t.Fatalf("notice %q, undo visible %v", p.scenarios.notice.Text, p.scenarios.undo.Visible())
	}
	test.Tap(p.scenarios.undo)
	settle(t, p)
	waitShown(t, p, id)
	if !p.scenarios.has(id) || p.scenarios.undo.Visible() {
		t.Error("Undo did not bring it back")
	}
	if _, _, err := pl.Load(id); err != nil {
		t.Errorf("the store: %v", err)
	}
	if !strings.Contains(p.scenarios.notice.Text, "Brought back") {
		t.Errorf("notice %q", p.scenarios.notice.Text)
	}
}

// Restoring an old revision from the history dialog adds a revision whose
// content equals the old one; the dialog names the changed fields by their
// labels, not their JSON paths.
func TestRestoreOldRevision(t *testing.T) {
	pl := openPlanner(t)
	const id = "constrained-snapshot-training"
	s, _, _ := pl.Load(id)
	changed := scenario.Clone(s)
	changed.Dimensions.Economics.HorizonMonths += 12
	if _, err := pl.Save(changed, app.Lineage{Author: "ana", Note: "longer horizon"}); err != nil {
		t.Fatal(err)
	}
	w, p := openWindow(t, NewBackend(pl))
	p.scenarios.selectID(id)
	waitShown(t, p, id)
	menuAction(t, w, "Scenario", "History…")()
	settle(t, p)

	restore := overlayButton(w, "Restore revision")
	if restore == nil {
		t.Fatal("the history dialog has no Restore button")
	}
	if restore.Text != "Restore revision 1" || restore.Disabled() {
		t.Fatalf("button %q, disabled %v; want revision 1 chosen", restore.Text, restore.Disabled())
	}
	text := overlayLabels(w)
	before, after := strconv.Itoa(s.Dimensions.Economics.HorizonMonths), strconv.Itoa(changed.Dimensions.Economics.HorizonMonths)
	for _, want := range []string{"Revision 2 (current)", "longer horizon", "Revision 1 compared with revision 2 (current)", "Horizon (months)\n" + before + "\n" + after} {
		if !strings.Contains(text, want) {
			t.Errorf("the history dialog lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(text, "dimensions.economics.horizon_months") {
		t.Error("the diff shows a JSON path")
	}
	test.Tap(restore)
	settle(t, p)
	waitShown(t, p, id)

	h, err := pl.History(id)
	if err != nil || len(h) != 3 {
		t.Fatalf("history %d revisions, %v; want 3", len(h), err)
	}
	old, _, _ := pl.LoadRevision(id, 1)
	now, _, _ := pl.LoadRevision(id, 3)
	if d, err := scenario.Diff(old, now); err != nil || len(d) != 0 {
		t.Errorf("revision 3 differs from revision 1: %v, %v", d, err)
	}
	if !strings.Contains(h[2].Note, "restored from revision 1") {
		t.Errorf("note %q", h[2].Note)
	}
	if got := p.scenarios.notice.Text; !strings.Contains(got, "Restored revision 1") || !strings.Contains(got, "revision 3") {
		t.Errorf("notice %q", got)
	}
	if it, _ := p.scenarios.item(id); it.Revisions != 3 {
		t.Errorf("the list says %d revisions", it.Revisions)
	}
	if w.Canvas().Overlays().Top() != nil {
		t.Error("the history dialog is still open")
	}
}

// Rename saves the new name as a new revision; an empty name is refused
// beneath the field.
func TestRename(t *testing.T) {
	pl := openPlanner(t, "qlora-legal-70b", "nightly-document-batch")
	w, p := openWindow(t, NewBackend(pl))
	p.scenarios.selectID("qlora-legal-70b")
	waitShown(t, p, "qlora-legal-70b")
	menuAction(t, w, "Scenario", "Rename…")()
	settle(t, p)
	entry := overlayOf[*escEntry](w)
	ok := overlayButton(w, "Rename")
	if entry == nil || ok == nil {
		t.Fatal("no rename dialog")
	}
	entry.SetText("  ")
	if !ok.Disabled() || !strings.Contains(overlayLabels(w), "Name: is required") {
		t.Errorf("an empty name: Rename disabled %v; dialog says %q", ok.Disabled(), overlayLabels(w))
	}
	entry.SetText("Legal assistant, QLoRA")
	test.Tap(ok)
	settle(t, p)
	waitShown(t, p, "qlora-legal-70b")
	s, rev, _ := pl.Load("qlora-legal-70b")
	if s.Name != "Legal assistant, QLoRA" || rev.Number != 2 || !strings.Contains(rev.Note, "renamed from") {
		t.Errorf("stored %q, revision %d, note %q", s.Name, rev.Number, rev.Note)
	}
	if it, _ := p.scenarios.item("qlora-legal-70b"); it.Name != "Legal assistant, QLoRA" {
		t.Errorf("the list shows %q", it.Name)
	}
}

// Escape closes the dialog on top, whether the window or the dialog's
// field has the keyboard.
func TestEscapeClosesDialogs(t *testing.T) {
	pl := openPlanner(t, "qlora-legal-70b")
	w, p := openWindow(t, NewBackend(pl))
	p.scenarios.selectID("qlora-legal-70b")
	waitShown(t, p, "qlora-legal-70b")

	menuAction(t, w, "Scenario", "History…")()
	settle(t, p)
	if w.Canvas().Overlays().Top() == nil {
		t.Fatal("no history dialog")
	}
	w.Canvas().Focus(nil)
	w.Canvas().OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if w.Canvas().Overlays().Top() != nil {
		t.Error("Escape left the history dialog open")
	}

	menuAction(t, w, "Scenario", "Rename…")()
	settle(t, p)
	entry := overlayOf[*escEntry](w)
	if entry == nil {
		t.Fatal("no rename dialog")
	}
	entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if w.Canvas().Overlays().Top() != nil {
		t.Error("Escape in the name field left the dialog open")
	}
	if h, _ := pl.History("qlora-legal-70b"); len(h) != 1 {
		t.Errorf("closing the dialogs wrote %d revisions", len(h))
	}
}

// File → Export workbook… writes the shown scenario's workbook where the
// dialog says and confirms it with the path; the file opens with
// excelize and holds the scenario's sheets.
func TestExportWorkbookFromWindow(t *testing.T) {
	pl := openPlanner(t, "constrained-snapshot-training")
	w, p := openWindow(t, NewBackend(pl))
	const id = "constrained-snapshot-training"
	p.scenarios.selectID(id)
	waitShown(t, p, id)
	menuAction(t, w, "File", "Export workbook…")()
	entry := overlayOf[*escEntry](w)
	if entry == nil || !strings.HasSuffix(entry.Text, id+".xlsx") {
		t.Fatalf("the export dialog proposes %v", entry)
	}
	dir := t.TempDir()
	entry.SetText(filepath.Join(dir, "report.csv"))
	export := overlayButton(w, "Export")
	if !export.Disabled() || !strings.Contains(overlayLabels(w), "must end in .xlsx") {
		t.Errorf("a .csv path: Export disabled %v, dialog %q", export.Disabled(), overlayLabels(w))
	}
	entry.SetText(filepath.Join(dir, "nowhere", "x.xlsx"))
	if !export.Disabled() {
		t.Error("a path in a missing folder is accepted")
	}
	path := filepath.Join(dir, "review.xlsx")
	entry.SetText(path)
	if export.Disabled() {
		t.Fatalf("Export disabled for %s: %s", path, overlayLabels(w))
	}
	test.Tap(export)
	settle(t, p)
	if got := overlayLabels(w); !strings.Contains(got, path) || !strings.Contains(got, "Wrote the workbook of") {
		t.Errorf("the confirmation says %q, want the path %s", got, path)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sheets := f.GetSheetList()
	for _, sh := range []string{"Summary", "Inputs", "Costs", "Decision", "Brief", "Checklist", "Lineage"} {
		if !slices.Contains(sheets, sh) {
			t.Errorf("no %s sheet in %v", sh, sheets)
		}
	}
	if v, _ := f.GetCellValue("Lineage", "B3"); v != id {
		t.Errorf("Lineage!B3 = %q", v)
	}
}

// directionLabel is the recommendation filter's entry for direction d.
func directionLabel(d string) string { return present.DirectionTitle(d) }

// recommendOption is the recommendation filter's entry for direction d.
func recommendOption(d string) string { return recPrefix + present.DirectionTitle(d) }

// A status message — what the last action did, with Undo; whether the
// report is up to date — takes room kept for it: the list's rows and the
// form do not move when one shows or goes, so a click aimed at a row
// lands on it.
func TestStatusDoesNotMoveLayout(t *testing.T) {
	w, p := openWindow(t, newFakeBackend())
	w.Resize(fyne.NewSize(1280, 800))
	openForm(t, p, 0)
	settled(t, p)
	e := p.view.live
	place := func(o fyne.CanvasObject) [2]fyne.Position {
		s := o.Size()
		return [2]fyne.Position{fyne.CurrentApp().Driver().AbsolutePositionForObject(o), {X: s.Width, Y: s.Height}}
	}
	list, form := place(p.scenarios.list), place(e.scroll)
	for _, msg := range []string{
		"Deleted “Fine-tune 7B on claims notes”. It is kept in the store until purged; Undo brings it back now.",
		"",
	} {
		if msg == "" {
			p.scenarios.notify("")
		} else {
			p.scenarios.notifyUndo(msg, func() {})
		}
		e.setStatus(msg+" "+msg, widget.DangerImportance)
		w.Content().Refresh()
		p.scenarios.content.Refresh()
		e.panel.Refresh()
		if got := place(p.scenarios.list); got != list {
			t.Errorf("with the message %q the list moved from %v to %v", msg, list, got)
		}
		if got := place(e.scroll); got != form {
			t.Errorf("with the status %q the form moved from %v to %v", msg, form, got)
		}
	}
}

// The history shows what each revision came to beside what it changed:
// the recommendation, the cheapest feasible direction, and each
// direction's verdict and cost over the horizon, in the chosen revision
// and in the current one, as the model gives them for each.
func TestHistoryShowsOutcome(t *testing.T) {
	pl := openPlanner(t)
	const id = "qlora-legal-70b"
	s, _, _ := pl.Load(id)
	changed := scenario.Clone(s)
	changed.Dimensions.Economics.HorizonMonths *= 3
	if _, err := pl.Save(changed, app.Lineage{Author: "ana", Note: "three times the horizon"}); err != nil {
		t.Fatal(err)
	}
	w, p := openWindow(t, NewBackend(pl))
	p.scenarios.selectID(id)
	waitShown(t, p, id)
	menuAction(t, w, "Scenario", "History…")()
	settle(t, p)
	text := overlayLabels(w)

	want := []string{"Outcome", "Recommended", "Cheapest feasible", "Changed fields", "Horizon (months)"}
	for _, sc := range []*scenario.Scenario{s, changed} {
		r, err := pl.Evaluate(context.Background(), sc)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range r.Directions {
			want = append(want, report.TitleOf(d))
			if d.Feasible {
				want = append(want, present.Money(d.CostHorizon, r.Currency))
			}
		}
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("the history does not show %q:\n%s", w, text)
		}
	}
	if strings.Index(text, "Outcome") > strings.Index(text, "Changed fields") {
		t.Error("the outcome comes after the changed fields")
	}
}
