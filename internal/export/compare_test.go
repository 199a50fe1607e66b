package export

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/costid"
	"hostplan/internal/decide"
	"hostplan/internal/present/num"
)

// compareEntries are three examples with their decisions; the second one
// in euros.
func compareEntries(t *testing.T) []Entry {
	t.Helper()
	var out []Entry
	for _, ex := range exampleReports(t) {
		switch ex.name {
		case "qlora-legal-70b", "flood-simulation-ensemble", "support-assistant-70b":
		default:
			continue
		}
		d, err := decide.Decide(ex.s, ex.r)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Entry{Scenario: ex.s, Report: ex.r, Decision: d, Source: "the file " + ex.name + ".json"})
	}
	if len(out) != 3 {
		t.Fatalf("%d of the three examples found", len(out))
	}
	out[1].Report.Currency = "EUR"
	return out
}

// rowOf is the row whose first cell is label, after row from.
func rowOf(t *testing.T, rows [][]string, label string, from int) int {
	t.Helper()
	for i := from; i < len(rows); i++ {
		if len(rows[i]) > 0 && strings.TrimSpace(rows[i][0]) == label {
			return i + 1
		}
	}
	t.Fatalf("no row %q after row %d", label, from)
	return 0
}

func TestComparison(t *testing.T) {
	entries := compareEntries(t)
	path := filepath.Join(t.TempDir(), "compare.xlsx")
	if err := WriteComparison(path, entries, ""); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := f.GetSheetList(); len(got) != 1 || got[0] != sheetCompare {
		t.Fatalf("sheets %v, want [Compare]", got)
	}
	rows, err := f.GetRows(sheetCompare)
	if err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		col := colFirstScenario + i
		at := func(row int) string {
			v, _ := f.GetCellValue(sheetCompare, cell(col, row))
			return v
		}
		if got := at(rowCompareHeader); got != e.Scenario.Name {
			t.Errorf("column %d is headed %q, want %q", col, got, e.Scenario.Name)
		}
		rec := e.Report.Direction(e.Decision.Recommendation)
		if got := at(rowOf(t, rows, "Recommended by the weights", 0)); !strings.HasPrefix(got, rec.Title+" (score ") {
			t.Errorf("%s: recommended %q, want %s", e.Scenario.ID, got, rec.Title)
		}
		cheapest := e.Report.Direction(e.Report.Cheapest)
		if got, _ := f.CalcCellValue(sheetCompare, cell(col, rowOf(t, rows, "Cheapest feasible over the horizon (formula)", 0))); got != cheapest.Title {
			t.Errorf("%s: cheapest %q, want %s", e.Scenario.ID, got, cheapest.Title)
		}
		for _, section := range []struct {
			title string
			value func(i int) float64
		}{
			{"Cost over the horizon (USD)", func(j int) float64 { return e.Report.Directions[j].CostHorizon }},
			{"Cost per run (USD)", func(j int) float64 { return e.Report.Directions[j].CostPerRun }},
			{"Time to result per run (hours, the engine's)", func(j int) float64 { return e.Report.Directions[j].TimeToResultHours }},
		} {
			top := rowOf(t, rows, section.title, rowCompareHeader)
			for j, d := range e.Report.Directions {
				row := rowOf(t, rows, d.Title, top)
				ref := cell(col, row)
				if notCosted(&d) {
					if got := at(row); got != "—" {
						t.Errorf("%s %s %s: %q, want a dash (not costed)", e.Scenario.ID, section.title, d.Direction, got)
					}
					continue
				}
				raw, _ := f.CalcCellValue(sheetCompare, ref, excelize.Options{RawCellValue: true})
				want := section.value(j)
				if base := entries[0].Report.Currency; e.Report.Currency != base && !strings.HasPrefix(section.title, "Time") {
					// Money converted into the first scenario's currency.
					rate, _, _, ok := compareRate(entries, e.Report.Currency, base)
					if !ok {
						t.Fatalf("no rate %s → %s", e.Report.Currency, base)
					}
					want *= rate
				}
				if !closeTo(parse(t, raw), want, relTol) {
					t.Errorf("%s %s %s = %s, want %g", e.Scenario.ID, section.title, d.Direction, raw, want)
				}
				st := styleOf(t, f, sheetCompare, ref)
				grey := st.Font != nil && st.Font.Italic && st.Font.Color == "808080"
				if grey == d.Feasible {
					t.Errorf("%s %s %s: grey %v, feasible %v", e.Scenario.ID, section.title, d.Direction, grey, d.Feasible)
				}
				if base := entries[0].Report.Currency; section.title == "Cost over the horizon (USD)" && st.CustomNumFmt != nil && !strings.Contains(*st.CustomNumFmt, currencyMark(base)) {
					t.Errorf("%s: cost format %q lacks the comparison's currency %s", e.Scenario.ID, *st.CustomNumFmt, base)
				}
			}
		}
		ruled := rowOf(t, rows, "Ruled out at export, and why", 0)
		for _, d := range e.Report.Directions {
			got := at(rowOf(t, rows, d.Title, ruled))
			if d.Feasible != (got == "Feasible") {
				t.Errorf("%s ruled out %s: %q, feasible %v", e.Scenario.ID, d.Direction, got, d.Feasible)
			}
		}
	}
	if p, _ := f.GetPanes(sheetCompare); !p.Freeze || p.YSplit != rowCompareHeader || p.XSplit != 1 {
		t.Errorf("panes %+v, want the names frozen at row %d and the labels in column A", p, rowCompareHeader)
	}
}

