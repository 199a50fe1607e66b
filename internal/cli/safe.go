package cli

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"hostplan/internal/scenario"
)

// safeText is what the commands print of text they did not write — read
// from a file or the store — so that none of it can steer the terminal:
// every character scenario.UnsafeRune names (control characters, bidi
// controls) is written as \uXXXX, and a byte that is not UTF-8 as \xNN.
// With keepLines, line feeds and tabs stay (a document or JSON printed
// whole); in a table cell or a line they are escaped too. A JSON string
// escaped so reads back as the same string.
func safeText(s string, keepLines bool) string {
	clean := true
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 || scenario.UnsafeRune(r) && !(keepLines && (r == '\n' || r == '\t')) {
			clean = false
			break
		}
		i += n
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case scenario.UnsafeRune(r) && !(keepLines && (r == '\n' || r == '\t')):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// writeSafe writes a document or JSON (b) with safeText, lines kept.
func writeSafe(w io.Writer, b []byte) error {
	_, err := io.WriteString(w, safeText(string(b), true))
	return err
}

// safeOut returns a writer for a command's output and the function that
// prints what was written to it to e.stdout through safeText, lines kept:
// the output of a command that prints text from a file or the store.
func (e *env) safeOut() (io.Writer, func() error) {
	var b bytes.Buffer
	return &b, func() error { return writeSafe(e.stdout, b.Bytes()) }
}

// cell is safeText of a table cell or a part of a line: line breaks and
// tabs escaped too.
func cell(s string) string { return safeText(s, false) }
