package export

import (
	"fmt"
	"strings"
)

// The Sources sheet lists every source the drivers cite once, each with
// an id (S1, S2 …) that the Drivers sheet's Source column refers to
// instead of repeating it: a site's bibliography runs to thousands of
// characters, and nine site drivers cite the same one.

// sheetSources is the name of the Sources sheet.
const sheetSources = "Sources"

// rowSrcHeader is the Sources sheet's header row; source i (from 1) is on
// row rowSrcHeader+i.
const rowSrcHeader = 3

// cited is a source the workbook cites: its text and who cites it.
type cited struct {
	text  string
	users []string
}

// cite returns the id of source text (S1, S2 …), listing it on first use,
// and notes that user cites it.
func (b *book) cite(text, user string) string {
	text = strings.TrimSpace(text)
	i := -1
	for k, c := range b.sources {
		if c.text == text {
			i = k
		}
	}
	if i < 0 {
		b.sources = append(b.sources, cited{text: text})
		i = len(b.sources) - 1
	}
	b.sources[i].users = appendNew(b.sources[i].users, user)
	return fmt.Sprintf("S%d", i+1)
}

// citing is text with source (a part of it) replaced by its id on the
// Sources sheet, and the row of that id; text as it is and 0 when source
// is empty or not in text.
func (b *book) citing(text, source, user string) (string, int) {
	source = strings.TrimSpace(source)
	if source == "" || !strings.Contains(text, source) {
		return text, 0
	}
	id := b.cite(source, user)
	var n int
	fmt.Sscanf(id, "S%d", &n)
	return strings.Replace(text, source, "source "+id+" (Sources sheet)", 1), rowSrcHeader + n
}

// writeSources writes the Sources sheet: every source cited, once.
func writeSources(b *book) {
	const sh = sheetSources
	b.title(sh, 1, 1, "Sources: each source the drivers cite, once; the Drivers sheet refers to them by id")
	b.headerRow(sh, rowSrcHeader, "Id", "Source", "Cited by")
	if len(b.sources) == 0 {
		b.str(sh, 1, rowSrcHeader+1, "No driver cites a source.")
	}
	for i, c := range b.sources {
		row := rowSrcHeader + 1 + i
		b.str(sh, 1, row, fmt.Sprintf("S%d", i+1))
		b.str(sh, 2, row, c.text)
		b.style(sh, cell(2, row), cell(2, row), b.wrap)
		b.str(sh, 3, row, strings.Join(c.users, "; "))
		b.style(sh, cell(3, row), cell(3, row), b.wrap)
		b.wrapsText(sh, row)
	}
	b.widths(sh, 8, 100, 50)
	b.freeze(sh, rowSrcHeader)
}
