// Package export writes a scenario and its model report as an .xlsx workbook
// finance can work in. Every figure a cost depends on is a named input on
// the Drivers sheet (with its unit, source and date; an estimate with its
// low, likely and high values and one case selector for the workbook), and
// every cost is a formula over those names, written from the engine's own
// cost identity (costid.CostModel): the Costs sheet, the cumulative cost by
// month on Monthly (laid out to the longest horizon a scenario may have),
// the break-even points on Comparisons and the verdicts on Summary. A
// Checks sheet checks the workbook against itself (checks.go: 0 problems
// after any valid edit, shown on Summary); an Audit sheet shows the drift
// of every formula cell of those sheets from the engine's value at
// export; every formula caches its result for a reader that does not
// recalculate (cache.go). The analysis — scaling curves, the Monte
// Carlo spread, the sensitivity tornado — follows as the engine's values,
// labelled as such, with native charts. The Options sheet says which
// direction options the scenario set and which the model chose. With
// Extras (WorkbookWith) the workbook also carries the decision, the Compute
// Readiness Brief, the readiness checklist and the scenario's stored
// lineage. Comparison (WriteComparison) puts several scenarios side by side
// on a Compare sheet instead.
//
// Layout (layout.go): money is formatted in the scenario's currency, a
// per-unit price with the decimals it needs; every input — a driver's low,
// likely and high values, the case selector — is filled, unlocked and
// explained by a legend on the first sheet; text that a spreadsheet would
// take for a formula carries the quote prefix; header rows are frozen and
// printed on every page under a header naming the scenario and its
// revision; columns are widened until every label and figure shows. Native
// charts draw each direction in its colour from package chart; the monthly
// chart's axis scales to the recalculated costs, its legend says which
// directions are feasible as Summary does after any edit, and a line far
// above the feasible costs stops at the top. Field labels,
// units, titles and numbers written as text come from package present,
// which the window and the command line share. It imports nothing of the
// GUI or the store.
package export

