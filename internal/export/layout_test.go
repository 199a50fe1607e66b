package export

import (
	"bytes"
	"context"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/testtool"
)

// Money is written in the scenario's currency; a per-unit amount keeps
// the decimals a small one needs.
func TestMoneyFormats(t *testing.T) {
	r := testReport() // EUR
	r.Directions[2].VariablePricePerGPUHour = 0.083572
	r.DeriveCosts()
	f := mustWorkbook(t, testScenario(), r)
	for _, c := range []struct{ sheet, cell, want string }{
		{sheetCosts, cell(colPrice, costRow(2)), `[>=1]"€"#,##0.00;[<=-1]-"€"#,##0.00;"€"0.00####`},
		{sheetCosts, cell(colPerRun, costRow(0)), `[>=1]"€"#,##0.00;[<=-1]-"€"#,##0.00;"€"0.00####`},
		{sheetCosts, cell(colHorizon, costRow(0)), `"€"#,##0.00`},
		{sheetCosts, cell(colFixed, costRow(1)), `"€"#,##0.00`},
		{sheetCosts, cell(colGPUHours, costRow(1)), fmtGPUHours},
		{sheetSummary, cell(7, summaryTableRow+1), `[>=1]"€"#,##0.00;[<=-1]-"€"#,##0.00;"€"0.00####`},
		{sheetSummary, cell(8, summaryTableRow+1), `"€"#,##0.00`},
		{sheetMonthly, "B2", `"€"#,##0.00`},
	} {
		// excelize stores a format with the space before quoted text
		// dropped; the viewers show it either way.
		got := strings.ReplaceAll(numFormat(t, f, c.sheet, c.cell), ` "`, `"`)
		if got != c.want {
			t.Errorf("%s!%s has format %q, want %q", c.sheet, c.cell, got, c.want)
		}
	}
	// How a viewer shows them: TestGnumericShowsMoney.
}

// TestGnumericShowsMoney: Gnumeric shows a price below 1 with the decimals
// it needs and amounts from 1 up, or from −1 down, grouped with their sign.
func TestGnumericShowsMoney(t *testing.T) {
	ssconvert := testtool.Need(t, "ssconvert", "make test")
	b := &book{f: excelize.NewFile(), currency: "USD"}
	b.init()
	b.sheet("Money")
	xs := []float64{0.083572, 1234.5, -1234.5, -987654.25}
	want := []string{"0.083572 USD", "1,234.50 USD", "-1,234.50 USD", "-987,654.25 USD"}
	for i, x := range xs {
		b.num("Money", 1, i+1, x, b.price, "money")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "m.xlsx"), filepath.Join(dir, "m.csv")
	if err := b.f.SaveAs(in); err != nil {
		t.Fatal(err)
	}
	if o, err := exec.Command(ssconvert, "-T", "Gnumeric_stf:stf_assistant", "-O", "format=preserve", in, out).CombinedOutput(); err != nil {
		t.Fatalf("ssconvert: %v\n%s", err, o)
	}
	rows, err := readCSV(out)
	if err != nil {
		t.Fatal(err)
	}
	for i, w := range want {
		if i >= len(rows) || rows[i][0] != w {
			t.Errorf("%v shows as %q, want %q", xs[i], rows, w)
		}
	}
}

// Pounds and yen have their sign in front, the yen no minor units; other
// currencies their code after the amount.
func TestMoneyFormatsByCurrency(t *testing.T) {
	for _, c := range []struct{ currency, money, price, whole string }{
		{"EUR", `"€"#,##0.00`, `[>=1]"€"#,##0.00;[<=-1]-"€"#,##0.00;"€"0.00####`, `"€"#,##0`},
		{"GBP", `"£"#,##0.00`, `[>=1]"£"#,##0.00;[<=-1]-"£"#,##0.00;"£"0.00####`, `"£"#,##0`},
		{"JPY", `"¥"#,##0`, `[>=1]"¥"#,##0;[<=-1]-"¥"#,##0;"¥"0.00####`, `"¥"#,##0`},
		{"CHF", `#,##0.00 "CHF"`, `[>=1]#,##0.00 "CHF";[<=-1]-#,##0.00 "CHF";0.00#### "CHF"`, `#,##0 "CHF"`},
		{"USD", `#,##0.00 "USD"`, `[>=1]#,##0.00 "USD";[<=-1]-#,##0.00 "USD";0.00#### "USD"`, `#,##0 "USD"`},
	} {
		b := &book{currency: c.currency}
		if got := b.resolve(fmtMoney); got != c.money {
			t.Errorf("%s money %q, want %q", c.currency, got, c.money)
		}
		if got := b.resolve(fmtPrice); got != c.price {
			t.Errorf("%s price %q, want %q", c.currency, got, c.price)
		}
		if got := b.resolve(fmtMoneyWhole); got != c.whole {
			t.Errorf("%s whole %q, want %q", c.currency, got, c.whole)
		}
	}
	// The sign counts once in a column's width, a code with its space.
	if got := numberWidth(`"€"#,##0.00`, 1234.5); got != 9 {
		t.Errorf("width of €1,234.50 = %v, want 9", got)
	}
	if got := numberWidth(`#,##0.00 "EUR"`, 1234.5); got != 12 {
		t.Errorf("width of 1,234.50 EUR = %v, want 12", got)
	}
}

