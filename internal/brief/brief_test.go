package brief

import (
	"bytes"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/version"
)

var update = flag.Bool("update", false, "rewrite the golden briefs in testdata")

func evaluate(t *testing.T, s *scenario.Scenario) (*model.Report, *decide.Decision) {
	t.Helper()
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
	return r, d
}

func load(t *testing.T, name string) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Load(filepath.Join("../../scenarios", name))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// goldenBuild stands for the build of hostplan in the golden briefs, so
// they do not change with each commit or Go release.
var goldenBuild = version.Info{Version: "0.1.0", Commit: "94eb97d1a2b3c4d5e6f708192a3b4c5d6e7f8091",
	Date: "2026-12-01T00:00:00Z", GoVersion: "go1.26.8", Platform: "linux/amd64"}

// TestGolden compares the brief of every example scenario with
// testdata/ID.md; go test -update rewrites them (as go/printer's tests do).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("../../scenarios/*.json")
	if len(files) < 5 {
		t.Fatalf("found %d examples", len(files))
	}
	for _, f := range files {
		s := load(t, filepath.Base(f))
		t.Run(s.ID, func(t *testing.T) {
			r, d := evaluate(t, s)
			doc, err := build(s, r, d, nil, goldenBuild)
			if err != nil {
				t.Fatalf("Brief: %v", err)
			}
			got := doc.Markdown()
			golden := filepath.Join("testdata", s.ID+".md")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("brief differs from %s (go test -update rewrites it):\n%s", golden, firstDiff(string(want), string(got)))
			}
		})
	}
}

// firstDiff shows the first differing line.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\nwant: " + w + "\ngot:  " + g
		}
	}
	return ""
}

// A brief with six fields filled is refused, and the error names the nine
// it lacks.
func TestSixFieldsRefused(t *testing.T) {
	s := &scenario.Scenario{
		ID:       "thin",
		Purpose:  scenario.Purpose{Decision: "Where to fine-tune", SuccessMeasure: "F1 above 0.9", Owner: "Research lead"},
		Workload: scenario.Workload{Shape: scenario.ShapeFineTuning, Precision: "bf16"},
		Data:     scenario.Data{Classification: "internal"},
	}
	_, err := Brief(s, nil, nil)
	if !errors.Is(err, ErrTooFewFields) {
		t.Fatalf("err = %v, want ErrTooFewFields", err)
	}
	var tf *TooFewFieldsError
	if !errors.As(err, &tf) || tf.Filled != 6 {
		t.Fatalf("err = %#v, want a *TooFewFieldsError with 6 filled", err)
	}
	var got []string
	for _, f := range tf.Missing {
		got = append(got, f.Key)
	}
	want := []string{"baseline", "runtime", "data_volume", "resources", "storage", "transfer", "outputs", "retention", "support"}
	if !slices.Equal(got, want) {
		t.Errorf("missing %v, want %v", got, want)
	}
	for _, part := range []string{"6 of 15 fields are filled", "at least 7", "Evaluation baseline (purpose.baseline)", "Retention and clean-up owner (data.retention_owner)"} {
		if !strings.Contains(err.Error(), part) {
			t.Errorf("error %q lacks %q", err, part)
		}
	}
	// Placeholders do not count: "TBD" as the decision leaves five.
	s.Purpose.Decision = " tbd "
	if _, err := Brief(s, nil, nil); !errors.As(err, &tf) || tf.Filled != 5 {
		t.Errorf("with a placeholder: %v", err)
	}
}

// Seven fields are enough.
func TestSevenFieldsAccepted(t *testing.T) {
	s := load(t, "constrained-snapshot-training.json")
	s.Purpose.Baseline, s.Purpose.AcceptableRuntimeHours, s.Workload.DeadlineHours = "", scenario.Value{}, scenario.Value{}
	s.Data.StorageGBps, s.Data.ControlledEnv, s.Data.RetentionOwner = scenario.Value{}, "", ""
	s.Data.VolumeGB = scenario.Known(0)
	filled, _ := Filled(s)
	r, d := evaluate(t, s)
	b, err := Brief(s, r, d)
	if err != nil || len(filled) < MinFields {
		t.Fatalf("%d fields filled: %v", len(filled), err)
	}
	if !strings.Contains(string(b), "*not stated* (`purpose.baseline`)") {
		t.Error("an empty field is not marked as not stated")
	}
}

func TestFieldsDefinition(t *testing.T) {
	if len(Fields) != 15 {
		t.Errorf("%d fields, want 15", len(Fields))
	}
	per := map[string]int{}
	keys := map[string]bool{}
	for _, f := range Fields {
		per[f.Section]++
		if keys[f.Key] || f.Label == "" || f.Path == "" {
			t.Errorf("field %+v: duplicate key or empty label/path", f)
		}
		keys[f.Key] = true
	}
	if per[SectionPurpose] != 4 || per[SectionEnvelope] != 7 || per[SectionOperation] != 4 {
		t.Errorf("fields per section %v", per)
	}
}

