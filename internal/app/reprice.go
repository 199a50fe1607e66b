package app

// Repricing: the stored scenarios re-evaluated against two catalogs — a
// baseline (the built-in catalog, an overrides file on top of it, or the
// catalog in use before an import) and the catalog in use — to find those
// a change of prices matters to: their recommendation or cheapest
// direction changed, a direction's verdict changed, or a direction's cost
// over the horizon moved more than a threshold. For each it names the
// catalog prices each direction used that moved, with their old and new
// values and dates. It only reads the store.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

// DefaultRepriceThreshold is the move in a direction's cost over the
// horizon, as a share of the baseline's, beyond which Reprice lists a
// scenario: 5 %.
const DefaultRepriceThreshold = 0.05

// MaxRepriceThreshold bounds the threshold Reprice accepts: 1,000 %.
const MaxRepriceThreshold = 10

// Repricing is what Reprice found.
type Repricing struct {
	// Threshold is the share of a direction's cost over the horizon it may
	// move by before the scenario is listed.
	Threshold float64 `json:"threshold"`
	// Scenarios is how many stored scenarios were re-evaluated.
	Scenarios int `json:"scenarios"`
	// Changed are the scenarios the new prices change, by name.
	Changed []present.RepricedScenario `json:"changed"`
	// Failed are the scenarios that did not evaluate against one of the
	// two catalogs, each with why.
	Failed []RepriceFailure `json:"failed"`
}

// RepriceFailure is a scenario that did not evaluate.
type RepriceFailure struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	Revision int    `json:"revision"`
	// Catalog is which catalog it failed on: "baseline" or "in use".
	Catalog string `json:"catalog"`
	Error   string `json:"error"`
}

// Baseline is the built-in catalog with rows applied (none: the built-in
// catalog itself): the baseline of "hostplan reprice --from FILE".
func Baseline(rows catalog.Overrides) (*catalog.Catalog, error) {
	def, err := catalog.Default()
	if err != nil || len(rows.Rows) == 0 {
		return def, err
	}
	return def.Apply(rows)
}

// Reprice re-evaluates the latest revision of every stored scenario that
// is not deleted against baseline and against the catalog in use, and
// lists those whose recommendation or cheapest direction changed, one of
// whose directions changed verdict, or one of whose directions (feasible
// on either catalog) moved its cost over the horizon by more than
// threshold, a share (0.05: 5 %). A scenario that does not evaluate on
// one of the catalogs is listed in Failed and the others go on. The store
// is only read: the open one, or else the file opened read-only for the
// call (no file: nothing to reprice, and none is created). It stops with
// ctx's error once ctx ends.
func (p *Planner) Reprice(ctx context.Context, baseline *catalog.Catalog, threshold float64) (*Repricing, error) {
	return p.RepriceProgress(ctx, baseline, threshold, nil)
}