// Every named cell that holds a value is an input: filled, in blue and
// unlocked; formula cells are locked and plain.
func TestInputCells(t *testing.T) {
	f := mustWorkbook(t, testScenario(), testReport())
	inputs, formulas, figures := 0, 0, 0
	for _, dn := range f.GetDefinedName() {
		if strings.HasPrefix(dn.Name, "_xlnm.") {
			continue
		}
		sheet, ref, _ := strings.Cut(strings.ReplaceAll(dn.RefersTo, "$", ""), "!")
		st := styleOf(t, f, sheet, ref)
		fo, _ := f.GetCellFormula(sheet, ref)
		input := len(st.Fill.Color) == 1 && st.Fill.Color[0] == inputFill &&
			st.Protection != nil && !st.Protection.Locked
		// The engine's plan figures are named for the formulas but are
		// not inputs: the GPU-hours of a run (and, in a report of the
		// engine's, the plan figures below the drivers).
		figure := strings.HasSuffix(dn.Name, "_"+costid.GPUHoursPerRun.String())
		switch {
		case figure && input:
			t.Errorf("%s (%s) is a plan figure but is styled as an input", dn.Name, dn.RefersTo)
		case figure:
			figures++
		case fo == "" && !input:
			t.Errorf("%s (%s) holds a value but is not styled as an unlocked input: fill %v, protection %+v", dn.Name, dn.RefersTo, st.Fill.Color, st.Protection)
		case fo != "" && (input || st.Protection != nil && !st.Protection.Locked):
			t.Errorf("%s (%s) holds a formula but is styled as an input", dn.Name, dn.RefersTo)
		case fo == "":
			inputs++
		default:
			formulas++
		}
	}
	// The case selector and four values per direction of this report
	// made by hand, its GPU-hours a figure; the three drivers it has
	// (runs, horizon, the team's staff) and three formulas per direction;
	// the engine's constants; the integrity problems, a formula.
	if k := len(costid.Constants()); inputs != 1+4*3+k || formulas != 3+3*3+1 || figures != 3 {
		t.Errorf("%d input, %d formula and %d figure names, want %d, %d and 3", inputs, formulas, figures, 1+4*3+k, 3+3*3+1)
	}
	// A driver's Used cell is a formula over its low, likely and high
	// cells, which are the inputs.
	for _, name := range []string{nameRunsPerMonth, nameHorizonMonths} {
		var at string
		for _, dn := range f.GetDefinedName() {
			if dn.Name == name {
				at = strings.ReplaceAll(dn.RefersTo, "$", "")
			}
		}
		_, ref, _ := strings.Cut(at, "!")
		_, row, err := excelize.CellNameToCoordinates(ref)
		if err != nil {
			t.Fatalf("%s refers to %q", name, at)
		}
		for _, col := range []int{colDrvLow, colDrvLikely, colDrvHigh} {
			st := styleOf(t, f, sheetDrivers, cell(col, row))
			if len(st.Fill.Color) != 1 || st.Fill.Color[0] != inputFill || st.Protection == nil || st.Protection.Locked {
				t.Errorf("%s: %s is not styled as an unlocked input", name, cell(col, row))
			}
		}
	}
	// The input keeps its number format.
	if got := numFormat(t, f, sheetCosts, cell(colFixed, costRow(1))); !strings.HasPrefix(got, `"€"#,##0.00`) {
		t.Errorf("an input lost its number format: %q", got)
	}
	// The legend on the first sheet says what the fill means.
	row := findRow(t, f, sheetSummary, "How to read the cells")
	if got, _ := f.GetCellValue(sheetSummary, cell(1, row+1)); got != "Input" {
		t.Errorf("the legend's first entry is %q, want Input", got)
	}
	if st := styleOf(t, f, sheetSummary, cell(1, row+1)); len(st.Fill.Color) != 1 || st.Fill.Color[0] != inputFill {
		t.Errorf("the legend's Input cell has fill %v, want %s", st.Fill.Color, inputFill)
	}
}

