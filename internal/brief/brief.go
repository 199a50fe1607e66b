package brief

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Brief writes the Compute Readiness Brief of a scenario as Markdown, from
// the scenario, its report and the decision (nil: decided here), with the
// checklist in its default state (every item open). With fewer than
// MinFields fields filled there is no brief: the error is a
// *TooFewFieldsError (errors.Is ErrTooFewFields) listing what is missing.
func Brief(s *scenario.Scenario, r *model.Report, d *decide.Decision) (markdown []byte, err error) {
	return WithChecklist(s, r, d, nil)
}

// WithChecklist is Brief with the scenario's recorded checklist state.
func WithChecklist(s *scenario.Scenario, r *model.Report, d *decide.Decision, st ChecklistState) ([]byte, error) {
	if s == nil {
		return nil, errors.New("brief: no scenario")
	}
	filled, missing := Filled(s)
	if len(filled) < MinFields {
		return nil, &TooFewFieldsError{Filled: len(filled), Missing: missing}
	}
	if r == nil {
		return nil, errors.New("brief: no report")
	}
	if d == nil {
		var err error
		if d, err = decide.Decide(s, r); err != nil {
			return nil, err
		}
	}
	if d.ScenarioID != s.ID || r.ScenarioID != s.ID {
		return nil, fmt.Errorf("brief: scenario %q, report %q and decision %q do not belong together", s.ID, r.ScenarioID, d.ScenarioID)
	}
	w := &writer{s: s, r: r, d: d, st: st, missing: missing}
	if dir := d.Recommendation; dir != "" {
		w.win = r.Direction(dir)
	}
	w.write(len(filled))
	return w.buf.Bytes(), nil
}

type writer struct {
	buf     bytes.Buffer
	s       *scenario.Scenario
	r       *model.Report
	d       *decide.Decision
	st      ChecklistState
	win     *model.DirectionResult // nil when nothing is feasible
	missing []Field
}

func (w *writer) p(format string, a ...any) { fmt.Fprintf(&w.buf, format, a...) }
func (w *writer) line(s string)             { w.buf.WriteString(s + "\n") }

func (w *writer) write(nFilled int) {
	s, r := w.s, w.r
	w.line("# Compute Readiness Brief: " + inline(s.Name))
	w.line("")
	w.p("A sizing hypothesis, not a purchase order. Scenario `%s`, model %s, prices as of %s.\n", s.ID, r.ModelVersion, orDash(r.CatalogAsOf))
	w.line("Figures marked *estimate* are the team's ranges (the likely value is used); *assumed* marks a default of the model; *model* marks a figure hostplan computed.")
	w.line("")
	w.p("Fields filled: %d of %d.", nFilled, len(Fields))
	if len(w.missing) > 0 {
		names := make([]string, len(w.missing))
		for i, f := range w.missing {
			names[i] = fmt.Sprintf("%s (`%s`)", f.Label, f.Path)
		}
		w.p(" Not stated: %s.", strings.Join(names, ", "))
	}
	w.line("")
	w.line("")

	values := w.fieldValues()
	for _, sec := range []string{SectionPurpose, SectionEnvelope, SectionOperation} {
		w.line("## " + sec)
		w.line("")
		for _, f := range Fields {
			if f.Section != sec {
				continue
			}
			v := values[f.Key]
			if !f.filled(s) {
				v = "*not stated* (`" + f.Path + "`)"
			}
			w.p("- **%s:** %s\n", f.Label, v)
		}
		w.line("")
	}
	w.assumptions()
	w.recommendation()
	w.leadership()
	w.lifecycle()
	w.trial()
	w.checklist()
}

