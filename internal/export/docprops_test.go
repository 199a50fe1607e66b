package export

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"hostplan/internal/costid"
	"hostplan/internal/scenario"
)

// TestDocumentProperties: a workbook names hostplan and the export date in
// its document properties, not the library's defaults; an author the user
// gives is its creator.
func TestDocumentProperties(t *testing.T) {
	defer func(c func() time.Time) { now = c }(now)
	now = func() time.Time { return time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC) }
	ex := exampleNamed(t, "qlora-legal-70b")
	for _, author := range []string{"", "Finance team"} {
		f, err := WorkbookWith(ex.s, ex.r, &Extras{Author: author})
		if err != nil {
			t.Fatal(err)
		}
		p, err := f.GetDocProps()
		if err != nil {
			t.Fatal(err)
		}
		want := author
		if want == "" {
			want = "hostplan"
		}
		if p.Creator != want || p.LastModifiedBy != want {
			t.Errorf("author %q: creator %q, last modified by %q, want %q", author, p.Creator, p.LastModifiedBy, want)
		}
		if !strings.HasPrefix(p.Created, "2026-03-04T05:06:07") || !strings.Contains(p.Description, "hostplan") || !strings.Contains(p.Description, "2026-03-04") {
			t.Errorf("created %q, description %q: want the export date and hostplan", p.Created, p.Description)
		}
		if !strings.Contains(p.Title, ex.s.Name) {
			t.Errorf("title %q does not name the scenario", p.Title)
		}
		a, err := f.GetAppProps()
		if err != nil || a.Application != "hostplan" {
			t.Errorf("application %q (%v), want hostplan", a.Application, err)
		}
	}
	c, err := Comparison([]Entry{{Scenario: ex.s, Report: ex.r}}, "")
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := c.GetDocProps(); p.Creator != "hostplan" || !strings.Contains(p.Description, "2026-03-04") {
		t.Errorf("comparison: creator %q, description %q", p.Creator, p.Description)
	}
	// A comparison names the author it is given, as a workbook does (the
	// command line's --author was dropped for comparisons).
	c, err = Comparison([]Entry{{Scenario: ex.s, Report: ex.r}}, "Ana Finance")
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := c.GetDocProps(); p.Creator != "Ana Finance" || p.LastModifiedBy != "Ana Finance" {
		t.Errorf("comparison with an author: creator %q, last modified by %q", p.Creator, p.LastModifiedBy)
	}
}

// TestLineageShowsNoFolders: the lineage of a file names the file, not the
// folders it lies in (absolute paths, with the login name often among
// them), and names no author unless one is given.
func TestLineageShowsNoFolders(t *testing.T) {
	for in, want := range map[string]string{
		"the file /home/ana/plans/x.json, not the store":                      "the file x.json, not the store",
		`the file C:\Users\ana\x.json, not the store`:                         "the file x.json, not the store",
		"the file ~/x.json":                                                   "the file x.json",
		"revision 3 (the current one) of scenario s in the store hostplan.db": "revision 3 (the current one) of scenario s in the store hostplan.db",
		"the file plans/x.json":                                               "the file plans/x.json",
	} {
		if got := withoutDirs(in); got != want {
			t.Errorf("withoutDirs(%q) = %q, want %q", in, got, want)
		}
	}
	ex := exampleNamed(t, "qlora-legal-70b")
	x := &Extras{Source: "the file /home/ana/plans/q.json, not the store",
		Lineage: []scenario.Revision{{Scenario: ex.s.ID, RevisionMeta: scenario.RevisionMeta{Author: "ana", Note: "exported from the file /home/ana/plans/q.json"}}}}
	f, err := WorkbookWith(ex.s, ex.r, x)
	if err != nil {
		t.Fatal(err)
	}
	rows, _ := f.GetRows(sheetLineage)
	for _, r := range rows {
		for _, c := range r {
			if strings.Contains(c, "/home") || c == "ana" {
				t.Errorf("Lineage shows %q", c)
			}
		}
	}
}

// TestUnitFormats: every named figure and driver that is not money shows
// in its unit's number format — months with "months", fractions as
// percentages, GPU-hours grouped — not General, and Audit shows each
// value in the format of the cell it audits.
func TestUnitFormats(t *testing.T) {
	months, percent, checked := 0, 0, 0
	for _, ex := range exampleReports(t) {
		b := build(ex.s, ex.r, nil)
		if b.err != nil {
			t.Fatal(b.err)
		}
		f := b.f
		for name, at := range b.names {
			d, ok := costid.ByName(name)
			if !ok {
				for _, dir := range ex.r.Directions {
					if x, found := strings.CutPrefix(name, dir.Direction+"_"); found {
						d, ok = costid.ByName(x)
					}
				}
			}
			if !ok || costid.IsMoney(d) || unitFormat(costid.Unit(d, "¤")) == fmtGeneral {
				continue
			}
			want := b.resolve(driverFormat(d))
			if got := numFormat(t, f, at.sheet, cell(at.col, at.row)); got != want {
				t.Errorf("%s: %s (%s, unit %s) in format %q, want %q", ex.name, name, cell(at.col, at.row), costid.Unit(d, "¤"), got, want)
			}
			checked++
			switch want {
			case fmtMonths:
				months++
			case fmtPercent:
				percent++
			}
		}
		for _, a := range b.audit {
			if a.none {
				continue
			}
			if got, want := numFormat(t, f, sheetAudit, cell(colAudLive, rowAudHeader+1+slices.IndexFunc(b.audit, func(x auditCell) bool { return x == a }))), numFormat(t, f, a.sheet, cell(a.col, a.row)); got != want {
				t.Errorf("%s: Audit of %s!%s in %q, the cell in %q", ex.name, a.sheet, cell(a.col, a.row), got, want)
				break
			}
		}
	}
	if months == 0 || percent == 0 || checked < 50 {
		t.Errorf("%d figures checked, %d in months, %d as percentages: too few to judge", checked, months, percent)
	}
}

