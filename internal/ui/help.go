package ui

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"hostplan/internal/ui/widgets"
)

// Help (Help ▸ Guide, Help ▸ Keyboard shortcuts): a short guide to the
// window, and every shortcut — those of the main menu read from the menu
// itself, so the list cannot go stale, and the window's own keys.

// guideSteps is the guide, one paragraph a step.
var guideSteps = [][2]string{
	{"Choose a scenario", "The list on the left holds the scenarios in the store; search (Ctrl+F), filter by shape or recommendation, and choose one to see how the five hosting directions compare for it: the recommended direction in the header, why and what would change it on the Report tab, scaling, uncertainty, the readiness brief and checklist on the others."},
	{"Edit its inputs", "Edit inputs opens the form beside the report: every field has its unit and a line of help, numbers are known values or estimates (low, likely, high), and the report follows each change. Ctrl+Z and Ctrl+Shift+Z undo and redo edits across fields. Save (Ctrl+S) keeps the inputs as a new revision with a note; Discard goes back to the saved one. Unsaved edits survive a crash: the next window offers them back."},
	{"Weigh the dimensions", "Weights opens a slider per decision dimension; moving one ranks the directions again at once, and the marks on a slider show where the recommendation would change."},
	{"Compare and review", "Compare ticks two or three scenarios for a side-by-side view; Review (F11) shows the one on show, or the compared ones, full screen in text large enough for a projector. Escape leaves it."},
	{"Keep and share", "Scenario ▸ History lists every revision with what it changed and what it came to, and restores one. File ▸ Export workbook writes a workbook finance can recalculate; Save brief and Save charts write the brief and the charts. File ▸ Preferences sets the author your revisions and workbooks carry."},
}

// windowKeysHelp are the keys the window hears that no menu entry lists.
var windowKeysHelp = [][2]string{
	{"F11", "Review mode: full screen, large text"},
	{"Escape", "Close the dialog on top, or leave review mode"},
	{"Ctrl +  /  Ctrl −", "Larger, smaller"},
	{"Ctrl 0", "Back to 100 %"},
	{"Enter (in a field)", "Bring the report up to date now"},
}

// shortcutText is a shortcut as the menu shows it: "Ctrl+S".
func shortcutText(s fyne.Shortcut) string {
	switch x := s.(type) {
	case *desktop.CustomShortcut:
		var mods []string
		if x.Modifier&(fyne.KeyModifierControl|fyne.KeyModifierSuper) != 0 {
			mods = append(mods, "Ctrl")
		}
		if x.Modifier&fyne.KeyModifierAlt != 0 {
			mods = append(mods, "Alt")
		}
		if x.Modifier&fyne.KeyModifierShift != 0 {
			mods = append(mods, "Shift")
		}
		return strings.Join(append(mods, string(x.KeyName)), "+")
	case *fyne.ShortcutUndo:
		return "Ctrl+Z"
	case *fyne.ShortcutRedo:
		return "Ctrl+Y"
	}
	return s.ShortcutName()
}

// shortcutRows are the main menu's entries with a shortcut, as "menu ▸
// entry" and the keys, then the window's own keys.
func shortcutRows(mm *fyne.MainMenu) [][2]string {
	var rows [][2]string
	var walk func(path string, items []*fyne.MenuItem)
	walk = func(path string, items []*fyne.MenuItem) {
		for _, it := range items {
			if it.IsSeparator {
				continue
			}
			name := path + " ▸ " + strings.TrimSuffix(it.Label, "…")
			if it.Shortcut != nil {
				rows = append(rows, [2]string{shortcutText(it.Shortcut), name})
			}
			if it.ChildMenu != nil {
				walk(name, it.ChildMenu.Items)
			}
		}
	}
	if mm != nil {
		for _, m := range mm.Items {
			walk(m.Label, m.Items)
		}
	}
	return append(rows, windowKeysHelp...)
}

// showGuide shows the guide.
func (p *planner) showGuide() {
	box := container.NewVBox()
	for _, s := range guideSteps {
		box.Add(widgets.StrongLabel(s[0]))
		box.Add(widgets.WrappedLabel(s[1]))
	}
	body := container.New(&widgets.FixedSize{Size: p.dialogSize(720, 560)}, container.NewVScroll(box))
	p.dialogs.showDialog(dialog.NewCustom("Guide", "Close", body, p.window))
}

// showShortcuts shows every keyboard shortcut.
func (p *planner) showShortcuts() {
	grid := container.New(widgets.NewFillGridLayout(2, 1, 240))
	for _, r := range shortcutRows(p.window.MainMenu()) {
		k := widget.NewLabel(r[0])
		k.TextStyle.Bold = true
		grid.Add(k)
		grid.Add(widgets.WrappedLabel(r[1]))
	}
	body := container.New(&widgets.FixedSize{Size: p.dialogSize(620, 560)}, container.NewVScroll(grid))
	p.dialogs.showDialog(dialog.NewCustom("Keyboard shortcuts", "Close", body, p.window))
}

// dialogSize is w × h, or less on a small window.
func (p *planner) dialogSize(w, h float32) fyne.Size {
	size := p.window.Canvas().Size()
	return fyne.NewSize(min(w, size.Width*0.85), min(h, size.Height*0.8))
}
