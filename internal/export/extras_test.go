package export

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/brief"
	"hostplan/internal/catalog"
	"hostplan/internal/decide"
	"hostplan/internal/document"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/version"
)

// constrained is the seed's constrained case evaluated for real: the
// source stays on-premises, only a snapshot may leave, so hybrid is the one
// feasible direction (see decide.ExampleDecide).
type constrained struct {
	s   *scenario.Scenario
	r   *model.Report
	d   *decide.Decision
	doc *document.Document
	md  []byte // doc as Markdown
	st  brief.ChecklistState
	x   *Extras
	rev [2]time.Time
}

func newConstrained(t *testing.T) *constrained {
	t.Helper()
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	r, err := model.Evaluate(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	d, err := decide.Decide(s, r)
	if err != nil {
		t.Fatal(err)
	}
	st := brief.ChecklistState{}
	if err := st.Set(s.Workload.Shape, "before.quota", brief.StatusDone, "Platform team"); err != nil {
		t.Fatal(err)
	}
	if err := st.Set(s.Workload.Shape, "data.personal", brief.StatusNotApplicable, "=owner"); err != nil {
		t.Fatal(err)
	}
	doc, err := brief.Build(s, r, d, st)
	if err != nil {
		t.Fatal(err)
	}
	c := &constrained{s: s, r: r, d: d, doc: doc, md: doc.Markdown(), st: st,
		rev: [2]time.Time{time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC), time.Date(2026, 3, 2, 17, 5, 45, 0, time.UTC)}}
	c.x = &Extras{
		Decision:  d,
		Brief:     doc,
		Checklist: brief.Checklist(s.Workload.Shape, st),
		// Given newest first: the sheet lists them oldest first.
		Lineage: []scenario.Revision{
			{Number: 2, Time: c.rev[1], RevisionMeta: scenario.RevisionMeta{Author: "@bob", Note: "+more runs", ModelVersion: "0.3.0", CatalogAsOf: "2023-05-01"}, InputHash: strings.Repeat("b", 64)},
			{Number: 1, Time: c.rev[0], RevisionMeta: scenario.RevisionMeta{Author: "ana", Note: "first draft", ModelVersion: "0.3.0", CatalogAsOf: "2023-05-01"}, InputHash: strings.Repeat("a", 64)},
		},
		Source: "revision 2 (the current one) of scenario constrained-snapshot-training in the store hostplan.db",
	}
	return c
}

