package brief

import (
	"fmt"
	"slices"
	"strconv"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
)

// The first trial to request (decide.Trial): what to ask for, how it was
// sized, what it answers and what it must record.

func (w *writer) trial() {
	t := w.d.FirstTrial
	w.section(2, "First trial to request")
	if t == nil {
		w.para(txt(plain("None yet: no direction is feasible.")))
		return
	}
	w.para(txt(plain(trialSentence(t, w.win))))
	record := item(plain("It must record:"))
	for _, e := range t.Evidence {
		record.Items = append(record.Items, item(plain(inline(e))))
	}
	w.list(item(plain("Sizing: "+t.Basis+".")), item(plain("It answers: "+t.Answers)), record)
}

// trialSentence says what to request.
func trialSentence(t *decide.Trial, win *model.DirectionResult) string {
	title := present.DirectionTitle(t.Direction)
	sample := fmt.Sprintf("a sample of %s GB", present.Figure(t.SampleGB))
	if t.SampleFiles > 0 {
		sample += " (about " + present.Count(t.SampleFiles, "file") + ")"
	}
	if t.GPU == "" {
		return fmt.Sprintf("Request about %s h on %s with %s, no GPUs reserved.", present.Figure(t.Hours), title, sample)
	}
	hours := fmt.Sprintf("for about %s h and %s GPU-hours (%s of one full run), with %s", present.Figure(t.Hours), present.Figure(t.GPUHours), present.PercentFixed(t.ShareOfRun, 1), sample)
	top := t.GPUs
	if len(t.GPUCounts) > 0 {
		top = slices.Max(t.GPUCounts) // slices.Max panics on none
	}
	switch {
	case win != nil && win.Serving != nil:
		return fmt.Sprintf("Request one replica, %s, on %s under a load test %s.", present.GPUs(t.GPU, t.GPUs), title, hours)
	case len(t.GPUCounts) > 1:
		return fmt.Sprintf("Request up to %s on %s, measuring throughput on %s GPUs (%d is the smallest count that fits), %s.",
			present.GPUs(t.GPU, top), title, andList(t.GPUCounts), t.GPUs, hours)
	default:
		return fmt.Sprintf("Request %s on %s (the smallest count that fits) %s.", present.GPUs(t.GPU, t.GPUs), title, hours)
	}
}

// andList lists GPU counts as a sentence does: "1, 2 and 4".
func andList(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	return present.And(s...)
}
