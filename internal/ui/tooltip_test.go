package ui

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/widgets"
)

// visit calls f on every visible object drawn under o, widgets' parts
// included.
func visit(o fyne.CanvasObject, f func(fyne.CanvasObject)) {
	if o == nil || !o.Visible() {
		return
	}
	f(o)
	switch x := o.(type) {
	case *fyne.Container:
		for _, k := range x.Objects {
			visit(k, f)
		}
	case fyne.Widget:
		for _, k := range test.WidgetRenderer(x).Objects() {
			visit(k, f)
		}
	}
}

// hoverOn rests the pointer on o, as the desktop driver tells a
// hoverable object, and returns the tip the window then shows.
func hoverOn(p *planner, o desktop.Hoverable) string {
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(o.(fyne.CanvasObject))
	o.MouseIn(&desktop.MouseEvent{PointEvent: fyne.PointEvent{AbsolutePosition: at.Add(fyne.NewPos(4, 4))}})
	defer o.MouseOut()
	return p.tipLayer.ShownTip()
}

// Every button that shows an icon and no words, in every part of the
// window (list, report, form, comparison), says what it does when the
// pointer rests on it.
func TestIconButtonsHaveTips(t *testing.T) {
	widgets.TipDelay = 0
	defer func() { widgets.TipDelay = widgets.DefaultTipDelay }()
	w, p := openWindow(t, newFakeBackend())
	w.Resize(fyne.NewSize(1280, 800))
	openForm(t, p, 0)
	settled(t, p)
	check := func(where string) {
		n := 0
		visit(w.Content(), func(o fyne.CanvasObject) {
			switch b := o.(type) {
			case *widget.Button:
				if b.Text == "" && b.Icon != nil {
					t.Errorf("%s: an icon button with no tip (%s)", where, b.Icon.Name())
				}
			case *widgets.TipButton:
				n++
				if b.Tip == "" {
					t.Errorf("%s: button %q has an empty tip", where, b.Text)
				} else if got := hoverOn(p, b); got != b.Tip {
					t.Errorf("%s: resting on %q shows the tip %q, want %q", where, b.Text, got, b.Tip)
				}
			}
		})
		if n == 0 {
			t.Errorf("%s: no button with a tip", where)
		}
	}
	check("the report with the form")
	test.Tap(p.scenarios.compare)
	settled(t, p)
	check("the comparison")
	if got := p.tipLayer.ShownTip(); got != "" {
		t.Errorf("a tip %q stays after the pointer left", got)
	}
}

// A name cut short in the list shows whole as a tip; a name that fits
// shows none.
func TestLongNameTip(t *testing.T) {
	widgets.TipDelay = 0
	defer func() { widgets.TipDelay = widgets.DefaultTipDelay }()
	b := newFakeBackend()
	long := strings.Repeat("Contract review for the legal department, ", 3) + "#0044"
	b.items[0].Name = long
	w, p := openWindow(t, b)
	w.Resize(fyne.NewSize(1280, 800))
	rows := map[string]*scenarioRow{}
	visit(w.Content(), func(o fyne.CanvasObject) {
		if r, ok := o.(*scenarioRow); ok && r.name.Text != "" {
			rows[r.name.Text] = r
		}
	})
	if r := rows[long]; r == nil {
		t.Fatalf("no row shows the long name; rows %v", fmt.Sprint(len(rows)))
	} else if got := hoverOn(p, r); got != long {
		t.Errorf("resting on the long name shows %q", got)
	}
	short := b.items[1].Name
	if r := rows[short]; r == nil {
		t.Fatalf("no row for %q", short)
	} else if got := hoverOn(p, r); got != "" {
		t.Errorf("a name that fits shows the tip %q", got)
	}
}
