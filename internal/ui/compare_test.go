package ui

import (
	"fmt"
	"strings"
	"testing"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/uitest"
	"hostplan/internal/ui/widgets"
)

// cellTexts are the texts of scenario id's column, row by row.
func cellTexts(v *compareView, id string) []string {
	for _, it := range v.ticked {
		if it.ID == id {
			var out []string
			for _, o := range v.column(it, v.basis()) {
				out = append(out, strings.TrimSpace(uitest.LabelTexts(o)))
			}
			return out
		}
	}
	return nil
}

// tickRow chooses row i of the list, which in compare mode ticks or
// unticks it, and waits for the comparison's evaluations.
func tickRow(t *testing.T, p *planner, i int) {
	t.Helper()
	p.scenarios.list.Select(i)
	waitUntil(t, func() bool { return p.pending() == 0 },
		func() string { return fmt.Sprintf("%d evaluations running", p.pending()) })
}

// rowTick is the tick box drawn in row i of the list.
func rowTick(t *testing.T, p *planner, i int) *widgets.KeyCheck {
	t.Helper()
	row := p.scenarios.list.CreateItem()
	p.scenarios.list.UpdateItem(i, row)
	return row.(*scenarioRow).tick
}

func TestCompareFake(t *testing.T) {
	b := withUncertainty(newFakeBackend())
	w, p := openWindow(t, b)

	// The scenario on show is ticked on entering compare mode.
	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)
	test.Tap(p.scenarios.compare)
	if !p.scenarios.comparing || !p.compare.content.Visible() || p.view.content.Visible() {
		t.Fatal("Compare did not switch the right pane to the comparison")
	}
	if got := p.scenarios.compare.Text; got != "Done" {
		t.Errorf("compare button reads %q in compare mode, want Done", got)
	}
	waitUntil(t, func() bool { return p.pending() == 0 }, func() string { return "evaluating" })
	if !p.compare.isTicked("ft-7b") || !rowTick(t, p, 0).Checked || !rowTick(t, p, 0).Visible() {
		t.Error("the scenario on show is not ticked")
	}
	if !strings.Contains(p.compare.hint.Text, "Tick one or two more") {
		t.Errorf("hint = %q", p.compare.hint.Text)
	}

	tickRow(t, p, 1)
	if p.view.shownID() != "ft-7b" {
		t.Error("choosing a row in compare mode showed it instead of ticking it")
	}
	ft := cellTexts(p.compare, "ft-7b")
	want := map[int][]string{
		0: {"Fine-tune 7B on claims notes", "horizon 24 months"},
		1: {"Hybrid", "score 0.80 of 1"},
		2: {"USD 1,300,000", "P10–P90 USD 1,150,000 – 1,500,000"},
		3: {"9.0 h per run", "P10–P90 7.5 – 11.6 h"},
		4: {"Cloud IaaS, USD 1,234,568", "cheapest in 62 % of draws"},
		5: {"Hybrid stays first and Cloud IaaS second"},
		6: {"Cloud IaaS, 0.070 behind"},
		7: {"Managed service, Shared HPC"},
		8: {"8 × h100-sxm on Hybrid"},
	}
	for row, subs := range want {
		for _, sub := range subs {
			if !strings.Contains(ft[row], sub) {
				t.Errorf("ft-7b %s = %q, want %q in it", report.CompareRows[row], ft[row], sub)
			}
		}
	}
	// The chat service cannot be decided (all weights zero): its column
	// says so and the rest stays empty, without a panic.
	chat := cellTexts(p.compare, "chat")
	if !strings.Contains(chat[1], "Could not rank the directions: all five weights are zero") {
		t.Errorf("chat recommended = %q", chat[1])
	}
	if !strings.Contains(chat[4], "None is feasible") {
		t.Errorf("chat cheapest = %q", chat[4])
	}
	markup := test.RenderToMarkup(w.Canvas())
	for _, s := range []string{"Compare scenarios", "Recommended", "Cost over the horizon", "First trial", "Citizen chat assistant", "ROBUST"} {
		if !strings.Contains(markup, s) {
			t.Errorf("comparison does not show %q", s)
		}
	}

	// Unticking removes the column; Done shows the scenario again.
	tickRow(t, p, 1)
	if p.compare.isTicked("chat") {
		t.Error("chat still ticked")
	}
	test.Tap(p.scenarios.compare)
	if p.scenarios.comparing || !p.view.content.Visible() || p.compare.content.Visible() {
		t.Error("Done did not return to the scenario")
	}
	if rowTick(t, p, 0).Visible() {
		t.Error("tick boxes shown outside compare mode")
	}
	if p.view.shownID() != "ft-7b" {
		t.Errorf("after Done the pane shows %q", p.view.shownID())
	}
}

