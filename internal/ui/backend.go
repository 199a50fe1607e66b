package ui

import (
	"hostplan/internal/model"
	"hostplan/internal/scenario"
)

// Backend is what the window needs from the rest of hostplan.
type Backend interface {
	List() ([]Item, error) // scenarios in the store
	Load(id string) (*scenario.Scenario, error)
	Evaluate(s *scenario.Scenario) (*model.Report, error)
}

// Item is one stored scenario as the list shows it.
type Item struct {
	ID, Name, Shape string
	Revisions       int
}