// fieldValues renders each field from the scenario and the report.
func (w *writer) fieldValues() map[string]string {
	s, r := w.s, w.r
	wl, data := s.Workload, s.Data
	v := map[string]string{
		"decision": inline(s.Purpose.Decision),
		"success":  inline(s.Purpose.SuccessMeasure),
		"baseline": inline(s.Purpose.Baseline),
		"owner":    inline(s.Purpose.Owner) + " owns the workload and accepts its results",
	}

	var rt []string
	if x := s.Purpose.AcceptableRuntimeHours; x.IsSet() {
		rt = append(rt, val(x, " h")+" per "+r.RunUnit)
	}
	if x := wl.DeadlineHours; x.IsSet() {
		rt = append(rt, "deadline "+val(x, " h")+" per run")
	}
	if t := wl.Traffic; t != nil && t.LatencyTargetMS.IsSet() {
		rt = append(rt, val(t.LatencyTargetMS, " ms")+" per request")
	}
	v["runtime"] = strings.Join(rt, "; ")

	job := shapeTitle(wl.Shape)
	if wl.Method != "" {
		job += " (" + wl.Method + ")"
	}
	job += " of " + r.Workload.Model
	var size []string
	switch {
	case wl.TokensPerRunB.IsSet():
		size = append(size, val(wl.TokensPerRunB, " B tokens")+" per run")
	case wl.ItemsPerRunM.IsSet():
		size = append(size, val(wl.ItemsPerRunM, " M items")+" per run")
	}
	if t := wl.Traffic; t != nil && wl.Shape == scenario.ShapeInteractive {
		size = append(size, "peak "+val(t.PeakRPS, " requests/s"), "mean "+val(t.MeanRPS, " requests/s"),
			val(t.TokensIn, "")+" tokens in and "+val(t.TokensOut, "")+" out per request")
	}
	if wl.RunsPerMonth.IsSet() {
		size = append(size, val(wl.RunsPerMonth, "")+" runs a month")
	}
	size = append(size, fmt.Sprintf("%.3g FLOPs per %s (model)", r.Workload.FLOPsPerRun, r.RunUnit))
	v["job_type"] = job + "; " + strings.Join(size, ", ")

	dv := val(data.VolumeGB, " GB")
	if data.FileCount.IsSet() {
		dv += " in " + val(data.FileCount, " files")
	}
	v["data_volume"] = dv

	if d := w.win; d != nil && d.GPU == "" {
		v["resources"] = fmt.Sprintf("no GPUs to reserve: %s, priced per token (%s)", orDash(d.OfferName), d.Title)
	} else if d != nil {
		res := fmt.Sprintf("%s on %s", gpuText(d), d.Title)
		if d.OfferName != "" {
			res += " (" + d.OfferName + ")"
		}
		if d.Serving != nil {
			res += fmt.Sprintf(": %d replicas at the peak, %d at the mean (model)", d.Serving.ReplicasPeak, d.Serving.ReplicasMean)
		} else {
			res += fmt.Sprintf(": %s h of compute, %s h to result, %s GPU-hours per %s (model)", num(d.ComputeHours), num(d.TimeToResultHours), num(d.GPUHoursPerRun), r.RunUnit)
		}
		if d.MemoryPerGPUGB > 0 {
			res += fmt.Sprintf("; %s GB per GPU (model)", num(d.MemoryPerGPUGB))
		}
		v["resources"] = res
	} else {
		v["resources"] = fmt.Sprintf("no feasible direction; the work needs %s GB of accelerator memory (model)", num(r.Workload.MemoryNeededGB))
	}

	sw := []string{wl.Precision}
	if wl.Sharding != "" {
		sw = append(sw, "sharding "+wl.Sharding)
	}
	if wl.Recompute {
		sw = append(sw, "full activation recomputation")
	}
	if wl.MFU.IsSet() {
		sw = append(sw, "MFU "+val(wl.MFU, ""))
	}
	v["software"] = strings.Join(sw, ", ")

	var sto []string
	if data.ControlledEnv != "" {
		sto = append(sto, "the source of record stays in the controlled environment ("+envTitle(data.ControlledEnv)+")")
	}
	if data.StorageGBps.IsSet() {
		sto = append(sto, "read from the source at "+val(data.StorageGBps, " GB/s"))
	}
	if d := w.win; d != nil && d.DataPath != nil {
		sto = append(sto, fmt.Sprintf("the run reads %s GB/s of the %s GB/s its storage gives (model)", num(d.DataPath.NeededGBs), num(d.DataPath.AvailableGBs)))
	}
	v["storage"] = strings.Join(sto, "; ")

	var tr string
	switch data.Movement {
	case scenario.MoveAny:
		tr = "data may move wherever the residency rule allows"
	case scenario.MoveSnapshot:
		tr = "the source stays; only an approved, minimised snapshot of " + val(data.SnapshotGB, " GB") + " may leave"
	case scenario.MoveNone:
		tr = "nothing may leave the controlled environment"
	}
	if d := w.win; d != nil && d.DataPath != nil {
		tr += fmt.Sprintf("; staging takes %s h per run (model)", num(d.DataPath.StagingHours))
	}
	v["transfer"] = tr

	out := strings.Join(data.ReturnOutputs, ", ")
	if data.OutputGB.IsSet() {
		out += "; " + val(data.OutputGB, " GB") + " per run come back"
	}
	v["outputs"] = out

	cl := data.Classification
	if data.PersonalData {
		cl += ", with personal data"
	} else {
		cl += ", no personal data"
	}
	cl += "; residency " + data.Residency
	if data.ProviderAllowed {
		cl += "; a managed provider may process it"
	} else {
		cl += "; a managed provider may not receive or keep it"
	}
	v["classification"] = cl

	v["retention"] = inline(data.RetentionOwner) + " decides what is kept and confirms the deletion of temporary copies"

	ops := s.Dimensions.Operations
	sup := "team of " + val(ops.StaffFTE, " FTE")
	if len(ops.Skills) > 0 {
		sup += " with " + strings.Join(ops.Skills, ", ")
	}
	if d := w.win; d != nil {
		dd := w.d.For(d.Direction)
		sup += fmt.Sprintf("; %s needs %.2f FTE to operate (model estimate)", d.Title, dd.StaffFTE)
		if len(dd.MissingSkills) > 0 {
			sup += " and the skills " + strings.Join(dd.MissingSkills, ", ") + ", which the team lacks"
		}
	}
	v["support"] = sup
	return v
}