// Every estimate is labelled as one; the model's defaults are labelled
// assumed.
func TestEstimatesAndAssumptionsLabelled(t *testing.T) {
	s := load(t, "constrained-snapshot-training.json")
	r, d := evaluate(t, s)
	b, err := Brief(s, r, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"26 B tokens (20–40, estimate) per run",
		"0.33 (0.25–0.5, estimate) runs a month",
		"MFU 0.4 (0.3–0.45, estimate)",
		"snapshot of 200 GB (150–300, estimate)",
		"72 h per training run", // known: no label
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("brief lacks %q", want)
		}
	}
	s = load(t, "nightly-document-batch.json")
	r, d = evaluate(t, s)
	b, _ = Brief(s, r, d)
	if len(r.Warnings) == 0 {
		t.Fatal("the nightly batch has no warnings to label")
	}
	for _, w := range r.Warnings {
		if !strings.Contains(string(b), "- *assumed:* "+w.Text) {
			t.Errorf("warning not labelled assumed: %q", w.Text)
		}
	}
}

// A stage without an owner is flagged, and it is the gate.
func TestUnownedStageFlagged(t *testing.T) {
	s := load(t, "constrained-snapshot-training.json")
	for i := range s.Data.Lifecycle {
		if s.Data.Lifecycle[i].Stage == "retain" {
			s.Data.Lifecycle[i].Owner = ""
		}
	}
	r, d := evaluate(t, s)
	b, err := Brief(s, r, d)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| 7 | retain | outputs, checkpoints and logs are returned, archived or deleted, and the clean-up is confirmed | **no owner** | open |",
		"Flagged: no owner for stage 7 retain.",
		"Stage 7, *retain* (outputs, checkpoints and logs are returned, archived or deleted, and the clean-up is confirmed), is open and has no owner.",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("brief lacks %q", want)
		}
	}
}

func TestGate(t *testing.T) {
	st := func(pairs ...string) []StageState {
		s := &scenario.Scenario{}
		for i := 0; i+1 < len(pairs); i += 2 {
			owner, status, _ := strings.Cut(pairs[i+1], ":")
			s.Data.Lifecycle = append(s.Data.Lifecycle, scenario.LifecycleStage{Stage: pairs[i], Owner: owner, Status: status})
		}
		return Lifecycle(s)
	}
	all := func(status string) []string {
		var out []string
		for _, x := range scenario.LifecycleStages {
			out = append(out, x, "o:"+status)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		stages []StageState
		want   string
		ok     bool
	}{
		{"nothing described: the first stage", st(), "collect", true},
		{"open without owner beats earlier open", st(append(all("done")[:4], "prepare", "o:open", "stage", ":open", "compute", "o:open", "evaluate", "o:open", "retain", "o:open")...), "stage", true},
		{"earliest open", st(append(all("done")[:6], "stage", "o:open", "compute", "o:open", "evaluate", "o:open", "retain", "o:open")...), "stage", true},
		{"in progress when none is open", st(append(all("done")[:12], "retain", "o:in_progress")...), "retain", true},
		{"all done", st(all("done")...), "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, ok := Gate(tc.stages)
			if ok != tc.ok || g.Stage != tc.want {
				t.Errorf("gate %q (ok %v), want %q (ok %v)", g.Stage, ok, tc.want, tc.ok)
			}
		})
	}
}

// Statuses read in present's words; the checklist's statuses are
// lifecycle statuses, so none falls back to a humanised code.
func TestStatusWords(t *testing.T) {
	for status, want := range map[string]string{"open": "open", "in_progress": "in progress", "done": "done",
		"not_applicable": "not applicable", NotStated: "not stated"} {
		if got := StatusWords(status); got != want {
			t.Errorf("StatusWords(%q) = %q, want %q", status, got, want)
		}
	}
	for _, st := range Statuses {
		if !slices.ContainsFunc(present.Choices(pathStatus), func(c present.Choice) bool { return c.Value == string(st) }) {
			t.Errorf("checklist status %q is not a lifecycle status present words", st)
		}
	}
}

// The controls span the stages the seed gives them.
func TestControls(t *testing.T) {
	want := map[string][]int{"Quality": {1, 2, 3, 6}, "Lineage and version": {1, 3, 4, 6, 7}, "Security and retention": {1, 2, 3, 4, 5, 6, 7}}
	for _, c := range Controls {
		if !slices.Equal(c.Stages, want[c.Name]) {
			t.Errorf("%s spans %v, want %v", c.Name, c.Stages, want[c.Name])
		}
	}
	if len(Stages) != len(scenario.LifecycleStages) {
		t.Fatalf("%d stages", len(Stages))
	}
	for i, st := range Stages {
		if st.Stage != scenario.LifecycleStages[i] || st.Number != i+1 {
			t.Errorf("stage %d is %+v", i, st)
		}
		// What happens is present's help for the stage, read inside a
		// sentence: no "Stage n:" lead, no final stop.
		if st.What == "" || strings.HasPrefix(st.What, "Stage") || strings.HasSuffix(st.What, ".") ||
			!strings.Contains(present.ChoiceHelp("data.lifecycle[].stage", st.Stage), st.What) {
			t.Errorf("stage %d: what happens is %q", st.Number, st.What)
		}
	}
	if got := Stages[4].What; got != "the run itself" {
		t.Errorf("compute: what happens is %q", got)
	}
}

