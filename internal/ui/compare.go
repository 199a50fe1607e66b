package ui

import (
	"context"
	"slices"
	"sync"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// maxCompared is how many scenarios the comparison shows side by side: as
// many as fit one screen with their reasons readable.
const maxCompared = 3

// compareView is the leadership view: two or three scenarios ticked in the
// list, side by side, one column each, the same facts on the same row —
// what is recommended, what it costs over the horizon (P10–P90 when the
// Monte Carlo ran), how long a run takes, the cheapest feasible direction,
// whether the recommendation is fragile, and the first trial to ask for.
// Each scenario is evaluated off the UI goroutine and kept until it
// changes.
type compareView struct {
	backend Backend

	ticked  []Item                   // in the order ticked
	refused string                   // the name of a scenario a fourth tick asked for
	cache   map[string]*compareEntry // by scenario id

	// work lets one evaluation run at a time: the model's Monte Carlo
	// already uses every core, and their results arrive one by one.
	work sync.Mutex

	hint *widget.Label // how to use it, or why a tick was refused
	// export writes the comparison workbook and charts the charts of the
	// compared scenarios (export_actions.go); the planner shows them.
	export, charts *widgets.TipButton
	grid           *fyne.Container
	scroll         *container.Scroll
	content        fyne.CanvasObject
}

// compareEntry is one scenario's evaluation for the comparison.
type compareEntry struct {
	revisions int // the revision evaluated; a later one is evaluated again
	ev        *evaluation
	err       error
	done      bool
}

func newCompareView(b Backend) *compareView {
	v := &compareView{backend: b, cache: map[string]*compareEntry{}}
	heading := widget.NewLabel("Compare scenarios")
	heading.TextStyle.Bold = true
	heading.SizeName = theme.SizeNameSubHeadingText
	v.hint = widget.NewLabel("")
	v.hint.Wrapping = fyne.TextWrapWord
	v.export = widgets.NewTipButton("Export workbook…", theme.DocumentSaveIcon(), "One workbook of the compared scenarios, a column each (Ctrl+E)", nil)
	v.charts = widgets.NewTipButton("Save charts…", theme.FileImageIcon(), "The compared scenarios' charts as PNG and SVG files", nil)
	v.export.Hide()
	v.charts.Hide()
	// The row headings, then one column per scenario ticked, sharing the
	// rest of the width; redraw sets the count.
	v.grid = container.New(widgets.NewFillGridLayout(1, 1, minCompareColumn))
	v.scroll = container.NewVScroll(v.grid)
	top := container.NewBorder(nil, nil, nil, container.NewHBox(v.export, v.charts), heading)
	v.content = container.NewBorder(container.NewVBox(top, v.hint), nil, nil, nil, v.scroll)
	v.refresh()
	return v
}

// isTicked reports whether scenario id is in the comparison.
func (v *compareView) isTicked(id string) bool {
	return slices.ContainsFunc(v.ticked, func(it Item) bool { return it.ID == id })
}

// toggle ticks or unticks it, or refuses a fourth tick with a word why;
// refresh shows the result.
func (v *compareView) toggle(it Item) {
	if i := slices.IndexFunc(v.ticked, func(x Item) bool { return x.ID == it.ID }); i >= 0 {
		v.ticked = slices.Delete(v.ticked, i, i+1)
		v.refused = ""
		return
	}
	if len(v.ticked) >= maxCompared {
		v.refused = itemName(it)
		return
	}
	v.ticked = append(v.ticked, it)
	v.refused = ""
}

// sync follows the list after a reload: a ticked scenario that is gone is
// dropped, and one with a new revision is evaluated again.
func (v *compareView) sync(items []Item) {
	var kept []Item
	for _, t := range v.ticked {
		if i := slices.IndexFunc(items, func(x Item) bool { return x.ID == t.ID }); i >= 0 {
			kept = append(kept, items[i])
		}
	}
	v.ticked = kept
	v.refresh()
}

// refresh redraws and evaluates what is ticked and not yet evaluated. The
// redraw comes first: nothing on the UI goroutine follows the start of
// an evaluation.
func (v *compareView) refresh() {
	var todo []Item
	for _, it := range v.ticked {
		if e, ok := v.cache[it.ID]; ok && e.revisions == it.Revisions {
			continue
		}
		v.cache[it.ID] = &compareEntry{revisions: it.Revisions}
		todo = append(todo, it)
	}
	v.redraw()
	v.refused = ""
	b := v.backend
	for _, it := range todo {
		e := v.cache[it.ID]
		inBackground(func() func() {
			v.work.Lock()
			defer v.work.Unlock()
			ev, err := evaluateItem(context.Background(), b, it, true)
			return func() {
				e.ev, e.err, e.done = ev, err, true
				if v.cache[it.ID] == e && v.isTicked(it.ID) {
					v.redraw()
				}
			}
		})
	}
}

// evaluated reports whether every ticked scenario is evaluated.
func (v *compareView) evaluated() bool {
	for _, it := range v.ticked {
		if e := v.cache[it.ID]; e == nil || !e.done || e.ev == nil {
			return false
		}
	}
	return true
}

// basis is what the evaluated scenarios ticked are compared on.
func (v *compareView) basis() *report.SideBasis {
	var evs []*evaluation
	for _, it := range v.ticked {
		if e := v.cache[it.ID]; e != nil && e.done && e.ev != nil {
			evs = append(evs, e.ev)
		}
	}
	return report.NewSideBasis(outcomes(evs))
}

// column builds one scenario's cells, one per row of report.CompareRows, on
// basis.
func (v *compareView) column(it Item, basis *report.SideBasis) []fyne.CanvasObject {
	cells := make([]fyne.CanvasObject, len(report.CompareRows))
	name := widgets.WrappedLabel(itemName(it))
	name.TextStyle.Bold = true
	e := v.cache[it.ID]
	switch {
	case e == nil || !e.done:
		cells[0] = widgets.Stack(name, widgets.WrappedLabel("Evaluating…"))
	case e.err != nil:
		msg := widgets.WrappedLabel(present.Sentence(e.err.Error()))
		msg.Importance = widget.DangerImportance
		cells[0] = widgets.Stack(name, msg)
	default:
		return report.CompareCells(e.ev.outcome(), basis)
	}
	for i := 1; i < len(cells); i++ {
		cells[i] = widgets.WrappedLabel("")
	}
	return cells
}

// minCompareColumn is the narrowest a scenario's column gets.
const minCompareColumn = 160

// redraw rebuilds the columns from the cache.
func (v *compareView) redraw() {
	v.hint.Importance = widget.MediumImportance
	switch len(v.ticked) {
	case maxCompared:
		if v.refused != "" {
			v.hint.Importance = widget.DangerImportance
			v.hint.SetText("At most " + report.Whole(maxCompared) + " scenarios fit side by side: untick one before adding “" + v.refused + "”.")
			break
		}
		fallthrough
	default:
		v.hint.SetText("Each column is one scenario; the figures are for its recommended direction unless the row says otherwise.")
	case 0:
		v.hint.SetText("Tick two or three scenarios in the list on the left to see them side by side.")
	case 1:
		v.hint.SetText("Tick one or two more scenarios to compare with it.")
	}
	var objects []fyne.CanvasObject
	if len(v.ticked) > 0 {
		basis := v.basis()
		if note := basis.Note(); note != "" {
			v.hint.SetText(v.hint.Text + " " + note)
		}
		cols := make([][]fyne.CanvasObject, len(v.ticked))
		for i, it := range v.ticked {
			cols[i] = v.column(it, basis)
		}
		for r, heading := range report.CompareRows {
			l := widget.NewLabel(heading)
			l.TextStyle.Bold = true
			objects = append(objects, l)
			for _, col := range cols {
				objects = append(objects, col[r])
			}
		}
		for range len(report.CompareRows) - 1 {
			objects = append(objects, widget.NewSeparator())
		}
	}
	widgets.EnableIf(v.export, len(v.ticked) >= 2)
	widgets.EnableIf(v.charts, len(v.ticked) > 0 && v.evaluated())
	v.grid.Layout.(*widgets.GridLayout).Cols = len(v.ticked) + 1
	v.grid.Objects = objects
	v.grid.Refresh()
}
