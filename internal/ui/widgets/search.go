package widgets

import "strings"

// HasWords reports whether key holds every word, anywhere and in any
// order: the match of the window's searches (the scenario list's search
// field, the offer picker's filter), which pass the words and the key in
// lower case. No words match every key.
func HasWords(key string, words []string) bool {
	for _, w := range words {
		if !strings.Contains(key, w) {
			return false
		}
	}
	return true
}
