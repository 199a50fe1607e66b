package catalog

import (
	"fmt"
	"reflect"
	"strings"

	"hostplan/internal/scenario"
)

// A kind is one sort of catalog entry as overrides and listings name it.
// Fields are found by reflection over the JSON tags, so a field added to
// GPU, CloudOffer, … is at once listable, exportable and overridable.
type kind struct {
	name    string // as in the CSV kind column: gpu, model, …
	goField string // the Catalog field holding the entries
	idField string // JSON name of the field that identifies an entry; "" for the single site entry
	label   string // JSON name of the field shown as the entry's name
	typ     reflect.Type
	fields  []field // settable fields, in struct order

	idIndex, labelIndex []int // of idField and label; nil when the kind has none
}

// field is one settable JSON field of a kind.
type field struct {
	name  string // JSON name
	index []int  // for reflect.Value.FieldByIndex
	typ   reflect.Type
}

// SiteID is the id of the single site entry in overrides and listings.
const SiteID = "site"

// provenance fields come from the as_of and source columns of an override,
// never from its field column; overridden is computed by Apply.
var notSettable = map[string]string{
	"as_of":      "the as_of column gives the entry's date",
	"source":     "the source column gives the entry's source",
	"overridden": "it is computed, not set",
	// The site figures' own dates come with the catalog; an override dates
	// the figures it changes by its as_of column.
	"figures_as_of": "the as_of column dates the figures a row changes",
}

var kinds = []*kind{
	newKind("gpu", "GPUs", "id", "name", GPU{}),
	newKind("model", "Models", "id", "name", Model{}),
	newKind("cloud", "Cloud", "id", "name", CloudOffer{}),
	newKind("data", "Data", "provider", "provider", DataPrice{}),
	newKind("node", "Nodes", "id", "name", Node{}),
	newKind("site", "Site", "", "", Site{}),
	newKind("hpc", "HPC", "id", "centre", Partition{}),
	newKind("managed", "Managed", "id", "name", ManagedOffer{}),
	newKind("grid", "Grids", "id", "name", Grid{}),
	newKind("pue", "PUEs", "id", "name", PUE{}),
	newKind("rate", "Rates", "currency", "currency", Rate{}),
}

func newKind(name, goField, idField, label string, zero any) *kind {
	k := &kind{name: name, goField: goField, idField: idField, label: label, typ: reflect.TypeOf(zero)}
	if _, ok := reflect.TypeFor[Catalog]().FieldByName(goField); !ok {
		panic("catalog: no Catalog field " + goField)
	}
	for _, f := range reflect.VisibleFields(k.typ) {
		if f.Anonymous || !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == label {
			k.labelIndex = f.Index
		}
		if name == idField {
			k.idIndex = f.Index
		}
		if name == "" || name == "-" || name == idField || notSettable[name] != "" {
			continue
		}
		switch {
		case f.Type.Kind() == reflect.Float64, f.Type.Kind() == reflect.Int,
			f.Type.Kind() == reflect.String, f.Type.Kind() == reflect.Bool,
			f.Type == reflect.TypeFor[[3]float64]():
		default:
			panic(fmt.Sprintf("catalog: %s.%s has type %s, which overrides cannot set", k.typ.Name(), f.Name, f.Type))
		}
		k.fields = append(k.fields, field{name: name, index: f.Index, typ: f.Type})
	}
	if (k.idIndex == nil) != (idField == "") || (k.labelIndex == nil) != (label == "") {
		panic(fmt.Sprintf("catalog: %s has no field %q or %q", k.typ.Name(), idField, label))
	}
	return k
}

// outOfRange says what is wrong with the value v of field f of kind k when
// it lies outside the field's range (scenario.CatalogBound), or "".
// Text, flags and numbers without a range have nothing to check.
func (f field) outOfRange(k *kind, v reflect.Value) string {
	r, ok := scenario.CatalogBound(k.name, f.name)
	if !ok {
		return ""
	}
	var xs []float64
	switch v.Kind() {
	case reflect.Float64:
		xs = []float64{v.Float()}
	case reflect.Int:
		xs = []float64{float64(v.Int())}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			xs = append(xs, v.Index(i).Float())
		}
	}
	for _, x := range xs {
		if !r.Contains(x) {
			return fmt.Sprintf("%s %s is out of range (allowed: %s)", f.name, scenario.Num(x), r)
		}
	}
	return ""
}

func kindNamed(name string) *kind {
	for _, k := range kinds {
		if k.name == name {
			return k
		}
	}
	return nil
}

func (k *kind) field(name string) (field, bool) {
	for _, f := range k.fields {
		if f.name == name {
			return f, true
		}
	}
	return field{}, false
}

func (k *kind) fieldNames() []string {
	out := make([]string, len(k.fields))
	for i, f := range k.fields {
		out[i] = f.name
	}
	return out
}

// Kinds lists the kinds of catalog entry in catalog order: gpu, model,
// cloud, data, node, site, hpc, managed, grid, pue, rate.
func Kinds() []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.name
	}
	return out
}