// assumptions lists the model's defaults behind the numbers.
func (w *writer) assumptions() {
	as := model.NoteTexts(w.r.Warnings)
	if d := w.win; d != nil {
		// The winner's assumptions, and the catalog's notes on the
		// figures it took from there (mostly estimates).
		for _, n := range d.Notes {
			if n.Kind == model.NoteAssumption || n.Kind == model.NoteCatalog {
				as = append(as, d.Title+": "+n.Text)
			}
		}
	}
	w.line("### Assumptions")
	w.line("")
	if len(as) == 0 {
		w.line("None beyond the stated inputs and the catalog.")
	}
	for _, a := range as {
		w.line("- *assumed:* " + a)
	}
	if est := w.r.Workload.Estimates; len(est) > 0 {
		w.line("- *estimates* (likely value used): " + codeList(est))
	}
	w.line("")
}

func (w *writer) recommendation() {
	d := w.d
	w.line("## Recommendation")
	w.line("")
	w.line(d.Summary)
	w.line("")
	w.line("| rank | direction | total | sovereignty | workload shape | operations | economics | optionality |")
	w.line("|---|---|---|---|---|---|---|---|")
	for _, name := range d.Ranking {
		dd := d.For(name)
		w.p("| %d | %s | %.2f |", dd.Rank, dd.Title, dd.Total)
		for _, sc := range dd.Scores {
			w.p(" %.2f |", sc.Score)
		}
		w.line("")
	}
	for _, dd := range d.Directions {
		if !dd.Feasible {
			w.p("| — | %s | ruled out: %s | | | | | |\n", dd.Title, kinds(dd.Kinds()))
		}
	}
	w.line("")
	w.p("Weights: %s.\n", weightsText(d))
	w.line("")
	if w.win != nil {
		w.line("Why: " + d.Why)
		w.line("")
		if ru := d.RunnerUp; ru != nil {
			w.line("What would change it: " + ru.Summary)
			w.line("")
		}
		w.line(d.Robustness.Text())
		w.line("")
		w.p("### Scores of %s\n\n", w.win.Title)
		for _, sc := range d.For(w.win.Direction).Scores {
			w.p("- %s %.2f × weight %.2f: %s\n", dimTitle(sc.Dimension), sc.Score, sc.Weight, sc.Reason)
		}
		w.line("")
	}
	var out []decide.Direction
	for _, dd := range d.Directions {
		if !dd.Feasible {
			out = append(out, dd)
		}
	}
	if len(out) > 0 {
		w.line("### Ruled out")
		w.line("")
		for _, dd := range out {
			for _, c := range dd.Constraints {
				w.p("- **%s** (%s): %s\n", dd.Title, c.Kind, c.Reason)
			}
		}
		w.line("")
	}
	w.line("### Bottlenecks and first questions")
	w.line("")
	w.line("| direction | likely bottleneck | first infrastructure question |")
	w.line("|---|---|---|")
	for _, dd := range d.Directions {
		b := dd.Bottleneck
		if !dd.Feasible {
			b += " (ruled out)"
		}
		w.p("| %s | %s | %s |\n", dd.Title, b, dd.Question)
	}
	w.line("")
}

