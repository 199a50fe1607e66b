package brief

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"hostplan/internal/document"
	"hostplan/internal/present"
)

func TestTextAndCells(t *testing.T) {
	got := txt(plain("a"), plain(""), plain("b"), strong("c"), strong("d"), code(""), plain("e"))
	want := document.Text{{Text: "ab"}, {Text: "cd", Style: document.Strong}, {Text: "e"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("txt = %+v, want %+v", got, want)
	}
	if got.String() != "abcde" {
		t.Errorf("String = %q", got.String())
	}
	// The value is the figure shown: 0.625 is 0.62 at two decimals, as
	// strconv rounds it (half to even), not 0.63.
	for _, tc := range []struct {
		x    float64
		text string
		v    float64
	}{{0.8449, "0.84", 0.84}, {0.625, "0.62", 0.62}, {7, "7.00", 7}, {1234.5, "1,234.50", 1234.5}} {
		c := figureCell(tc.x, 2)
		if !c.Figure || c.Value != tc.v || c.Decimals != 2 || c.Text.String() != tc.text {
			t.Errorf("figureCell(%v, 2) = %+v, want %q, value %v", tc.x, c, tc.text, tc.v)
		}
	}
	// A figure that is not a number reads as present's NoValue, never "NaN".
	if c := figureCell(math.NaN(), 2); c.Text.String() != "—" || !math.IsNaN(c.Value) {
		t.Errorf("figureCell(NaN, 2) = %+v", c)
	}
	for s, want := range map[Status]document.Box{StatusOpen: document.BoxOpen, StatusDone: document.BoxDone, StatusNotApplicable: document.BoxNotApplicable, "": document.BoxOpen} {
		if got := boxOf(s); got != want {
			t.Errorf("boxOf(%q) = %v, want %v", s, got, want)
		}
	}
	if document.BoxNone.Mark() != "" {
		t.Error("a list item without a box has a mark")
	}
}

// The Document carries what the faces show specially as structure: the
// parts as sections with levels, figures as numbers, the checklist's
// boxes, a missing field as emphasis and code.
func TestBuildDocument(t *testing.T) {
	s := load(t, "constrained-snapshot-training.json")
	s.Purpose.Baseline = ""
	r, d := evaluate(t, s)
	st := ChecklistState{"before.quota": {Status: StatusDone, Owner: "Platform team"}}
	doc, err := Build(s, r, d, st)
	if err != nil {
		t.Fatal(err)
	}
	var heads []string
	for _, sec := range doc.Sections {
		heads = append(heads, strings.Repeat("#", sec.Level)+" "+sec.Title)
	}
	wantHeads := []string{
		"# Compute Readiness Brief: Case-record classifier: snapshot training",
		"## Purpose and success", "## Technical envelope", "## Access and operation", "### Assumptions",
		"## Recommendation", "### Scores of Hybrid", "### Ruled out", "### Bottlenecks and first questions",
		"### Energy and emissions (estimates)", "## Leadership questions", "## Data lifecycle", "## First trial to request", "## Readiness checklist",
		"### Before anything runs", "### Data", "### Reproducible environments", "### Training runs", "### Governance",
		"## Lineage",
	}
	if !reflect.DeepEqual(heads, wantHeads) {
		t.Errorf("sections\n%q\nwant\n%q", heads, wantHeads)
	}

	purpose := doc.Sections[1].Blocks[0].(*document.List)
	baseline := purpose.Items[2].Text
	wantBaseline := document.Text{strong("Evaluation baseline:"), plain(" "), emphasis("not stated"), plain(" ("), code("purpose.baseline"), plain(")")}
	if !reflect.DeepEqual(baseline, wantBaseline) {
		t.Errorf("a missing field reads %+v, want %+v", baseline, wantBaseline)
	}

	rec := doc.Sections[5]
	rank, ok := rec.Blocks[1].(*document.Table)
	if !ok {
		t.Fatalf("the recommendation's second block is %T, want the ranking table", rec.Blocks[1])
	}
	if len(rank.Header) != 8 || len(rank.Rows) != len(d.Directions) {
		t.Fatalf("ranking %d columns, %d rows", len(rank.Header), len(rank.Rows))
	}
	first := rank.Rows[0]
	if !first[0].Figure || first[0].Value != 1 || first[1].Figure || first[1].Text.String() != "Hybrid" ||
		!first[2].Figure || first[2].Decimals != 2 || first[2].Text.String() != fmt.Sprintf("%.2f", d.For("hybrid").Total) {
		t.Errorf("first ranked row %+v", first)
	}
	if out := rank.Rows[1]; out[0].Figure || out[0].Text.String() != "—" || len(out) != 3 {
		t.Errorf("a ruled-out row %+v, want a dash, the title and why", out)
	}

	// The energy of the one feasible direction, hybrid bursting to
	// europe-west4: the report's figures, kWh per run with its decimals.
	en := doc.Sections[9].Blocks[1].(*document.Table)
	he := r.Direction("hybrid").Energy
	if len(en.Rows) != 1 || en.Rows[0][0].Text.String() != "Hybrid" || !en.Rows[0][1].Figure ||
		en.Rows[0][1].Text.String() != present.Fixed(he.KWhPerRun, decimalsFor(he.KWhPerRun)) || en.Rows[0][6].Text.String() != "nl, 2025" {
		t.Errorf("energy table %+v", en.Rows)
	}

	before := doc.Sections[14].Blocks[0].(*document.List)
	if before.Items[0].Box != document.BoxDone || before.Items[1].Box != document.BoxOpen {
		t.Errorf("checklist boxes %v, %v; want done, open", before.Items[0].Box, before.Items[1].Box)
	}
	if got := before.Items[0].Text.String(); got != "Ask for GPU quota well before it is needed: new accounts often start at zero and raising it takes days. (before.quota, done, owner: Platform team)" {
		t.Errorf("checklist item %q", got)
	}

	lc := doc.Sections[11].Blocks[0].(*document.Table)
	if c := lc.Rows[0][0]; !c.Figure || c.Value != 1 || c.Decimals != 0 {
		t.Errorf("lifecycle stage number %+v, want the figure 1", c)
	}
}

// A table cell holds the user's text as written: a bar in an owner's name
// is escaped only in the Markdown.
func TestOwnerWithBar(t *testing.T) {
	s := load(t, "constrained-snapshot-training.json")
	for i := range s.Data.Lifecycle {
		if s.Data.Lifecycle[i].Stage == "collect" {
			s.Data.Lifecycle[i].Owner = "Case | systems"
		}
	}
	r, d := evaluate(t, s)
	doc, err := Build(s, r, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	lc := doc.Sections[11].Blocks[0].(*document.Table)
	if got := lc.Rows[0][3].Text.String(); got != "Case | systems" {
		t.Errorf("owner cell %q", got)
	}
	if !strings.Contains(string(doc.Markdown()), "| 1 | collect | records are created or gathered at the source, with their meaning and representative cases defined | Case \\| systems | done |") {
		t.Error("the bar in the owner's name is not escaped in the Markdown")
	}
}

// With nothing assumed but some estimates, the sentence that nothing is
// assumed and the list of estimates are two blocks, a blank line apart.
func TestNothingAssumed(t *testing.T) {
	s := load(t, "constrained-snapshot-training.json")
	r, d := evaluate(t, s)
	r.Warnings = nil
	for i := range r.Directions {
		r.Directions[i].Notes = nil
	}
	b, err := Brief(s, r, d)
	if err != nil {
		t.Fatal(err)
	}
	want := "### Assumptions\n\nNone beyond the stated inputs and the catalog.\n\n- *estimates* (likely value used): `workload.tokens_per_run_b`"
	if !strings.Contains(string(b), want) {
		t.Errorf("brief lacks %q", want)
	}
}