// TestDatesAreDates: every "as of" date on Drivers is a date cell in the
// date format, not text.
func TestDatesAreDates(t *testing.T) {
	dates := 0
	for _, ex := range exampleReports(t) {
		f := mustWorkbook(t, ex.s, ex.r)
		rows, _ := f.GetRows(sheetDrivers)
		for i := rowDrvHeader; i < len(rows); i++ {
			ref := cell(colDrvAsOf, i+1)
			typ, _ := f.GetCellType(sheetDrivers, ref)
			v, _ := f.GetCellValue(sheetDrivers, ref)
			if v == "" {
				continue
			}
			if _, err := time.Parse(time.DateOnly, v); err == nil && (typ == excelize.CellTypeSharedString || typ == excelize.CellTypeInlineString || numFormat(t, f, sheetDrivers, ref) != fmtDate) {
				t.Errorf("%s: Drivers!%s %q is text, or not in the date format", ex.name, ref, v)
			} else if err == nil {
				dates++
			}
		}
	}
	if dates == 0 {
		t.Error("no date on Drivers")
	}
}

// TestPrintAreas: the Audit sheet prints its counts only, Monthly the
// months of the horizon and its chart (no page of empty rows), and
// Comparisons its tables without the traffic search beside them.
func TestPrintAreas(t *testing.T) {
	ex := exampleNamed(t, "support-assistant-70b")
	f := mustWorkbook(t, ex.s, ex.r)
	areas := map[string]string{}
	for _, dn := range f.GetDefinedName() {
		if dn.Name == "_xlnm.Print_Area" {
			areas[dn.Scope] = dn.RefersTo
		}
	}
	want := map[string]string{
		sheetAudit:       "Audit!$A$1:$H$4",
		sheetMonthly:     "Monthly!$A$1:" + absCell(len(ex.r.Directions)+3+chartColumns, max(ex.r.HorizonMonths+1, chartRows+2)),
		sheetComparisons: "Comparisons!$A$1:" + absCell(colTraffic-1, 0+mustLastRow(t, f, sheetComparisons, colTraffic-1)),
	}
	for sh, w := range want {
		if areas[sh] != w {
			t.Errorf("%s print area %q, want %q", sh, areas[sh], w)
		}
	}
}

// mustLastRow is the last row of sheet with a value in columns 1–cols.
func mustLastRow(t *testing.T, f *excelize.File, sheet string, cols int) int {
	t.Helper()
	rows, err := f.GetRows(sheet)
	if err != nil {
		t.Fatal(err)
	}
	last := 0
	for i, r := range rows {
		for c := 0; c < min(cols, len(r)); c++ {
			if r[c] != "" {
				last = i + 1
			}
		}
	}
	return last
}

// TestSourcesOnce: each source a driver cites is written once, on the
// Sources sheet; the Drivers sheet refers to it by id, with a link.
func TestSourcesOnce(t *testing.T) {
	cited := 0
	for _, ex := range exampleReports(t) {
		b := build(ex.s, ex.r, nil)
		if b.err != nil {
			t.Fatal(b.err)
		}
		texts := map[string]bool{}
		for _, d := range ex.r.Directions {
			for _, in := range d.CostInputs {
				if len(in.Source) >= 40 {
					texts[in.Source] = true
				}
			}
		}
		for text := range texts {
			// Once as a whole on Sources, nowhere else (another source
			// on Sources may quote it).
			n := 0
			var where []string
			for sheet, rows := range b.written {
				for row, cols := range rows {
					for col, w := range cols {
						if sheet == sheetSources && w == text || sheet != sheetSources && strings.Contains(w, text) {
							n++
							where = append(where, sheet+"!"+cell(col, row))
						}
					}
				}
			}
			if n != 1 || !strings.HasPrefix(where[0], sheetSources+"!") {
				t.Errorf("%s: source %.40q… written %d times: %v", ex.name, text, n, where)
			}
			cited++
		}
		for row, cols := range b.written[sheetDrivers] {
			w := cols[colDrvSource]
			if !strings.Contains(w, "(Sources sheet)") {
				continue
			}
			if ok, target, _ := b.f.GetCellHyperLink(sheetDrivers, cell(colDrvSource, row)); !ok || !strings.HasPrefix(target, sheetSources+"!") {
				t.Errorf("%s: Drivers!%s cites a source without a link to it (%q)", ex.name, cell(colDrvSource, row), target)
			}
		}
	}
	if cited == 0 {
		t.Fatal("no example cites a source of 40 characters or more")
	}
}
