package ui

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/form"
	"hostplan/internal/ui/widgets"
)

// Saving and discarding the edits of the live editor, and the prompt
// before leaving them.

// defaultNote is the note of a revision saved from the form without one.
const defaultNote = "edited in the form"

// saveProblems are the reasons the inputs cannot be saved as they are:
// text that is not a value yet, what scenario.Validate finds, and for a
// new scenario an id another stored scenario has.
func (e *liveEditor) saveProblems() scenario.Errors {
	if e.work == nil {
		return nil
	}
	var errs scenario.Errors
	if e.form != nil {
		errs = append(errs, e.form.LocalProblems()...)
	}
	errs = append(errs, scenario.Validate(e.work)...)
	if e.base == nil && e.exists != nil && e.exists(e.work.ID) {
		errs = append(errs, scenario.FieldError{Path: "id", Problem: fmt.Sprintf("“%s” is the id of another stored scenario", e.work.ID), Allowed: "an id no stored scenario has"})
	}
	return errs
}

// refuse shows why the inputs cannot be saved.
func (e *liveEditor) refuse(errs scenario.Errors) {
	if e.form != nil {
		e.form.SetProblems(errs)
	}
	form.SetProblemText(e.problems, e.unplaced(errs))
	e.setStatus(fmt.Sprintf("Not saved: %s to fix first, shown beneath the fields.", present.Count(len(errs), "problem")), widget.DangerImportance)
}

// unplaced are the lines of the problems the form has no field for.
func (e *liveEditor) unplaced(errs scenario.Errors) []string {
	if e.form == nil {
		return problemLines(errs)
	}
	return e.form.Unplaced()
}

// saveShortcut is Ctrl+S: the inputs as a new revision (asking for the
// note), or the checklist alone when only it has edits.
func (e *liveEditor) saveShortcut() {
	switch {
	case e.dirty():
		e.askNote()
	case e.v.checklist.dirty():
		e.v.checklist.saveThen(func(error) { e.changedState() })
	}
}

// askNote asks for the note of the new revision, then saves.
func (e *liveEditor) askNote() {
	if !e.dirty() || e.saving {
		return
	}
	if errs := e.saveProblems(); len(errs) > 0 {
		e.refuse(errs)
		return
	}
	note := widgets.NewKeyEntry()
	note.SetPlaceHolder("What changed, and why (kept with the revision)")
	title := "Save “" + e.work.Name + "” as a new revision"
	if e.base == nil {
		title = "Save the new scenario “" + e.work.Name + "”"
	}
	d := dialog.NewForm(title, "Save", "Cancel",
		[]*widget.FormItem{widget.NewFormItem("Note", note)},
		func(ok bool) {
			if ok {
				e.saveNow(note.Text, nil)
			}
		}, e.v.window)
	note.OnSubmitted = func(string) { d.Submit() }
	d.Resize(fyne.NewSize(min(640, e.v.window.Canvas().Size().Width*0.9), d.MinSize().Height))
	e.v.dialogs.showDialog(d)
	e.v.window.Canvas().Focus(note)
}

// saveNow saves the inputs as a new revision with note, then the
// checklist when it has edits too, and calls then (may be nil) once both
// are stored.
func (e *liveEditor) saveNow(note string, then func()) {
	if e.work == nil || e.saving {
		return
	}
	if errs := e.saveProblems(); len(errs) > 0 {
		e.refuse(errs)
		return
	}
	note = strings.TrimSpace(note)
	if note == "" {
		note = defaultNote
	}
	snap := scenario.Clone(e.work)
	e.saving = true
	e.setButtons()
	e.setStatus("Saving…", widget.MediumImportance)
	b := e.backend
	inBackground(func() func() {
		rev, err := safeSave(b, snap, note)
		return func() { e.saved(snap, rev, err, then) }
	})
}

// saved applies the outcome of a save of snap.
func (e *liveEditor) saved(snap *scenario.Scenario, rev int, err error, then func()) {
	e.saving = false
	if err != nil {
		var errs scenario.Errors
		if errors.As(err, &errs) {
			e.refuse(errs)
		} else {
			form.SetProblemText(e.problems, nil)
			e.setStatus("Not saved: nothing was written. "+present.Sentence(err.Error()), widget.DangerImportance)
		}
		e.setButtons()
		return
	}
	wasNew := e.base == nil
	canon := canonical(snap)
	e.base, e.stored = snap, canon
	e.item = Item{ID: snap.ID, Name: snap.Name, Shape: snap.Workload.Shape, Revisions: rev}
	if e.form != nil && wasNew {
		e.form.MarkStored()
	}
	v := e.v
	if cur := v.current; cur != nil && bytes.Equal(canonical(cur.s), canon) {
		cur.item = e.item
		cur.own = false // the cache's now: a later edit changes a copy
		v.cache.put(cur)
	}
	if cur := v.current; cur != nil {
		d := cur.dec
		if cur.decErr != nil {
			d = nil
		}
		v.weights.Rebase(snap.Dimensions.Weights(), cur.s.Dimensions.Weights(), d)
	}
	v.shown = snap.ID
	if wasNew {
		v.checklist.set(snap.ID, snap.Workload.Shape, nil, nil)
	}
	e.setHeading()
	e.setStatus("Saved as revision "+report.Whole(rev)+".", widget.SuccessImportance)
	e.changedState()
	if e.onSaved != nil {
		e.onSaved(snap.ID, rev)
	}
	v.checklist.saveThen(func(err error) {
		e.changedState()
		if err == nil && then != nil {
			then()
		}
	})
}