func (w *writer) leadership() {
	d, s := w.d, w.s
	w.line("## Leadership questions")
	w.line("")

	w.line("**Which lifecycle gate can block the workload?**")
	stages := Lifecycle(s)
	if g, ok := Gate(stages); ok {
		status := strings.ReplaceAll(g.Status, "_", " ")
		if g.Status == NotStated {
			status = "not described in the scenario"
		}
		if stated(g.Owner) {
			w.p("Stage %d, *%s* (%s), is %s, owned by %s. Nothing after it can start until it is done.", g.Number, g.Stage, g.What, status, inline(g.Owner))
		} else {
			w.p("Stage %d, *%s* (%s), is %s and has no owner. Name one before compute is requested.", g.Number, g.Stage, g.What, status)
		}
		for _, st := range stages[:g.Number-1] {
			if st.Status == "in_progress" {
				w.p(" Stage %d, *%s*, before it is still in progress.", st.Number, st.Stage)
			}
		}
		w.line("")
	} else {
		w.line("None: every stage is done or not applicable.")
	}
	w.line("")

	w.line("**What is the likely bottleneck?**")
	if win := w.win; win != nil {
		dd := d.For(win.Direction)
		w.line(strings.TrimSpace(fmt.Sprintf("On %s: %s. %s", win.Title, dd.Bottleneck, bottleneckDetail(win))))
		w.line("The question it raises: " + dd.Question)
	} else {
		w.line("Nothing runs until a constraint is relaxed; the first to look at: " + firstBlocking(d))
	}
	w.line("")

	w.line("**Why is this hosting direction proportionate?**")
	w.line(w.proportionate())
	w.line("")

	w.line("**Can the team reproduce the environment?**")
	w.line(w.reproducible())
	w.line("")

	w.line("**What will the first compute run prove, and who decides what happens next?**")
	if t := d.FirstTrial; t != nil {
		w.p("%s It answers: %s %s accepts the result and decides whether to request the full run; %s confirms that the temporary data is deleted.\n",
			trialSentence(t, w.win), t.Answers, orUnnamed(t.AcceptedBy), orUnnamed(t.CleanupBy))
	} else {
		w.p("No run yet: no direction is feasible. %s decides which constraint to revisit first.\n", orUnnamed(s.Purpose.Owner))
	}
	w.line("")
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
			parts = append(parts, "Note that no constraint needs two environments (data.movement is any); hybrid adds operating effort without a sovereignty gain that is required.")
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
		sz := fmt.Sprintf("The plan uses %d GPUs at %.0f %% scaling efficiency (model)", win.GPUs, eff*100)
		if win.MaxEfficientGPUs >= win.GPUs {
			sz += fmt.Sprintf(", within the efficient range of up to %d.", win.MaxEfficientGPUs)
		} else {
			sz += fmt.Sprintf(", beyond the efficient range of up to %d: fewer GPUs would waste less.", win.MaxEfficientGPUs)
		}
		parts = append(parts, sz)
	}
	return strings.Join(parts, " ")
}