func parse(t *testing.T, s string) float64 {
	t.Helper()
	var x float64
	if _, err := fmt.Sscan(s, &x); err != nil {
		t.Fatalf("%q is not a number", s)
	}
	return x
}

func TestComparisonErrors(t *testing.T) {
	entries := compareEntries(t)
	if _, err := Comparison(nil, ""); err == nil || !strings.Contains(err.Error(), "1 to 16,383 scenarios, not 0") {
		t.Errorf("no entries: %v", err)
	}
	var many []Entry
	for len(many) <= MaxCompared {
		many = append(many, entries...)
	}
	if _, err := Comparison(many, ""); err == nil || !strings.Contains(err.Error(), "not "+num.Whole(float64(len(many)))) {
		t.Errorf("%d entries: %v", len(many), err)
	}
	wrong := append([]Entry{}, entries...)
	wrong[1].Report = entries[0].Report
	if _, err := Comparison(wrong, ""); err == nil || !strings.Contains(err.Error(), "entry 2: report is for scenario") {
		t.Errorf("a report of another scenario: %v", err)
	}
	// One scenario alone, without a decision, is still a comparison.
	one := []Entry{{Scenario: entries[0].Scenario, Report: entries[0].Report}}
	f, err := Comparison(one, "")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, _ := f.GetRows(sheetCompare)
	if got, _ := f.GetCellValue(sheetCompare, cell(colFirstScenario, rowOf(t, rows, "Recommended by the weights", 0))); got != "— (no decision)" {
		t.Errorf("without a decision the recommendation reads %q", got)
	}
}

// currencyMark is what a money format of currency shows: its sign, or its
// code.
func currencyMark(currency string) string {
	if sym, ok := currencySymbols[currency]; ok {
		return sym
	}
	return currency
}

