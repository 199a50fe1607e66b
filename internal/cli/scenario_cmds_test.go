package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestDeleteUndeletePurge(t *testing.T) {
	db := tempDB(t)
	const id = "nightly-document-batch"
	if out := storeRun(t, db, "delete", id); !strings.Contains(out, "deleted "+id) || !strings.Contains(out, "undelete") {
		t.Errorf("delete: %q", out)
	}
	if out := storeRun(t, db, "list"); strings.Contains(out, id) {
		t.Errorf("list shows a deleted scenario:\n%s", out)
	}
	if code, _, _ := run(t, db, "history", id); code != ExitUsage {
		t.Errorf("history of a deleted scenario: exit %d, want 2", code)
	}
	if out := storeRun(t, db, "delete", id); !strings.Contains(out, "already deleted") {
		t.Errorf("second delete: %q", out)
	}
	if code, _, errs := run(t, db, "undelete"); code != ExitUsage || !strings.Contains(errs, "deleted: "+id) {
		t.Errorf("undelete without an id: exit %d %q; want 2 and the deleted ids", code, errs)
	}
	if out := storeRun(t, db, "undelete", id); !strings.Contains(out, "undeleted "+id+" (current revision 1)") {
		t.Errorf("undelete: %q", out)
	}
	if out := storeRun(t, db, "list"); !strings.Contains(out, id) {
		t.Errorf("list after undelete lacks %s", id)
	}
	if out := storeRun(t, db, "undelete", id); !strings.Contains(out, "is not deleted") {
		t.Errorf("undelete of a live scenario: %q", out)
	}

	// Purge refuses a live scenario and removes a deleted one for good.
	code, _, errs := run(t, db, "purge", id)
	if code != ExitUsage || !strings.Contains(errs, "is not deleted") {
		t.Errorf("purge of a live scenario: exit %d %q", code, errs)
	}
	if out := storeRun(t, db, "show", id); !strings.Contains(out, `"id": "`+id+`"`) {
		t.Error("a refused purge removed the scenario")
	}
	storeRun(t, db, "delete", id)
	if out := storeRun(t, db, "purge", id); !strings.Contains(out, "purged "+id+" and its 1 revisions") {
		t.Errorf("purge: %q", out)
	}
	for _, args := range [][]string{{"undelete", id}, {"purge", id}, {"show", id}, {"delete", id}} {
		if code, _, _ := run(t, db, args...); code != ExitUsage {
			t.Errorf("%v after purge: exit %d, want 2", args, code)
		}
	}
	if out := storeRun(t, db, "store", "check"); out != "ok\n" {
		t.Errorf("store check after purge: %q", out)
	}
}

// list filters by shape, by text in the id or name (any case) and by the
// direction the model recommends, and writes JSON for scripts.
func TestListFilters(t *testing.T) {
	db := tempDB(t)
	out := mustRun(t, db, "list", "--shape", "training")
	if !strings.Contains(out, "foundation-7b-pretraining") || strings.Contains(out, "support-assistant-70b") {
		t.Errorf("--shape training:\n%s", out)
	}
	if out := mustRun(t, db, "list", "--search", "NIGHTLY"); !strings.Contains(out, "nightly-document-batch") || strings.Count(out, "\n") != 2 {
		t.Errorf("--search:\n%s", out)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(mustRun(t, db, "list", "--recommended", "managed", "--format", "json")), &rows); err != nil {
		t.Fatal(err)
	}
	if len(rows) == 0 {
		t.Fatal("no scenario recommends the managed service")
	}
	for _, r := range rows {
		if r["recommended"] != "managed" || r["id"] == "" {
			t.Errorf("row %v", r)
		}
	}
	if code, _, errs := run(t, db, "list", "--shape", "huge"); code != ExitUsage || !strings.Contains(errs, "is not a workload shape (allowed:") {
		t.Errorf("bad shape: exit %d %q", code, errs)
	}
}
