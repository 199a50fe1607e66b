package ui

import (
	"context"
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/atomicfile"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// The actions on one stored scenario that the list's row menu and the
// Scenario and File menus offer: rename, delete (with undo), export its
// workbook, save its brief. The history and restore are in history.go.

// target is the scenario the Scenario and File menus act on: the one the
// right pane shows, or else the list's chosen row.
func (p *planner) target() (Item, bool) {
	if ev := p.view.current; ev != nil && p.view.shownID() == ev.item.ID {
		if it, ok := p.scenarios.item(ev.item.ID); ok {
			return it, true
		}
		return ev.item, true
	}
	return p.scenarios.chosen()
}

// onTarget runs f on the menus' scenario, or says there is none.
func (p *planner) onTarget(f func(Item)) {
	it, ok := p.target()
	if !ok {
		p.scenarios.notify("Choose a scenario in the list first.")
		return
	}
	f(it)
}

// rename asks for a new name for it and saves it as a new revision.
func (p *planner) rename(it Item) {
	b := p.backend
	inBackground(func() func() {
		s, err := safeLoad(b, it.ID)
		return func() {
			if err != nil {
				p.showProblems(fmt.Sprintf("Could not rename “%s”", itemName(it)), []string{err.Error()})
				return
			}
			p.askName(it, s)
		}
	})
}

// askName is the rename dialog: the name, its problem beneath it, and
// Rename, which stays disabled while the name is not valid.
func (p *planner) askName(it Item, s *scenario.Scenario) {
	var d dialog.Dialog
	name := newEscEntry(func() { d.Hide() })
	name.SetText(s.Name)
	problem := widget.NewLabel("")
	problem.Importance = widget.DangerImportance
	problem.Wrapping = fyne.TextWrapWord
	problem.Hide()
	var ok *widget.Button
	save := func() {
		n := strings.TrimSpace(name.Text)
		if n == s.Name {
			d.Hide()
			return
		}
		c := scenario.Clone(s)
		c.Name = n
		ok.Disable()
		b, note := p.backend, fmt.Sprintf("renamed from “%s”", s.Name)
		inBackground(func() func() {
			rev, err := safeSave(b, c, note)
			return func() {
				ok.Enable()
				if err != nil {
					problem.SetText(strings.Join(problemLines(err), "\n"))
					problem.Show()
					return
				}
				d.Hide()
				p.afterSave(c.ID, rev, "Renamed as")
			}
		})
	}
	ok = widget.NewButton("Rename", save)
	ok.Importance = widget.HighImportance
	name.OnChanged = func(text string) {
		c := scenario.Clone(s)
		c.Name = strings.TrimSpace(text)
		var lines []string
		for _, e := range scenario.Validate(c) {
			if e.Path == "name" {
				lines = append(lines, "Name: "+e.Problem+" ("+e.Allowed+")")
			}
		}
		if lines != nil {
			problem.SetText(strings.Join(lines, "\n"))
			problem.Show()
			ok.Disable()
			return
		}
		problem.Hide()
		ok.Enable()
	}
	name.OnSubmitted = func(string) {
		if !ok.Disabled() {
			save()
		}
	}
	cancel := widget.NewButton("Cancel", func() { d.Hide() })
	intro := widget.NewLabel(fmt.Sprintf("A new name for scenario %s, saved as a new revision:", s.ID))
	intro.Wrapping = fyne.TextWrapWord
	body := container.NewVBox(intro, name, problem, container.NewHBox(layout.NewSpacer(), cancel, ok))
	d = dialog.NewCustomWithoutButtons("Rename scenario", container.New(&widgets.MinWidth{Width: 480}, body), p.window)
	p.dialogs.showDialog(d)
	p.window.Canvas().Focus(name)
}

// deleteScenario deletes it; the notice above the list offers to undo it.
func (p *planner) deleteScenario(it Item) {
	k := p.backend
	inBackground(func() func() {
		err := safeCall(func() error { return k.Delete(it.ID) })
		return func() {
			if err != nil {
				p.showProblems(fmt.Sprintf("Could not delete “%s”", itemName(it)), []string{err.Error()})
				return
			}
			shown := p.view.shownID() == it.ID
			p.scenarios.reload()
			if shown {
				p.view.clear(fmt.Sprintf("“%s” was deleted. Undo, above the list, brings it back.", itemName(it)))
			}
			p.scenarios.notifyUndo(fmt.Sprintf("Deleted “%s”.", itemName(it)), func() { p.undelete(it) })
		}
	})
}

// undelete brings back a deleted scenario and chooses it.
func (p *planner) undelete(it Item) {
	k := p.backend
	inBackground(func() func() {
		err := safeCall(func() error { return k.Undelete(it.ID) })
		return func() {
			if err != nil {
				p.showProblems(fmt.Sprintf("Could not bring back “%s”", itemName(it)), []string{err.Error()})
				return
			}
			p.setComparing(false)
			p.scenarios.reload()
			p.scenarios.notify(fmt.Sprintf("Brought back “%s”.", itemName(it)))
			p.scenarios.selectID(it.ID)
		}
	})
}

// exportWorkbook asks where to write the workbook of it and writes it, as
// "hostplan export ID -o PATH" does.
func (p *planner) exportWorkbook(it Item) {
	x := p.backend
	p.askSavePath(saveTarget{
		title:  "Export workbook",
		done:   "Workbook written",
		what:   fmt.Sprintf("the workbook of “%s”", itemName(it)),
		action: "Export",
		name:   fileNameOf(it.ID, ".xlsx"),
		ext:    ".xlsx",
		write: func(path string) error {
			return x.ExportWorkbook(context.Background(), it.ID, path)
		},
	})
}

// saveBrief asks where to write the brief the Brief tab shows, as
// Markdown, and writes it, as "hostplan brief ID -o PATH" does.
func (p *planner) saveBrief() {
	ev := p.view.current
	md := p.view.brief.markdown
	if ev == nil || p.view.shownID() == "" {
		p.scenarios.notify("Choose a scenario in the list first.")
		return
	}
	if md == nil {
		p.showProblems("No brief to save", []string{fmt.Sprintf("“%s” has no brief yet: its Brief tab lists the fields to fill in.", itemName(ev.item))})
		return
	}
	p.askSavePath(saveTarget{
		title:  "Save brief",
		done:   "Brief saved",
		what:   fmt.Sprintf("the brief of “%s”", itemName(ev.item)),
		action: "Save",
		name:   briefFileName(ev.item.ID),
		ext:    ".md",
		write:  func(path string) error { return atomicfile.WriteFile(path, md, 0o644) },
	})
}

// safeLoad is Backend.Load with a panic turned into an error.
func safeLoad(b Backend, id string) (s *scenario.Scenario, err error) {
	err = safeCall(func() error {
		s, err = b.Load(id)
		if err == nil && s == nil {
			err = fmt.Errorf("the store returned nothing for %s", id)
		}
		return err
	})
	return s, err
}

// safeCall runs f with a panic turned into an error.
func safeCall(f func() error) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error: %v", r)
		}
	}()
	return f()
}

// clear empties the right pane and says why: the scenario it showed is
// gone. An evaluation still running is dropped.
func (v *scenarioView) clear(message string) {
	v.gen++
	if v.cancel != nil {
		v.cancel()
	}
	v.shown = ""
	v.current = nil
	v.showMessage(message, widget.MediumImportance)
}
