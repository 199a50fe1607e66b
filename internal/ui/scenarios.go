package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// scenarioList is the left pane: the scenarios in the store, one per row,
// with their workload shape and revision count underneath.
type scenarioList struct {
	backend  Backend
	onSelect func(Item)

	items   []Item
	list    *widget.List
	message *widget.Label // shown instead of the list when it is empty or unreadable
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
			return container.New(&tightVBox{}, name, detail)
		},
		func(id widget.ListItemID, o fyne.CanvasObject) {
			if id < 0 || id >= len(s.items) {
				return
			}
			it := s.items[id]
			labels := o.(*fyne.Container).Objects
			labels[0].(*widget.Label).SetText(itemName(it))
			labels[1].(*widget.Label).SetText(itemDetail(it))
		},
	)
	s.list.OnSelected = func(id widget.ListItemID) {
		if id >= 0 && id < len(s.items) && s.onSelect != nil {
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

	top := container.NewBorder(nil, nil, nil, reload, heading)
	s.content = container.NewBorder(top, nil, nil, nil,
		container.NewStack(s.list, container.NewVBox(s.message)))
	return s
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
	text := shapeTitle(it.Shape)
	if it.Revisions > 0 {
		text += " · " + plural(it.Revisions, "revision")
	}
	return text
}

// tightVBox stacks objects vertically without padding between them, so a
// caption sits close under its title.
type tightVBox struct{}

func (*tightVBox) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objects {
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
	}
	return s
}

func (*tightVBox) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	y := float32(0)
	for _, o := range objects {
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, h))
		y += h
	}
}
