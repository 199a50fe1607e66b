package scenario

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"
)

// testdata/v0.json is a schema 0 file (see migrate.go); testdata/v0-as-v1.json
// is its canonical schema 1 form, refreshed with -update.
func TestParseUpgradesSchema0(t *testing.T) {
	b, err := os.ReadFile("testdata/v0.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Parse(b)
	if err != nil {
		t.Fatalf("Parse of the schema 0 fixture: %v", err)
	}
	if s.SchemaVersion != SchemaVersion {
		t.Errorf("schema_version %d, want %d", s.SchemaVersion, SchemaVersion)
	}
	// The three renamed fields arrive under their schema 1 names.
	if want := Estimate(0.2, 0.4, 0.8); s.Workload.TokensPerRunB != want {
		t.Errorf("workload.tokens_per_run_b = %+v, want %+v", s.Workload.TokensPerRunB, want)
	}
	if want := Known(4); s.Workload.RunsPerMonth != want {
		t.Errorf("workload.runs_per_month = %+v, want %+v", s.Workload.RunsPerMonth, want)
	}
	if s.Data.Residency != "EU" {
		t.Errorf("data.residency = %q, want EU", s.Data.Residency)
	}

	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	const golden = "testdata/v0-as-v1.json"
	if *update {
		if err := os.WriteFile(golden, out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(out, want) {
		t.Errorf("upgraded fixture differs from %s:\n%s", golden, out)
	}
	// The upgraded form is a schema 1 file that parses to the same scenario
	// and is left as it is.
	s1, err := Parse(want)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s1, s) {
		t.Errorf("the schema 1 form parses differently:\n%+v\n%+v", s1, s)
	}
}

func decodeJSON(t *testing.T, s string) map[string]any {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestMigrate(t *testing.T) {
	cases := []struct {
		name, in string
		from     int
		want     string // the document afterwards (compact, keys sorted), "" = unchanged
		err      string
	}{
		{"current version untouched", `{"schema_version": 1, "workload": {"tokens_b": 1}}`, 1, "", ""},
		{"no version is schema 0",
			`{"workload": {"tokens_b": 1, "runs_month": {"low": 1, "likely": 2, "high": 3}}, "data": {"residency_region": "EU"}}`, 0,
			`{"data":{"residency":"EU"},"schema_version":1,"workload":{"runs_per_month":{"high":3,"likely":2,"low":1},"tokens_per_run_b":1}}`, ""},
		{"version 0 written out", `{"schema_version": 0, "data": {"residency_region": "any"}}`, 0,
			`{"data":{"residency":"any"},"schema_version":1}`, ""},
		{"null version is schema 0", `{"schema_version": null}`, 0, `{"schema_version":1}`, ""},
		{"groups missing or of the wrong type are left to Parse", `{"workload": "big", "data": [1]}`, 0,
			`{"data":[1],"schema_version":1,"workload":"big"}`, ""},
		{"old and new name both given", `{"workload": {"tokens_b": 1, "tokens_per_run_b": 2}, "data": {"residency_region": "EU", "residency": "US"}}`, 0, "",
			"workload.tokens_b: is the schema 0 name of workload.tokens_per_run_b, which is also given (allowed: one of the two names)\n" +
				"data.residency_region: is the schema 0 name of data.residency, which is also given (allowed: one of the two names)"},
		{"newer version", `{"schema_version": 2}`, 2, "",
			"schema_version: 2 is from a newer hostplan (allowed: a whole number from 0 to 1; older versions are upgraded)"},
		{"fractional version", `{"schema_version": 0.5}`, -1, "", "schema_version: 0.5 is not a version"},
		{"negative version", `{"schema_version": -1}`, -1, "", "schema_version: -1 is not a version"},
		{"string version", `{"schema_version": "1"}`, -1, "", "schema_version: must be a number, not a string"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m := decodeJSON(t, tc.in)
			before, _ := json.Marshal(m)
			from, err := Migrate(m)
			if from != tc.from {
				t.Errorf("from = %d, want %d", from, tc.from)
			}
			after, _ := json.Marshal(m)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Errorf("error %v, want %q", err, tc.err)
				}
				if _, ok := err.(Errors); !ok {
					t.Errorf("error is %T, want Errors", err)
				}
				if !bytes.Equal(before, after) {
					t.Errorf("a failed Migrate changed the document: %s", after)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			want := tc.want
			if want == "" {
				want = string(before)
			}
			if string(after) != want {
				t.Errorf("after Migrate:\n got %s\nwant %s", after, want)
			}
		})
	}
}

// Migrate also takes JSON decoded without UseNumber (float64 numbers).
func TestMigrateFloatNumbers(t *testing.T) {
	var m map[string]any
	if err := json.Unmarshal([]byte(`{"schema_version": 0, "workload": {"runs_month": 3}}`), &m); err != nil {
		t.Fatal(err)
	}
	if from, err := Migrate(m); from != 0 || err != nil {
		t.Fatalf("Migrate = %d, %v", from, err)
	}
	if m["schema_version"] != float64(1) || m["workload"].(map[string]any)["runs_per_month"] != float64(3) {
		t.Errorf("after Migrate: %v", m)
	}
}

func TestParseVersionErrors(t *testing.T) {
	for _, tc := range []struct{ name, edit, want string }{
		{"newer", `"schema_version": 2`, "schema_version: 2 is from a newer hostplan"},
		{"both names", `"schema_version": 0, "workload": {"tokens_b": 1, "tokens_per_run_b": 1}`, "workload.tokens_b: is the schema 0 name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte("{" + tc.edit + "}"))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("Parse error %v, want %q", err, tc.want)
			}
		})
	}
	// A schema 0 file with other problems gets them with schema 1 paths.
	b, _ := os.ReadFile("testdata/v0.json")
	bad := bytes.Replace(b, []byte(`"runs_month": 4`), []byte(`"runs_month": -4`), 1)
	_, err := Parse(bad)
	if err == nil || !strings.Contains(err.Error(), "workload.runs_per_month: -4 is out of range") {
		t.Errorf("Parse of a bad schema 0 file: %v", err)
	}
}
