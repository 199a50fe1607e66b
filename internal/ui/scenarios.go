package ui

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// scenarioList is the left pane: the scenarios in the store, one per row,
// with their workload shape, recommendation and revision count underneath.
// A search field and three selects narrow and order them (name, workload
// shape, recommended direction; sorted by name, shape, revisions or the
// last change); a status line at the bottom says how many are shown, or
// the whole name of the row under the pointer.
type scenarioList struct {
	backend  Backend
	onSelect func(Item)
	onImport func() // the Import… button
	onNew    func() // the New… button

	// In compare mode each row has a tick box, and choosing a row ticks
	// or unticks it instead of showing it.
	comparing bool
	isTicked  func(id string) bool
	onTick    func(it Item) // ticks or unticks, and redraws the boxes
	onCompare func(on bool) // the Compare button
	onReload  func([]Item)  // after every reload, with every stored item
	quiet     bool          // a selection that only marks a row
	compare   *widgets.TipButton

	// The actions of a row's menu, set by the planner; nil leaves the
	// action out.
	onRename, onHistory, onExport, onDelete func(Item)

	loaded   []Item   // every stored scenario, in the store's order (by name)
	all      []Item   // the same in the chosen order
	keys     []string // lower-cased name and id of all[i], for the search
	items    []Item   // the rows shown: all, filtered
	filter   listFilter
	selected string // the id of the chosen row, "" for none
	hover    int    // the row under the pointer, -1 for none
	recs     *recommendations
	// undecided counts the scenarios the recommendation filter passed
	// over because they could not be decided.
	undecided int

	list      *keyList
	search    *searchEntry
	shape     *widgets.KeySelect
	recommend *widgets.KeySelect
	order     *widgets.KeySelect
	message   *widget.Label // shown instead of the list when it is empty or unreadable
	notice    *widget.Label // what the last action did
	undo      *widgets.TipButton
	undoFunc  func()
	status    *widget.Label // how many rows are shown, or the hovered row's name
	content   fyne.CanvasObject
}

// listFilter is what narrows and orders the list.
type listFilter struct {
	words []string // lower-cased; each must be in the name or id
	shape string   // "" for any
	rec   string   // "" for any, a direction, or recNothing
	sort  sortKey
}

// recNothing filters the scenarios for which no direction is feasible.
const recNothing = "-"

type sortKey int

const (
	byName sortKey = iota
	byShape
	byRevisions
	byChanged
)

var sortLabels = []string{"Sort: name", "Sort: shape", "Sort: most revisions", "Sort: last changed"}

const (
	allShapes    = "All shapes"
	anyRecommend = "Recommended: any direction"
	nothingLabel = "Nothing feasible"
	notDecided   = "not decided"
	recPrefix    = "Recommended: "
)

