package report

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
)

// servingNote explains why an interactive service has no scaling curve.
const servingNote = "Serving is sized by replicas, not by scaling one job: each replica holds the model on a few GPUs, and the count of replicas follows the load."

// Scaling is the Scaling tab: a summary of each direction's performance,
// its scaling efficiency as a chart, and one direction's scaling curve as
// a table. For an interactive service, which scales by replicas, it shows
// the serving plan instead of the chart. It is made once and refilled
// with each report (Set).
type Scaling struct {
	summary  *widgets.Grid // one row per direction that runs on GPUs
	noGPUs   *widget.Label
	noCurves *widget.Label // for a training or batch report without curves

	curves      []fyne.CanvasObject // heading, chart, selector, calibration and table
	chart       *LineChart
	selector    *widgets.KeySelect
	selectorBox *fyne.Container // sizes the selector to its longest option
	calibration *widget.Label
	detail      *widgets.Grid // the selected direction's curve

	serving     []fyne.CanvasObject // heading, note and table
	servingNote *widget.Label
	servingGrid *widgets.Grid

	withCurves []model.DirectionResult // directions in the selector, in its order
	report     *model.Report           // the report shown
	highlight  string                  // the direction whose rows are in bold
	stale      bool                    // rows changed while the tab was hidden
	scroll     *container.Scroll
	content    fyne.CanvasObject
}

// NewScaling makes the tab, empty until Set.
func NewScaling() *Scaling {
	v := &Scaling{}

	v.summary = widgets.NewGrid(summaryColumns[:], summaryAlign)
	v.noGPUs = widget.NewLabel("No direction runs on GPUs of its own: per-token services are not sized by GPU count.")
	v.noGPUs.Wrapping = fyne.TextWrapWord
	v.noCurves = widget.NewLabel("No direction in this report has a scaling curve.")
	v.noCurves.Wrapping = fyne.TextWrapWord

	v.chart = NewEfficiencyChart()
	v.selector = widgets.NewKeySelect(nil, v.showCurve)
	v.selectorBox = container.New(&widgets.FixedSize{Size: v.selector.MinSize()}, v.selector)
	v.calibration = widget.NewLabel("")
	v.calibration.Wrapping = fyne.TextWrapWord
	v.detail = widgets.NewGrid(curveColumns[:], curveAlign)
	v.curves = []fyne.CanvasObject{
		widgets.SectionHeading("Scaling efficiency"),
		v.chart,
		container.NewHBox(widget.NewLabel("Scaling of"), v.selectorBox),
		v.calibration,
		v.detail.Box,
	}

	v.servingNote = widget.NewLabel(servingNote)
	v.servingNote.Wrapping = fyne.TextWrapWord
	v.servingGrid = widgets.NewGrid(servingColumns[:], servingAlign)
	v.serving = []fyne.CanvasObject{widgets.SectionHeading("Serving"), v.servingNote, v.servingGrid.Box}

	parts := []fyne.CanvasObject{widgets.SectionHeading("Per direction"), v.summary.Box, v.noGPUs, v.noCurves}
	parts = append(parts, v.curves...)
	parts = append(parts, v.serving...)
	_, v.scroll, v.content = widgets.ScrolledPage(parts...)
	return v
}

// Content is the tab: the page in its scroll.
func (v *Scaling) Content() fyne.CanvasObject { return v.content }

// Scroll is the tab's scroll, which the window keeps where it was across
// a refill.
func (v *Scaling) Scroll() *container.Scroll { return v.scroll }

// Summary is the table of the directions that run on GPUs.
func (v *Scaling) Summary() *widgets.Grid { return v.summary }

// Selector chooses the direction whose scaling curve the table shows.
func (v *Scaling) Selector() *widgets.KeySelect { return v.selector }

