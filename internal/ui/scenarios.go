package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
)

// scenarioList is the left pane: the scenarios in the store, one per row,
// with their workload shape and revision count underneath.
type scenarioList struct {
	backend  Backend
	onSelect func(Item)
	onImport func() // the Import… button
	onNew    func() // the New… button

	// In compare mode each row has a tick box, and choosing a row ticks
	// or unticks it instead of showing it.
	comparing bool
	isTicked  func(id string) bool
	onTick    func(it Item) // ticks or unticks, and redraws the boxes
	onCompare func(on bool) // the Compare button
	onReload  func([]Item)  // after every reload, with the new items
	quiet     bool          // a selection that only marks a row
	compare   *widget.Button

	items   []Item
	list    *widget.List
	message *widget.Label // shown instead of the list when it is empty or unreadable
	notice  *widget.Label // what the last save did
	content fyne.CanvasObject
}

func newScenarioList(b Backend, onSelect func(Item)) *scenarioList {
	s := &scenarioList{backend: b, onSelect: onSelect}

	s.list = widget.NewList(
		func() int { return len(s.items) },
		func() fyne.CanvasObject {
			name := widget.NewLabel("Scenario name")
			name.TextStyle.Bold = true
			name.Truncation = fyne.TextTruncateEllipsis
			detail := widget.NewLabel("Workload shape")
			detail.SizeName = theme.SizeNameCaptionText
			detail.Truncation = fyne.TextTruncateEllipsis
			tick := widget.NewCheck("", nil)
			tick.Hide()
			return container.NewBorder(nil, nil, tick, nil, container.New(&tightVBox{}, name, detail))
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < 0 || id >= len(s.items) {
				return
			}
			it := s.items[id]
			row := o.(*fyne.Container)
			labels := row.Objects[0].(*fyne.Container).Objects
			labels[0].(*widget.Label).SetText(itemName(it))
			labels[1].(*widget.Label).SetText(itemDetail(it))
			tick := row.Objects[1].(*widget.Check)
			tick.OnChanged = nil // the row is reused: set the box without ticking
			tick.SetChecked(s.comparing && s.isTicked != nil && s.isTicked(it.ID))
			tick.OnChanged = func(bool) { s.tick(it) }
			showIf(tick, s.comparing)
			row.Refresh()
		},
	)
	s.list.OnSelected = func(id widget.ListItemID) {
		if id < 0 || id >= len(s.items) {
			return
		}
		if s.comparing {
			s.list.Unselect(id)
			s.tick(s.items[id])
			return
		}
		if !s.quiet && s.onSelect != nil {
			s.onSelect(s.items[id])
		}
	}

	s.message = widget.NewLabel("")
	s.message.Wrapping = fyne.TextWrapWord
	s.message.Hide()

	heading := widget.NewLabel("Scenarios")
	heading.TextStyle.Bold = true
	reload := widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), s.reload)
	reload.Importance = widget.LowImportance

	importButton := widget.NewButtonWithIcon("Import…", theme.FolderOpenIcon(), func() {
		if s.onImport != nil {
			s.onImport()
		}
	})
	importButton.Importance = widget.LowImportance
	newButton := widget.NewButtonWithIcon("New…", theme.ContentAddIcon(), func() {
		if s.onNew != nil {
			s.onNew()
		}
	})
	newButton.Importance = widget.LowImportance
	s.notice = widget.NewLabel("")
	s.notice.Wrapping = fyne.TextWrapWord
	s.notice.SizeName = theme.SizeNameCaptionText
	s.notice.Importance = widget.SuccessImportance
	s.notice.Hide()

	s.compare = widget.NewButtonWithIcon("Compare", theme.ViewRestoreIcon(), func() {
		if s.onCompare != nil {
			s.onCompare(!s.comparing)
		}
	})
	s.compare.Importance = widget.LowImportance

	// The actions sit on a row of their own so the pane keeps its width.
	actions := container.NewHBox(newButton, importButton, s.compare)
	top := container.NewVBox(container.NewBorder(nil, nil, nil, reload, heading), actions, s.notice)
	s.content = container.NewBorder(top, nil, nil, nil,
		container.NewStack(s.list, container.NewVBox(s.message)))
	return s
}

// tick ticks or unticks a row in compare mode.
func (s *scenarioList) tick(it Item) {
	if s.onTick != nil {
		s.onTick(it)
	}
}

// setComparing switches the tick boxes on or off.
func (s *scenarioList) setComparing(on bool) {
	s.comparing = on
	s.list.UnselectAll()
	if on {
		s.compare.SetText("Done")
		s.compare.Importance = widget.HighImportance
	} else {
		s.compare.SetText("Compare")
		s.compare.Importance = widget.LowImportance
	}
	s.compare.Refresh()
	s.list.Refresh()
}

// notify shows what the last action did above the list.
func (s *scenarioList) notify(text string) {
	s.notice.SetText(text)
	s.notice.Show()
}

// item returns the listed scenario with id.
func (s *scenarioList) item(id string) (Item, bool) {
	for _, it := range s.items {
		if it.ID == id {
			return it, true
		}
	}
	return Item{}, false
}

// has reports whether a listed scenario has id.
func (s *scenarioList) has(id string) bool {
	_, ok := s.item(id)
	return ok
}

// markID selects the row of scenario id without choosing it again.
func (s *scenarioList) markID(id string) {
	for i, it := range s.items {
		if it.ID == id {
			s.quiet = true
			s.list.Select(i)
			s.quiet = false
			return
		}
	}
}

// selectID chooses the scenario with id, which shows it; false when the
// list has no such scenario.
func (s *scenarioList) selectID(id string) bool {
	for i, it := range s.items {
		if it.ID == id {
			s.list.ScrollTo(i)
			s.list.Select(i) // last: it starts the evaluation
			return true
		}
	}
	return false
}

// reload reads the scenarios from the store again. A failure is shown in
// place of the list.
func (s *scenarioList) reload() {
	items, err := s.backend.List()
	s.list.UnselectAll()
	switch {
	case err != nil:
		s.items = nil
		s.showMessage(fmt.Sprintf("Could not read the scenarios: %v", err), widget.DangerImportance)
	case len(items) == 0:
		s.items = nil
		s.showMessage("No scenarios in the store yet.", widget.MediumImportance)
	default:
		s.items = items
		s.message.Hide()
	}
	s.list.Refresh()
	if s.onReload != nil {
		s.onReload(s.items)
	}
}

func (s *scenarioList) showMessage(text string, imp widget.Importance) {
	s.message.Importance = imp
	s.message.SetText(text)
	s.message.Show()
}

// itemName is the list's main line: the scenario's name, or its id when it
// has none.
func itemName(it Item) string {
	if it.Name != "" {
		return it.Name
	}
	return it.ID
}

// itemDetail is the list's second line: "Fine-tuning · 3 revisions".
func itemDetail(it Item) string {
	text := present.ShapeTitle(it.Shape)
	if it.Revisions > 0 {
		text += " · " + present.Count(it.Revisions, "revision")
	}
	return text
}

// tightVBox stacks the visible objects vertically without padding between
// them, so a caption sits close under its title.
type tightVBox struct{}

func (*tightVBox) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
	}
	return s
}

func (*tightVBox) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		// A wrapping label's height depends on its width: set the width
		// first, then ask.
		o.Resize(fyne.NewSize(size.Width, o.Size().Height))
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}
