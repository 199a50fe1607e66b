package form

import (
	"slices"
	"strings"

	"fyne.io/fyne/v2/widget"

	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// The form's problems: text typed that is not a value yet, and the
// problems scenario.Validate or the model report, each shown beneath the
// field (or the group) it belongs to and counted in its section's title;
// and which fields show for the workload's shape.

// setLocal records that the text typed in the field (or list cell) at
// path is not a value yet.
func (f *Form) setLocal(path, problem string) {
	f.local[path] = problem
	f.showProblems()
	if f.onChange != nil {
		f.onChange("", false)
	}
}

// clearLocal forgets a problem with the text typed at path.
func (f *Form) clearLocal(path string) {
	if _, ok := f.local[path]; ok {
		delete(f.local, path)
		f.showProblems()
	}
}

// LocalProblems are the problems with text not yet a value, as field
// errors, in form order.
func (f *Form) LocalProblems() scenario.Errors {
	var out scenario.Errors
	for _, ff := range f.fields {
		if p, ok := f.local[ff.path]; ok {
			out = append(out, scenario.FieldError{Path: ff.path, Problem: p})
		}
	}
	for path, p := range f.local { // cells of lists
		if _, ok := f.byPath[path]; !ok {
			out = append(out, scenario.FieldError{Path: path, Problem: p})
		}
	}
	return out
}

// SetProblems shows the problems of the scenario (from scenario.Validate
// or the model) beneath their fields, with those of text not yet a value.
func (f *Form) SetProblems(errs scenario.Errors) {
	f.shown = map[string][]string{}
	for _, e := range errs {
		at, text := f.target(e)
		if !slices.Contains(f.shown[at], text) { // the model may name a problem twice
			f.shown[at] = append(f.shown[at], text)
		}
	}
	f.showProblems()
}

// target is the path of the field, list or group where problem e shows,
// and its text there.
func (f *Form) target(e scenario.FieldError) (string, string) {
	p := e.Path
	for p != "" {
		if ff, ok := f.byPath[p]; ok {
			text := problemText(e, ff.choice)
			if p != e.Path {
				// A point of an estimate, or an item of a list: say which.
				rest := strings.TrimPrefix(e.Path, p)
				if strings.HasPrefix(rest, "[") {
					text = present.InputName(e.Path) + ": " + text
				} else {
					text = strings.TrimPrefix(rest, ".") + ": " + text
				}
			}
			return p, text
		}
		if _, ok := f.groups[p]; ok {
			return p, problemText(e, false)
		}
		p = parentPath(p)
	}
	return "", present.InputName(e.Path) + ": " + problemText(e, false)
}

// problemText is how a problem reads beneath its field: "Required." or
// "0 is out of range (allowed: a number > 0)". A select already offers
// what is allowed, so its problem does not list it.
func problemText(e scenario.FieldError, choice bool) string {
	text := e.Problem
	if first, _, _ := strings.Cut(text, " "); isWord(first) {
		text = present.Sentence(text) // not a code or a value: "commit_1y has …" stays
	}
	if text == "Is required" {
		text = "Required"
	}
	switch {
	case e.Allowed == "" || choice || e.Allowed == "a non-empty text":
		return text + "."
	case text == "Required":
		return text + ": " + e.Allowed + "."
	}
	return text + " (allowed: " + e.Allowed + ")."
}

// parentPath drops a path's last element: "a.b[2].c" → "a.b[2]" → "a.b".
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}

// showProblems writes the problems beneath their fields and groups.
func (f *Form) showProblems() {
	for _, ff := range f.fields {
		lines := slices.Clone(f.shown[ff.path])
		if p, ok := f.local[ff.path]; ok {
			lines = append([]string{p}, lines...)
		}
		for path, p := range f.local { // cells of a list
			if path != ff.path && strings.HasPrefix(path, ff.path+"[") {
				lines = append(lines, present.InputName(path)+": "+p)
			}
		}
		SetProblemText(ff.problem, lines)
	}
	for path, g := range f.groups {
		if g.problem != nil {
			SetProblemText(g.problem, f.shown[path])
		}
	}
	f.relayout()
}

func SetProblemText(l *widget.Label, lines []string) {
	slices.Sort(lines)
	lines = slices.Compact(lines)
	l.SetText(strings.Join(lines, "\n"))
	widgets.ShowIf(l, len(lines) > 0)
}

// ProblemCount is the number of problems the form shows.
func (f *Form) ProblemCount() int {
	n := len(f.local)
	for _, lines := range f.shown {
		n += len(lines)
	}
	return n
}

// relevant reports whether field ff matters for the workload's shape.
func (f *Form) relevant(ff *Field) bool {
	return present.MattersFor(ff.path, f.s.Workload.Shape)
}

// relayout shows the fields that matter for the workload's shape, with
// any field that holds a value or a problem, hides groups left empty, and
// counts the problems in each section's title.
func (f *Form) relayout() {
	for i, sec := range f.sections {
		for _, g := range sec.groups {
			any := g.problem != nil && g.problem.Visible()
			for _, ff := range g.fields {
				show := f.relevant(ff) || ff.given() || ff.problem.Visible()
				widgets.ShowIf(ff.box, show)
				widgets.ShowIf(ff.label, show)
				any = any || show
			}
			widgets.ShowIf(g.box, any)
		}
		title := sec.title
		if n := f.sectionProblems(i); n > 0 {
			title += "  ·  " + present.Count(n, "problem")
			if sec.item != nil && !sec.item.Open {
				f.accordion.Open(i) // a problem is never out of sight
			}
		}
		if sec.item != nil && sec.item.Title != title {
			sec.item.Title = title
			f.accordion.Refresh()
		}
	}
}

// sectionProblems counts the problems shown in section i.
func (f *Form) sectionProblems(i int) int {
	plan := formPlan[i]
	in := func(path string) bool {
		if plan.path != "" {
			return path == plan.path || strings.HasPrefix(path, plan.path+".") || strings.HasPrefix(path, plan.path+"[")
		}
		for _, name := range plan.fields {
			if path == name || strings.HasPrefix(path, name+".") || strings.HasPrefix(path, name+"[") {
				return true
			}
		}
		return false
	}
	n := 0
	for path, lines := range f.shown {
		if in(path) {
			n += len(lines)
		}
	}
	for path := range f.local {
		if in(path) {
			n++
		}
	}
	return n
}

// isWord reports whether s is a plain lower-case word.
func isWord(s string) bool {
	for _, c := range s {
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}
