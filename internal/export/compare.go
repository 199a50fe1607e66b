package export

import (
	"fmt"
	"io"
	"strings"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/atomicfile"
	"hostplan/internal/costid"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
)

// sheetCompare is the sheet of a comparison workbook.
const sheetCompare = "Compare"

// MaxCompared is how many scenarios a comparison workbook holds side by
// side: a column each, as many as a sheet has columns beside the labels
// (16,384, the most Excel opens); the labels stay in view and are printed
// on every page, so a wide comparison still reads. Each scenario is
// analysed first: some tens of milliseconds each.
const MaxCompared = excelize.MaxColumns - colFirstScenario + 1

// Entry is one scenario of a comparison: the scenario, the model's report
// of it and, when there is one, the decision.
type Entry struct {
	Scenario *scenario.Scenario
	Report   *model.Report
	Decision *decide.Decision // nil: the Compare sheet shows no recommendation
	// Source says where the scenario came from, e.g. "revision 3 in the
	// store" or "the file plans/x.json".
	Source string
}

// Comparison builds a workbook with the Compare sheet: the entries side
// by side, a column each — the recommendation, the cheapest feasible
// direction, each direction's cost over the horizon, cost per run and time
// to result, the directions ruled out with the reasons, and the drivers.
// The costs and the cheapest are formulas of the drivers (compare_live.go),
// in the first entry's currency at exchange rates stated as inputs; the
// decision, the times and the verdicts are the engine's at export. It
// takes 1 to MaxCompared entries and fails when a report or decision is
// not for its scenario, or a number is not finite. author is the name the
// file gives as its author ("": none, as Extras.Author). The caller
// closes the file.
func Comparison(entries []Entry, author string) (*excelize.File, error) {
	if len(entries) == 0 || len(entries) > MaxCompared {
		return nil, fmt.Errorf("export: a comparison takes 1 to %s scenarios, not %s", num.Whole(MaxCompared), num.Whole(float64(len(entries))))
	}
	for i, e := range entries {
		if e.Scenario == nil || e.Report == nil {
			panic("export: Comparison needs a scenario and a report for every entry")
		}
		if e.Report.ScenarioID != e.Scenario.ID {
			return nil, fmt.Errorf("export: comparison entry %d: report is for scenario %q, not %q", i+1, e.Report.ScenarioID, e.Scenario.ID)
		}
		if d := e.Decision; d != nil && d.ScenarioID != e.Scenario.ID {
			return nil, fmt.Errorf("export: comparison entry %d: decision is for scenario %q, not %q", i+1, d.ScenarioID, e.Scenario.ID)
		}
	}
	f := excelize.NewFile()
	b := &book{f: f, currency: entries[0].Report.Currency}
	b.init()
	b.sheet(sheetCompare)
	writeCompare(b, entries)
	b.docProps(fmt.Sprintf("hostplan: %d scenarios side by side", len(entries)), author)
	b.finish(comparePage(entries))
	b.fitRows()
	if b.err != nil {
		f.Close()
		return nil, b.err
	}
	return f, nil
}

// WriteComparison writes the comparison workbook of entries, with author
// as Comparison takes it, to path through atomicfile, as WriteWorkbookWith
// does.
func WriteComparison(path string, entries []Entry, author string) (err error) {
	f, err := Comparison(entries, author)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("export: write %s: %w", path, cerr)
		}
	}()
	if err := atomicfile.Write(path, 0o644, func(w io.Writer) error { return f.Write(w) }); err != nil {
		return fmt.Errorf("export: %w", err) // err names path
	}
	return nil
}

// comparePage is the page header of a comparison: how many scenarios, and
// their ids.
func comparePage(entries []Entry) pageInfo {
	ids := make([]string, len(entries))
	for i, e := range entries {
		ids[i] = e.Scenario.ID
	}
	return pageInfo{
		scenario: fmt.Sprintf("Comparison of %s", present.Count(len(entries), "scenario")),
		revision: strings.Join(ids, ", "),
	}
}

