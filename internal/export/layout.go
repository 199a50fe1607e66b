package export

import (
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/celltext"
	"hostplan/internal/costid"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Number formats by kind. The sheets name a kind; numFmt turns it into the
// format of the workbook's currency, e.g. #,##0.00 "EUR", which Excel and
// LibreOffice both render the same in any locale.
const (
	// fmtMoney is an amount in the scenario's currency: two decimals.
	fmtMoney = "money"
	// fmtPrice is a per-unit amount (a price per GPU-hour, a cost per
	// run): below 1 with up to six decimals, so that 0.083572 does not
	// show as 0.08; from 1 up with two.
	fmtPrice = "price"
	// fmtMoneyWhole is a simulated or swung amount: whole units.
	fmtMoneyWhole = "money whole"
)

// unitFormats are the number formats of the drivers' units (costid's
// driver table), so that every figure on Drivers and Costs shows in its
// unit's format: months with "months", fractions as percentages, GPU-hours
// and requests grouped. A unit not listed, money aside, is General.
var unitFormats = map[string]string{
	"months": fmtMonths, "month": fmtWhole,
	"fraction": fmtPercent, "fraction/year": fmtPercent,
	"GPU-hours": fmtGPUHours, "GPU-hours/month": fmtGPUHours, "replica-hours": fmtHours,
	"hours": fmtHours, "hours/month": fmtHours, "days": "#,##0.0#", "days/month": "#,##0.00##",
	"weeks": "#,##0.#", "years": "#,##0.##", "seconds": "#,##0.###",
	"requests": fmtWhole, "requests/s": fmtSeconds, "runs/month": "#,##0.##", "tokens": fmtWhole,
	"files": fmtWhole, "GPUs": "#,##0.##", "nodes": "#,##0.##", "FTE": "#,##0.0#",
	"GB": "#,##0.##", "GB/s": "#,##0.0##", "kW": "#,##0.0##", "ratio": fmtRatio,
}

// unitFormat is the number format of an amount in unit (a driver's unit,
// "¤" for the currency): a per-unit price's for money, else unitFormats'.
func unitFormat(unit string) string {
	if strings.Contains(unit, "¤") {
		return fmtPrice
	}
	if f, ok := unitFormats[unit]; ok {
		return f
	}
	return fmtGeneral
}

// driverFormat is the number format of driver d's values.
func driverFormat(d costid.Driver) string { return unitFormat(costid.Unit(d, "¤")) }

// resolve returns the number format of format: a money kind in the
// workbook's currency, anything else as it is.
func (b *book) resolve(format string) string {
	pre, unit := "", ""
	if sym, ok := currencySymbols[b.currency]; ok {
		pre = `"` + sym + `"`
	} else if currencyCode(b.currency) {
		unit = ` "` + b.currency + `"`
	}
	cents := ".00"
	if present.MinorDigits(b.currency) == 0 {
		cents = "" // the yen has no minor units
	}
	switch format {
	case fmtMoney:
		return pre + "#,##0" + cents + unit
	case fmtMoneyWhole:
		return pre + "#,##0" + unit
	case fmtPrice:
		// From 1 up and from −1 down grouped, with the minus written out
		// (a section with a condition shows no sign of its own); between,
		// up to six decimals.
		return "[>=1]" + pre + "#,##0" + cents + unit + ";[<=-1]-" + pre + "#,##0" + cents + unit + ";" + pre + "0.00####" + unit
	}
	return format
}

// currencySymbols are the currencies whose amounts the workbook writes
// with their sign in front (€1,234.50) rather than their code after.
var currencySymbols = map[string]string{"EUR": "€", "GBP": "£", "JPY": "¥"}

// currencyCode reports whether c can stand in a number format as quoted
// text: letters only (scenario validation allows three capitals).
func currencyCode(c string) bool {
	if c == "" || len(c) > 8 {
		return false
	}
	for _, r := range c {
		if (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') {
			return false
		}
	}
	return true
}

// costStyle is the style of the cost identity's figure d: a per-unit
// amount (per GPU-hour, per run) as a price, with the decimals a small
// one needs; totals as money.
func (b *book) costStyle(d costid.Driver) int {
	switch d {
	case costid.GPUHoursPerRun:
		return b.gpuHours
	case costid.VariablePricePerGPUHour, costid.OtherCostPerRun, costid.VariableCostPerRun, costid.CostPerRun:
		return b.price
	}
	return b.money
}

// Input cells: what finance changes. A light yellow fill with dark blue
// figures (the usual look of a model's inputs), unlocked, so that when a
// reader protects a sheet the inputs alone stay editable; the workbook is
// written with protection off.
const (
	inputFill = "FFF2CC"
	inputInk  = "1F4E79"
)

// markInput styles cell (col, row) of sheet as an input, keeping its
// number format; finish marks every named cell without a formula the
// same way.
func (b *book) markInput(sheet string, col, row int) {
	b.inputs = append(b.inputs, cellAt{sheet, col, row})
}

// inputStyle is style id as an input cell; made once per style.
func (b *book) inputStyle(id int) int {
	if s, ok := b.inputStyles[id]; ok {
		return s
	}
	st, err := b.f.GetStyle(id)
	b.fail(err)
	if st == nil {
		st = &excelize.Style{}
	}
	st.Fill = excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{inputFill}}
	font := excelize.Font{Family: b.family}
	if st.Font != nil {
		font = *st.Font
	}
	font.Color = inputInk
	st.Font = &font
	st.Border = []excelize.Border{
		{Type: "left", Color: "BFBFBF", Style: 1}, {Type: "right", Color: "BFBFBF", Style: 1},
		{Type: "top", Color: "BFBFBF", Style: 1}, {Type: "bottom", Color: "BFBFBF", Style: 1},
	}
	st.Protection = &excelize.Protection{Locked: false}
	s := b.newStyle(st)
	if b.inputStyles == nil {
		b.inputStyles = map[int]int{}
	}
	b.inputStyles[id] = s
	return s
}

