package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// Change is one difference between two scenario documents: the field's
// path (workload.tokens_per_run_b.likely, data.return_outputs[1]) and its
// value on each side as compact JSON, or Absent.
type Change struct {
	Path, Before, After string
}

// Absent stands for the value of a field one side does not have.
const Absent = "(absent)"

// Diff compares two scenarios field by field as scenario.Marshal writes
// them (so a revision of an older schema compares in the current one), in
// the order of the file: objects key by key, lists item by item, anything
// else as a whole value. Equal scenarios have no changes.
func Diff(a, b *Scenario) ([]Change, error) {
	var docs [2][]byte
	for i, s := range []*Scenario{a, b} {
		m, err := Marshal(s)
		if err != nil {
			return nil, err
		}
		docs[i] = m
	}
	return DiffJSON(docs[0], docs[1])
}

// DiffJSON compares two JSON documents as Diff does, listing fields in the
// order the documents have them (a's first, then those only b has).
func DiffJSON(a, b []byte) ([]Change, error) {
	da, err := decodeOrdered(a)
	if err != nil {
		return nil, err
	}
	db, err := decodeOrdered(b)
	if err != nil {
		return nil, err
	}
	var out []Change
	diffJSON("", da, db, &out)
	return out, nil
}

// orderedObject is a decoded JSON object that keeps its keys in file order, so
// a diff lists fields in the order a scenario file has them.
type orderedObject struct {
	keys []string
	vals map[string]any
}

// decodeOrdered decodes JSON into orderedObject, []any, json.Number, string,
// bool and nil.
func decodeOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &orderedObject{vals: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			key := k.(string)
			// A key given twice is one field, where the first one was,
			// with the last value (as encoding/json reads it).
			if _, dup := o.vals[key]; !dup {
				o.keys = append(o.keys, key)
			}
			o.vals[key] = v
		}
		_, err := dec.Token() // '}'
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ']'
		return a, err
	}
	return tok, nil
}

// diffJSON appends the differences between a and b under path: objects and
// lists field by field and item by item, anything else as a whole value.
func diffJSON(path string, a, b any, out *[]Change) {
	oa, aObj := a.(*orderedObject)
	ob, bObj := b.(*orderedObject)
	if aObj && bObj {
		keys := slices.Clone(oa.keys)
		for _, k := range ob.keys {
			if _, ok := oa.vals[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			va, inA := oa.vals[k]
			vb, inB := ob.vals[k]
			switch {
			case inA && inB:
				diffJSON(p, va, vb, out)
			case inA:
				*out = append(*out, Change{p, render(va), Absent})
			default:
				*out = append(*out, Change{p, Absent, render(vb)})
			}
		}
		return
	}
	la, aList := a.([]any)
	lb, bList := b.([]any)
	if aList && bList {
		for i := range max(len(la), len(lb)) {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i < len(la) && i < len(lb):
				diffJSON(p, la[i], lb[i], out)
			case i < len(la):
				*out = append(*out, Change{p, render(la[i]), Absent})
			default:
				*out = append(*out, Change{p, Absent, render(lb[i])})
			}
		}
		return
	}
	if ra, rb := render(a), render(b); ra != rb {
		*out = append(*out, Change{path, ra, rb})
	}
}

// render writes a decoded value as compact JSON with a space after ':' and
// ',', HTML characters as they are.
func render(v any) string {
	var sb strings.Builder
	renderTo(&sb, v)
	return sb.String()
}

func renderTo(sb *strings.Builder, v any) {
	switch x := v.(type) {
	case *orderedObject:
		sb.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				sb.WriteString(", ")
			}
			renderTo(sb, k)
			sb.WriteString(": ")
			renderTo(sb, x.vals[k])
		}
		sb.WriteByte('}')
	case []any:
		sb.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				sb.WriteString(", ")
			}
			renderTo(sb, e)
		}
		sb.WriteByte(']')
	case string:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(x)
		sb.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	case nil:
		sb.WriteString("null")
	default:
		fmt.Fprint(sb, x) // json.Number, bool
	}
}