// Three real scenarios side by side, through the model; a fourth tick is
// refused.
func TestCompareReal(t *testing.T) {
	b := newRealBackend(t, "constrained-snapshot-training", "qlora-legal-70b", "foundation-7b-pretraining", "flood-simulation-ensemble")
	_, p := openWindow(t, b)
	test.Tap(p.scenarios.compare)
	index := map[string]int{}
	for i, it := range p.scenarios.items {
		index[it.ID] = i
	}
	for _, id := range []string{"constrained-snapshot-training", "qlora-legal-70b", "foundation-7b-pretraining"} {
		tickRow(t, p, index[id])
	}
	for id, rec := range map[string]string{
		"constrained-snapshot-training": "Hybrid",
		"qlora-legal-70b":               "Cloud IaaS",
		"foundation-7b-pretraining":     "Cloud IaaS",
	} {
		cells := cellTexts(p.compare, id)
		if !strings.HasPrefix(cells[1], rec) {
			t.Errorf("%s: recommended %q, want %s", id, cells[1], rec)
		}
		if !strings.Contains(cells[2], "P10–P90 USD ") {
			t.Errorf("%s: cost %q has no P10–P90", id, cells[2])
		}
		if cells[8] == report.NoValue || cells[8] == "" {
			t.Errorf("%s: no first trial", id)
		}
	}
	tickRow(t, p, index["flood-simulation-ensemble"])
	if len(p.compare.ticked) != 3 || p.compare.isTicked("flood-simulation-ensemble") {
		t.Errorf("a fourth scenario was ticked: %v", p.compare.ticked)
	}
	if !strings.Contains(p.compare.hint.Text, "At most 3 scenarios") || p.compare.hint.Importance != widget.DangerImportance {
		t.Errorf("hint = %q", p.compare.hint.Text)
	}

	// The ticks stay; coming back from another scenario with three ticked
	// adds nothing and warns of nothing.
	test.Tap(p.scenarios.compare)
	p.scenarios.list.Select(index["flood-simulation-ensemble"])
	waitShown(t, p, "flood-simulation-ensemble")
	test.Tap(p.scenarios.compare)
	settle(t, p)
	if len(p.compare.ticked) != 3 || p.compare.isTicked("flood-simulation-ensemble") || p.compare.hint.Importance == widget.DangerImportance {
		t.Errorf("re-entering with three ticked: %d ticked, hint %q", len(p.compare.ticked), p.compare.hint.Text)
	}
}

// A new revision of a ticked scenario is evaluated again.
func TestCompareFollowsRevisions(t *testing.T) {
	b := newFakeBackend()
	_, p := openWindow(t, b)
	test.Tap(p.scenarios.compare)
	tickRow(t, p, 0)
	before := p.compare.cache["ft-7b"]
	b.mu.Lock()
	b.items[0].Revisions++
	b.mu.Unlock()
	p.scenarios.reload()
	waitUntil(t, func() bool { return p.pending() == 0 }, func() string { return "evaluating" })
	if p.compare.cache["ft-7b"] == before || p.compare.cache["ft-7b"].revisions != 4 {
		t.Error("the new revision was not evaluated again")
	}
}