import (
	"fmt"
	"math"
	"strconv"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Sheet names, in workbook order.
const (
	sheetSummary     = "Summary"
	sheetDecision    = "Decision"
	sheetDrivers     = "Drivers"
	sheetInputs      = "Inputs"
	sheetOptions     = "Options"
	sheetCosts       = "Costs"
	sheetMonthly     = "Monthly"
	sheetComparisons = "Comparisons"
	sheetScaling     = "Scaling"
	sheetUncertainty = "Uncertainty"
	sheetSensitivity = "Sensitivity"
	sheetBrief       = "Brief"
	sheetChecklist   = "Checklist"
	sheetNotes       = "Notes"
	sheetAudit       = "Audit"
	sheetChecks      = "Checks"
	sheetLineage     = "Lineage"
)

// sheetOrder is the order of the sheets in a workbook with extras x (nil:
// none): the decision next to the summary, for leadership; the brief and
// the checklist after the numbers; the lineage last. A sheet whose extra is
// not given is left out.
func sheetOrder(x *Extras) []string {
	var e Extras
	if x != nil {
		e = *x
	}
	order := []string{sheetSummary}
	if e.Decision != nil {
		order = append(order, sheetDecision)
	}
	order = append(order, sheetDrivers, sheetCosts, sheetEnergy, sheetMonthly, sheetComparisons, sheetChecks, sheetAudit,
		sheetInputs, sheetOptions, sheetScaling, sheetUncertainty, sheetSensitivity)
	if e.Brief != nil || e.BriefMissing != nil {
		order = append(order, sheetBrief)
	}
	if e.Checklist != nil {
		order = append(order, sheetChecklist)
	}
	order = append(order, sheetNotes, sheetSources)
	if e.Lineage != nil {
		order = append(order, sheetLineage)
	}
	return order
}

// Defined names of the workload values every cost formula uses.
const (
	nameRunsPerMonth  = "runs_per_month"
	nameHorizonMonths = "horizon_months"
)

// Workbook builds the workbook for scenario s and its report r, without
// extras: WorkbookWith(s, r, nil).
func Workbook(s *scenario.Scenario, r *model.Report) (*excelize.File, error) {
	return WorkbookWith(s, r, nil)
}

// WorkbookWith builds the workbook for scenario s, its report r and the
// extras x (nil: none; each field left empty leaves its sheet out). The
// caller closes the returned file. It fails when r or x.Decision is not for
// s, or when a number is not finite (the model never produces one).
func WorkbookWith(s *scenario.Scenario, r *model.Report, x *Extras) (*excelize.File, error) {
	if s == nil || r == nil {
		panic("export: Workbook needs a scenario and a report")
	}
	if s.ID != r.ScenarioID {
		return nil, fmt.Errorf("export: report is for scenario %q, not %q", r.ScenarioID, s.ID)
	}
	if x == nil {
		x = &Extras{}
	}
	if d := x.Decision; d != nil && d.ScenarioID != s.ID {
		return nil, fmt.Errorf("export: decision is for scenario %q, not %q", d.ScenarioID, s.ID)
	}
	b := build(s, derived(r), x)
	if b.err != nil {
		b.f.Close()
		return nil, b.err
	}
	return b.f, nil
}

// build writes every sheet of the workbook of s, r and x into a new book.
func build(s *scenario.Scenario, r *model.Report, x *Extras) *book {
	if x == nil {
		x = &Extras{}
	}
	f := excelize.NewFile()
	b := &book{f: f, currency: r.Currency, page: pageInfoOf(s, x)}
	b.init()
	for _, name := range sheetOrder(x) {
		b.sheet(name)
	}
	// Drivers and Costs first: they own the cells the other sheets refer to.
	b.pricing = pricingSwitch(r, x)
	b.pricingChosen = OtherPricing(s, r) != nil
	writeDrivers(b, s, withOtherPricing(r, b.pricing), x.Cases)
	writeCosts(b, r)
	writeEnergy(b, r)
	writeInputs(b, s)
	writeSummary(b, s, r, x.Decision)
	writeOptions(b, s, r)
	writeMonthly(b, r)
	writeComparisons(b, s, r)
	writeScaling(b, r)
	writeUncertainty(b, r)
	writeSensitivity(b, r)
	writeNotes(b, r)
	if x.Decision != nil {
		writeDecision(b, r, x.Decision)
	}
	if x.Brief != nil || x.BriefMissing != nil {
		writeBrief(b, x.Brief, x.BriefMissing)
	}
	if x.Checklist != nil {
		writeChecklist(b, s, x.Checklist)
	}
	if x.Lineage != nil {
		writeLineage(b, s, r, x.Source, x.Author, x.Lineage)
	}
	writeChecks(b, r)
	writeSources(b)
	writeAudit(b)
	b.docProps("hostplan: "+s.Name, x.Author)
	b.finish(b.page)
	b.fitRows()
	b.setCaching()
	return b
}

// derived is r, or for a report made by hand without its derived cost
// figures a copy with them derived by the cost identity: the workbook
// caches and audits the engine's values of its formulas.
func derived(r *model.Report) *model.Report {
	for _, d := range r.Directions {
		if len(d.CumulativeByMonth) != max(r.HorizonMonths, 0) {
			c := *r
			c.Directions = append([]model.DirectionResult(nil), r.Directions...)
			c.DeriveCosts()
			return &c
		}
	}
	return r
}

// book wraps the file being built and keeps the first error, so the sheet
// writers read as a list of cells (the sticky-error pattern of bufio.Writer).
type book struct {
	f   *excelize.File
	err error

	header, bold, wrap     int // text styles
	money, hours, gpuHours int // number styles
	price                  int // a per-unit amount (fmtPrice)
	count                  int // plain number, General

	family  string            // the workbook's default font
	styles  map[string]int    // number formats, plain and bold, by numFmt
	center  [2]int            // centred text, plain and bold
	wrapped []rowAt           // rows with wrapped text, for fitRows
	spans   []span            // wrapped text across merged columns, for fitRows
	texts   map[textStyle]int // text styles, by textFmt

	alignedStyles map[alignKey]int // by aligned

	// written is what each cell holds, by sheet, row and column: the text
	// of a string, the digits of a number, "=" for a formula (fitRows
	// reads it instead of reading the sheets back).
	written map[string]map[int]map[int]string
	// results are the cached results of formulas, by sheet and cell
	// (cache.go); audit lists the formula cells the Audit sheet checks.
	results map[string]map[string]result
	audit   []auditCell
	// checked are the driver rows of Drivers, for the Checks sheet;
	// validations the data validation of their input cells.
	checked     []checkedDriver
	validations []validation
	// sources are the sources the drivers cite, in the order of their
	// ids (sources.go).
	sources []cited
	// pricing is the managed service under both pricings, when the
	// workbook takes the cheaper (pricing.go); nil otherwise.
	pricing *managedSwitch
	// pricingChosen is whether the engine chose the managed service's
	// pricing (the scenario leaves it open).
	pricingChosen bool
	// charts are the ranges the charts read, for their caches.
	charts []string
	// names are the defined names and the cells they refer to; figures
	// are named cells that hold the engine's plan, not inputs.
	names   map[string]cellAt
	figures map[cellAt]bool

	currency      string             // of the money formats (resolve)
	inputs        []cellAt           // cells finance changes (markInput)
	formulaLike   []cellAt           // text cells that need the quote prefix (noteText)
	frozen        map[string]int     // header rows kept in view and printed on every page (freeze)
	frozenCols    map[string]bool    // sheets whose column A is kept in view and printed on every page (freezeColumn)
	inputStyles   map[int]int        // by inputStyle
	quotedStyles  map[int]int        // by quoted
	facts         map[int]styleFacts // by styleInfo
	merged        map[cellAt]bool    // cells inside a merged range (merge)
	page          pageInfo           // what every printed page's header says
	streamed      map[string]bool    // sheets written by a stream writer, laid out as they were written
	muted         map[int]int        // by mutedStyle
	wrappedStyles map[int]int        // by wrapStyle
}

// cellAt is one cell of a sheet.
type cellAt struct {
	sheet    string
	col, row int
}

// put records what cell col, row of sheet holds.
func (b *book) put(sheet string, col, row int, what string) {
	if b.written == nil {
		b.written = map[string]map[int]map[int]string{}
	}
	rows := b.written[sheet]
	if rows == nil {
		rows = map[int]map[int]string{}
		b.written[sheet] = rows
	}
	cols := rows[row]
	if cols == nil {
		cols = map[int]string{}
		rows[row] = cols
	}
	cols[col] = what
}

// span is wrapped text in columns from–to of a row (merged when to > from),
// in a font whose lines are lineHeight points apart.
type span struct {
	sheet      string
	row        int
	from, to   int
	lineHeight float64
	prose      bool // body text, not bold: narrower than digits on average
}

// rowAt is a row of a sheet.
type rowAt struct {
	sheet string
	row   int
}

func (b *book) fail(err error) {
	if b.err == nil && err != nil {
		b.err = err
	}
}

func (b *book) init() {
	// Recalculate every formula when Excel or LibreOffice opens the file:
	// excelize stores formulas without cached results.
	full := true
	b.fail(b.f.SetCalcProps(&excelize.CalcPropsOptions{FullCalcOnLoad: &full}))
	// A font given without a family falls back to the viewer's default
	// (a serif in LibreOffice): name the workbook's own.
	family, err := b.f.GetDefaultFont()
	b.fail(err)
	b.family = family
	boldFont := &excelize.Font{Bold: true, Family: family}
	b.header = b.newStyle(&excelize.Style{
		Font:      boldFont,
		Fill:      excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"E7E6E6"}},
		Border:    []excelize.Border{{Type: "bottom", Color: "7F7F7F", Style: 1}},
		Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"},
	})
	b.bold = b.newStyle(&excelize.Style{Font: boldFont})
	b.center[0] = b.newStyle(&excelize.Style{Alignment: &excelize.Alignment{Horizontal: "center"}})
	b.center[1] = b.newStyle(&excelize.Style{Font: boldFont, Alignment: &excelize.Alignment{Horizontal: "center"}})
	b.wrap = b.newStyle(&excelize.Style{Alignment: &excelize.Alignment{WrapText: true, Vertical: "top"}})
	b.money = b.numFmt(fmtMoney, false)
	b.price = b.numFmt(fmtPrice, false)
	b.hours = b.numFmt(fmtHours, false)
	b.gpuHours = b.numFmt(fmtGPUHours, false)
	b.count = b.newStyle(&excelize.Style{NumFmt: 0})
}

