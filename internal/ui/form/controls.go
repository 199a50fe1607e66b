package form

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// The controls of the scenario form (form.go), one kind per kind of field:
// a number that is known or an estimate, a choice, a text, a flag, a whole
// number, a list of choices and a list of records. Each writes what the
// user gives straight into the scenario the form edits and tells the form;
// text that is not yet a value (a number with a letter in it, an estimate
// with one of its three points missing) stays in the control, with its
// problem shown beneath it, and the scenario keeps its last value.

// parseNumber reads a number as people type it ("1200", "1,200",
// "0.4", "2e6"), as every number entry reads it (num.Parse). Anything
// else, NaN and infinities included, is refused with a message that says
// what is allowed.
func parseNumber(text string) (float64, error) { return num.Parse(text) }

// parseWhole reads a whole number.
func parseWhole(text string) (int64, error) {
	x, err := parseNumber(text)
	if err != nil {
		return 0, err
	}
	if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
		return 0, errors.New("“" + strings.TrimSpace(text) + "” is not a whole number (allowed: a whole number of magnitude up to 9,007,199,254,740,992)")
	}
	return int64(x), nil
}

// formatNumber writes x for an entry, every digit kept and thousands
// grouped ("1,024", "250,000", "0.075"), as parseNumber reads it back
// (num.Format).
func formatNumber(x float64) string { return num.Format(x) }

// Estimate modes as the number controls' selects show them.
const (
	ModeKnown    = "Known"
	ModeEstimate = "Estimate"
)

// valueControl edits a scenario.Value: one entry for a known number, or
// three for an estimate's low, likely and high. An empty entry means
// "not given".
type valueControl struct {
	form  *Form
	field *Field
	dst   reflect.Value // the scenario.Value in the scenario

	mode   *widgets.KeySelect
	known  *widgets.KeyEntry
	points [3]*widgets.KeyEntry // low, likely, high
	unit   fyne.CanvasObject
	root   *fyne.Container // the known row, or the estimate's two rows
	shown  string          // the mode the controls show
	grid   fyne.CanvasObject
}

func (f *Form) newValueControl(ff *Field, dst reflect.Value, unit fyne.CanvasObject) fyne.CanvasObject {
	c := &valueControl{form: f, field: ff, dst: dst, unit: unit}
	c.known = f.entry(ff, c.typed)
	c.known.SetPlaceHolder("not given")
	ff.hint = c.known.SetPlaceHolder
	var cells []fyne.CanvasObject
	for i, name := range []string{"low", "likely", "high"} {
		e := f.entry(ff, c.typed)
		e.SetPlaceHolder(name)
		c.points[i] = e
		cells = append(cells, container.New(FieldLayout{}, widgets.Caption(name), e))
	}
	c.grid = container.NewGridWithColumns(3, cells...)
	c.mode = widgets.NewKeySelect([]string{ModeKnown, ModeEstimate}, nil)
	c.mode.SetSelected(ModeKnown)
	c.mode.OnChanged = c.switchMode
	c.root = container.NewStack()
	c.show(ModeKnown)
	ff.load = c.load
	return c.root
}

func (c *valueControl) value() scenario.Value { return c.dst.Interface().(scenario.Value) }

// load shows the scenario's value.
func (c *valueControl) load() {
	v := c.value()
	if v.IsEstimate() {
		c.show(ModeEstimate)
		for i, x := range []float64{v.Low, v.Likely, v.High} {
			c.points[i].SetText(formatNumber(x))
		}
		c.known.SetText("")
		return
	}
	c.show(ModeKnown)
	c.known.SetText("")
	if v.IsSet() {
		c.known.SetText(formatNumber(v.Likely))
	}
	for _, e := range c.points {
		e.SetText("")
	}
}

// show switches the entries without touching the value: one beside the
// mode for a known value; for an estimate, the three under it, each with
// its name, wide enough to read.
func (c *valueControl) show(mode string) {
	c.mode.OnChanged = nil
	c.mode.SetSelected(mode)
	c.mode.OnChanged = c.switchMode
	if mode == c.shown {
		return
	}
	c.shown = mode
	if mode == ModeEstimate {
		hint := widgets.Caption("low ≤ likely ≤ high")
		c.root.Objects = []fyne.CanvasObject{container.NewVBox(container.NewBorder(nil, nil, c.mode, c.unit, hint), c.grid)}
	} else {
		c.root.Objects = []fyne.CanvasObject{container.NewBorder(nil, nil, c.mode, c.unit, c.known)}
	}
	c.root.Refresh()
}

