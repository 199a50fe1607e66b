package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// historyDialog is a scenario's history: its revisions, newest first, on
// the left; on the right what the chosen revision changes compared with
// the current one (for the current one, what it changed from the one
// before), field by field with the fields' labels and values as the
// Inputs tab writes them, and a button that restores the chosen revision
// as a new one.
type historyDialog struct {
	p    *planner
	keep Backend
	item Item

	revs    []scenario.Revision // newest first
	chosen  int                 // index in revs, -1 before the history arrives
	gen     int                 // counts choices, so a late diff for an earlier one is dropped
	list    *widgets.PlainKeyList
	heading *widget.Label
	diff    *fyne.Container
	scroll  *container.Scroll
	restore *widget.Button
	buttons *fyne.Container // Close and Restore
	d       dialog.Dialog
}

// showHistory opens the history of it.
func (p *planner) showHistory(it Item) {
	k := p.backend
	h := &historyDialog{p: p, keep: k, item: it, chosen: -1}
	h.list = widgets.NewPlainKeyList(
		func() int { return len(h.revs) },
		func() fyne.CanvasObject {
			title := widget.NewLabel("Revision 10 (current)")
			title.TextStyle.Bold = true
			title.Truncation = fyne.TextTruncateEllipsis
			detail := widget.NewLabel("2026-01-01 12:00 · author")
			detail.SizeName = theme.SizeNameCaptionText
			detail.Truncation = fyne.TextTruncateEllipsis
			return container.New(&widgets.TightVBox{}, title, detail)
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if i < 0 || i >= len(h.revs) {
				return
			}
			labels := o.(*fyne.Container).Objects
			labels[0].(*widget.Label).SetText(h.revisionTitle(i))
			labels[1].(*widget.Label).SetText(revisionDetail(h.revs[i]))
		},
	)
	h.list.OnSelected = func(i widget.ListItemID) { h.choose(i) }
	h.heading = widget.NewLabel("Reading the history…")
	h.heading.TextStyle.Bold = true
	h.heading.Wrapping = fyne.TextWrapWord
	h.diff = container.New(widgets.NewFillGridLayout(3, 1, 120))
	h.scroll = container.NewScroll(h.diff)
	h.restore = widget.NewButtonWithIcon("Restore", theme.HistoryIcon(), h.restoreChosen)
	h.restore.Importance = widget.HighImportance
	h.restore.Disable()
	closeButton := widget.NewButton("Close", func() { h.d.Hide() })

	h.buttons = container.NewHBox(layout.NewSpacer(), closeButton, h.restore)
	right := container.NewBorder(h.heading, h.buttons, nil, nil, h.scroll)
	split := container.NewHSplit(h.list, right)
	split.Offset = 0.3
	size := p.window.Canvas().Size()
	body := container.New(&widgets.FixedSize{Size: fyne.NewSize(min(1100, size.Width*0.85), min(720, size.Height*0.8))}, split)
	h.d = dialog.NewCustomWithoutButtons(fmt.Sprintf("History of “%s”", itemName(it)), body, p.window)
	p.dialogs.showDialog(h.d)

	inBackground(func() func() {
		var revs []scenario.Revision
		err := safeCall(func() (err error) { revs, err = k.History(it.ID); return err })
		return func() {
			if err != nil {
				h.heading.Importance = widget.DangerImportance
				h.heading.SetText("Could not read the history: " + err.Error())
				return
			}
			slices.Reverse(revs)
			h.revs = revs
			h.list.Refresh()
			// The revision before the current one, which is what one
			// would restore; the current one when there is no other.
			h.list.Select(min(1, len(revs)-1))
		}
	})
}

// revisionTitle is row i's first line: "Revision 3 (current)".
func (h *historyDialog) revisionTitle(i int) string {
	t := "Revision " + report.Whole(h.revs[i].Number)
	if i == 0 {
		t += " (current)"
	}
	return t
}

