package form

import (
	"reflect"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// Form is the scenario as a form: a control for every field of
// the file, generated from the scenario's types and worded by package
// present (label, unit, one-line help, the plain labels of choices). Its
// sections follow the readiness brief — what the scenario is, purpose,
// workload, data and its lifecycle, the five decision dimensions (each
// headed by its question), the options of each direction — and end with
// the advanced settings. Controls write into the scenario s as the user
// types; onChange is told of every change, and whether it should be
// evaluated at once (a choice, a tick) or when the typing pauses.
type Form struct {
	s        *scenario.Scenario
	stored   bool                              // s has been saved: its id is fixed
	catalog  *catalog.Catalog                  // the catalog in use; nil when it cannot be read
	onChange func(path string, immediate bool) // after each change, of the field at path
	onFlush  func()                            // Enter in a field: evaluate now
	// wheel is the scroll the form is shown in, which takes the mouse
	// wheel over its multi-line entries (widgets.WheelPass); nil when none.
	wheel func() fyne.Scrollable

	loading bool                  // controls are being set from s: not the user's change
	fields  []*Field              // every field, in form order
	byPath  map[string]*Field     // fields and lists by their JSON path
	groups  map[string]*formGroup // sections and groups, for problems reported on them
	local   map[string]string     // text that is not a value yet, by field path
	shown   map[string][]string   // the problems shown, by the path they are shown at

	sections  []*formSection
	accordion *widget.Accordion
	content   fyne.CanvasObject
}

// Field is one field: its label, and beside it the control with the
// field's help and its problem, if any, underneath.
type Field struct {
	path    string // the JSON path, list indices included
	field   present.Field
	label   *widget.Label
	box     *fyne.Container // control, help, meaning of the choice, problem
	problem *widget.Label
	unit    *widget.Label // nil for fields without a unit
	group   *formGroup
	load    func() // shows the value s holds
	disable func() // nil when the control cannot be disabled
	given   func() bool
	choice  bool // a select of present's choices, which shows what is allowed
	// hint sets what an empty number shows (its default); nil for
	// controls without one.
	hint func(text string)
}

// formGroup is a heading with its fields: a section's own fields, or an
// object of the scenario (the model, traffic, a dimension, a direction).
type formGroup struct {
	path    string
	heading fyne.CanvasObject // title and help; nil for untitled runs of fields
	problem *widget.Label
	rows    *fyne.Container // laid out by formLayout
	box     *fyne.Container
	fields  []*Field
	// sync points the scenario at the group's value when it is an
	// optional object (workload.traffic): present when any of its fields
	// is given, absent otherwise. Nil for other groups.
	sync func()
}

// formSection is one item of the accordion.
type formSection struct {
	title   string
	item    *widget.AccordionItem
	groups  []*formGroup
	problem *widget.Label // problems reported on the section's own path
}

// formPlan lists the form's sections: a title, the path of the part of
// the scenario they edit ("" for the scenario's own fields, then fields
// names those), and whether they start open.
var formPlan = []struct {
	title  string
	path   string
	fields []string
	open   bool
}{
	{title: "About this scenario", fields: []string{"name", "id", "description", "currency"}, open: true},
	{path: "purpose", open: true},
	{path: "workload", open: true},
	{title: "Data and its lifecycle", path: "data", open: true},
	{path: "dimensions", open: true},
	{path: "options"}, // anything left out comes from the catalog
	{title: "Advanced settings", fields: []string{"seed", "distribution", "price_overrides", "exchange_rates"}},
}

// formBreaks start a titled group of their own before a field, for runs
// of fields that have no object of their own in the file.
var formBreaks = map[string][2]string{
	"workload.recompute": {"Training details",
		"Left empty, the model's defaults apply (each field's help names its default)."},
}

// New builds the form over s. stored says whether s has been
// saved before (its id can then no longer change).
func New(s *scenario.Scenario, stored bool, cat *catalog.Catalog, onChange func(string, bool), onFlush func()) *Form {
	f := &Form{
		s: s, stored: stored, catalog: cat, onChange: onChange, onFlush: onFlush,
		byPath: map[string]*Field{}, groups: map[string]*formGroup{},
		local: map[string]string{}, shown: map[string][]string{},
	}
	root := reflect.ValueOf(s).Elem()
	var items []*widget.AccordionItem
	for _, plan := range formPlan {
		sec := &formSection{title: plan.title}
		var help string
		if plan.path != "" {
			fd, _ := present.Lookup(plan.path)
			if sec.title == "" {
				sec.title = fd.Label
			}
			help = fd.Help
		}
		top := f.newGroup(sec, plan.path, "", "")
		if plan.path == "" {
			for _, name := range plan.fields {
				f.addField(top, name, fieldByJSON(root, name))
			}
		} else {
			f.walk(sec, top, fieldByJSON(root, plan.path), plan.path)
		}
		f.sections = append(f.sections, sec)
		var parts []fyne.CanvasObject
		if help != "" {
			parts = append(parts, widgets.Caption(help))
		}
		sec.problem = ProblemLabel()
		parts = append(parts, sec.problem)
		if plan.path != "" {
			f.groups[plan.path] = top
			top.problem = sec.problem
		}
		for _, g := range sec.groups {
			parts = append(parts, g.box)
		}
		sec.item = widget.NewAccordionItem(sec.title, container.NewVBox(parts...))
		sec.item.Open = plan.open
		items = append(items, sec.item)
	}
	// All at once: Append lays out every section again each time.
	f.accordion = widget.NewAccordion(items...)
	f.accordion.MultiOpen = true
	f.Load()
	f.content = f.accordion
	return f
}

// fieldByJSON is the field of struct v whose JSON name is name.
func fieldByJSON(v reflect.Value, name string) reflect.Value {
	t := v.Type()
	for i := range t.NumField() {
		if jsonName(t.Field(i)) == name {
			return v.Field(i)
		}
	}
	panic("ui: the scenario has no field " + name)
}

// jsonName is a struct field's name in the scenario file.
func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

// optionalField reports whether the file may leave the field out.
func optionalField(f reflect.StructField) bool {
	_, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
	return strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
}

// newGroup adds a group to sec, with a heading when title is not empty.
func (f *Form) newGroup(sec *formSection, path, title, help string) *formGroup {
	g := &formGroup{path: path, rows: container.New(&formLayout{})}
	var parts []fyne.CanvasObject
	if title != "" {
		t := widget.NewLabel(title)
		t.TextStyle.Bold = true
		head := []fyne.CanvasObject{t}
		if help != "" {
			head = append(head, widgets.Caption(help))
		}
		g.heading = container.New(FieldLayout{}, head...)
		parts = append(parts, widget.NewSeparator(), g.heading)
		g.problem = ProblemLabel()
		parts = append(parts, g.problem)
	}
	parts = append(parts, g.rows)
	g.box = container.NewVBox(parts...)
	sec.groups = append(sec.groups, g)
	return g
}

// walk adds the fields of struct v, at path, to group g of sec: objects
// get a group of their own, and the fields after one go on in a new
// untitled group, so that the form keeps the file's order.
func (f *Form) walk(sec *formSection, g *formGroup, v reflect.Value, path string) {
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			f.walk(sec, g, v.Field(i), path)
			continue
		}
		p := join(path, jsonName(sf))
		if br, ok := formBreaks[p]; ok {
			g = f.newGroup(sec, p, br[0], br[1])
			f.groups[p] = g
		}
		fv := v.Field(i)
		switch {
		case sf.Type == valueType:
			f.addField(g, p, fv)
		case sf.Type.Kind() == reflect.Struct:
			f.walkGroup(sec, fv, p, nil)
			g = f.newGroup(sec, path, "", "")
		case sf.Type.Kind() == reflect.Pointer && sf.Type.Elem().Kind() == reflect.Struct:
			// An optional object: the form edits a value of its own and
			// points the scenario at it once any of its fields is given.
			holder := reflect.New(sf.Type.Elem())
			if !fv.IsNil() {
				holder.Elem().Set(fv.Elem())
			}
			ptr := fv
			f.walkGroup(sec, holder.Elem(), p, func() {
				if isZero(holder.Elem()) {
					ptr.SetZero()
				} else {
					ptr.Set(holder)
				}
			})
			g = f.newGroup(sec, path, "", "")
		default:
			f.addField(g, p, fv)
		}
	}
}

