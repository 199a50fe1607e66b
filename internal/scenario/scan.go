package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"unicode/utf8"
)

// scan walks the JSON tokens of b, a document that decodes, and returns
// what decoding would hide, each with its path: a key given twice in one
// object (encoding/json keeps the last silently) and text that is not
// UTF-8 (encoding/json turns it into U+FFFD). nil when there is neither.
func scan(b []byte) Errors {
	bad := int64(firstInvalidUTF8(b))
	var errs Errors
	type frame struct {
		object bool
		path   string
		keys   map[string]bool
		key    string // the last key read, in an object
		want   bool   // in an object: the next string is a key
		index  int    // in an array: the index of the next value
	}
	var stack []*frame
	// child is the path of the value about to be read.
	child := func() string {
		if len(stack) == 0 {
			return ""
		}
		f := stack[len(stack)-1]
		if f.object {
			return join(f.path, f.key)
		}
		return fmt.Sprintf("%s[%d]", f.path, f.index)
	}
	// done marks a value of the enclosing container read.
	done := func() {
		if len(stack) == 0 {
			return
		}
		f := stack[len(stack)-1]
		if f.object {
			f.want = true
		} else {
			f.index++
		}
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			break // the end, or a syntax error Parse reports itself
		}
		end := dec.InputOffset()
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, ok := tok.(string); ok && top != nil && top.object && top.want {
			path := join(top.path, s)
			if top.keys[s] {
				errs = append(errs, FieldError{Path: path, Problem: "duplicate key", Allowed: "each key once in an object"})
			}
			top.keys[s], top.key, top.want = true, s, false
			if bad >= start && bad < end {
				errs = append(errs, utf8Error(b, int(bad), orRoot(top.path), "a key"))
				bad = -1
			}
			continue
		}
		path := child()
		if bad >= start && bad < end {
			errs = append(errs, utf8Error(b, int(bad), orRoot(path), "the text"))
			bad = -1
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, path: path, keys: map[string]bool{}, want: true})
		case json.Delim('['):
			stack = append(stack, &frame{path: path})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			done()
		default:
			done()
		}
	}
	if bad >= 0 {
		errs = append(errs, utf8Error(b, int(bad), "(file)", "the file"))
	}
	if len(errs) == 0 {
		return nil
	}
	return errs
}

// badUTF8 reports a file that is not UTF-8 where its JSON cannot be
// walked (a syntax error follows the bad bytes): by line and column only.
func badUTF8(b []byte) Errors {
	if off := firstInvalidUTF8(b); off >= 0 {
		return Errors{utf8Error(b, off, "(file)", "the file")}
	}
	return nil
}

// firstInvalidUTF8 is the offset of the first byte of b that is not part
// of valid UTF-8, or -1.
func firstInvalidUTF8(b []byte) int {
	if utf8.Valid(b) {
		return -1
	}
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return -1
}

// utf8Error is the problem of invalid UTF-8 at byte off of b, found in what.
func utf8Error(b []byte, off int, path, what string) FieldError {
	line, col := position(b, off)
	return FieldError{Path: path,
		Problem: fmt.Sprintf("%s is not valid UTF-8 (byte %d, line %d, column %d)", what, off, line, col),
		Allowed: "UTF-8 text; save the file as UTF-8"}
}

// position is the line and column (1-based, in bytes) of offset off in b.
func position(b []byte, off int) (line, col int) {
	line, col = 1, 1
	for _, ch := range b[:min(off, len(b))] {
		if ch == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
