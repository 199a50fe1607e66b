package ui

import (
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/report"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// The planner's side of editing: a new scenario (button, and File › New
// scenario with Ctrl+N), saving (File › Save with Ctrl+S: menu.go), and the question asked before unsaved edits would be
// lost — choosing another scenario, starting a new one, closing the
// window.

// wireEditing connects the live editor to the list and the window.
func (p *planner) wireEditing() {
	e := p.view.live
	e.exists = p.scenarios.has
	e.onSaved = p.savedFromForm
	e.onUnsaved = func(bool) { p.updateTitle() }
	p.view.checklist.onChange = e.changedState
	p.scenarios.onNew = p.chooseNew
	p.window.SetCloseIntercept(p.requestClose)
}

// choose shows the scenario chosen in the list, asking first when the
// one on show has unsaved edits; keeping them marks its row again.
func (p *planner) choose(it Item) {
	p.view.live.confirmLeave(func() {
		p.scenarios.markID(it.ID) // a save on the way reloads the list
		p.showChosen(it)
	}, p.markShown)
}

// markShown marks the row of the scenario on show, or none.
func (p *planner) markShown() {
	if id := p.view.shownID(); id != "" {
		p.scenarios.markID(id)
		return
	}
	p.scenarios.list.UnselectAll()
}

// chooseNew offers the templates of a new scenario; the chosen one opens
// in the form, once unsaved edits are saved or discarded.
func (p *planner) chooseNew() {
	t := newTemplatePicker(p.window, func(t template) {
		p.view.live.confirmLeave(func() { p.startNew(t) }, p.markShown)
	})
	p.dialogs.showDialog(t.dialog)
}

// startNew opens a new scenario from t in the form, unsaved.
func (p *planner) startNew(t template) {
	p.setComparing(false)
	s := newFromTemplate(t, p.scenarios.has)
	p.scenarios.list.UnselectAll()
	p.view.startNew(s)
}

// savedFromForm shows a revision saved from the form in the list, and
// marks its row.
func (p *planner) savedFromForm(id string, rev int) {
	p.scenarios.reload()
	name := id
	if it, ok := p.scenarios.item(id); ok {
		name = itemName(it)
	}
	p.scenarios.notify("Saved “" + name + "”, revision " + report.Whole(rev) + ".")
	p.scenarios.markID(id)
}

// requestClose closes the window, asking first about unsaved edits.
func (p *planner) requestClose() {
	p.view.live.confirmLeave(p.window.Close, nil)
}

// startNew shows a new scenario, not stored yet, in the form beside its
// report, which appears once it evaluates.
func (v *scenarioView) startNew(s *scenario.Scenario) {
	v.gen++
	if v.cancel != nil {
		v.cancel()
	}
	v.current, v.shown = nil, ""
	v.showMessage("Evaluating the new scenario…", widget.MediumImportance)
	v.live.beginNew(s)
}

// updateTitle titles the window with what it shows — the scenario on show
// (as its form names it while edited) or the comparison — and whether it
// has unsaved edits: "Contract review • unsaved — hostplan".
func (p *planner) updateTitle() {
	p.window.SetTitle(windowTitleFor(p.shownName(), p.view.live.unsaved()))
}

// shownName is the name of what the window shows, "" for nothing.
func (p *planner) shownName() string {
	v := p.view
	switch {
	case p.scenarios.comparing:
		if n := len(p.compare.ticked); n > 0 {
			return "Comparing " + present.Count(n, "scenario")
		}
		return ""
	case v.live.work != nil:
		s := v.live.work
		switch {
		case s.Name != "":
			return s.Name
		case s.ID != "":
			return s.ID
		}
		return "New scenario"
	case v.current != nil:
		return report.ReportTitle(v.current.s, v.current.r)
	}
	return ""
}

// windowTitleFor is the window's title for what it shows.
func windowTitleFor(name string, unsaved bool) string {
	if unsaved {
		name += " • unsaved"
	}
	if name == "" {
		return windowTitle
	}
	return name + " — " + windowTitle
}