func (w *writer) reproducible() string {
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
	switch {
	case total == 0:
		return "The checklist has no reproducibility items for this shape."
	case len(open) == 0:
		return fmt.Sprintf("Yes, as far as the checklist shows: all %d reproducibility items are done.", total)
	case len(done) == 0:
		return fmt.Sprintf("Not shown yet: none of the %d reproducibility items is done (open: %s).", total, codeList(open))
	}
	return fmt.Sprintf("Partly: %d of %d reproducibility items are done (open: %s).", len(done), total, codeList(open))
}

func (w *writer) lifecycle() {
	stages := Lifecycle(w.s)
	w.line("## Data lifecycle")
	w.line("")
	if len(w.s.Data.Lifecycle) == 0 {
		w.line("The scenario does not describe the lifecycle (`data.lifecycle`): no stage has an owner yet.")
		w.line("")
	}
	w.line("| # | stage | what happens | owner | status | controls |")
	w.line("|---|---|---|---|---|---|")
	for _, st := range stages {
		owner := cell(st.Owner)
		if !stated(owner) {
			owner = "**no owner**"
		}
		w.p("| %d | %s | %s | %s | %s | %s |\n", st.Number, st.Stage, st.What, owner, strings.ReplaceAll(st.Status, "_", " "), strings.Join(controlsOf(st.Number), ", "))
	}
	w.line("")
	if un := Unowned(stages); len(un) > 0 && len(un) < len(stages) {
		names := make([]string, len(un))
		for i, st := range un {
			names[i] = fmt.Sprintf("%d %s", st.Number, st.Stage)
		}
		w.p("Flagged: no owner for stage %s.\n\n", strings.Join(names, ", "))
	}
	w.line("Controls that run across the stages:")
	w.line("")
	for _, c := range Controls {
		span := stageList(c.Stages)
		if len(c.Stages) == len(Stages) {
			span = "all stages"
		}
		if len(c.Focus) > 0 {
			span += ", above all " + stageList(c.Focus)
		}
		w.p("- **%s** (%s): %s.\n", c.Name, span, c.Asks)
	}
	w.line("")
}

func (w *writer) trial() {
	t := w.d.FirstTrial
	w.line("## First trial to request")
	w.line("")
	if t == nil {
		w.line("None yet: no direction is feasible.")
		w.line("")
		return
	}
	w.line(trialSentence(t, w.win))
	w.line("")
	w.line("- Sizing: " + t.Basis + ".")
	w.line("- It answers: " + t.Answers)
	w.line("- It must record:")
	for _, e := range t.Evidence {
		w.line("  - " + inline(e))
	}
	w.line("")
}

