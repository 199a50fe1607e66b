package ui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"hostplan/internal/ui/report"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/app"
	"hostplan/internal/catalog"
	"hostplan/internal/present"
	"hostplan/internal/ui/widgets"
)

// Importing prices in the window (Tools → Import prices…), as "hostplan
// catalog import FILE.csv" does, and then repricing: once an import
// succeeds the window offers to re-evaluate every stored scenario against
// the catalog before the import, in the background, and lists those the
// new prices change — what changed and the prices that moved — each with
// a button that opens it.

// chooseCatalogImport asks for an overrides CSV and imports it.
func (p *planner) chooseCatalogImport() {
	p.chooseFile(".csv", catalog.MaxCSVBytes, "4 MiB, too large for a file of prices", p.importPrices)
}

// importPrices imports the overrides CSV data, read from the file name:
// a file with any bad row is refused whole, every problem on its line.
func (p *planner) importPrices(name string, data []byte) {
	imp := p.backend
	refused := func(err error) {
		var es catalog.OverrideErrors
		if !errors.As(err, &es) {
			p.showProblems(fmt.Sprintf("“%s” was not imported", name), []string{err.Error()})
			return
		}
		lines := make([]string, len(es))
		for i, e := range es {
			lines[i] = name + ": " + e.Error()
		}
		p.showProblems(fmt.Sprintf("“%s” was not imported: nothing was changed", name), lines)
	}
	rows, err := catalog.ParseOverridesCSV(bytes.NewReader(data))
	if err != nil {
		refused(err)
		return
	}
	inBackground(func() func() {
		var (
			before  *catalog.Catalog
			changed int
		)
		err := safeCall(func() (err error) {
			before, changed, err = imp.ImportPrices(rows)
			return err
		})
		return func() {
			if err != nil {
				refused(err)
				return
			}
			p.pricesImported(name, len(rows.Rows), changed, before)
		}
	})
}

// pricesImported shows the new prices at work — the reports shown before
// are evaluated again — and offers to reprice the stored scenarios
// against the catalog before the import.
func (p *planner) pricesImported(name string, rows, changed int, before *catalog.Catalog) {
	p.view.cache = newReportCache(reportCacheSize)
	if r := p.scenarios.recs; r != nil {
		r.known = map[recKey]recOutcome{}
	}
	if it, ok := p.scenarios.chosen(); ok {
		p.showChosen(it)
	}
	differ := "1 catalog entry now differs"
	if changed != 1 {
		differ = present.Whole(float64(changed)) + " catalog entries now differ"
	}
	text := fmt.Sprintf("“%s”: %s imported; %s from the built-in catalog. Reports use the new prices from now on.",
		name, present.Count(rows, "row"), differ)
	msg := widget.NewLabel(text)
	msg.Wrapping = fyne.TextWrapWord
	if before == nil {
		d := dialog.NewCustom("Prices imported", "Close", container.New(&widgets.MinWidth{Width: 520}, msg), p.window)
		p.dialogs.showDialog(d)
		return
	}
	ask := widget.NewLabel("Reprice the stored scenarios to see which ones the new prices change: each is evaluated against the catalog before the import and the one in use now.")
	ask.Wrapping = fyne.TextWrapWord
	var d *dialog.CustomDialog
	closeB := widget.NewButton("Close", func() { d.Hide() })
	reprice := widget.NewButtonWithIcon("Reprice stored scenarios", theme.ViewRefreshIcon(), func() {
		d.Hide()
		p.repriceAgainst(before)
	})
	reprice.Importance = widget.HighImportance
	d = dialog.NewCustomWithoutButtons("Prices imported", container.New(&widgets.MinWidth{Width: 520}, container.NewVBox(msg, ask)), p.window)
	d.SetButtons([]fyne.CanvasObject{closeB, reprice})
	p.dialogs.showDialog(d)
}