// Set shows report r, the rows of direction highlight in bold.
func (v *Scaling) Set(r *model.Report, highlight string) {
	v.report, v.highlight = r, highlight
	rows := summaryRows(r, v.highlight)
	v.summary.Set(rows)
	widgets.ShowIf(v.summary.Box, len(rows) > 0)
	widgets.ShowIf(v.noGPUs, len(rows) == 0)

	v.withCurves = v.withCurves[:0]
	for _, d := range r.Directions {
		if len(d.Scaling) > 0 {
			v.withCurves = append(v.withCurves, d)
		}
	}
	widgets.ShowAll(v.curves, len(v.withCurves) > 0)
	// The threshold the report's MaxEfficientGPUs was judged by: the
	// scenario's own or the model's default.
	v.chart.SetThreshold(r.EfficiencyThreshold)
	// Every direction is in the chart's legend, one without a curve with
	// why; a report without any curve has no chart.
	var series []ChartSeries
	if len(v.withCurves) > 0 {
		series = ChartSeriesOf(r.Directions)
	}
	v.chart.SetSeries(series)
	options := make([]string, len(v.withCurves))
	chosen := 0
	for i, d := range v.withCurves {
		options[i] = TitleOf(d)
		if d.Direction == v.highlight || (d.Direction == r.Cheapest && !hasCurve(v.withCurves, v.highlight)) {
			chosen = i
		}
	}
	v.selector.Options = options
	v.fitSelector()
	// Either fills the table through showCurve.
	if len(options) > 0 {
		v.selector.SetSelectedIndex(chosen)
	} else {
		v.selector.ClearSelected()
	}

	srows := servingRows(r, v.highlight)
	v.servingGrid.Set(srows)
	serving := len(srows) > 0 || (r.Shape == scenario.ShapeInteractive && len(v.withCurves) == 0)
	widgets.ShowAll(v.serving, serving)
	widgets.ShowIf(v.servingGrid.Box, len(srows) > 0)
	widgets.ShowIf(v.noCurves, len(rows) > 0 && len(v.withCurves) == 0 && !serving)

	v.scroll.Offset = fyne.Position{}
	v.relayout()
}

// SetHighlight puts the rows of direction highlight (the recommended one)
// in bold.
func (v *Scaling) SetHighlight(highlight string) {
	v.highlight = highlight
	if v.report == nil {
		return
	}
	v.summary.Set(summaryRows(v.report, highlight))
	v.servingGrid.Set(servingRows(v.report, highlight))
	v.stale = !v.content.Visible() // laying out a hidden tab is wasted: do it when shown
	if !v.stale {
		v.relayout()
	}
}

// Shown lays the tab out again if its rows changed while it was hidden;
// the window calls it when the tab is chosen.
func (v *Scaling) Shown() {
	if v.stale {
		v.stale = false
		v.relayout()
	}
}

// seriesIndex is the chart's series of direction, -1 when it has none.
func (v *Scaling) seriesIndex(direction string) int {
	if v.report == nil {
		return -1
	}
	for i, d := range v.report.Directions {
		if d.Direction == direction {
			return i
		}
	}
	return -1
}

// hasCurve reports whether direction is among ds.
func hasCurve(ds []model.DirectionResult, direction string) bool {
	for _, d := range ds {
		if d.Direction == direction {
			return true
		}
	}
	return false
}

// relayout places the parts again after some were shown, hidden or
// refilled: neither a container nor a scroll notices that by itself.
func (v *Scaling) relayout() {
	widgets.Refit(v.scroll)
}

// fitSelector makes the selector wide enough for its longest option, which
// widget.Select does not do by itself.
func (v *Scaling) fitSelector() {
	size := v.selector.MinSize()
	base := fyne.MeasureText(v.selector.PlaceHolder, theme.TextSize(), fyne.TextStyle{}).Width
	widest := base
	for _, o := range v.selector.Options {
		widest = max(widest, fyne.MeasureText(o, theme.TextSize(), fyne.TextStyle{}).Width)
	}
	size.Width += widest - base
	v.selectorBox.Layout.(*widgets.FixedSize).Size = size
	v.selectorBox.Refresh()
}

// showCurve fills the table and calibration line for the direction titled
// title; it is the selector's callback.
func (v *Scaling) showCurve(title string) {
	for _, d := range v.withCurves {
		if TitleOf(d) != title {
			continue
		}
		v.detail.Set(curveRows(d))
		v.calibration.SetText(calibrationText(d.Calibration))
		widgets.ShowIf(v.calibration, d.Calibration != nil)
		v.chart.SetHighlight(v.seriesIndex(d.Direction))
		v.relayout()
		return
	}
	v.detail.Set(nil)
	v.calibration.Hide()
	v.chart.SetHighlight(-1)
	v.relayout()
}

// The summary table's columns.
const (
	sumDirection = iota
	sumGPUs
	sumBottleneck
	sumMemory
	sumEfficient
	sumDataPath
	sumCheckpoints
	sumServing
	numSummaryColumns
)

var summaryColumns = [numSummaryColumns]string{
	sumDirection:   "Direction",
	sumGPUs:        "GPUs chosen",
	sumBottleneck:  "Bottleneck",
	sumMemory:      "Memory\nper GPU\n(GB)",
	sumEfficient:   "Efficient\nup to\n(GPUs)",
	sumDataPath:    "Data path,\nGB/s needed\nof available",
	sumCheckpoints: "Checkpoints",
	sumServing:     "Serving",
}

var summaryAlign = []fyne.TextAlign{
	sumDirection:   fyne.TextAlignLeading,
	sumGPUs:        fyne.TextAlignLeading,
	sumBottleneck:  fyne.TextAlignLeading,
	sumMemory:      fyne.TextAlignTrailing,
	sumEfficient:   fyne.TextAlignTrailing,
	sumDataPath:    fyne.TextAlignLeading,
	sumCheckpoints: fyne.TextAlignLeading,
	sumServing:     fyne.TextAlignLeading,
}