func (w *writer) checklist() {
	shape := w.s.Workload.Shape
	entries := Checklist(shape, w.st)
	done := 0
	for _, e := range entries {
		if e.Status != StatusOpen {
			done++
		}
	}
	w.line("## Readiness checklist")
	w.line("")
	w.p("%d items apply to %s; %d are settled (done or not applicable). Set them with `hostplan checklist %s --set ITEM=STATUS[:OWNER]`.\n", len(entries), shapeTitle(shape), done, w.s.ID)
	for _, g := range Groups {
		first := true
		for _, e := range entries {
			if e.Group != g.ID {
				continue
			}
			if first {
				w.line("")
				w.line("### " + g.Title)
				w.line("")
				first = false
			}
			box := "[ ]"
			switch e.Status {
			case StatusDone:
				box = "[x]"
			case StatusNotApplicable:
				box = "[-]"
			}
			w.p("- %s %s (`%s`, %s, owner: %s)\n", box, e.Text, e.ID, strings.ReplaceAll(string(e.Status), "_", " "), orDash(inline(e.Owner)))
		}
	}
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
	switch top := slices.Max(t.GPUCounts); {
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

func bottleneckDetail(d *model.DirectionResult) string {
	switch {
	case d.DataPath != nil && d.Bottleneck == model.BottleneckDataPath:
		return fmt.Sprintf("The run needs %s GB/s from storage that gives %s GB/s (model).", num(d.DataPath.NeededGBs), num(d.DataPath.AvailableGBs))
	case d.Serving != nil:
		return fmt.Sprintf("One replica of %d GPUs serves %s requests/s at a latency of %s ms (model).", d.Serving.GPUsPerReplica, num(d.Serving.RequestsPerSec), num(d.Serving.LatencyMS))
	case d.DataPath != nil:
		return fmt.Sprintf("The data path is not the limit: the run reads %s GB/s of the %s GB/s available (model).", num(d.DataPath.NeededGBs), num(d.DataPath.AvailableGBs))
	}
	return ""
}

func firstBlocking(d *decide.Decision) string {
	for _, dd := range d.Directions {
		if len(dd.Constraints) > 0 {
			return dd.Title + ": " + dd.Question
		}
	}
	return "—"
}

func weightsText(d *decide.Decision) string {
	parts := make([]string, len(d.Weights))
	for i, x := range d.Weights {
		parts[i] = fmt.Sprintf("%s %.2f", dimTitle(x.Dimension), x.Normalised)
	}
	return strings.Join(parts, ", ")
}

func kinds(ks []decide.Kind) string {
	s := make([]string, len(ks))
	for i, k := range ks {
		s[i] = string(k)
	}
	return strings.Join(s, ", ")
}

func gpuText(d *model.DirectionResult) string {
	if d.GPU == "" {
		return "per-token service"
	}
	return fmt.Sprintf("%d × %s", d.GPUs, d.GPU)
}

func shapeTitle(shape string) string {
	switch shape {
	case scenario.ShapeInteractive:
		return "interactive inference"
	case scenario.ShapeBatch:
		return "batch inference"
	case scenario.ShapeFineTuning:
		return "fine-tuning"
	case scenario.ShapeTraining:
		return "training or simulation"
	}
	return shape
}

func envTitle(env string) string {
	if t, ok := scenario.DirectionTitle[env]; ok {
		return strings.ToLower(t[:1]) + t[1:]
	}
	return env
}

func dimTitle(name string) string {
	t := strings.ReplaceAll(name, "_", " ")
	return strings.ToUpper(t[:1]) + t[1:]
}

func stageList(ns []int) string {
	s := make([]string, len(ns))
	for i, n := range ns {
		s[i] = strconv.Itoa(n)
	}
	if len(s) == 1 {
		return "stage " + s[0]
	}
	return "stages " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

// inline puts the user's text on one line (a line break would end a
// Markdown list item or table row).
func inline(s string) string { return strings.Join(strings.Fields(s), " ") }

// cell makes the user's text safe inside a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(inline(s), "|", `\|`) }

func codeList(xs []string) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = "`" + x + "`"
	}
	return strings.Join(s, ", ")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func orUnnamed(s string) string {
	if !stated(s) {
		return "the owner (not named)"
	}
	return inline(s)
}

// val renders a scenario value with its unit; an estimate shows its range
// and says so: "26 B tokens (20–40, estimate)".
func val(v scenario.Value, unit string) string {
	if !v.IsSet() {
		return "not stated"
	}
	if !v.IsEstimate() {
		return num(v.Likely) + unit
	}
	return fmt.Sprintf("%s%s (%s–%s, estimate)", num(v.Likely), unit, num(v.Low), num(v.High))
}

// num renders a number for reading: thousands grouped from 1,000, three
// significant figures below 100, whole numbers above.
func num(x float64) string {
	switch a := math.Abs(x); {
	case a >= 1000:
		return model.Grouped(x)
	case a >= 100 || x == math.Trunc(x):
		return strconv.FormatFloat(x, 'f', 0, 64)
	default:
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
}
