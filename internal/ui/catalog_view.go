package ui

import (
	"fmt"
	"strings"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/catalog"
	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// The catalog window (Tools → Catalog and overrides…): the catalog in use,
// read-only, one kind of entry at a time — each entry's fields with the
// values a CSV of overrides would give them, its as_of date and source,
// and a mark on the entries the store's overrides changed — and the
// override rows the store keeps, each with its date. Overrides are
// imported with Tools → Import prices… (reprice.go) or on the command line
// ("hostplan catalog import FILE.csv").

// cellTable is a read-only table of text with a header row, each column
// as wide as its widest cell (up to a limit, longer text cut short with an
// ellipsis); choosing a cell writes its row whole in detail.
type cellTable struct {
	header []string
	rows   [][]string
	bold   []bool // rows drawn in bold
	table  *widgets.KeyTable
	detail *widget.Label
}

// maxColumnWidth bounds a column; the detail line has the whole text.
const maxColumnWidth = 320

func newCellTable() *cellTable {
	t := &cellTable{}
	t.table = widgets.NewKeyTable(
		func() (int, int) { return len(t.rows), len(t.header) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			if id.Row < 0 || id.Row >= len(t.rows) || id.Col < 0 || id.Col >= len(t.rows[id.Row]) {
				l.SetText("")
				return
			}
			l.TextStyle.Bold = id.Row < len(t.bold) && t.bold[id.Row]
			l.SetText(t.rows[id.Row][id.Col])
		},
	)
	t.table.ShowHeaderColumn = false
	t.table.CreateHeader = func() fyne.CanvasObject {
		l := widget.NewLabel("")
		l.TextStyle.Bold = true
		l.Truncation = fyne.TextTruncateEllipsis
		return l
	}
	t.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		l := o.(*widget.Label)
		if id.Col >= 0 && id.Col < len(t.header) {
			l.SetText(t.header[id.Col])
		}
	}
	t.detail = widget.NewLabel("Choose a row to read it whole.")
	t.detail.Wrapping = fyne.TextWrapWord
	t.detail.SizeName = theme.SizeNameCaptionText
	t.table.OnSelected = func(id widget.TableCellID) {
		if id.Row < 0 || id.Row >= len(t.rows) {
			return
		}
		var parts []string
		for c, v := range t.rows[id.Row] {
			if v != "" && c < len(t.header) {
				parts = append(parts, t.header[c]+": "+v)
			}
		}
		t.detail.SetText(strings.Join(parts, " · "))
	}
	return t
}

// set replaces the table's content and fits its columns.
func (t *cellTable) set(header []string, rows [][]string, bold []bool) {
	t.header, t.rows, t.bold = header, rows, bold
	pad := 2*theme.InnerPadding() + 4*theme.Padding()
	for c, h := range header {
		w := fyne.MeasureText(h, theme.TextSize(), fyne.TextStyle{Bold: true}).Width
		for r, row := range rows {
			if c < len(row) {
				w = max(w, fyne.MeasureText(row[c], theme.TextSize(), fyne.TextStyle{Bold: r < len(bold) && bold[r]}).Width)
			}
		}
		t.table.SetColumnWidth(c, min(w+pad, maxColumnWidth))
	}
	t.table.UnselectAll()
	t.table.Refresh()
	t.table.ScrollToTop()
	t.table.ScrollToLeading()
	t.detail.SetText("Choose a row to read it whole.")
}