// walkGroup adds the object v at path as a titled group.
func (f *Form) walkGroup(sec *formSection, v reflect.Value, path string, sync func()) {
	fd, _ := present.Lookup(path)
	g := f.newGroup(sec, path, fd.Label, fd.Help)
	g.sync = sync
	f.groups[path] = g
	f.walk(sec, g, v, path)
}

var valueType = reflect.TypeOf(scenario.Value{})

// isZero reports whether every field of struct v is unset or zero.
func isZero(v reflect.Value) bool {
	if v.Type() == valueType {
		return !v.Interface().(scenario.Value).IsSet()
	}
	return v.IsZero()
}

// structField is the reflect.StructField of the field at path's last
// element in its parent struct, found by JSON name.
func structField(parent reflect.Type, name string) (reflect.StructField, bool) {
	for i := range parent.NumField() {
		sf := parent.Field(i)
		if sf.Anonymous && sf.Type.Kind() == reflect.Struct {
			if f, ok := structField(sf.Type, name); ok {
				return f, true
			}
			continue
		}
		if jsonName(sf) == name {
			return sf, true
		}
	}
	return reflect.StructField{}, false
}

// addField adds the field at path, whose value dst holds, to group g.
func (f *Form) addField(g *formGroup, path string, dst reflect.Value) {
	fd, ok := present.Lookup(path)
	if !ok {
		fd = present.Field{Path: path, Label: present.Humanize(path)}
	}
	ff := &Field{path: path, field: fd, group: g}
	ff.label = widget.NewLabel(fieldLabel(fd, g))
	ff.label.Wrapping = fyne.TextWrapWord
	ff.problem = ProblemLabel()
	ff.given = func() bool { return given(dst) }
	unit := fyne.CanvasObject(nil)
	if fd.Unit != "" {
		ff.unit = widget.NewLabel(fd.UnitIn(f.s.Currency))
		ff.unit.Wrapping = fyne.TextWrapWord
		unit = container.New(widgets.FixedWidth{Width: unitWidth}, ff.unit)
	}
	help := widgets.Caption(fd.Help)
	var meaning *widget.Label
	var control fyne.CanvasObject
	switch {
	case dst.Type() == valueType:
		control = f.newValueControl(ff, dst, unit)
	case dst.Kind() == reflect.Bool:
		control = f.newFlagControl(ff, dst)
	case dst.Kind() == reflect.String && present.Choices(path) != nil:
		meaning = widgets.Caption("")
		meaning.TextStyle.Italic = true
		control = f.newChoiceControl(ff, dst, optionalPath(path), meaning)
	case dst.Kind() == reflect.String && present.FactsOf(path).Catalog == catalog.KindCloud && f.catalog != nil && len(f.catalog.Cloud) > 0:
		control = f.newOfferControl(ff, dst, offerChoices(f.catalog))
	case dst.Kind() == reflect.String:
		facts := present.FactsOf(path)
		opts := facts.Suggestions
		if facts.Catalog != "" && f.catalog != nil {
			opts = f.catalog.IDs(facts.Catalog)
		}
		control = f.newTextControl(ff, dst, opts, facts.Multiline)
		if path == "id" && f.stored {
			ff.disable()
			help = widgets.Caption(fd.Help + " A saved scenario keeps its id: Duplicate makes a copy under another.")
		}
	case dst.Kind() == reflect.Slice && dst.Type().Elem().Kind() == reflect.String:
		control = f.newChoiceListControl(ff, dst)
	case dst.Kind() == reflect.Slice && dst.Type().Elem().Kind() == reflect.Struct:
		control = f.newListControl(ff, dst)
	case dst.Kind() == reflect.Slice && dst.Type().Elem().Kind() == reflect.Float64:
		control = f.newNumberListControl(ff, dst, unit)
	default:
		control = f.newNumberControl(ff, dst, unit)
	}
	ff.choice = meaning != nil
	parts := []fyne.CanvasObject{control, ff.problem, help}
	if meaning != nil {
		parts = append(parts, meaning)
	}
	ff.box = container.New(FieldLayout{}, parts...)
	// Not Add, which lays the group out again for each field.
	g.rows.Objects = append(g.rows.Objects, ff.label, ff.box)
	g.fields = append(g.fields, ff)
	f.fields = append(f.fields, ff)
	f.byPath[path] = ff
}

