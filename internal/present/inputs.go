package present

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"hostplan/internal/scenario"
)

// Input is one input of a scenario: a field that is not an object, or an
// empty list of objects (which stands for the whole list).
type Input struct {
	Path  string // with list indices: "data.lifecycle[2].owner"
	Field Field  // its wording; Field.Path has "[]" for indices
	Index int    // 1-based position in the innermost list, 0 outside lists
	// Value is the field's value: a scenario.Value, string, bool, int,
	// float64, uint64 or []string, or an empty list of objects.
	Value any
	// optional: the file leaves the field out when it is empty (its JSON
	// tag has omitempty or omitzero).
	optional bool
}

// Inputs lists every input of s in file order, as encoding/json sees the
// fields. An absent optional object (workload.traffic) is listed with its
// zero values, so every field appears; an empty list of objects is one
// input, not given.
func Inputs(s *scenario.Scenario) []Input {
	var out []Input
	walk(reflect.ValueOf(*s), "", 0, func(path string, index int, v reflect.Value, optional bool) {
		f, ok := Lookup(path)
		if !ok {
			f = Field{Path: Normalize(path), Label: path}
		}
		out = append(out, Input{Path: path, Field: f, Index: index, Value: v.Interface(), optional: optional})
	})
	return out
}

var valueType = reflect.TypeOf(scenario.Value{})

// leafFunc receives one input: its path, list position, value and whether
// the file may leave it out.
type leafFunc func(path string, index int, v reflect.Value, optional bool)

// walk calls leaf for every input of v in field order.
func walk(v reflect.Value, path string, index int, leaf leafFunc) {
	walkField(v, path, index, false, leaf)
}

func walkField(v reflect.Value, path string, index int, optional bool, leaf leafFunc) {
	t := v.Type()
	switch {
	case t == valueType:
		leaf(path, index, v, optional)
	case t.Kind() == reflect.Pointer:
		if v.IsNil() {
			v = reflect.Zero(t.Elem())
		} else {
			v = v.Elem()
		}
		walkField(v, path, index, optional, leaf)
	case t.Kind() == reflect.Struct:
		for i := range t.NumField() {
			f := t.Field(i)
			if f.Anonymous && f.Type.Kind() == reflect.Struct {
				walkField(v.Field(i), path, index, optional, leaf)
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "" {
				name = f.Name
			}
			if !f.IsExported() || name == "-" {
				continue
			}
			omit := strings.Contains(opts, "omitempty") || strings.Contains(opts, "omitzero")
			walkField(v.Field(i), join(path, name), index, omit, leaf)
		}
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Struct:
		if v.Len() == 0 {
			leaf(path, index, v, optional)
			return
		}
		for i := range v.Len() {
			walkField(v.Index(i), fmt.Sprintf("%s[%d]", path, i), i+1, false, leaf)
		}
	default:
		leaf(path, index, v, optional)
	}
}

func jsonName(f reflect.StructField) string {
	name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
	if name == "" {
		return f.Name
	}
	return name
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

// Label is the field's label with the input's list position: "Lifecycle
// stage owner (3)".
func (in Input) Label() string {
	if in.Index > 0 {
		return fmt.Sprintf("%s (%d)", in.Field.Label, in.Index)
	}
	return in.Field.Label
}

// Title is the label with the list position and the unit: "Tokens per
// run (billions)", "Trial throughput (2, items or tokens/s)".
func (in Input) Title(currency string) string {
	var parts []string
	if in.Index > 0 {
		parts = append(parts, strconv.Itoa(in.Index))
	}
	if in.Field.Unit != "" {
		parts = append(parts, in.Field.UnitIn(currency))
	}
	if len(parts) == 0 {
		return in.Field.Label
	}
	return in.Field.Label + " (" + strings.Join(parts, ", ") + ")"
}

// Given reports whether the scenario gives the input: a set value, a
// non-empty text or list, a non-zero number; a flag when it is true or
// the file always states it (data.personal_data, …).
func (in Input) Given() bool {
	switch v := in.Value.(type) {
	case scenario.Value:
		return v.IsSet()
	case string:
		return v != ""
	case bool:
		return v || !in.optional
	case int:
		return v != 0
	case float64:
		return v != 0
	case uint64:
		return v != 0
	case []string:
		return len(v) > 0
	}
	rv := reflect.ValueOf(in.Value)
	return rv.Kind() != reflect.Slice || rv.Len() > 0
}

// Text is the input's value for reading, without its unit (Title has
// it): numbers as Number writes them, choices by their labels, flags as
// Yes or No; NoValue when the input is not given.
func (in Input) Text() string {
	if !in.Given() {
		return NoValue
	}
	switch v := in.Value.(type) {
	case scenario.Value:
		return Value(v)
	case string:
		if Choices(in.Path) != nil {
			return ChoiceLabel(in.Path, v)
		}
		return v
	case bool:
		return YesNo(v)
	case int:
		return Number(float64(v))
	case float64:
		return Number(v)
	case uint64:
		return strconv.FormatUint(v, 10)
	case []string:
		if Choices(in.Path) != nil {
			return ChoiceLabels(in.Path, v)
		}
		return strings.Join(v, ", ")
	}
	return fmt.Sprint(in.Value)
}
