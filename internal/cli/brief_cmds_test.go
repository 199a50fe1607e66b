package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"hostplan/internal/version"
)

const constrained = "../../scenarios/constrained-snapshot-training.json"

func TestDecideTable(t *testing.T) {
	code, out, errs := run(t, tempDB(t), "decide", constrained)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"Hybrid is recommended",
		"Managed service (other): no managed service in the catalog trains a model from scratch",
		"Cloud IaaS (sovereignty): the source records must stay in the controlled environment",
		"Scores and their reasons:",
		"Why Hybrid wins:",
		"Robustness (each weight ±20 %):",
		"Bottlenecks and first questions:",
		"First trial:",
		"who accepts the result: Head of Case Analytics",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
}

func TestDecideRunnerUpAndJSON(t *testing.T) {
	code, out, errs := run(t, tempDB(t), "decide", "../../scenarios/qlora-legal-70b.json", "--format", "json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	obj := jsonObject(t, out, "scenario_id", "recommendation", "summary", "weights", "ranking", "directions",
		"why_winner", "why", "runner_up", "robustness", "first_trial")
	if obj["scenario_id"] != "qlora-legal-70b" {
		t.Errorf("scenario_id %v", obj["scenario_id"])
	}
	ru, ok := obj["runner_up"].(map[string]any)
	if !ok || ru["summary"] == "" || ru["weight_change"] == nil {
		t.Errorf("runner_up %v", obj["runner_up"])
	}
	dirs, _ := obj["directions"].([]any)
	if len(dirs) != 5 {
		t.Fatalf("%d directions", len(dirs))
	}
	for _, d := range dirs {
		m := d.(map[string]any)
		for _, k := range []string{"constraints", "scores", "missing_skills"} {
			if m[k] == nil {
				t.Errorf("%s: %s is null, want a list", m["direction"], k)
			}
		}
	}
	code, out, _ = run(t, tempDB(t), "decide", "../../scenarios/qlora-legal-70b.json")
	if code != ExitOK || !strings.Contains(out, "What would change it: Hybrid") {
		t.Errorf("exit %d, table without the runner-up:\n%s", code, out)
	}
}

func TestBriefCommand(t *testing.T) {
	db := tempDB(t)
	code, out, errs := run(t, db, "brief", constrained)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// A file gets the same brief as the package's golden file: the default
	// catalog and the checklist's default state; the lineage at its end
	// names this build of hostplan rather than the golden file's.
	golden, err := os.ReadFile("../brief/testdata/constrained-snapshot-training.md")
	if err != nil {
		t.Fatal(err)
	}
	want := withBuild(t, string(golden))
	if out != want {
		t.Errorf("brief differs from ../brief/testdata/constrained-snapshot-training.md:\n%s", out)
	}
	dst := filepath.Join(t.TempDir(), "brief.md")
	code, out, errs = run(t, db, "brief", constrained, "-o", dst)
	if code != ExitOK || out != "wrote "+dst+"\n" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	b, err := os.ReadFile(dst)
	if err != nil || string(b) != want {
		t.Errorf("written brief: %v", err)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(dst), ".*.tmp"))
	if len(left) > 0 {
		t.Errorf("temporary files left: %v", left)
	}
}

// A valid scenario whose texts are placeholders fills six fields: no
// brief, exit 2, and one line per missing field naming the file and field.
func TestBriefTooFewFields(t *testing.T) {
	f := writeFile(t, "thin.json", `{
  "schema_version": 1, "id": "thin-draft", "name": "Thin draft", "currency": "USD",
  "purpose": {"decision": "TBD", "success_measure": "TBD", "owner": "TBD"},
  "workload": {"shape": "training", "model": {"params_b": 1, "layers": 16, "hidden_size": 2048},
    "precision": "bf16", "tokens_per_run_b": 1, "runs_per_month": 1},
  "data": {"volume_gb": 0, "classification": "internal", "personal_data": false, "residency": "any",
    "movement": "any", "provider_may_process": false},
  "dimensions": {"sovereignty": {"weight": 1}, "workload_shape": {"weight": 0},
    "operations": {"weight": 0, "staff_fte": 1}, "economics": {"weight": 0, "horizon_months": 12},
    "optionality": {"weight": 0, "exit_required": false}},
  "options": {"managed": {}, "cloud": {}, "on_prem": {}, "hpc": {}, "hybrid": {}}
}`)
	code, out, errs := run(t, tempDB(t), "brief", f)
	if code != ExitUsage || out != "" {
		t.Fatalf("exit %d (want 2), stdout %q", code, out)
	}
	lines := strings.Split(strings.TrimSpace(errs), "\n")
	want := []string{"purpose.decision", "purpose.success_measure", "purpose.baseline", "purpose.acceptable_runtime_hours",
		"data.volume_gb", "data.storage_gbps", "data.return_outputs", "purpose.owner", "data.retention_owner"}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want), errs)
	}
	for i, path := range want {
		prefix := f + ": " + path + ": is not filled"
		if !strings.HasPrefix(lines[i], prefix) || !strings.Contains(lines[i], "at least 7 of 15 fields and 6 are filled") {
			t.Errorf("line %d = %q, want prefix %q", i, lines[i], prefix)
		}
	}
}

