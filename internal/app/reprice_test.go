package app

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"hostplan/internal/catalog"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// lambdaKey is the catalog price the repricing tests move: the on-demand
// rate of Lambda's H100 offer, which some examples' cloud and hybrid
// directions use and others do not.
const lambdaKey = "cloud/lambda-h100/on_demand"

// lambdaPrice is the built-in catalog's on-demand rate of lambda-h100.
func lambdaPrice(t *testing.T) float64 {
	t.Helper()
	def, err := catalog.Default()
	if err != nil {
		t.Fatal(err)
	}
	o, ok := def.CloudOffer("lambda-h100")
	if !ok || o.OnDemand <= 0 {
		t.Fatal("the built-in catalog has no on-demand lambda-h100")
	}
	return o.OnDemand
}

// lambdaRow is an override row setting lambda-h100's on-demand rate.
func lambdaRow(price float64) string {
	return fmt.Sprintf("cloud,lambda-h100,on_demand,%v,2026-10-01,price list seen in October", price)
}

// usesPrice lists the stored scenarios one of whose feasible directions,
// evaluated on cat, reads the catalog price key.
func usesPrice(t *testing.T, p *Planner, cat *catalog.Catalog, key string) map[string]bool {
	t.Helper()
	items, err := p.List()
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, it := range items {
		s, _, err := p.Load(it.ID)
		if err != nil {
			t.Fatal(err)
		}
		r, err := model.Evaluate(s, cat)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range r.Directions {
			for _, in := range d.CostInputs {
				if d.Feasible && in.Catalog == key {
					out[it.ID] = true
				}
			}
		}
	}
	return out
}

// byID finds a listed scenario.
func byID(rp *Repricing, id string) *present.RepricedScenario {
	for i := range rp.Changed {
		if rp.Changed[i].ID == id {
			return &rp.Changed[i]
		}
	}
	return nil
}

// An import that doubles one cloud GPU price lists exactly the scenarios
// that use it, each naming that price with its old and new value and
// date; the others are not listed.
func TestRepriceNamesThePriceThatMoved(t *testing.T) {
	p := openTemp(t)
	was := lambdaPrice(t)
	def, _ := catalog.Default()
	using := usesPrice(t, p, def, lambdaKey)
	if len(using) == 0 || len(using) >= 6 {
		t.Fatalf("want some examples using %s, not all: %v", lambdaKey, using)
	}
	im, err := p.ImportOverrides(overrideRows(t, lambdaRow(2*was)))
	if err != nil {
		t.Fatal(err)
	}
	rp, err := p.Reprice(context.Background(), im.Before, DefaultRepriceThreshold)
	if err != nil {
		t.Fatal(err)
	}
	if rp.Scenarios != 6 || len(rp.Failed) != 0 {
		t.Fatalf("%d scenarios, failed %v", rp.Scenarios, rp.Failed)
	}
	items, _ := p.List()
	for _, it := range items {
		rs := byID(rp, it.ID)
		if !using[it.ID] {
			if rs != nil {
				t.Errorf("%s does not use %s but is listed: %v %v", it.ID, lambdaKey, rs.Changes(), rs.Prices())
			}
			continue
		}
		if rs == nil {
			t.Errorf("%s uses %s and is not listed", it.ID, lambdaKey)
			continue
		}
		named := false
		for _, d := range rs.Directions {
			for _, m := range d.Prices {
				if m.EntryBefore != lambdaKey {
					t.Errorf("%s %s: another price moved: %+v", it.ID, d.Direction, m)
					continue
				}
				named = true
				if m.Before != was || m.Label != "price per GPU-hour" {
					t.Errorf("%s %s: %+v", it.ID, d.Direction, m)
				}
				// The direction keeps the offer at its new price, or picks
				// another offer, which is then named.
				if m.EntryAfter == lambdaKey && (m.After != 2*was || m.AsOfAfter != "2026-10-01") || m.EntryAfter != lambdaKey && m.EntryNameAfter == "" {
					t.Errorf("%s %s: after %+v, want %v as of 2026-10-01 or another offer", it.ID, d.Direction, m, 2*was)
				}
			}
			if d.Beyond && (d.Change <= DefaultRepriceThreshold || d.CostAfter <= d.CostBefore) {
				t.Errorf("%s %s: beyond the threshold with change %v (%v → %v)", it.ID, d.Direction, d.Change, d.CostBefore, d.CostAfter)
			}
		}
		if !named {
			t.Errorf("%s: the price is not named: %v", it.ID, rs.Prices())
		}
		text := strings.Join(rs.Prices(), "\n")
		want := "price per GPU-hour, Lambda"
		if !strings.Contains(text, want) || !strings.Contains(text, "USD/GPU-hour") || !strings.Contains(text, fmt.Sprintf("%v → ", was)) {
			t.Errorf("%s: prices read %q", it.ID, text)
		}
	}
}

