package widgets

import "testing"

func TestHasWords(t *testing.T) {
	const key = "lambda-h100 lambda labs us-east h100 sxm"
	for _, tc := range []struct {
		name  string
		words []string
		want  bool
	}{
		{"no words", nil, true},
		{"one word", []string{"lambda"}, true},
		{"every word, in another order", []string{"sxm", "us-east", "h100"}, true},
		{"part of a word", []string{"east"}, true},
		{"one word missing", []string{"h100", "eu-west"}, false},
		{"case as given", []string{"Lambda"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := HasWords(key, tc.words); got != tc.want {
				t.Errorf("HasWords(%q, %q) = %v, want %v", key, tc.words, got, tc.want)
			}
		})
	}
}
