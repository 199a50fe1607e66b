package store

import (
	"bytes"
	"errors"
	"testing"

	"hostplan/internal/scenario"

	bolterrors "go.etcd.io/bbolt/errors"
)

func TestChecklist(t *testing.T) {
	s := mustOpen(t)
	mustSave(t, s, testScenario(t, "a", "A"), scenario.RevisionMeta{})

	if got, err := s.GetChecklist("a"); err != nil || got != nil {
		t.Fatalf("GetChecklist before any put = %q, %v; want nil, nil", got, err)
	}
	state := []byte(`{"items": {"data-owner-named": true, "snapshot-approved": false}}`)
	if err := s.PutChecklist("a", state); err != nil {
		t.Fatal(err)
	}
	got, err := s.GetChecklist("a")
	if err != nil || !bytes.Equal(got, state) {
		t.Fatalf("GetChecklist = %q, %v; want %q", got, err, state)
	}
	got[0] = 'X' // the caller owns the bytes it got
	if again, _ := s.GetChecklist("a"); !bytes.Equal(again, state) {
		t.Error("changing the returned bytes changed the store")
	}

	// The state is the scenario's, not a revision's: a save keeps it.
	sc := testScenario(t, "a", "A, second revision")
	mustSave(t, s, sc, scenario.RevisionMeta{})
	if got, _ := s.GetChecklist("a"); !bytes.Equal(got, state) {
		t.Errorf("after a new revision GetChecklist = %q", got)
	}

	if err := s.PutChecklist("a", []byte(`{"items": `)); !errors.Is(err, ErrNotJSON) {
		t.Errorf("PutChecklist of broken JSON: %v, want ErrNotJSON", err)
	}
	if got, _ := s.GetChecklist("a"); !bytes.Equal(got, state) {
		t.Error("a refused put changed the state")
	}
	if err := s.PutChecklist("missing", state); !errors.Is(err, ErrNotFound) {
		t.Errorf("PutChecklist of a missing scenario: %v, want ErrNotFound", err)
	}
	if _, err := s.GetChecklist("missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetChecklist of a missing scenario: %v, want ErrNotFound", err)
	}

	// Deleted: hidden but kept; undeleted: back; purged: gone.
	if err := s.Delete("a"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetChecklist("a"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetChecklist of a deleted scenario: %v, want ErrNotFound", err)
	}
	if err := s.PutChecklist("a", state); !errors.Is(err, ErrNotFound) {
		t.Errorf("PutChecklist of a deleted scenario: %v, want ErrNotFound", err)
	}
	if err := s.Undelete("a"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetChecklist("a"); !bytes.Equal(got, state) {
		t.Errorf("after undelete GetChecklist = %q", got)
	}
	if err := s.Delete("a"); err != nil {
		t.Fatal(err)
	}
	if err := s.Purge("a"); err != nil {
		t.Fatal(err)
	}
	mustSave(t, s, testScenario(t, "a", "A again"), scenario.RevisionMeta{})
	if got, err := s.GetChecklist("a"); err != nil || got != nil {
		t.Errorf("a new scenario with a purged one's id has checklist %q, %v", got, err)
	}

	// Empty data removes the state.
	if err := s.PutChecklist("a", state); err != nil {
		t.Fatal(err)
	}
	if err := s.PutChecklist("a", nil); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetChecklist("a"); err != nil || got != nil {
		t.Errorf("after PutChecklist(nil) = %q, %v", got, err)
	}
}

func TestSettings(t *testing.T) {
	s := mustOpen(t)
	if _, err := s.GetSetting("theme"); !errors.Is(err, ErrNotFound) {
		t.Errorf("GetSetting of an unset key: %v, want ErrNotFound", err)
	}
	for _, v := range []string{"dark", "", "light"} {
		if err := s.PutSetting("theme", v); err != nil {
			t.Fatal(err)
		}
		if got, err := s.GetSetting("theme"); err != nil || got != v {
			t.Errorf("GetSetting = %q, %v; want %q", got, err, v)
		}
	}
	if err := s.PutSetting("", "x"); err == nil {
		t.Error("PutSetting with an empty key succeeded")
	}
	path := s.Path()
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	s = mustOpenPath(t, path)
	if got, err := s.GetSetting("theme"); err != nil || got != "light" {
		t.Errorf("after reopening GetSetting = %q, %v", got, err)
	}
}

func TestCatalogOverrides(t *testing.T) {
	s := mustOpen(t)
	if got, err := s.GetCatalogOverrides(); err != nil || got != nil {
		t.Fatalf("GetCatalogOverrides before any put = %q, %v", got, err)
	}
	o := []byte(`{"cloud": [{"id": "aws-p5", "on_demand": 55.04, "as_of": "2026-11-01"}]}`)
	if err := s.PutCatalogOverrides(o); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetCatalogOverrides(); err != nil || !bytes.Equal(got, o) {
		t.Errorf("GetCatalogOverrides = %q, %v", got, err)
	}
	if err := s.PutCatalogOverrides([]byte("cloud: cheap")); !errors.Is(err, ErrNotJSON) {
		t.Errorf("PutCatalogOverrides of YAML: %v, want ErrNotJSON", err)
	}
	if err := s.PutCatalogOverrides(nil); err != nil {
		t.Fatal(err)
	}
	if got, err := s.GetCatalogOverrides(); err != nil || got != nil {
		t.Errorf("after removing: %q, %v", got, err)
	}
}

// A read-only store reads the state and refuses to write it.
func TestStateReadOnly(t *testing.T) {
	s := mustOpen(t)
	path := s.Path()
	mustSave(t, s, testScenario(t, "a", "A"), scenario.RevisionMeta{})
	if err := s.PutChecklist("a", []byte(`[1]`)); err != nil {
		t.Fatal(err)
	}
	if err := s.PutSetting("k", "v"); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	r, err := Open(path, &Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if got, err := r.GetChecklist("a"); err != nil || string(got) != "[1]" {
		t.Errorf("read-only GetChecklist = %q, %v", got, err)
	}
	if got, err := r.GetSetting("k"); err != nil || got != "v" {
		t.Errorf("read-only GetSetting = %q, %v", got, err)
	}
	for name, err := range map[string]error{
		"PutChecklist":        r.PutChecklist("a", []byte(`[2]`)),
		"PutSetting":          r.PutSetting("k", "w"),
		"PutCatalogOverrides": r.PutCatalogOverrides([]byte(`{}`)),
	} {
		if !errors.Is(err, bolterrors.ErrDatabaseReadOnly) {
			t.Errorf("%s on a read-only store: %v", name, err)
		}
	}
}
