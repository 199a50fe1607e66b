package export

import (
	"fmt"
	"strings"

	"hostplan/internal/brief"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// Columns of the Checklist sheet.
const (
	colCkGroup = 1 + iota
	colCkItem
	colCkApplies
	colCkStatus
	colCkOwner
	colCkID
)

// rowCkHeader is the header row of the checklist table.
const rowCkHeader = 4

// shapeTitle names a workload shape inside a sentence, as the brief does.
func shapeTitle(shape string) string { return present.Lower(present.ShapeTitle(shape)) }

// appliesTo says which workload shapes an item applies to.
func appliesTo(it brief.Item) string {
	if len(it.Shape) == 0 {
		return "all workload shapes"
	}
	ts := make([]string, len(it.Shape))
	for i, s := range it.Shape {
		ts[i] = shapeTitle(s)
	}
	return strings.Join(ts, ", ")
}

// writeChecklist writes the readiness checklist of the scenario's shape,
// one item a row in the brief's group order, with its status and owner.
func writeChecklist(b *book, s *scenario.Scenario, entries []brief.Entry) {
	const sh = sheetChecklist
	b.widths(sh, 26, 70, 36, 14, 24, 34)
	count := map[brief.Status]int{}
	for _, e := range entries {
		count[e.Status]++
	}
	b.spanText(sh, 1, 1, colCkID, "Readiness checklist: what has to be in place before, during and after the runs", textStyle{bold: true, size: sizeHead})
	b.spanText(sh, 2, 1, colCkID, fmt.Sprintf("%d items apply to %s: %d done, %d not applicable, %d open. Record an item with: hostplan checklist %s --set ITEM=STATUS[:OWNER]",
		len(entries), shapeTitle(s.Workload.Shape), count[brief.StatusDone], count[brief.StatusNotApplicable], count[brief.StatusOpen], s.ID), textStyle{})
	b.headerRow(sh, rowCkHeader, "Group", "Item", "Applies to", "Status", "Owner", "Item id")
	row := rowCkHeader + 1
	for _, g := range brief.Groups {
		for _, e := range entries {
			if e.Group != g.ID {
				continue
			}
			writeChecklistRow(b, row, e)
			row++
		}
	}
	// Items of a group the brief no longer lists, so that none is lost.
	known := map[string]bool{}
	for _, g := range brief.Groups {
		known[g.ID] = true
	}
	for _, e := range entries {
		if !known[e.Group] {
			writeChecklistRow(b, row, e)
			row++
		}
	}
	b.freeze(sh, rowCkHeader)
}

func writeChecklistRow(b *book, row int, e brief.Entry) {
	const sh = sheetChecklist
	b.spanText(sh, row, colCkGroup, colCkGroup, brief.GroupTitle(e.Group), textStyle{})
	b.spanText(sh, row, colCkItem, colCkItem, e.Text, textStyle{})
	b.spanText(sh, row, colCkApplies, colCkApplies, appliesTo(e.Item), textStyle{})
	b.spanText(sh, row, colCkStatus, colCkStatus, brief.StatusWords(string(e.Status)), textStyle{bold: e.Status == brief.StatusOpen})
	b.spanText(sh, row, colCkOwner, colCkOwner, orDash(e.Owner), textStyle{})
	b.spanText(sh, row, colCkID, colCkID, e.ID, textStyle{})
}
