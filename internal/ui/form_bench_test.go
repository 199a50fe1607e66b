//go:build unix

package ui

import (
	"syscall"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"hostplan/internal/present"
)

// waitReport applies what the background work hands back until the edit
// last made is evaluated and its report applied, as the UI goroutine
// would.
func waitReport(b *testing.B, p *planner) {
	for p.pending() > 0 || p.view.live.running {
		time.Sleep(100 * time.Microsecond)
	}
	if p.view.live.form.ProblemCount() > 0 {
		b.Fatalf("the edit has %d problems", p.view.live.form.ProblemCount())
	}
}

// BenchmarkEditToReport measures an edit in the form to its report
// applied on screen, with the application layer over a temporary store
// and the real model (decision, brief, every tab refilled, and the Monte
// Carlo spread of model.DefaultDraws draws): "choice" changes the
// precision in its select (fp8 and bf16 in turn, which move the time, the
// GPU counts and the costs), which evaluates at once, and waits for
// everything, spread included; "choice-report" waits for the report only
// (the figures, decision and table: the spread lands after it, in the
// Uncertainty tab); "typed" types a deadline and presses Enter, which
// evaluates without waiting for the typing pause (without Enter,
// typingPause comes on top); "apply" is the part spent on the UI
// goroutine refilling the tabs from an evaluation already made, the same
// one again, and "apply-changed" from two whose figures differ, in turn.
func BenchmarkEditToReport(b *testing.B) {
	test.NewTempApp(b)
	w := NewWindow(fyne.CurrentApp(), newRealBackend(b, "qlora-legal-70b"))
	defer w.Close()
	w.Resize(fyne.NewSize(1920, 1080))
	p := w.Content().(*planner)
	f := openForm(b, p, 0)

	b.Run("choice-report", func(b *testing.B) {
		sel := field(b, f, "workload.precision").selectOf()
		labels := []string{present.ChoiceLabel("workload.precision", "fp8"), present.ChoiceLabel("workload.precision", "bf16")}
		// No CPU figure: the spread's, drawn outside the time, would count.
		for i := 0; b.Loop(); i++ {
			sel.SetSelected(labels[i%2])
			waitShownReport(b, p)
			b.StopTimer()
			waitReport(b, p) // its spread, outside the time
			b.StartTimer()
		}
	})
	b.Run("choice", func(b *testing.B) {
		sel := field(b, f, "workload.precision").selectOf()
		labels := []string{present.ChoiceLabel("workload.precision", "fp8"), present.ChoiceLabel("workload.precision", "bf16")}
		defer reportCPU(b)()
		for i := 0; b.Loop(); i++ {
			sel.SetSelected(labels[i%2])
			waitReport(b, p)
		}
	})
	b.Run("typed", func(b *testing.B) {
		e := field(b, f, "workload.deadline_hours").entries()[0]
		values := []string{"30", "24"}
		defer reportCPU(b)()
		for i := 0; b.Loop(); i++ {
			b.StopTimer()
			retype(e, values[i%2]) // starts the typing pause, which Enter cuts short
			b.StartTimer()
			e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
			waitReport(b, p)
		}
	})
	b.Run("apply", func(b *testing.B) {
		ev := p.view.current
		defer reportCPU(b)()
		for b.Loop() {
			p.view.liveReport(ev, true)
		}
	})
	b.Run("apply-changed", func(b *testing.B) {
		// Two evaluations whose figures differ (fp8 and bf16), in turn.
		sel := field(b, f, "workload.precision").selectOf()
		var evs [2]*evaluation
		for i, v := range []string{"fp8", "bf16"} {
			sel.SetSelected(present.ChoiceLabel("workload.precision", v))
			waitReport(b, p)
			evs[i] = p.view.current
		}
		defer reportCPU(b)()
		for i := 0; b.Loop(); i++ {
			p.view.liveReport(evs[i%2], true)
		}
	})
}

// waitShownReport applies what the background work hands back until the
// report of the edit last made is on screen — the header, the decision,
// the table and every tab but the Monte Carlo spread, which lands after
// it.
func waitShownReport(b *testing.B, p *planner) {
	for {
		applyArrived()
		if !p.view.live.running {
			break
		}
		time.Sleep(100 * time.Microsecond)
	}
	if p.view.live.form.ProblemCount() > 0 {
		b.Fatalf("the edit has %d problems", p.view.live.form.ProblemCount())
	}
}

// BenchmarkFormBuild measures opening the form on a scenario: building a
// control for every field and laying it out beside the report at
// 1920×1080.
func BenchmarkFormBuild(b *testing.B) {
	test.NewTempApp(b)
	w := NewWindow(fyne.CurrentApp(), newRealBackend(b, "qlora-legal-70b"))
	defer w.Close()
	w.Resize(fyne.NewSize(1920, 1080))
	p := w.Content().(*planner)
	openForm(b, p, 0)
	e := p.view.live
	defer reportCPU(b)()
	for b.Loop() {
		e.buildForm()
		e.scroll.Refresh()
	}
}

// reportCPU reports the CPU time the process spent per operation (all
// goroutines: the evaluation's and the UI's), which unlike the time per
// operation does not grow when other processes share the machine. Call
// the function it returns when the loop is done.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		if b.N > 0 {
			b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
