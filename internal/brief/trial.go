package brief

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"hostplan/internal/decide"
	"hostplan/internal/model"
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
	title := decide.Title(t.Direction)
	sample := fmt.Sprintf("a sample of %s GB", num(t.SampleGB))
	if t.SampleFiles > 0 {
		sample += fmt.Sprintf(" (about %s files)", model.Grouped(float64(t.SampleFiles)))
	}
	if t.GPU == "" {
		return fmt.Sprintf("Request about %s h on %s with %s, no GPUs reserved.", num(t.Hours), title, sample)
	}
	hours := fmt.Sprintf("for about %s h and %s GPU-hours (%.1f %% of one full run), with %s", num(t.Hours), num(t.GPUHours), t.ShareOfRun*100, sample)
	top := t.GPUs
	if len(t.GPUCounts) > 0 {
		top = slices.Max(t.GPUCounts) // slices.Max panics on none
	}
	switch {
	case win != nil && win.Serving != nil:
		return fmt.Sprintf("Request one replica, %d × %s, on %s under a load test %s.", t.GPUs, t.GPU, title, hours)
	case len(t.GPUCounts) > 1:
		return fmt.Sprintf("Request up to %d × %s on %s, measuring throughput on %s GPUs (%d is the smallest count that fits), %s.",
			top, t.GPU, title, andList(t.GPUCounts), t.GPUs, hours)
	default:
		return fmt.Sprintf("Request %d × %s on %s (the smallest count that fits) %s.", t.GPUs, t.GPU, title, hours)
	}
}

func andList(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = strconv.Itoa(x)
	}
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