// quoted is style id with the quote prefix set: the viewer shows the text
// as it is and keeps it text when the cell is edited, where =1+1 typed
// back would become a formula. excelize's Style has no field for it, so
// the cell format is copied with quotePrefix set, once per style; the
// copy comes after the original, which NewStyle keeps finding first.
func (b *book) quoted(id int) int {
	if q, ok := b.quotedStyles[id]; ok {
		return q
	}
	xfs := b.f.Styles.CellXfs
	if xfs == nil || id < 0 || id >= len(xfs.Xf) {
		return id
	}
	xf := xfs.Xf[id]
	on := true
	xf.QuotePrefix = &on
	xfs.Xf = append(xfs.Xf, xf)
	xfs.Count = len(xfs.Xf)
	q := len(xfs.Xf) - 1
	if b.quotedStyles == nil {
		b.quotedStyles = map[int]int{}
	}
	b.quotedStyles[id] = q
	return q
}

// noteText records a text cell that a spreadsheet would read as a formula
// when edited, for finish to give the quote prefix.
func (b *book) noteText(sheet string, col, row int, text string) {
	if celltext.FormulaLike(text) {
		b.formulaLike = append(b.formulaLike, cellAt{sheet, col, row})
	}
}

// finish lays out the whole workbook once every sheet is written: input
// cells styled and unlocked, formula-like text quoted, the legend on the
// first sheet, column widths that show every label, and each sheet's
// print titles, header and footer.
func (b *book) finish(page pageInfo) {
	names := make([]string, 0, len(b.names))
	for n := range b.names {
		names = append(names, n)
	}
	sort.Strings(names) // the styles made in one order: the same file each time
	for _, name := range names {
		n := b.names[name]
		if b.written[n.sheet][n.row][n.col] != "=" && !b.figures[n] {
			b.markInput(n.sheet, n.col, n.row)
		}
	}
	for _, c := range b.inputs {
		ref := cell(c.col, c.row)
		id, err := b.f.GetCellStyle(c.sheet, ref)
		b.fail(err)
		b.style(c.sheet, ref, ref, b.inputStyle(id))
	}
	for _, c := range b.formulaLike {
		ref := cell(c.col, c.row)
		id, err := b.f.GetCellStyle(c.sheet, ref)
		b.fail(err)
		b.style(c.sheet, ref, ref, b.quoted(id))
	}
	if len(b.inputs) > 0 {
		b.legend(b.f.GetSheetName(0))
	}
	for _, sh := range b.f.GetSheetList() {
		if b.streamed[sh] {
			// Laid out before its rows were streamed: the setters of a
			// streamed sheet read its whole XML back.
			continue
		}
		b.fitColumns(sh)
		b.pageSetup(sh, page)
	}
	b.protect()
}

// protect protects every sheet, without a password: the formula cells
// and labels are locked, the inputs (inputStyle) are not, so a slip
// cannot overwrite a formula while any driver can be changed; whoever
// means to change a formula unprotects the sheet (no password asked).
// Columns and rows may still be resized, and every cell selected.
func (b *book) protect() {
	for _, sh := range b.f.GetSheetList() {
		if !b.streamed[sh] { // protected before it was streamed
			b.protectSheet(sh)
		}
	}
}

// protectSheet protects sheet as protect says.
func (b *book) protectSheet(sh string) {
	b.fail(b.f.ProtectSheet(sh, &excelize.SheetProtectionOptions{
		SelectLockedCells: true, SelectUnlockedCells: true, FormatColumns: true, FormatRows: true,
	}))
}

