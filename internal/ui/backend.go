package ui

import (
	"hostplan/internal/brief"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Backend is what the window needs from the rest of hostplan.
type Backend interface {
	List() ([]Item, error) // scenarios in the store
	Load(id string) (*scenario.Scenario, error)
	Evaluate(s *scenario.Scenario) (*model.Report, error)
	// Save stores s as a new revision with note and returns its number.
	// An invalid s is refused with its problems (scenario.Errors) and
	// nothing is written; saving what the current revision already holds
	// returns that revision's number.
	Save(s *scenario.Scenario, note string) (revision int, err error)
}

// Item is one stored scenario as the list shows it.
type Item struct {
	ID, Name, Shape string
	Revisions       int
}

// ChecklistReader is what a Backend that keeps each scenario's readiness
// checklist adds; the Brief tab then shows the recorded state, as
// "hostplan brief ID" does. Without it every item shows as open.
type ChecklistReader interface {
	Checklist(id string) (brief.ChecklistState, error)
}

// ChecklistWriter is what a Backend that can store a scenario's readiness
// checklist adds; the Checklist tab can then be edited and saved. Without
// it the tab is read-only.
type ChecklistWriter interface {
	SaveChecklist(id string, st brief.ChecklistState) error
}
