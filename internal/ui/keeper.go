package ui

import (
	"context"

	"hostplan/internal/app"
	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// What a Backend over the store adds besides showing scenarios: managing
// them (delete, undelete, history, restore), deciding them for the list's
// recommendation filter, exporting their workbooks, and the catalog and
// calculators of the Tools menu. The window offers each only when its
// Backend has it; NewBackend's has all of them.

// Keeper is what a Backend that keeps every revision adds: the list can
// then delete a scenario with undo and show its history, whose revisions
// can be compared and restored.
type Keeper interface {
	// Delete marks scenario id deleted; Undelete brings it back.
	Delete(id string) error
	Undelete(id string) error
	// History lists every revision of scenario id, oldest first.
	History(id string) ([]scenario.Revision, error)
	// LoadRevision returns revision n of scenario id.
	LoadRevision(id string, n int) (*scenario.Scenario, error)
	// Restore makes the content of revision n current again as a new
	// revision with note, and returns its number (the current one's when
	// the content already is current).
	Restore(id string, n int, note string) (revision int, err error)
}

// Recommender is what a Backend that can decide stored scenarios quickly
// adds: the list then shows each scenario's recommended direction and
// filters by it.
type Recommender interface {
	// Recommend decides the current revision of scenario id, without the
	// Monte Carlo spread: the revision decided and the direction ranked
	// first, "" when none is feasible.
	Recommend(ctx context.Context, id string) (revision int, direction string, err error)
}

// Exporter is what a Backend that can write workbooks adds.
type Exporter interface {
	// ExportWorkbook writes the workbook of the current revision of
	// scenario id to path, as "hostplan export ID -o PATH" does.
	ExportWorkbook(ctx context.Context, id, path string) error
}

// ComparisonExporter is what a Backend that can write the comparison
// workbook of stored scenarios adds.
type ComparisonExporter interface {
	// ExportComparison writes the comparison workbook of the current
	// revisions of scenarios ids, a column each in that order, to path,
	// as "hostplan export ID1 ID2 -o PATH" does.
	ExportComparison(ctx context.Context, ids []string, path string) error
}

// CatalogReader is what a Backend that knows the catalog in use adds: the
// catalog window, and the calculators' lists of GPUs and models.
type CatalogReader interface {
	// Catalog is the catalog in use: the built-in one with the store's
	// overrides applied.
	Catalog() (*catalog.Catalog, error)
	// Overrides are the override rows the store keeps.
	Overrides() (catalog.Overrides, error)
}

var (
	_ Keeper             = appBackend{}
	_ Recommender        = appBackend{}
	_ Exporter           = appBackend{}
	_ ComparisonExporter = appBackend{}
	_ CatalogReader      = appBackend{}
)

func (b appBackend) Delete(id string) error   { return b.p.Delete(id) }
func (b appBackend) Undelete(id string) error { return b.p.Undelete(id) }

func (b appBackend) History(id string) ([]scenario.Revision, error) {
	return b.p.History(id)
}

func (b appBackend) LoadRevision(id string, n int) (*scenario.Scenario, error) {
	s, _, err := b.p.LoadRevision(id, n)
	return s, err
}

func (b appBackend) Restore(id string, n int, note string) (int, error) {
	rev, err := b.p.Restore(id, n, app.Lineage{Author: b.author(), Note: note})
	if err != nil {
		return 0, err
	}
	return rev.Number, nil
}

func (b appBackend) Recommend(ctx context.Context, id string) (int, string, error) {
	return b.p.Recommend(ctx, id)
}

func (b appBackend) ExportComparison(ctx context.Context, ids []string, path string) error {
	return b.p.ExportComparison(ctx, ids, path)
}

func (b appBackend) Catalog() (*catalog.Catalog, error)    { return b.p.Catalog() }
func (b appBackend) Overrides() (catalog.Overrides, error) { return b.p.Overrides() }
