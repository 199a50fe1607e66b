package report

import (
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"hostplan/internal/scenario"
	"hostplan/internal/ui/uitest"
)

// The Uncertainty tab shows the spread of cost and time per direction,
// the recommended one in bold and "—" for those ruled out, how often
// nothing is feasible, the sampled inputs with the scenario's ranges, and
// the tornado of one direction's cost, the largest swing on top.
func TestUncertainty(t *testing.T) {
	test.NewTempApp(t)
	s, r := uitest.FineTuning()
	uitest.AddUncertainty(r)
	rec := recommended(t, s, r)
	if rec != scenario.Hybrid {
		t.Fatalf("the fixture recommends %q, want hybrid", rec)
	}
	v := NewUncertainty()
	w := showIn(t, v.Content())
	v.Set(s, r, rec)

	if v.empty.Visible() || v.Message() != "" {
		t.Error("the no-uncertainty line is shown for a report with a spread")
	}
	for _, want := range []string{"10,000 draws", "pert", "seed 7"} {
		if !strings.Contains(v.about.Text, want) {
			t.Errorf("about line %q lacks %q", v.about.Text, want)
		}
	}
	if got, want := v.spread.Headings[spCostP50], "Cost P50\n(USD)"; got != want {
		t.Errorf("cost heading = %q, want %q", got, want)
	}
	want := [][numSpreadColumns]string{
		// Managed and Shared HPC are ruled out: "—" in every column.
		{"Managed service (ruled out)", NoValue, NoValue, NoValue, NoValue, NoValue, NoValue, NoValue, NoValue, NoValue, NoValue},
		{"Cloud IaaS", "1,100,000", "1,230,000", "1,410,000", "5.2", "6.3", "8.1", "62 %", "100 %", "100 %", "97 %"},
		{"On-premises", "1,700,000", "1,750,000", "1,800,000", "9.8", "11.5", "14.0", "0 %", "100 %", "100 %", "100 %"},
		{"Shared HPC (ruled out)", NoValue, NoValue, NoValue, NoValue, NoValue, NoValue, NoValue, NoValue, NoValue, NoValue},
		{"Hybrid", "1,150,000", "1,300,000", "1,500,000", "7.5", "9.0", "11.6", "38 %", "100 %", "100 %", "95 %"},
	}
	rows := uitest.DrawnRows(v.spread)
	if len(rows) != len(want) {
		t.Fatalf("spread has %d rows, want %d", len(rows), len(want))
	}
	for i, row := range want {
		if got := rows[i].Cells; !slices.Equal(got, row[:]) {
			t.Errorf("row %d:\n got %q\nwant %q", i, got, row)
		}
	}
	for i, row := range rows {
		if row.Bold != (i == 4) {
			t.Errorf("row %d bold %v; want only the recommended direction (hybrid) in bold", i, row.Bold)
		}
	}
	if rows[3].Danger != spDirection {
		t.Error("a direction ruled out is not marked in the error colour")
	}
	if !v.none.Visible() || !strings.Contains(v.none.Text, "2 %") {
		t.Errorf("none-feasible line = %q (visible %v), want 2 %% shown", v.none.Text, v.none.Visible())
	}
	// The sampled inputs with the scenario's ranges; the catalog's queue
	// wait has no range in the scenario.
	for _, want := range []string{"• Tokens per run (billions): 1.5–3, likely 2", "• Operations staff (FTE): 0.5–1.5, likely 1", "• Shared HPC: queue wait (hours), catalog estimate"} {
		if !strings.Contains(v.inputs.Text, want) {
			t.Errorf("sampled inputs %q lack %q", v.inputs.Text, want)
		}
	}

	// The tornado: its metric and direction in the heading, the largest
	// swing on top, the values at the bar ends.
	if got, want := v.tornadoTitle.Text, "Sensitivity of Cloud IaaS's cost over the horizon (base USD 1,234,568)"; got != want {
		t.Errorf("tornado title = %q, want %q", got, want)
	}
	var order []string
	for _, b := range v.tornado.Bars() {
		order = append(order, b.Input)
	}
	if want := []string{"workload.tokens_per_run_b", "dimensions.operations.staff_fte", "options.hpc.queue_wait_hours (catalog)"}; !slices.Equal(order, want) {
		t.Errorf("bars top to bottom = %q, want %q", order, want)
	}
	texts := uitest.ChartTexts(v.tornado)
	for _, want := range []string{"input at its low end", "input at its high end", "base USD 1,234,568",
		"Tokens per run", "Operations staff", "Shared HPC: queue wait, catalog estimate",
		"1,000,000", "1,700,000", "1,100,000", "1,370,000", "no change",
		// The value axis in the scenario's currency.
		"1 M", "1.2 M", "1.6 M", "Cost over the horizon (USD)"} {
		if !slices.Contains(texts, want) {
			t.Errorf("tornado does not draw %q (it draws %q)", want, texts)
		}
	}
	markup := test.RenderToMarkup(w.Canvas())
	for _, want := range []string{"Spread over the draws", "Sampled inputs", "Chance", "cheapest", "Meets", "deadline"} {
		if !strings.Contains(markup, want) {
			t.Errorf("the tab does not show %q", want)
		}
	}
}

// A report without a spread says so, and nothing else.
func TestUncertaintyWithoutSpread(t *testing.T) {
	test.NewTempApp(t)
	s, r := uitest.FineTuning() // no Uncertainty
	v := NewUncertainty()
	showIn(t, v.Content())
	v.Set(s, r, recommended(t, s, r))
	if !v.empty.Visible() || v.empty.Text != noUncertainty || v.Message() != noUncertainty {
		t.Errorf("empty line = %q (visible %v), want %q", v.empty.Text, v.empty.Visible(), noUncertainty)
	}
	for _, o := range v.withSpread {
		if o.Visible() {
			t.Errorf("%T visible without a spread", o)
		}
	}
}
