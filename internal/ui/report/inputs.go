package report

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Inputs is the Inputs tab: the scenario's inputs, grouped as in the
// scenario file, one "label: value" row each, in the words of package
// present (the workbook's Inputs sheet uses the same).
type Inputs struct {
	box    *fyne.Container
	scroll *container.Scroll
}

// NewInputs makes the tab, empty until Set.
func NewInputs() *Inputs {
	v := &Inputs{box: container.NewVBox()}
	v.scroll = container.NewVScroll(v.box)
	return v
}

// Content is the tab: the inputs in their scroll.
func (v *Inputs) Content() fyne.CanvasObject { return v.scroll }

// Scroll is the tab's scroll, whose content is the inputs.
func (v *Inputs) Scroll() *container.Scroll { return v.scroll }

// Set shows the inputs of s. All groups share one form, so the values line
// up from top to bottom; each group's title sits in the label column.
func (v *Inputs) Set(s *scenario.Scenario) {
	// The rows go in at once: a container lays itself out again on every
	// Add, which for a hundred wrapping rows is most of a report's redraw.
	var rows []fyne.CanvasObject
	for _, g := range inputGroups(s) {
		heading := widget.NewLabel(g.title)
		heading.TextStyle.Bold = true
		heading.SizeName = theme.SizeNameSubHeadingText
		rows = append(rows, heading, layout.NewSpacer())
		for _, r := range g.rows {
			label := widget.NewLabel(r.label)
			value := widget.NewLabel(r.value)
			value.Wrapping = fyne.TextWrapWord
			rows = append(rows, label, value)
		}
	}
	v.box.Objects = []fyne.CanvasObject{container.New(layout.NewFormLayout(), rows...)}
	v.box.Refresh()
}

// inputGroup is one titled group of inputs.
type inputGroup struct {
	title string
	rows  []inputRow
}

// inputRow is one input as "label: value".
type inputRow struct{ label, value string }

// scenarioSection heads the scenario's own fields (name, currency, seed,
// price overrides), which belong to no section of the file.
const scenarioSection = "Scenario"

// inputGroups lists the inputs s gives, labelled with their units, in
// file order under the headings of the scenario file's sections (the
// scenario's own fields first). Estimates read "likely (low–high,
// estimate)"; choices are written in words.
func inputGroups(s *scenario.Scenario) []inputGroup {
	if s == nil {
		return nil
	}
	var groups []inputGroup
	at := map[string]int{}
	for _, in := range present.Inputs(s) {
		if !in.Given() {
			continue
		}
		title := present.Section(in.Path)
		if title == "" {
			title = scenarioSection
		}
		i, ok := at[title]
		if !ok {
			i = len(groups)
			at[title] = i
			groups = append(groups, inputGroup{title: title})
		}
		groups[i].rows = append(groups[i].rows, inputRow{in.Title(s.Currency), in.Text()})
	}
	return groups
}