// switchMode turns a known value into an estimate with three equal
// points, to be spread by the user, or an estimate into its likely value.
func (c *valueControl) switchMode(mode string) {
	if c.form.loading {
		return
	}
	c.form.clearLocal(c.field.path)
	v := c.value()
	if mode == ModeEstimate && !v.IsEstimate() {
		if v.IsSet() {
			c.dst.Set(reflect.ValueOf(scenario.Estimate(v.Likely, v.Likely, v.Likely)))
		}
	} else if mode == ModeKnown && v.IsEstimate() {
		c.dst.Set(reflect.ValueOf(scenario.Known(v.Likely)))
	}
	c.form.loading = true
	c.load()
	c.form.loading = false
	if mode == ModeEstimate && !v.IsSet() {
		c.show(ModeEstimate)
	}
	c.form.changed(c.field, true)
}

// typed reads the entries into the value.
func (c *valueControl) typed() {
	if c.mode.Selected == ModeEstimate {
		var xs [3]float64
		empty := 0
		for i, e := range c.points {
			if strings.TrimSpace(e.Text) == "" {
				empty++
				continue
			}
			x, err := parseNumber(e.Text)
			if err != nil {
				c.form.setLocal(c.field.path, []string{"low", "likely", "high"}[i]+": "+err.Error())
				return
			}
			xs[i] = x
		}
		switch empty {
		case 3:
			c.dst.Set(reflect.ValueOf(scenario.Value{}))
		case 0:
			c.dst.Set(reflect.ValueOf(scenario.Estimate(xs[0], xs[1], xs[2])))
		default:
			c.form.setLocal(c.field.path, "an estimate needs all three of low, likely and high (or switch to Known)")
			return
		}
		c.form.clearLocal(c.field.path)
		c.form.changed(c.field, false)
		return
	}
	if strings.TrimSpace(c.known.Text) == "" {
		c.dst.Set(reflect.ValueOf(scenario.Value{}))
	} else {
		x, err := parseNumber(c.known.Text)
		if err != nil {
			c.form.setLocal(c.field.path, err.Error())
			return
		}
		c.dst.Set(reflect.ValueOf(scenario.Known(x)))
	}
	c.form.clearLocal(c.field.path)
	c.form.changed(c.field, false)
}

// entry is an entry of field ff that calls typed as the text changes and
// evaluates at once on Enter.
func (f *Form) entry(ff *Field, typed func()) *widgets.KeyEntry {
	e := widgets.NewKeyEntry()
	e.Form = true
	e.OnChanged = func(string) {
		if !f.loading {
			typed()
		}
	}
	e.OnSubmitted = func(string) {
		f.flush()
		f.reformat(ff)
	}
	e.Left = func() { f.reformat(ff) }
	return e
}

// reformat writes the number field ff as a loaded one is written once the
// user leaves it ("400000" → "400,000"), from the value it holds; a field
// whose text is not a value yet is left as typed.
func (f *Form) reformat(ff *Field) {
	if _, bad := f.local[ff.path]; bad || ff.load == nil {
		return
	}
	f.loading = true
	defer func() { f.loading = false }()
	ff.load()
}

// newNumberControl edits an int, a uint64 or a float64; empty is 0. An
// optional field's 0 is left out of the scenario file and shows as empty
// ("not given"); a field the file always has (a weight, the horizon)
// shows its 0 as 0.
func (f *Form) newNumberControl(ff *Field, dst reflect.Value, unit fyne.CanvasObject) fyne.CanvasObject {
	var e *widgets.KeyEntry
	e = f.entry(ff, func() {
		if err := setNumber(dst, e.Text); err != nil {
			f.setLocal(ff.path, err.Error())
			return
		}
		f.clearLocal(ff.path)
		f.changed(ff, false)
	})
	optional := optionalPath(ff.path)
	if optional {
		e.SetPlaceHolder("not given")
	} else {
		e.SetPlaceHolder("required")
	}
	ff.load = func() {
		text := numberText(dst)
		if text == "" && !optional {
			text = "0"
		}
		e.SetText(text)
	}
	return container.NewBorder(nil, nil, nil, unit, e)
}

