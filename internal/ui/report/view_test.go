package report

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// The tabs' tests show a view as the window does: in a window of the
// pane's size, the rows of the direction the decision recommends in bold.

// paneSize is about the size of the window's right pane, beside the
// list, in a window of 1200 × 800: the size the tabs are drawn at.
var paneSize = fyne.NewSize(900, 700)

// showIn puts content in a window of the pane's size, as the window's
// tabs are shown.
func showIn(t *testing.T, content fyne.CanvasObject) fyne.Window {
	t.Helper()
	w := test.NewTempWindow(t, content)
	w.Resize(paneSize)
	return w
}

// recommended is the direction the decision on s and r recommends, which
// the window highlights in every table; "" when there is none.
func recommended(t *testing.T, s *scenario.Scenario, r *model.Report) string {
	t.Helper()
	d, err := decide.Decide(s, r)
	if err != nil {
		return ""
	}
	return d.Recommendation
}
