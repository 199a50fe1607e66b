package ui

import (
	"fmt"
	"slices"
	"strings"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// How the scenario list narrows and orders what it shows: the search's
// words, the shape and recommendation filters, and the sort.

// clearFilters empties the search and resets the filters, keeping the
// order.
func (s *scenarioList) clearFilters() {
	s.search.SetText("") // applies
	s.shape.SetSelectedIndex(0)
	s.recommend.SetSelectedIndex(0)
}

// sortAll orders every stored scenario by the chosen key, ties in the
// order of the store (by name), and prepares the search keys.
func (s *scenarioList) sortAll() {
	shapeRank := func(sh string) int {
		if i := slices.Index(scenario.Shapes, sh); i >= 0 {
			return i
		}
		return len(scenario.Shapes)
	}
	s.all = slices.Clone(s.loaded)
	switch s.filter.sort {
	case byShape:
		slices.SortStableFunc(s.all, func(a, b Item) int { return shapeRank(a.Shape) - shapeRank(b.Shape) })
	case byRevisions:
		slices.SortStableFunc(s.all, func(a, b Item) int { return b.Revisions - a.Revisions })
	case byChanged:
		slices.SortStableFunc(s.all, func(a, b Item) int { return b.Updated.Compare(a.Updated) })
	}
	s.keys = make([]string, len(s.all))
	for i, it := range s.all {
		s.keys[i] = strings.ToLower(it.Name + " " + it.ID)
	}
}

// apply shows the stored scenarios that pass the search and the filters,
// keeping the chosen row marked when it is still shown. While the
// recommendation filter waits for decisions, it shows the matches among
// the scenarios decided from the top of the order down to the first one
// not decided yet: the decisions arrive in that order, so the rows grow
// at the bottom and none moves under the pointer.
func (s *scenarioList) apply() {
	if s.list == nil || s.status == nil {
		return // still being built
	}
	f := s.filter
	shown := make([]Item, 0, len(s.all))
	s.undecided = 0
	for i, it := range s.all {
		if f.shape != "" && it.Shape != f.shape {
			continue
		}
		if !widgets.HasWords(s.keys[i], f.words) {
			continue
		}
		if f.rec != "" {
			o, ok := s.recs.get(it)
			if !ok {
				break
			}
			if o.err != nil {
				s.undecided++
				continue
			}
			if want := f.rec; (want == recNothing && o.direction != "") || (want != recNothing && o.direction != want) {
				continue
			}
		}
		shown = append(shown, it)
	}
	s.items = shown
	s.hover = -1
	s.list.UnselectAll()
	s.list.Refresh()
	if s.selected != "" && !s.comparing {
		s.markID(s.selected)
	}
	s.status.SetText(s.countText())
}

// recommended redraws the rows and, while filtering by recommendation,
// the rows shown, once a batch of decisions has arrived.
func (s *scenarioList) recommended() {
	if s.filter.rec != "" {
		s.apply()
		return
	}
	s.list.Refresh()
	s.status.SetText(s.countText())
}

// countText is the status line's count: "6 scenarios", "12 of 10,000
// scenarios", and how many are still being decided.
func (s *scenarioList) countText() string {
	total := len(s.all)
	text := present.Count(total, "scenario")
	if len(s.items) != total {
		text = fmt.Sprintf("%s of %s shown", present.Whole(float64(len(s.items))), present.Count(total, "scenario"))
	}
	if s.filter.rec != "" {
		if s.undecided > 0 {
			text += fmt.Sprintf(" · %s %s", present.Whole(float64(s.undecided)), notDecided)
		}
		if n := s.recs.waiting(); n > 0 {
			text += fmt.Sprintf(" · deciding %s more…", present.Whole(float64(n)))
		}
	}
	return text
}
