package ui

import (
	"errors"
	"fmt"
	"slices"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/catalog"
	"hostplan/internal/estimate"
	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// The calculators of the Tools menu: a training run, a serving replica
// and a checkpoint interval, as "hostplan estimate train|serve|checkpoint"
// computes them. Each is a form whose answer follows every change; the
// inputs are checked by package app, as for the command line, and a bad
// one is named by its label beneath its field.

// calcForm is a calculator's form and answer.
type calcForm struct {
	labels   map[string]string        // field key → label, for the problems
	problems map[string]*widget.Label // field key → the label beneath its field
	rows     []fyne.CanvasObject      // label, field pairs
	general  *widget.Label            // a problem of no one field
	answer   *fyne.Container          // rows of what, estimate, how
	compute  func()
}

func newCalcForm() *calcForm {
	f := &calcForm{labels: map[string]string{}, problems: map[string]*widget.Label{}}
	f.general = widget.NewLabel("")
	f.general.Importance = widget.DangerImportance
	f.general.Wrapping = fyne.TextWrapWord
	f.general.Hide()
	f.answer = container.New(widgets.NewFillGridLayout(3, 2, 160))
	return f
}

// field adds an input: its label, the widget, one line of help and room
// for its problem.
func (f *calcForm) field(key, label, help string, w fyne.CanvasObject) {
	f.labels[key] = label
	l := widget.NewLabel(label)
	l.TextStyle.Bold = true
	h := widget.NewLabel(help)
	h.Wrapping = fyne.TextWrapWord
	h.SizeName = theme.SizeNameCaptionText
	p := widget.NewLabel("")
	p.Importance = widget.DangerImportance
	p.Wrapping = fyne.TextWrapWord
	p.Hide()
	f.problems[key] = p
	f.rows = append(f.rows, l, container.New(&widgets.TightVBox{}, w, h, p))
}

// entry adds a text input with a placeholder and a starting value.
func (f *calcForm) entry(key, label, help, value string, onEscape func()) *escEntry {
	e := newEscEntry(onEscape)
	e.SetText(value)
	e.OnChanged = func(string) { f.compute() }
	f.field(key, label, help, e)
	return e
}

// show sets the answer, or the problem beneath its field.
func (f *calcForm) show(err error, rows []widgets.GridRow) {
	for _, p := range f.problems {
		p.Hide()
	}
	f.general.Hide()
	if err != nil {
		rows = nil
		var b *estimate.BadInput
		switch {
		case errors.As(err, &b) && f.problems[b.Field] != nil:
			p := f.problems[b.Field]
			p.SetText(present.Sentence(b.Say(f.label)))
			p.Show()
		case errors.As(err, &b):
			f.general.SetText(present.Sentence(b.Say(f.label)))
			f.general.Show()
		default:
			f.general.SetText(present.Sentence(err.Error()))
			f.general.Show()
		}
	}
	f.setAnswer(rows)
}

// setAnswer lays out the answer: what, the estimate in bold, and how it
// was reached, which wraps; a cell in the danger column in the error
// colour.
func (f *calcForm) setAnswer(rows []widgets.GridRow) {
	var objects []fyne.CanvasObject
	for _, r := range rows {
		for c, text := range r.Cells {
			l := widget.NewLabel(text)
			switch c {
			case 1:
				l.TextStyle.Bold = true
			case 2:
				l.Wrapping = fyne.TextWrapWord
			}
			if c == r.Danger {
				l.Importance = widget.DangerImportance
			}
			objects = append(objects, l)
		}
	}
	f.answer.Objects = objects
	f.answer.Refresh()
}

// label names an input for a problem.
func (f *calcForm) label(key string) string {
	if l, ok := f.labels[key]; ok {
		return l
	}
	return key
}

// content is the form over its answer, scrolling as one page.
func (f *calcForm) content(intro string) fyne.CanvasObject {
	head := widget.NewLabel(intro)
	head.Wrapping = fyne.TextWrapWord
	form := container.New(widgets.NewFillGridLayout(2, 1, 200), f.rows...)
	answer := container.NewVBox(widgets.SectionHeading("Estimate"), f.general, f.answer)
	// The form beside its answer, so a change and its effect are both
	// in view.
	split := container.NewHSplit(container.NewVScroll(form), container.NewVScroll(answer))
	split.Offset = 0.5
	return container.NewBorder(head, nil, nil, nil, split)
}

// showCalculator opens a calculator's dialog.
func (p *planner) showCalculator(title string, content fyne.CanvasObject) dialog.Dialog {
	size := p.window.Canvas().Size()
	body := container.New(&widgets.FixedSize{Size: fyne.NewSize(min(960, size.Width*0.85), min(760, size.Height*0.85))}, content)
	d := dialog.NewCustom(title, "Close", body, p.window)
	p.dialogs.showDialog(d)
	return d
}

// gpuChoices are the catalog's GPUs as a select lists them, and the ids
// in the same order.
func gpuChoices(cat *catalog.Catalog) (labels, ids []string) {
	for _, g := range cat.GPUs {
		labels = append(labels, fmt.Sprintf("%s (%s)", g.Name, g.ID))
		ids = append(ids, g.ID)
	}
	return labels, ids
}

// selectID is a select over labels whose value is the matching id.
func selectID(labels, ids []string, want string, onChange func()) (*widgets.KeySelect, func() string) {
	s := widgets.NewKeySelect(labels, func(string) { onChange() })
	i := max(0, slices.Index(ids, want))
	if len(labels) > 0 {
		s.SetSelectedIndex(i)
	}
	return s, func() string {
		if i := s.SelectedIndex(); i >= 0 && i < len(ids) {
			return ids[i]
		}
		return ""
	}
}

// catalogFor reads the catalog in use for a calculator, or shows why it
// cannot.
func (p *planner) catalogFor(title string) (*catalog.Catalog, Backend, bool) {
	var cat *catalog.Catalog
	if err := safeCall(func() (err error) { cat, err = p.backend.Catalog(); return err }); err != nil {
		p.showProblems("Could not open the "+title, []string{err.Error()})
		return nil, nil, false
	}
	return cat, p.backend, true
}

// showTrainCalculator opens the training estimate.
func (p *planner) showTrainCalculator() {
	cat, calc, ok := p.catalogFor("training estimate")
	if !ok {
		return
	}
	var d dialog.Dialog
	esc := func() { d.Hide() }
	f := newCalcForm()
	f.compute = func() {}
	params := f.entry("params", "Parameters", "The model's parameters: 7e10, or with K, M, B or T (70B).", "70B", esc)
	tokens := f.entry("tokens", "Training tokens", "Tokens the run trains on: 1.4T, 2e12.", "1.4T", esc)
	labels, ids := gpuChoices(cat)
	gpu, gpuID := selectID(labels, ids, "h100-sxm", func() { f.compute() })
	f.field("gpu", "GPU", "The accelerator, from the catalog.", gpu)
	gpus := f.entry("gpus", "GPUs", "How many GPUs the run uses.", "512", esc)
	const byMFU, byTFLOPs = "Share of the GPU's peak (MFU)", "Achieved TFLOP/s per GPU"
	var mfu, tflops *escEntry
	var precision *widgets.KeySelect
	mode := widgets.NewKeySelect([]string{byMFU, byTFLOPs}, func(v string) {
		// The one not used is greyed out.
		for _, w := range []fyne.Disableable{mfu, precision} {
			widgets.EnableIf(w, v != byTFLOPs)
		}
		widgets.EnableIf(tflops, v == byTFLOPs)
		f.compute()
	})
	f.field("mode", "Throughput given as", "Model FLOPs utilisation of the peak, or measured TFLOP/s.", mode)
	mfu = f.entry("mfu", "MFU", "Share of the peak the run achieves: 0 < MFU ≤ 1; 0.35–0.5 is typical.", "0.4", esc)
	tflops = f.entry("tflops", "Achieved TFLOP/s", "Measured TFLOP/s per GPU, instead of the MFU.", "", esc)
	precision = widgets.NewKeySelect([]string{"bf16", "fp8"}, func(string) { f.compute() })
	precision.SetSelected("bf16")
	f.field("precision", "Precision", "Which peak the MFU applies to.", precision)
	recompute := widgets.NewKeyCheck("Full activation recomputation (k = 8)", func(bool) { f.compute() })
	f.field("recompute", "Recomputation", "Recomputing activations costs one more forward pass.", recompute)
	f.compute = func() {
		in := estimate.TrainInput{Params: estimate.Entered(params.Text), Tokens: estimate.Entered(tokens.Text), GPU: gpuID(),
			GPUs: estimate.Entered(gpus.Text), Precision: precision.Selected, Recompute: recompute.Checked}
		if mode.Selected == byTFLOPs {
			in.TFLOPs = estimate.Entered(tflops.Text)
		} else {
			in.MFU = estimate.Entered(mfu.Text)
		}
		res, err := calc.EstimateTrain(in)
		f.show(err, trainRows(res))
	}
	mode.SetSelected(byMFU)
	f.compute()
	d = p.showCalculator("Training estimate", f.content("How much compute a training run needs and how long it takes, before a scenario exists: C = k·P·D FLOPs (k = 6; Kaplan et al. 2020) at linear scaling; the model state per GPU under each ZeRO sharding (Rajbhandari et al. 2020)."))
}

// trainRows are the training estimate's answer.
func trainRows(r estimate.TrainResult) []widgets.GridRow {
	if r.GPUs == 0 {
		return nil
	}
	how := report.Whole(r.K) + "·P·D (Kaplan et al. 2020)"
	if r.K == 8 {
		how = "8·P·D: one more forward with recomputation (Narayanan et al. 2021)"
	}
	rows := []widgets.GridRow{
		{Cells: []string{"Training compute", present.Sci(r.FLOPs) + " FLOPs", how}, Danger: -1},
		{Cells: []string{"GPU-hours", present.Whole(r.GPUHours), fmt.Sprintf("at %s TFLOP/s achieved per %s", present.Figure(r.Achieved/1e12), r.GPU.ID)}, Danger: -1},
		{Cells: []string{"Elapsed", present.Figure(r.Days) + " days", "on " + report.Whole(r.GPUs) + " GPUs at linear scaling; a scenario's Scaling tab has the curve"}, Danger: -1},
	}
	for _, sh := range []struct{ key, title string }{{"replicated", "replicated"}, {"zero1", "ZeRO stage 1"}, {"zero2", "ZeRO stage 2"}, {"zero3", "ZeRO stage 3"}} {
		gb := r.ModelStateGBPerGPU[sh.key]
		fits, danger := fmt.Sprintf("fits the %s GB of one %s, before activations", present.Whole(r.GPU.MemoryGB), r.GPU.ID), -1
		if gb > r.GPU.MemoryGB {
			fits, danger = fmt.Sprintf("does not fit the %s GB of one %s", present.Whole(r.GPU.MemoryGB), r.GPU.ID), 2
		}
		rows = append(rows, widgets.GridRow{Cells: []string{"Model state per GPU, " + sh.title, present.Figure(gb) + " GB", fits}, Danger: danger})
	}
	return rows
}

// showServeCalculator opens the serving estimate.
func (p *planner) showServeCalculator() {
	cat, calc, ok := p.catalogFor("serving estimate")
	if !ok {
		return
	}
	var d dialog.Dialog
	esc := func() { d.Hide() }
	f := newCalcForm()
	f.compute = func() {}
	var mLabels, mIDs []string
	for _, m := range cat.Models {
		mLabels = append(mLabels, fmt.Sprintf("%s (%s)", m.Name, m.ID))
		mIDs = append(mIDs, m.ID)
	}
	mdl, modelID := selectID(mLabels, mIDs, "llama-3.1-70b", func() { f.compute() })
	f.field("model", "Model", "The model, from the catalog.", mdl)
	labels, ids := gpuChoices(cat)
	gpu, gpuID := selectID(labels, ids, "h100-sxm", func() { f.compute() })
	f.field("gpu", "GPU", "The accelerator, from the catalog.", gpu)
	bits := widgets.NewKeySelect([]string{"16", "8", "4"}, func(string) { f.compute() })
	bits.SetSelected("8")
	f.field("precision", "Weight precision (bits)", "16 (bf16), 8 (fp8 or int8) or 4 (int4).", bits)
	ctx := f.entry("context", "Context (tokens)", "Tokens per sequence, prompt and output together.", "4096", esc)
	lat := f.entry("latency-ms", "Latency target (ms per token)", "The longest a decode step may take.", "50", esc)
	mfu := f.entry("mfu", "MFU of the compute roof", fmt.Sprintf("Share of the peak prefill and compute-bound steps reach; %s when empty.", present.Figure(estimate.DefaultServeMFU)), "", esc)
	f.compute = func() {
		res, err := calc.EstimateServe(estimate.ServeInput{Model: modelID(), GPU: gpuID(),
			Bits: estimate.Entered(bits.Selected), Context: estimate.Entered(ctx.Text), LatencyMS: estimate.Entered(lat.Text), MFU: estimate.Entered(mfu.Text)})
		f.show(err, serveRows(res))
	}
	f.compute()
	d = p.showCalculator("Serving estimate", f.content("What one serving replica of a catalog model does on a catalog GPU: the decode step is bound by memory bandwidth at small batches and by compute at large ones; the batch is the largest whose step meets the latency and whose KV cache fits."))
}

// serveRows are the serving estimate's answer (present.ServeRows).
func serveRows(r estimate.ServeResult) []widgets.GridRow {
	var rows []widgets.GridRow
	for _, c := range estimate.ServeRows(r) {
		rows = append(rows, widgets.GridRow{Cells: []string{c[0], c[1], c[2]}, Danger: -1})
	}
	return rows
}

// showCheckpointCalculator opens the checkpoint estimate.
func (p *planner) showCheckpointCalculator() {
	var d dialog.Dialog
	esc := func() { d.Hide() }
	f := newCalcForm()
	f.compute = func() {}
	write := f.entry("write-minutes", "Checkpoint write (minutes)", "How long writing one checkpoint stops the run.", "10", esc)
	mtbf := f.entry("mtbf-hours", "Mean time between failures (hours)", "Of the whole job: one node's MTBF divided by the nodes, or the mean time between spot interruptions.", "24", esc)
	restart := f.entry("restart-minutes", "Restart (minutes)", "How long a restart from a checkpoint takes; 0 when empty.", "5", esc)
	f.compute = func() {
		res, err := estimate.Checkpoint(estimate.CheckpointInput{WriteMinutes: estimate.Entered(write.Text), MTBFHours: estimate.Entered(mtbf.Text), RestartMinutes: estimate.Entered(restart.Text)})
		var rows []widgets.GridRow
		if err == nil {
			rows = []widgets.GridRow{
				{Cells: []string{"Young interval", present.Figure(res.YoungMinutes) + " min", "√(2δM), Young 1974"}, Danger: -1},
				{Cells: []string{"Daly interval", present.Figure(res.DalyMinutes) + " min", "Daly 2006: the one to use"}, Danger: -1},
				{Cells: []string{"Overhead", present.PercentFixed(res.OverheadFraction, 1), "of the compute time at Daly's interval: writing checkpoints, lost work and restarts"}, Danger: -1},
			}
			if res.Hopeless {
				rows = append(rows, widgets.GridRow{Cells: []string{"Note", "", "One checkpoint takes at least twice the mean time between failures: checkpointing cannot keep this job going."}, Danger: 2})
			}
		}
		f.show(err, rows)
	}
	f.compute()
	d = p.showCalculator("Checkpoint interval", f.content("How often a long run should checkpoint, and what failures and checkpoints cost it."))
}