// summaryRows is one row per direction that runs on GPUs, in the report's
// order, the highlighted direction's in bold; "—" where a figure does not
// apply.
func summaryRows(r *model.Report, highlight string) []widgets.GridRow {
	var rows []widgets.GridRow
	for _, d := range r.Directions {
		if d.GPU == "" {
			continue // a per-token service: nothing to size
		}
		cells := make([]string, numSummaryColumns)
		cells[sumDirection] = TitleOf(d)
		cells[sumGPUs] = present.GPUs(d.GPU, d.GPUs) + layoutText(d)
		cells[sumBottleneck] = present.Humanize(d.Bottleneck.Text())
		cells[sumMemory] = OrDash(d.MemoryPerGPUGB <= 0, present.Figure(d.MemoryPerGPUGB))
		cells[sumEfficient] = OrDash(len(d.Scaling) == 0 || d.MaxEfficientGPUs <= 0, present.Number(float64(d.MaxEfficientGPUs)))
		cells[sumDataPath] = dataPathText(d.DataPath)
		cells[sumCheckpoints] = checkpointText(d.Interruptions)
		cells[sumServing] = servingText(d.Serving)
		rows = append(rows, widgets.GridRow{Cells: cells, Bold: d.Feasible && d.Direction == highlight, Danger: -1})
	}
	return rows
}

// layoutText is the parallel layout under the GPU count when the model
// is split over GPUs: "TP 8 × PP 2 × DP 3" and the pipeline's bubble for
// training, "TP 8 × PP 2 a replica" for serving; "" otherwise.
func layoutText(d model.DirectionResult) string {
	l := d.Layout
	if l == nil || (l.Tensor <= 1 && l.Pipeline <= 1) {
		return ""
	}
	if d.Serving != nil {
		return "\nTP " + Whole(l.Tensor) + " × PP " + Whole(l.Pipeline) + " a replica"
	}
	text := "\nTP " + Whole(l.Tensor) + " × PP " + Whole(l.Pipeline) + " × DP " + Whole(l.Data)
	if l.Pipeline > 1 {
		text += "\nbubble " + present.Percent(l.Bubble)
	}
	return text
}

// dataPathText is "0.0624 of 2 GB/s" with the staging time underneath.
func dataPathText(p *model.DataPath) string {
	if p == nil {
		return NoValue
	}
	text := present.Figure(p.NeededGBs) + " of " + present.Figure(p.AvailableGBs) + " GB/s"
	if p.StagingHours > 0 {
		text += "\nstaging " + present.Hours(p.StagingHours) + " h"
	}
	return text
}

// checkpointText is the checkpoint plan: how long one takes (and how often,
// on spot capacity), the overhead when interruptions are modelled, and the
// wall-time jobs on HPC.
func checkpointText(in *model.Interruptions) string {
	if in == nil {
		return NoValue
	}
	first := present.Figure(in.CheckpointMinutes) + " min each"
	if in.IntervalHours > 0 {
		first = present.Figure(in.CheckpointMinutes) + " min every " + present.Hours(in.IntervalHours) + " h"
	}
	lines := []string{first}
	if in.MTBIHours > 0 || in.OverheadFraction > 0 {
		lines = append(lines, present.Fixed(in.OverheadFraction*100, 1)+" % overhead")
	}
	// Spot runs are one job; the wall-time plan (no interruption rate) is
	// worth stating even when it needs only one.
	if in.WallTimeChunks > 1 || (in.MTBIHours == 0 && in.WallTimeChunks > 0) {
		lines = append(lines, present.Count(in.WallTimeChunks, "wall-time job"))
	}
	return strings.Join(lines, "\n")
}

// servingText is the serving plan in short lines, so the column stays
// narrow.
func servingText(s *model.Serving) string {
	if s == nil {
		return NoValue
	}
	return fmt.Sprintf("%s/replica\nbatch %s\nreplicas %s peak, %s mean\n%s ms latency",
		present.Count(s.GPUsPerReplica, "GPU"), present.Number(float64(s.Batch)),
		present.Number(float64(s.ReplicasPeak)), present.Number(float64(s.ReplicasMean)),
		present.Fixed(s.LatencyMS, 0))
}

// The scaling table's columns.
const (
	curveGPUs = iota
	curveStep
	curveSpeedup
	curveEfficiency
	curveTime
	curveBottleneck
	numCurveColumns
)

var curveColumns = [numCurveColumns]string{
	curveGPUs:       "GPUs",
	curveStep:       "Step (s)",
	curveSpeedup:    "Speedup",
	curveEfficiency: "Efficiency",
	curveTime:       "Time to\nresult (h)",
	curveBottleneck: "Bottleneck",
}

