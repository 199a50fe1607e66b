package ui

import (
	"strings"
	"testing"

	"hostplan/internal/ui/report"

	"hostplan/internal/scenario"
)

// The window's own wording; numbers and titles are tested in package
// present.
func TestWords(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{report.ReasonsText(nil), ""},
		{report.ReasonsText([]string{"too slow"}), "too slow"},
		{report.ReasonsText([]string{"too slow", "too dear"}), "• too slow\n• too dear"},
		{itemDetail(Item{Shape: scenario.ShapeBatch, Revisions: 2}), "Batch inference · 2 revisions"},
		{itemName(Item{ID: "x1"}), "x1"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

// The header dates the prices by the directions that count: the oldest
// price a feasible direction used, not a ruled-out direction's older one;
// with none feasible, the oldest any direction used; with no direction's
// date, the report's.
func TestHeaderPricesFromDirectionsThatCount(t *testing.T) {
	r := newFakeBackend().reports["ft-7b"]
	r.Directions[2].PricesAsOf = "2025-11-30" // on premises, feasible
	if got := report.ReportFacts(r); !strings.HasSuffix(got, "Prices as of 2025-11-30 (the oldest a feasible direction used)") {
		t.Errorf("facts %q", got)
	}
	r.Directions[3].PricesAsOf = "2023-05-01" // shared HPC, ruled out
	if got := report.ReportFacts(r); strings.Contains(got, "2023-05-01") {
		t.Errorf("a ruled-out direction dates the header: %q", got)
	}
	for i := range r.Directions {
		r.Directions[i].Feasible = false
	}
	if got := report.ReportFacts(r); !strings.HasSuffix(got, "Prices as of 2023-05-01 (the oldest any direction used)") {
		t.Errorf("nothing feasible: facts %q", got)
	}
	for i := range r.Directions {
		r.Directions[i].PricesAsOf = ""
	}
	if got := report.ReportFacts(r); !strings.HasSuffix(got, "Prices as of 2025-06-01 (oldest in the catalog used)") {
		t.Errorf("no direction's date: facts %q", got)
	}
}
