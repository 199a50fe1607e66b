package app

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

var update = flag.Bool("update", false, "rewrite testdata/outcomes.json from the engine's answers")

// The outcomes a save keeps are those an evaluation finds; Outcomes reads
// them, finds (and keeps) those the store lacks, and finds them again
// when the catalog in use changes.
func TestOutcomesKeptAndRead(t *testing.T) {
	p := openTemp(t)
	s, _, err := p.Load("qlora-legal-70b")
	if err != nil {
		t.Fatal(err)
	}
	s.ID, s.Name = "saved", "Saved"
	if _, err := p.Save(s, Lineage{Author: "test"}); err != nil {
		t.Fatal(err)
	}
	items, err := p.List()
	if err != nil {
		t.Fatal(err)
	}
	cat, _ := p.Catalog()
	fresh := func() []*Outcome {
		var out []*Outcome
		for _, it := range items {
			s, _, err := p.Load(it.ID)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, outcomeOn(s, cat))
		}
		return out
	}
	want := fresh()
	// The six seeded examples have none; the saved scenario has its own.
	for round, evaluations := range []int64{6, 0} {
		n := outcomesFound.Load()
		got, err := p.Outcomes(context.Background(), items, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := outcomesFound.Load() - n; d != evaluations {
			t.Errorf("round %d: %d evaluations, want %d", round, d, evaluations)
		}
		if !sameOutcomes(got, want) {
			t.Errorf("round %d: outcomes differ from fresh evaluations", round)
		}
	}
	// New prices: every outcome is stale and found again, with the new
	// prices — the saved copy of qlora-legal-70b with it (copies evaluate
	// once: memo.go).
	if _, err := p.ImportOverrides(overrideRows(t, "cloud,lambda-h100,on_demand,9.5,2026-11-01,test")); err != nil {
		t.Fatal(err)
	}
	items, _ = p.List()
	cat, _ = p.Catalog()
	n := outcomesFound.Load()
	got, err := p.Outcomes(context.Background(), items, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := outcomesFound.Load() - n; d != int64(len(items)-1) {
		t.Errorf("after new prices: %d evaluations, want %d", d, len(items)-1)
	}
	if want := fresh(); !sameOutcomes(got, want) {
		t.Error("after new prices: outcomes differ from fresh evaluations")
	}
}

// sameOutcomes reports whether a and b hold the same outcomes as the store
// keeps them.
func sameOutcomes(a, b []*Outcome) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(encodeOutcome(a[i]), encodeOutcome(b[i])) {
			return false
		}
	}
	return true
}

// A stored outcome that does not decode is found again, not believed.
func TestOutcomeThatDoesNotDecode(t *testing.T) {
	p := openTemp(t)
	items, _ := p.List()
	plantOutcome(t, p, items[0], `{"recommendation":"cloud","directions":{}}`)
	got, err := p.Outcomes(context.Background(), items[:1], nil)
	if err != nil {
		t.Fatal(err)
	}
	s, _, _ := p.Load(items[0].ID)
	cat, _ := p.Catalog()
	if want := outcomeOn(s, cat); !sameOutcomes(got[:1], []*Outcome{want}) {
		t.Errorf("got %+v, want %+v", got[0], want)
	}
}

