package app

import (
	"testing"
)

// A setting survives closing and opening the store again; one never set
// reads as not set; a planner that holds no store reads it from the file,
// opened for the call.
func TestSettingsPersist(t *testing.T) {
	path := tempPath(t)
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok, err := p.Setting("ui.zoom"); err != nil || ok || v != "" {
		t.Fatalf("unset setting: %q, %v, %v", v, ok, err)
	}
	if err := p.SetSetting("ui.zoom", "1.25"); err != nil {
		t.Fatal(err)
	}
	if err := p.SetSetting("", "x"); err == nil {
		t.Error("a setting without a key was accepted")
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	if v, ok, err := p.Setting("ui.zoom"); err != nil || !ok || v != "1.25" {
		t.Errorf("closed planner: %q, %v, %v; want 1.25 read from the file", v, ok, err)
	}
	p, err = Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if v, ok, err := p.Setting("ui.zoom"); err != nil || !ok || v != "1.25" {
		t.Fatalf("after reopening: %q, %v, %v; want 1.25", v, ok, err)
	}
}