// repriceAgainst reprices the stored scenarios against before in the
// background, with a dialog that can cancel it, then lists the outcome.
func (p *planner) repriceAgainst(before *catalog.Catalog) {
	r := p.backend
	ctx, cancel := context.WithCancel(context.Background())
	bar := widget.NewProgressBarInfinite()
	wait := dialog.NewCustomWithoutButtons("Repricing the stored scenarios…", container.New(&widgets.MinWidth{Width: 420}, bar), p.window)
	wait.SetButtons([]fyne.CanvasObject{widget.NewButton("Cancel", cancel)})
	p.dialogs.show(wait, cancel)
	inBackground(func() func() {
		var rp *app.Repricing
		err := safeCall(func() (err error) {
			rp, err = r.Reprice(ctx, before, app.DefaultRepriceThreshold)
			return err
		})
		cancel()
		return func() {
			bar.Stop()
			wait.Hide()
			switch {
			case errors.Is(err, context.Canceled):
				p.scenarios.notify("Repricing cancelled.")
			case err != nil:
				p.showProblems("Could not reprice the stored scenarios", []string{err.Error()})
			default:
				p.showRepricing(rp)
			}
		}
	})
}

// repricingSummary is the first line of the repricing dialog.
func repricingSummary(rp *app.Repricing) string {
	rule := fmt.Sprintf("its recommendation or cheapest direction changed, a direction's verdict changed, or a cost over the horizon moved more than %s", present.Percent(rp.Threshold))
	switch n := len(rp.Changed); {
	case rp.Scenarios == 0:
		return "The store holds no scenarios to reprice."
	case n == 0:
		return fmt.Sprintf("None of the %s changes against the catalog before the import: for none %s.", present.Count(rp.Scenarios, "stored scenario"), rule)
	default:
		return fmt.Sprintf("%s of the %s change against the catalog before the import: %s.", report.Whole(n), present.Count(rp.Scenarios, "stored scenario"), strings.Replace(rule, "its ", "their ", 1))
	}
}

// showRepricing lists the scenarios the new prices change, each with what
// changed, the prices that moved and a button that opens it, then those
// that could not be evaluated.
func (p *planner) showRepricing(rp *app.Repricing) {
	var d *dialog.CustomDialog
	summary := widget.NewLabel(repricingSummary(rp))
	summary.Wrapping = fyne.TextWrapWord
	rows := container.NewVBox()
	for _, s := range rp.Changed {
		id := s.ID
		name := widget.NewLabelWithStyle(itemName(Item{ID: s.ID, Name: s.Name})+" · revision "+report.Whole(s.Revision), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		name.Truncation = fyne.TextTruncateEllipsis
		open := widget.NewButtonWithIcon("Open", theme.NavigateNextIcon(), func() {
			d.Hide()
			p.scenarios.selectID(id)
		})
		open.Importance = widget.LowImportance
		changes := widget.NewLabel(strings.Join(s.Changes(), "\n"))
		changes.Wrapping = fyne.TextWrapWord
		prices := "No catalog price it uses moved."
		if ps := s.Prices(); len(ps) > 0 {
			prices = "Prices that moved:\n" + strings.Join(ps, "\n")
		}
		moved := widget.NewLabel(prices)
		moved.Wrapping = fyne.TextWrapWord
		moved.SizeName = theme.SizeNameCaptionText
		rows.Add(container.NewBorder(nil, nil, nil, open, name))
		rows.Add(changes)
		rows.Add(moved)
		rows.Add(widget.NewSeparator())
	}
	if len(rp.Failed) > 0 {
		var lines []string
		for _, f := range rp.Failed {
			on := map[string]string{"baseline": ", on the catalog before the import", "in use": ", on the catalog in use"}[f.Catalog]
			lines = append(lines, fmt.Sprintf("%s%s: %s", itemName(Item{ID: f.ID, Name: f.Name}), on, f.Error))
		}
		head := widget.NewLabelWithStyle("Not evaluated", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		failed := widget.NewLabel(strings.Join(lines, "\n"))
		failed.Wrapping = fyne.TextWrapWord
		rows.Add(head)
		rows.Add(failed)
	}
	size := p.window.Canvas().Size()
	scroll := container.NewVScroll(rows)
	w := min(1100, size.Width*0.85)
	scroll.SetMinSize(fyne.NewSize(w, size.Height*0.6))
	body := container.NewBorder(summary, nil, nil, nil, scroll)
	if len(rp.Changed) == 0 && len(rp.Failed) == 0 {
		body = container.New(&widgets.MinWidth{Width: w}, summary)
	}
	d = dialog.NewCustomWithoutButtons("Repriced stored scenarios", body, p.window)
	d.SetButtons([]fyne.CanvasObject{widget.NewButton("Close", func() { d.Hide() })})
	p.dialogs.showDialog(d)
}
