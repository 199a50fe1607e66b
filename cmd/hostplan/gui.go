package main

import (
	"fmt"
	"os"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"hostplan/assets"
	"hostplan/internal/catalog"
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

var _ ui.Backend = (*backend)(nil)

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

func (b *backend) Evaluate(s *scenario.Scenario) (*model.Report, error) {
	return model.Evaluate(s, b.cat)
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
	if _, err := st.Seed(scenarios.FS, "."); err != nil {
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