func (b *book) newStyle(s *excelize.Style) int {
	id, err := b.f.NewStyle(s)
	b.fail(err)
	return id
}

// Number formats of the analysis sheets; the money kinds are in layout.go.
const (
	fmtWhole    = "#,##0"
	fmtHours    = "#,##0.0#"   // 0.05 h shows, 1,240 h groups
	fmtGPUHours = "#,##0.00##" // a short inference run takes thousandths
	fmtSeconds  = "#,##0.000"
	fmtRatio    = "0.00"
	fmtPercent  = "0.0%"
	fmtMonths   = `#,##0.00" months"`
	fmtGeneral  = "General"
)

// numFmt returns the style of number format format (or a money kind,
// resolve), in bold when bold is set; styles are made once and shared.
func (b *book) numFmt(format string, bold bool) int {
	format = b.resolve(format)
	key := format
	if bold {
		key = "bold " + format
	}
	if id, ok := b.styles[key]; ok {
		return id
	}
	st := &excelize.Style{CustomNumFmt: &format}
	if format == fmtGeneral {
		st = &excelize.Style{NumFmt: 0}
	}
	if bold {
		st.Font = &excelize.Font{Bold: true, Family: b.family}
	}
	id := b.newStyle(st)
	if b.styles == nil {
		b.styles = map[string]int{}
	}
	b.styles[key] = id
	return id
}

