package present

import (
	"encoding/json"
	"strings"

	"hostplan/internal/scenario"
)

// Schema returns the scenario's JSON Schema (scenario.JSONSchema) with the
// wording of every field as the schema's own annotations: "title" is the
// field's label and "description" its help, unit and allowed values, so an
// editor that reads the schema explains each field as the window does.
func Schema() map[string]any {
	s := scenario.JSONSchema()
	annotateFields(s, "")
	return s
}

// SchemaJSON is Schema, indented.
func SchemaJSON() []byte {
	b, err := json.MarshalIndent(Schema(), "", "  ")
	if err != nil {
		panic("present: schema: " + err.Error())
	}
	return append(b, '\n')
}

// annotateFields annotates the fields of the object (or list of objects)
// described by node, at path.
func annotateFields(node map[string]any, path string) {
	if items, ok := node["items"].(map[string]any); ok {
		node, path = items, path+"[]"
	}
	props, _ := node["properties"].(map[string]any)
	for name, child := range props {
		p := join(path, name)
		c := child.(map[string]any)
		if f, ok := fields[p]; ok {
			c["title"] = f.Label
			c["description"] = describe(f)
		}
		annotateFields(c, p)
	}
}

// describe is the description of field f: its help, its unit and, for an
// enumerated field, what each value means.
func describe(f Field) string {
	d := f.Help
	if f.Unit != "" {
		d += " Unit: " + strings.ReplaceAll(f.Unit, "¤", "the scenario currency") + "."
	}
	if cs := choices[f.Path]; cs != nil {
		parts := make([]string, len(cs))
		for i, c := range cs {
			parts[i] = c.Value + ": " + c.Label
		}
		d += " Values: " + strings.Join(parts, "; ") + "."
	}
	return d
}
