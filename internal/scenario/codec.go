package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"reflect"
	"strings"

	"hostplan/internal/bom"
)

// Parse decodes and validates one scenario file's bytes, upgrading a file of
// an older schema version first (see Migrate). A file that is not JSON
// yields a single error with its line and column; otherwise every
// structural and semantic problem is returned together as Errors.
//
// Before decoding it refuses what a decoder would accept silently: a file
// over MaxFileBytes, a key given twice in one object (the last would win)
// and bytes that are not UTF-8 (they would become U+FFFD), each with its
// path (scan.go).
func Parse(b []byte) (*Scenario, error) {
	b = bom.Strip(b) // a byte order mark an editor put first carries nothing
	if len(b) > MaxFileBytes {
		return nil, Errors{{Path: "(file)", Problem: fmt.Sprintf("is %s bytes, too large to read", Num(float64(len(b)))),
			Allowed: fmt.Sprintf("a scenario file of at most %s bytes (1 MiB)", Num(MaxFileBytes))}}
	}
	if len(bytes.TrimSpace(b)) == 0 {
		return nil, Errors{{Path: "(file)", Problem: "is empty", Allowed: "one scenario object, as hostplan schema describes"}}
	}
	var raw any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		if errs := badUTF8(b); errs != nil {
			return nil, errs
		}
		return nil, syntaxError(b, err)
	}
	if dec.More() {
		return nil, Errors{{Path: "(file)", Problem: "has more than one JSON value", Allowed: "one scenario object"}}
	}
	if errs := scan(b); errs != nil {
		return nil, errs
	}
	// Upgrade a file of an older schema version (migrate.go); the struct
	// decode below then reads the upgraded document.
	if m, ok := raw.(map[string]any); ok {
		from, err := Migrate(m)
		if err != nil {
			return nil, err
		}
		if from != SchemaVersion {
			if b, err = json.Marshal(m); err != nil {
				return nil, Errors{{Path: "(file)", Problem: err.Error()}}
			}
		}
	}
	if raw == nil {
		return nil, Errors{{Path: "(file)", Problem: "is null", Allowed: "one scenario object, as hostplan schema describes"}}
	}
	raw = numbersToFloat(raw)
	c := &checker{}
	checkShape(c, raw, reflect.TypeOf(Scenario{}), "", "")
	if len(c.errs) > 0 {
		return nil, c.errs
	}
	var s Scenario
	if err := json.Unmarshal(b, &s); err != nil {
		// checkShape accepts everything Unmarshal accepts; reaching here is a bug,
		// but the user still gets a message rather than a panic.
		return nil, Errors{{Path: "(file)", Problem: err.Error()}}
	}
	if errs := Validate(&s); errs != nil {
		return &s, errs
	}
	return &s, nil
}

// Load reads and parses the scenario file at path. A file over
// MaxFileBytes is refused before it is read.
func Load(path string) (*Scenario, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	return Parse(b)
}

// Marshal encodes s as indented JSON with a trailing newline: the canonical
// on-disk form.
// HTML characters stay as written, so a description with "<" or "&"
// round-trips unchanged.
func Marshal(s *Scenario) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Clone returns a deep copy of s.
func Clone(s *Scenario) *Scenario {
	b, err := json.Marshal(s)
	if err != nil {
		panic("scenario: clone: " + err.Error())
	}
	var out Scenario
	if err := json.Unmarshal(b, &out); err != nil {
		panic("scenario: clone: " + err.Error())
	}
	return &out
}

func numbersToFloat(v any) any {
	switch x := v.(type) {
	case json.Number:
		f, err := x.Float64()
		if err != nil {
			return x.String() // out of float range: reported as "must be a number"
		}
		if strings.ContainsAny(x.String(), ".eE") {
			return decimal(f)
		}
		return f
	case map[string]any:
		for k, e := range x {
			x[k] = numbersToFloat(e)
		}
	case []any:
		for i, e := range x {
			x[i] = numbersToFloat(e)
		}
	}
	return v
}

func syntaxError(b []byte, err error) error {
	var se *json.SyntaxError
	off := int64(-1)
	if errors.As(err, &se) {
		off = se.Offset
	}
	if off < 0 {
		return Errors{{Path: "(file)", Problem: "is not valid JSON: " + err.Error()}}
	}
	line, col := 1, 1
	for _, ch := range b[:min(int(off), len(b))] {
		if ch == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return Errors{{Path: "(file)", Problem: fmt.Sprintf("is not valid JSON at line %d, column %d: %v", line, col, err)}}
}