var curveAlign = []fyne.TextAlign{
	curveGPUs:       fyne.TextAlignTrailing,
	curveStep:       fyne.TextAlignTrailing,
	curveSpeedup:    fyne.TextAlignTrailing,
	curveEfficiency: fyne.TextAlignTrailing,
	curveTime:       fyne.TextAlignTrailing,
	curveBottleneck: fyne.TextAlignLeading,
}

// curveRows is direction d's scaling curve, one row per GPU count: the
// chosen count in bold, counts whose run does not fit GPU memory marked.
func curveRows(d model.DirectionResult) []widgets.GridRow {
	rows := make([]widgets.GridRow, 0, len(d.Scaling))
	for _, p := range d.Scaling {
		cells := make([]string, numCurveColumns)
		cells[curveGPUs] = present.Number(float64(p.GPUs))
		chosen := p.GPUs == d.GPUs
		if chosen {
			cells[curveGPUs] += " (chosen)"
		}
		cells[curveStep] = present.Figure(p.StepSeconds)
		cells[curveSpeedup] = present.Figure(p.Speedup)
		cells[curveEfficiency] = present.Percent(p.Efficiency)
		cells[curveTime] = present.Hours(p.TimeToResultHours)
		cells[curveBottleneck] = present.Humanize(p.Bottleneck.Text())
		row := widgets.GridRow{Cells: cells, Bold: chosen, Danger: -1}
		if !p.Fits {
			cells[curveBottleneck] = present.Humanize(p.Bottleneck.Text()) + " — does not fit"
			if p.Bottleneck == "" {
				cells[curveBottleneck] = "Does not fit"
			}
			row.Danger = curveBottleneck
		}
		rows = append(rows, row)
	}
	return rows
}

// calibrationText is the line under the selector for a direction whose
// curve was fitted to a trial (Gunther's Universal Scalability Law).
func calibrationText(c *model.Calibration) string {
	if c == nil {
		return ""
	}
	peak := "no peak (κ = 0)"
	if c.NMax > 0 {
		peak = "peak at N_max " + present.Figure(c.NMax) + " GPUs"
	}
	return fmt.Sprintf("Calibrated from the trial: σ %s, κ %s, R² %s, %s.",
		present.Figure(c.Sigma), present.Figure(c.Kappa), present.Fixed(c.R2, 3), peak)
}

// The serving table's columns.
const (
	srvDirection = iota
	srvPerReplica
	srvBatch
	srvReplicas
	srvStep
	srvTokens
	srvRequests
	srvLatency
	srvLimit
	numServingColumns
)

var servingColumns = [numServingColumns]string{
	srvDirection:  "Direction",
	srvPerReplica: "GPUs per\nreplica",
	srvBatch:      "Batch",
	srvReplicas:   "Replicas\npeak / mean",
	srvStep:       "Decode\nstep (ms)",
	srvTokens:     "Output tokens/s\nper replica",
	srvRequests:   "Requests/s\nper replica",
	srvLatency:    "Latency\n(ms)",
	srvLimit:      "Limited by",
}

var servingAlign = []fyne.TextAlign{
	srvDirection:  fyne.TextAlignLeading,
	srvPerReplica: fyne.TextAlignTrailing,
	srvBatch:      fyne.TextAlignTrailing,
	srvReplicas:   fyne.TextAlignTrailing,
	srvStep:       fyne.TextAlignTrailing,
	srvTokens:     fyne.TextAlignTrailing,
	srvRequests:   fyne.TextAlignTrailing,
	srvLatency:    fyne.TextAlignTrailing,
	srvLimit:      fyne.TextAlignLeading,
}

// servingRows is one row per direction with a serving plan, the
// highlighted direction's in bold.
func servingRows(r *model.Report, highlight string) []widgets.GridRow {
	var rows []widgets.GridRow
	for _, d := range r.Directions {
		s := d.Serving
		if s == nil {
			continue
		}
		limit := "Compute"
		if s.MemoryBound {
			limit = "Memory bandwidth"
		}
		cells := []string{
			srvDirection:  TitleOf(d),
			srvPerReplica: present.Number(float64(s.GPUsPerReplica)),
			srvBatch:      present.Number(float64(s.Batch)),
			srvReplicas:   present.Number(float64(s.ReplicasPeak)) + " / " + present.Number(float64(s.ReplicasMean)),
			srvStep:       present.Figure(s.DecodeStepMS),
			srvTokens:     present.Fixed(s.TokensPerSecond, 0),
			srvRequests:   present.Figure(s.RequestsPerSec),
			srvLatency:    present.Fixed(s.LatencyMS, 0),
			srvLimit:      limit,
		}
		rows = append(rows, widgets.GridRow{Cells: cells, Bold: d.Feasible && d.Direction == highlight, Danger: -1})
	}
	return rows
}
