package ui

import "fyne.io/fyne/v2"

// toolsMenu is the Tools menu: the catalog and the calculators.
func (p *planner) toolsMenu() []*fyne.MenuItem {
	return nil
}
