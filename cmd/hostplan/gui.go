package main

import (
	"errors"
	"fmt"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

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
	return model.Analyze(s, b.cat, model.DefaultDraws)
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
	path := db
	if path == "" {
		p, err := store.DefaultPath()
		if err != nil {
			fmt.Fprintln(os.Stderr, "hostplan: no config directory for the store:", err, "(pass --db PATH)")
			return 1
		}
		path = p
	}
	st, err := store.Open(path, nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostplan:", err)
		return 1
	}
	defer st.Close()
	if _, err := st.SeedWith(scenarios.FS, ".", cli.ExampleLineage); err != nil {
		fmt.Fprintln(os.Stderr, "hostplan: seeding the store:", err)
		return 1
	}
	// The catalog in use: the embedded one with the user's overrides.
	overrides, err := st.GetCatalogOverrides()
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostplan:", err)
		return 1
	}
	cat, err := catalog.Effective(overrides)
	if err != nil {
		fmt.Fprintln(os.Stderr, "hostplan:", err, "(drop the overrides with hostplan catalog reset)")
		return 1
	}
	a := app.NewWithID("io.hostplan.app")
	a.SetIcon(fyne.NewStaticResource("icon.png", assets.Icon))
	w := ui.NewWindow(a, &backend{st: st, cat: cat})
	w.ShowAndRun()
	return 0
}
