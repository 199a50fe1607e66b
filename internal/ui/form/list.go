package form

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// listControl edits a list of records — the lifecycle stages, the trial
// measurements, the price overrides — as a table: a row per record with a
// control per field and a button that removes it, headed by the fields'
// labels and units, and a button under it that adds a record. Problems
// with a record show under the table, named by the record's position.
type listControl struct {
	form  *Form
	field *Field
	dst   reflect.Value // the slice in the scenario
	table *fyne.Container
	empty *widget.Label
}

// addLabels are the add buttons' words.
var addLabels = map[string]string{
	"data.lifecycle":  "Add a stage",
	"workload.trial":  "Add a measurement",
	"price_overrides": "Add an override",
	"exchange_rates":  "Add a rate",
}

func (f *Form) newListControl(ff *Field, dst reflect.Value) fyne.CanvasObject {
	c := &listControl{form: f, field: ff, dst: dst}
	cols := dst.Type().Elem().NumField()
	c.table = container.New(widgets.NewFillGridLayout(cols+1, 1, 70))
	c.empty = widgets.Caption("None yet.")
	add := addLabels[ff.path]
	if add == "" {
		add = "Add"
	}
	button := widgets.NewTipButton(add, theme.ContentAddIcon(), "Add a row at the end", c.add)
	button.Importance = widget.LowImportance
	ff.load = c.rebuild
	return container.NewVBox(c.table, c.empty, container.NewHBox(button))
}

// rebuild makes the table's rows again from the scenario.
func (c *listControl) rebuild() {
	f := c.form
	loading := f.loading
	f.loading = true
	defer func() { f.loading = loading }()
	for path := range f.local {
		if strings.HasPrefix(path, c.field.path+"[") {
			delete(f.local, path)
		}
	}
	et := c.dst.Type().Elem()
	n := c.dst.Len()
	var cells []fyne.CanvasObject
	if n > 0 {
		cells = append(cells, widget.NewLabel(""))
		for j := range et.NumField() {
			cells = append(cells, columnHeading(c.field, present.Normalize(c.field.path)+"[]."+jsonName(et.Field(j)), f.s.Currency))
		}
	}
	for i := range n {
		i := i
		remove := widgets.NewTipButton("", theme.DeleteIcon(), "Remove this row", func() { c.remove(i) })
		remove.Importance = widget.LowImportance
		cells = append(cells, remove)
		row := c.dst.Index(i)
		for j := range et.NumField() {
			path := fmt.Sprintf("%s[%d].%s", c.field.path, i, jsonName(et.Field(j)))
			cells = append(cells, c.cell(path, row.Field(j)))
		}
	}
	c.table.Objects = cells
	c.table.Refresh()
	widgets.ShowIf(c.empty, n == 0)
}

// columnHeading is a column's label with its unit, in small bold type,
// without the words it shares with the list's own label ("Trial GPUs"
// under "Trial measurements" is "GPUs").
func columnHeading(list *Field, path, currency string) fyne.CanvasObject {
	fd, _ := present.Lookup(path)
	label := fd.Short()
	first, _, _ := strings.Cut(list.field.Label, " ")
	if rest, ok := strings.CutPrefix(label, first+" "); ok && rest != "" {
		label = present.Sentence(rest)
	}
	if fd.Unit != "" {
		label += " (" + fd.UnitIn(currency) + ")"
	}
	l := widgets.Caption(label)
	l.TextStyle.Bold = true
	return l
}

// cell is the control of one field of one record.
func (c *listControl) cell(path string, dst reflect.Value) fyne.CanvasObject {
	f := c.form
	norm := present.Normalize(path)
	if dst.Kind() == reflect.String && present.Choices(norm) != nil {
		values, labels := choiceOptions(norm, dst.String(), optionalPath(strings.ReplaceAll(norm, "[]", "")))
		sel := widgets.NewKeySelect(labels, nil)
		sel.PlaceHolder = "Choose…"
		if i := slices.Index(values, dst.String()); i >= 0 {
			sel.SetSelected(labels[i])
		}
		sel.OnChanged = func(label string) {
			if f.loading {
				return
			}
			if i := slices.Index(labels, label); i >= 0 {
				dst.SetString(values[i])
				f.changed(c.field, true)
			}
		}
		return sel
	}
	var e fyne.CanvasObject
	var entry *widget.Entry
	if opts := present.FactsOf(norm).Suggestions; len(opts) > 0 && dst.Kind() == reflect.String {
		se := widgets.NewKeySelectEntry(opts)
		se.Form = true
		e, entry = se, &se.Entry
	} else {
		ke := widgets.NewKeyEntry()
		ke.Form = true
		e, entry = ke, &ke.Entry
	}
	if dst.Kind() == reflect.String {
		entry.SetText(dst.String())
	} else {
		entry.SetText(numberText(dst))
	}
	entry.OnSubmitted = func(string) { f.flush() }
	entry.OnChanged = func(text string) {
		if f.loading {
			return
		}
		if dst.Kind() == reflect.String {
			dst.SetString(text)
		} else if err := setNumber(dst, text); err != nil {
			f.setLocal(path, err.Error())
			return
		}
		f.clearLocal(path)
		f.changed(c.field, false)
	}
	return e
}

// add appends a record: the first lifecycle stage the list lacks, open;
// an empty record otherwise.
func (c *listControl) add() {
	el := reflect.New(c.dst.Type().Elem()).Elem()
	if st, ok := el.Addr().Interface().(*scenario.LifecycleStage); ok {
		have := map[string]bool{}
		for i := range c.dst.Len() {
			have[c.dst.Index(i).Interface().(scenario.LifecycleStage).Stage] = true
		}
		for _, s := range scenario.LifecycleStages {
			if !have[s] {
				st.Stage = s
				break
			}
		}
		st.Status = "open"
	}
	c.dst.Set(reflect.Append(c.dst, el))
	c.rebuild()
	c.form.changed(c.field, true)
}

// remove deletes record i.
func (c *listControl) remove(i int) {
	n := c.dst.Len()
	if i < 0 || i >= n {
		return
	}
	out := reflect.MakeSlice(c.dst.Type(), 0, n-1)
	out = reflect.AppendSlice(out, c.dst.Slice(0, i))
	out = reflect.AppendSlice(out, c.dst.Slice(i+1, n))
	if out.Len() == 0 {
		out = reflect.Zero(c.dst.Type())
	}
	c.dst.Set(out)
	c.rebuild()
	c.form.showProblems()
	c.form.changed(c.field, true)
}