// findRow is the row of sheet whose first cell is text.
func findRow(t *testing.T, f *excelize.File, sheet, text string) int {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	for i, row := range rows {
		if len(row) > 0 && row[0] == text {
			return i + 1
		}
	}
	t.Fatalf("no row of %s starts with %q", sheet, text)
	return 0
}

// Every sheet but the Brief (a document, not a table) keeps its header
// rows in view, prints them on every page, and has a page header with the
// scenario and its revision.
func TestFrozenHeadersAndPrinting(t *testing.T) {
	c := newConstrained(t)
	c.s.Name = "R&D plan"
	f, err := WorkbookWith(c.s, c.r, c.x)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	titles := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm.Print_Titles" {
			titles[dn.Scope] = dn.RefersTo
		}
	}
	for _, sh := range f.GetSheetList() {
		hf, err := f.GetHeaderFooter(sh)
		if err != nil || hf == nil {
			t.Errorf("%s: no header and footer (%v)", sh, err)
		} else {
			if !strings.Contains(hf.OddHeader, "R&&D plan") {
				t.Errorf("%s: header %q lacks the scenario name (with & doubled)", sh, hf.OddHeader)
			}
			if !strings.Contains(hf.OddHeader, "Revision 2 of 2026-03-02") {
				t.Errorf("%s: header %q lacks the revision and its date", sh, hf.OddHeader)
			}
			if !strings.Contains(hf.OddFooter, "Page &P of &N") {
				t.Errorf("%s: footer %q lacks the page number", sh, hf.OddFooter)
			}
		}
		if rows, _ := f.GetRows(sh); sh == sheetBrief || len(rows) <= 1 {
			continue // a document, or one line saying why the sheet is empty
		}
		p, err := f.GetPanes(sh)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Freeze || p.YSplit < 1 {
			t.Errorf("%s: no frozen header rows (%+v)", sh, p)
			continue
		}
		want := sh + "!$1:$" + strconv.Itoa(p.YSplit)
		if titles[sh] != want {
			t.Errorf("%s: print titles %q, want %q (the frozen rows)", sh, titles[sh], want)
		}
	}
}

// No label is cut: a text cell fits its column and the empty cells to its
// right up to the next filled one, and every number fits its column;
// wrapped and merged cells have their own layout.
func TestColumnsShowLabels(t *testing.T) {
	for _, ex := range exampleReports(t) {
		t.Run(ex.name, func(t *testing.T) {
			f := mustWorkbook(t, ex.s, ex.r)
			b := &book{f: f}
			for _, sh := range f.GetSheetList() {
				rows, err := f.GetRows(sh)
				if err != nil {
					t.Fatal(err)
				}
				merged := b.mergedCells(sh)
				for r, row := range rows {
					for c, text := range row {
						if text == "" || merged[cellAt{sh, c + 1, r + 1}] {
							continue
						}
						st := b.styleInfo(mustStyle(t, f, sh, cell(c+1, r+1)))
						if st.wraps {
							continue
						}
						room, bounded := b.colWidths(sh, c+1, c+1), st.number
						for k := c + 1; k < len(row) && !st.number; k++ {
							if b.filled(sh, row, k, r+1) {
								bounded = true
								break
							}
							room += b.colWidths(sh, k+1, k+1)
						}
						need := float64(utf8.RuneCountInString(text))
						if bounded && room < need {
							t.Errorf("%s!%s %q needs %g characters, it has %g", sh, cell(c+1, r+1), text, need, room)
						}
					}
				}
			}
		})
	}
}

