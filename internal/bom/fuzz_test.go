package bom

import (
	"bytes"
	"io"
	"testing"
)

// chunks is a reader that hands out its bytes size bytes at a time (1 to
// 8), as a pipe or a slow file may: a mark split across reads is still one
// mark.
type chunks struct {
	b    []byte
	size int
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), c.size, len(c.b))
	copy(p, c.b[:n])
	c.b = c.b[n:]
	return n, nil
}

// FuzzReader reads fuzzed bytes through Reader in reads of every size
// from 1 to 8 bytes: it gives exactly Strip's bytes, which are the input
// less one leading mark (only one: a second mark is text) and otherwise
// the input unchanged.
func FuzzReader(f *testing.F) {
	for _, s := range []string{"", Mark, Mark + Mark, Mark + "kind,id\n", "\xef\xbb", "\xef\xbb\xbe", "\xef\xbb\xbf\xef", "a" + Mark, "\xff\xfe"} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, b []byte, size uint8) {
		want := Strip(b)
		switch {
		case bytes.HasPrefix(b, []byte(Mark)) && !bytes.Equal(want, b[len(Mark):]),
			!bytes.HasPrefix(b, []byte(Mark)) && !bytes.Equal(want, b):
			t.Fatalf("Strip(%q) = %q", b, want)
		}
		got, err := io.ReadAll(Reader(&chunks{b: bytes.Clone(b), size: 1 + int(size)%8}))
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("Reader in reads of %d bytes: %q, %v; want %q", 1+int(size)%8, got, err, want)
		}
	})
}
