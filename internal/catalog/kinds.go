package catalog

import (
	"fmt"
	"reflect"
	"strings"

	"hostplan/internal/scenario"
)

// Kind is one sort of catalog entry, named as the kind column of the
// overrides CSV names it: gpu, model, cloud, … (the constants below, in
// catalog order; Kinds lists them).
type Kind string

// The kinds of catalog entry.
const (
	KindGPU     Kind = "gpu"
	KindModel   Kind = "model"
	KindCloud   Kind = "cloud"
	KindData    Kind = "data"
	KindNode    Kind = "node"
	KindSite    Kind = "site"
	KindHPC     Kind = "hpc"
	KindManaged Kind = "managed"
	KindGrid    Kind = "grid"
	KindPUE     Kind = "pue"
	KindRate    Kind = "rate"
)

// A kind is one sort of catalog entry as overrides and listings name it.
// Fields are found by reflection over the JSON tags, so a field added to
// GPU, CloudOffer, … is at once listable, exportable and overridable.
type kind struct {
	name    Kind   // as in the CSV kind column: gpu, model, …
	plural  string // as a listing names the entries: gpus, models, …
	title   string // as a heading names the entries: GPUs, Cloud offers, …
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

// kinds is the table of kinds, in catalog order; every face (the form,
// the catalog window, the command line) reads its kinds from it.
var kinds = []*kind{
	newKind(KindGPU, "gpus", "GPUs", "GPUs", "id", "name", GPU{}),
	newKind(KindModel, "models", "Models", "Models", "id", "name", Model{}),
	newKind(KindCloud, "cloud", "Cloud offers", "Cloud", "id", "name", CloudOffer{}),
	newKind(KindData, "data", "Data transfer prices", "Data", "provider", "provider", DataPrice{}),
	newKind(KindNode, "nodes", "On-premises nodes", "Nodes", "id", "name", Node{}),
	newKind(KindSite, "site", "On-premises site", "Site", "", "", Site{}),
	newKind(KindHPC, "hpc", "HPC partitions", "HPC", "id", "centre", Partition{}),
	newKind(KindManaged, "managed", "Managed offers", "Managed", "id", "name", ManagedOffer{}),
	newKind(KindGrid, "grids", "Grid carbon intensity", "Grids", "id", "name", Grid{}),
	newKind(KindPUE, "pues", "Data-centre PUE", "PUEs", "id", "name", PUE{}),
	newKind(KindRate, "rates", "Exchange rates (units per euro)", "Rates", "currency", "currency", Rate{}),
}

func newKind(name Kind, plural, title, goField, idField, label string, zero any) *kind {
	k := &kind{name: name, plural: plural, title: title, goField: goField, idField: idField, label: label, typ: reflect.TypeOf(zero)}
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
	r, ok := scenario.CatalogBound(string(k.name), f.name)
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

func kindNamed(name Kind) *kind {
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
func Kinds() []Kind {
	out := make([]Kind, len(kinds))
	for i, k := range kinds {
		out[i] = k.name
	}
	return out
}

// KindNames is Kinds as text, for messages and suggestions.
func KindNames() []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = string(k.name)
	}
	return out
}

// Plural is how a listing names the entries of k: gpus, models, cloud,
// nodes, …; the kind's own name for an unknown kind.
func (k Kind) Plural() string {
	if x := kindNamed(k); x != nil {
		return x.plural
	}
	return string(k)
}

// Title is how a heading names the entries of k: "GPUs", "Cloud
// offers", "On-premises site"; the kind's own name for an unknown kind.
func (k Kind) Title() string {
	if x := kindNamed(k); x != nil {
		return x.title
	}
	return string(k)
}

// ParseKind reads a kind as a person types it: its name (gpu) or its
// plural (gpus), as Plural gives it.
func ParseKind(word string) (Kind, bool) {
	for _, k := range kinds {
		if string(k.name) == word || k.plural == word {
			return k.name, true
		}
	}
	return "", false
}

// Fields lists the fields an override may set for a kind, in the order the
// export writes them; nil for an unknown kind.
func Fields(kind Kind) []string {
	if k := kindNamed(kind); k != nil {
		return k.fieldNames()
	}
	return nil
}

// Item is one catalog entry seen without its type.
type Item struct {
	Kind  Kind   // gpu, model, cloud, data, node, site, hpc, managed, grid, pue, rate
	ID    string // the entry's id; the provider for data, SiteID for the site
	Name  string // what it is called ("" for the site)
	Entry Entry  // its provenance
	Value any    // the GPU, Model, CloudOffer, … itself
}

// Items returns the entries of one kind in catalog order, or of every kind
// when kind is "". It panics on a kind Kinds does not list.
func (c *Catalog) Items(kind Kind) []Item {
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

// Item returns the entry of a kind with the given id; an unknown kind (one
// read from a key like "cloud/aws-p5-h100/on_demand") has no entries.
func (c *Catalog) Item(kind Kind, id string) (Item, bool) {
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

// copyKind gives c its own copy of k's entries, which c shared with the
// catalog it was copied from (a single entry, the site, is copied with
// the Catalog already).
func (c *Catalog) copyKind(k *kind) {
	fv := reflect.ValueOf(c).Elem().FieldByName(k.goField)
	if fv.Kind() == reflect.Slice {
		cp := reflect.MakeSlice(fv.Type(), fv.Len(), fv.Len())
		reflect.Copy(cp, fv)
		fv.Set(cp)
	}
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
