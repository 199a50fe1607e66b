// Package widgets holds the window's own widgets and layouts, which know
// nothing of scenarios or reports: key-aware entries, selects, lists and
// tables that hand the window's keys (F11, Escape) on (keys.go), and the
// entry that keeps what was typed at a wrap point (entry.go,
// wrap_cursor.go); tips for icon buttons and names cut short
// (tooltip.go); a status line that keeps its room (status_line.go); the
// tables' layout and a table of labels (grid.go); a page that scrolls as
// one with its tables (page.go), a flow of objects (flow.go) and the
// other small layouts (layouts.go); refilling only what changed
// (refill.go); and the match of the window's searches (search.go).
package widgets
