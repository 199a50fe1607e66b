package export

import (
	"fmt"
	"slices"
	"time"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/version"
)

// Columns of the Lineage table.
const (
	colLinRev = 1 + iota
	colLinTime
	colLinAuthor
	colLinNote
	colLinModel
	colLinCatalog
	colLinHash
)

// rowLinHeader is the header row of the lineage table.
const rowLinHeader = 6

// fmtDateTime is the number format of a revision's time.
const fmtDateTime = "yyyy-mm-dd hh:mm:ss"

// fmtDate is the number format of a date.
const fmtDate = "yyyy-mm-dd"

// date writes text, a date as YYYY-MM-DD (a price's as_of), as a real
// date in the date format; any other text (none, "—") as text.
func (b *book) date(sheet string, col, row int, text string) {
	t, err := time.Parse(time.DateOnly, text)
	if err != nil {
		b.str(sheet, col, row, text)
		return
	}
	b.numLeft(sheet, col, row, excelTime(t), fmtDate, "date "+text)
}

// excelTime is t as a spreadsheet date: days since 1899-12-30 (the 1900
// date system; day 25 569 is 1970-01-01), in UTC, to the second.
func excelTime(t time.Time) float64 {
	return float64(t.UTC().Unix())/86400 + 25569
}

// writeLineage writes the revisions of the stored scenario, oldest first
// and so the newest last; a file export has one row that says so.
//
// A file's row (revision 0) names author as its author — the one the user
// gave (Extras.Author), or none — not the login its caller filled in; no
// absolute path is shown (withoutDirs).
func writeLineage(b *book, s *scenario.Scenario, r *model.Report, source, author string, rows []scenario.Revision) {
	const sh = sheetLineage
	b.widths(sh, 16, 20, 18, 48, 10, 14, 34)
	b.spanText(sh, 1, 1, colLinHash, "Lineage: the revisions of this scenario, oldest first", textStyle{bold: true, size: sizeHead})
	b.title(sh, 1, 3, "Scenario id")
	b.str(sh, 2, 3, s.ID)
	b.title(sh, 1, 4, "Exported from")
	b.spanText(sh, 4, 2, colLinHash, orDash(withoutDirs(source)), textStyle{})
	b.title(sh, 1, 5, "Written by")
	b.spanText(sh, 5, 2, colLinHash, version.Current().String(), textStyle{})

	b.headerRow(sh, rowLinHeader, "Revision", "Time (UTC)", "Author", "Note", "Model version", "Catalog as of", "Input hash (sha256 of the canonical scenario JSON)")
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, c scenario.Revision) int { return a.Number - c.Number })
	for i, l := range rows {
		row := rowLinHeader + 1 + i
		field := func(name string) string { return fmt.Sprintf("lineage[%d].%s", i, name) }
		if l.Number > 0 {
			b.numLeft(sh, colLinRev, row, float64(l.Number), fmtGeneral, field("rev"))
		} else {
			b.spanText(sh, row, colLinRev, colLinRev, "file", textStyle{})
		}
		if !l.Time.IsZero() {
			b.numLeft(sh, colLinTime, row, excelTime(l.Time), fmtDateTime, field("time"))
		}
		who := l.Author
		if l.Number == 0 {
			who = author
		}
		b.spanText(sh, row, colLinAuthor, colLinAuthor, orDash(who), textStyle{})
		b.spanText(sh, row, colLinNote, colLinNote, orDash(withoutDirs(l.Note)), textStyle{})
		b.spanText(sh, row, colLinModel, colLinModel, orDash(l.ModelVersion), textStyle{})
		b.date(sh, colLinCatalog, row, orDash(l.CatalogAsOf))
		b.spanText(sh, row, colLinHash, colLinHash, l.InputHash, textStyle{})
	}
	if len(rows) == 0 {
		b.str(sh, 1, rowLinHeader+1, "No revisions given.")
	}
	writeRates(b, r, rowLinHeader+2+max(len(rows), 1))
	b.freeze(sh, rowLinHeader)
}

// writeRates writes, from row on, the exchange rates the report converted
// catalog prices into its currency with: the rate table the money figures
// rest on.
func writeRates(b *book, r *model.Report, row int) {
	const sh = sheetLineage
	if len(r.ExchangeRates) == 0 {
		b.spanText(sh, row, 1, colLinHash, "Exchange rates: none used; every catalog price was in "+orDash(r.Currency)+" already.", textStyle{})
		return
	}
	b.spanText(sh, row, 1, colLinHash, "Exchange rates: catalog prices converted into "+r.Currency+" (units of "+r.Currency+" per unit)", textStyle{bold: true})
	b.headerRow(sh, row+1, "From", "Rate", "As of", "Source")
	for i, x := range r.ExchangeRates {
		at := row + 2 + i
		b.str(sh, 1, at, x.From)
		if _, ok := b.names[rateName(x.From, x.To)]; ok {
			// The driver on Drivers: the rate every converted price reads.
			b.formula(sh, 2, at, rateName(x.From, x.To), b.numFmt("0.000000", false), numResult(x.Rate))
		} else {
			b.numLeft(sh, 2, at, x.Rate, "0.000000", fmt.Sprintf("exchange_rates[%d].rate", i))
		}
		b.date(sh, 3, at, orDash(x.AsOf))
		src := x.Source
		if x.Given {
			src = "the scenario's exchange_rates" + map[bool]string{true: ": " + src, false: ""}[src != ""]
		}
		b.spanText(sh, at, 4, colLinHash, orDash(src), textStyle{})
	}
}
