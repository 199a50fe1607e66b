package main

import (
	"fmt"
	"os"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"hostplan/assets"
	"hostplan/internal/app"
	"hostplan/internal/ui"
)

// runGUI opens the planner over the store at db (the default path when
// empty; a new store is seeded with the examples) and shows the window.
func runGUI(db string) int {
	detachConsole()
	p, msg := openForGUI(db)
	a := fyneapp.NewWithID("io.hostplan.app")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	if msg != "" {
		// Started from a desktop icon there is no terminal to read: say it in
		// a window as well as on stderr.
		fmt.Fprintln(os.Stderr, "hostplan:", msg)
		problemWindow(a, msg).ShowAndRun()
		return 1
	}
	defer p.Close()
	w := ui.NewWindow(a, ui.NewBackend(p))
	if d := p.Damaged(); d != nil {
		// A damaged store opens read-only: the scenarios can be read,
		// exported and backed up, and every save says why it fails.
		fmt.Fprintln(os.Stderr, "hostplan: note:", d)
		dialog.ShowInformation("The store is damaged", wrapWords(d.Error(), 70), w)
	}
	// Shown once the driver runs, so that the screen can be measured:
	// a size the last session kept from a larger screen is fitted to
	// this one.
	a.Lifecycle().SetOnStarted(func() {
		w.Show()
		if area, ok := screenArea(w); ok {
			ui.PlaceOnScreen(w, area)
		}
	})
	a.Run()
	return 0
}

// wrapWords breaks s into lines of at most width characters between words,
// for a dialog whose label does not wrap.
func wrapWords(s string, width int) string {
	var b strings.Builder
	n := 0
	for _, word := range strings.Fields(s) {
		if n > 0 && n+1+utf8.RuneCountInString(word) > width {
			b.WriteByte('\n')
			n = 0
		} else if n > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += utf8.RuneCountInString(word)
	}
	return b.String()
}

// openForGUI opens the planner: the store, seeded when new, and the catalog
// in use — sharing the store (app.OpenShared), so that hostplan list, show,
// diff and a save work beside the window. On failure it returns the
// message to show, with nothing open.
func openForGUI(db string) (*app.Planner, string) {
	if db == "" {
		if _, err := app.New("").Path(); err != nil {
			return nil, fmt.Sprintf("no config directory for the store: %v (pass --db PATH)", err)
		}
	}
	p, err := app.OpenShared(db)
	if err != nil {
		return nil, err.Error()
	}
	return p, ""
}

// problemWindow is the window shown instead of the planner when it cannot
// start: the message and a Quit button.
func problemWindow(a fyne.App, msg string) fyne.Window {
	w := a.NewWindow("hostplan")
	text := widget.NewLabel("hostplan cannot start:\n\n" + msg)
	text.Wrapping = fyne.TextWrapWord
	quit := widget.NewButton("Quit", func() { a.Quit() })
	w.SetContent(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), quit), nil, nil, text))
	w.Resize(fyne.NewSize(520, 220))
	return w
}
