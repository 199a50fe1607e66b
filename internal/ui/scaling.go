package ui

import (
	"fmt"
	"image/color"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// servingNote explains why an interactive service has no scaling curve.
const servingNote = "Serving is sized by replicas, not by scaling one job: each replica holds the model on a few GPUs, and the count of replicas follows the load."

// scalingView is the Scaling tab: a summary of each direction's
// performance, its scaling efficiency as a chart, and one direction's
// scaling curve as a table. For an interactive service, which scales by
// replicas, it shows the serving plan instead of the chart.
type scalingView struct {
	summary  *grid // one row per direction that runs on GPUs
	noGPUs   *widget.Label
	noCurves *widget.Label // for a training or batch report without curves

	curves      []fyne.CanvasObject // heading, chart, selector, calibration and table
	chart       *efficiencyChart
	selector    *widget.Select
	selectorBox *fyne.Container // sizes the selector to its longest option
	calibration *widget.Label
	detail      *grid // the selected direction's curve

	serving     []fyne.CanvasObject // heading, note and table
	servingNote *widget.Label
	servingGrid *grid

	withCurves []model.DirectionResult // directions in the selector, in its order
	page       *fyne.Container         // every part above, one under another
	scroll     *container.Scroll
	content    fyne.CanvasObject
}

func newScalingView() *scalingView {
	v := &scalingView{}

	v.summary = newGrid(summaryColumns[:], summaryAlign)
	v.noGPUs = widget.NewLabel("No direction runs on GPUs of its own: per-token services are not sized by GPU count.")
	v.noGPUs.Wrapping = fyne.TextWrapWord
	v.noCurves = widget.NewLabel("No direction in this report has a scaling curve.")
	v.noCurves.Wrapping = fyne.TextWrapWord

	v.chart = newEfficiencyChart()
	v.selector = widget.NewSelect(nil, v.showCurve)
	v.selectorBox = container.New(&fixedSizeLayout{v.selector.MinSize()}, v.selector)
	v.calibration = widget.NewLabel("")
	v.calibration.Wrapping = fyne.TextWrapWord
	v.detail = newGrid(curveColumns[:], curveAlign)
	v.curves = []fyne.CanvasObject{
		sectionHeading("Scaling efficiency"),
		v.chart,
		container.NewHBox(widget.NewLabel("Scaling of"), v.selectorBox),
		v.calibration,
		v.detail.box,
	}

	v.servingNote = widget.NewLabel(servingNote)
	v.servingNote.Wrapping = fyne.TextWrapWord
	v.servingGrid = newGrid(servingColumns[:], servingAlign)
	v.serving = []fyne.CanvasObject{sectionHeading("Serving"), v.servingNote, v.servingGrid.box}

	parts := []fyne.CanvasObject{sectionHeading("Per direction"), v.summary.box, v.noGPUs, v.noCurves}
	parts = append(parts, v.curves...)
	parts = append(parts, v.serving...)
	layout := &pageLayout{}
	v.page = container.New(layout, parts...)
	v.scroll = container.NewScroll(v.page)
	v.content = container.New(&viewportLayout{layout: layout, page: v.page}, v.scroll)
	return v
}

// sectionHeading is a bold subheading over a part of the tab.
func sectionHeading(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.TextStyle.Bold = true
	l.SizeName = theme.SizeNameSubHeadingText
	return l
}

// set shows report r.
func (v *scalingView) set(r *model.Report) {
	rows := summaryRows(r)
	v.summary.set(rows)
	showIf(v.summary.box, len(rows) > 0)
	showIf(v.noGPUs, len(rows) == 0)

	v.withCurves = v.withCurves[:0]
	for _, d := range r.Directions {
		if len(d.Scaling) > 0 {
			v.withCurves = append(v.withCurves, d)
		}
	}
	showAll(v.curves, len(v.withCurves) > 0)
	// The threshold the report's MaxEfficientGPUs was judged by: the
	// scenario's own or the model's default.
	v.chart.setThreshold(r.EfficiencyThreshold)
	v.chart.setSeries(chartSeriesOf(v.withCurves))
	options := make([]string, len(v.withCurves))
	chosen := 0
	for i, d := range v.withCurves {
		options[i] = titleOf(d)
		if d.Direction == r.Cheapest {
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

	srows := servingRows(r)
	v.servingGrid.set(srows)
	serving := len(srows) > 0 || (r.Shape == scenario.ShapeInteractive && len(v.withCurves) == 0)
	showAll(v.serving, serving)
	showIf(v.servingGrid.box, len(srows) > 0)
	showIf(v.noCurves, len(rows) > 0 && len(v.withCurves) == 0 && !serving)

	v.scroll.Offset = fyne.Position{}
	v.relayout()
}

// relayout places the parts again after some were shown, hidden or
// refilled: neither a container nor a scroll notices that by itself.
func (v *scalingView) relayout() {
	v.page.Refresh()
	v.scroll.Refresh()
}

// fitSelector makes the selector wide enough for its longest option, which
// widget.Select does not do by itself.
func (v *scalingView) fitSelector() {
	size := v.selector.MinSize()
	base := fyne.MeasureText(v.selector.PlaceHolder, theme.TextSize(), fyne.TextStyle{}).Width
	widest := base
	for _, o := range v.selector.Options {
		widest = max(widest, fyne.MeasureText(o, theme.TextSize(), fyne.TextStyle{}).Width)
	}
	size.Width += widest - base
	v.selectorBox.Layout.(*fixedSizeLayout).size = size
	v.selectorBox.Refresh()
}

// fixedSizeLayout gives its one object a fixed size.
type fixedSizeLayout struct{ size fyne.Size }

func (f *fixedSizeLayout) MinSize([]fyne.CanvasObject) fyne.Size { return f.size }

func (f *fixedSizeLayout) Layout(objects []fyne.CanvasObject, _ fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(f.size)
	}
}

// showCurve fills the table and calibration line for the direction titled
// title; it is the selector's callback.
func (v *scalingView) showCurve(title string) {
	for i, d := range v.withCurves {
		if titleOf(d) != title {
			continue
		}
		v.detail.set(curveRows(d))
		v.calibration.SetText(calibrationText(d.Calibration))
		showIf(v.calibration, d.Calibration != nil)
		v.chart.setHighlight(i)
		v.relayout()
		return
	}
	v.detail.set(nil)
	v.calibration.Hide()
	v.chart.setHighlight(-1)
	v.relayout()
}

func showIf(o fyne.CanvasObject, show bool) {
	if show {
		o.Show()
	} else {
		o.Hide()
	}
}

func showAll(objects []fyne.CanvasObject, show bool) {
	for _, o := range objects {
		showIf(o, show)
	}
}

// pageLayout stacks the tab's parts like a VBox, except that tables keep
// their natural width while everything else (the chart, sentences) takes
// the visible width. A table wider than the pane makes the page scroll
// sideways, but the chart stays in view and its labels are not cut off.
type pageLayout struct {
	visible float32 // the width of the scroll's viewport; 0 until known
}

func (p *pageLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	n := 0
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		m := o.MinSize()
		s.Width = max(s.Width, m.Width)
		s.Height += m.Height
		n++
	}
	if n > 1 {
		s.Height += float32(n-1) * theme.Padding()
	}
	return s
}

func (p *pageLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	width := size.Width
	if p.visible > 0 {
		width = min(width, p.visible)
	}
	y := float32(0)
	for _, o := range objects {
		if !o.Visible() {
			continue
		}
		w := width
		if isGrid(o) {
			w = max(width, o.MinSize().Width)
		}
		// A wrapping label's height depends on its width: set the width
		// first, then ask.
		o.Resize(fyne.NewSize(w, o.Size().Height))
		h := o.MinSize().Height
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(w, h))
		y += h + theme.Padding()
	}
}