// The recorded checklist state shows in the brief and answers whether the
// environment can be reproduced.
func TestBriefWithChecklistState(t *testing.T) {
	s := load(t, "qlora-legal-70b.json")
	r, d := evaluate(t, s)
	st := ChecklistState{}
	for _, id := range ItemIDs(s.Workload.Shape) {
		if strings.HasPrefix(id, "environment.") {
			if err := st.Set(s.Workload.Shape, id, StatusDone, "ML platform"); err != nil {
				t.Fatal(err)
			}
		}
	}
	b, err := WithChecklist(s, r, d, st)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Yes, as far as the checklist shows: all 6 reproducibility items are done.",
		"- [x] Pin every dependency in a lockfile. (`environment.lockfile`, done, owner: ML platform)",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("brief lacks %q", want)
		}
	}
	if strings.Contains(string(b), "### Serving") {
		t.Error("a fine-tuning brief lists serving items")
	}
}

// The constrained example's brief recommends hybrid and says why managed
// and plain cloud are out.
func TestConstrainedBrief(t *testing.T) {
	s := load(t, "constrained-snapshot-training.json")
	r, d := evaluate(t, s)
	b, err := Brief(s, r, nil) // the decision is made when not given
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Hybrid is recommended",
		"- **Managed service** (other): no managed service in the catalog trains a model from scratch",
		"- **Cloud IaaS** (sovereignty): the source records must stay in the controlled environment",
		"Hybrid earns its extra environment here",
		"Head of Case Analytics accepts the result",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("brief lacks %q", want)
		}
	}
	other := scenario.Clone(s)
	other.ID = "other"
	if _, err := Brief(other, r, d); err == nil {
		t.Error("a brief from another scenario's report was written")
	}
}

// The brief ends with its lineage: the build of hostplan that wrote it
// (Build records the running one), the model, the schema and the prices.
func TestLineage(t *testing.T) {
	s := load(t, "qlora-legal-70b.json")
	r, d := evaluate(t, s)
	doc, err := Build(s, r, d, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := doc.Sections[len(doc.Sections)-1]
	if last.Title != "Lineage" || last.Level != 2 {
		t.Fatalf("last section %q (level %d), want Lineage", last.Title, last.Level)
	}
	md := string(doc.Markdown())
	cur := version.Current()
	if want := "Written by hostplan " + cur.Version + ", commit "; !strings.Contains(md, want) {
		t.Errorf("brief lacks %q", want)
	}
	if want := "for " + cur.Platform + "; model " + r.ModelVersion; !strings.Contains(md, want) {
		t.Errorf("brief lacks %q", want)
	}

	dirty := goldenBuild
	dirty.Modified = true
	doc, err = build(s, r, d, nil, dirty)
	if err != nil {
		t.Fatal(err)
	}
	want := "Written by hostplan 0.1.0, commit `94eb97d1a2b3c4d5e6f708192a3b4c5d6e7f8091` with uncommitted changes, built 2026-12-01T00:00:00Z with go1.26.8 for linux/amd64; model " +
		r.ModelVersion + ", scenario schema " + strconv.Itoa(scenario.SchemaVersion) + ", prices as of " + r.CatalogAsOf + "."
	if md := string(doc.Markdown()); !strings.Contains(md, "## Lineage\n\n"+want+"\n") {
		t.Errorf("lineage of a modified build: want %q in\n%s", want, md[strings.LastIndex(md, "## "):])
	}
}

// Each direction is dated by the prices it used: the brief lists them
// under Recommendation, a direction newer than the report's oldest price
// with its own date, while the opening line keeps the oldest any direction
// used.
func TestBriefDatesPricesByDirection(t *testing.T) {
	s := load(t, "constrained-snapshot-training.json")
	r, d := evaluate(t, s)
	cl := r.Direction(scenario.Cloud)
	cl.PricesAsOf = "2026-01-21"
	doc, err := build(s, r, d, nil, goldenBuild)
	if err != nil {
		t.Fatal(err)
	}
	md := string(doc.Markdown())
	if r.CatalogAsOf >= cl.PricesAsOf {
		t.Fatalf("the report's oldest price %s is not older than the cloud's", r.CatalogAsOf)
	}
	for _, want := range []string{"prices as of " + r.CatalogAsOf + " (the oldest any direction used",
		"Prices as of, by direction (the oldest price each used): ", "Cloud IaaS 2026-01-21", "On-premises " + r.Direction(scenario.OnPrem).PricesAsOf} {
		if !strings.Contains(md, want) {
			t.Errorf("brief lacks %q", want)
		}
	}
}