// catalogTable is the table of one kind of entry: id, name, every field,
// as_of, source and the override mark.
func catalogTable(cat *catalog.Catalog, kind catalog.Kind) (header []string, rows [][]string, bold []bool) {
	fields := catalog.Fields(kind)
	items := cat.Items(kind)
	values := map[string]map[string]string{} // id → field → value
	for _, r := range cat.Rows(kind) {
		if values[r.ID] == nil {
			values[r.ID] = map[string]string{}
		}
		values[r.ID][r.Field] = r.Value
	}
	// A name column, unless the name is the id or one of the fields.
	named := false
	for _, it := range items {
		dup := it.Name == "" || it.Name == it.ID
		for _, v := range values[it.ID] {
			dup = dup || v == it.Name
		}
		named = named || !dup
	}
	header = []string{"ID"}
	if named {
		header = append(header, "Name")
	}
	header = append(header, fields...)
	header = append(header, "As of", "Source", "Override")

	for _, it := range items {
		row := []string{it.ID}
		if named {
			row = append(row, it.Name)
		}
		for _, f := range fields {
			row = append(row, values[it.ID][f])
		}
		mark := ""
		if it.Entry.Overridden {
			mark = "override"
		}
		row = append(row, it.Entry.AsOf, it.Entry.Source, mark)
		rows = append(rows, row)
		bold = append(bold, it.Entry.Overridden)
	}
	return header, rows, bold
}

// showCatalog opens the catalog window.
func (p *planner) showCatalog() {
	cr := p.backend
	var (
		cat  *catalog.Catalog
		over catalog.Overrides
	)
	err := safeCall(func() (err error) {
		if cat, err = cr.Catalog(); err != nil {
			return err
		}
		over, err = cr.Overrides()
		return err
	})
	if err != nil {
		p.showProblems("Could not read the catalog", []string{err.Error()})
		return
	}

	entries := newCellTable()
	var kinds []string
	for _, k := range catalog.Kinds() {
		kinds = append(kinds, k.Title())
	}
	pick := widgets.NewKeySelect(kinds, func(title string) {
		for _, k := range catalog.Kinds() {
			if k.Title() == title {
				entries.set(catalogTable(cat, k))
			}
		}
	})
	pick.SetSelectedIndex(0)

	var all []catalog.Entry
	overridden := 0
	for _, it := range cat.Items("") {
		all = append(all, it.Entry)
		if it.Entry.Overridden {
			overridden++
		}
	}
	summary := widget.NewLabel(report.Whole(len(all)) + " catalog entries, " + report.Whole(overridden) + " changed by your overrides (in bold); the oldest price is as of " +
		catalog.OldestAsOf(all...) + ".")
	summary.Wrapping = fyne.TextWrapWord
	catalogTab := container.NewBorder(container.NewVBox(summary, container.NewHBox(widget.NewLabel("Show"), pick)), entries.detail, nil, nil, entries.table)

	rowsTable := newCellTable()
	var rows [][]string
	for _, r := range over.Rows {
		rows = append(rows, []string{r.Kind, r.ID, r.Field, r.Value, r.AsOf, r.Source})
	}
	rowsTable.set([]string{"Kind", "ID", "Field", "Value", "As of", "Source"}, rows, nil)
	note := fmt.Sprintf("The store keeps %s, each with the date and source you gave it. Import more with Tools → Import prices… or “hostplan catalog import FILE.csv”; remove them with “hostplan catalog reset”.",
		present.Count(len(over.Rows), "override row"))
	if len(over.Rows) == 0 {
		note = "The store keeps no overrides: the built-in catalog applies. Import your own prices with Tools → Import prices… or “hostplan catalog import FILE.csv” (hostplan catalog help says how)."
	}
	overNote := widget.NewLabel(note)
	overNote.Wrapping = fyne.TextWrapWord
	overridesTab := container.NewBorder(overNote, rowsTable.detail, nil, nil, rowsTable.table)

	tabs := container.NewAppTabs(
		container.NewTabItem("Catalog in use", catalogTab),
		container.NewTabItem("Your overrides ("+report.Whole(len(over.Rows))+")", overridesTab),
	)
	size := p.window.Canvas().Size()
	body := container.New(&widgets.FixedSize{Size: fyne.NewSize(size.Width*0.9, size.Height*0.85)}, tabs)
	d := dialog.NewCustom("Catalog and overrides", "Close", body, p.window)
	p.dialogs.showDialog(d)
}
