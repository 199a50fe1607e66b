package ui

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// jsonEditor is the "Edit JSON" dialog: the scenario as its canonical JSON
// in a multi-line entry, checked as it is typed, every problem listed as
// "path: problem (allowed: …)", and a button that saves it as a new
// revision, disabled while the text is invalid or unchanged. What is
// already stored is never touched: only a text that parses and validates
// reaches Backend.Save, and the store adds a revision instead of
// overwriting one. It is the dialog's content.
type jsonEditor struct {
	widget.BaseWidget

	backend  Backend
	original *scenario.Scenario
	canon    []byte               // the stored revision's canonical form; saving it again saves nothing
	start    string               // the text as loaded
	exists   func(id string) bool // whether another stored scenario has id
	onSaved  func(id string, rev int)

	content  fyne.CanvasObject // the entry over the status, problems, note and buttons
	entry    *widgets.KeyEntry
	note     *widgets.KeyEntry
	status   *widget.Label
	problems *widget.Label
	validate *widget.Button
	save     *widget.Button
	cancel   *widget.Button
	dialog   *dialog.CustomDialog
	parent   fyne.Window
	dialogs  *dialogs // Escape closes the editor as Cancel does (close)

	parsed *scenario.Scenario // the text's scenario while it is valid and changed
	saving bool
}

// newJSONEditor builds the editor for s; show opens it over w.
func newJSONEditor(w fyne.Window, ds *dialogs, b Backend, s *scenario.Scenario, exists func(string) bool, onSaved func(string, int)) (*jsonEditor, error) {
	canon, err := scenario.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("could not write “%s” as JSON: %w", s.ID, err)
	}
	e := &jsonEditor{backend: b, original: s, canon: canon, start: string(canon), exists: exists, onSaved: onSaved, parent: w, dialogs: ds}

	e.entry = widgets.NewKeyTextArea()
	e.entry.TextStyle = fyne.TextStyle{Monospace: true}
	e.entry.Wrapping = fyne.TextWrapOff
	e.entry.SetText(string(canon))
	e.entry.OnChanged = func(string) { e.check() }

	e.note = widgets.NewKeyEntry()
	e.note.SetPlaceHolder("What changed, and why (kept with the revision)")

	e.status = widget.NewLabel("")
	e.status.Wrapping = fyne.TextWrapWord
	e.problems = widget.NewLabel("")
	e.problems.Wrapping = fyne.TextWrapWord
	e.problems.Importance = widget.DangerImportance
	e.problems.TextStyle = fyne.TextStyle{Monospace: true}

	e.validate = widget.NewButtonWithIcon("Validate", theme.ConfirmIcon(), e.check)
	e.save = widget.NewButtonWithIcon("Save as new revision", theme.DocumentSaveIcon(), e.saveRevision)
	e.save.Importance = widget.HighImportance
	e.cancel = widget.NewButton("Cancel", e.close)

	problems := container.NewVScroll(e.problems)
	problems.SetMinSize(fyne.NewSize(0, 4*textLineHeight()))
	buttons := container.NewHBox(e.cancel, e.validate, e.save)
	noteRow := container.NewBorder(nil, nil, widget.NewLabel("Note:"), nil, e.note)
	bottom := container.NewVBox(e.status, problems, noteRow, container.NewBorder(nil, nil, nil, buttons))
	e.content = container.NewBorder(nil, bottom, nil, nil, e.entry)
	e.ExtendBaseWidget(e)

	e.dialog = dialog.NewCustomWithoutButtons("Edit “"+itemName(Item{ID: s.ID, Name: s.Name})+"” as JSON", e, w)
	e.check()
	return e, nil
}

// CreateRenderer implements fyne.Widget.
func (e *jsonEditor) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(e.content)
}

// textLineHeight is the height of one line of body text.
func textLineHeight() float32 {
	return fyne.MeasureText("Mg", theme.TextSize(), fyne.TextStyle{}).Height
}

// show opens the dialog, nearly as large as the window.
func (e *jsonEditor) show() {
	size := e.parent.Canvas().Size()
	e.dialog.Resize(fyne.NewSize(max(600, size.Width*0.9), max(500, size.Height*0.9)))
	e.dialogs.show(e.dialog, e.close)
	e.parent.Canvas().Focus(e.entry)
}