// newNumberListControl edits a list of numbers (the load by hour) as
// one line: numbers apart by spaces or semicolons (a comma groups
// thousands, as in every number entry); empty leaves the list out.
func (f *Form) newNumberListControl(ff *Field, dst reflect.Value, unit fyne.CanvasObject) fyne.CanvasObject {
	var e *widgets.KeyEntry
	e = f.entry(ff, func() {
		xs, err := parseNumberList(e.Text)
		if err != nil {
			f.setLocal(ff.path, err.Error())
			return
		}
		dst.Set(reflect.ValueOf(xs))
		f.clearLocal(ff.path)
		f.changed(ff, false)
	})
	e.SetPlaceHolder("not given: numbers apart by spaces or semicolons")
	ff.load = func() {
		parts := make([]string, dst.Len())
		for i := range parts {
			parts[i] = formatNumber(dst.Index(i).Float())
		}
		e.SetText(strings.Join(parts, "; "))
	}
	return container.NewBorder(nil, nil, nil, unit, e)
}

// parseNumberList reads numbers apart by spaces or semicolons; nil for
// empty text. A word that is not a number is named.
func parseNumberList(text string) ([]float64, error) {
	words := strings.FieldsFunc(text, func(r rune) bool { return r == ';' || r == ' ' || r == '\t' || r == '\n' })
	if len(words) == 0 {
		return nil, nil
	}
	xs := make([]float64, len(words))
	for i, w := range words {
		x, err := parseNumber(w)
		if err != nil {
			return nil, fmt.Errorf("number %s: %w", present.Whole(float64(i+1)), err)
		}
		xs[i] = x
	}
	return xs, nil
}

// setNumber parses text into the number dst; empty text is 0.
func setNumber(dst reflect.Value, text string) error {
	if strings.TrimSpace(text) == "" {
		dst.SetZero()
		return nil
	}
	switch dst.Kind() {
	case reflect.Float64:
		x, err := parseNumber(text)
		if err != nil {
			return err
		}
		dst.SetFloat(x)
	case reflect.Int:
		x, err := parseWhole(text)
		if err != nil {
			return err
		}
		dst.SetInt(x)
	case reflect.Uint64:
		x, err := num.ParseUint(text)
		if err != nil {
			return err
		}
		dst.SetUint(x)
	}
	return nil
}

// numberText is the number dst as an entry shows it; "" for 0.
func numberText(dst reflect.Value) string {
	switch dst.Kind() {
	case reflect.Float64:
		if x := dst.Float(); x != 0 {
			return formatNumber(x)
		}
	case reflect.Int:
		if x := dst.Int(); x != 0 {
			return formatNumber(float64(x))
		}
	case reflect.Uint64:
		if x := dst.Uint(); x != 0 {
			return num.Group(strconv.FormatUint(x, 10))
		}
	}
	return ""
}

// notGiven is the option of an optional choice that leaves it out.
const notGiven = "Not given"

// newChoiceControl edits an enumerated text field with a select showing
// present's labels; an optional field has a "Not given" option. The
// chosen value's meaning is shown under the field's help.
func (f *Form) newChoiceControl(ff *Field, dst reflect.Value, optional bool, meaning *widget.Label) fyne.CanvasObject {
	sel := widgets.NewKeySelect(nil, nil)
	sel.PlaceHolder = "Choose…"
	var values []string
	options := func() {
		values, sel.Options = choiceOptions(ff.path, dst.String(), optional)
	}
	options()
	sel.OnChanged = func(label string) {
		if f.loading {
			return
		}
		i := slices.Index(sel.Options, label)
		if i < 0 {
			return
		}
		dst.SetString(values[i])
		showMeaning(meaning, ff.path, values[i])
		f.changed(ff, true)
	}
	ff.load = func() {
		options()
		i := slices.Index(values, dst.String())
		if i < 0 {
			sel.ClearSelected()
		} else {
			sel.SetSelected(sel.Options[i])
		}
		showMeaning(meaning, ff.path, dst.String())
	}
	return sel
}

