package ui

import (
	"strconv"
	"strings"
	"testing"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/version"
)

// Help ▸ About shows the running build — version, commit, build date, Go
// and platform — with the model and schema versions and the store file.
func TestAboutDialog(t *testing.T) {
	pl := openPlanner(t, "qlora-legal-70b")
	w, _ := openWindow(t, NewBackend(pl))
	menuAction(t, w, "Help", "About")()
	got := overlayLabels(w)
	b := version.Current()
	path, err := pl.Path()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Version\n" + b.Version, "\nCommit\n", "\nBuilt\n" + b.DateOrUnknown(),
		"\nGo\n" + b.GoVersion + " " + b.Platform, "\nModel\n" + model.Version, "\nScenario schema\n" + strconv.Itoa(scenario.SchemaVersion), "\nStore\n" + path} {
		if !strings.Contains(got, want) {
			t.Errorf("About lacks %q:\n%s", want, got)
		}
	}
}

// A build's rows: the full commit, marked when the work tree had changes;
// an unknown commit and date say so; no store, no row.
func TestAboutRows(t *testing.T) {
	b := version.Info{Version: "0.1.0", Commit: "94eb97d1a2b3c4d5e6f708192a3b4c5d6e7f8091", Modified: true,
		Date: "2026-12-01T00:00:00Z", GoVersion: "go1.26.8", Platform: "windows/amd64"}
	rows := aboutRows(b, `C:\Users\Zoë\AppData\Roaming\hostplan\hostplan.db`)
	want := map[string]string{
		"Version": "0.1.0", "Commit": "94eb97d1a2b3c4d5e6f708192a3b4c5d6e7f8091 (with uncommitted changes)",
		"Built": "2026-12-01T00:00:00Z", "Go": "go1.26.8 windows/amd64", "Model": model.Version,
		"Scenario schema": "1", "Store": `C:\Users\Zoë\AppData\Roaming\hostplan\hostplan.db`,
	}
	if len(rows) != len(want) {
		t.Fatalf("rows %q", rows)
	}
	for _, r := range rows {
		if want[r[0]] != r[1] {
			t.Errorf("%s: %q, want %q", r[0], r[1], want[r[0]])
		}
	}
	rows = aboutRows(version.Info{Version: "(devel)", GoVersion: "go1.26.8", Platform: "linux/amd64"}, "")
	if rows[1][1] != "unknown" || rows[2][1] != "unknown" || rows[len(rows)-1][0] == "Store" {
		t.Errorf("unknown build: %q", rows)
	}
}
