package ui

import (
	"errors"
	"fmt"
	"maps"
	"strings"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/brief"
	"hostplan/internal/ui/widgets"
)

// checklistView is the Checklist tab: the readiness checklist items that
// apply to the scenario's workload shape, grouped, each with its status
// and owner, and a button that stores the changes. When the stored state
// could not be read the tab is read-only, so that nothing stored is
// overwritten.
type checklistView struct {
	backend Backend

	id, shape string
	loaded    brief.ChecklistState // the stored state the rows started from
	entries   []brief.Entry        // the applicable items as loaded
	rows      []*checklistRow      // one per entry, in the same order
	editable  bool
	saving    bool

	note    *widget.Label // read-only or read-error note
	summary *widget.Label
	status  *widget.Label // "Saved." or why the save failed: the text of line
	line    *widgets.StatusLine
	save    *widgets.TipButton
	list    *fyne.Container
	scroll  *container.Scroll
	content fyne.CanvasObject

	// onSaved is called on the UI goroutine after a successful save with
	// the scenario's id and the state stored.
	onSaved func(id string, st brief.ChecklistState)
	// onChange is called after every edit of a row and every save, when
	// whether there are unsaved edits may have changed.
	onChange func()
	// done is called once with the outcome of the save in progress.
	done func(error)
}

// checklistRow is the widgets of one item.
type checklistRow struct {
	status *widgets.KeySelect
	owner  *widgets.KeyEntry
}

// Status choices as the Select shows them.
var statusLabels = map[brief.Status]string{
	brief.StatusOpen:          "open",
	brief.StatusDone:          "done",
	brief.StatusNotApplicable: "not applicable",
}

func statusOptions() []string {
	out := make([]string, len(brief.Statuses))
	for i, s := range brief.Statuses {
		out[i] = statusLabels[s]
	}
	return out
}

func statusFromLabel(label string) brief.Status {
	for s, l := range statusLabels {
		if l == label {
			return s
		}
	}
	return brief.StatusOpen
}

func newChecklistView(b Backend) *checklistView {
	v := &checklistView{backend: b}
	v.note = widget.NewLabel("")
	v.note.Wrapping = fyne.TextWrapWord
	v.note.Hide()
	v.summary = widget.NewLabel("")
	v.summary.TextStyle.Bold = true
	v.summary.Wrapping = fyne.TextWrapWord
	v.status = widget.NewLabel("")
	v.line = widgets.NewStatusLine(v.status, 2, nil)
	v.save = widgets.NewTipButton("Save checklist", theme.DocumentSaveIcon(), "Store the checklist's state with the scenario", v.saveChanges)
	v.save.Disable()
	v.list = container.NewVBox()
	v.scroll = container.NewVScroll(v.list)
	top := container.NewVBox(
		container.NewBorder(nil, nil, nil, v.save, v.summary),
		v.note, v.line, widget.NewSeparator())
	v.content = container.NewBorder(top, nil, nil, nil, v.scroll)
	return v
}

// set shows the checklist of scenario id, of workload shape shape, from
// its stored state st; readErr is why the state could not be read.
func (v *checklistView) set(id, shape string, st brief.ChecklistState, readErr error) {
	v.id, v.shape = id, shape
	v.loaded = maps.Clone(st)
	if v.loaded == nil {
		v.loaded = brief.ChecklistState{}
	}
	v.entries = brief.Checklist(shape, v.loaded)
	v.status.SetText("")

	v.editable = false
	v.note.Importance = widget.MediumImportance
	switch {
	case id == "":
		v.note.SetText("Save the scenario to keep its checklist.")
		v.note.Show()
	case readErr != nil:
		v.note.Importance = widget.DangerImportance
		v.note.SetText(fmt.Sprintf("The stored checklist could not be read (%v): every item shows as open, and it cannot be edited here, so that nothing stored is overwritten.", readErr))
		v.note.Show()
	default:
		v.editable = true
		v.note.Hide()
	}
	if v.editable {
		v.save.Show()
	} else {
		v.save.Hide()
	}

	v.rows = make([]*checklistRow, len(v.entries))
	var objs []fyne.CanvasObject
	group := ""
	for i, e := range v.entries {
		if e.Group != group {
			group = e.Group
			objs = append(objs, widgets.SectionHeading(brief.GroupTitle(group)))
		}
		row := v.newRow(e)
		v.rows[i] = row
		text := widget.NewLabel(e.Text)
		text.Wrapping = fyne.TextWrapWord
		controls := container.New(layout.NewGridWrapLayout(fyne.NewSize(160, row.status.MinSize().Height)), row.status, row.owner)
		objs = append(objs, container.NewBorder(nil, nil, nil, controls, text))
	}
	if len(v.entries) == 0 {
		objs = append(objs, widget.NewLabel("No checklist items apply to this workload shape."))
	}
	v.list.Objects = objs
	v.list.Refresh()
	v.scroll.ScrollToTop()
	v.changed()
}

// newRow makes the widgets of one entry, set to its state; their change
// callbacks are attached after, so that setting them is no change.
func (v *checklistView) newRow(e brief.Entry) *checklistRow {
	r := &checklistRow{
		status: widgets.NewKeySelect(statusOptions(), nil),
		owner:  widgets.NewKeyEntry(),
	}
	r.status.SetSelected(statusLabels[e.Status])
	r.owner.SetPlaceHolder("owner")
	r.owner.SetText(e.Owner)
	r.status.OnChanged = func(string) { v.changed() }
	r.owner.OnChanged = func(string) { v.changed() }
	if !v.editable {
		r.status.Disable()
		r.owner.Disable()
	}
	return r
}