func (c *constrained) workbook(t *testing.T) *excelize.File {
	t.Helper()
	f, err := WorkbookWith(c.s, c.r, c.x)
	if err != nil {
		t.Fatalf("WorkbookWith: %v", err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// rowsOf returns the text of every row of a sheet, padded to width cells.
func rowsOf(t *testing.T, f *excelize.File, sheet string, width int) [][]string {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	for i := range rows {
		for len(rows[i]) < width {
			rows[i] = append(rows[i], "")
		}
	}
	return rows
}

// rowWith returns the 1-based number of the first row from row from whose
// first cell is text, or fails.
func rowWith(t *testing.T, rows [][]string, from int, text string) int {
	t.Helper()
	for i := from - 1; i < len(rows); i++ {
		if len(rows[i]) > 0 && rows[i][0] == text {
			return i + 1
		}
	}
	t.Fatalf("no row from %d starts with %q", from, text)
	return 0
}

func TestWorkbookWithSheets(t *testing.T) {
	c := newConstrained(t)
	f := c.workbook(t)
	want := []string{"Summary", "Decision", "Drivers", "Costs", "Energy", "Monthly", "Comparisons", "Checks", "Audit", "Inputs", "Options",
		"Scaling", "Uncertainty", "Sensitivity", "Brief", "Checklist", "Notes", "Sources", "Lineage"}
	if got := f.GetSheetList(); !reflect.DeepEqual(got, want) {
		t.Errorf("sheets = %v, want %v", got, want)
	}
	// Every sheet prints landscape, one page wide.
	for _, sh := range want {
		pl, err := f.GetPageLayout(sh)
		if err != nil {
			t.Fatal(err)
		}
		if pl.Orientation == nil || *pl.Orientation != "landscape" || pl.FitToWidth == nil || *pl.FitToWidth != 1 {
			t.Errorf("%s does not print landscape, one page wide: %+v", sh, pl)
		}
	}
	wantCells(t, f, sheetSummary, map[string]string{
		"A10": "Recommended (the engine's decision at export; the drivers do not change it)",
		"B10": fmt.Sprintf("Hybrid (score %.2f of 1; see Decision)", c.d.For("hybrid").Total),
	})

	// Each extra alone adds its own sheet; nil and empty extras add none.
	for _, tc := range []struct {
		x    *Extras
		want string
	}{
		{nil, ""},
		{&Extras{}, ""},
		{&Extras{Decision: c.d}, sheetDecision},
		{&Extras{Brief: c.doc}, sheetBrief},
		{&Extras{BriefMissing: []string{"Data volume (data.volume_gb)"}}, sheetBrief},
		{&Extras{Checklist: c.x.Checklist}, sheetChecklist},
		{&Extras{Lineage: c.x.Lineage}, sheetLineage},
	} {
		g, err := WorkbookWith(c.s, c.r, tc.x)
		if err != nil {
			t.Fatal(err)
		}
		var extra []string
		for _, sh := range g.GetSheetList() {
			if !slices.Contains([]string{"Summary", "Drivers", "Costs", "Energy", "Monthly", "Comparisons", "Checks", "Audit", "Inputs", "Options", "Scaling", "Uncertainty", "Sensitivity", "Notes", "Sources"}, sh) {
				extra = append(extra, sh)
			}
		}
		if w := []string{tc.want}; tc.want == "" && len(extra) != 0 || tc.want != "" && !reflect.DeepEqual(extra, w) {
			t.Errorf("extras %+v: extra sheets %v, want %q", tc.x, extra, tc.want)
		}
		if v, _ := g.GetCellValue(sheetSummary, "A10"); (tc.x != nil && tc.x.Decision != nil) != (v != "") {
			t.Errorf("extras %+v: Summary!A10 = %q", tc.x, v)
		}
		g.Close()
	}
}

func TestDecisionSheet(t *testing.T) {
	c := newConstrained(t)
	f := c.workbook(t)
	const sh = sheetDecision
	rows := rowsOf(t, f, sh, 9)
	wantCells(t, f, sh, map[string]string{
		"A1": "Decision: Hybrid is recommended",
		"A2": c.d.Summary,
	})
	if !isBold(t, f, sh, "A1") {
		t.Error("Decision!A1 is not bold")
	}

	// The ranking: header, the weights, then hybrid first with its five
	// scores, then the four ruled out with their constraint kinds.
	head := rowWith(t, rows, 1, "Direction")
	if got := rows[head-1]; !reflect.DeepEqual(got, []string{"Direction", "Rank", "Weighted total", "Sovereignty", "Workload shape", "Operations", "Economics", "Optionality", "Standing"}) {
		t.Errorf("ranking header %q", got)
	}
	hy := c.d.For("hybrid")
	wantRow := func(row int, label string) {
		t.Helper()
		if got := rows[row-1][0]; got != label {
			t.Errorf("Decision!A%d = %q, want %q", row, got, label)
		}
	}
	wantRow(head+1, "Weight (normalised)")
	wantRow(head+2, "Hybrid")
	nums := map[string]float64{cell(2, head+2): 1, cell(3, head+2): hy.Total}
	for j, w := range c.d.Weights {
		nums[cell(4+j, head+1)] = w.Normalised
	}
	for _, sc := range hy.Scores {
		nums[cell(4+dimIndex(sc.Dimension), head+2)] = sc.Score
	}
	wantNums(t, f, sh, nums)
	if got := rows[head+1][8]; got != "recommended" {
		t.Errorf("hybrid's standing %q", got)
	}
	for i, want := range []string{"Managed service", "Cloud IaaS", "On-premises", "Shared HPC"} {
		row := head + 3 + i
		wantRow(row, want)
		dd := c.d.Directions[i]
		if got := rows[row-1][8]; got != "ruled out: "+decide.KindList(dd.Kinds()) {
			t.Errorf("%s standing %q", want, got)
		}
	}

	// Scores with their reasons; every constraint with its question.
	scores := rowWith(t, rows, head, "Scores and their reasons")
	for j, sc := range hy.Scores {
		r := rows[scores+1+j]
		if r[0] != "Hybrid" || r[1] != present.DimensionTitle(sc.Dimension) || r[6] != sc.Reason {
			t.Errorf("score row %d = %q, want Hybrid, %s, reason %q", j, r, sc.Dimension, sc.Reason)
		}
	}
	out := rowWith(t, rows, scores, "Ruled out: the hard constraints each direction breaks")
	k := out + 2
	for _, dd := range c.d.Directions {
		for _, con := range dd.Constraints {
			r := rows[k-1]
			if r[0] != dd.Title || r[1] != string(con.Kind) || r[2] != con.Reason || r[6] != con.Question {
				t.Errorf("constraint row %d = %q, want %s %s %q", k, r, dd.Title, con.Kind, con.Reason)
			}
			k++
		}
	}

	why := rowWith(t, rows, out, "Why Hybrid wins")
	wantRow(why+1, c.d.Why)
	ru := rowWith(t, rows, why, "What would make the runner-up win")
	wantRow(ru+1, "No runner-up: fewer than two directions are feasible.")
	rob := rowWith(t, rows, ru, "Robustness: each weight moved by ±20 %, the others as given")
	wantRow(rob+1, "Robust: "+c.d.Robustness.Summary) // the verdict leads, the summary follows
	if n := len(c.d.Robustness.Checks); n != 10 {
		t.Fatalf("%d robustness checks, want 10", n)
	}
	for i, ch := range c.d.Robustness.Checks {
		row := rob + 3 + i
		wantNums(t, f, sh, map[string]float64{cell(2, row): ch.Change})
		if r := rows[row-1]; r[0] != present.DimensionTitle(ch.Dimension) || r[2] != "Hybrid" || r[8] != "Yes" {
			t.Errorf("robustness row %d = %q", row, r)
		}
	}
	bn := rowWith(t, rows, rob, "Likely bottlenecks and the first infrastructure question")
	for i, dd := range c.d.Directions {
		if r := rows[bn+1+i]; r[0] != dd.Title || r[4] != dd.Question {
			t.Errorf("bottleneck row %d = %q", bn+2+i, r)
		}
	}
	tr := rowWith(t, rows, bn, "First trial to request")
	ft := c.d.FirstTrial
	wantRow(tr+1, "Direction")
	if got := rows[tr][1]; got != "Hybrid" {
		t.Errorf("trial direction %q", got)
	}
	ans := rowWith(t, rows, tr, "It answers")
	if got := rows[ans-1][1]; got != ft.Answers {
		t.Errorf("trial answers %q, want %q", got, ft.Answers)
	}
	rec := rowWith(t, rows, tr, "It must record")
	for i, e := range ft.Evidence {
		if got := rows[rec-1+i][1]; got != "• "+e {
			t.Errorf("evidence %d = %q", i, got)
		}
	}
	gh := rowWith(t, rows, tr, "GPU-hours")
	wantNums(t, f, sh, map[string]float64{cell(2, gh): ft.GPUHours})
	noFormulas(t, f, sh)
}

// TestDecisionRunnerUp: with two or more feasible directions the sheet
// explains the winner's lead and what would make the runner-up win.
func TestDecisionRunnerUp(t *testing.T) {
	s, err := scenario.Load("../../scenarios/support-assistant-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	r, err := model.Evaluate(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	d, err := decide.Decide(s, r)
	if err != nil {
		t.Fatal(err)
	}
	if d.RunnerUp == nil || len(d.WhyWinner) == 0 {
		t.Fatalf("support-assistant-70b has no runner-up or lead: %+v", d)
	}
	f, err := WorkbookWith(s, r, &Extras{Decision: d})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows := rowsOf(t, f, sheetDecision, 9)
	win, second := present.DirectionTitle(d.Recommendation), present.DirectionTitle(d.RunnerUp.Direction)
	why := rowWith(t, rows, 1, "Why "+win+" wins")
	if got := rows[why][0]; got != d.Why {
		t.Errorf("why = %q, want %q", got, d.Why)
	}
	if got := rows[why+1][1:5]; !reflect.DeepEqual(got, []string{win + " score", second + " score", "Weight", "Weighted lead"}) {
		t.Errorf("lead header %q", got)
	}
	nums := map[string]float64{}
	for i, l := range d.WhyWinner {
		row := why + 3 + i
		if got := rows[row-1][0]; got != present.DimensionTitle(l.Dimension) {
			t.Errorf("lead row %d is %q, want %s", row, got, l.Dimension)
		}
		nums[cell(2, row)], nums[cell(3, row)], nums[cell(4, row)], nums[cell(5, row)] = l.Winner, l.RunnerUp, l.Weight, l.Lead
	}
	wantNums(t, f, sheetDecision, nums)
	ru := rowWith(t, rows, why, "What would make the runner-up win")
	if got := rows[ru][0]; got != d.RunnerUp.Summary {
		t.Errorf("runner-up summary %q", got)
	}
	if got := rows[ru+1]; got[0] != "Runner-up" || got[1] != second {
		t.Errorf("runner-up row %q", got)
	}
	gap := rowWith(t, rows, ru, "Behind by (weighted total)")
	wantNums(t, f, sheetDecision, map[string]float64{cell(2, gap): d.RunnerUp.Gap})
	if cc := d.RunnerUp.Cost; cc != nil {
		row := rowWith(t, rows, ru, "Cost at which it ties ("+r.Currency+")")
		wantNums(t, f, sheetDecision, map[string]float64{cell(2, row): cc.To})
	}
	if wc := d.RunnerUp.Weight; wc != nil {
		row := rowWith(t, rows, ru, "One weight that ties them")
		if got := rows[row-1][1]; !strings.HasPrefix(got, present.DimensionTitle(wc.Dimension)+" weight from ") {
			t.Errorf("weight change %q", got)
		}
	}
	// The ranking marks the runner-up.
	row := rowWith(t, rows, 1, second)
	if got := rows[row-1][8]; got != "runner-up" {
		t.Errorf("%s standing %q, want runner-up", second, got)
	}
}

func TestOptionsSheet(t *testing.T) {
	c := newConstrained(t)
	f := c.workbook(t)
	rows := rowsOf(t, f, sheetOptions, 5)
	// optRow returns the row of label in the block of a direction title.
	optRow := func(title, label string) []string {
		t.Helper()
		return rows[rowWith(t, rows, rowWith(t, rows, 1, title), label)-1]
	}
	for _, tc := range []struct {
		title, label string
		want         [4]string // value, set by, field, how (prefix)
	}{
		{"Managed service (not feasible)", "Managed offer", [4]string{"none", byModel, "options.managed.offer", "none picked"}},
		{"Cloud IaaS (not feasible)", "Cloud offer", [4]string{"gcp-a3-h100-eu: GCP a3-highgpu-8g (8×H100), europe-west4", byModel, "options.cloud.offer", "the offer with the lowest price"}},
		{"Cloud IaaS (not feasible)", "Pricing", [4]string{"On demand", byScenario, "options.cloud.pricing", "as given"}},
		{"Cloud IaaS (not feasible)", "GPU", [4]string{"h100-sxm", byModel, "options.cloud.offer", "the GPU of the chosen offer"}},
		{"On-premises (not feasible)", "Financing", [4]string{"Depreciation over the hardware's life", byModel, "options.on_prem.financing", "the default: straight-line"}},
		{"On-premises (not feasible)", "Server node", [4]string{"hgx-b200: 8×B200 server (HGX B200 class)", byModel, "options.on_prem.node", "the node whose purchase in whole nodes"}},
		{"Shared HPC (not feasible)", "Queue wait per job (hours)", [4]string{"catalog estimate (see Notes)", byModel, "options.hpc.queue_wait_hours", "the likely value"}},
		{"Hybrid", "Burst to", [4]string{"Cloud IaaS", byScenario, "options.hybrid.burst_to", "as given"}},
		{"Hybrid", "Pricing", [4]string{"On demand", byScenario, "options.cloud.pricing", "as given"}},
		// Set by the scenario and not one of the model's choices: listed after them.
		{"Hybrid", "Extra staff (FTE)", [4]string{"0.25", byScenario, "options.hybrid.extra_staff_fte", "as given"}},
	} {
		r := optRow(tc.title, tc.label)
		if got := [4]string{r[1], r[2], r[3], r[4]}; got[0] != tc.want[0] || got[1] != tc.want[1] || got[2] != tc.want[2] || !strings.HasPrefix(got[3], tc.want[3]) {
			t.Errorf("%s / %s = %q, want %q", tc.title, tc.label, got, tc.want)
		}
	}
	// Numbers are numbers: the GPU count the model chose and the price.
	cloud := c.r.Direction(scenario.Cloud)
	count := rowWith(t, rows, rowWith(t, rows, 1, "Cloud IaaS (not feasible)"), "GPU count")
	price := rowWith(t, rows, count, "Price per GPU-hour")
	wantNums(t, f, sheetOptions, map[string]float64{cell(2, count): float64(cloud.GPUs), cell(2, price): cloud.PricePerGPUHour})
	if got := rows[count-1][2]; got != byModel {
		t.Errorf("cloud GPU count set by %q", got)
	}
	noFormulas(t, f, sheetOptions)

	// A scenario that pins the count, the offer and the financing.
	s := *c.s
	s.Options.Cloud.GPUs = 16
	s.Options.Cloud.Offer = cloud.Offer
	s.Options.OnPrem.Financing = "lease"
	s.Options.OnPrem.LeasePerNodeMonth = scenario.Estimate(9000, 10000, 12000)
	ops := directionOptions(&s, cloud)
	byLabel := map[string]option{}
	for _, o := range ops {
		byLabel[o.label] = o
	}
	if o := byLabel["GPU count"]; !o.set || o.how != "as given" {
		t.Errorf("pinned GPU count: %+v", o)
	}
	if o := byLabel["GPU"]; !o.set || o.field != "options.cloud.offer" {
		t.Errorf("GPU of a pinned offer: %+v", o)
	}
	op := directionOptions(&s, c.r.Direction(scenario.OnPrem))
	var lease, fin option
	for _, o := range op {
		switch o.label {
		case "Lease per node (USD/month)":
			lease = o
		case "Financing":
			fin = o
		}
	}
	if fin.text != "Monthly lease" || !fin.set {
		t.Errorf("financing %+v", fin)
	}
	if lease.num == nil || *lease.num != 10000 || lease.how != "as given: estimate 9,000–12,000, the likely value used" {
		t.Errorf("lease %+v", lease)
	}
}

func TestBriefSheet(t *testing.T) {
	c := newConstrained(t)
	f := c.workbook(t)
	const sh = sheetBrief
	rows := rowsOf(t, f, sh, briefCols)

	// One row per line of the brief's Markdown, runs of blank lines as one
	// blank row, the rule under each table header dropped.
	var want []string
	blank := true
	for _, l := range strings.Split(string(c.md), "\n") {
		switch {
		case strings.TrimSpace(l) == "":
			if !blank {
				want = append(want, "")
			}
			blank = true
			continue
		case strings.HasPrefix(l, "|---"):
			continue
		}
		blank = false
		want = append(want, l)
	}
	for len(want) > 0 && want[len(want)-1] == "" {
		want = want[:len(want)-1]
	}
	if len(rows) != len(want) {
		t.Fatalf("Brief has %d rows, want %d (one per line)", len(rows), len(want))
	}
	for i, l := range want {
		got := rows[i][0]
		if (l == "") != (got == "") {
			t.Errorf("row %d = %q for line %q", i+1, got, l)
		}
	}

	wantCells(t, f, sh, map[string]string{
		"A1": "Compute Readiness Brief: Case-record classifier: snapshot training",
	})
	st := styleOf(t, f, sh, "A1")
	if st.Font == nil || !st.Font.Bold || st.Font.Size != sizeTitle {
		t.Errorf("Brief!A1 font %+v, want bold %d pt", st.Font, sizeTitle)
	}
	// A heading, a list item with a bold label (rich text), a table.
	purpose := rowWith(t, rows, 1, "Purpose and success")
	if !isBold(t, f, sh, cell(1, purpose)) {
		t.Error("heading Purpose and success is not bold")
	}
	item := rowWith(t, rows, purpose, "• Decision supported: "+c.s.Purpose.Decision)
	runs, err := f.GetCellRichText(sh, cell(1, item))
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) < 2 || runs[0].Text != "• " || runs[1].Text != "Decision supported:" || runs[1].Font == nil || !runs[1].Font.Bold {
		t.Errorf("list item runs %+v, want a plain bullet then a bold label", runs)
	}
	rank := rowWith(t, rows, item, "Rank")
	if got := rows[rank-1]; !reflect.DeepEqual(got, []string{"Rank", "Direction", "Total", "Sovereignty", "Workload shape", "Operations", "Economics", "Optionality"}) {
		t.Errorf("ranking table header %q", got)
	}
	if !isBold(t, f, sh, cell(2, rank)) {
		t.Error("table header is not bold")
	}
	if got := rows[rank][1]; got != "Hybrid" {
		t.Errorf("first ranked %q", got)
	}
	// Figures are numbers, with the decimals the brief shows.
	wantNums(t, f, sh, map[string]float64{cell(1, rank+1): 1, cell(3, rank+1): 0.84})
	if got := numFormat(t, f, sh, cell(3, rank+1)); got != "0.00" {
		t.Errorf("total's format %q, want 0.00", got)
	}
	// The last cell of a shorter table spans to the last column.
	bott := rowWith(t, rows, rank, "Direction")
	merged, err := f.GetMergeCells(sh)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, m := range merged {
		if m.GetStartAxis() == cell(3, bott) && m.GetEndAxis() == cell(briefCols, bott) {
			found = true
		}
	}
	if !found {
		t.Errorf("the bottleneck table's question header C%d is not merged to H", bott)
	}
	// The recorded checklist state shows in the brief.
	rowWith(t, rows, 1, "• [x] Ask for GPU quota well before it is needed: new accounts often start at zero and raising it takes days. (before.quota, done, owner: Platform team)")
	// A long paragraph gets a row tall enough for its lines.
	why := rowWith(t, rows, 1, "Why: "+c.d.Why)
	if h, _ := f.GetRowHeight(sh, why); h < 2*lineBody {
		t.Errorf("the Why paragraph's row is %g points, want at least two lines", h)
	}
}

func TestBriefMissingSheet(t *testing.T) {
	c := newConstrained(t)
	missing := []string{"Evaluation baseline (purpose.baseline)", "Data volume (data.volume_gb)"}
	f, err := WorkbookWith(c.s, c.r, &Extras{BriefMissing: missing})
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	wantCells(t, f, sheetBrief, map[string]string{
		"A1": "Compute Readiness Brief: not written yet",
		"A2": "hostplan writes the brief once at least 7 of its 15 fields are filled; this scenario fills 13. Fill these fields in the scenario and export again:",
		"A4": "• Evaluation baseline (purpose.baseline)",
		"A5": "• Data volume (data.volume_gb)",
		"A6": "",
	})
}

func TestChecklistSheet(t *testing.T) {
	c := newConstrained(t)
	f := c.workbook(t)
	rows := rowsOf(t, f, sheetChecklist, 6)
	entries := c.x.Checklist
	wantCells(t, f, sheetChecklist, map[string]string{
		"A2": "29 items apply to training or simulation: 1 done, 1 not applicable, 27 open. Record an item with: hostplan checklist constrained-snapshot-training --set ITEM=STATUS[:OWNER]",
		"A4": "Group", "B4": "Item", "C4": "Applies to", "D4": "Status", "E4": "Owner", "F4": "Item id",
	})
	if len(rows) != rowCkHeader+len(entries) {
		t.Fatalf("%d rows, want the header and %d items", len(rows), len(entries))
	}
	byID := map[string][]string{}
	for _, r := range rows[rowCkHeader:] {
		byID[r[colCkID-1]] = r
	}
	for _, tc := range []struct {
		id   string
		want []string
	}{
		{"before.quota", []string{"Before anything runs", "done", "Platform team", "all workload shapes"}},
		{"data.personal", []string{"Data", "not applicable", "=owner", "all workload shapes"}},
		{"training.checkpoint", []string{"Training runs", "open", "—", "training or simulation, fine-tuning"}},
	} {
		r := byID[tc.id]
		if r == nil {
			t.Errorf("no row for %s", tc.id)
			continue
		}
		if got := []string{r[0], r[3], r[4], r[2]}; !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: group, status, owner, applies to = %q, want %q", tc.id, got, tc.want)
		}
	}
	// Group order as the brief's.
	var groups []string
	for _, r := range rows[rowCkHeader:] {
		if len(groups) == 0 || groups[len(groups)-1] != r[0] {
			groups = append(groups, r[0])
		}
	}
	if want := []string{"Before anything runs", "Data", "Reproducible environments", "Training runs", "Governance"}; !reflect.DeepEqual(groups, want) {
		t.Errorf("groups %q, want %q", groups, want)
	}
}

func TestLineageSheet(t *testing.T) {
	c := newConstrained(t)
	f := c.workbook(t)
	wantCells(t, f, sheetLineage, map[string]string{
		"B3": "constrained-snapshot-training",
		"B4": c.x.Source,
		// The build that wrote the file: a test binary's own.
		"A5": "Written by", "B5": version.Current().String(),
		"A6": "Revision", "B6": "Time (UTC)", "G6": "Input hash (sha256 of the canonical scenario JSON)",
		// Oldest first, whatever the order given.
		"C7": "ana", "D7": "first draft", "E7": "0.3.0", "F7": "2023-05-01", "G7": strings.Repeat("a", 64),
		"C8": "@bob", "D8": "+more runs", "G8": strings.Repeat("b", 64),
		"B7": "2026-03-01 09:30:00", // a date cell, shown in its format
		"B8": "2026-03-02 17:05:45",
		"A9": "",
	})
	// 2026-03-01 09:30 UTC is day 46 082 of the 1900 date system, plus 9.5 hours.
	wantNums(t, f, sheetLineage, map[string]float64{"A7": 1, "A8": 2, "B7": 46082 + 9.5/24})
	got, err := f.GetCellValue(sheetLineage, "B7", excelize.Options{RawCellValue: true})
	if err != nil {
		t.Fatal(err)
	}
	if x, _ := strconv.ParseFloat(got, 64); math.Abs(x-excelTime(c.rev[0])) > 1e-9 {
		t.Errorf("B7 raw %s, want %v", got, excelTime(c.rev[0]))
	}

	// A file export: one row, no revision number.
	x := &Extras{Source: "the file plan.json, not the store", Lineage: []scenario.Revision{{Time: c.rev[0], RevisionMeta: scenario.RevisionMeta{Author: "ana", Note: "exported from the file plan.json, not from the store"}}}}
	g, err := WorkbookWith(c.s, c.r, x)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	wantCells(t, g, sheetLineage, map[string]string{"A7": "file", "D7": "exported from the file plan.json, not from the store", "E7": "—", "A8": ""})
}

// TestExtrasTextStaysText: user text on the new sheets that looks like a
// formula is stored as text, also after a write and re-open.
func TestExtrasTextStaysText(t *testing.T) {
	c := newConstrained(t)
	c.s.Purpose.Owner = "=HYPERLINK(\"http://x\",\"y\")"
	c.x.Decision.FirstTrial.AcceptedBy = "+cmd|' /C calc'!A0"
	c.x.Brief = &document.Document{Sections: []document.Section{{Level: 1, Title: "=1+1", Blocks: []document.Block{
		&document.List{Items: []document.ListItem{{Text: document.Text{{Text: "@SUM(A1)"}}}}},
		&document.Table{Header: []string{"a", "b"}, Rows: [][]document.Cell{{{Text: document.Text{{Text: "-1+2"}}}, {Text: document.Text{{Text: "=3"}}}}}},
		&document.Paragraph{Lines: []document.Text{{{Text: "=bold", Style: document.Strong}, {Text: " text"}}}},
	}}}}
	f := c.workbook(t)
	var buf bytes.Buffer
	if err := f.Write(&buf); err != nil {
		t.Fatal(err)
	}
	g, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	for _, tc := range []struct{ sheet, text string }{
		{sheetChecklist, "=owner"},
		{sheetLineage, "@bob"},
		{sheetLineage, "+more runs"},
		{sheetDecision, "+cmd|' /C calc'!A0"},
		{sheetBrief, "=1+1"},
		{sheetBrief, "• @SUM(A1)"},
		{sheetBrief, "-1+2"}, // not a plain figure: text
		{sheetBrief, "=3"},
		{sheetBrief, "=bold text"},
	} {
		for name, file := range map[string]*excelize.File{"built": f, "re-opened": g} {
			c := find(t, file, tc.sheet, tc.text)
			if fo, _ := file.GetCellFormula(tc.sheet, c); fo != "" {
				t.Errorf("%s: %s!%s has formula %q", name, tc.sheet, c, fo)
			}
			if typ, _ := file.GetCellType(tc.sheet, c); typ != excelize.CellTypeSharedString {
				t.Errorf("%s: %s!%s type %v, want a shared string", name, tc.sheet, c, typ)
			}
		}
	}
}

func TestExtrasErrors(t *testing.T) {
	c := newConstrained(t)
	other := *c.d
	other.ScenarioID = "someone-else"
	if f, err := WorkbookWith(c.s, c.r, &Extras{Decision: &other}); err == nil {
		f.Close()
		t.Error("WorkbookWith accepted the decision of another scenario")
	}
	for _, tc := range []struct {
		name  string
		spoil func(d *decide.Decision)
		field string
	}{
		{"NaN total", func(d *decide.Decision) { d.For("hybrid").Total = math.NaN() }, "decision.directions[hybrid].total"},
		{"Inf score", func(d *decide.Decision) { d.For("hybrid").Scores[2].Score = math.Inf(1) }, "decision.directions[hybrid].scores[operations].score"},
		{"NaN weight", func(d *decide.Decision) { d.Weights[0].Normalised = math.NaN() }, "decision.weights[sovereignty].normalised"},
		{"Inf trial hours", func(d *decide.Decision) { d.FirstTrial.Hours = math.Inf(1) }, "decision.first_trial.hours"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newConstrained(t)
			tc.spoil(c.x.Decision)
			f, err := WorkbookWith(c.s, c.r, c.x)
			if err == nil {
				f.Close()
				t.Fatal("WorkbookWith succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("error %q does not name %s", err, tc.field)
			}
		})
	}
}

func TestRunsOf(t *testing.T) {
	for _, tc := range []struct {
		in   document.Text
		want []run
	}{
		{nil, nil},
		{document.Text{{Text: "plain"}}, []run{{text: "plain"}}},
		{document.Text{{Text: "Bold:", Style: document.Strong}, {Text: " rest"}}, []run{{text: "Bold:", bold: true}, {text: " rest"}}},
		// Code reads in the body font: it joins the plain text around it.
		{document.Text{{Text: "a "}, {Text: "b", Style: document.Emphasis}, {Text: " "}, {Text: "c_d", Style: document.Code}, {Text: " e"}},
			[]run{{text: "a "}, {text: "b", italic: true}, {text: " c_d e"}}},
		// Markdown's markers in the text are text.
		{document.Text{{Text: "x * y ** z `q` a | b"}}, []run{{text: "x * y ** z `q` a | b"}}},
		{document.Text{{Text: ""}, {Text: "x", Style: document.Strong}, {Text: "", Style: document.Emphasis}, {Text: "y", Style: document.Strong}},
			[]run{{text: "xy", bold: true}}},
	} {
		if got := runsOf(tc.in); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("runsOf(%+v) = %+v, want %+v", tc.in, got, tc.want)
		}
	}
}

// A table wider than the sheet joins its last cells; a figure that is not
// finite stays text; a bar in a cell is a bar; a nested item and a box
// show as the brief's Markdown has them.
func TestBriefSheetShapes(t *testing.T) {
	c := newConstrained(t)
	cells := func(xs ...string) []document.Cell {
		out := make([]document.Cell, len(xs))
		for i, x := range xs {
			out[i] = document.Cell{Text: document.Text{{Text: x}}}
		}
		return out
	}
	wide := cells("a | b", "2", "3", "4", "5", "6", "7", "8", "9", "10")
	wide[1] = document.Cell{Text: document.Text{{Text: "2.50"}}, Figure: true, Value: 2.5, Decimals: 2}
	wide[2] = document.Cell{Text: document.Text{{Text: "NaN"}}, Figure: true, Value: math.NaN()}
	c.x.Brief = &document.Document{Sections: []document.Section{{Level: 2, Title: "Part", Blocks: []document.Block{
		&document.Table{Header: []string{"one", "two", "three", "4", "5", "6", "7", "8", "9", "10"}, Rows: [][]document.Cell{wide}},
		&document.List{Items: []document.ListItem{{Box: document.BoxNotApplicable, Text: document.Text{{Text: "item"}},
			Items: []document.ListItem{{Text: document.Text{{Text: "sub"}}}}}}},
	}}}}
	f := c.workbook(t)
	rows := rowsOf(t, f, sheetBrief, briefCols)
	want := [][]string{
		{"Part", "", "", "", "", "", "", ""},
		{"", "", "", "", "", "", "", ""},
		{"One", "Two", "Three", "4", "5", "6", "7", "8 | 9 | 10"},
		{"a | b", "2.50", "NaN", "4", "5", "6", "7", "8 | 9 | 10"},
		{"", "", "", "", "", "", "", ""},
		{"• [-] item", "", "", "", "", "", "", ""},
		{"◦ sub", "", "", "", "", "", "", ""},
	}
	// Merged cells read as their first cell: compare the first column and
	// the table's rows in full.
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %q", len(rows), len(want), rows)
	}
	for i := range want {
		if rows[i][0] != want[i][0] {
			t.Errorf("row %d starts %q, want %q", i+1, rows[i][0], want[i][0])
		}
	}
	for _, i := range []int{2, 3} {
		if !reflect.DeepEqual(rows[i][:briefCols], want[i][:briefCols]) {
			t.Errorf("row %d = %q, want %q", i+1, rows[i], want[i][:briefCols])
		}
	}
	wantNums(t, f, sheetBrief, map[string]float64{"B4": 2.5})
	if typ, _ := f.GetCellType(sheetBrief, "C4"); typ != excelize.CellTypeSharedString {
		t.Errorf("a NaN figure is written as %v, want text", typ)
	}
	if st := styleOf(t, f, sheetBrief, "A7"); st.Alignment == nil || st.Alignment.Indent != 2 {
		t.Errorf("the nested item's alignment %+v, want indent 2", st.Alignment)
	}
}