// Layout of the Compare sheet: labels in column A, scenario i in column
// colFirstScenario+i, the scenarios' names in the header row.
const (
	colFirstScenario = 2
	rowCompareHeader = 4
)

// compareWriter writes the Compare sheet row by row.
type compareWriter struct {
	b       *book
	entries []Entry
	row     int
}

func writeCompare(b *book, entries []Entry) {
	const sh = sheetCompare
	last := colFirstScenario + len(entries) - 1
	b.spanText(sh, 1, 1, last, "Comparison: "+present.Count(len(entries), "scenario")+" side by side", textStyle{bold: true, size: sizeHead})
	base := entries[0].Report.Currency
	b.spanText(sh, 2, 1, last, "The costs and the cheapest direction are formulas of the drivers at the bottom (each scenario's runs, horizon and each direction's figures), in "+base+
		" at the exchange rates below; change them and the comparison follows. The decision, the times and the verdicts are the engine's at export. "+
		"Each direction's figures are held here as the engine derived them at export: a changed runs per month or horizon does not re-derive a figure that itself depends on it "+
		"(on-premises' lead-time bridge and utilisation, a commitment spread over the hours used); "+
		"what drives the figures (prices, staff, hardware) is live in each scenario's own workbook (hostplan export ID -o FILE.xlsx). "+
		"Figures in grey are for directions that were not feasible at export.", textStyle{})
	titles := []string{""}
	for _, e := range entries {
		titles = append(titles, scenarioTitle(e.Scenario))
	}
	b.headerRow(sh, rowCompareHeader, titles...)
	w := &compareWriter{b: b, entries: entries, row: rowCompareHeader + 1}

	w.text("Scenario id", func(e Entry) string { return e.Scenario.ID })
	w.text("Exported from", func(e Entry) string { return orDash(e.Source) })
	w.text("Workload shape", func(e Entry) string { return present.ShapeTitle(e.Report.Shape) })
	w.text("Currency", func(e Entry) string { return e.Report.Currency })
	w.input("Horizon (months)", costid.HorizonMonths, func(e Entry) float64 { return float64(e.Report.HorizonMonths) })
	w.input("Runs per month", costid.RunsPerMonth, func(e Entry) float64 { return e.Report.Workload.RunsPerMonth })
	w.text("Prices as of", func(e Entry) string { return e.Report.CatalogAsOf })
	w.text("Model version", func(e Entry) string { return e.Report.ModelVersion })

	w.row = writeCompareRates(b, entries, base, w.row)

	// The costs first, so that the cheapest can read them; the decision
	// is written above them.
	dirs := directionsOf(entries)
	w.row += compareDecisionRows // the decision's rows, written below
	costsAt := w.row
	w.section("Cost over the horizon (" + base + ")")
	horizon := w.liveCosts(dirs, costid.CostHorizon, fmtMoney, base)
	w.section("Cost per run (" + base + ")")
	w.liveCosts(dirs, costid.CostPerRun, fmtPrice, base)
	w.section("Time to result per run (hours, the engine's)")
	w.perDirection(dirs, fmtHours, func(d *model.DirectionResult) float64 { return d.TimeToResultHours }, "time_to_result_hours")

	w.section("Ruled out at export, and why")
	for _, id := range dirs {
		w.text(present.DirectionTitle(id), func(e Entry) string {
			d := e.Report.Direction(id)
			switch {
			case d == nil:
				return "—"
			case d.Feasible:
				return "Feasible"
			}
			return present.Sentence(strings.Join(model.ReasonTexts(d.Reasons), "; "))
		})
	}
	w.writeCompareDrivers(dirs)
	end := w.row

	w.row = costsAt - compareDecisionRows
	w.section("Decision (the engine's at export)")
	w.text("Recommended by the weights", recommendation)
	w.text("Runner-up", runnerUp)
	w.text("Robustness of the ranking", func(e Entry) string {
		if e.Decision == nil {
			return "—"
		}
		return e.Decision.Robustness.Text()
	})
	// The cheapest of the directions feasible at export, by the live
	// costs.
	cheapestRow := w.row
	b.spanText(sh, w.row, 1, 1, "Cheapest feasible over the horizon (formula)", textStyle{bold: true})
	b.spanText(sh, w.row+1, 1, 1, "Its cost over the horizon ("+base+")", textStyle{bold: true})
	for i, e := range entries {
		col := colFirstScenario + i
		title, least := cheapestFormula(e, dirs, horizon[i])
		want, cost := "None is feasible", textResult("—")
		if d := e.Report.Direction(e.Report.Cheapest); d != nil {
			want = d.Title
			x := d.CostHorizon
			if _, rate := compareCurrency(b, e, base); rate != "" {
				r, _, _, _ := compareRate(entries, e.Report.Currency, base)
				x *= r
			}
			cost = numResult(x)
		}
		b.formula(sh, col, cheapestRow, title, 0, textResult(want))
		cur, _ := compareCurrency(b, e, base)
		if least != "" {
			b.formula(sh, col, cheapestRow+1, least, b.numIn(fmtMoney, cur, false), cost)
		} else {
			b.str(sh, col, cheapestRow+1, "—")
		}
	}
	if w.row+2 > costsAt {
		b.fail(fmt.Errorf("export: the Compare sheet's decision runs into its costs (row %d of %d)", w.row+2, costsAt))
	}

	// A column each, wide enough to read, however many: the labels stay
	// in view (frozen) and print on every page.
	widths := []float64{44}
	for range entries {
		widths = append(widths, 26)
	}
	b.widths(sh, widths...)
	b.freeze(sh, rowCompareHeader)
	b.freezeColumn(sh, len(entries))
	_ = end
}

