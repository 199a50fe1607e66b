package cli

import (
	"regexp"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

func TestHistoryDiffRestore(t *testing.T) {
	db := tempDB(t)
	f, orig := changedExample(t, "qlora-legal-70b.json", `"likely": 4,`, `"likely": 6,`)
	out := storeRun(t, db, "import", f, "--note", "six runs a month", "--author", "ana")
	if !strings.Contains(out, "saved qlora-legal-70b revision 2") {
		t.Fatalf("import: %q", out)
	}

	out = storeRun(t, db, "history", "qlora-legal-70b")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], "REV") || !strings.Contains(lines[0], "CATALOG AS OF") {
		t.Fatalf("history:\n%s", out)
	}
	row := regexp.MustCompile(`^2 +\d{4}-\d\d-\d\d \d\d:\d\d +ana +six runs a month +\S+ +\d{4}-\d\d-\d\d +[0-9a-f]{12}$`)
	if !row.MatchString(lines[2]) {
		t.Errorf("history row 2 %q does not show time, author, note, model, catalog as_of and hash", lines[2])
	}

	out = storeRun(t, db, "diff", "qlora-legal-70b", "1", "2")
	for _, want := range []string{
		"qlora-legal-70b: revision 1 → revision 2",
		"FIELD",
		"workload.runs_per_month.likely  4           6",
		"Headline figures",
		"Cheapest feasible over the horizon:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	for _, title := range []string{"Managed service", "Cloud IaaS", "On-premises", "Shared HPC", "Hybrid"} {
		if !regexp.MustCompile(`(?m)^` + title + ` +feasible +(yes|no) +(yes|no)`).MatchString(out) {
			t.Errorf("diff has no feasible row for %s:\n%s", title, out)
		}
	}
	for _, fig := range []string{"time to result (h)", "cost per fine-tuning run (USD)", "cost over the horizon (USD)"} {
		if strings.Count(out, fig) != 5 {
			t.Errorf("diff shows %q %d times, want once per direction", fig, strings.Count(out, fig))
		}
	}
	// More runs a month: the cost over the horizon of every direction moves.
	if !regexp.MustCompile(`cost over the horizon \(USD\) +[\d,]+ +[\d,]+ +\+[\d,]+ \(\+[\d.]+%\)`).MatchString(out) {
		t.Errorf("diff shows no increase of the cost over the horizon:\n%s", out)
	}
	if same := storeRun(t, db, "diff", "qlora-legal-70b", "2", "2"); !strings.Contains(same, "No field differs.") {
		t.Errorf("diff of a revision with itself:\n%s", same)
	}

	out = storeRun(t, db, "restore", "qlora-legal-70b", "1")
	if !strings.Contains(out, "restored revision 1 as revision 3 (restored from revision 1)") {
		t.Errorf("restore: %q", out)
	}
	if got := storeRun(t, db, "show", "qlora-legal-70b"); got != string(orig) {
		t.Error("after restore the current content is not revision 1's")
	}
	if h := storeRun(t, db, "history", "qlora-legal-70b"); strings.Count(h, "\n") != 4 || !strings.Contains(h, "six runs a month") {
		t.Errorf("history after restore (nothing rewritten, one added):\n%s", h)
	}
	if out := storeRun(t, db, "restore", "qlora-legal-70b", "3"); !strings.Contains(out, "nothing written") {
		t.Errorf("restore of the current content: %q", out)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"diff", "qlora-legal-70b", "1"}, "give a scenario id and two revision numbers"},
		{[]string{"diff", "qlora-legal-70b", "1", "x"}, `revision "x" is not a revision number`},
		{[]string{"diff", "qlora-legal-70b", "0", "1"}, `revision "0" is not a revision number`},
		{[]string{"diff", "qlora-legal-70b", "1", "9"}, "revision 9: not found"},
		{[]string{"diff", "no-such", "1", "2"}, `"no-such"`},
		{[]string{"history", "no-such"}, `history of scenario "no-such": not found`},
		{[]string{"history"}, "give exactly one scenario id"},
		{[]string{"restore", "qlora-legal-70b", "7"}, "revision 7: not found"},
	} {
		code, _, errs := run(t, db, tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// A new store's examples record the model version and the catalog date of
// their reports, so the lineage says what they were evaluated with.
func TestSeededExamplesHaveLineage(t *testing.T) {
	db := tempDB(t)
	code, out, errs := run(t, db, "history", "constrained-snapshot-training")
	if code != ExitOK {
		t.Fatalf("history: exit %d: %s", code, errs)
	}
	s, err := scenario.Load("../../scenarios/constrained-snapshot-training.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	r, err := model.Evaluate(s, c)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, model.Version) || !strings.Contains(out, r.CatalogAsOf) {
		t.Errorf("history of a seeded example lacks the model version or catalog date:\n%s", out)
	}
}

func TestClip(t *testing.T) {
	if c := clip(strings.Repeat("é", 100)); len([]rune(c)) != 72 || !strings.HasSuffix(c, "…") {
		t.Errorf("clip = %q", c)
	}
}
