package brief

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"hostplan/internal/document"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// StageInfo describes one of the seven lifecycle stages.
type StageInfo struct {
	Number int
	Stage  string // scenario.LifecycleStages
	What   string // what happens in it: package present's help for the stage
}

// Stages are the seven stages, in order (scenario.LifecycleStages).
var Stages = stages()

func stages() []StageInfo {
	out := make([]StageInfo, len(scenario.LifecycleStages))
	for i, st := range scenario.LifecycleStages {
		out[i] = StageInfo{Number: i + 1, Stage: st, What: stageWhat(st)}
	}
	return out
}

// pathStage and pathStatus are the scenario fields whose values present
// words for the lifecycle.
const (
	pathStage  = "data.lifecycle[].stage"
	pathStatus = "data.lifecycle[].status"
)

// stageWhat says what happens in a stage: present's help for it without
// the "Stage n: " it opens with and the final stop, so that it reads
// inside a sentence.
func stageWhat(stage string) string {
	help := present.ChoiceHelp(pathStage, stage)
	if _, what, ok := strings.Cut(help, ": "); ok {
		help = what
	}
	return strings.TrimSuffix(help, ".")
}

// stageWords names a stage inside a sentence ("collect").
func stageWords(stage string) string { return present.Lower(present.ChoiceLabel(pathStage, stage)) }

// StatusWords is a lifecycle or checklist status as it reads inside a
// sentence ("in progress", "not applicable"): package present's label of
// the lifecycle status, whose values the checklist's statuses share;
// NotStated reads as itself.
func StatusWords(status string) string { return present.Lower(present.ChoiceLabel(pathStatus, status)) }

// Control is a question that runs across several stages rather than a
// stage of its own.
type Control struct {
	Name   string
	Stages []int // stage numbers it spans
	Focus  []int // stages where it matters most (empty: no emphasis)
	Asks   string
}

// Controls are the three cross-cutting controls.
var Controls = []Control{
	{"Quality", []int{1, 2, 3, 6}, nil,
		"the meaning and representative cases are defined at the source, checked on ingest, enforced by the preparation gate, and results are read for new data problems"},
	{"Lineage and version", []int{1, 3, 4, 6, 7}, nil,
		"the source snapshot, the preparation logic, labels, software and outputs are linked so that another authorised person can explain and repeat the result"},
	{"Security and retention", []int{1, 2, 3, 4, 5, 6, 7}, []int{4, 5, 7},
		"permitted use and least-privilege access hold everywhere, the staged copy is protected, and it is decided which inputs, checkpoints, logs and outputs come back, are kept or are deleted"},
}

// StageState is a stage with the scenario's owner and status.
type StageState struct {
	StageInfo
	Owner  string
	Status string // scenario.StageStatuses, or "not stated"
	Stated bool   // the scenario lists this stage
}

// NotStated is the status of a stage the scenario does not list.
const NotStated = "not stated"

// Lifecycle returns the seven stages with the scenario's owner and status
// each; a stage the scenario leaves out has no owner and status NotStated.
func Lifecycle(s *scenario.Scenario) []StageState {
	out := make([]StageState, len(Stages))
	for i, st := range Stages {
		out[i] = StageState{StageInfo: st, Status: NotStated}
		for _, l := range s.Data.Lifecycle {
			if l.Stage == st.Stage {
				out[i].Owner, out[i].Status, out[i].Stated = l.Owner, l.Status, true
			}
		}
	}
	return out
}

// Unowned returns the stages without an owner.
func Unowned(stages []StageState) []StageState {
	var out []StageState
	for _, st := range stages {
		if !stated(st.Owner) {
			out = append(out, st)
		}
	}
	return out
}

// Gate returns the lifecycle gate that can block the workload: the first
// stage that is open (or not stated) and has no owner, else the earliest
// open one, else the earliest in progress. ok is false when every stage is
// done or not applicable.
func Gate(stages []StageState) (StageState, bool) {
	open := func(st StageState) bool { return st.Status == "open" || st.Status == NotStated }
	for _, st := range stages {
		if open(st) && !stated(st.Owner) {
			return st, true
		}
	}
	for _, want := range [][]string{{"open", NotStated}, {"in_progress"}} {
		for _, st := range stages {
			if slices.Contains(want, st.Status) {
				return st, true
			}
		}
	}
	return StageState{}, false
}

// controlsOf returns the names of the controls spanning stage n.
func controlsOf(n int) []string {
	var out []string
	for _, c := range Controls {
		if slices.Contains(c.Stages, n) {
			out = append(out, c.Name)
		}
	}
	return out
}

// lifecycle writes the data-lifecycle part: a table of the seven stages
// with their owners, status and controls, the stages flagged for having no
// owner, and the controls that run across them.
func (w *writer) lifecycle() {
	stages := Lifecycle(w.s)
	w.section(2, "Data lifecycle")
	if len(w.s.Data.Lifecycle) == 0 {
		w.para(txt(plain("The scenario does not describe the lifecycle ("), code("data.lifecycle"), plain("): no stage has an owner yet.")))
	}
	t := &document.Table{Header: []string{"#", "stage", "what happens", "owner", "status", "controls"}}
	for _, st := range stages {
		owner := textCell(plain(inline(st.Owner)))
		if !stated(st.Owner) {
			owner = textCell(strong("no owner"))
		}
		t.Rows = append(t.Rows, []document.Cell{figureCell(float64(st.Number), 0), textCell(plain(stageWords(st.Stage))), textCell(plain(st.What)), owner,
			textCell(plain(StatusWords(st.Status))), textCell(plain(strings.Join(controlsOf(st.Number), ", ")))})
	}
	w.add(t)
	if un := Unowned(stages); len(un) > 0 && len(un) < len(stages) {
		names := make([]string, len(un))
		for i, st := range un {
			names[i] = fmt.Sprintf("%d %s", st.Number, stageWords(st.Stage))
		}
		w.para(txt(plain(fmt.Sprintf("Flagged: no owner for stage %s.", strings.Join(names, ", ")))))
	}
	w.para(txt(plain("Controls that run across the stages:")))
	var items []document.ListItem
	for _, c := range Controls {
		span := stageList(c.Stages)
		if len(c.Stages) == len(Stages) {
			span = "all stages"
		}
		if len(c.Focus) > 0 {
			span += ", above all " + stageList(c.Focus)
		}
		items = append(items, item(strong(c.Name), plain(fmt.Sprintf(" (%s): %s.", span, c.Asks))))
	}
	w.list(items...)
}

func stageList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	if len(s) == 1 {
		return "stage " + s[0]
	}
	return "stages " + present.And(s...)
}
