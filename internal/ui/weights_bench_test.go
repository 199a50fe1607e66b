package ui

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// BenchmarkSliderMoveToRanking measures a slider move to the new ranking
// on screen, over the real model's report of an example: the tap on the
// track, deciding again, the header, decision, weights and highlighted
// rows updated, and the window drawn (the test driver's software painter
// renders the whole 1280 × 800 canvas, more than a GPU frame costs).
// Each move crosses the mark, so every one changes the recommendation.
// "/widgets" stops before the drawing; "/draw-only" draws the window
// without a move, the painter's own share of "/on-screen".
func BenchmarkSliderMoveToRanking(b *testing.B) {
	a := test.NewTempApp(b)
	w := NewWindow(a, newRealBackend(b, "support-assistant-70b", "qlora-legal-70b", "nightly-document-batch"))
	defer w.Close()
	w.Resize(fyne.NewSize(1280, 800))
	p := w.Content().(*planner)
	// The first example with a switch inside a slider's range.
	slider, below, above := -1, 0.0, 0.0
	for i := range p.scenarios.items {
		p.scenarios.list.Select(i)
		idle(p)
		if p.view.current == nil || p.view.current.dec == nil {
			continue
		}
		for j, sw := range p.view.current.dec.Switches() {
			top := p.view.weights.Slider(j).Max
			if s := sw.Above; s != nil && s.At < top*0.9 {
				slider, below, above = j, s.At-top/20, s.At+top/20
			}
			if s := sw.Below; s != nil && s.At > top*0.1 {
				slider, below, above = j, s.At-top/20, s.At+top/20
			}
			if slider >= 0 {
				break
			}
		}
		if slider >= 0 {
			break
		}
	}
	if slider < 0 {
		b.Fatal("no example has a switch inside a slider")
	}
	v := p.view
	wp := v.weights
	move := func(i int) string {
		x := below
		if i%2 == 1 {
			x = above
		}
		tapWeight(wp, slider, x)
		return v.decision.Headline()
	}
	if move(0) == move(1) {
		b.Fatal("the moves do not change the recommendation")
	}
	idle(p)
	b.Run("widgets", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			move(i)
		}
	})
	b.Run("draw-only", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			w.Canvas().Capture()
		}
	})
	b.Run("on-screen", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			move(i)
			w.Canvas().Capture()
		}
	})
	idle(p)
}

// idle waits until no background work of the window is running.
func idle(p *planner) {
	for p.pending() > 0 {
		time.Sleep(time.Millisecond)
	}
}