// The examples' outcomes are recorded with the engine version that found
// them. When the engine answers differently, model.Version must change —
// stored outcomes are keyed by it, and a store would otherwise serve the
// old answers as the new engine's. Run with -update after changing it.
func TestOutcomesNeedNewVersion(t *testing.T) {
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	hash, err := CatalogHash(cat)
	if err != nil {
		t.Fatal(err)
	}
	type recorded struct {
		Engine   string              `json:"engine"`
		Catalog  string              `json:"catalog"`
		Outcomes map[string]*Outcome `json:"outcomes"`
	}
	now := recorded{Engine: Engine, Catalog: hash, Outcomes: map[string]*Outcome{}}
	for _, s := range examples(t) {
		now.Outcomes[s.ID] = outcomeOn(s, cat)
	}
	if len(now.Outcomes) < 6 {
		t.Fatalf("%d examples", len(now.Outcomes))
	}
	path := filepath.Join("testdata", "outcomes.json")
	b, _ := json.MarshalIndent(now, "", "  ")
	if *update {
		if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	old, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var was recorded
	if err := json.Unmarshal(old, &was); err != nil {
		t.Fatal(err)
	}
	if was.Catalog != now.Catalog {
		t.Fatalf("the built-in catalog changed since %s was recorded: run go test ./internal/app -run TestOutcomesNeedNewVersion -update", path)
	}
	// The same answers, whatever the order of the fields (decodeHead's
	// order is not the meaning).
	var a, c any
	same := json.Unmarshal(old, &a) == nil && json.Unmarshal(b, &c) == nil && reflect.DeepEqual(a, c)
	switch {
	case !same && was.Engine == now.Engine:
		t.Errorf("the engine answers differently from %s but is still %q: change model.Version (stored outcomes are keyed by it), then run with -update", path, Engine)
	case !same:
		t.Errorf("the engine is now %q: run go test ./internal/app -run TestOutcomesNeedNewVersion -update", Engine)
	}
	if strings.Contains(string(b), "NaN") {
		t.Error("an outcome holds NaN")
	}
}

// Recommend answers from the outcome the store keeps for the revision on
// the catalog in use — here one planted to say "hpc" — and decides a
// scenario without one.
func TestRecommendReadsStoredOutcome(t *testing.T) {
	p := openTemp(t)
	items, _ := p.List()
	plantOutcome(t, p, items[0], `{"recommendation":"hpc"}`)
	if _, dir, err := p.Recommend(context.Background(), items[0].ID); err != nil || dir != "hpc" {
		t.Errorf("with a stored outcome: %q, %v; want the stored hpc", dir, err)
	}
	s, _, _ := p.Load(items[1].ID)
	cat, _ := p.Catalog()
	want := outcomeOn(s, cat).Recommendation
	if _, dir, err := p.Recommend(context.Background(), items[1].ID); err != nil || dir != want {
		t.Errorf("without one: %q, %v; want %q", dir, err, want)
	}
}

// plantOutcome stores raw as the outcome of it's current revision on the
// catalog in use, as a save would keep one.
func plantOutcome(t *testing.T, p *Planner, it store.Summary, raw string) {
	t.Helper()
	_, hash, err := p.catalogHash()
	if err != nil {
		t.Fatal(err)
	}
	k, err := resultKey(it.InputHash, hash)
	if err != nil {
		t.Fatal(err)
	}
	st, err := p.store()
	if err != nil {
		t.Fatal(err)
	}
	if err := st.PutResults([]store.ResultKey{k}, [][]byte{[]byte(raw)}); err != nil {
		t.Fatal(err)
	}
}

// decodeHead gives the problem and the reads a whole decode gives, for the
// examples' outcomes as written now (reads second) and as kept before
// (reads last), for a failure, and nothing for what is not an outcome.
func TestDecodeHeadAgreesWithDecode(t *testing.T) {
	cat, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	var raws [][]byte
	for _, s := range examples(t) {
		o := outcomeOn(s, cat)
		if o.Reads == nil {
			t.Fatalf("%s: no reads", s.ID)
		}
		b := encodeOutcome(o)
		if !bytes.HasPrefix(b, []byte(`{"reads":`)) {
			t.Errorf("%s: the reads are not written first: %.40s", s.ID, b)
		}
		// The same outcome with its reads last, as outcome 2 kept it.
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(b, &fields); err != nil {
			t.Fatal(err)
		}
		reads := fields["reads"]
		delete(fields, "reads")
		last, _ := json.Marshal(fields)
		last = append(append(append(last[:len(last)-1], `,"reads":`...), reads...), '}')
		raws = append(raws, b, last)
	}
	raws = append(raws, encodeOutcome(&Outcome{Problem: "no catalog"}), []byte(`{"problem":"x","reads":{"weighed":["site/site"]}}`))
	for _, b := range raws {
		h, whole := decodeHead(b), decodeOutcome(b)
		if h == nil || whole == nil {
			t.Fatalf("%.60s: head %v, whole %v", b, h, whole)
		}
		if h.Problem != whole.Problem || !reflect.DeepEqual(h.Reads, whole.Reads) {
			t.Errorf("%.60s: head %+v, whole %+v", b, h, whole)
		}
	}
	for _, bad := range []string{"", "[]", "null", `"x"`, `{"reads":`, `{"reads":[1]}`, `{"problem":1}`} {
		if h := decodeHead([]byte(bad)); h != nil {
			t.Errorf("decodeHead(%q) = %+v, want nil", bad, h)
		}
	}
}

// A list read before a save: Outcomes of its items finds the current
// revision's outcome and keeps it under that revision's input hash, so a
// list read after the save finds it stored (and a stale item's hash never
// holds another revision's outcome).
func TestOutcomesKeptUnderTheRevisionRead(t *testing.T) {
	p := openTemp(t)
	before, err := p.List()
	if err != nil {
		t.Fatal(err)
	}
	s, _, err := p.Load("qlora-legal-70b")
	if err != nil {
		t.Fatal(err)
	}
	s.Workload.RunsPerMonth = scenario.Known(9)
	if _, err := p.Save(s, Lineage{Author: "test"}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Outcomes(context.Background(), before, nil); err != nil {
		t.Fatal(err)
	}
	after, _ := p.List()
	n := outcomesFound.Load()
	got, err := p.Outcomes(context.Background(), after, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := outcomesFound.Load() - n; d != 0 {
		t.Errorf("after the first call kept them, %d outcomes were evaluated again, want 0", d)
	}
	cat, hash, _ := p.catalogHash()
	for i, it := range after {
		if it.ID != s.ID {
			continue
		}
		if want := outcomeOn(s, cat); !sameOutcomes([]*Outcome{got[i]}, []*Outcome{want}) {
			t.Errorf("the stored outcome of %s is not its current revision's", s.ID)
		}
	}
	// The first revision's hash holds no outcome of the second.
	for _, it := range before {
		if it.ID != s.ID {
			continue
		}
		key, _ := resultKey(it.InputHash, hash)
		var raw [][]byte
		if err := p.reading(func(st *store.Store) (err error) { raw, err = st.GetResults([]store.ResultKey{key}); return err }); err != nil {
			t.Fatal(err)
		}
		if len(raw) == 1 && raw[0] != nil {
			t.Errorf("revision 1 of %s holds an outcome (%.60s…), which only revision 2 was evaluated for", s.ID, raw[0])
		}
	}
}
