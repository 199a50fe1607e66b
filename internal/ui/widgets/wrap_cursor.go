package widgets

import "fyne.io/fyne/v2"

// The cursor of a word-wrapping entry, kept where the user typed.
//
// Fyne's entry (2.7) locates its cursor by row and column of the wrapped
// text, and word wrapping leaves a space at a wrap point out of every row:
// a row ends before it and the next begins after it. When that space is
// the last character of a line of text (typed at the end, or before a
// line break), the place after it belongs to no row, and the entry moves
// the cursor to the end of the row before the space — so the next key goes
// in before the space, which drifts to the end of the text as the user
// types on ("must stay in the EU" became "must stayin the EU … "):
// fyne-io/fyne#2698, in Entry.rowColFromTextPos, and its Refresh, which
// clamps the column to the row's length.
//
// KeyEntry works around it: after each edit it works out where the cursor
// belongs (the edit's start plus what it inserted) and, when Fyne put it
// elsewhere, keeps that place; before the next key, if neither the text
// nor the cursor moved meanwhile, it sets the column past the row's end,
// which Fyne reads as that place (Entry.CursorTextOffset is the row's
// start plus the column). The cursor is drawn at the end of the row, where
// the space at the wrap point is.

// editKind says where an edit starts when nothing is selected.
type editKind int

const (
	editInsert    editKind = iota // at the cursor: a key, Enter, a paste
	editBackspace                 // the character before the cursor
	editDelete                    // the character after it
)

// lostCursor is a place of the cursor that Fyne's rows cannot hold.
type lostCursor struct {
	held     bool
	at       int    // the place, in runes of text
	row, col int    // where Fyne put the cursor instead
	text     string // the text at the time
}

// CursorOffset is the cursor's place in the text, in runes: where the
// last edit left it when Fyne could not hold it there.
func (e *KeyEntry) CursorOffset() int {
	if l := e.lost; l.held && l.text == e.Text && l.row == e.CursorRow && l.col == e.CursorColumn {
		return l.at
	}
	return e.CursorTextOffset()
}

// restoreCursor puts the cursor back where the last edit left it, when
// Fyne could not hold it there and nothing has moved it since.
func (e *KeyEntry) restoreCursor() {
	at := e.CursorOffset()
	e.lost = lostCursor{}
	e.CursorColumn += at - e.CursorTextOffset()
}

// edit runs do, an edit by the user (a key, a paste), and keeps the
// cursor's place after it when Fyne cannot.
func (e *KeyEntry) edit(kind editKind, do func()) {
	e.restoreCursor()
	if !e.MultiLine || e.Wrapping != fyne.TextWrapWord || e.Disabled() {
		do()
		return
	}
	before := []rune(e.Text)
	c := e.CursorTextOffset()
	sel := len([]rune(e.SelectedText()))
	do()
	if e.Text == string(before) {
		return
	}
	after := []rune(e.Text)
	start, end := c, c
	switch {
	case sel > 0:
		start = selectionStart(before, after, c, sel)
		end = start + sel
	case kind == editBackspace:
		start = c - 1
	case kind == editDelete:
		end = c + 1
	}
	if start < 0 || end > len(before) {
		return
	}
	want := start + len(after) - (len(before) - (end - start))
	if want < 0 || want > len(after) || want == e.CursorTextOffset() {
		return
	}
	e.lost = lostCursor{held: true, at: want, row: e.CursorRow, col: e.CursorColumn, text: e.Text}
}

// selectionStart is where the selection of n runes that an edit replaced
// began: it ends or starts at the cursor c, and the text outside it is
// the same before and after the edit.
func selectionStart(before, after []rune, c, n int) int {
	k := len(after) - len(before) + n // runes inserted
	for _, s := range []int{c - n, c} {
		if s < 0 || s+n > len(before) || s+k > len(after) {
			continue
		}
		if string(before[:s]) == string(after[:s]) && string(before[s+n:]) == string(after[s+k:]) {
			return s
		}
	}
	return c
}