func isGrid(o fyne.CanvasObject) bool {
	c, ok := o.(*fyne.Container)
	if !ok {
		return false
	}
	_, ok = c.Layout.(*gridLayout)
	return ok
}

// viewportLayout holds the page's scroll and tells the page how wide the
// visible part is, laying the page out again when that changes even if the
// page itself keeps its size.
type viewportLayout struct {
	layout *pageLayout
	page   *fyne.Container // laid out by layout, inside the scroll
}

func (v *viewportLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return objects[0].MinSize()
}

func (v *viewportLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	changed := v.layout.visible != size.Width
	v.layout.visible = size.Width
	objects[0].Resize(size)
	if changed {
		v.layout.Layout(v.page.Objects, v.page.Size())
	}
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
// order; "—" where a figure does not apply.
func summaryRows(r *model.Report) []gridRow {
	var rows []gridRow
	for _, d := range r.Directions {
		if d.GPU == "" {
			continue // a per-token service: nothing to size
		}
		cells := make([]string, numSummaryColumns)
		cells[sumDirection] = titleOf(d)
		cells[sumGPUs] = present.GPUs(d.GPU, d.GPUs)
		cells[sumBottleneck] = present.Humanize(d.Bottleneck.Text())
		cells[sumMemory] = orDash(d.MemoryPerGPUGB <= 0, present.Figure(d.MemoryPerGPUGB))
		cells[sumEfficient] = orDash(len(d.Scaling) == 0 || d.MaxEfficientGPUs <= 0, present.Number(float64(d.MaxEfficientGPUs)))
		cells[sumDataPath] = dataPathText(d.DataPath)
		cells[sumCheckpoints] = checkpointText(d.Interruptions)
		cells[sumServing] = servingText(d.Serving)
		rows = append(rows, gridRow{cells: cells, bold: d.Feasible && d.Direction == r.Cheapest, danger: -1})
	}
	return rows
}

// dataPathText is "0.0624 of 2 GB/s" with the staging time underneath.
func dataPathText(p *model.DataPath) string {
	if p == nil {
		return noValue
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
		return noValue
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
		return noValue
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
func curveRows(d model.DirectionResult) []gridRow {
	rows := make([]gridRow, 0, len(d.Scaling))
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
		row := gridRow{cells: cells, bold: chosen, danger: -1}
		if !p.Fits {
			cells[curveBottleneck] = present.Humanize(p.Bottleneck.Text()) + " — does not fit"
			if p.Bottleneck == "" {
				cells[curveBottleneck] = "Does not fit"
			}
			row.danger = curveBottleneck
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

// servingRows is one row per direction with a serving plan.
func servingRows(r *model.Report) []gridRow {
	var rows []gridRow
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
			srvDirection:  titleOf(d),
			srvPerReplica: present.Number(float64(s.GPUsPerReplica)),
			srvBatch:      present.Number(float64(s.Batch)),
			srvReplicas:   present.Number(float64(s.ReplicasPeak)) + " / " + present.Number(float64(s.ReplicasMean)),
			srvStep:       present.Figure(s.DecodeStepMS),
			srvTokens:     present.Fixed(s.TokensPerSecond, 0),
			srvRequests:   present.Figure(s.RequestsPerSec),
			srvLatency:    present.Fixed(s.LatencyMS, 0),
			srvLimit:      limit,
		}
		rows = append(rows, gridRow{cells: cells, bold: d.Feasible && d.Direction == r.Cheapest, danger: -1})
	}
	return rows
}

// grid is a read-only table of labels: headings in bold over a rule, each
// column as wide as its widest cell. Unlike widget.Table it does not scroll
// by itself, so the Scaling tab scrolls as one page.
type grid struct {
	headings []string
	align    []fyne.TextAlign
	rows     []gridRow
	box      *fyne.Container
}

// gridRow is one row's cells and style: bold for the chosen or cheapest,
// and the cell in column danger (-1 for none) in the error colour.
type gridRow struct {
	cells  []string
	bold   bool
	danger int
}

func newGrid(headings []string, align []fyne.TextAlign) *grid {
	g := &grid{headings: headings, align: align}
	g.box = container.New(&gridLayout{cols: len(headings)})
	g.set(nil)
	return g
}

// set replaces the rows.
func (g *grid) set(rows []gridRow) {
	g.rows = rows
	objects := make([]fyne.CanvasObject, 0, (len(rows)+1)*len(g.headings)+1)
	for col, h := range g.headings {
		l := widget.NewLabel(h)
		l.TextStyle.Bold = true
		l.Alignment = g.alignOf(col)
		objects = append(objects, l)
	}
	for _, row := range rows {
		for col := range g.headings {
			text := ""
			if col < len(row.cells) {
				text = row.cells[col]
			}
			l := widget.NewLabel(text)
			l.TextStyle.Bold = row.bold
			l.Alignment = g.alignOf(col)
			if col == row.danger {
				l.Importance = widget.DangerImportance
			}
			objects = append(objects, l)
		}
	}
	objects = append(objects, widget.NewSeparator()) // the rule under the headings
	g.box.Objects = objects
	g.box.Refresh()
}

func (g *grid) alignOf(col int) fyne.TextAlign {
	if col < len(g.align) {
		return g.align[col]
	}
	return fyne.TextAlignLeading
}

// cell is the text of row i, column col, for tests.
func (g *grid) cell(i, col int) string {
	if i < 0 || i >= len(g.rows) || col < 0 || col >= len(g.rows[i].cells) {
		return ""
	}
	return g.rows[i].cells[col]
}

// gridLayout places cells row by row in cols columns, each column as wide
// as its widest cell and each row as tall as its tallest; the last object
// is a rule drawn under the first row.
type gridLayout struct{ cols int }

func (g *gridLayout) measure(objects []fyne.CanvasObject) (widths, heights []float32) {
	cells := objects[:len(objects)-1]
	widths = make([]float32, g.cols)
	heights = make([]float32, (len(cells)+g.cols-1)/g.cols)
	for i, o := range cells {
		m := o.MinSize()
		widths[i%g.cols] = max(widths[i%g.cols], m.Width)
		heights[i/g.cols] = max(heights[i/g.cols], m.Height)
	}
	return widths, heights
}

func (g *gridLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	if len(objects) == 0 {
		return fyne.Size{}
	}
	widths, heights := g.measure(objects)
	var s fyne.Size
	for _, w := range widths {
		s.Width += w
	}
	for _, h := range heights {
		s.Height += h
	}
	return s
}

func (g *gridLayout) Layout(objects []fyne.CanvasObject, _ fyne.Size) {
	if len(objects) == 0 {
		return
	}
	widths, heights := g.measure(objects)
	cells := objects[:len(objects)-1]
	total := float32(0)
	for _, w := range widths {
		total += w
	}
	y := float32(0)
	for r, h := range heights {
		x := float32(0)
		for c, w := range widths {
			i := r*g.cols + c
			if i >= len(cells) {
				break
			}
			cells[i].Move(fyne.NewPos(x, y))
			cells[i].Resize(fyne.NewSize(w, h))
			x += w
		}
		y += h
	}
	if len(heights) > 0 {
		rule := objects[len(objects)-1]
		thick := theme.SeparatorThicknessSize()
		rule.Move(fyne.NewPos(0, heights[0]-thick))
		rule.Resize(fyne.NewSize(total, thick))
	}
}

// seriesColours are the Okabe–Ito colours for colour-blind readers
// (Okabe & Ito, "Color Universal Design", 2008), fixed per direction so a
// direction keeps its colour from scenario to scenario and in both themes.
// Yellow is left out: it does not show on a light background.
var seriesColours = map[string]color.NRGBA{
	scenario.Cloud:   {0x00, 0x72, 0xb2, 0xff}, // blue
	scenario.OnPrem:  {0xd5, 0x5e, 0x00, 0xff}, // vermillion
	scenario.HPC:     {0x00, 0x9e, 0x73, 0xff}, // bluish green
	scenario.Hybrid:  {0xcc, 0x79, 0xa7, 0xff}, // reddish purple
	scenario.Managed: {0xe6, 0x9f, 0x00, 0xff}, // orange
}

// spareColour is for a direction the palette does not know: sky blue.
var spareColour = color.NRGBA{0x56, 0xb4, 0xe9, 0xff}

// chartSeries is one direction's curve on the chart.
type chartSeries struct {
	name   string
	colour color.Color
	points []chartPoint
}

// chartPoint is one GPU count on a curve.
type chartPoint struct {
	gpus       int
	efficiency float64 // in (0, 1]
	fits       bool    // the run fits GPU memory at this count
	chosen     bool    // the count the direction uses
}

// chartSeriesOf turns each direction's scaling curve into a chart series.
func chartSeriesOf(ds []model.DirectionResult) []chartSeries {
	out := make([]chartSeries, 0, len(ds))
	for _, d := range ds {
		c, ok := seriesColours[d.Direction]
		s := chartSeries{name: titleOf(d), colour: c}
		if !ok {
			s.colour = spareColour
		}
		for _, p := range d.Scaling {
			if p.GPUs <= 0 {
				continue // no place on a log axis
			}
			s.points = append(s.points, chartPoint{gpus: p.GPUs, efficiency: p.Efficiency, fits: p.Fits, chosen: p.GPUs == d.GPUs})
		}
		out = append(out, s)
	}
	return out
}

// efficiencyChart draws scaling efficiency (%) against GPU count on a log₂
// axis, one line per direction, with the efficiency threshold dashed. The
// chosen count is a large filled dot; a count whose run does not fit GPU
// memory is a hollow circle. It is redrawn from canvas primitives whenever
// it is resized or refreshed.
type efficiencyChart struct {
	widget.BaseWidget
	series    []chartSeries
	threshold float64 // a fraction: 0.7 is drawn at 70 %; 0 draws none
	highlight int     // the series drawn on top, -1 for none
}

var _ fyne.Widget = (*efficiencyChart)(nil)

func newEfficiencyChart() *efficiencyChart {
	c := &efficiencyChart{highlight: -1}
	c.ExtendBaseWidget(c)
	return c
}

// setThreshold sets the efficiency drawn dashed (a fraction; 0 for none).
// It is drawn at the next refresh.
func (c *efficiencyChart) setThreshold(threshold float64) {
	c.threshold = threshold
}

func (c *efficiencyChart) setSeries(s []chartSeries) {
	c.series = s
	c.highlight = -1
	c.Refresh()
}

func (c *efficiencyChart) setHighlight(i int) {
	c.highlight = i
	c.Refresh()
}

// seriesCount and pointCount describe what the chart plots, for tests.
func (c *efficiencyChart) seriesCount() int { return len(c.series) }

func (c *efficiencyChart) pointCount(i int) int { return len(c.series[i].points) }

// CreateRenderer implements fyne.Widget.
func (c *efficiencyChart) CreateRenderer() fyne.WidgetRenderer {
	r := &chartRenderer{chart: c}
	r.objects = c.draw(c.Size())
	return r
}

// chartMinSize leaves room for the legend, the axes and a readable plot.
var chartMinSize = fyne.NewSize(360, 320)

type chartRenderer struct {
	chart   *efficiencyChart
	objects []fyne.CanvasObject
}

func (r *chartRenderer) Layout(size fyne.Size)        { r.objects = r.chart.draw(size) }
func (r *chartRenderer) MinSize() fyne.Size           { return chartMinSize }
func (r *chartRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *chartRenderer) Destroy()                     {}

func (r *chartRenderer) Refresh() {
	r.objects = r.chart.draw(r.chart.Size())
	canvas.Refresh(r.chart)
}

// Chart geometry, in Fyne units.
const (
	swatchLength = 22 // legend line sample
	dashLength   = 6  // threshold dashes
	dashGap      = 4
	thinLine     = 2 // the width of the series drawn on top
	lineStep     = 2 // each series below is this much wider, so one hidden under another shows as its edge
)

// draw builds the chart for size: the legend on top, then the plot.
func (c *efficiencyChart) draw(size fyne.Size) []fyne.CanvasObject {
	if size.Width <= 0 || size.Height <= 0 {
		return nil
	}
	th := c.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	fg := th.Color(theme.ColorNameForeground, variant)
	bg := th.Color(theme.ColorNameBackground, variant)
	rule := th.Color(theme.ColorNameSeparator, variant)
	textSize := th.Size(theme.SizeNameText)
	smallSize := th.Size(theme.SizeNameCaptionText)
	pad := th.Size(theme.SizeNamePadding)
	// Start where a label's text starts, so the chart lines up with the
	// headings; keep clear of the vertical scroll bar on the right.
	inset := th.Size(theme.SizeNameInnerPadding)
	scrollBar := th.Size(theme.SizeNameScrollBar)

	var objs []fyne.CanvasObject
	measure := func(s string, size float32) fyne.Size {
		return fyne.MeasureText(s, size, fyne.TextStyle{})
	}
	// text puts s with its top-left corner at (x, y).
	text := func(s string, x, y, size float32, col color.Color) {
		t := canvas.NewText(s, col)
		t.TextSize = size
		t.Move(fyne.NewPos(x, y))
		t.Resize(measure(s, size))
		objs = append(objs, t)
	}
	line := func(x1, y1, x2, y2, width float32, col color.Color) {
		l := canvas.NewLine(col)
		l.StrokeWidth = width
		l.Position1 = fyne.NewPos(x1, y1)
		l.Position2 = fyne.NewPos(x2, y2)
		objs = append(objs, l)
	}
	dot := func(x, y, radius float32, fill, stroke color.Color, strokeWidth float32) {
		d := canvas.NewCircle(fill)
		d.StrokeColor = stroke
		d.StrokeWidth = strokeWidth
		d.Move(fyne.NewPos(x-radius, y-radius))
		d.Resize(fyne.NewSize(2*radius, 2*radius))
		objs = append(objs, d)
	}

	// Legend: one entry per series, then what the markers mean; entries
	// wrap onto further rows when the width runs out.
	lineH := measure("Mg", textSize).Height
	widths := c.lineWidths()
	x, y := inset, float32(0)
	entry := func(label string, drawSwatch func(x, midY float32)) {
		w := swatchLength + 2*pad + measure(label, textSize).Width
		if x > inset && x+w > size.Width-scrollBar {
			x, y = inset, y+lineH+pad
		}
		drawSwatch(x, y+lineH/2)
		text(label, x+swatchLength+2*pad, y, textSize, fg)
		x += w + 4*pad
	}
	for i, s := range c.series {
		width := widths[i]
		entry(s.name, func(x, midY float32) {
			line(x, midY, x+swatchLength, midY, max(width, 3), s.colour)
		})
	}
	entry("chosen GPU count", func(x, midY float32) {
		dot(x+swatchLength/2, midY, 5, fg, bg, 1)
	})
	entry("does not fit GPU memory", func(x, midY float32) {
		dot(x+swatchLength/2, midY, 4.5, bg, fg, 2)
	})
	legendBottom := y + lineH

	// Plot area: the y-axis title over the tick labels on the left, the
	// tick labels and the x-axis title underneath.
	smallH := measure("100 %", smallSize).Height
	yTitleTop := legendBottom + 2*pad
	text("Efficiency (%)", inset, yTitleTop, smallSize, fg)
	top := yTitleTop + smallH + pad + smallH/2
	left := inset + measure("100 %", smallSize).Width + 3*pad // room for a dot at 100 %
	maxX := c.maxGPUs()
	lastTick := present.Number(float64(maxX))
	right := size.Width - scrollBar - max(2*pad, measure(lastTick, smallSize).Width/2+pad)
	xTitle := "GPUs (log scale)"
	bottom := size.Height - (smallH + pad + smallH + pad)
	if right-left < 40 || bottom-top < 40 {
		return objs
	}
	xOf := func(n float64) float32 {
		return left + (right-left)*float32(math.Log2(n)/math.Log2(float64(maxX)))
	}
	yOf := func(eff float64) float32 {
		return bottom - (bottom-top)*float32(min(max(eff, 0), 1))
	}

	// Horizontal grid lines and labels at every quarter.
	for _, p := range []float64{0, 0.25, 0.5, 0.75, 1} {
		yy := yOf(p)
		if p > 0 {
			line(left, yy, right, yy, 1, rule)
		}
		label := present.Percent(p)
		m := measure(label, smallSize)
		text(label, left-2*pad-m.Width, yy-m.Height/2, smallSize, fg)
	}
	// Vertical grid lines at every power of two; labels thinned out so
	// they never touch.
	ticks := int(math.Round(math.Log2(float64(maxX)))) + 1
	spacing := (right - left) / float32(max(ticks-1, 1))
	every := int(math.Ceil(float64((measure(lastTick, smallSize).Width + 2*pad) / spacing)))
	every = max(every, 1)
	for k := range ticks {
		n := float64(int(1) << k)
		xx := xOf(n)
		if k > 0 {
			line(xx, top, xx, bottom, 1, rule)
		}
		line(xx, bottom, xx, bottom+pad/2, 1, fg)
		if k%every == 0 {
			label := present.Number(n)
			m := measure(label, smallSize)
			text(label, xx-m.Width/2, bottom+pad/2, smallSize, fg)
		}
	}
	// Axes.
	line(left, top, left, bottom, 1, fg)
	line(left, bottom, right, bottom, 1, fg)
	m := measure(xTitle, smallSize)
	text(xTitle, left+(right-left-m.Width)/2, bottom+pad/2+smallH+pad, smallSize, fg)

	// The threshold, dashed, labelled at its left end where the curves,
	// which start at 100 %, rarely are.
	if c.threshold > 0 {
		ty := yOf(c.threshold)
		for xx := left; xx < right; xx += dashLength + dashGap {
			line(xx, ty, min(xx+dashLength, right), ty, 1.5, fg)
		}
		thresholdLabel := present.Percent(c.threshold) + " threshold"
		text(thresholdLabel, left+pad, ty-smallH-2, smallSize, fg)
	}

	// Curves: the lines first, widest underneath, the highlighted one on
	// top; then the markers, so no line covers a dot.
	order := c.drawOrder()
	for _, i := range order {
		s := c.series[i]
		for j := 1; j < len(s.points); j++ {
			a, b := s.points[j-1], s.points[j]
			line(xOf(float64(a.gpus)), yOf(a.efficiency), xOf(float64(b.gpus)), yOf(b.efficiency), widths[i], s.colour)
		}
	}
	for _, i := range order {
		s := c.series[i]
		for _, p := range s.points {
			xx, yy := xOf(float64(p.gpus)), yOf(p.efficiency)
			switch {
			case p.chosen && !p.fits:
				dot(xx, yy, 6, bg, s.colour, 2.5)
			case p.chosen:
				dot(xx, yy, 6, s.colour, bg, 1.5)
			case !p.fits:
				dot(xx, yy, 4.5, bg, s.colour, 2)
			default:
				dot(xx, yy, widths[i]/2+1.5, s.colour, nil, 0)
			}
		}
	}
	return objs
}

// maxGPUs is the right end of the x axis: the smallest power of two at or
// above every plotted count, and at least 2 so the axis has a length.
func (c *efficiencyChart) maxGPUs() int {
	n := 2
	for _, s := range c.series {
		for _, p := range s.points {
			for n < p.gpus {
				n *= 2
			}
		}
	}
	return n
}

// drawOrder lists the series in the order they are drawn: the report's
// order, with the highlighted series moved to the end.
func (c *efficiencyChart) drawOrder() []int {
	order := make([]int, 0, len(c.series))
	for i := range c.series {
		if i != c.highlight {
			order = append(order, i)
		}
	}
	if c.highlight >= 0 && c.highlight < len(c.series) {
		order = append(order, c.highlight)
	}
	return order
}

// lineWidths gives each series a width by its place in the drawing order:
// the last drawn thinnest, each earlier one wider, so curves that coincide
// (cloud and hybrid on the same GPUs) all stay visible as nested bands.
func (c *efficiencyChart) lineWidths() []float32 {
	widths := make([]float32, len(c.series))
	order := c.drawOrder()
	for k, i := range order {
		widths[i] = thinLine + lineStep*float32(len(order)-1-k)
	}
	return widths
}