// legend explains the cell styles below the last row of sheet.
func (b *book) legend(sheet string) {
	last := 0
	for r := range b.written[sheet] {
		last = max(last, r)
	}
	row := last + 2
	b.title(sheet, 1, row, "How to read the cells")
	b.str(sheet, 1, row+1, "Input")
	b.style(sheet, cell(1, row+1), cell(1, row+1), b.inputStyle(0))
	b.str(sheet, 2, row+1, "a value you may change (the drivers on Drivers and their case); the formulas follow it")
	b.str(sheet, 1, row+2, "Formula")
	b.str(sheet, 2, row+2, "computed from the inputs by the workbook; recalculates when an input changes")
	b.str(sheet, 1, row+3, "Other figures")
	b.str(sheet, 2, row+3, "the engine's values (scaling, Monte Carlo, sensitivity): re-run hostplan to change them")
}

// pageInfo is what every printed page's header and footer say.
type pageInfo struct {
	scenario string // the scenario's name
	revision string // "Revision 3 of 2026-03-01", "From a file, exported 2026-10-02"
}

// pageInfoOf is the page header of scenario s with extras x: its name,
// and the newest revision in the lineage with its date.
func pageInfoOf(s *scenario.Scenario, x *Extras) pageInfo {
	p := pageInfo{scenario: s.Name, revision: "Not a stored revision"}
	if p.scenario == "" {
		p.scenario = s.ID
	}
	var last *scenario.Revision
	for i := range x.Lineage {
		if l := &x.Lineage[i]; last == nil || l.Number >= last.Number {
			last = l
		}
	}
	switch {
	case last == nil:
	case last.Number > 0:
		p.revision = "Revision " + strconv.Itoa(last.Number)
		if !last.Time.IsZero() {
			p.revision += " of " + last.Time.UTC().Format(time.DateOnly)
		}
	case !last.Time.IsZero():
		p.revision = "From a file, exported " + last.Time.UTC().Format(time.DateOnly)
	}
	return p
}

// pageSetup repeats the frozen header rows of sheet on every printed page
// and puts the scenario, its revision and the page number in the header
// and footer.
func (b *book) pageSetup(sheet string, page pageInfo) {
	if rows := b.frozen[sheet]; rows > 0 {
		titles := quoteSheet(sheet) + "!$1:$" + strconv.Itoa(rows)
		if b.frozenCols[sheet] {
			titles = quoteSheet(sheet) + "!$A:$A," + titles
		}
		b.fail(b.f.SetDefinedName(&excelize.DefinedName{Name: "_xlnm.Print_Titles", Scope: sheet, RefersTo: titles}))
	}
	// &L, &C, &R: the left, centre and right parts; &A the sheet's name,
	// &P and &N the page and the page count, && an ampersand (ECMA-376
	// Part 1, 18.3.1.46 headerFooter).
	b.fail(b.f.SetHeaderFooter(sheet, &excelize.HeaderFooterOptions{
		OddHeader: "&L" + headerText(page.scenario, headerPart) + "&R" + headerText(page.revision, headerPart),
		OddFooter: "&L&A&CPage &P of &N&Rhostplan",
	}))
}

// printArea prints only columns 1–cols of rows 1–rows of sheet: the rest
// (the Audit sheet's rows, Monthly's months past the horizon, the traffic
// search beside the Comparisons tables) is there to be read on screen,
// not printed. Clearing the print area prints all of it.
func (b *book) printArea(sheet string, cols, rows int) {
	b.fail(b.f.SetDefinedName(&excelize.DefinedName{
		Name: "_xlnm.Print_Area", Scope: sheet,
		RefersTo: quoteSheet(sheet) + "!" + absCell(1, 1) + ":" + absCell(cols, rows),
	}))
}

// headerPart is the most characters one part of a page header holds once
// escaped: two parts and their codes stay within the 255 characters a
// header may have (ECMA-376 Part 1, 18.3.1.39 oddHeader; excelize refuses
// more).
const headerPart = 120

// headerText is s as a part of a page header: each & doubled (a lone one
// starts a code), clipped with an ellipsis to at most n characters
// without splitting a doubled &.
func headerText(s string, n int) string {
	var b strings.Builder
	count := 0
	for i, r := range s {
		w := 1
		if r == '&' {
			w = 2
		}
		if count+w > n || count+w == n && i+utf8.RuneLen(r) < len(s) {
			b.WriteRune('…')
			return b.String()
		}
		if r == '&' {
			b.WriteString("&&")
		} else {
			b.WriteRune(r)
		}
		count += w
	}
	return b.String()
}

// quoteSheet is a sheet name as a formula names it.
func quoteSheet(sheet string) string {
	if strings.ContainsAny(sheet, " -'") {
		return "'" + strings.ReplaceAll(sheet, "'", "''") + "'"
	}
	return sheet
}
