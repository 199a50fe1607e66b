package ui

import (
	"bytes"
	"io"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/bom"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// The scaling-law fit of the Tools menu: trial points (GPUs and the
// throughput they gave), typed or pasted as CSV or read from a file, and
// the Universal Scalability Law fitted to them (model.ReadTrialCSV and
// model.FitUSL, as "hostplan fit FILE.csv"), refitted on every change.

// uslExample is what the fit's text starts with: the header and a small
// measured run, so the answer shows at once.
const uslExample = `gpus,throughput
1,1
2,1.8868
4,3.0769
6,3.5294
8,3.5398
10,3.3557
`

// uslFitView is the fit's text and answer.
type uslFitView struct {
	text    *widgets.KeyEntry
	problem *widget.Label
	answer  *fyne.Container // coefficients
	points  *fyne.Container // measured against fitted
}

// fitText fits the USL to the CSV text: the fit and its points, or the
// problems, one a line.
func fitText(text string) (model.Fit, []model.Point, error) {
	pts, err := model.ReadTrialCSV(strings.NewReader(text))
	if err != nil {
		return model.Fit{}, nil, err
	}
	fit, err := model.FitUSL(pts)
	return fit, pts, err
}

func (v *uslFitView) refit() {
	fit, pts, err := fitText(v.text.Text)
	if err != nil {
		v.problem.SetText(err.Error())
		v.problem.Show()
		v.answer.Objects, v.points.Objects = nil, nil
		v.answer.Refresh()
		v.points.Refresh()
		return
	}
	v.problem.Hide()
	nmax := []string{"N_max", "none", "κ = 0: throughput never falls"}
	if n, ok := fit.NMaxFinite(); ok {
		nmax = []string{"N_max", present.Figure(n) + " GPUs", "where throughput peaks: √((1−σ)/κ)"}
	}
	v.answer.Objects = labelRows(nil, [][]string{
		{"λ", present.Number(fit.Lambda), "throughput of one GPU, in the points' unit"},
		{"σ", present.Sci(fit.Sigma), "contention (the serial fraction)"},
		{"κ", present.Sci(fit.Kappa), "coherency (cross-talk between GPUs)"},
		{"R²", present.Fixed(fit.R2, 4), "of the fit to " + present.Count(fit.Points, "point")},
		nmax,
	})
	var rows [][]string
	for _, p := range pts {
		rows = append(rows, []string{present.Figure(p.N), present.Number(p.X), present.Number(fit.Throughput(p.N)), present.Percent(fit.Efficiency(p.N))})
	}
	v.points.Objects = labelRows([]string{"GPUs", "Measured", "Fitted", "Efficiency"}, rows)
	v.points.Objects = append(v.points.Objects, widget.NewSeparator())
	v.answer.Refresh()
	v.points.Refresh()
}

// labelRows makes the cells of a table of labels: the headings in bold,
// or without headings the second column.
func labelRows(headings []string, rows [][]string) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, h := range headings {
		l := widget.NewLabel(h)
		l.TextStyle.Bold = true
		out = append(out, l)
	}
	for _, r := range rows {
		for c, text := range r {
			l := widget.NewLabel(text)
			l.TextStyle.Bold = headings == nil && c == 1
			out = append(out, l)
		}
	}
	return out
}

// showUSLFit opens the scaling-law fit.
func (p *planner) showUSLFit() {
	v := &uslFitView{}
	v.text = widgets.NewKeyTextArea()
	v.text.SetText(uslExample)
	v.text.SetMinRowsVisible(8)
	v.text.TextStyle.Monospace = true
	v.text.OnChanged = func(string) { v.refit() }
	v.problem = widget.NewLabel("")
	v.problem.Importance = widget.DangerImportance
	v.problem.Wrapping = fyne.TextWrapWord
	v.problem.Hide()
	v.answer = container.New(widgets.NewFillGridLayout(3, 2, 200))
	v.points = container.New(widgets.NewNaturalGridLayout(4))
	open := widget.NewButtonWithIcon("Open CSV…", theme.FolderOpenIcon(), func() { p.openTrialCSV(v) })
	intro := widget.NewLabel("Trial points, one a line: GPUs and the throughput they gave (any unit: items, tokens or samples per second). Type, paste, or open a CSV file with the header gpus,throughput; lines starting with # are comments.")
	intro.Wrapping = fyne.TextWrapWord
	v.refit()
	left := container.NewBorder(container.NewVBox(intro, container.NewHBox(open)), v.problem, nil, nil, v.text)
	right := container.NewVScroll(container.NewVBox(
		widgets.SectionHeading("Universal Scalability Law X(N) = λN / (1 + σ(N−1) + κN(N−1))"), v.answer,
		widgets.SectionHeading("Points"), v.points))
	split := container.NewHSplit(left, right)
	split.Offset = 0.4
	size := p.window.Canvas().Size()
	body := container.New(&widgets.FixedSize{Size: fyne.NewSize(min(1100, size.Width*0.85), min(720, size.Height*0.85))}, split)
	d := dialog.NewCustom("Scaling-law fit", "Close", body, p.window)
	p.dialogs.showDialog(d)
}

// openTrialCSV reads a CSV file of trial points into the fit's text.
func (p *planner) openTrialCSV(v *uslFitView) {
	d := dialog.NewFileOpen(func(rc fyne.URIReadCloser, err error) {
		if err != nil || rc == nil {
			if err != nil {
				v.problem.SetText("Could not open the file: " + err.Error())
				v.problem.Show()
			}
			return
		}
		defer rc.Close()
		var buf bytes.Buffer
		if _, err := io.Copy(&buf, io.LimitReader(rc, maxImportBytes+1)); err != nil {
			v.problem.SetText(rc.URI().Name() + ": " + err.Error())
			v.problem.Show()
			return
		}
		if buf.Len() > maxImportBytes {
			v.problem.SetText(rc.URI().Name() + ": is larger than 8 MiB, too large for trial points")
			v.problem.Show()
			return
		}
		v.text.SetText(string(bom.Strip(buf.Bytes()))) // refits
	}, p.window)
	d.SetFilter(storage.NewExtensionFileFilter([]string{".csv", ".txt"}))
	d.Resize(fileDialogSize(p.window))
	p.dialogs.show(d, d.Dismiss)
}