// The rows give the tick box's room back to the names on leaving compare
// mode, every row, not only those drawn again.
func TestRowsLoseTickRoom(t *testing.T) {
	w, p := openWindow(t, newFakeBackend())
	w.Resize(fyne.NewSize(1280, 800))
	p.scenarios.list.Select(0)
	waitFor(t, p.view, stateReady)
	nameX := func() []float32 {
		var xs []float32
		uitest.Find(p.scenarios.list, func(o fyne.CanvasObject) bool {
			if r, ok := o.(*scenarioRow); ok && r.index >= 0 {
				xs = append(xs, fyne.CurrentApp().Driver().AbsolutePositionForObject(r.name).X)
			}
			return false
		})
		return xs
	}
	before := nameX()
	if len(before) < 2 {
		t.Fatalf("%d rows drawn", len(before))
	}
	test.Tap(p.scenarios.compare)
	settle(t, p)
	for i, x := range nameX() {
		if x <= before[i] {
			t.Errorf("comparing, row %d's name at %v, not right of its tick box (%v)", i, x, before[i])
		}
	}
	test.Tap(p.scenarios.compare)
	settle(t, p)
	for i, x := range nameX() {
		if x != before[i] {
			t.Errorf("after comparing, row %d's name at %v, want %v", i, x, before[i])
		}
	}
}

// Scenarios in other currencies and over other horizons are put on one
// basis, or the comparison says it cannot: money is converted into the
// first scenario's currency at a rate the reports state (its date and
// source on screen), and when the horizons differ each cost is also given
// over the shortest one, month by month from the cumulative cost (the
// scenario of that horizon has its cost over its horizon already).
func TestCompareConvertsCurrencyAndHorizon(t *testing.T) {
	b := newFakeBackend()
	ft := b.reports["ft-7b"]
	hybrid := &ft.Directions[4] // recommended in the fake report
	hybrid.CumulativeByMonth = make([]float64, 24)
	for m := range hybrid.CumulativeByMonth {
		hybrid.CumulativeByMonth[m] = 100000 + 50000*float64(m+1)
	}
	eur := *ft
	eur.ScenarioID, eur.ScenarioName, eur.Currency, eur.HorizonMonths = "ft-eur", "Fine-tune 7B, EU", "EUR", 12
	eur.ExchangeRates = []model.ExchangeRate{{From: "USD", To: "EUR", Rate: 0.9, AsOf: "2025-04-01", Source: "ECB reference rate"}}
	s := scenario.Clone(b.scenarios["ft-7b"])
	s.ID, s.Name, s.Currency = "ft-eur", "Fine-tune 7B, EU", "EUR"
	b.items = append(b.items, Item{ID: s.ID, Name: s.Name, Shape: s.Workload.Shape, Revisions: 1})
	b.scenarios[s.ID], b.reports[s.ID] = s, &eur

	_, p := openWindow(t, b)
	p.setComparing(true)
	p.tick(b.items[2]) // EUR first: the comparison's currency
	p.tick(b.items[0])
	settle(t, p)

	hint := p.compare.hint.Text
	for _, want := range []string{"EUR", "0.9 EUR per USD", "2025-04-01", "ECB reference rate", "12 and 24 months", "first 12 months"} {
		if !strings.Contains(hint, want) {
			t.Errorf("the comparison's note %q lacks %q", hint, want)
		}
	}
	usd := cellTexts(p.compare, "ft-7b")[2]
	for _, want := range []string{"USD 1,300,000", "≈ EUR 1,170,000", "first 12 months: ≈ EUR 630,000"} {
		if !strings.Contains(usd, want) {
			t.Errorf("the USD scenario's cost %q lacks %q", usd, want)
		}
	}
	if got := cellTexts(p.compare, "ft-eur")[2]; !strings.Contains(got, "EUR 1,300,000") || strings.Contains(got, "≈") || strings.Contains(got, "first 12") {
		t.Errorf("the EUR scenario's cost %q", got)
	}

	// Without a rate the comparison says the costs are not converted.
	eur.ExchangeRates = nil
	p.compare.cache = map[string]*compareEntry{}
	p.compare.refresh()
	settle(t, p)
	if hint := p.compare.hint.Text; !strings.Contains(hint, "not converted") {
		t.Errorf("without a rate the note says %q", hint)
	}
}
