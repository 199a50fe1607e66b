package ui

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/widgets"
)

// The report table keeps inside the pane whatever else is open: at
// 1920 × 1080 it is a table with "Why not" as its last column; at
// 1280 × 800 and 1024 × 768 with the form open, no label of it reaches
// past the pane's right edge ("Why not" wraps in the visible width), and
// no row is taller than its own text (the cards' figures show instead of
// the columns).
func TestReportTableFitsThePane(t *testing.T) {
	w, p := openWindow(t, newRealBackend(t, "foundation-7b-pretraining"))
	for _, tc := range []struct {
		size  fyne.Size
		form  bool
		cards bool
	}{
		{fyne.NewSize(1920, 1080), false, false},
		{fyne.NewSize(1280, 800), false, false},
		{fyne.NewSize(1920, 1080), true, false},
		{fyne.NewSize(1280, 800), true, true},
		{fyne.NewSize(1024, 768), true, true},
		{fyne.NewSize(1024, 768), false, true},
	} {
		w.Resize(tc.size)
		if tc.form {
			openForm(t, p, 0)
		} else {
			p.scenarios.list.Select(0)
			waitFor(t, p.view, stateReady)
			if p.view.live.open {
				test.Tap(p.view.live.toggle)
			}
		}
		settled(t, p)
		v := p.view
		if got := v.report.Cards(); got != tc.cards {
			t.Errorf("%v, form %v: cards %v, want %v", tc.size, tc.form, got, tc.cards)
		}
		d := fyne.CurrentApp().Driver()
		right := d.AbsolutePositionForObject(v.reportScroll).X + v.reportScroll.Size().Width
		for _, row := range v.report.Rows() {
			for _, l := range append(row.Cells, row.Card[:]...) {
				if !l.Visible() || l.Text == "" {
					continue
				}
				if end := d.AbsolutePositionForObject(l).X + l.Size().Width; end > right+1 {
					t.Errorf("%v, form %v: %q ends at %v, past the pane's edge at %v", tc.size, tc.form, l.Text, end, right)
				}
			}
		}
		if v.reportScroll.Content.Size().Width > v.reportScroll.Size().Width+1 {
			t.Errorf("%v, form %v: the page is %v wide in a pane of %v: it scrolls sideways", tc.size, tc.form,
				v.reportScroll.Content.Size().Width, v.reportScroll.Size().Width)
		}
	}
}

// squeezed lists the visible labels under o that neither wrap nor cut
// their text with an ellipsis and are narrower than their text: their
// text runs over what is beside them.
func squeezed(o fyne.CanvasObject) []string {
	var out []string
	visit(o, func(o fyne.CanvasObject) {
		l, ok := o.(*widget.Label)
		if !ok || l.Text == "" || l.Wrapping != fyne.TextWrapOff || l.Truncation != fyne.TextTruncateOff {
			return
		}
		if need := widgets.LabelWidth(l, false); need > l.Size().Width+1 {
			out = append(out, fmt.Sprintf("%q needs %.0f, has %.0f", l.Text, need, l.Size().Width))
		}
	})
	return out
}

// No heading or label runs over its neighbour: at 1280 × 800 and
// 1024 × 768 with the form and the weights open, every label that does
// not wrap has the width of its text.
func TestNoLabelRunsOver(t *testing.T) {
	w, p := openWindow(t, newRealBackend(t, "qlora-legal-70b", "support-assistant-70b", "nightly-document-batch"))
	for _, size := range []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 768}} {
		w.Resize(size)
		openForm(t, p, 0)
		if !p.view.weights.Open() {
			test.Tap(p.view.weights.ToggleButton())
		}
		settled(t, p)
		for _, s := range squeezed(w.Content()) {
			t.Errorf("%v, the form open: %s", size, s)
		}
		p.setComparing(true)
		for _, it := range p.scenarios.items {
			if !p.compare.isTicked(it.ID) {
				p.tick(it)
			}
		}
		settle(t, p)
		for _, s := range squeezed(w.Content()) {
			t.Errorf("%v, comparing: %s", size, s)
		}
		p.toggleReview()
		for _, s := range squeezed(w.Content()) {
			t.Errorf("%v, in review: %s", size, s)
		}
		p.toggleReview()
		p.setComparing(false)
	}
}
