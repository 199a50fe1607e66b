package brief

import (
	"fmt"
	"strings"

	"hostplan/internal/document"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// The three parts of the brief filled from its fields (Fields): purpose
// and success, the technical envelope, access and operation; then the
// assumptions behind the numbers.

// fields writes a section per part, a list item per field: its value, or
// that it is not stated and which scenario field would state it.
func (w *writer) fields() {
	values := w.fieldValues()
	for _, sec := range []string{SectionPurpose, SectionEnvelope, SectionOperation} {
		w.section(2, sec)
		var items []document.ListItem
		for _, f := range Fields {
			if f.Section != sec {
				continue
			}
			v := []document.Span{plain(values[f.Key])}
			if !f.filled(w.s) {
				v = []document.Span{emphasis("not stated"), plain(" ("), code(f.Path), plain(")")}
			}
			items = append(items, item(append([]document.Span{strong(f.Label + ":"), plain(" ")}, v...)...))
		}
		w.list(items...)
	}
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

	job := present.Lower(present.ShapeTitle(wl.Shape))
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
		res := fmt.Sprintf("%s on %s", present.GPUs(d.GPU, d.GPUs), d.Title)
		if d.OfferName != "" {
			res += " (" + d.OfferName + ")"
		}
		if d.Serving != nil {
			res += fmt.Sprintf(": %d replicas at the peak, %d at the mean (model)", d.Serving.ReplicasPeak, d.Serving.ReplicasMean)
		} else {
			res += fmt.Sprintf(": %s h of compute, %s h to result, %s GPU-hours per %s (model)", present.Figure(d.ComputeHours), present.Figure(d.TimeToResultHours), present.Figure(d.GPUHoursPerRun), r.RunUnit)
		}
		if d.MemoryPerGPUGB > 0 {
			res += fmt.Sprintf("; %s GB per GPU (model)", present.Figure(d.MemoryPerGPUGB))
		}
		v["resources"] = res
	} else {
		v["resources"] = fmt.Sprintf("no feasible direction; the work needs %s GB of accelerator memory (model)", present.Figure(r.Workload.MemoryNeededGB))
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
		sto = append(sto, "the source of record stays in the controlled environment ("+present.Lower(present.DirectionTitle(data.ControlledEnv))+")")
	}
	if data.StorageGBps.IsSet() {
		sto = append(sto, "read from the source at "+val(data.StorageGBps, " GB/s"))
	}
	if d := w.win; d != nil && d.DataPath != nil {
		sto = append(sto, fmt.Sprintf("the run reads %s GB/s of the %s GB/s its storage gives (model)", present.Figure(d.DataPath.NeededGBs), present.Figure(d.DataPath.AvailableGBs)))
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
		tr += fmt.Sprintf("; staging takes %s h per run (model)", present.Figure(d.DataPath.StagingHours))
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
	w.section(3, "Assumptions")
	if len(as) == 0 {
		w.para(txt(plain("None beyond the stated inputs and the catalog.")))
	}
	var items []document.ListItem
	for _, a := range as {
		items = append(items, item(emphasis("assumed:"), plain(" "+a)))
	}
	if est := w.r.Workload.Estimates; len(est) > 0 {
		items = append(items, item(append([]document.Span{emphasis("estimates"), plain(" (likely value used): ")}, codeList(est)...)...))
	}
	if len(items) > 0 {
		w.list(items...)
	}
}