// choiceOptions are the values and labels a choice offers: present's, led
// by "Not given" for an optional field, and the current value when it is
// not among them (so that a select never hides what the file says).
func choiceOptions(path, current string, optional bool) (values, labels []string) {
	if optional {
		values, labels = append(values, ""), append(labels, notGiven)
	}
	for _, c := range present.Choices(path) {
		values, labels = append(values, c.Value), append(labels, c.Label)
	}
	if current != "" && !slices.Contains(values, current) {
		values, labels = append(values, current), append(labels, current)
	}
	return values, labels
}

// showMeaning shows what the chosen value of the choice at path means.
func showMeaning(l *widget.Label, path, value string) {
	if l == nil {
		return
	}
	text := present.ChoiceHelp(path, value)
	l.SetText(text)
	widgets.ShowIf(l, text != "")
}

// newTextControl edits a text field: a plain entry, a multi-line one for
// longer prose, or an entry with suggestions (catalog ids, currencies).
func (f *Form) newTextControl(ff *Field, dst reflect.Value, suggestions []string, multiline bool) fyne.CanvasObject {
	changed := func(text string) {
		if f.loading {
			return
		}
		dst.SetString(text)
		f.changed(ff, false)
	}
	if len(suggestions) > 0 {
		e := widgets.NewKeySelectEntry(suggestions)
		e.Form = true
		e.SetPlaceHolder("not given")
		e.OnChanged = changed
		e.OnSubmitted = func(string) { f.flush() }
		ff.load = func() { e.SetText(dst.String()) }
		ff.disable = e.Disable
		return e
	}
	if multiline {
		e := widgets.NewKeyMultiLineEntry()
		e.Form = true
		e.OnChanged = func(text string) {
			widgets.FitRows(e)
			changed(text)
		}
		ff.load = func() {
			e.SetText(dst.String())
			widgets.FitRows(e)
		}
		ff.disable = e.Disable
		return container.NewStack(e, widgets.NewWheelPass(func() fyne.Scrollable {
			if f.wheel == nil {
				return nil
			}
			return f.wheel()
		}))
	}
	e := widgets.NewKeyEntry()
	e.Form = true
	e.OnSubmitted = func(string) { f.flush() }
	e.OnChanged = changed
	ff.load = func() { e.SetText(dst.String()) }
	ff.disable = e.Disable
	return e
}

// newFlagControl edits a flag with a check box.
func (f *Form) newFlagControl(ff *Field, dst reflect.Value) fyne.CanvasObject {
	c := widgets.NewKeyCheck("", nil)
	c.OnChanged = func(on bool) {
		if f.loading {
			return
		}
		dst.SetBool(on)
		f.changed(ff, true)
	}
	ff.load = func() { c.SetChecked(dst.Bool()) }
	return c
}

// newChoiceListControl edits a list of choices (skills, outputs returned)
// with a check box per allowed value, in two columns. Ticking adds the value at the end
// and unticking removes it, so the order the file has is kept.
func (f *Form) newChoiceListControl(ff *Field, dst reflect.Value) fyne.CanvasObject {
	choices := present.Choices(ff.path)
	labels := make([]string, len(choices))
	for i, c := range choices {
		labels[i] = present.Sentence(c.Label)
	}
	checks := make([]*widgets.KeyCheck, len(labels))
	boxes := make([]fyne.CanvasObject, len(labels))
	toggled := func(bool) {
		if f.loading {
			return
		}
		on := map[string]bool{}
		for i, c := range checks {
			if c.Checked {
				on[choices[i].Value] = true
			}
		}
		var out []string
		for _, v := range dst.Interface().([]string) {
			if on[v] {
				out = append(out, v)
				delete(on, v)
			}
		}
		for _, c := range choices { // newly ticked, in the allowed order
			if on[c.Value] {
				out = append(out, c.Value)
			}
		}
		dst.Set(reflect.ValueOf(out))
		f.changed(ff, true)
	}
	for i, l := range labels {
		checks[i] = widgets.NewKeyCheck(l, toggled)
		boxes[i] = checks[i]
	}
	ff.load = func() {
		have := dst.Interface().([]string)
		for i, c := range checks {
			c.SetChecked(slices.Contains(have, choices[i].Value))
		}
	}
	return container.NewGridWithColumns(2, boxes...)
}