// revisionDetail is a revision's second line: when, by whom, and why.
func revisionDetail(r scenario.Revision) string {
	parts := []string{r.Time.Local().Format("2006-01-02 15:04")}
	if r.Author != "" {
		parts = append(parts, r.Author)
	}
	if r.Note != "" {
		parts = append(parts, r.Note)
	}
	return strings.Join(parts, " · ")
}

// choose shows what revision i changes and offers to restore it.
func (h *historyDialog) choose(i int) {
	if i < 0 || i >= len(h.revs) {
		return
	}
	h.chosen = i
	h.gen++
	gen := h.gen
	cur := h.revs[0]
	// The chosen revision against the current one; the current one
	// against the one before it.
	from, to := h.revs[i], cur
	switch {
	case i == 0 && len(h.revs) > 1:
		from = h.revs[1]
		h.heading.SetText("What revision " + report.Whole(cur.Number) + " (current) changed from revision " + report.Whole(from.Number))
	case i == 0:
		h.heading.SetText("Revision " + report.Whole(cur.Number) + " is the first and the current one.")
	default:
		h.heading.SetText("Revision " + report.Whole(from.Number) + " compared with revision " + report.Whole(cur.Number) + " (current)")
	}
	h.heading.Importance = widget.MediumImportance
	h.restore.SetText("Restore revision " + report.Whole(h.revs[i].Number))
	widgets.ShowIf(h.restore, i > 0)
	h.restore.Disable()
	h.buttons.Refresh() // the button's text and visibility changed: lay the row out again
	h.setRows(nil, "")
	if from.Number == to.Number {
		return
	}
	k, b, id := h.keep, h.p.backend, h.item.ID
	inBackground(func() func() {
		c, err := compareRevisions(k, b, id, from.Number, to.Number)
		return func() {
			if gen != h.gen {
				return
			}
			if err != nil {
				h.setRows(nil, "Could not compare the revisions: "+err.Error())
				return
			}
			h.setRows([]diffRow{{label: "", before: "Revision " + report.Whole(from.Number), after: "Revision " + report.Whole(to.Number)}}, "")
			h.addSection("Outcome", c.outcomeNote)
			h.addRows(c.outcome)
			h.addSection("Changed fields", "")
			if len(c.fields) == 0 {
				h.addRows([]diffRow{{label: "No field differs.", before: "", after: ""}})
			} else {
				h.addRows(c.fields)
			}
			h.diff.Objects = append(h.diff.Objects, widget.NewSeparator()) // the rule under the heading row
			h.diff.Refresh()
			if i > 0 {
				h.restore.Enable()
			}
		}
	})
}

// addSection adds a heading row under the rows so far, with a note in
// its value columns ("" for none).
func (h *historyDialog) addSection(title, note string) {
	t := widget.NewLabel(title)
	t.TextStyle.Bold = true
	t.SizeName = theme.SizeNameSubHeadingText
	n := widgets.Caption(note)
	h.diff.Objects = append(h.diff.Objects, t, n, widget.NewLabel(""))
	h.diff.Refresh()
}

// setRows replaces the comparison: a heading row (or none), or a message.
func (h *historyDialog) setRows(head []diffRow, message string) {
	h.diff.Objects = nil
	h.diff.Layout = widgets.NewFillGridLayout(3, 1, 120)
	if message != "" {
		l := widget.NewLabel(message)
		l.Wrapping = fyne.TextWrapWord
		h.diff.Layout = widgets.NewFillGridLayout(1, 0, 200)
		h.diff.Objects = []fyne.CanvasObject{l}
	}
	for _, r := range head {
		for _, text := range []string{r.label, r.before, r.after} {
			l := widget.NewLabel(text)
			l.TextStyle.Bold = true
			h.diff.Objects = append(h.diff.Objects, l)
		}
	}
	h.diff.Refresh()
	h.scroll.ScrollToTop()
}