// RepriceProgress is Reprice telling progress, when not nil, how many of
// the scenarios whose outcomes the store does not keep are evaluated, as
// they are.
func (p *Planner) RepriceProgress(ctx context.Context, baseline *catalog.Catalog, threshold float64, progress func(done, total int)) (*Repricing, error) {
	if baseline == nil {
		return nil, errors.New("reprice: no baseline catalog")
	}
	if !(threshold >= 0 && threshold <= MaxRepriceThreshold) {
		return nil, fmt.Errorf("reprice: threshold %v is out of range (allowed: 0 to %v)", threshold, MaxRepriceThreshold)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	now, nowHash, err := p.catalogHash()
	if err != nil {
		return nil, err
	}
	out := &Repricing{Threshold: threshold, Changed: []present.RepricedScenario{}, Failed: []RepriceFailure{}}
	// Identical catalogs move nothing: the scenarios are counted, not
	// evaluated twice each.
	same := len(catalog.Diff(baseline, now)) == 0
	baseHash := nowHash
	if !same {
		if baseHash, err = CatalogHash(baseline); err != nil {
			return nil, err
		}
	}
	var (
		keys  []store.ResultKey // outcomes found here, to keep
		found [][]byte
	)
	err = p.reading(func(st *store.Store) error {
		items, err := st.List()
		if err != nil {
			return err
		}
		if same {
			out.Scenarios = len(items)
			return nil
		}
		// The stored outcomes on both catalogs; what is missing is found
		// on every core, and the answers keep the list's order.
		type side struct {
			cat  *catalog.Catalog
			hash string
		}
		sides := [2]side{{baseline, baseHash}, {now, nowHash}}
		rkeys := make([]store.ResultKey, 2*len(items))
		for i, it := range items {
			for j, sd := range sides {
				rkeys[2*i+j], _ = resultKey(it.InputHash, sd.hash)
			}
		}
		stored, _ := st.GetResults(rkeys) // none when the store cannot give them: they are found again
		if stored == nil {
			stored = make([][]byte, len(rkeys))
		}
		// Kept are the outcomes on the catalog in use and on the built-in
		// one; a baseline of the user's file is passing, and its outcomes
		// would push out those (store.MaxResultsPerRevision).
		keep := [2]bool{baseHash == builtinHash(), true}
		type result struct {
			rs    *present.RepricedScenario
			fail  *RepriceFailure
			count bool
			fresh [2][]byte // outcomes found here, as the store keeps them
		}
		// The rows that differ: an outcome that read none of them is the
		// outcome on the other catalog too (affected.go).
		changes, entries := catalogChanges(baseline, now)
		// derive is the outcome on other of a stored outcome (raw) found on
		// the other catalog, when no change can touch it; nil otherwise.
		derive := func(raw []byte, other *catalog.Catalog) []byte {
			if raw == nil || entries {
				return nil
			}
			if h := decodeHead(raw); h != nil && h.Problem == "" && unaffected(h, changes, other) {
				return raw
			}
			return nil
		}
		// sound reports whether the stored outcome raw is no failure.
		sound := func(raw []byte) bool {
			h := decodeHead(raw)
			return h != nil && h.Problem == ""
		}
		memos := [2]*outcomeMemo{newOutcomeMemo(baseline), newOutcomeMemo(now)}
		results := make([]result, len(items))
		var done, todo atomic.Int64 // scenarios evaluated; of those to evaluate
		if progress != nil {
			for i := range items {
				if stored[2*i] == nil || stored[2*i+1] == nil {
					todo.Add(1)
				}
			}
		}
		err = ForEach(ctx, len(items), func(i int) {
			it := items[i]
			raw := [2][]byte{stored[2*i], stored[2*i+1]}
			derived := false // an outcome derived is no failure
			switch {
			case raw[0] == nil && raw[1] != nil:
				raw[0] = derive(raw[1], baseline)
				results[i].fresh[0], derived = raw[0], raw[0] != nil
			case raw[1] == nil && raw[0] != nil:
				raw[1] = derive(raw[0], now)
				results[i].fresh[1], derived = raw[1], raw[1] != nil
			}
			if progress != nil && (stored[2*i] == nil || stored[2*i+1] == nil) {
				progress(int(done.Add(1)), int(todo.Load()))
			}
			if raw[0] != nil && bytes.Equal(raw[0], raw[1]) && (derived || sound(raw[0])) {
				// The same outcome on both catalogs moved nothing — unless
				// it is a failure, which is listed.
				results[i].count = true
				return
			}
			o := [2]*Outcome{decodeOutcome(raw[0]), decodeOutcome(raw[1])}
			rev := it.Revisions
			if o[0] == nil || o[1] == nil {
				s, r, err := st.Get(it.ID)
				if err != nil {
					results[i].fail = &RepriceFailure{ID: it.ID, Name: it.Name, Revision: it.Revisions, Error: err.Error()}
					return
				}
				rev = r.Number
				if r.InputHash != it.InputHash {
					// A revision saved since the list was read: both
					// outcomes are found for it, and kept under its hash.
					o, results[i].fresh = [2]*Outcome{}, [2][]byte{}
					for j, sd := range sides {
						rkeys[2*i+j], _ = resultKey(r.InputHash, sd.hash)
					}
				}
				for j, memo := range memos {
					if o[j] == nil {
						o[j] = memo.outcome(s)
						if keep[j] {
							results[i].fresh[j] = encodeOutcome(o[j])
						}
					}
				}
			}
			results[i].count = true
			rs, fail := reprice(o[0], o[1], baseline, now, threshold)
			switch {
			case fail != nil:
				fail.ID, fail.Name, fail.Revision = it.ID, it.Name, rev
				results[i].fail = fail
			case rs != nil:
				rs.ID, rs.Name, rs.Revision = it.ID, it.Name, rev
				results[i].rs = rs
			}
		})
		if err != nil {
			return err
		}
		for i, r := range results {
			if r.count {
				out.Scenarios++
			}
			if r.fail != nil {
				out.Failed = append(out.Failed, *r.fail)
			}
			if r.rs != nil {
				out.Changed = append(out.Changed, *r.rs)
			}
			for j, o := range r.fresh {
				if len(o) > 0 && rkeys[2*i+j].Engine != "" && keep[j] {
					keys, found = append(keys, rkeys[2*i+j]), append(found, o)
				}
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	p.keepOutcomes(keys, found)
	return out, nil
}

// builtinHash is CatalogHash of the built-in catalog ("" if it does not
// load), found once.
var builtinHash = sync.OnceValue(func() string {
	def, err := catalog.Default()
	if err != nil {
		return ""
	}
	h, err := CatalogHash(def)
	if err != nil {
		return ""
	}
	return h
})

// read runs f on the open store, or else on the store file opened
// read-only for the call (beside another hostplan's window or reads, and
// on a file the user may not write); with no store yet it creates and
// seeds one first, as the first run of any command does.
func (p *Planner) read(f func(st *store.Store) error) error {
	p.mu.Lock()
	if st := p.st; st != nil {
		p.mu.Unlock()
		return f(st)
	}
	ok, err := p.exists()
	p.mu.Unlock()
	if err != nil {
		return err
	}
	if !ok {
		return p.using(f)
	}
	p.mu.Lock()
	if !p.unwritable && !writable(p.path) {
		p.unwritable = true
	}
	p.mu.Unlock()
	return p.reading(f)
}

// writable reports whether this user may write the file at path (a test
// stands in for a file of another user, which root could write anyway).
var writable = func(path string) bool {
	w, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return !errors.Is(err, fs.ErrPermission)
	}
	w.Close()
	return true
}

// reading runs f on the open store, or else on the store file opened
// read-only for the call; with no store file f is not run.
func (p *Planner) reading(f func(st *store.Store) error) error {
	p.mu.Lock()
	if st := p.st; st != nil {
		p.mu.Unlock()
		return f(st)
	}
	ok, err := p.exists()
	path := p.path
	p.mu.Unlock()
	if err != nil || !ok {
		return err
	}
	ro, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer ro.Close()
	p.mu.Lock()
	check := p.CheckOnRead && !p.damageRead
	p.damageRead = p.damageRead || check
	p.mu.Unlock()
	d := ro.Damaged()
	if check {
		d = ro.CheckDamage()
	}
	if d != nil {
		p.mu.Lock()
		p.damage = d // reads go on; Damaged says so
		p.mu.Unlock()
	}
	return f(ro)
}

// decided is a scenario's report and decision on one catalog.
type decided struct {
	r   *model.Report
	dec *decide.Decision
}

// decideOn runs the checks, the model and the decision on s with cat.
// The report is lean (model.EvaluateLean: no notes, cost lines or
// sources): its callers keep an Outcome, which holds none of them.
func decideOn(s *scenario.Scenario, cat *catalog.Catalog) (decided, error) {
	if errs := Problems(s, cat); errs != nil {
		return decided{}, errs
	}
	r, err := guarded(model.EvaluateLean, s, cat)
	if r, err = evaluated(s, cat, r, err); err != nil {
		return decided{}, err
	}
	dec, err := decide.Decide(s, r)
	if err != nil {
		return decided{}, err
	}
	return decided{r, dec}, nil
}

// reprice compares a scenario's outcomes on the two catalogs: nil, nil
// when nothing that matters moved.
func reprice(a, b *Outcome, before, after *catalog.Catalog, threshold float64) (*present.RepricedScenario, *RepriceFailure) {
	if a.Problem != "" {
		return nil, &RepriceFailure{Catalog: "baseline", Error: a.Problem}
	}
	if b.Problem != "" {
		return nil, &RepriceFailure{Catalog: "in use", Error: b.Problem}
	}
	rs := &present.RepricedScenario{Currency: b.Currency, Directions: []present.RepricedDirection{},
		RecommendationBefore: a.Recommendation, RecommendationAfter: b.Recommendation,
		CheapestBefore: a.Cheapest, CheapestAfter: b.Cheapest}
	listed := rs.RecommendationChanged() || rs.CheapestChanged()
	for i := range b.Directions {
		db := &b.Directions[i]
		da := a.Direction(db.Direction)
		if da == nil || !da.Feasible && !db.Feasible {
			continue
		}
		d := present.RepricedDirection{Direction: db.Direction, Title: db.Title, FeasibleBefore: da.Feasible, FeasibleAfter: db.Feasible,
			CostBefore: da.CostHorizon, CostAfter: db.CostHorizon, Prices: priceMoves(da.Prices, db.Prices, before, after, rs.Currency),
			GPUBefore: da.GPU, GPUAfter: db.GPU, GPUsBefore: da.GPUs, GPUsAfter: db.GPUs}
		if da.CostHorizon != 0 {
			d.Change = (db.CostHorizon - da.CostHorizon) / da.CostHorizon
			d.Beyond = math.Abs(d.Change) > threshold
		} else {
			d.Beyond = db.CostHorizon != 0
		}
		if !finite(d.Change) {
			d.Change, d.Beyond = 0, true
		}
		if d.Beyond || d.VerdictChanged() || len(d.Prices) > 0 {
			rs.Directions = append(rs.Directions, d)
		}
		listed = listed || d.Beyond || d.VerdictChanged()
	}
	if !listed {
		return nil, nil
	}
	return rs, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// priceMoves lists the catalog prices a direction used, by input, whose
// value, date or entry differs between its two evaluations (a and b: the
// cost inputs of each).
func priceMoves(a, b []OutcomePrice, before, after *catalog.Catalog, currency string) []present.PriceMove {
	old := map[string]OutcomePrice{}
	for _, in := range a {
		if in.Catalog != "" {
			old[in.Name] = in
		}
	}
	moves := []present.PriceMove{}
	seen := map[string]bool{}
	add := func(x, y OutcomePrice, hasX, hasY bool) {
		in := y
		if !hasY {
			in = x
		}
		if seen[in.Name] {
			return
		}
		seen[in.Name] = true
		m := present.PriceMove{Input: in.Name, Label: costid.Label(in.Driver), Unit: costid.Unit(in.Driver, currency)}
		if hasX {
			m.EntryBefore, m.EntryNameBefore, m.Before, m.AsOfBefore = x.Catalog, entryName(before, x.Catalog), x.Value, x.AsOf
		}
		if hasY {
			m.EntryAfter, m.EntryNameAfter, m.After, m.AsOfAfter = y.Catalog, entryName(after, y.Catalog), y.Value, y.AsOf
		}
		if m.Before != m.After || m.AsOfBefore != m.AsOfAfter || m.EntryBefore != m.EntryAfter {
			moves = append(moves, m)
		}
	}
	for _, y := range b {
		if y.Catalog == "" {
			continue
		}
		x, ok := old[y.Name]
		add(x, y, ok, true)
	}
	for _, x := range a {
		if x.Catalog != "" {
			add(x, OutcomePrice{}, true, false)
		}
	}
	return moves
}

// entryName is what the catalog entry of key (kind/id/field) is called:
// its name, or its id when it has none ("" when cat lacks it).
func entryName(cat *catalog.Catalog, key string) string {
	name, rest, _ := strings.Cut(key, "/")
	id, _, _ := strings.Cut(rest, "/")
	kind := catalog.Kind(name)
	it, ok := cat.Item(kind, id)
	switch {
	case !ok:
		return ""
	case kind == catalog.KindSite:
		return "on-premises site"
	case it.Name == "":
		return it.ID
	}
	return it.Name
}
