package ui

import (
	"context"
	"time"

	"hostplan/internal/app"
	"hostplan/internal/brief"
	"hostplan/internal/catalog"
	"hostplan/internal/estimate"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Backend is everything the window needs from the rest of hostplan: the
// stored scenarios and their revisions, evaluation, the catalog, the
// exports, the calculators and the user's settings. NewBackend gives the
// real one, over the application layer (backend_app.go); tests that need
// a failure or a hand-built report use a fake that implements all of it.
// The window offers every action whatever the backend; a backend that
// cannot do one says so in the error it returns.
type Backend interface {
	// List is the scenarios in the store.
	List() ([]Item, error)
	// Load returns the current revision of scenario id.
	Load(id string) (*scenario.Scenario, error)
	// Evaluate runs the model on s: the report without the Monte Carlo
	// spread, in a millisecond or so; it stops early with ctx's error
	// when ctx ends (the window cancels an evaluation a later choice
	// replaced).
	Evaluate(ctx context.Context, s *scenario.Scenario) (*model.Report, error)
	// Analyze is Evaluate with the Monte Carlo spread and the tornado
	// (tens of milliseconds): the same figures, and their uncertainty.
	Analyze(ctx context.Context, s *scenario.Scenario) (*model.Report, error)
	// Save stores s as a new revision with note and returns its number.
	// An invalid s is refused with its problems (scenario.Errors) and
	// nothing is written; saving what the current revision already holds
	// returns that revision's number.
	Save(s *scenario.Scenario, note string) (revision int, err error)

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
	// Recommendations decides the current revisions of items (List's), in
	// their order, without the Monte Carlo spread: one answer per item,
	// all found in one call — read from the outcomes the store keeps (by
	// each item's InputHash, the catalog's hash and the engine's version),
	// found on every core for those it does not keep. An item that could
	// not be decided has a Problem; the error is for a call that answered
	// none (the catalog or the store could not be read, ctx ended).
	Recommendations(ctx context.Context, items []Item) ([]Recommendation, error)

	// Checklist is the readiness checklist stored for scenario id (nil:
	// every item open); SaveChecklist stores it.
	Checklist(id string) (brief.ChecklistState, error)
	SaveChecklist(id string, st brief.ChecklistState) error

	// ExportWorkbook writes the workbook of the current revision of
	// scenario id to path, as "hostplan export ID -o PATH" does.
	ExportWorkbook(ctx context.Context, id, path string) error
	// ExportComparison writes the comparison workbook of the current
	// revisions of scenarios ids, a column each in that order, to path,
	// as "hostplan export ID1 ID2 -o PATH" does.
	ExportComparison(ctx context.Context, ids []string, path string) error

	// Catalog is the catalog in use: the built-in one with the store's
	// overrides applied (the form offers its entries); Overrides are the
	// override rows the store keeps.
	Catalog() (*catalog.Catalog, error)
	Overrides() (catalog.Overrides, error)
	// ImportPrices merges rows over the store's overrides as "hostplan
	// catalog import" does (rows that do not apply are refused whole, with
	// catalog.OverrideErrors) and returns the catalog in use before the
	// import and how many catalog entries now differ from the built-in
	// catalog.
	ImportPrices(rows catalog.Overrides) (before *catalog.Catalog, changed int, err error)
	// Reprice re-evaluates every stored scenario against baseline and the
	// catalog in use (app.Planner.Reprice).
	Reprice(ctx context.Context, baseline *catalog.Catalog, threshold float64) (*app.Repricing, error)

	// EstimateTrain and EstimateServe size a training run and serving
	// replicas on the catalog in use (Tools' calculators).
	EstimateTrain(estimate.TrainInput) (estimate.TrainResult, error)
	EstimateServe(estimate.ServeInput) (estimate.ServeResult, error)

	// Preferences: Setting reports false for a key never set.
	Preferences
	// StorePath is the store file's path (the About dialog).
	StorePath() (string, error)
}

// Preferences are the user's settings the store keeps: the window's size,
// zoom, theme and last scenario, the author, the draft of unsaved edits.
type Preferences interface {
	Setting(key string) (value string, ok bool, err error)
	SetSetting(key, value string) error
}

// Item is one stored scenario as the list shows it.
type Item struct {
	ID, Name, Shape string
	Revisions       int       // the current revision's number
	Updated         time.Time // when the current revision was saved; zero when unknown
	// InputHash is the current revision's input hash (hex sha256), by
	// which the store finds its outcome; "" when unknown (the outcome is
	// then found anew).
	InputHash string
}

// Recommendation is the decision of one stored scenario: the direction
// it ranks first, or why it could not be decided.
type Recommendation struct {
	Direction string // "" when no direction is feasible
	// Problem says why the scenario could not be decided ("" when it
	// was; Direction is then "" too).
	Problem string
}