// rowState is what row i currently says.
func (v *checklistView) rowState(i int) brief.ItemState {
	r := v.rows[i]
	return brief.ItemState{Status: statusFromLabel(r.status.Selected), Owner: strings.TrimSpace(r.owner.Text)}
}

// dirty reports whether any row differs from the stored state.
func (v *checklistView) dirty() bool {
	for i, e := range v.entries {
		if v.rowState(i) != (brief.ItemState{Status: e.Status, Owner: e.Owner}) {
			return true
		}
	}
	return false
}

// summaryText counts the rows: "N of M done, K open without an owner".
func (v *checklistView) summaryText() string {
	done, unowned := 0, 0
	for i := range v.entries {
		s := v.rowState(i)
		switch {
		case s.Status == brief.StatusDone:
			done++
		case s.Status == brief.StatusOpen && s.Owner == "":
			unowned++
		}
	}
	return report.Whole(done) + " of " + report.Whole(len(v.entries)) + " done, " + report.Whole(unowned) + " open without an owner"
}

// state is the checklist state to store: the stored one with the changed
// rows replaced. Rows left as they were keep their stored form, and ids
// the checklist no longer has are kept.
func (v *checklistView) state() (brief.ChecklistState, error) {
	st := maps.Clone(v.loaded)
	for i, e := range v.entries {
		s := v.rowState(i)
		if s == (brief.ItemState{Status: e.Status, Owner: e.Owner}) {
			continue
		}
		if err := st.Set(v.shape, e.ID, s.Status, s.Owner); err != nil {
			return nil, err
		}
		st[e.ID] = s // Set keeps the old owner when the new one is empty
		if s == (brief.ItemState{Status: brief.StatusOpen}) {
			delete(st, e.ID) // open with no owner is what an absent item means
		}
	}
	return st, nil
}

// changed updates the summary and the Save button after an edit.
func (v *checklistView) changed() {
	v.summary.SetText(v.summaryText())
	if v.dirty() {
		v.status.SetText("")
	}
	v.setSave()
	if v.onChange != nil {
		v.onChange()
	}
}

// shows reports whether the tab shows the checklist of scenario id of
// workload shape shape.
func (v *checklistView) shows(id, shape string) bool {
	return v.rows != nil && v.id == id && v.shape == shape
}

// revert sets every row back to the stored state.
func (v *checklistView) revert() {
	v.set(v.id, v.shape, v.loaded, nil)
}

// saveThen saves the edited state, then calls done with the outcome
// (nil when there was nothing to save).
func (v *checklistView) saveThen(done func(error)) {
	if !v.editable || v.saving || !v.dirty() {
		done(nil)
		return
	}
	v.done = done
	v.saveChanges()
	if !v.saving { // refused before it started
		v.done = nil
		done(errors.New(v.status.Text))
	}
}

func (v *checklistView) setSave() {
	if v.editable && !v.saving && v.dirty() {
		v.save.Enable()
	} else {
		v.save.Disable()
	}
}

// saveChanges stores the edited state off the UI goroutine.
func (v *checklistView) saveChanges() {
	w := v.backend
	if !v.editable || v.saving || !v.dirty() {
		return
	}
	st, err := v.state()
	if err != nil {
		v.showStatus("Not saved: "+err.Error(), widget.DangerImportance)
		return
	}
	v.saving = true
	v.setSave()
	v.showStatus("Saving…", widget.MediumImportance)
	id := v.id
	inBackground(func() func() {
		err := safeSaveChecklist(w, id, st)
		return func() { v.saved(id, st, err) }
	})
}

// saved applies the outcome of a save of scenario id's state st.
func (v *checklistView) saved(id string, st brief.ChecklistState, err error) {
	v.saving = false
	if done := v.done; done != nil {
		v.done = nil
		defer done(err)
	}
	if id != v.id { // another scenario is shown now
		return
	}
	if err != nil {
		v.showStatus("Not saved: "+err.Error(), widget.DangerImportance)
		v.setSave()
		return
	}
	v.loaded = maps.Clone(st)
	v.entries = brief.Checklist(v.shape, v.loaded)
	v.showStatus("Saved.", widget.SuccessImportance)
	v.setSave()
	if v.onChange != nil {
		v.onChange()
	}
	if v.onSaved != nil {
		v.onSaved(id, maps.Clone(st))
	}
}

func (v *checklistView) showStatus(text string, imp widget.Importance) {
	v.line.Set(text, imp)
}

// safeSaveChecklist is SaveChecklist with a panic turned into an error.
func safeSaveChecklist(w Backend, id string, st brief.ChecklistState) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	return w.SaveChecklist(id, st)
}

// rebriefed is the brief of ev written again with checklist state st, as
// makeBrief would write it from the store.
func rebriefed(ev *evaluation, st brief.ChecklistState) (res briefResult) {
	defer func() {
		if p := recover(); p != nil {
			res = briefResult{err: fmt.Errorf("internal error: %v", p)}
		}
	}()
	res.checklist = st
	res.doc, res.err = brief.Build(ev.s, ev.r, ev.dec, st)
	return res
}