func mustStyle(t *testing.T, f *excelize.File, sheet, c string) int {
	t.Helper()
	id, err := f.GetCellStyle(sheet, c)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

// quotePrefix reports whether the cell's format carries the quote prefix.
func quotePrefix(t *testing.T, f *excelize.File, sheet, c string) bool {
	t.Helper()
	id := mustStyle(t, f, sheet, c)
	xf := f.Styles.CellXfs.Xf[id]
	return xf.QuotePrefix != nil && *xf.QuotePrefix
}

// formulaLikeReport is the test scenario and report with text that a
// spreadsheet would take for a formula in many places.
func formulaLikeReport() (*excelize.File, error) {
	s := testScenario()
	s.Name = "=1+1"
	s.Purpose.Owner = "@SUM(A1:A2)"
	r := analysedReport()
	r.Directions[1].Breakdown[0].Item = "+cmd|' /C calc'!A0"
	r.Directions[1].Notes = []model.Note{{Code: model.NoteCatalogEntry, Kind: model.NoteCatalog, Text: "-2+3"}}
	r.Directions[1].Bottleneck = `=HYPERLINK("http://x","y")`
	return Workbook(s, r)
}

// Text that looks like a formula carries the quote prefix, so editing the
// cell keeps it text; other text does not.
func TestQuotePrefix(t *testing.T) {
	f, err := formulaLikeReport()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, c := range []struct{ sheet, text string }{
		{sheetSummary, "=1+1"},
		{sheetInputs, "@SUM(A1:A2)"},
		{sheetCosts, "+cmd|' /C calc'!A0"},
		{sheetNotes, "-2+3"},
		{sheetScaling, `=HYPERLINK("http://x","y")`},
	} {
		ref := find(t, f, c.sheet, c.text)
		if !quotePrefix(t, f, c.sheet, ref) {
			t.Errorf("%s!%s %q has no quote prefix", c.sheet, ref, c.text)
		}
	}
	if ref := find(t, f, sheetSummary, "Scenario"); quotePrefix(t, f, sheetSummary, ref) {
		t.Errorf("Summary!%s, plain text, has the quote prefix", ref)
	}
	// The quoted copy keeps the look of the cell it was made from.
	ref := find(t, f, sheetSummary, "=1+1")
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if !quotePrefix(t, g, sheetSummary, ref) {
		t.Error("the quote prefix is lost when the file is written and read back")
	}
}

// TestLibreOfficeKeepsTextText opens a workbook with formula-like text in
// LibreOffice, saves it as a new .xlsx and reads that back: every such
// cell is still text with the same value, never a formula. Skipped with
// -short or when soffice is not installed.
func TestLibreOfficeKeepsTextText(t *testing.T) {
	soffice := testtool.Need(t, "soffice", "make test-workbook")
	dir := t.TempDir()
	in := filepath.Join(dir, "in", "plan.xlsx")
	if err := os.MkdirAll(filepath.Dir(in), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := formulaLikeReport()
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SaveAs(in); err != nil {
		t.Fatal(err)
	}
	f.Close()
	home, out := filepath.Join(dir, "home"), filepath.Join(dir, "out")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, soffice, "-env:UserInstallation=file://"+filepath.ToSlash(home),
		"--headless", "--norestore", "--convert-to", "xlsx:Calc MS Excel 2007 XML", "--outdir", out, in)
	cmd.Env = append(os.Environ(), "HOME="+home)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("soffice: %v\n%s", err, b)
	}
	g, err := excelize.OpenFile(filepath.Join(out, "plan.xlsx"))
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, c := range []struct{ sheet, text string }{
		{sheetSummary, "=1+1"},
		{sheetInputs, "@SUM(A1:A2)"},
		{sheetCosts, "+cmd|' /C calc'!A0"},
		{sheetNotes, "-2+3"},
		{sheetScaling, `=HYPERLINK("http://x","y")`},
	} {
		ref := find(t, g, c.sheet, c.text)
		if fo, _ := g.GetCellFormula(c.sheet, ref); fo != "" {
			t.Errorf("after LibreOffice, %s!%s holds the formula %q", c.sheet, ref, fo)
		}
		typ, _ := g.GetCellType(c.sheet, ref)
		if typ != excelize.CellTypeSharedString && typ != excelize.CellTypeInlineString {
			t.Errorf("after LibreOffice, %s!%s %q has type %v, not text", c.sheet, ref, c.text, typ)
		}
		if !quotePrefix(t, g, c.sheet, ref) {
			t.Logf("after LibreOffice, %s!%s has no quote prefix", c.sheet, ref)
		}
	}
}