// compareDecisionRows is the rows of the decision block: a blank row and
// its title, three rows of the decision, the cheapest and its cost.
const compareDecisionRows = 7

// freezeColumn keeps column A (the labels) in view beside the frozen
// header rows, and prints it on every page; a comparison of more than
// five scenarios prints on as many landscape pages wide as it takes.
func (b *book) freezeColumn(sheet string, scenarios int) {
	rows := b.frozen[sheet]
	top := cell(2, rows+1)
	b.fail(b.f.SetPanes(sheet, &excelize.Panes{
		Freeze: true, XSplit: 1, YSplit: rows, TopLeftCell: top, ActivePane: "bottomRight",
		Selection: []excelize.Selection{{SQRef: top, ActiveCell: top, Pane: "bottomRight"}},
	}))
	if b.frozenCols == nil {
		b.frozenCols = map[string]bool{}
	}
	b.frozenCols[sheet] = true
	if scenarios > 5 {
		wide, tall := 0, 0
		b.fail(b.f.SetPageLayout(sheet, &excelize.PageLayoutOptions{FitToWidth: &wide, FitToHeight: &tall}))
	}
}

// input writes a row of named inputs x, one per scenario.
func (w *compareWriter) input(label string, x costid.Driver, of func(Entry) float64) {
	const sh = sheetCompare
	w.b.spanText(sh, w.row, 1, 1, label, textStyle{bold: true})
	for i, e := range w.entries {
		col := colFirstScenario + i
		w.b.num(sh, col, w.row, of(e), w.b.numFmt(driverFormat(x), false), fmt.Sprintf("%s: %s", e.Scenario.ID, label))
		w.b.name(compareName(i, "", x), sh, col, w.row)
	}
	w.row++
}

// scenarioTitle is a scenario's name, or its id when it has none.
func scenarioTitle(s *scenario.Scenario) string {
	if s.Name != "" {
		return s.Name
	}
	return s.ID
}

func recommendation(e Entry) string {
	d := e.Decision
	switch {
	case d == nil:
		return "— (no decision)"
	case d.Recommendation == "":
		return "None: no direction is feasible"
	}
	return fmt.Sprintf("%s (score %.2f of 1)", directionTitle(e.Report, d.Recommendation), d.For(d.Recommendation).Total)
}