// check parses the text and shows what is wrong with it, enabling Save
// only for a valid, changed scenario. It runs on every keystroke.
func (e *jsonEditor) check() {
	text := []byte(e.entry.Text)
	s, err := scenario.Parse(text)
	e.parsed = nil
	switch {
	case err != nil:
		lines := problemLines(err)
		e.status.Importance = widget.DangerImportance
		e.status.SetText(present.Count(len(lines), "problem") + " to fix before saving:")
		e.problems.SetText(strings.Join(lines, "\n"))
	case bytes.Equal(canonical(s), e.canon):
		e.status.Importance = widget.MediumImportance
		e.status.SetText("Valid, and the same as the stored revision: nothing to save yet.")
		e.problems.SetText("")
	default:
		e.parsed = s
		e.status.Importance = widget.MediumImportance
		e.status.SetText(e.validMessage(s))
		e.problems.SetText("")
	}
	e.setButtons()
}

// validMessage says what saving the valid text will do.
func (e *jsonEditor) validMessage(s *scenario.Scenario) string {
	if s.ID == e.original.ID {
		return "Valid: saving adds a new revision; the earlier ones stay as they are."
	}
	if e.exists != nil && e.exists(s.ID) {
		return fmt.Sprintf("Valid, but the id changed to “%s”, which another stored scenario has: saving adds a revision to that scenario; “%s” stays as it is.", s.ID, e.original.ID)
	}
	return fmt.Sprintf("Valid: the id changed, so saving creates the new scenario “%s”; “%s” stays as it is.", s.ID, e.original.ID)
}

func (e *jsonEditor) setButtons() {
	if e.parsed == nil || e.saving {
		e.save.Disable()
	} else {
		e.save.Enable()
	}
	if e.saving {
		e.validate.Disable()
		e.cancel.Disable()
	} else {
		e.validate.Enable()
		e.cancel.Enable()
	}
}

// canonical is s in its stored form; nil when it cannot be written.
func canonical(s *scenario.Scenario) []byte {
	b, err := scenario.Marshal(s)
	if err != nil {
		return nil
	}
	return b
}

// problemLines turns an error from scenario.Parse or Backend.Save into
// lines, one per problem: "path: problem (allowed: …)".
func problemLines(err error) []string {
	var errs scenario.Errors
	if errors.As(err, &errs) && len(errs) > 0 {
		lines := make([]string, len(errs))
		for i, fe := range errs {
			lines[i] = problemLine(fe)
		}
		return lines
	}
	return strings.Split(err.Error(), "\n")
}

// problemLine is one problem in words: the field's label, what is wrong
// and what is allowed, with the JSON path after it (the editor shows the
// JSON, so the path finds the place).
func problemLine(fe scenario.FieldError) string {
	f, ok := present.Lookup(fe.Path)
	if !ok || fe.Path == "" {
		return fe.Error()
	}
	line := f.Label + ": " + fe.Problem
	if fe.Allowed != "" {
		line += " (allowed: " + fe.Allowed + ")"
	}
	return line + " — at " + fe.Path
}

// saveRevision checks the text once more and saves it off the UI
// goroutine; the dialog closes when the save succeeds and shows the
// backend's objections when it does not.
func (e *jsonEditor) saveRevision() {
	e.check()
	s := e.parsed
	if s == nil || e.saving {
		return
	}
	note := strings.TrimSpace(e.note.Text)
	if note == "" {
		note = "edited as JSON"
	}
	e.saving = true
	e.setButtons()
	e.status.Importance = widget.MediumImportance
	e.status.SetText("Saving…")
	b := e.backend
	inBackground(func() func() {
		rev, err := safeSave(b, s, note)
		return func() { e.saved(s.ID, rev, err) }
	})
}

// saved applies the outcome of a save.
func (e *jsonEditor) saved(id string, rev int, err error) {
	e.saving = false
	if err != nil {
		lines := problemLines(err)
		e.status.Importance = widget.DangerImportance
		e.status.SetText("Not saved: nothing was written. " + present.Count(len(lines), "problem") + ":")
		e.problems.SetText(strings.Join(lines, "\n"))
		e.setButtons()
		return
	}
	e.dialog.Hide()
	if e.onSaved != nil {
		e.onSaved(id, rev)
	}
}

// close asks before throwing away changes.
func (e *jsonEditor) close() {
	if e.entry.Text == e.start {
		e.dialog.Hide()
		return
	}
	e.dialogs.showDialog(dialog.NewConfirm("Discard the changes?", "The edited JSON has not been saved.", func(ok bool) {
		if ok {
			e.dialog.Hide()
		}
	}, e.parent))
}

// safeSave is Backend.Save with a panic turned into an error.
func safeSave(b Backend, s *scenario.Scenario, note string) (rev int, err error) {
	defer func() {
		if p := recover(); p != nil {
			rev, err = 0, fmt.Errorf("internal error: %v", p)
		}
	}()
	return b.Save(s, note)
}
