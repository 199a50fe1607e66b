package ui

import (
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/form"
	"hostplan/internal/ui/widgets"
	"hostplan/scenarios"
)

// A new scenario starts from a template — one of the example scenarios
// for each workload shape — or blank, and opens in the form unsaved.

// template is a starting point for a new scenario.
type template struct {
	shape   string             // "" for the blank scenario
	example *scenario.Scenario // nil for the blank scenario
}

// templates are the first example of each workload shape, in the order of
// scenario.Shapes, from the examples embedded in the binary (those that
// seed a new store).
var templates = sync.OnceValue(func() []template {
	names, err := fs.Glob(scenarios.FS, "*.json")
	if err != nil {
		return nil
	}
	slices.Sort(names)
	first := map[string]*scenario.Scenario{}
	for _, n := range names {
		b, err := fs.ReadFile(scenarios.FS, n)
		if err != nil {
			continue
		}
		s, err := scenario.Parse(b)
		if err != nil || first[s.Workload.Shape] != nil {
			continue
		}
		first[s.Workload.Shape] = s
	}
	var out []template
	for _, shape := range scenario.Shapes {
		if s := first[shape]; s != nil {
			out = append(out, template{shape: shape, example: s})
		}
	}
	return out
})

// newFromTemplate is a new scenario from t, under an id no stored
// scenario has (taken says which are).
func newFromTemplate(t template, taken func(string) bool) *scenario.Scenario {
	if t.example == nil {
		return blankScenario(taken)
	}
	s := scenario.Clone(t.example)
	s.ID = freeID("new-"+strings.ReplaceAll(t.shape, "_", "-"), taken)
	s.Name = "New " + present.Lower(present.ShapeTitle(t.shape)) + " scenario"
	s.Description = "Started from the example “" + t.example.Name + "”."
	return s
}

// blankScenario has only what a scenario cannot do without and has no
// better guess for: the current schema, an id, a name, US dollars, equal
// weights, a three-year horizon and the seven lifecycle stages, open.
func blankScenario(taken func(string) bool) *scenario.Scenario {
	s := &scenario.Scenario{
		SchemaVersion: scenario.SchemaVersion,
		ID:            freeID("new-scenario", taken),
		Name:          "New scenario",
		Currency:      "USD",
	}
	for _, st := range scenario.LifecycleStages {
		s.Data.Lifecycle = append(s.Data.Lifecycle, scenario.LifecycleStage{Stage: st, Status: "open"})
	}
	d := &s.Dimensions
	d.Sovereignty.Weight, d.WorkloadShape.Weight, d.Operations.Weight, d.Economics.Weight, d.Optionality.Weight = 1, 1, 1, 1, 1
	d.Economics.HorizonMonths = 36
	return s
}

// freeID is base, or base-2, base-3, … when taken says base is used.
func freeID(base string, taken func(string) bool) string {
	id := base
	for n := 2; taken != nil && taken(id); n++ {
		id = fmt.Sprintf("%s-%d", base, n)
	}
	return id
}

// templatePicker is the "New scenario" dialog: a row per template with
// what it starts from and a button that starts it.
type templatePicker struct {
	widget.BaseWidget
	content fyne.CanvasObject
	starts  []*widget.Button // one per template, the blank one last
	dialog  *dialog.CustomDialog
}

// CreateRenderer implements fyne.Widget.
func (t *templatePicker) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(t.content)
}

// newTemplatePicker offers the templates; pick is called with the chosen
// one.
func newTemplatePicker(w fyne.Window, pick func(template)) *templatePicker {
	t := &templatePicker{}
	intro := widget.NewLabel("Start from the example of a workload shape, then change what differs; or start blank. Nothing is stored until you save.")
	intro.Wrapping = fyne.TextWrapWord
	rows := []fyne.CanvasObject{intro}
	add := func(tp template, title, about string) {
		head := widget.NewLabel(title)
		head.TextStyle.Bold = true
		start := widget.NewButtonWithIcon("Start", theme.ContentAddIcon(), func() {
			t.dialog.Hide()
			pick(tp)
		})
		t.starts = append(t.starts, start)
		rows = append(rows, widget.NewSeparator(),
			container.NewBorder(nil, nil, nil, container.NewCenter(start), container.New(form.FieldLayout{}, head, widgets.Caption(about))))
	}
	for _, tp := range templates() {
		about := present.ChoiceHelp("workload.shape", tp.shape) + " Starts from the example “" + tp.example.Name + "”."
		add(tp, present.ShapeTitle(tp.shape), about)
	}
	add(template{}, "Blank scenario", "Every field empty but the weights (equal), a 36-month horizon and the seven lifecycle stages (open): the form lists what is still missing.")
	t.content = container.NewVBox(rows...)
	t.ExtendBaseWidget(t)
	t.dialog = dialog.NewCustom("New scenario", "Cancel", t, w)
	t.dialog.Resize(fyne.NewSize(min(720, w.Canvas().Size().Width*0.9), t.MinSize().Height))
	return t
}