// The threshold decides which moves are listed: a 3 % rise of the price
// moves no cost by more than 5 %, and some by more than 0.5 %.
func TestRepriceThreshold(t *testing.T) {
	p := openTemp(t)
	was := lambdaPrice(t)
	im, err := p.ImportOverrides(overrideRows(t, lambdaRow(was*1.03)))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	wide, err := p.Reprice(ctx, im.Before, DefaultRepriceThreshold)
	if err != nil {
		t.Fatal(err)
	}
	narrow, err := p.Reprice(ctx, im.Before, 0.005)
	if err != nil {
		t.Fatal(err)
	}
	for _, rs := range wide.Changed {
		if !rs.RecommendationChanged() && !rs.CheapestChanged() {
			t.Errorf("5 %%: %s listed for %v", rs.ID, rs.Changes())
		}
	}
	if len(narrow.Changed) == 0 {
		t.Fatal("0.5 %: nothing listed")
	}
	for _, rs := range narrow.Changed {
		beyond := false
		for _, d := range rs.Directions {
			if d.Beyond {
				beyond = true
				if d.Change <= 0.005 || d.Change > 0.03+1e-9 {
					t.Errorf("%s %s: change %v", rs.ID, d.Direction, d.Change)
				}
			}
		}
		if !beyond && !rs.RecommendationChanged() && !rs.CheapestChanged() {
			t.Errorf("%s listed with nothing beyond 0.5 %%: %v", rs.ID, rs.Changes())
		}
	}
	for _, bad := range []float64{-0.01, MaxRepriceThreshold + 1} {
		if _, err := p.Reprice(ctx, im.Before, bad); err == nil || !strings.Contains(err.Error(), "threshold") {
			t.Errorf("threshold %v: %v", bad, err)
		}
	}
}

// A price that makes another direction first changes the recommendation,
// and the repricing says so, as the decision on each catalog does.
func TestRepriceRecommendationChange(t *testing.T) {
	p := openTemp(t)
	const id = "nightly-document-batch"
	s, _, err := p.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	def, _ := catalog.Default()
	before := decideFor(t, s, def)
	if before != "managed" {
		t.Fatalf("%s recommends %q on the built-in catalog; the test expects managed", id, before)
	}
	// A hundredfold token price: the managed service is no longer first.
	rows := overrideRows(t, "managed,groq-8b,price_in_per_m,5,2026-10-01,a test price", "managed,groq-8b,price_out_per_m,8,2026-10-01,a test price")
	im, err := p.ImportOverrides(rows)
	if err != nil {
		t.Fatal(err)
	}
	now, _ := p.Catalog()
	after := decideFor(t, s, now)
	if after == before {
		t.Fatalf("the override leaves %s recommending %s", id, after)
	}
	rp, err := p.Reprice(context.Background(), im.Before, MaxRepriceThreshold) // only a changed recommendation lists it
	if err != nil {
		t.Fatal(err)
	}
	rs := byID(rp, id)
	if rs == nil {
		t.Fatalf("%s not listed: %+v", id, rp)
	}
	if rs.RecommendationBefore != before || rs.RecommendationAfter != after || !rs.RecommendationChanged() {
		t.Errorf("recommendation %q → %q, want %q → %q", rs.RecommendationBefore, rs.RecommendationAfter, before, after)
	}
	want := "Recommendation: Managed service → "
	if ch := rs.Changes(); len(ch) == 0 || !strings.HasPrefix(ch[0], want) {
		t.Errorf("changes %q, want the first to start %q", ch, want)
	}
	prices := strings.Join(rs.Prices(), "\n")
	// The service keeps Groq at its new price or picks another.
	for _, w := range []string{"price per million input tokens, Groq Llama 3.1 8B", "price per million output tokens, Groq Llama 3.1 8B", ": 0.05 → ", ": 0.08 → "} {
		if !strings.Contains(prices, w) {
			t.Errorf("prices %q lack %q", prices, w)
		}
	}
	for _, other := range rp.Changed {
		if other.ID != id && !other.RecommendationChanged() && !other.CheapestChanged() {
			t.Errorf("%s listed at a 1,000 %% threshold: %v", other.ID, other.Changes())
		}
	}
}