// optionalPath reports whether the scenario file may leave the field at
// path out, from its JSON tag.
func optionalPath(path string) bool {
	t := reflect.TypeOf(scenario.Scenario{})
	parts := strings.Split(path, ".")
	for i, name := range parts {
		name, _, _ = strings.Cut(name, "[") // a list's row: trials[0]
		sf, ok := structField(t, name)
		if !ok {
			return false
		}
		if i == len(parts)-1 {
			return optionalField(sf)
		}
		t = sf.Type
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
	}
	return false
}

// fieldLabel is a field's label inside group g: without the group's name
// when it repeats it ("Cloud: price per GPU-hour" under Cloud IaaS is
// "Price per GPU-hour"; "Sovereignty weight" under Sovereignty is
// "Weight").
func fieldLabel(fd present.Field, g *formGroup) string {
	label := fd.Short()
	if g == nil || g.path == "" {
		return label
	}
	gf, ok := present.Lookup(g.path)
	if !ok {
		return label
	}
	if rest, ok := strings.CutPrefix(label, gf.Label+" "); ok && rest != "" {
		return present.Sentence(rest)
	}
	return label
}

// given reports whether the value dst holds is given: a set number, a
// non-empty text or list, a true flag, a non-zero number.
func given(dst reflect.Value) bool {
	if dst.Type() == valueType {
		return dst.Interface().(scenario.Value).IsSet()
	}
	switch dst.Kind() {
	case reflect.Slice, reflect.String:
		return dst.Len() > 0
	}
	return !dst.IsZero()
}