// Fields lists the fields an override may set for a kind, in the order the
// export writes them; nil for an unknown kind.
func Fields(kind string) []string {
	if k := kindNamed(kind); k != nil {
		return k.fieldNames()
	}
	return nil
}

// Item is one catalog entry seen without its type.
type Item struct {
	Kind  string // gpu, model, cloud, data, node, site, hpc, managed, grid, pue, rate
	ID    string // the entry's id; the provider for data, SiteID for the site
	Name  string // what it is called ("" for the site)
	Entry Entry  // its provenance
	Value any    // the GPU, Model, CloudOffer, … itself
}

// Items returns the entries of one kind in catalog order, or of every kind
// when kind is "". It panics on a kind Kinds does not list.
func (c *Catalog) Items(kind string) []Item {
	if kind != "" && kindNamed(kind) == nil {
		panic(fmt.Sprintf("catalog: Items of unknown kind %q", kind))
	}
	var out []Item
	for _, k := range kinds {
		if kind != "" && k.name != kind {
			continue
		}
		for _, v := range c.entries(k) {
			out = append(out, k.item(v))
		}
	}
	return out
}

// Item returns the entry of a kind with the given id.
func (c *Catalog) Item(kind, id string) (Item, bool) {
	k := kindNamed(kind)
	if k == nil {
		return Item{}, false
	}
	if i := c.index(k, id); i >= 0 {
		return k.item(c.entries(k)[i]), true
	}
	return Item{}, false
}

func (k *kind) item(v reflect.Value) Item {
	it := Item{Kind: k.name, ID: k.id(v), Entry: entryOf(v), Value: v.Interface()}
	if k.labelIndex != nil {
		it.Name = v.FieldByIndex(k.labelIndex).String()
	}
	return it
}

// entries returns the addressable values of one kind's entries.
func (c *Catalog) entries(k *kind) []reflect.Value {
	fv := reflect.ValueOf(c).Elem().FieldByName(k.goField)
	if fv.Kind() != reflect.Slice {
		return []reflect.Value{fv}
	}
	out := make([]reflect.Value, fv.Len())
	for i := range out {
		out[i] = fv.Index(i)
	}
	return out
}

// index returns the position of the entry with id among c.entries(k), or -1.
func (c *Catalog) index(k *kind, id string) int {
	for i, v := range c.entries(k) {
		if k.id(v) == id {
			return i
		}
	}
	return -1
}

// add appends a new entry with the given id and returns its index.
func (c *Catalog) add(k *kind, id string) int {
	fv := reflect.ValueOf(c).Elem().FieldByName(k.goField)
	nv := reflect.New(k.typ).Elem()
	nv.FieldByIndex(k.idIndex).SetString(id)
	fv.Set(reflect.Append(fv, nv))
	return fv.Len() - 1
}

func (k *kind) id(v reflect.Value) string {
	if k.idField == "" {
		return SiteID
	}
	return v.FieldByIndex(k.idIndex).String()
}

func entryOf(v reflect.Value) Entry {
	return v.FieldByName("Entry").Interface().(Entry)
}

func entryPtr(v reflect.Value) *Entry {
	return v.FieldByName("Entry").Addr().Interface().(*Entry)
}

// clone returns a copy of c that shares no memory with it (the entry types
// hold no pointers, slices or maps).
func (c *Catalog) clone() *Catalog {
	n := *c
	n.GPUs = append([]GPU(nil), c.GPUs...)
	n.Models = append([]Model(nil), c.Models...)
	n.Cloud = append([]CloudOffer(nil), c.Cloud...)
	n.Data = append([]DataPrice(nil), c.Data...)
	n.Nodes = append([]Node(nil), c.Nodes...)
	n.HPC = append([]Partition(nil), c.HPC...)
	n.Managed = append([]ManagedOffer(nil), c.Managed...)
	n.Grids = append([]Grid(nil), c.Grids...)
	n.PUEs = append([]PUE(nil), c.PUEs...)
	n.Rates = append([]Rate(nil), c.Rates...)
	return &n
}

// siteDates dates each figure of the site after override t: a figure a
// row sets takes the as_of of the last row that sets it, any other keeps
// its date before; the entry is dated by its newest figure and
// FiguresAsOf lists the older ones (nil when none is).
func siteDates(t *touched, site *Site) {
	before, _ := t.before.(Site)
	dates := map[string]string{}
	for _, f := range t.k.fields {
		dates[f.name] = before.FigureAsOf(f.name)
	}
	for _, r := range t.rows {
		dates[r.Field] = r.AsOf
	}
	site.AsOf = ""
	for _, d := range dates {
		site.AsOf = max(site.AsOf, d)
	}
	site.FiguresAsOf = nil
	for f, d := range dates {
		if d < site.AsOf {
			if site.FiguresAsOf == nil {
				site.FiguresAsOf = map[string]string{}
			}
			site.FiguresAsOf[f] = d
		}
	}
}
