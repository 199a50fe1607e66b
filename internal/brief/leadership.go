package brief

import (
	"fmt"
	"strings"

	"hostplan/internal/decide"
	"hostplan/internal/document"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// The leadership questions, each answered in a paragraph whose first line
// is the question: the lifecycle gate, the likely bottleneck, why the
// direction is proportionate, whether the environment can be reproduced,
// and what the first run will prove.

func (w *writer) leadership() {
	d, s := w.d, w.s
	w.section(2, "Leadership questions")

	gate := txt(plain("None: every stage is done or not applicable."))
	stages := Lifecycle(s)
	if g, ok := Gate(stages); ok {
		status := StatusWords(g.Status)
		if g.Status == NotStated {
			status = "not described in the scenario"
		}
		spans := []document.Span{plain(fmt.Sprintf("Stage %d, ", g.Number)), emphasis(stageWords(g.Stage))}
		if stated(g.Owner) {
			spans = append(spans, plain(fmt.Sprintf(" (%s), is %s, owned by %s. Nothing after it can start until it is done.", g.What, status, inline(g.Owner))))
		} else {
			spans = append(spans, plain(fmt.Sprintf(" (%s), is %s and has no owner. Name one before compute is requested.", g.What, status)))
		}
		for _, st := range stages[:g.Number-1] {
			if st.Status == "in_progress" {
				spans = append(spans, plain(fmt.Sprintf(" Stage %d, ", st.Number)), emphasis(stageWords(st.Stage)), plain(", before it is still in progress."))
			}
		}
		gate = txt(spans...)
	}
	w.question("Which lifecycle gate can block the workload?", gate)

	if win := w.win; win != nil {
		dd := d.For(win.Direction)
		w.question("What is the likely bottleneck?",
			txt(plain(strings.TrimSpace(fmt.Sprintf("On %s: %s. %s", win.Title, dd.Bottleneck, bottleneckDetail(win))))),
			txt(plain("The question it raises: "+dd.Question)))
	} else {
		w.question("What is the likely bottleneck?",
			txt(plain("Nothing runs until a constraint is relaxed; the first to look at: "+firstBlocking(d))))
	}

	w.question("Why is this hosting direction proportionate?", txt(plain(w.proportionate())))
	w.question("Can the team reproduce the environment?", w.reproducible())

	run := fmt.Sprintf("No run yet: no direction is feasible. %s decides which constraint to revisit first.", orUnnamed(s.Purpose.Owner))
	if t := d.FirstTrial; t != nil {
		run = fmt.Sprintf("%s It answers: %s %s accepts the result and decides whether to request the full run; %s confirms that the temporary data is deleted.",
			trialSentence(t, w.win), t.Answers, orUnnamed(t.AcceptedBy), orUnnamed(t.CleanupBy))
	}
	w.question("What will the first compute run prove, and who decides what happens next?", txt(plain(run)))
}

// question adds a paragraph: the question in strong text, then its answer.
func (w *writer) question(q string, answer ...document.Text) {
	w.para(append([]document.Text{txt(strong(q))}, answer...)...)
}

func (w *writer) proportionate() string {
	d, s, win := w.d, w.s, w.win
	if win == nil {
		return "No direction is proportionate yet: none meets every hard constraint."
	}
	parts := []string{d.Why}
	if len(d.Ranking) == 1 {
		parts = []string{"It is the only direction that meets every hard constraint."}
	}
	switch win.Direction {
	case scenario.Hybrid:
		switch s.Data.Movement {
		case scenario.MoveSnapshot:
			parts = append(parts, "Hybrid earns its extra environment here: the source records must stay where they are, and only the approved snapshot goes out while only the approved outputs come back.")
		case scenario.MoveAny:
			parts = append(parts, "Note that no constraint needs two environments (the data "+present.Lower(present.ChoiceLabel("data.movement", s.Data.Movement))+"); hybrid adds operating effort without a sovereignty gain that is required.")
		}
	case scenario.OnPrem:
		if win.LeadTimeDays > 0 {
			parts = append(parts, fmt.Sprintf("Buying hardware commits capital for years and delays the first run by %.0f days; it pays only at high, steady utilisation.", win.LeadTimeDays))
		}
	}
	if win.Serving == nil && win.GPUs > 0 && len(win.Scaling) > 0 {
		eff := 0.0
		for _, p := range win.Scaling {
			if p.GPUs == win.GPUs {
				eff = p.Efficiency
			}
		}
		sz := fmt.Sprintf("The plan uses %d GPUs at %s scaling efficiency (model)", win.GPUs, present.Percent(eff))
		if win.MaxEfficientGPUs >= win.GPUs {
			sz += fmt.Sprintf(", within the efficient range of up to %d.", win.MaxEfficientGPUs)
		} else {
			sz += fmt.Sprintf(", beyond the efficient range of up to %d: fewer GPUs would waste less.", win.MaxEfficientGPUs)
		}
		parts = append(parts, sz)
	}
	return strings.Join(parts, " ")
}

// reproducible answers from the checklist's environment items.
func (w *writer) reproducible() document.Text {
	var done, open []string
	for _, e := range Checklist(w.s.Workload.Shape, w.st) {
		if e.Group != "environment" || e.Status == StatusNotApplicable {
			continue
		}
		if e.Status == StatusDone {
			done = append(done, e.ID)
		} else {
			open = append(open, e.ID)
		}
	}
	total := len(done) + len(open)
	openList := func(prefix string) document.Text {
		return txt(append(append([]document.Span{plain(prefix + " (open: ")}, codeList(open)...), plain(")."))...)
	}
	switch {
	case total == 0:
		return txt(plain("The checklist has no reproducibility items for this shape."))
	case len(open) == 0:
		return txt(plain(fmt.Sprintf("Yes, as far as the checklist shows: all %d reproducibility items are done.", total)))
	case len(done) == 0:
		return openList(fmt.Sprintf("Not shown yet: none of the %d reproducibility items is done", total))
	}
	return openList(fmt.Sprintf("Partly: %d of %d reproducibility items are done", len(done), total))
}

func bottleneckDetail(d *model.DirectionResult) string {
	switch {
	case d.DataPath != nil && d.Bottleneck == model.BottleneckDataPath:
		return fmt.Sprintf("The run needs %s GB/s from storage that gives %s GB/s (model).", present.Figure(d.DataPath.NeededGBs), present.Figure(d.DataPath.AvailableGBs))
	case d.Serving != nil:
		return fmt.Sprintf("One replica of %s serves %s requests/s at a latency of %s ms (model).", present.Count(d.Serving.GPUsPerReplica, "GPU"), present.Figure(d.Serving.RequestsPerSec), present.Figure(d.Serving.LatencyMS))
	case d.DataPath != nil:
		return fmt.Sprintf("The data path is not the limit: the run reads %s GB/s of the %s GB/s available (model).", present.Figure(d.DataPath.NeededGBs), present.Figure(d.DataPath.AvailableGBs))
	}
	return ""
}

func firstBlocking(d *decide.Decision) string {
	for _, dd := range d.Directions {
		if len(dd.Constraints) > 0 {
			return dd.Title + ": " + dd.Question
		}
	}
	return present.NoValue
}
