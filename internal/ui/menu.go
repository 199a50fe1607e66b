package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// The window's main menu and keyboard: File (new scenario, save, import,
// export the workbook — of the comparison while comparing —, save the
// brief and the charts), Scenario (find, rename, history, duplicate, edit,
// delete, compare), Tools (the catalog, importing prices — reprice.go —
// and the calculators) and Help
// (About, about.go; on a Mac Fyne moves it to the application menu), with
// Ctrl+N, Ctrl+S, Ctrl+O, Ctrl+E, Ctrl+F and Ctrl+H, which the menu gives
// whatever has the keyboard; F11 and Escape are the window's keys
// (window_keys.go).

// wireTools connects the list's row menu, the main menu and Escape.
func (p *planner) wireTools() {
	p.window.Canvas().SetOnTypedKey(p.windowKeys)
	p.view.brief.onSave = p.saveBrief

	s := p.scenarios
	s.onRename = p.rename
	s.onHistory = p.showHistory
	s.onDelete = p.deleteScenario
	s.onExport = p.exportWorkbook
	p.compare.export.OnTapped = p.exportComparison
	p.compare.export.Show()
	p.compare.charts.OnTapped = p.saveCharts
	p.compare.charts.Show()
	p.window.SetMainMenu(p.mainMenu())
}

// shortcut is Ctrl (Cmd on a Mac) with key.
func shortcut(key fyne.KeyName) fyne.Shortcut {
	return &desktop.CustomShortcut{KeyName: key, Modifier: fyne.KeyModifierShortcutDefault}
}

// menuItem is a menu entry with an optional shortcut.
func menuItem(label string, key fyne.KeyName, action func()) *fyne.MenuItem {
	it := fyne.NewMenuItem(label, action)
	if key != "" {
		it.Shortcut = shortcut(key)
	}
	return it
}

// mainMenu is the window's menu bar; an entry whose action the backend
// does not offer is left out.
func (p *planner) mainMenu() *fyne.MainMenu {
	s := p.scenarios
	on := func(f func(Item)) func() { return func() { p.onTarget(f) } }

	file := []*fyne.MenuItem{
		menuItem("New scenario…", fyne.KeyN, p.chooseNew),
		menuItem("Save…", fyne.KeyS, p.view.live.saveShortcut),
		fyne.NewMenuItemSeparator(),
		menuItem("Import scenario…", fyne.KeyO, p.chooseImport),
	}
	if s.onExport != nil {
		file = append(file, menuItem("Export workbook…", fyne.KeyE, p.exportShown))
	}
	file = append(file, menuItem("Save brief…", "", p.saveBrief), menuItem("Save charts…", "", p.saveCharts))
	file = append(file, fyne.NewMenuItemSeparator(), fyne.NewMenuItem("Preferences…", p.showPreferences))

	scen := []*fyne.MenuItem{
		menuItem("Find", fyne.KeyF, s.focusSearch),
		fyne.NewMenuItemSeparator(),
		menuItem("Rename…", "", on(p.rename)),
	}
	if s.onHistory != nil {
		scen = append(scen, menuItem("History…", fyne.KeyH, on(p.showHistory)))
	}
	scen = append(scen,
		menuItem("Duplicate", "", p.duplicateCurrent),
		menuItem("Edit JSON…", "", p.editCurrent),
	)
	if s.onDelete != nil {
		scen = append(scen, fyne.NewMenuItemSeparator(), menuItem("Delete", "", on(p.deleteScenario)))
	}
	scen = append(scen, fyne.NewMenuItemSeparator(), menuItem("Compare…", "", func() { p.setComparing(!s.comparing) }))

	redo := fyne.NewMenuItem("Redo", func() { p.undo(false) })
	redo.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyZ, Modifier: fyne.KeyModifierShortcutDefault | fyne.KeyModifierShift}
	undo := fyne.NewMenuItem("Undo", func() { p.undo(true) })
	undo.Shortcut = &fyne.ShortcutUndo{}
	edit := fyne.NewMenu("Edit", undo, redo)

	menus := []*fyne.Menu{fyne.NewMenu("File", file...), edit, fyne.NewMenu("Scenario", scen...)}
	if tools := p.toolsMenu(); len(tools) > 0 {
		menus = append(menus, fyne.NewMenu("Tools", tools...))
	}
	menus = append(menus, fyne.NewMenu("Help",
		fyne.NewMenuItem("Guide", p.showGuide),
		fyne.NewMenuItem("Keyboard shortcuts", p.showShortcuts),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("About", p.showAbout)))
	return fyne.NewMainMenu(menus...)
}

// toolsMenu is the Tools menu: the catalog, importing prices, the
// calculators and the scaling-law fit.
func (p *planner) toolsMenu() []*fyne.MenuItem {
	return []*fyne.MenuItem{
		fyne.NewMenuItem("Catalog and overrides…", p.showCatalog),
		fyne.NewMenuItem("Import prices…", p.chooseCatalogImport),
		fyne.NewMenuItemSeparator(),
		fyne.NewMenuItem("Training estimate…", p.showTrainCalculator),
		fyne.NewMenuItem("Serving estimate…", p.showServeCalculator),
		fyne.NewMenuItem("Checkpoint interval…", p.showCheckpointCalculator),
		fyne.NewMenuItem("Scaling-law fit of trial points…", p.showUSLFit),
	}
}