// The monthly chart scales to the recalculated costs: no fixed axis
// maximum; its lines stop a little above the highest feasible cost over
// the horizon, which a formula follows; and each line's legend says
// whether the direction is feasible as Summary's verdict does after an
// edit.
func TestMonthlyChartScales(t *testing.T) {
	ex := exampleNamed(t, "constrained-snapshot-training")
	b := build(ex.s, ex.r, nil)
	if b.err != nil {
		t.Fatal(b.err)
	}
	f := b.f
	for _, c := range chartsBySheet(t, f)[sheetMonthly] {
		if c.has("max") {
			t.Errorf("Monthly chart %s has a fixed axis maximum %v", c.name, c.vals["max"])
		}
	}
	top := cell(colMonChart, maxHorizonMonths+3)
	if got, want := calc(t, f, sheetMonthly, top), chartTop(ex.r); !closeTo(got, want, 1e-12) {
		t.Fatalf("top of the chart %v, want %v", got, want)
	}
	// The budget cap at 1, then unlimited: the titles and the top follow
	// Summary's verdicts.
	at, ok := b.names[nameBudgetCap]
	if !ok {
		t.Fatal("the constrained example has no budget cap driver")
	}
	for _, budget := range []float64{1, 1e15} {
		if err := f.SetCellFloat(sheetDrivers, cell(colDrvLikely, at.row), budget, -1, 64); err != nil {
			t.Fatal(err)
		}
		feasibleTop, allTop, infeasible := -math.MaxFloat64, -math.MaxFloat64, 0
		for i, d := range ex.r.Directions {
			got, _ := f.CalcCellValue(sheetMonthly, cell(i+2, 1))
			feasible, _ := f.CalcCellValue(sheetSummary, cell(colSumFeasible, summaryTableRow+1+i))
			if strings.Contains(got, d.Title+notFeasibleMark) != (feasible != "Yes") {
				t.Errorf("budget %v: Monthly title of %s %q while Summary says feasible %q", budget, d.Direction, got, feasible)
			}
			allTop = max(allTop, d.CostHorizon)
			if feasible == "Yes" {
				feasibleTop = max(feasibleTop, d.CostHorizon)
			} else {
				infeasible++
			}
		}
		want := chartHeadroom * feasibleTop
		if infeasible == len(ex.r.Directions) {
			want = chartHeadroom * allTop
		}
		if budget == 1 && infeasible < 2 {
			t.Errorf("a budget of 1 rules out %d directions", infeasible)
		}
		if got := calc(t, f, sheetMonthly, top); !closeTo(got, want, 1e-12) {
			t.Errorf("budget %v: top of the chart %v, want %v", budget, got, want)
		}
	}
	// A line above the top stops: its chart data is #N/A.
	for i, d := range ex.r.Directions {
		if d.CumulativeByMonth[0] > chartTop(ex.r) {
			if got, _ := f.CalcCellValue(sheetMonthly, cell(colMonChart+1+i, 2)); got != "#N/A" {
				t.Errorf("%s above the top of the chart: chart data %q", d.Direction, got)
			}
		}
	}
}

func TestFigureWidth(t *testing.T) {
	for _, c := range []struct {
		format string
		want   float64
	}{
		{"#,##0", 9},
		{"#,##0.00", 12},
		{`#,##0.00 "EUR"`, 16},
		{"0.0%", 7},
	} {
		if got := figureWidth(c.format); got != c.want {
			t.Errorf("figureWidth(%q) = %g, want %g", c.format, got, c.want)
		}
	}
}

// mergedCells lists every cell inside a merged range of sheet, as the file
// has them.
func (b *book) mergedCells(sheet string) map[cellAt]bool {
	ms, err := b.f.GetMergeCells(sheet)
	b.fail(err)
	out := map[cellAt]bool{}
	for _, m := range ms {
		c1, r1, err1 := excelize.CellNameToCoordinates(m.GetStartAxis())
		c2, r2, err2 := excelize.CellNameToCoordinates(m.GetEndAxis())
		if err1 != nil || err2 != nil {
			continue
		}
		for r := r1; r <= r2; r++ {
			for c := c1; c <= c2; c++ {
				out[cellAt{sheet, c, r}] = true
			}
		}
	}
	return out
}

// filled reports whether cell k (from 0) of row, row number rowNo of
// sheet as GetRows reads it, shows something: a value, or a formula
// (whose cached result the file gets only when it is written).
func (b *book) filled(sheet string, row []string, k, rowNo int) bool {
	if row[k] != "" {
		return true
	}
	fo, err := b.f.GetCellFormula(sheet, cell(k+1, rowNo))
	b.fail(err)
	return fo != ""
}