func newScenarioList(b Backend, onSelect func(Item)) *scenarioList {
	s := &scenarioList{backend: b, onSelect: onSelect, hover: -1}

	s.list = newKeyList(s)
	s.list.Length = func() int { return len(s.items) }
	s.list.CreateItem = func() fyne.CanvasObject { return newScenarioRow(s) }
	s.list.UpdateItem = func(id widget.ListItemID, o fyne.CanvasObject) {
		if id < 0 || id >= len(s.items) {
			return
		}
		it := s.items[id]
		row := o.(*scenarioRow)
		row.index = id
		row.showHover(id == s.hover)
		row.name.SetText(itemName(it))
		row.detail.SetText(s.detail(it))
		row.tick.OnChanged = nil // the row is reused: set the box without ticking
		row.tick.SetChecked(s.comparing && s.isTicked != nil && s.isTicked(it.ID))
		row.tick.OnChanged = func(bool) { s.tick(it) }
		row.showTick(s.comparing)
		s.recs.want([]Item{it}, true)
	}
	s.list.OnSelected = func(id widget.ListItemID) {
		if id < 0 || id >= len(s.items) {
			return
		}
		if s.comparing {
			s.list.Unselect(id)
			s.tick(s.items[id])
			return
		}
		s.selected = s.items[id].ID
		if !s.quiet && s.onSelect != nil {
			s.onSelect(s.items[id])
		}
	}

	s.message = widget.NewLabel("")
	s.message.Wrapping = fyne.TextWrapWord
	s.message.Hide()

	heading := widget.NewLabel("Scenarios")
	heading.TextStyle.Bold = true
	reload := widgets.NewTipButton("", theme.ViewRefreshIcon(), "Read the list again from the store (another hostplan may have saved)", s.reload)
	reload.Importance = widget.LowImportance

	importButton := widgets.NewTipButton("Import…", theme.FolderOpenIcon(), "Import a scenario file (Ctrl+O)", func() {
		if s.onImport != nil {
			s.onImport()
		}
	})
	importButton.Importance = widget.LowImportance
	newButton := widgets.NewTipButton("New…", theme.ContentAddIcon(), "A new scenario from a template (Ctrl+N)", func() {
		if s.onNew != nil {
			s.onNew()
		}
	})
	newButton.Importance = widget.LowImportance
	s.notice = widget.NewLabel("")
	s.notice.Importance = widget.SuccessImportance
	s.undo = widgets.NewTipButton("Undo", theme.ContentUndoIcon(), "Undo what the message says", func() {
		if f := s.undoFunc; f != nil {
			s.undoFunc = nil
			s.undo.Hide()
			f()
		}
	})
	s.undo.Hide()

	s.compare = widgets.NewTipButton("Compare", theme.ViewRestoreIcon(), "Tick two or three scenarios to see them side by side", func() {
		if s.onCompare != nil {
			s.onCompare(!s.comparing)
		}
	})
	s.compare.Importance = widget.LowImportance

	s.search = newSearchEntry(s)
	s.search.SetPlaceHolder("Search names (Ctrl+F)")
	s.search.OnChanged = func(text string) {
		s.filter.words = strings.Fields(strings.ToLower(text))
		s.apply()
	}
	s.search.OnSubmitted = func(string) { s.chooseAt(0) }

	shapes := []string{allShapes}
	for _, sh := range scenario.Shapes {
		shapes = append(shapes, present.ShapeTitle(sh))
	}
	s.shape = widgets.NewKeySelect(shapes, func(v string) {
		s.filter.shape = ""
		for _, sh := range scenario.Shapes {
			if present.ShapeTitle(sh) == v {
				s.filter.shape = sh
			}
		}
		s.apply()
	})
	s.shape.SetSelectedIndex(0)

	s.order = widgets.NewKeySelect(sortLabels, func(v string) {
		s.filter.sort = sortKey(max(0, slices.Index(sortLabels, v)))
		s.sortAll()
		s.apply()
	})
	s.order.SetSelectedIndex(0)

	filters := container.NewVBox(container.NewGridWithColumns(2, s.shape, s.order))
	s.recs = newRecommendations(b, s.recommended)
	options := []string{anyRecommend}
	for _, d := range scenario.Directions {
		options = append(options, recPrefix+present.DirectionTitle(d))
	}
	options = append(options, recPrefix+"none, "+present.Lower(nothingLabel))
	s.recommend = widgets.NewKeySelect(options, func(string) {
		s.filter.rec = ""
		switch i := s.recommend.SelectedIndex(); {
		case i == len(scenario.Directions)+1:
			s.filter.rec = recNothing
		case i >= 1:
			s.filter.rec = scenario.Directions[i-1]
		}
		if s.filter.rec != "" {
			s.recs.want(s.all, false)
		}
		s.apply()
	})
	s.recommend.SetSelectedIndex(0)
	filters.Add(s.recommend)

	s.status = widget.NewLabel("")
	s.status.SizeName = theme.SizeNameCaptionText
	s.status.Truncation = fyne.TextTruncateEllipsis

	// The actions sit on a row of their own so the pane keeps its width.
	actions := container.NewHBox(newButton, importButton, s.compare)
	top := container.NewVBox(
		container.NewBorder(nil, nil, nil, reload, heading),
		actions,
		s.search,
		filters,
	)
	// What the last action did, with Undo, under the list in room of its
	// own: a message never moves the rows under the pointer.
	bottom := container.New(&widgets.TightVBox{}, widgets.NewStatusLine(s.notice, 2, s.undo), s.status)
	s.content = container.NewBorder(top, bottom, nil, nil,
		container.NewStack(s.list, container.NewVBox(s.message)))
	return s
}

// detail is the row's second line: "Fine-tuning · Hybrid · 3 revisions",
// the recommendation once it is known ("not decided" when it could not
// be).
func (s *scenarioList) detail(it Item) string {
	o, ok := s.recs.get(it)
	switch {
	case !ok:
		return itemDetail(it)
	case o.err != nil:
		return notDecidedDetail(it)
	}
	return recommendedDetail(it, o.direction)
}

// tick ticks or unticks a row in compare mode.
func (s *scenarioList) tick(it Item) {
	if s.onTick != nil {
		s.onTick(it)
	}
}

// setComparing switches the tick boxes on or off.
func (s *scenarioList) setComparing(on bool) {
	s.comparing = on
	s.list.UnselectAll()
	if on {
		s.compare.SetText("Done")
		s.compare.Importance = widget.HighImportance
	} else {
		s.compare.SetText("Compare")
		s.compare.Importance = widget.LowImportance
	}
	s.compare.Refresh()
	s.list.Refresh()
}

// notify shows what the last action did above the list.
func (s *scenarioList) notify(text string) {
	s.undoFunc = nil
	s.undo.Hide()
	s.notice.SetText(text)
}

// notifyUndo shows what the last action did with an Undo button that
// calls undo once.
func (s *scenarioList) notifyUndo(text string, undo func()) {
	s.notify(text)
	s.undoFunc = undo
	s.undo.Show()
}

// item returns the stored scenario with id, shown or not.
func (s *scenarioList) item(id string) (Item, bool) {
	for _, it := range s.all {
		if it.ID == id {
			return it, true
		}
	}
	return Item{}, false
}

