package catalog

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"hostplan/internal/celltext"
)

// Overrides written out: the whole catalog as an overrides CSV, a set of
// overrides as CSV, and as the JSON the store keeps (read back by
// DecodeOverrides and Effective).

// ExportCSV writes the whole catalog as overrides: the header, then every
// settable field of every entry, one row each, with the entry's as_of (a
// site figure's own, FigureAsOf) and source, kinds in Kinds order and entries and fields in catalog order.
// Applying the file to the embedded catalog gives c again.
func (c *Catalog) ExportCSV(w io.Writer) error {
	return Overrides{Rows: c.Rows("")}.WriteCSV(w)
}

// Rows returns every settable field of every entry of one kind ("" for
// every kind) as the override rows that would set it, in the order
// ExportCSV writes them: the value as a file gives it, with the entry's
// as_of (a site figure's own) and source. It panics on a kind Kinds does not list.
func (c *Catalog) Rows(kind Kind) []OverrideRow {
	if kind != "" && kindNamed(kind) == nil {
		panic(fmt.Sprintf("catalog: Rows of unknown kind %q", kind))
	}
	var rows []OverrideRow
	for _, k := range kinds {
		if kind != "" && k.name != kind {
			continue
		}
		for _, v := range c.entries(k) {
			e := entryOf(v)
			for _, f := range k.fields {
				asOf := e.AsOf
				if site, ok := v.Interface().(Site); ok {
					asOf = site.FigureAsOf(f.name)
				}
				rows = append(rows, OverrideRow{Kind: string(k.name), ID: k.id(v), Field: f.name,
					Value: formatValue(v.FieldByIndex(f.index)), AsOf: asOf, Source: e.Source})
			}
		}
	}
	return rows
}

// WriteCSV writes the rows in the format ParseOverridesCSV reads. A cell
// that a spreadsheet would read as a formula (a source of
// =HYPERLINK("…"), a name starting with -) is escaped with a leading
// apostrophe (celltext.Escape), which ParseOverridesCSV removes again; a
// value that is a plain number is written as it is, so a spreadsheet
// still reads it as that number.
func (o Overrides) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	cw.Write(strings.Split(OverridesHeader, ","))
	for _, r := range o.Rows {
		value := r.Value
		if !plainNumber(value) {
			value = celltext.Escape(value)
		}
		cw.Write([]string{celltext.Escape(r.Kind), celltext.Escape(r.ID), celltext.Escape(r.Field), value,
			celltext.Escape(r.AsOf), celltext.Escape(r.Source)})
	}
	cw.Flush()
	return cw.Error()
}

// plainNumber reports whether a spreadsheet reads s as a number and
// nothing else: a decimal with an optional sign and exponent (-1, +5,
// 2.5e-3), never a formula.
func plainNumber(s string) bool {
	if _, err := strconv.ParseFloat(s, 64); err != nil {
		return false
	}
	return strings.Trim(s, "0123456789.+-eE") == ""
}

// MarshalJSON encodes the overrides for the store: {"format":1,"rows":[…]}.
func (o Overrides) MarshalJSON() ([]byte, error) {
	rows := o.Rows
	if rows == nil {
		rows = []OverrideRow{}
	}
	return json.Marshal(struct {
		Format int           `json:"format"`
		Rows   []OverrideRow `json:"rows"`
	}{overridesFormat, rows})
}

// UnmarshalJSON decodes what MarshalJSON wrote. The rows are checked when
// they are applied.
func (o *Overrides) UnmarshalJSON(b []byte) error {
	var doc struct {
		Format int           `json:"format"`
		Rows   []OverrideRow `json:"rows"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return fmt.Errorf("catalog overrides: %w", err)
	}
	if doc.Format != overridesFormat {
		return fmt.Errorf("catalog overrides: format %d is not known (allowed: %d; a newer hostplan wrote them?)", doc.Format, overridesFormat)
	}
	o.Rows = doc.Rows
	return nil
}

// DecodeOverrides decodes the store's blob; empty data is no overrides.
func DecodeOverrides(data []byte) (Overrides, error) {
	var o Overrides
	if len(data) == 0 {
		return o, nil
	}
	err := json.Unmarshal(data, &o)
	return o, err
}

// Effective returns the embedded catalog with the overrides encoded in
// data (as the store keeps them) applied; empty data gives Default().
func Effective(data []byte) (*Catalog, error) {
	def, err := Default()
	if err != nil {
		return nil, err
	}
	o, err := DecodeOverrides(data)
	if err != nil || len(o.Rows) == 0 {
		return def, err
	}
	return def.Apply(o)
}
