package export

import (
	"fmt"

	"hostplan/internal/model"
	"hostplan/internal/present"
)

// writeScaling writes, for each direction with a GPU plan, its scaling
// curve (data-parallel model at 1, 2, 4, … GPUs, the chosen count in bold)
// or, for interactive inference, its serving plan. These are the engine's
// values, not formulas.
func writeScaling(b *book, r *model.Report) {
	const sh = sheetScaling
	b.title(sh, 1, 1, "Scaling: the engine's performance model by GPU count (values, not formulas)")
	b.str(sh, 1, 2, "The row in bold is the GPU count each direction uses. Efficiency = speedup ÷ GPUs.")
	row := 4
	var none []string
	for _, d := range r.Directions {
		switch {
		case len(d.Scaling) > 0:
			row = scalingBlock(b, row, &d)
		case d.Serving != nil:
			row = servingBlock(b, row, &d)
		default:
			none = append(none, d.Title)
			continue
		}
		row++ // a blank row between blocks
	}
	for _, t := range none {
		b.str(sh, 1, row, t+": no GPU plan (a per-token service, or ruled out before sizing).")
		row++
	}
	b.widths(sh, 24, 12, 12, 14, 12, 12, 10, 11, 14, 12, 18)
	b.freeze(sh, 2)
}

// blockTitle writes a direction's title, marked when it is not feasible.
func blockTitle(b *book, row int, d *model.DirectionResult) {
	t := d.Title
	if d.GPU != "" {
		t += " — " + fmt.Sprintf("%d × %s", d.GPUs, d.GPU)
	}
	if !d.Feasible {
		t += " (not feasible)"
	}
	b.title(sheetScaling, 1, row, t)
}

// fact writes a label and a number on row.
func fact(b *book, row int, label string, x float64, style int, field string) {
	b.str(sheetScaling, 1, row, label)
	b.num(sheetScaling, 2, row, x, style, field)
}

func scalingBlock(b *book, row int, d *model.DirectionResult) int {
	const sh = sheetScaling
	field := func(name string) string { return "directions[" + d.Direction + "]." + name }
	blockTitle(b, row, d)
	row++
	b.str(sh, 1, row, "Bottleneck")
	b.str(sh, 2, row, d.Bottleneck.Text())
	row++
	fact(b, row, "Memory per GPU (GB)", d.MemoryPerGPUGB, b.numFmt(fmtRatio, false), field("memory_per_gpu_gb"))
	row++
	fact(b, row, "Efficient up to (GPUs)", float64(d.MaxEfficientGPUs), b.count, field("max_efficient_gpus"))
	row++
	b.headerRow(sh, row, "GPUs", "Step (s)", "Compute (s)", "Communication (s)", "Serial (s)", "Data (s)",
		"Speedup", "Efficiency", "Time to result (h)", "Fits memory", "Bottleneck")
	row++
	for j, p := range d.Scaling {
		bold := p.GPUs == d.GPUs
		pf := func(name string) string { return field(fmt.Sprintf("scaling[%d].%s", j, name)) }
		for k, v := range []struct {
			x      float64
			format string
			name   string
		}{
			{float64(p.GPUs), fmtGeneral, "gpus"},
			{p.StepSeconds, fmtSeconds, "step_seconds"},
			{p.ComputeSeconds, fmtSeconds, "compute_seconds"},
			{p.CommSeconds, fmtSeconds, "comm_seconds"},
			{p.SerialSeconds, fmtSeconds, "serial_seconds"},
			{p.DataSeconds, fmtSeconds, "data_seconds"},
			{p.Speedup, fmtRatio, "speedup"},
			{p.Efficiency, fmtPercent, "efficiency"},
			{p.TimeToResultHours, fmtHours, "time_to_result_hours"},
		} {
			b.num(sh, k+1, row, v.x, b.numFmt(v.format, bold), pf(v.name))
		}
		b.str(sh, 10, row, present.YesNo(p.Fits))
		b.str(sh, 11, row, p.Bottleneck.Text())
		if bold {
			b.style(sh, cell(10, row), cell(10, row), b.center[1])
			b.style(sh, cell(11, row), cell(11, row), b.bold)
		} else {
			b.style(sh, cell(10, row), cell(10, row), b.center[0])
		}
		row++
	}
	return row
}

func servingBlock(b *book, row int, d *model.DirectionResult) int {
	const sh = sheetScaling
	sv := d.Serving
	field := func(name string) string { return "directions[" + d.Direction + "].serving." + name }
	blockTitle(b, row, d)
	row++
	b.str(sh, 1, row, "Serving plan")
	b.style(sh, cell(1, row), cell(2, row), b.header)
	row++
	for _, f := range []struct {
		label  string
		x      float64
		format string
		name   string
	}{
		{"GPUs per replica", float64(sv.GPUsPerReplica), fmtGeneral, "gpus_per_replica"},
		{"Batch (sequences)", float64(sv.Batch), fmtGeneral, "batch"},
		{"Replicas at peak", float64(sv.ReplicasPeak), fmtGeneral, "replicas_peak"},
		{"Replicas at mean", float64(sv.ReplicasMean), fmtGeneral, "replicas_mean"},
		{"Decode step (ms)", sv.DecodeStepMS, fmtRatio, "decode_step_ms"},
		{"Output tokens/s per replica", sv.TokensPerSecond, fmtWhole, "tokens_per_second"},
		{"Requests/s per replica", sv.RequestsPerSec, fmtRatio, "requests_per_second"},
		{"Latency per request (ms)", sv.LatencyMS, fmtWhole, "latency_ms"},
	} {
		fact(b, row, f.label, f.x, b.numFmt(f.format, false), field(f.name))
		row++
	}
	b.str(sh, 1, row, "Memory-bound")
	b.str(sh, 2, row, present.YesNo(sv.MemoryBound))
	row++
	b.str(sh, 1, row, "Bottleneck")
	b.str(sh, 2, row, d.Bottleneck.Text())
	return row + 1
}
