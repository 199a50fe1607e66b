package scenario

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// Scenario files carry the version of their format in "schema_version".
// Older files are upgraded on reading, by Parse for files and by the store
// for stored revisions, so every reader sees the current version; nothing
// ever writes an old version.
//
// Schema 0 is the format of the first prototypes, before files carried a
// version. It has no "schema_version" field (or has it as 0) and names three
// fields differently; their meaning and units are unchanged:
//
//	schema 0                 schema 1
//	workload.tokens_b        workload.tokens_per_run_b  (billions of tokens per run)
//	workload.runs_month      workload.runs_per_month
//	data.residency_region    data.residency             (region code, or "any")
//
// Schema 1 is the current format (SchemaVersion).

// migrations[v] upgrades decoded JSON of version v to version v+1 in place.
var migrations = [SchemaVersion]func(raw map[string]any) Errors{
	0: migrate0to1,
}

// Migrate upgrades decoded scenario JSON (a file or a stored revision, as
// decoded by encoding/json into map[string]any, with or without UseNumber)
// in place to the current SchemaVersion and reports the version it was
// written in. A document already at the current version is left untouched.
// A version that is newer than this build, or not a version at all, and a
// document that cannot be upgraded (a schema 0 file naming a field under
// both its old and its new name) are returned as Errors and raw is then
// left as it was.
func Migrate(raw map[string]any) (from int, err error) {
	from, errs := version(raw["schema_version"])
	if errs != nil {
		return from, errs
	}
	if from == SchemaVersion {
		return from, nil
	}
	// Check every step on a copy first, so a failure leaves raw unchanged.
	work := copyJSON(raw).(map[string]any)
	for v := from; v < SchemaVersion; v++ {
		if errs := migrations[v](work); errs != nil {
			return from, errs
		}
		work["schema_version"] = float64(v + 1)
	}
	clear(raw)
	for k, v := range work {
		raw[k] = v
	}
	return from, nil
}

// version reads a schema_version value: absent or null means schema 0.
func version(v any) (int, Errors) {
	var f float64
	switch x := v.(type) {
	case nil:
		return 0, nil
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(x.String(), 64); err != nil {
			f = math.NaN()
		}
	case float64:
		f = x
	case int:
		f = float64(x)
	default:
		return -1, versionError(fmt.Sprintf("must be a number, not %s", jsonKind(v)))
	}
	if f != math.Trunc(f) || f < 0 || math.IsInf(f, 0) {
		return -1, versionError(fmt.Sprintf("%s is not a version", Num(f)))
	}
	if f > SchemaVersion {
		return int(min(f, math.MaxInt32)), versionError(fmt.Sprintf("%s is from a newer hostplan", Num(f)))
	}
	return int(f), nil
}

func versionError(problem string) Errors {
	return Errors{{Path: "schema_version", Problem: problem, Allowed: fmt.Sprintf("a whole number from 0 to %d; older versions are upgraded", SchemaVersion)}}
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "true or false"
	case map[string]any:
		return "an object"
	case []any:
		return "a list"
	}
	return fmt.Sprintf("%T", v)
}

// migrate0to1 renames the three fields schema 1 renamed.
func migrate0to1(raw map[string]any) Errors {
	var errs Errors
	for _, r := range []struct{ parent, old, new string }{
		{"workload", "tokens_b", "tokens_per_run_b"},
		{"workload", "runs_month", "runs_per_month"},
		{"data", "residency_region", "residency"},
	} {
		obj, ok := raw[r.parent].(map[string]any)
		if !ok {
			continue // missing or not an object: checkShape reports it
		}
		v, ok := obj[r.old]
		if !ok {
			continue
		}
		if _, both := obj[r.new]; both {
			errs = append(errs, FieldError{
				Path:    r.parent + "." + r.old,
				Problem: fmt.Sprintf("is the schema 0 name of %s.%s, which is also given", r.parent, r.new),
				Allowed: "one of the two names",
			})
			continue
		}
		delete(obj, r.old)
		obj[r.new] = v
	}
	return errs
}

// copyJSON returns a deep copy of decoded JSON.
func copyJSON(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = copyJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = copyJSON(e)
		}
		return out
	}
	return v
}
