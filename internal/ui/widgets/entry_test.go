package widgets

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// wrapText is prose typed into a word-wrapping entry: at the widths
// TestWrappingEntryKeepsTypedText tries, its spaces fall on wrap points,
// where Fyne's entry used to leave the cursor before the space it had just
// typed, so the rest of the text went in before that space
// (fyne-io/fyne#2698).
const wrapText = "The client data must stay in the EU; four runs a month of the model are planned over two years."

// typeIn types text into the multi-line entry e of the given width, a key
// at a time, as a user does.
func typeIn(t *testing.T, width float32, text string, each func(e *KeyEntry)) *KeyEntry {
	t.Helper()
	e := NewKeyMultiLineEntry()
	w := test.NewWindow(e)
	t.Cleanup(w.Close)
	w.Resize(fyne.NewSize(width, 300))
	w.Canvas().Focus(e)
	for _, r := range text {
		e.TypedRune(r)
		if each != nil {
			each(e)
		}
	}
	return e
}

// Typed text is kept exactly, at every width from a narrow field to a
// wide one (wrap points in every place), and the cursor ends after the
// last key typed.
func TestWrappingEntryKeepsTypedText(t *testing.T) {
	test.NewTempApp(t)
	for width := float32(120); width < 420; width += 3 {
		e := typeIn(t, width, wrapText, func(e *KeyEntry) {
			if got := e.CursorOffset(); got != len([]rune(e.Text)) {
				t.Fatalf("width %v: after %q the cursor is at %d, not at its end", width, e.Text, got)
			}
		})
		if e.Text != wrapText {
			t.Fatalf("width %v: typed\n%q\nthe entry holds\n%q", width, wrapText, e.Text)
		}
	}
}

// Backspace after a space typed at a wrap point removes that space, and
// Enter after it starts a new line after it; text typed in the middle of a
// wrapped paragraph goes in where the cursor is.
func TestWrappingEntryEditsAtWrapPoints(t *testing.T) {
	test.NewTempApp(t)
	for width := float32(120); width < 420; width += 3 {
		// Type a word and a space, then delete the word: the cursor sits
		// after a space at a wrap point.
		e := typeIn(t, width, wrapText+" x", nil)
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
		if got, want := e.Text, wrapText+" "; got != want {
			t.Fatalf("width %v: after Backspace %q, want %q", width, got, want)
		}
		e.TypedRune('y')
		if got, want := e.Text, wrapText+" y"; got != want {
			t.Fatalf("width %v: typed after Backspace: %q, want %q", width, got, want)
		}
		for range 2 {
			e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyBackspace})
		}
		if got, want := e.Text, wrapText; got != want {
			t.Fatalf("width %v: after two Backspaces %q, want %q", width, got, want)
		}
		e.TypedRune(' ')
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		e.TypedRune('z')
		if got, want := e.Text, wrapText+" \nz"; got != want {
			t.Fatalf("width %v: Enter after a space: %q, want %q", width, got, want)
		}
	}
}