// TestComparisonLive: the Compare sheet's costs follow its drivers — a
// scenario's runs per month, a direction's figure, the exchange rate — as
// the cost identity has it, money converted into the first scenario's
// currency at a stated rate; and it takes more than five scenarios, a
// column each.
func TestComparisonLive(t *testing.T) {
	var entries []Entry
	for _, name := range []string{"qlora-legal-70b", "nightly-document-batch-eur", "support-assistant-70b", "flood-simulation-ensemble", "constrained-snapshot-training", "foundation-7b-pretraining", "nightly-document-batch"} {
		ex := exampleNamed(t, name)
		entries = append(entries, Entry{Scenario: ex.s, Report: ex.r})
	}
	f, err := Comparison(entries, "")
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.GetRows(sheetCompare)
	eur := entries[1]
	rate, _, _, ok := compareRate(entries, "EUR", "USD")
	if !ok {
		t.Fatal("no EUR → USD rate in the reports")
	}
	rateAt := rowOf(t, rows, "1 EUR in USD", 0)
	if got := calc(t, f, sheetCompare, cell(colFirstScenario, rateAt)); got != rate {
		t.Errorf("the rate %v, want %v", got, rate)
	}
	if text, _ := f.GetCellValue(sheetCompare, cell(colFirstScenario+1, rateAt)); !strings.Contains(text, "as of") {
		t.Errorf("the rate's date and source %q", text)
	}
	top := rowOf(t, rows, "Cost over the horizon (USD)", 0)
	col := colFirstScenario + 1
	for _, d := range eur.Report.Directions {
		if notCosted(&d) {
			continue
		}
		ref := cell(col, rowOf(t, rows, d.Title, top))
		if got := calc(t, f, sheetCompare, ref); !closeTo(got, d.CostHorizon*rate, 1e-9) {
			t.Errorf("EUR %s over the horizon in USD %v, want %v × %v", d.Direction, got, d.CostHorizon, rate)
		}
	}
	// The rate at 2: every EUR cost doubles its USD.
	d := eur.Report.Directions[0]
	ref := cell(col, rowOf(t, rows, d.Title, top))
	if err := f.SetCellFloat(sheetCompare, cell(colFirstScenario, rateAt), 2, -1, 64); err != nil {
		t.Fatal(err)
	}
	if got := calc(t, f, sheetCompare, ref); !closeTo(got, d.CostHorizon*2, 1e-9) {
		t.Errorf("at a rate of 2: %v, want %v", got, d.CostHorizon*2)
	}
	// The first scenario's runs per month: every direction as the cost
	// identity derives it from the four figures held at export, and the
	// cheapest follows.
	q := entries[0]
	runsAt := rowOf(t, rows, "Runs per month", 0)
	runs := q.Report.Workload.RunsPerMonth*3 + 1
	if err := f.SetCellFloat(sheetCompare, cell(colFirstScenario, runsAt), runs, -1, 64); err != nil {
		t.Fatal(err)
	}
	cheapest, least := "", 0.0
	for _, d := range q.Report.Directions {
		if notCosted(&d) {
			continue
		}
		c := d
		c.CostModel, c.Drivers = costid.NoCostModel, nil
		c.DeriveCosts(runs, q.Report.HorizonMonths, false)
		ref := cell(colFirstScenario, rowOf(t, rows, d.Title, top))
		if got := calc(t, f, sheetCompare, ref); !closeTo(got, c.CostHorizon, 1e-9) {
			t.Errorf("%s at %v runs a month: %v, the cost identity %v", d.Direction, runs, got, c.CostHorizon)
		}
		if d.Feasible && (cheapest == "" || c.CostHorizon < least) {
			cheapest, least = d.Title, c.CostHorizon
		}
	}
	if got, _ := f.CalcCellValue(sheetCompare, cell(colFirstScenario, rowOf(t, rows, "Cheapest feasible over the horizon (formula)", 0))); got != cheapest {
		t.Errorf("cheapest at %v runs a month %q, want %q", runs, got, cheapest)
	}
	// Seven scenarios: a column each, the labels frozen beside them.
	if got, _ := f.GetCellValue(sheetCompare, cell(colFirstScenario+6, rowCompareHeader)); got != entries[6].Scenario.Name {
		t.Errorf("seventh column headed %q", got)
	}
}

// A comparison of many scenarios with long ids writes — a column each —
// and its page header stays within the 255 characters a header may hold
// (it held every id and failed past a few long ones).
func TestComparisonOfMany(t *testing.T) {
	base := compareEntries(t)
	var many []Entry
	for i := range 40 {
		e := base[i%len(base)]
		s, r := *e.Scenario, *e.Report
		s.ID = fmt.Sprintf("%s-a-rather-long-identifier-r&d-%03d", s.ID, i)
		d := *e.Decision
		r.ScenarioID, d.ScenarioID = s.ID, s.ID
		e.Scenario, e.Report, e.Decision = &s, &r, &d
		many = append(many, e)
	}
	f, err := Comparison(many, "")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	hf, err := f.GetHeaderFooter(sheetCompare)
	if err != nil {
		t.Fatal(err)
	}
	if n := utf8.RuneCountInString(hf.OddHeader); n > 255 || !strings.Contains(hf.OddHeader, "r&&d") || !strings.HasSuffix(hf.OddHeader, "…") {
		t.Errorf("header of %d characters: %q", n, hf.OddHeader)
	}
	rows, _ := f.GetRows(sheetCompare)
	if got, _ := f.GetCellValue(sheetCompare, cell(colFirstScenario+39, rowOf(t, rows, "Recommended by the weights", 0))); got == "" {
		t.Error("the 40th scenario's column is empty")
	}
}

func TestHeaderText(t *testing.T) {
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"R&D", 10, "R&&D"},
		{"abcdef", 6, "abcdef"},
		{"abcdefg", 6, "abcde…"},
		{"abcd&fg", 6, "abcd…"}, // the doubled & does not fit whole
		{"abc&efg", 6, "abc&&…"},
		{"&&&", 6, "&&&&&&"},
		{"&&&&", 6, "&&&&…"},
	} {
		got := headerText(tc.in, tc.n)
		if got != tc.want || utf8.RuneCountInString(got) > tc.n {
			t.Errorf("headerText(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}