// discardChanges sets the inputs and the checklist back to what is
// stored. A new scenario, never saved, is dropped.
func (e *liveEditor) discardChanges() {
	if e.v.checklist.dirty() {
		e.v.checklist.revert()
	}
	if e.work == nil {
		e.changedState()
		return
	}
	if e.base == nil {
		e.stop()
		e.setOpen(false)
		e.v.clear(chooseMessage) // as before the first choice
		return
	}
	if !e.dirty() {
		e.changedState()
		return
	}
	e.gen++
	if e.cancel != nil {
		e.cancel()
		e.cancel = nil
	}
	e.running = false
	e.work = scenario.Clone(e.base)
	e.history.record(e.work, "") // Ctrl+Z brings the edits back
	if e.form != nil {
		e.buildForm() // where it was scrolled to
	}
	form.SetProblemText(e.problems, nil)
	if ev := e.v.cache.get(e.item.ID, e.item.Revisions); ev != nil {
		e.v.liveReport(ev, true)
		e.setStatus("Changes discarded.", widget.MediumImportance)
	} else {
		e.schedule(0)
	}
	e.changedState()
}

// chooseMessage is what the pane says before a scenario is chosen.
const chooseMessage = "Choose a scenario on the left to see how the five hosting directions compare."

// leavePrompt is the question asked before edits would be lost: keep
// editing, discard the edits, or save them (with a note for the new
// revision) and go on.
type leavePrompt struct {
	widget.BaseWidget
	content fyne.CanvasObject
	note    *widgets.KeyEntry // nil when only the checklist has edits
	text    *widget.Label
	problem *widget.Label
	keep    *widget.Button
	discard *widget.Button
	save    *widget.Button
	dialog  *dialog.CustomDialog
}

// CreateRenderer implements fyne.Widget.
func (l *leavePrompt) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(l.content)
}

// unsavedParts names what has unsaved edits: "the inputs", "the
// checklist" or both.
func (e *liveEditor) unsavedParts() string {
	var parts []string
	if e.dirty() {
		parts = append(parts, "the inputs")
	}
	if e.v.checklist.dirty() {
		parts = append(parts, "the checklist")
	}
	return present.And(parts...)
}

// confirmLeave calls next at once when nothing is unsaved; otherwise it
// asks first, and calls stay when the user keeps editing.
func (e *liveEditor) confirmLeave(next, stay func()) {
	if !e.unsaved() {
		next()
		return
	}
	if stay == nil {
		stay = func() {}
	}
	name := "This scenario"
	switch {
	case e.work != nil && e.work.Name != "":
		name = "“" + e.work.Name + "”"
	case itemName(e.item) != "":
		name = "“" + itemName(e.item) + "”"
	}
	l := &leavePrompt{}
	l.text = widget.NewLabel(fmt.Sprintf("%s has unsaved changes to %s. Save them before going on, or discard them?", name, e.unsavedParts()))
	l.text.Wrapping = fyne.TextWrapWord
	l.problem = form.ProblemLabel()
	parts := []fyne.CanvasObject{l.text}
	if e.dirty() {
		l.note = widgets.NewKeyEntry()
		l.note.SetPlaceHolder("What changed, and why (kept with the revision)")
		parts = append(parts, container.NewBorder(nil, nil, widget.NewLabel("Note:"), nil, l.note))
		if errs := e.saveProblems(); len(errs) > 0 {
			l.problem.SetText(fmt.Sprintf("Cannot be saved as it is: %s (shown beneath the fields). Keep editing to fix it, or discard.", present.Count(len(errs), "problem")))
			l.problem.Show()
		}
	}
	parts = append(parts, l.problem)
	l.keep = widget.NewButton("Keep editing", func() {
		l.dialog.Hide()
		stay()
	})
	l.discard = widget.NewButtonWithIcon("Discard changes", theme.DeleteIcon(), func() {
		l.dialog.Hide()
		e.discardChanges()
		next()
	})
	l.discard.Importance = widget.DangerImportance
	l.save = widget.NewButtonWithIcon("Save and go on", theme.DocumentSaveIcon(), func() {
		l.dialog.Hide()
		if l.note != nil {
			e.saveNow(l.note.Text, next)
			if !e.saving { // refused: the problems show beneath the fields
				stay()
			}
			return
		}
		e.v.checklist.saveThen(func(err error) {
			e.changedState()
			if err == nil {
				next()
			} else {
				stay()
			}
		})
	})
	l.save.Importance = widget.HighImportance
	if l.problem.Visible() {
		l.save.Disable()
	}
	parts = append(parts, container.NewHBox(layout.NewSpacer(), l.keep, l.discard, l.save))
	l.content = container.NewVBox(parts...)
	l.ExtendBaseWidget(l)
	l.dialog = dialog.NewCustomWithoutButtons("Unsaved changes", l, e.v.window)
	l.dialog.Resize(fyne.NewSize(min(640, e.v.window.Canvas().Size().Width*0.9), l.MinSize().Height))
	// Escape keeps editing, as the first button does.
	e.v.dialogs.show(l.dialog, func() {
		l.dialog.Hide()
		stay()
	})
	if l.note != nil {
		e.v.window.Canvas().Focus(l.note)
	}
}
