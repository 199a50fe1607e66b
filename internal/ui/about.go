package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/report"

	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/ui/widgets"
	"hostplan/internal/version"
)

// The About dialog (Help ▸ About): which build of hostplan runs —
// version, commit, build date, Go and platform (package version) — with
// the model and scenario-format versions and, when the backend knows it,
// the store file, so a user can say exactly what they run and where their
// scenarios live.

// aboutRows are the About dialog's label and value pairs for build b.
func aboutRows(b version.Info, store string) [][2]string {
	commit := b.Commit
	if commit == "" {
		commit = "unknown"
	} else if b.Modified {
		commit += " (with uncommitted changes)"
	}
	rows := [][2]string{
		{"Version", b.Version},
		{"Commit", commit},
		{"Built", b.DateOrUnknown()},
		{"Go", b.GoVersion + " " + b.Platform},
		{"Model", model.Version},
		{"Scenario schema", report.Whole(scenario.SchemaVersion)},
	}
	if store != "" {
		rows = append(rows, [2]string{"Store", store})
	}
	return rows
}

// showAbout shows the About dialog for the running build.
func (p *planner) showAbout() {
	store := ""
	if path, err := p.backend.StorePath(); err == nil {
		store = path
	}
	p.dialogs.showDialog(p.aboutDialog(version.Current(), store))
}

// aboutDialog is the About dialog for build b and the store file's path
// (empty: not shown). Each value can be selected and copied.
func (p *planner) aboutDialog(b version.Info, store string) dialog.Dialog {
	form := container.New(widgets.NewFillGridLayout(2, 1, 360))
	for _, r := range aboutRows(b, store) {
		label := widget.NewLabelWithStyle(r[0], fyne.TextAlignTrailing, fyne.TextStyle{Bold: true})
		value := widget.NewLabel(r[1])
		value.Wrapping = fyne.TextWrapBreak // a long store path breaks anywhere
		value.Selectable = true
		form.Add(label)
		form.Add(value)
	}
	intro := widget.NewLabel("hostplan plans where an AI workload should run and what it will cost, offline.")
	intro.Wrapping = fyne.TextWrapWord
	body := container.NewBorder(intro, nil, nil, nil, form)
	return dialog.NewCustom("About hostplan", "Close", container.New(&widgets.MinWidth{Width: 560}, body), p.window)
}