func decideFor(t *testing.T, s *scenario.Scenario, cat *catalog.Catalog) string {
	t.Helper()
	r, err := model.Evaluate(s, cat)
	if err != nil {
		t.Fatal(err)
	}
	d, err := decide.Decide(s, r)
	if err != nil {
		t.Fatal(err)
	}
	return d.Recommendation
}

// stopAfter is a context that ends after its Err has been asked n times,
// by any goroutine (a context's Err is safe for simultaneous use).
type stopAfter struct {
	context.Context
	n atomic.Int64
}

func newStopAfter(n int64) *stopAfter {
	c := &stopAfter{Context: context.Background()}
	c.n.Store(n)
	return c
}

func (c *stopAfter) Err() error {
	if c.n.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// Reprice stops when its context ends, before or between scenarios, and
// returns the context's error, not a partial list.
func TestRepriceCancel(t *testing.T) {
	p := openTemp(t)
	def, _ := catalog.Default()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if rp, err := p.Reprice(ctx, def, DefaultRepriceThreshold); !errors.Is(err, context.Canceled) || rp != nil {
		t.Errorf("cancelled before: %v, %v", rp, err)
	}
	// A baseline with a moved price, so that there is work to stop.
	moved, err := def.Apply(catalog.Overrides{Rows: []catalog.OverrideRow{{Kind: "cloud", ID: "lambda-h100", Field: "on_demand", Value: "9.99", AsOf: "2026-01-01", Source: "test"}}})
	if err != nil {
		t.Fatal(err)
	}
	if rp, err := p.Reprice(newStopAfter(3), moved, DefaultRepriceThreshold); !errors.Is(err, context.Canceled) || rp != nil {
		t.Errorf("cancelled midway: %v, %v", rp, err)
	}
}

// Identical catalogs answer at once: every scenario counted, none listed.
func TestRepriceIdenticalCatalogs(t *testing.T) {
	p := openTemp(t)
	def, _ := catalog.Default()
	items, _ := p.List()
	rp, err := p.Reprice(context.Background(), def, DefaultRepriceThreshold)
	if err != nil || rp.Scenarios != len(items) || len(rp.Changed) != 0 || len(rp.Failed) != 0 {
		t.Errorf("identical catalogs: %+v, %v", rp, err)
	}
}

// A scenario that does not evaluate on one catalog is listed with why,
// and the others are repriced; the store is only read: a closed planner
// reads the file read-only and leaves it as it was, and with no file
// there is nothing to reprice and no file is made.
func TestRepriceFailuresAndReadOnly(t *testing.T) {
	path := tempPath(t)
	p, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	// A new offer, a copy of lambda-h100, which only the catalog in use has.
	def, _ := catalog.Default()
	var rows []string
	for _, r := range def.Rows("cloud") {
		if r.ID == "lambda-h100" {
			rows = append(rows, fmt.Sprintf("cloud,my-h100,%s,%s,2026-10-01,our quote", r.Field, csvQuote(r.Value)))
		}
	}
	if _, err := p.ImportOverrides(overrideRows(t, rows...)); err != nil {
		t.Fatal(err)
	}
	s, _, err := p.Load("qlora-legal-70b")
	if err != nil {
		t.Fatal(err)
	}
	s.ID, s.Name, s.Options.Cloud.Offer = "on-our-quote", "On our quote", "my-h100"
	if _, err := p.Save(s, Lineage{Author: "test"}); err != nil {
		t.Fatal(err)
	}
	p.Close()
	listed := func() string {
		items, err := p.List()
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		for _, it := range items {
			h, err := p.History(it.ID)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%+v %+v\n", it, h)
		}
		return b.String()
	}
	before := listed()

	// The first reprice evaluates on the built-in catalog (the saves kept
	// the outcomes on the catalog in use) and keeps what it found; the
	// second evaluates nothing and answers the same.
	var answers [2]*Repricing
	for i := range answers {
		n := outcomesFound.Load()
		rp, err := p.Reprice(context.Background(), def, DefaultRepriceThreshold)
		if err != nil {
			t.Fatal(err)
		}
		if rp.Scenarios != 7 || len(rp.Failed) != 1 {
			t.Fatalf("%d scenarios, failed %+v", rp.Scenarios, rp.Failed)
		}
		f := rp.Failed[0]
		if f.ID != "on-our-quote" || f.Catalog != "baseline" || !strings.Contains(f.Error, `"my-h100" is not in the catalog`) {
			t.Errorf("failure %+v", f)
		}
		// The six examples were seeded without outcomes: both catalogs;
		// the saved scenario: only the baseline.
		if got, want := outcomesFound.Load()-n, []int64{13, 0}[i]; got != want {
			t.Errorf("reprice %d evaluated %d outcomes, want %d", i+1, got, want)
		}
		answers[i] = rp
	}
	if a, b := fmt.Sprintf("%+v", answers[0]), fmt.Sprintf("%+v", answers[1]); a != b {
		t.Errorf("from stored outcomes:\n%s\nfirst:\n%s", b, a)
	}
	if after := listed(); after != before {
		t.Errorf("the scenarios changed:\n%s\nwas\n%s", after, before)
	}

	none := New(tempPath(t))
	rp, err := none.Reprice(context.Background(), def, DefaultRepriceThreshold)
	if err != nil || rp.Scenarios != 0 || len(rp.Changed) != 0 {
		t.Errorf("no store: %+v, %v", rp, err)
	}
	if _, err := os.Stat(none.db); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a store was made: %v", err)
	}
}

// csvQuote quotes a CSV value that needs it.
func csvQuote(v string) string {
	if strings.ContainsAny(v, ",\"\n") {
		return `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
	}
	return v
}

// Baseline is the built-in catalog with the rows applied.
func TestRepriceBaseline(t *testing.T) {
	was := lambdaPrice(t)
	b, err := Baseline(overrideRows(t, lambdaRow(2*was)))
	if err != nil {
		t.Fatal(err)
	}
	if o, _ := b.CloudOffer("lambda-h100"); o.OnDemand != 2*was {
		t.Errorf("baseline lambda-h100 %v", o.OnDemand)
	}
	def, _ := Baseline(catalog.Overrides{})
	if o, _ := def.CloudOffer("lambda-h100"); o.OnDemand != was {
		t.Errorf("built-in lambda-h100 %v", o.OnDemand)
	}
	if _, err := Baseline(catalog.Overrides{Rows: []catalog.OverrideRow{{Kind: "cloud", ID: "lambda-h100", Field: "no_such_field", Value: "1", AsOf: "2026-10-01", Source: "x"}}}); err == nil {
		t.Error("a bad row is accepted")
	}
}
