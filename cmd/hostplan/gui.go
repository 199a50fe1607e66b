package main

import (
	"context"
	"errors"
	"fmt"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"

	"hostplan/assets"
	"hostplan/internal/brief"
	"hostplan/internal/catalog"
	"hostplan/internal/cli"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
	"hostplan/internal/ui"
	"hostplan/scenarios"
)

// backend connects the window to the store, the catalog and the model.
type backend struct {
	st  *store.Store
	cat *catalog.Catalog
}

var (
	_ ui.Backend         = (*backend)(nil)
	_ ui.ChecklistReader = (*backend)(nil)
	_ ui.ChecklistWriter = (*backend)(nil)
)

func (b *backend) List() ([]ui.Item, error) {
	sums, err := b.st.List()
	if err != nil {
		return nil, err
	}
	items := make([]ui.Item, len(sums))
	for i, s := range sums {
		items[i] = ui.Item{ID: s.ID, Name: s.Name, Shape: s.Shape, Revisions: s.Revisions}
	}
	return items, nil
}

func (b *backend) Load(id string) (*scenario.Scenario, error) {
	s, _, err := b.st.Get(id)
	return s, err
}

// Evaluate runs the model with its Monte Carlo spread and tornado
// (model.DefaultDraws draws, some tens of milliseconds); the window calls
// it off the UI goroutine.
func (b *backend) Evaluate(s *scenario.Scenario) (*model.Report, error) {
	return model.Analyze(context.Background(), s, b.cat, model.DefaultDraws)
}

// Save stores s as a new revision with its lineage: the author from the
// environment, the note, the model's version and the date of the catalog
// prices. Nothing is written unless s is valid and the model can evaluate
// it against the catalog in use (its offers, presets and GPUs exist): the
// problems come back as scenario.Errors. Saving what the current revision
// already holds adds no revision and returns the current number.
func (b *backend) Save(s *scenario.Scenario, note string) (int, error) {
	if s == nil {
		return 0, errors.New("no scenario to save")
	}
	if errs := scenario.Validate(s); errs != nil {
		return 0, errs
	}
	r, err := model.Evaluate(s, b.cat)
	if err != nil {
		return 0, err
	}
	rev, err := b.st.Save(s, store.RevisionMeta{Author: author(), Note: note, ModelVersion: model.Version, CatalogAsOf: r.CatalogAsOf})
	if err != nil {
		return 0, err
	}
	return rev.Number, nil
}

// Checklist reads the stored readiness-checklist state of scenario id.
func (b *backend) Checklist(id string) (brief.ChecklistState, error) {
	raw, err := b.st.GetChecklist(id)
	if err != nil {
		return nil, err
	}
	return brief.DecodeChecklist(raw)
}

// SaveChecklist stores the readiness-checklist state of scenario id.
func (b *backend) SaveChecklist(id string, st brief.ChecklistState) error {
	if st == nil {
		st = brief.ChecklistState{}
	}
	raw, err := st.Encode()
	if err != nil {
		return err
	}
	return b.st.PutChecklist(id, raw)
}

// author names who saves: the login name from the environment, as the
// CLI's --author default does.
func author() string {
	for _, k := range []string{"USER", "USERNAME", "LOGNAME"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return "unknown"
}

// runGUI opens the store (seeding a new one with the examples) and the window.
func runGUI(db string) int {
	st, cat, msg := openForGUI(db)
	a := app.NewWithID("io.hostplan.app")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	if msg != "" {
		// Started from a desktop icon there is no terminal to read: say it in
		// a window as well as on stderr.
		fmt.Fprintln(os.Stderr, "hostplan:", msg)
		problemWindow(a, msg).ShowAndRun()
		return 1
	}
	defer st.Close()
	w := ui.NewWindow(a, &backend{st: st, cat: cat})
	w.ShowAndRun()
	return 0
}

// openForGUI opens and seeds the store and loads the catalog in use (the
// embedded one with the user's overrides). On failure it returns the
// message to show, with the store closed.
func openForGUI(db string) (*store.Store, *catalog.Catalog, string) {
	path := db
	if path == "" {
		p, err := store.DefaultPath()
		if err != nil {
			return nil, nil, fmt.Sprintf("no config directory for the store: %v (pass --db PATH)", err)
		}
		path = p
	}
	st, err := store.Open(path, nil)
	if err != nil {
		return nil, nil, err.Error()
	}
	fail := func(format string, a ...any) (*store.Store, *catalog.Catalog, string) {
		st.Close()
		return nil, nil, fmt.Sprintf(format, a...)
	}
	if _, err := st.SeedWith(scenarios.FS, ".", cli.ExampleLineage); err != nil {
		return fail("seeding the store: %v", err)
	}
	overrides, err := st.GetCatalogOverrides()
	if err != nil {
		return fail("%v", err)
	}
	cat, err := catalog.Effective(overrides)
	if err != nil {
		return fail("%v (drop the overrides with hostplan catalog reset)", err)
	}
	return st, cat, ""
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
