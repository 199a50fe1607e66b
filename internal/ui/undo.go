package ui

import (
	"bytes"
	"time"

	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Undo and redo of the form's edits across fields (Edit ▸ Undo, Ctrl+Z;
// Edit ▸ Redo, Ctrl+Shift+Z). Each step is the inputs as they were before
// one edit: the keys typed into one field in a row are one step, a choice,
// a tick, a row added or removed, a weight moved or Discard another. An
// undone step can be redone until a new edit is made.

// coalesce is how long after the last key a field's typing still adds to
// the same step.
const coalesce = 2 * time.Second

// formState is the inputs at one point of the edits.
type formState struct {
	s    *scenario.Scenario
	b    []byte // canonical JSON, to tell states apart
	path string // the field the edit after it changed ("" when several)
}

// editHistory holds the steps that can be undone and redone.
type editHistory struct {
	undo, redo []formState
	last       formState // the inputs after the last edit recorded
	lastAt     time.Time
}

// snapshot is the state of s, or false when s cannot be written.
func snapshot(s *scenario.Scenario) (formState, bool) {
	b, err := scenario.Marshal(s)
	if err != nil || s == nil {
		return formState{}, false
	}
	return formState{s: scenario.Clone(s), b: b}, true
}

// reset starts the history at s, with nothing to undo or redo.
func (h *editHistory) reset(s *scenario.Scenario) {
	*h = editHistory{}
	if st, ok := snapshot(s); ok {
		h.last = st
	}
}

// record notes an edit of the field at path that made the inputs s: the
// inputs before it become a step to undo, unless it goes on typing into
// the field of the step before, and the steps undone are dropped.
func (h *editHistory) record(s *scenario.Scenario, path string) {
	now, ok := snapshot(s)
	if !ok || bytes.Equal(now.b, h.last.b) {
		return
	}
	same := path != "" && len(h.undo) > 0 && h.undo[len(h.undo)-1].path == path && time.Since(h.lastAt) < coalesce
	if !same && h.last.s != nil {
		before := h.last
		before.path = path
		h.undo = append(h.undo, before)
	}
	h.redo = nil
	h.last = now
	h.lastAt = time.Now()
}

// step moves one step back (undo) or forward: it returns the inputs to
// show and the field of the edit undone or redone, false when there is
// none. cur is the inputs now.
func (h *editHistory) step(cur *scenario.Scenario, back bool) (*scenario.Scenario, string, bool) {
	from, to := &h.undo, &h.redo
	if !back {
		from, to = &h.redo, &h.undo
	}
	if len(*from) == 0 {
		return nil, "", false
	}
	st := (*from)[len(*from)-1]
	*from = (*from)[:len(*from)-1]
	if now, ok := snapshot(cur); ok {
		now.path = st.path
		*to = append(*to, now)
	}
	h.last = st
	h.lastAt = time.Time{} // the next typing is a step of its own
	return scenario.Clone(st.s), st.path, true
}

// undo undoes (back) or redoes an edit: the typing in the entry that has
// the keyboard when it is not one of the form's (the search, a dialog's
// field), else the form's last edit, whichever field it was in.
func (p *planner) undo(back bool) {
	type entryUndo interface {
		Undo()
		Redo()
	}
	f := p.window.Canvas().Focused()
	if e, ok := f.(entryUndo); ok {
		if fe, ok := f.(interface{ inForm() bool }); !ok || !fe.inForm() {
			if back {
				e.Undo()
			} else {
				e.Redo()
			}
			return
		}
	}
	p.view.live.undoEdit(back)
}

// undoEdit undoes the last edit of the inputs (back) or redoes the last
// one undone, shows the inputs in the form where it was scrolled and
// brings the report up to date; it reports false when there is none.
func (e *liveEditor) undoEdit(back bool) bool {
	if e.work == nil {
		return false
	}
	s, path, ok := e.history.step(e.work, back)
	if !ok {
		word := "undo"
		if !back {
			word = "redo"
		}
		e.setStatus("Nothing to "+word+".", widget.MediumImportance)
		return false
	}
	e.work = s
	if e.form != nil {
		e.buildFormInPlace()
	}
	e.changedState()
	e.schedule(0)
	what := "an edit"
	if path != "" {
		if fd, ok := present.Lookup(path); ok {
			what = "the change of " + present.Lower(fd.Label)
		}
	}
	if back {
		e.setStatus("Undid "+what+" (Ctrl+Shift+Z redoes it).", widget.MediumImportance)
	} else {
		e.setStatus("Redid "+what+".", widget.MediumImportance)
	}
	return true
}