func runnerUp(e Entry) string {
	d := e.Decision
	switch {
	case d == nil || d.Recommendation == "":
		return "—"
	case d.RunnerUp == nil:
		return "None: the only feasible direction"
	}
	return fmt.Sprintf("%s, %.3f behind", directionTitle(e.Report, d.RunnerUp.Direction), d.RunnerUp.Gap)
}

// directionsOf lists the direction ids of every entry, in the order they
// first appear.
func directionsOf(entries []Entry) []string {
	var ids []string
	seen := map[string]bool{}
	for _, e := range entries {
		for _, d := range e.Report.Directions {
			if !seen[d.Direction] {
				seen[d.Direction] = true
				ids = append(ids, d.Direction)
			}
		}
	}
	return ids
}

// section starts a titled block after a blank row.
func (w *compareWriter) section(title string) {
	w.row++
	w.b.title(sheetCompare, 1, w.row, title)
	w.row++
}

// text writes a row of text, one cell per scenario, wrapped.
func (w *compareWriter) text(label string, of func(Entry) string) {
	const sh = sheetCompare
	w.b.spanText(sh, w.row, 1, 1, label, textStyle{bold: true})
	for i, e := range w.entries {
		col := colFirstScenario + i
		w.b.spanText(sh, w.row, col, col, of(e), textStyle{})
	}
	w.row++
}

// dash marks, right-aligned, a scenario's cell of the current row that
// has no figure: a direction it lacks or ruled out before it was costed.
func (w *compareWriter) dash(col int) {
	w.b.str(sheetCompare, col, w.row, "—")
	w.b.style(sheetCompare, cell(col, w.row), cell(col, w.row), w.b.aligned(0, "right", ""))
}

// perDirection writes a row per direction of the figure of, in grey for a
// direction that is not feasible; a scenario without the direction, or
// with the direction ruled out before it was costed, gets a dash.
func (w *compareWriter) perDirection(dirs []string, format string, of func(*model.DirectionResult) float64, field string) {
	const sh = sheetCompare
	for _, id := range dirs {
		w.b.spanText(sh, w.row, 1, 1, present.DirectionTitle(id), textStyle{indent: 1})
		for i, e := range w.entries {
			col := colFirstScenario + i
			d := e.Report.Direction(id)
			if d == nil || notCosted(d) {
				w.dash(col)
				continue
			}
			w.b.num(sh, col, w.row, of(d), w.b.numIn(format, e.Report.Currency, !d.Feasible),
				fmt.Sprintf("%s: directions[%s].%s", e.Scenario.ID, id, field))
		}
		w.row++
	}
}

// notCosted reports whether direction d was ruled out before the model
// costed it: not feasible, and no cost or time at all.
func notCosted(d *model.DirectionResult) bool {
	return !d.Feasible && d.CostHorizon == 0 && d.CostPerRun == 0 && d.TimeToResultHours == 0
}

// numIn is the style of number format format with money in currency, in
// grey italics when muted.
func (b *book) numIn(format, currency string, muted bool) int {
	keep := b.currency
	b.currency = currency
	id := b.numFmt(format, false)
	b.currency = keep
	if muted {
		id = b.mutedStyle(id)
	}
	return id
}

// mutedStyle is style id in grey italics: a figure set aside.
func (b *book) mutedStyle(id int) int {
	if m, ok := b.muted[id]; ok {
		return m
	}
	st, err := b.f.GetStyle(id)
	b.fail(err)
	if st == nil {
		st = &excelize.Style{}
	}
	font := excelize.Font{Family: b.family}
	if st.Font != nil {
		font = *st.Font
	}
	font.Color, font.Italic = "808080", true
	st.Font = &font
	m := b.newStyle(st)
	if b.muted == nil {
		b.muted = map[int]int{}
	}
	b.muted[id] = m
	return m
}
