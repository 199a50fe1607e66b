package export

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/decide"
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
	if err := WriteComparison(path, entries); err != nil {
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
		if got := at(rowOf(t, rows, "Cheapest feasible over the horizon", 0)); got != cheapest.Title {
			t.Errorf("%s: cheapest %q, want %s", e.Scenario.ID, got, cheapest.Title)
		}
		for _, section := range []struct {
			title string
			value func(i int) float64
		}{
			{"Cost over the horizon", func(j int) float64 { return e.Report.Directions[j].CostHorizon }},
			{"Cost per run", func(j int) float64 { return e.Report.Directions[j].CostPerRun }},
			{"Time to result per run (hours)", func(j int) float64 { return e.Report.Directions[j].TimeToResultHours }},
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
				raw, _ := f.GetCellValue(sheetCompare, ref, excelize.Options{RawCellValue: true})
				if want := section.value(j); !closeTo(parse(t, raw), want, relTol) {
					t.Errorf("%s %s %s = %s, want %g", e.Scenario.ID, section.title, d.Direction, raw, want)
				}
				st := styleOf(t, f, sheetCompare, ref)
				grey := st.Font != nil && st.Font.Italic && st.Font.Color == "808080"
				if grey == d.Feasible {
					t.Errorf("%s %s %s: grey %v, feasible %v", e.Scenario.ID, section.title, d.Direction, grey, d.Feasible)
				}
				if section.title == "Cost over the horizon" && st.CustomNumFmt != nil && !strings.Contains(*st.CustomNumFmt, currencyMark(e.Report.Currency)) {
					t.Errorf("%s: cost format %q lacks the currency %s", e.Scenario.ID, *st.CustomNumFmt, e.Report.Currency)
				}
			}
		}
		ruled := rowOf(t, rows, "Ruled out, and why", 0)
		for _, d := range e.Report.Directions {
			got := at(rowOf(t, rows, d.Title, ruled))
			if d.Feasible != (got == "Feasible") {
				t.Errorf("%s ruled out %s: %q, feasible %v", e.Scenario.ID, d.Direction, got, d.Feasible)
			}
		}
	}
	if p, _ := f.GetPanes(sheetCompare); !p.Freeze || p.YSplit != rowCompareHeader {
		t.Errorf("panes %+v, want the names frozen at row %d", p, rowCompareHeader)
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
	if _, err := Comparison(nil); err == nil || !strings.Contains(err.Error(), "1 to 5 scenarios, not 0") {
		t.Errorf("no entries: %v", err)
	}
	six := append(append(append([]Entry{}, entries...), entries...), entries[0])
	if _, err := Comparison(six[:6]); err == nil || !strings.Contains(err.Error(), "not 6") {
		t.Errorf("six entries: %v", err)
	}
	wrong := append([]Entry{}, entries...)
	wrong[1].Report = entries[0].Report
	if _, err := Comparison(wrong); err == nil || !strings.Contains(err.Error(), "entry 2: report is for scenario") {
		t.Errorf("a report of another scenario: %v", err)
	}
	// One scenario alone, without a decision, is still a comparison.
	one := []Entry{{Scenario: entries[0].Scenario, Report: entries[0].Report}}
	f, err := Comparison(one)
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