// sheet adds a sheet named name; the first one renames the default sheet.
func (b *book) sheet(name string) {
	if b.f.SheetCount == 1 && b.f.GetSheetName(0) == "Sheet1" {
		b.fail(b.f.SetSheetName("Sheet1", name))
	} else {
		_, err := b.f.NewSheet(name)
		b.fail(err)
	}
	b.printLayout(name)
}

// printLayout prints sheet landscape, one page wide and as many tall as it
// takes: at the default (portrait, 100 %) a wide table, and a chart beside
// it, are cut across several pages when the workbook is printed or saved
// as PDF.
func (b *book) printLayout(sheet string) {
	landscape, wide, tall, fit := "landscape", 1, 0, true
	b.fail(b.f.SetSheetProps(sheet, &excelize.SheetPropsOptions{FitToPage: &fit}))
	b.fail(b.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{
		Orientation: &landscape, FitToWidth: &wide, FitToHeight: &tall,
	}))
}

// cell returns the A1 name of column col, row row (both from 1).
func cell(col, row int) string {
	c, err := excelize.CoordinatesToCellName(col, row)
	if err != nil {
		panic("export: " + err.Error())
	}
	return c
}

// absCell returns the absolute reference $A$1 of column col, row row.
func absCell(col, row int) string {
	c, err := excelize.CoordinatesToCellName(col, row, true)
	if err != nil {
		panic("export: " + err.Error())
	}
	return c
}

// str writes text. SetCellStr stores it as a shared string, so text that
// starts with = + - or @ stays text and is never read as a formula; such
// text also gets the quote prefix (noteText), so that editing the cell
// keeps it text.
func (b *book) str(sheet string, col, row int, text string) {
	b.fail(b.f.SetCellStr(sheet, cell(col, row), text))
	b.put(sheet, col, row, text)
	b.noteText(sheet, col, row, text)
}

// num writes a number with a style; field names the number in the error
// when it is not finite.
func (b *book) num(sheet string, col, row int, x float64, style int, field string) {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		b.fail(fmt.Errorf("export: %s is %v, not a finite number", field, x))
		return
	}
	c := cell(col, row)
	// Every digit: a spreadsheet that recalculates starts from the
	// engine's very numbers (SetCellFloat keeps 15).
	digits := strconv.FormatFloat(x, 'g', -1, 64)
	b.fail(b.f.SetCellDefault(sheet, c, digits))
	b.style(sheet, c, c, style)
	b.put(sheet, col, row, digits)
}

// formula writes a formula (without the leading =) with a style and its
// result as the engine has it, which the file caches (cache.go) for a
// reader that does not recalculate.
func (b *book) formula(sheet string, col, row int, formula string, style int, v result) {
	c := cell(col, row)
	b.fail(b.f.SetCellFormula(sheet, c, formula))
	b.style(sheet, c, c, style)
	b.put(sheet, col, row, "=")
	b.cacheResult(sheet, c, v)
}