// join appends a field's name to a JSON path.
func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// ProblemLabel is where a field's problem shows: small, in the error
// colour, hidden while there is none.
func ProblemLabel() *widget.Label {
	l := widgets.Caption("")
	l.Importance = widget.DangerImportance
	l.Hide()
	return l
}

// Load sets every control from the scenario.
func (f *Form) Load() {
	f.loading = true
	defer func() { f.loading = false }()
	for _, ff := range f.fields {
		if ff.load != nil {
			ff.load()
		}
	}
	f.relayout()
}

// LoadPaths shows again the values of the fields at paths, changed
// outside the form.
func (f *Form) LoadPaths(paths ...string) {
	f.loading = true
	defer func() { f.loading = false }()
	for _, path := range paths {
		if ff := f.FieldAt(path); ff != nil && ff.load != nil {
			ff.load()
		}
	}
}

// changed is called by a control after it changed the scenario.
func (f *Form) changed(ff *Field, immediate bool) {
	if ff.group != nil && ff.group.sync != nil {
		ff.group.sync()
	}
	switch ff.path {
	case "currency":
		for _, o := range f.fields {
			if o.unit != nil {
				o.unit.SetText(o.field.UnitIn(f.s.Currency))
			}
		}
	case "workload.shape":
		f.relayout()
	}
	if f.onChange != nil {
		f.onChange(ff.path, immediate)
	}
}

// flush asks for the scenario to be evaluated now (Enter in a field).
func (f *Form) flush() {
	if f.onFlush != nil {
		f.onFlush()
	}
}

// ShowDefaults shows in the empty number fields whose default depends on
// the scenario the value the model assumes for it, from report r of the
// scenario s: the MFU by the workload (present.MFUHint).
func (f *Form) ShowDefaults(s *scenario.Scenario, r *model.Report) {
	if ff := f.FieldAt("workload.mfu"); ff != nil && ff.hint != nil && s != nil && r != nil {
		ff.hint(present.MFUHint(s.Workload, r.Workload.ActiveParamsB))
	}
}

// FieldAt is the form's field at path, nil when it has none.
func (f *Form) FieldAt(path string) *Field { return f.byPath[path] }

// Content is the form's widget: its sections, in an accordion.
func (f *Form) Content() fyne.CanvasObject { return f.content }

// SetWheel names the scroll the form is shown in, which takes the mouse
// wheel over the form's multi-line entries.
func (f *Form) SetWheel(scroll func() fyne.Scrollable) { f.wheel = scroll }

// Pending reports whether a field holds text that is not a value yet (a
// number half typed, one that does not read): the scenario lacks it.
func (f *Form) Pending() bool { return len(f.local) > 0 }

// Unplaced are the problems shown that belong to no field of the form.
func (f *Form) Unplaced() []string { return f.shown[""] }

// MarkStored says that the scenario has been saved: its id can no
// longer change.
func (f *Form) MarkStored() {
	f.stored = true
	if ff := f.FieldAt("id"); ff != nil && ff.disable != nil {
		ff.disable()
	}
}

// Box is the field's control with its help, meaning and problem under
// it.
func (ff *Field) Box() fyne.CanvasObject { return ff.box }

// Problem is the problem shown under the field, "" for none.
func (ff *Field) Problem() string {
	if !ff.problem.Visible() {
		return ""
	}
	return ff.problem.Text
}
