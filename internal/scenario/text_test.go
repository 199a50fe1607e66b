package scenario

import (
	"strings"
	"testing"
	"time"
)

func TestTextRules(t *testing.T) {
	base, err := Load("../../scenarios/qlora-legal-70b.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		set  func(s *Scenario)
		want string // "" for valid
	}{
		{"tab in a name", func(s *Scenario) { s.Name = "a\tb" }, ""},
		{"line breaks in prose", func(s *Scenario) { s.Description = "one\ntwo\r\nthree" }, ""},
		{"text at its limit", func(s *Scenario) { s.Name = strings.Repeat("é", 200) }, ""},
		{"escape in a name", func(s *Scenario) { s.Name = "x\x1b[2J" }, "name: holds the control character U+001B at character 2"},
		{"line break in a name", func(s *Scenario) { s.Name = "a\nb" }, "name: holds a line break U+000A at character 2"},
		{"lone carriage return in prose", func(s *Scenario) { s.Description = "a\rb" }, "description: holds a line break U+000D at character 2"},
		{"bidi isolate", func(s *Scenario) { s.Purpose.Owner = "\u2067x" }, "purpose.owner: holds the bidirectional control U+2067 at character 1"},
		{"mark in a list", func(s *Scenario) { s.Data.ReturnOutputs = []string{"logs\u200f"} }, "data.return_outputs[0]: holds the bidirectional control U+200F at character 5"},
		{"line separator", func(s *Scenario) { s.Name = "a\u2028b" }, "name: holds the line or paragraph separator U+2028 at character 2"},
		{"C1 in an override", func(s *Scenario) {
			s.PriceOverrides = []PriceOverride{{Kind: "gpu", ID: "h100", Field: "bf16_tflops", Value: "990", AsOf: "2025-01-01", Source: "x\u0085"}}
		}, "price_overrides[0].source: holds the control character U+0085 at character 2"},
		{"name too long", func(s *Scenario) { s.Name = strings.Repeat("n", 201) }, "name: has 201 characters (allowed: at most 200 characters"},
		{"prose too long", func(s *Scenario) { s.Description = strings.Repeat("d", 20_001) }, "description: has 20,001 characters (allowed: at most 20,000 characters of text, tabs and line breaks"},
	} {
		s := Clone(base)
		c.set(s)
		errs := Validate(s)
		switch {
		case c.want == "" && errs != nil:
			t.Errorf("%s: %v", c.name, errs)
		case c.want != "" && !strings.Contains(errs.Error(), c.want):
			t.Errorf("%s: %v, want %q", c.name, errs, c.want)
		}
	}
	if TextOf("dimensions.sovereignty.notes").Max != 20_000 || !TextOf("description").Multiline || TextOf("name").Multiline || TextOf("data.lifecycle[3].owner").Max != defaultText.Max {
		t.Error("TextOf does not read the table")
	}
	if p := JSONSchema()["properties"].(map[string]any)["name"].(map[string]any); p["maxLength"] != 200 {
		t.Errorf("schema of name: %v", p)
	}
}

// A date of a price may lie a day ahead (time zones), no more.
func TestFutureAsOf(t *testing.T) {
	defer func(f func() time.Time) { Now = f }(Now)
	Now = func() time.Time { return time.Date(2026, 12, 1, 23, 0, 0, 0, time.UTC) }
	for d, want := range map[string]bool{"2026-12-01": false, "2026-12-02": false, "2026-12-03": true, "2099-01-01": true} {
		at, _ := time.Parse(time.DateOnly, d)
		if got, _ := FutureAsOf(at); got != want {
			t.Errorf("FutureAsOf(%s) = %v, want %v", d, got, want)
		}
	}
}
