// Package bom removes the UTF-8 byte order mark that some editors put at
// the start of a file (Notepad, a spreadsheet's "CSV UTF-8"): it carries
// no content, and a decoder would read it as text ("invalid character
// 'ï'"). Every reader of the user's files strips it with Strip or Reader.
package bom

import (
	"bufio"
	"bytes"
	"io"
)

// Mark is the byte order mark in UTF-8.
const Mark = "\uFEFF"

// Strip returns b without a leading byte order mark.
func Strip(b []byte) []byte { return bytes.TrimPrefix(b, []byte(Mark)) }

// Reader returns a reader of r without a leading byte order mark.
func Reader(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if p, err := br.Peek(len(Mark)); err == nil && string(p) == Mark {
		_, _ = br.Discard(len(Mark))
	}
	return br
}
