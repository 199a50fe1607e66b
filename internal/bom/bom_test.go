package bom

import (
	"io"
	"strings"
	"testing"
)

func TestStrip(t *testing.T) {
	for in, want := range map[string]string{Mark + "{}": "{}", "{}": "{}", Mark: "", "": "", "a" + Mark: "a" + Mark, Mark + Mark + "x": Mark + "x", "\xef\xbb": "\xef\xbb"} {
		if got := string(Strip([]byte(in))); got != want {
			t.Errorf("Strip(%q) = %q, want %q", in, got, want)
		}
		b, err := io.ReadAll(Reader(strings.NewReader(in)))
		if err != nil || string(b) != want {
			t.Errorf("Reader(%q) = %q, %v; want %q", in, b, err, want)
		}
	}
}