// merge merges columns from–to of row.
func (b *book) merge(sheet string, row, from, to int) {
	b.fail(b.f.MergeCell(sheet, cell(from, row), cell(to, row)))
	if b.merged == nil {
		b.merged = map[cellAt]bool{}
	}
	for c := from; c <= to; c++ {
		b.merged[cellAt{sheet, c, row}] = true
	}
}

func (b *book) style(sheet, from, to string, style int) {
	b.fail(b.f.SetCellStyle(sheet, from, to, style))
}

// title writes text in bold.
func (b *book) title(sheet string, col, row int, text string) {
	b.str(sheet, col, row, text)
	b.style(sheet, cell(col, row), cell(col, row), b.bold)
}

// headerRow writes titles from column 1 of row and styles them as a header.
func (b *book) headerRow(sheet string, row int, titles ...string) {
	for i, t := range titles {
		b.str(sheet, i+1, row, t)
	}
	b.style(sheet, cell(1, row), cell(len(titles), row), b.header)
	b.wrapsText(sheet, row)
}

// headerRow2 writes titles from column col of row as a header.
func (b *book) headerRow2(sheet string, col, row int, titles ...string) {
	for i, t := range titles {
		b.str(sheet, col+i, row, t)
	}
	b.style(sheet, cell(col, row), cell(col+len(titles)-1, row), b.header)
	b.wrapsText(sheet, row)
}

// wrapsText notes that row of sheet has wrapped text, for fitRows.
func (b *book) wrapsText(sheet string, row int) {
	b.wrapped = append(b.wrapped, rowAt{sheet, row})
}

// widths sets the width of columns A, B, … in turn.
func (b *book) widths(sheet string, ws ...float64) {
	for i, w := range ws {
		col, err := excelize.ColumnNumberToName(i + 1)
		if err != nil {
			panic("export: " + err.Error())
		}
		b.fail(b.f.SetColWidth(sheet, col, col, w))
	}
}

// freeze keeps the top rows of sheet in view while scrolling; finish
// prints them at the top of every page.
func (b *book) freeze(sheet string, rows int) {
	if b.frozen == nil {
		b.frozen = map[string]int{}
	}
	b.frozen[sheet] = rows
	top := cell(1, rows+1)
	b.fail(b.f.SetPanes(sheet, &excelize.Panes{
		Freeze:      true,
		YSplit:      rows,
		TopLeftCell: top,
		ActivePane:  "bottomLeft",
		Selection:   []excelize.Selection{{SQRef: top, ActiveCell: top, Pane: "bottomLeft"}},
	}))
}

// figure defines a workbook-wide name for one cell that holds a figure of
// the engine's plan: named for the formulas, but not an input.
func (b *book) figure(name, sheet string, col, row int) {
	b.name(name, sheet, col, row)
	if b.figures == nil {
		b.figures = map[cellAt]bool{}
	}
	b.figures[cellAt{sheet, col, row}] = true
}

// name defines a workbook-wide name for one cell; finish styles it as an
// input unless it holds a formula or a plan figure.
func (b *book) name(name, sheet string, col, row int) {
	b.fail(b.f.SetDefinedName(&excelize.DefinedName{Name: name, RefersTo: sheet + "!" + absCell(col, row)}))
	if b.names == nil {
		b.names = map[string]cellAt{}
	}
	b.names[name] = cellAt{sheet, col, row}
}

// chart adds a chart with its top left corner at cell (col, row); the
// file caches the values of the ranges its series read (cache.go).
func (b *book) chart(sheet string, col, row int, c *excelize.Chart) {
	b.fail(b.f.AddChart(sheet, cell(col, row), c))
	for _, s := range c.Series {
		b.charts = append(b.charts, s.Name, s.Categories, s.Values)
	}
}

// directionTitle is the title of direction id in r, or the direction's
// own title.
func directionTitle(r *model.Report, id string) string {
	if d := r.Direction(id); d != nil && d.Title != "" {
		return d.Title
	}
	return present.DirectionTitle(id)
}