func TestChecklistCommand(t *testing.T) {
	db := tempDB(t)
	id := "constrained-snapshot-training" // seeded into every new store
	code, out, errs := run(t, db, "checklist", id, "--set", "before.quota=done:Platform team", "--set", "environment.container=done")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "29 items, 2 done, 0 not applicable, 27 open") {
		t.Errorf("stdout:\n%s", out)
	}
	// The state is kept: a later read shows it, as JSON too.
	code, out, _ = run(t, db, "checklist", id, "--format", "json")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	var got struct {
		Stored bool `json:"stored"`
		Items  []struct {
			ID     string `json:"id"`
			Status string `json:"status"`
			Owner  string `json:"owner"`
		} `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	states := map[string]string{}
	for _, it := range got.Items {
		states[it.ID] = it.Status + "/" + it.Owner
	}
	if !got.Stored || states["before.quota"] != "done/Platform team" || states["environment.container"] != "done/" || states["before.budget"] != "open/" {
		t.Errorf("stored %v, states %v", got.Stored, states)
	}
	if _, ok := states["serving.cache"]; ok {
		t.Error("a training scenario lists serving items")
	}
	// The brief of the stored scenario shows the state.
	code, out, _ = run(t, db, "brief", id)
	if code != ExitOK || !strings.Contains(out, "- [x] Ask for GPU quota") || !strings.Contains(out, "Partly: 1 of 6 reproducibility items are done") {
		t.Errorf("exit %d; brief without the stored state", code)
	}

	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"checklist", id, "--set", "before.budget=done", "--set", "before.coffee=done"}, `checklist item "before.coffee" is not known (allowed: before.quota,`},
		{[]string{"checklist", id, "--set", "serving.cache=done"}, "does not apply to shape training"},
		{[]string{"checklist", id, "--set", "before.quota=finished"}, `status "finished" is not known (allowed: open, done, not_applicable)`},
		{[]string{"checklist", id, "--set", "before.quota"}, "is not ITEM=STATUS[:OWNER]"},
		{[]string{"checklist", constrained, "--set", "before.quota=done"}, "--set records state for a stored scenario"},
		{[]string{"checklist", "no-such-id"}, "no such file, and no scenario with that id"},
		{[]string{"checklist"}, "checklist: give exactly one"},
		{[]string{"checklist", id, "--format", "xml"}, `--format "xml" is not known`},
	} {
		code, _, errs := run(t, db, tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
	// The rejected batch stored nothing, not even its valid first change.
	_, out, _ = run(t, db, "checklist", id)
	if !strings.Contains(out, "open  before.budget") {
		t.Errorf("a rejected --set batch was partly stored:\n%s", out)
	}
}

// A file shows the default state, read-only.
func TestChecklistOfAFile(t *testing.T) {
	code, out, errs := run(t, tempDB(t), "checklist", "../../scenarios/support-assistant-70b.json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"interactive_inference", "0 done", "A file shows the default state", "serving.cache", "\nServing\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q", want)
		}
	}
	if strings.Contains(out, "training.checkpoint") {
		t.Error("an inference scenario lists training items")
	}
}

func TestBriefAndDecideUsage(t *testing.T) {
	db := tempDB(t)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"decide"}, "decide: give exactly one"},
		{[]string{"decide", constrained, "--format", "xml"}, `--format "xml" is not known (allowed: json, table)`},
		{[]string{"decide", "missing.json"}, "missing.json: cannot read"},
		{[]string{"brief"}, "brief: give exactly one"},
		{[]string{"brief", "testdata/broken.json"}, "testdata/broken.json: id:"},
	} {
		code, _, errs := run(t, db, tc.args...)
		if code != ExitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 and %q", tc.args, code, errs, tc.want)
		}
	}
}

// withBuild is a golden brief with its lineage written by the running
// build of hostplan: the golden files stand for a fixed build.
func withBuild(t *testing.T, golden string) string {
	t.Helper()
	const head = "## Lineage\n\nWritten by hostplan "
	i := strings.LastIndex(golden, head)
	if i < 0 {
		t.Fatalf("golden brief has no lineage")
	}
	rest := golden[i+len(head):]
	j := strings.Index(rest, "; model ")
	if j < 0 {
		t.Fatalf("golden lineage %q has no model", rest)
	}
	v := version.Current()
	commit := v.Commit
	if commit == "" {
		commit = "unknown"
	}
	if v.Modified {
		commit += "` with uncommitted changes"
	} else {
		commit += "`"
	}
	return golden[:i] + head + v.Version + ", commit `" + commit + ", built " + v.DateOrUnknown() +
		" with " + v.GoVersion + " for " + v.Platform + rest[j:]
}
