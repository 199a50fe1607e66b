package ui

// What the package's tests reach inside the window, compiled only with
// them: a stand-in for the UI goroutine, and readers of what the widgets
// show. No production type keeps anything for the tests' sake.

import (
	"strings"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/report"
	"hostplan/internal/ui/uitest"
)

// The test driver runs fyne.Do at once on the goroutine that calls it, so
// work finished in the background would change widgets while a test reads
// or taps them. The tests play the UI goroutine instead: inBackground
// queues what the work hands back, and the test goroutine applies it
// whenever it asks how far the window has got (pending, currentState), as
// the UI goroutine applies fyne.Do's functions between events. Every
// widget is then touched by one goroutine only, as in the application.
var uiLoop struct {
	sync.Mutex
	arrived  []func() // outcomes waiting to be applied, in order of arrival
	inFlight int      // work started whose outcome is not applied yet
}

func init() {
	draftPause = 0 // a draft is written at once, as background work the tests wait for
	inBackground = func(work func() func()) {
		uiLoop.Lock()
		uiLoop.inFlight++
		uiLoop.Unlock()
		go func() {
			apply := work()
			uiLoop.Lock()
			uiLoop.arrived = append(uiLoop.arrived, apply)
			uiLoop.Unlock()
		}()
	}
}

// applyArrived applies, on the calling goroutine, the outcome of every
// piece of background work that has finished, including work that those
// outcomes start and that finishes meanwhile.
func applyArrived() {
	for {
		uiLoop.Lock()
		next := uiLoop.arrived
		uiLoop.arrived = nil
		uiLoop.Unlock()
		if len(next) == 0 {
			return
		}
		for _, apply := range next {
			apply()
			uiLoop.Lock()
			uiLoop.inFlight--
			uiLoop.Unlock()
		}
	}
}

// pending applies what has arrived and reports how many pieces of work
// (evaluations, saves) are still running.
func (p *planner) pending() int {
	applyArrived()
	uiLoop.Lock()
	defer uiLoop.Unlock()
	return uiLoop.inFlight
}

// viewState is what the right pane shows.
type viewState int

const (
	stateEmpty   viewState = iota // nothing chosen yet
	stateLoading                  // loading and evaluating the chosen scenario
	stateReady                    // showing a report
	stateFailed                   // showing why the scenario could not be shown
)

// currentState applies what has arrived and tells from the widgets what
// the pane shows.
func (v *scenarioView) currentState() viewState {
	applyArrived()
	switch {
	case v.body.Visible():
		return stateReady
	case v.message.Importance == widget.DangerImportance:
		return stateFailed
	case strings.HasPrefix(v.message.Text, "Evaluating"):
		return stateLoading
	}
	return stateEmpty
}

// editor is the JSON editor open over the window, nil when none is.
func (p *planner) editor() *jsonEditor {
	e, _ := uitest.Find(p.window.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool {
		_, ok := o.(*jsonEditor)
		return ok
	}).(*jsonEditor)
	return e
}

// problemsShown is the list of problems in the dialog on top of the
// window (its monospaced label), nil when there is none.
func (p *planner) problemsShown() *widget.Label {
	l, _ := uitest.Find(p.window.Canvas().Overlays().Top(), func(o fyne.CanvasObject) bool {
		l, ok := o.(*widget.Label)
		return ok && l.TextStyle.Monospace
	}).(*widget.Label)
	return l
}

// drawnCells are the report table's rows as its labels show them.
func drawnCells(t *report.Table) [][]string {
	var rows [][]string
	for _, r := range t.Rows() {
		row := make([]string, len(r.Cells))
		for col, l := range r.Cells {
			row[col] = l.Text
		}
		rows = append(rows, row)
	}
	return rows
}