// has reports whether a stored scenario has id.
func (s *scenarioList) has(id string) bool {
	_, ok := s.item(id)
	return ok
}

// indexOf is the row of scenario id, -1 when it is not shown.
func (s *scenarioList) indexOf(id string) int {
	return slices.IndexFunc(s.items, func(it Item) bool { return it.ID == id })
}

// markID selects the row of scenario id without choosing it again.
func (s *scenarioList) markID(id string) {
	if i := s.indexOf(id); i >= 0 {
		s.quiet = true
		s.list.Select(i)
		s.quiet = false
	}
}

// selectID chooses the scenario with id, which shows it; false when the
// store has no such scenario. A scenario the search or the filters hide
// is shown by clearing them.
func (s *scenarioList) selectID(id string) bool {
	if s.indexOf(id) < 0 && s.has(id) {
		s.clearFilters()
	}
	i := s.indexOf(id)
	if i < 0 {
		return false
	}
	s.list.ScrollTo(i)
	s.list.Select(i) // last: it starts the evaluation
	return true
}

// chooseAt chooses row i, as a tap on it would.
func (s *scenarioList) chooseAt(i int) {
	if i < 0 || i >= len(s.items) {
		return
	}
	s.list.ScrollTo(i)
	s.list.Select(i)
}

// tapped chooses row i and gives the list the keyboard.
func (s *scenarioList) tapped(i widget.ListItemID) {
	if c := fyne.CurrentApp().Driver().CanvasForObject(s.list); c != nil {
		c.Focus(s.list)
	}
	s.list.Select(i)
}

// hovered writes the whole name and detail of row i in the status line;
// -1 gives it back to the count.
func (s *scenarioList) hovered(i widget.ListItemID) {
	// One row at a time is drawn hovered, even when the pointer left a
	// row without saying so (a dialog opened over it).
	if prev := s.hover; prev != i {
		s.hover = i
		if prev >= 0 {
			s.list.RefreshItem(prev)
		}
		if i >= 0 {
			s.list.RefreshItem(i)
		}
	}
	if i < 0 || i >= len(s.items) {
		s.status.SetText(s.countText())
		return
	}
	it := s.items[i]
	text := itemName(it) + " — " + s.detail(it)
	if o, ok := s.recs.get(it); ok && o.err != nil {
		text += ": " + o.err.Error()
	}
	s.status.SetText(text)
}

// focusSearch puts the keyboard in the search field and selects its text.
func (s *scenarioList) focusSearch() {
	if c := fyne.CurrentApp().Driver().CanvasForObject(s.search); c != nil {
		c.Focus(s.search)
	}
	s.search.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// reload reads the scenarios from the store again. A failure is shown in
// place of the list.
func (s *scenarioList) reload() {
	items, err := s.backend.List()
	switch {
	case err != nil:
		s.loaded = nil
		s.showMessage(fmt.Sprintf("Could not read the scenarios: %v", err), widget.DangerImportance)
	case len(items) == 0:
		s.loaded = nil
		s.showMessage("No scenarios in the store yet.", widget.MediumImportance)
	default:
		s.loaded = items
		s.message.Hide()
	}
	s.sortAll()
	if s.filter.rec != "" {
		s.recs.want(s.all, false)
	}
	s.list.UnselectAll()
	s.selected = ""
	s.apply()
	if s.onReload != nil {
		s.onReload(s.all)
	}
}

func (s *scenarioList) showMessage(text string, imp widget.Importance) {
	s.message.Importance = imp
	s.message.SetText(text)
	s.message.Show()
}

// rowMenu opens the menu of row i at pos: the actions the planner set.
func (s *scenarioList) rowMenu(i widget.ListItemID, pos fyne.Position) {
	if i < 0 || i >= len(s.items) {
		return
	}
	it := s.items[i]
	var entries []*fyne.MenuItem
	add := func(label string, f func(Item)) {
		if f != nil {
			entries = append(entries, fyne.NewMenuItem(label, func() { f(it) }))
		}
	}
	add("Rename…", s.onRename)
	add("History…", s.onHistory)
	add("Export workbook…", s.onExport)
	if s.onDelete != nil {
		entries = append(entries, fyne.NewMenuItemSeparator())
		add("Delete", s.onDelete)
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(s.list)
	if len(entries) == 0 || c == nil {
		return
	}
	widget.ShowPopUpMenuAtPosition(fyne.NewMenu("", entries...), c, pos)
}

// moveSelection chooses the row step rows from the chosen one (the first
// row when none is chosen).
func (s *scenarioList) moveSelection(step int) {
	i := s.indexOf(s.selected)
	switch {
	case i < 0:
		i = 0
	default:
		i = min(max(i+step, 0), len(s.items)-1)
	}
	s.chooseAt(i)
}

// chosen is the chosen row's scenario.
func (s *scenarioList) chosen() (Item, bool) {
	if i := s.indexOf(s.selected); i >= 0 {
		return s.items[i], true
	}
	return Item{}, false
}
