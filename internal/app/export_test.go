package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/brief"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

// ExportWorkbook writes the workbook of a stored scenario with its
// lineage, its recorded checklist and its decision, as "hostplan export
// ID" does; an unknown id is store.ErrNotFound and writes nothing.
func TestExportWorkbook(t *testing.T) {
	p := openTemp(t)
	const id = "constrained-snapshot-training"
	s, _, err := p.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	s.Seed++
	if _, err := p.Save(s, Lineage{Author: "ana", Note: "new seed"}); err != nil {
		t.Fatal(err)
	}
	st := brief.ChecklistState{}
	if err := st.Set(s.Workload.Shape, "before.quota", brief.StatusDone, "Platform team"); err != nil {
		t.Fatal(err)
	}
	if err := p.SaveChecklist(id, st); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "x.xlsx")
	if err := p.ExportWorkbook(context.Background(), id, out, ""); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for cell, want := range map[string]string{
		"B3": id,
		"B4": "revision 2 (the current one) of scenario " + id + " in the store hostplan.db",
		"A7": "1", "A8": "2", "C8": "ana", "D8": "new seed",
	} {
		if got, _ := f.GetCellValue("Lineage", cell); got != want {
			t.Errorf("Lineage!%s = %q, want %q", cell, got, want)
		}
	}
	rows, err := f.GetRows("Checklist")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rows {
		if len(r) == 6 && r[5] == "before.quota" {
			found = r[3] == "done" && r[4] == "Platform team"
		}
	}
	if !found {
		t.Error("the Checklist sheet lacks the recorded state of before.quota")
	}
	if v, _ := f.GetCellValue("Decision", "A1"); v == "" {
		t.Error("the Decision sheet is empty")
	}

	missing := filepath.Join(t.TempDir(), "none.xlsx")
	if err := p.ExportWorkbook(context.Background(), "no-such-scenario", missing, ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id: %v, want store.ErrNotFound", err)
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a workbook was written for an unknown id: %v", err)
	}
}

// A scenario read from a file has one lineage row that says so; a
// cancelled context stops the analysis and writes nothing.
func TestWriteWorkbookFromFile(t *testing.T) {
	p := openTemp(t)
	s, err := scenario.Load("../../scenarios/qlora-legal-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	src := FileWorkbook(s, "plans/q.json")
	out := filepath.Join(t.TempDir(), "q.xlsx")
	if err := p.WriteWorkbook(context.Background(), src, out, 200, ""); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got, _ := f.GetCellValue("Lineage", "B4"); got != "the file plans/q.json, not the store" {
		t.Errorf("Lineage!B4 = %q", got)
	}
	if got, _ := f.GetCellValue("Lineage", "D7"); got != "exported from the file plans/q.json, not from the store: no revisions are recorded" {
		t.Errorf("Lineage!D7 = %q", got)
	}

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	later := filepath.Join(t.TempDir(), "later.xlsx")
	if err := p.WriteWorkbook(ctx, src, later, 200, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if _, err := os.Stat(later); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a workbook was written after cancelling: %v", err)
	}
}

// ExportComparison writes the Compare sheet of stored scenarios, a column
// each in the order given, each with its source; an unknown id or a
// cancelled context writes nothing.
func TestExportComparison(t *testing.T) {
	p := openTemp(t)
	ids := []string{"qlora-legal-70b", "constrained-snapshot-training", "support-assistant-70b"}
	out := filepath.Join(t.TempDir(), "compare.xlsx")
	if err := p.ExportComparison(context.Background(), ids, out, "Ana"); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if dp, err := f.GetDocProps(); err != nil || dp.Creator != "Ana" {
		t.Errorf("creator %q (%v), want the author given", dp.Creator, err)
	}
	one := filepath.Join(t.TempDir(), "one.xlsx")
	if err := p.ExportWorkbook(context.Background(), ids[0], one, "Ana"); err != nil {
		t.Fatal(err)
	}
	if g, err := excelize.OpenFile(one); err != nil {
		t.Fatal(err)
	} else if dp, err := g.GetDocProps(); err != nil || dp.Creator != "Ana" {
		t.Errorf("workbook's creator %q (%v), want the author given", dp.Creator, err)
	}
	if sheets := f.GetSheetList(); len(sheets) != 1 || sheets[0] != "Compare" {
		t.Fatalf("sheets %v, want [Compare]", sheets)
	}
	for i, col := range []string{"B", "C", "D"} {
		if got, _ := f.GetCellValue("Compare", col+"5"); got != ids[i] {
			t.Errorf("Compare!%s5 = %q, want %q", col, got, ids[i])
		}
		if got, _ := f.GetCellValue("Compare", col+"6"); !strings.Contains(got, "revision 1 (the current one) of scenario "+ids[i]) {
			t.Errorf("Compare!%s6 = %q", col, got)
		}
	}

	missing := filepath.Join(t.TempDir(), "none.xlsx")
	if err := p.ExportComparison(context.Background(), []string{ids[0], "no-such-scenario"}, missing, ""); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("unknown id: %v, want store.ErrNotFound", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := p.ExportComparison(ctx, ids[:2], missing, ""); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if err := p.ExportComparison(context.Background(), nil, missing, ""); err == nil {
		t.Error("a comparison of nothing was written")
	}
	if _, err := os.Stat(missing); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a workbook was written after a failure: %v", err)
	}
}

// A workbook the window writes switches the managed service between per
// token and dedicated as its drivers change, as the command line's does:
// the planner gives both the other pricing's report (WorkbookExtras).
func TestWindowWorkbookSwitchesManagedPricing(t *testing.T) {
	p := openTemp(t)
	s, err := scenario.Load("../../scenarios/support-assistant-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "s.xlsx")
	if err := p.WriteWorkbook(context.Background(), FileWorkbook(s, "s.json"), out, 200, ""); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenFile(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := f.GetRows("Costs")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		for _, c := range r {
			if strings.Contains(c, "does not switch to the other pricing") {
				t.Fatalf("Costs says the pricing does not switch: %q", c)
			}
		}
	}
}
