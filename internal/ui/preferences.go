package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/app"
	"hostplan/internal/ui/form"
	"hostplan/internal/ui/widgets"
)

// Preferences (File ▸ Preferences…): the author's name the window saves
// every revision under and names as the author of the workbooks it
// writes, kept in the store's settings like the window's own.

// settingAuthor is the setting of the author's name.
const settingAuthor = "user.author"

// authorSetting is the author's name the user set, "" when none.
func authorSetting(prefs Preferences) string {
	if prefs == nil {
		return ""
	}
	v, ok, err := prefs.Setting(settingAuthor)
	if err != nil || !ok {
		return ""
	}
	return strings.TrimSpace(v)
}

// showPreferences opens the Preferences dialog.
func (p *planner) showPreferences() {
	prefs := p.backend
	name := widgets.NewKeyEntry()
	name.SetText(authorSetting(prefs))
	name.SetPlaceHolder(app.DefaultAuthor())
	help := widgets.WrappedLabel("The name every revision saved from this window records as its author, and the author the workbooks it exports name. Left empty, revisions record the login name (" +
		app.DefaultAuthor() + ") and workbooks name no author, as on the command line.")
	problem := form.ProblemLabel()
	form := container.New(widgets.NewFillGridLayout(2, 1, 320), widget.NewLabelWithStyle("Author", fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}), name)
	var d *dialog.CustomDialog
	save := func() {
		if err := prefs.SetSetting(settingAuthor, strings.TrimSpace(name.Text)); err != nil {
			problem.SetText("Not saved: " + err.Error())
			problem.Show()
			return
		}
		d.Hide()
		p.scenarios.notify("Preferences saved.")
	}
	name.OnSubmitted = func(string) { save() }
	saveButton := widget.NewButton("Save", save)
	saveButton.Importance = widget.HighImportance
	buttons := container.NewHBox(layout.NewSpacer(), widget.NewButton("Cancel", func() { d.Hide() }), saveButton)
	body := container.New(&widgets.MinWidth{Width: 520}, container.NewVBox(form, help, problem, buttons))
	d = dialog.NewCustomWithoutButtons("Preferences", body, p.window)
	p.dialogs.showDialog(d)
	p.window.Canvas().Focus(name)
}
