package ui

import (
	"testing"

	"hostplan/internal/scenario"
)

// The window's own wording; numbers and titles are tested in package
// present.
func TestWords(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{reasonsText(nil), ""},
		{reasonsText([]string{"too slow"}), "too slow"},
		{reasonsText([]string{"too slow", "too dear"}), "• too slow\n• too dear"},
		{itemDetail(Item{Shape: scenario.ShapeBatch, Revisions: 2}), "Batch inference · 2 revisions"},
		{itemName(Item{ID: "x1"}), "x1"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