// addRows adds rows under the rows so far; a row whose two values
// differ, in the outcome, is in bold.
func (h *historyDialog) addRows(rows []diffRow) {
	for _, r := range rows {
		for c, text := range []string{r.label, r.before, r.after} {
			l := widget.NewLabel(text)
			if c > 0 { // the values share the width the labels leave
				l.Wrapping = fyne.TextWrapWord
			}
			l.TextStyle.Bold = r.strong
			h.diff.Objects = append(h.diff.Objects, l)
		}
	}
	h.diff.Refresh()
}

// restoreChosen makes the chosen revision current again as a new one.
func (h *historyDialog) restoreChosen() {
	if h.chosen <= 0 || h.chosen >= len(h.revs) {
		return
	}
	n, id, k, p := h.revs[h.chosen].Number, h.item.ID, h.keep, h.p
	h.restore.Disable()
	inBackground(func() func() {
		var rev int
		err := safeCall(func() (err error) { rev, err = k.Restore(id, n, ""); return err })
		return func() {
			if err != nil {
				h.restore.Enable()
				h.setRows(nil, "Revision "+report.Whole(n)+" was not restored: "+strings.Join(problemLines(err), "; "))
				return
			}
			h.d.Hide()
			p.setComparing(false)
			p.scenarios.reload()
			name := itemName(h.item)
			if it, ok := p.scenarios.item(id); ok {
				name = itemName(it)
			}
			if rev == h.revs[0].Number {
				p.scenarios.notify("“" + name + "”: revision " + report.Whole(rev) + " already has the content of revision " + report.Whole(n) + "; nothing was written.")
			} else {
				p.scenarios.notify("Restored revision " + report.Whole(n) + " of “" + name + "” as revision " + report.Whole(rev) + ".")
			}
			p.scenarios.selectID(id)
		}
	})
}

// diffRow is one row of a comparison of two revisions: a changed field's
// label with its unit, or a figure of the outcome, and its value in each
// revision; strong marks an outcome that changed.
type diffRow struct {
	label, before, after string
	strong               bool
}

// revisionComparison is what differs between two revisions: their
// outcome and the fields changed.
type revisionComparison struct {
	outcome     []diffRow
	outcomeNote string // how the outcome was found, or why it could not be
	fields      []diffRow
}

// compareRevisions loads two revisions, lists the fields that differ and
// evaluates and decides each with the catalog in use (without the Monte
// Carlo spread, a millisecond or so each) for its outcome.
func compareRevisions(k Backend, b Backend, id string, from, to int) (c revisionComparison, err error) {
	var x, y *scenario.Scenario
	err = safeCall(func() (err error) {
		if x, err = k.LoadRevision(id, from); err != nil {
			return err
		}
		y, err = k.LoadRevision(id, to)
		return err
	})
	if err != nil {
		return c, err
	}
	if err = safeCall(func() (err error) { c.fields, err = changedFields(x, y); return err }); err != nil {
		return c, err
	}
	ex, errX := evaluateScenario(context.Background(), b, Item{ID: id}, x, false)
	ey, errY := evaluateScenario(context.Background(), b, Item{ID: id}, y, false)
	if errX != nil || errY != nil {
		c.outcomeNote = "Could not evaluate both revisions: " + errors.Join(errX, errY).Error()
		return c, nil
	}
	c.outcome = outcomeRows(ex, ey)
	c.outcomeNote = "each revision evaluated with the catalog in use"
	return c, nil
}

// outcomeRows compare what two evaluations came to: the recommendation,
// the cheapest feasible direction, then each direction's verdict and cost
// over the horizon.
func outcomeRows(a, b *evaluation) []diffRow {
	row := func(label, x, y string) diffRow { return diffRow{label: label, before: x, after: y, strong: x != y} }
	rows := []diffRow{
		row("Recommended", recommendedText(a), recommendedText(b)),
		row("Cheapest feasible", cheapestShort(a.r), cheapestShort(b.r)),
	}
	for _, d := range b.r.Directions {
		rows = append(rows, row(report.TitleOf(d), verdictText(a, d.Direction), verdictText(b, d.Direction)))
	}
	return rows
}

