package store

import (
	"errors"
	"path/filepath"
	"testing"

	"hostplan/internal/scenario"
)

// SaveBatch saves many scenarios in one transaction as Save saves each:
// a revision each, none again for the same content, a deleted one back;
// one invalid scenario writes none of them.
func TestSaveBatch(t *testing.T) {
	s := mustOpen(t)
	files, _ := filepath.Glob("../../scenarios/*.json")
	var items []Batched
	for _, f := range files {
		sc, err := scenario.Load(f)
		if err != nil {
			t.Fatal(err)
		}
		items = append(items, Batched{Scenario: sc, Meta: scenario.RevisionMeta{Author: "batch"}})
	}
	revs, err := s.SaveBatch(items)
	if err != nil || len(revs) != len(items) {
		t.Fatalf("%d revisions, %v", len(revs), err)
	}
	for i, r := range revs {
		if r.Number != 1 || r.Author != "batch" {
			t.Errorf("%s: revision %+v", items[i].Scenario.ID, r)
		}
	}
	if err := s.Delete(items[0].Scenario.ID); err != nil {
		t.Fatal(err)
	}
	again, err := s.SaveBatch(items)
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range again {
		if r.Number != 1 {
			t.Errorf("%s saved again as revision %d", items[i].Scenario.ID, r.Number)
		}
	}
	if _, _, err := s.Get(items[0].Scenario.ID); err != nil {
		t.Errorf("the deleted scenario is not back: %v", err)
	}
	bad := *items[1].Scenario
	bad.Currency = ""
	changed := *items[2].Scenario
	changed.Name += " (changed)"
	if _, err := s.SaveBatch([]Batched{{Scenario: &changed}, {Scenario: &bad}}); err == nil {
		t.Fatal("an invalid scenario saved")
	} else if fe := (scenario.Errors{}); !errors.As(err, &fe) {
		t.Errorf("error %v, want the scenario's field errors", err)
	}
	if got, _, _ := s.Get(changed.ID); got.Name == changed.Name {
		t.Error("the valid scenario of a refused batch was saved")
	}
}
