package export

import (
	"strings"

	"hostplan/internal/model"
)

func writeNotes(b *book, r *model.Report) {
	const sh = sheetNotes
	b.headerRow(sh, 1, "Direction", "Kind", "Text")
	row := 2
	add := func(who, kind, text string) {
		b.str(sh, 1, row, who)
		b.str(sh, 2, row, kind)
		link := 0
		if kind == "Source" {
			// "<entry> (as of <date>): <source>": the source itself is on
			// the Sources sheet, once.
			if _, src, ok := strings.Cut(text, "): "); ok {
				text, link = b.citing(text, src, who+" (Notes)")
			}
		}
		b.str(sh, 3, row, text)
		if link > 0 {
			b.fail(b.f.SetCellHyperLink(sh, cell(3, row), sheetSources+"!"+cell(1, link), "Location"))
		}
		b.style(sh, cell(3, row), cell(3, row), b.wrap)
		b.wrapsText(sh, row)
		row++
	}
	for _, w := range r.Warnings {
		add("All", "Warning", w.Text)
	}
	for _, d := range r.Directions {
		for _, n := range d.Notes {
			add(d.Title, "Note", n.Text)
		}
		for _, s := range d.Sources {
			add(d.Title, "Source", s)
		}
	}
	b.widths(sh, 18, 10, 100)
	b.freeze(sh, 1)
}