// recommendedText is the direction ev's decision recommends, or why none.
func recommendedText(ev *evaluation) string {
	switch {
	case ev.decErr != nil || ev.dec == nil:
		return "none: the directions could not be ranked"
	case ev.dec.Recommendation == "":
		return "none: nothing is feasible"
	}
	return report.DirectionName(ev.dec, ev.dec.Recommendation)
}

// cheapestShort is the cheapest feasible direction and its cost over the
// horizon.
func cheapestShort(r *model.Report) string {
	c := r.Direction(r.Cheapest)
	if c == nil {
		return "none is feasible"
	}
	return report.TitleOf(*c) + ", " + present.Money(c.CostHorizon, r.Currency)
}

// verdictText is a direction's verdict in ev: its cost over the horizon
// when feasible, the kinds of constraint that rule it out when not.
func verdictText(ev *evaluation, direction string) string {
	d := ev.r.Direction(direction)
	if d == nil {
		return present.NoValue
	}
	if d.Feasible {
		return "feasible, " + present.Money(d.CostHorizon, ev.r.Currency) + " over " + present.Count(ev.r.HorizonMonths, "month")
	}
	var kinds []string
	if ev.dec != nil {
		if dd := ev.dec.For(direction); dd != nil {
			for _, k := range dd.Kinds() {
				kinds = append(kinds, string(k))
			}
		}
	}
	if len(kinds) == 0 {
		return "ruled out"
	}
	return "ruled out (" + strings.Join(kinds, ", ") + ")"
}

// changedFields lists what differs between a and b: the changes
// scenario.Diff finds, each named by its field's label and unit and
// valued as the Inputs tab writes it. A change inside one input (the low
// end of an estimate, one item of a list of names) is that input's row;
// a change of a whole object (a traffic block added) is a row for each of
// its inputs that differs.
func changedFields(a, b *scenario.Scenario) ([]diffRow, error) {
	changes, err := scenario.Diff(a, b)
	if err != nil {
		return nil, err
	}
	before := map[string]present.Input{}
	for _, in := range present.Inputs(a) {
		before[in.Path] = in
	}
	after := present.Inputs(b)
	afterAt := map[string]present.Input{}
	for _, in := range after {
		afterAt[in.Path] = in
	}
	// Every input path of either revision, b's in file order first.
	var paths []string
	for _, in := range after {
		paths = append(paths, in.Path)
	}
	for _, in := range present.Inputs(a) {
		if _, ok := afterAt[in.Path]; !ok {
			paths = append(paths, in.Path)
		}
	}
	text := func(m map[string]present.Input, path string) string {
		if in, ok := m[path]; ok {
			return in.Text()
		}
		return present.NoValue
	}
	var rows []diffRow
	done := map[string]bool{}
	for _, c := range changes {
		matched := false
		for _, path := range paths {
			if !within(path, c.Path) && !within(c.Path, path) {
				continue
			}
			matched = true
			if done[path] {
				continue
			}
			done[path] = true
			x, y := text(before, path), text(afterAt, path)
			if x == y {
				continue
			}
			in, ok := afterAt[path]
			if !ok {
				in = before[path]
			}
			rows = append(rows, diffRow{label: in.Title(b.Currency), before: x, after: y})
		}
		if !matched && !done[c.Path] {
			done[c.Path] = true
			rows = append(rows, diffRow{label: present.InputName(c.Path), before: rawValue(c.Before), after: rawValue(c.After)})
		}
	}
	return rows, nil
}

// within reports whether path is inner or equal to outer: "a.b[2].c" is
// within "a.b[2]" and "a.b", not within "a.bc".
func within(path, outer string) bool {
	if path == outer {
		return true
	}
	rest, ok := strings.CutPrefix(path, outer)
	return ok && (strings.HasPrefix(rest, ".") || strings.HasPrefix(rest, "["))
}

// rawValue is a value scenario.Diff gives that no input describes: text
// without its quotes, "—" for a field one side lacks.
func rawValue(v string) string {
	if v == scenario.Absent {
		return present.NoValue
	}
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		return v[1 : len(v)-1]
	}
	return v
}
