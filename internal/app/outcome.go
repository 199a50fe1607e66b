package app

// Outcomes: what an evaluation of a revision found, small enough to keep
// beside it in the store (store.ResultKey: the revision's input hash, the
// catalog's hash and the engine's version) so that reprice, list and the
// window read it rather than evaluate again.

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"hostplan/internal/catalog"
	"hostplan/internal/costid"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

// Engine names everything a stored outcome depends on besides the
// scenario and the catalog: the model's version and the outcome's own
// layout. A model whose answers change must change model.Version
// (TestOutcomesNeedNewVersion fails until it does), and every stored
// outcome of the old one is then stale.
const Engine = "model " + model.Version + "; outcome 2"

// Outcome is one scenario's evaluation and decision on one catalog.
type Outcome struct {
	// Problem is why the scenario did not evaluate on the catalog ("" when
	// it did); the other fields are then empty.
	Problem string `json:"problem,omitempty"`
	// Reads is what the evaluation read of the catalog's prices: which
	// price changes can change this outcome (affected.go). It is written
	// second, after Problem, so that decodeHead stops reading there.
	Reads          *model.PriceReads `json:"reads,omitempty"`
	Recommendation string            `json:"recommendation,omitempty"`
	Cheapest       string            `json:"cheapest,omitempty"`
	Currency       string            `json:"currency,omitempty"`
	CatalogAsOf    string            `json:"catalog_as_of,omitempty"`
	// Directions holds every direction the model evaluated, in its order.
	Directions []OutcomeDirection `json:"directions,omitempty"`
}

// OutcomeDirection is one direction of an Outcome.
type OutcomeDirection struct {
	Direction   string  `json:"direction"`
	Title       string  `json:"title"`
	Feasible    bool    `json:"feasible"`
	CostHorizon float64 `json:"cost_horizon"`
	// TimeToResultHours is the elapsed time of one run, as the report's.
	TimeToResultHours float64 `json:"time_to_result_hours"`
	GPU               string  `json:"gpu,omitempty"`
	GPUs              int     `json:"gpus,omitempty"`
	// Prices are the cost inputs that came from the catalog.
	Prices []OutcomePrice `json:"prices,omitempty"`
}

// OutcomePrice is a cost input that came from the catalog: the parts of
// model.CostInput that say which price it was (its source stays in the
// catalog).
type OutcomePrice struct {
	Name    string        `json:"name"`
	Driver  costid.Driver `json:"driver"`
	Catalog string        `json:"catalog"` // kind/id/field
	Value   float64       `json:"value"`
	AsOf    string        `json:"as_of,omitempty"`
}

// Direction returns the direction named d, or nil.
func (o *Outcome) Direction(d string) *OutcomeDirection {
	for i := range o.Directions {
		if o.Directions[i].Direction == d {
			return &o.Directions[i]
		}
	}
	return nil
}

// outcomeOf summarises a decided evaluation.
func outcomeOf(d decided) *Outcome {
	o := &Outcome{Recommendation: d.dec.Recommendation, Cheapest: d.r.Cheapest, Currency: d.r.Currency, CatalogAsOf: d.r.CatalogAsOf,
		Directions: make([]OutcomeDirection, len(d.r.Directions)), Reads: d.r.PriceReads}
	for i := range d.r.Directions {
		x := &d.r.Directions[i]
		od := OutcomeDirection{Direction: x.Direction, Title: x.Title, Feasible: x.Feasible, CostHorizon: x.CostHorizon,
			TimeToResultHours: x.TimeToResultHours, GPU: x.GPU, GPUs: x.GPUs}
		for _, in := range x.CostInputs {
			if in.Catalog != "" {
				od.Prices = append(od.Prices, OutcomePrice{Name: in.Name, Driver: in.Driver, Catalog: in.Catalog, Value: in.Value, AsOf: in.AsOf})
			}
		}
		o.Directions[i] = od
	}
	return o
}

// outcomeOn evaluates and decides s on cat: its Outcome, or one whose
// Problem says why it did not evaluate.
func outcomeOn(s *scenario.Scenario, cat *catalog.Catalog) *Outcome {
	outcomesFound.Add(1)
	d, err := decideOn(s, cat)
	if err != nil {
		return &Outcome{Problem: err.Error()}
	}
	return outcomeOf(d)
}

// outcomesFound counts outcomeOn's evaluations (tests read it).
var outcomesFound atomic.Int64

// CatalogHash is the hash by which stored outcomes name the catalog they
// were found on: of every row of it, as catalog export writes them.
func CatalogHash(cat *catalog.Catalog) (string, error) {
	h := sha256.New()
	if err := cat.ExportCSV(h); err != nil {
		return "", fmt.Errorf("catalog hash: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// catalogHash is CatalogHash of the catalog in use, found once.
func (p *Planner) catalogHash() (*catalog.Catalog, string, error) {
	cat, err := p.Catalog()
	if err != nil {
		return nil, "", err
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.catHash == "" {
		if p.catHash, err = CatalogHash(cat); err != nil {
			return nil, "", err
		}
	}
	return cat, p.catHash, nil
}

// encodeOutcome is the stored form of o; nil (not stored: found again
// when needed) for one that does not encode.
func encodeOutcome(o *Outcome) []byte {
	b, err := json.Marshal(o)
	if err != nil {
		return nil
	}
	return b
}

// decodeOutcome reads a stored outcome; one that does not decode is none.
// (A change of the Outcome's layout changes Engine, so an outcome of
// another layout is never read as this one.)
func decodeOutcome(b []byte) *Outcome {
	if len(b) == 0 {
		return nil
	}
	var o Outcome
	if err := json.Unmarshal(b, &o); err != nil {
		return nil
	}
	return &o
}

// decodeHead reads only what a stored outcome says of its failure and its
// reads of the catalog's prices (nil when it does not decode): enough to
// tell whether a change of prices can touch it. Outcome writes those two
// first, and the head is read token by token up to the reads, leaving the
// directions unread: json.Unmarshal checks every byte of the value before
// it decodes any, and a reprice of 10,000 spent more time there than in
// the reads it wanted. (An outcome kept before this order, with its reads
// last, is read whole, token by token.)
func decodeHead(b []byte) *Outcome {
	if len(b) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var h Outcome
	for read := false; !read && dec.More(); {
		t, err := dec.Token()
		if err != nil {
			return nil
		}
		switch t {
		case "problem": // written before the reads, in either order
			err = dec.Decode(&h.Problem)
		case "reads":
			err = dec.Decode(&h.Reads)
			read = true
		default:
			var skip json.RawMessage
			err = dec.Decode(&skip)
		}
		if err != nil {
			return nil
		}
	}
	return &h
}

// keepOutcomes stores outcomes (encoded) found by a command that only reads: into
// the open store, or else into the file opened for a moment — not at all
// when another hostplan holds it, it is read-only for this user, damaged
// or of an older layout (the outcomes are found again next time). It
// returns whether they were kept.
func (p *Planner) keepOutcomes(keys []store.ResultKey, data [][]byte) bool {
	if len(keys) == 0 {
		return true
	}
	p.mu.Lock()
	st, path, unwritable := p.st, p.path, p.unwritable
	p.mu.Unlock()
	if st != nil {
		return st.PutResults(keys, data) == nil
	}
	if unwritable || path == "" {
		return false
	}
	w, err := store.Open(path, &store.Options{Timeout: keepWait})
	if err != nil {
		return false
	}
	defer w.Close()
	if w.Damaged() != nil {
		return false
	}
	return w.PutResults(keys, data) == nil
}

// keepWait is how long a read command waits to store the outcomes it
// found before it leaves them: they are a saving, not an answer.
const keepWait = 100 * time.Millisecond

// errNoOutcome is a scenario without its revision's hash (a record of an
// older layout not yet rewritten): its outcome is not stored.
var errNoOutcome = errors.New("no input hash")

// resultKey is the key of the outcome of the revision with input hash in
// on the catalog with hash cat.
func resultKey(in, cat string) (store.ResultKey, error) {
	if len(in) != 64 {
		return store.ResultKey{}, errNoOutcome
	}
	return store.ResultKey{Input: in, Catalog: cat, Engine: Engine}, nil
}

// Outcomes returns the outcome of the current revision of each of items
// (List's) on the catalog in use, in order: read from the store where it
// keeps them, found on every core where it does not (and kept for next
// time when the store can be written). An item whose scenario cannot be
// read or does not evaluate has an Outcome whose Problem says why.
// progress, when not nil, is told how many of the missing outcomes are
// found as they are. It stops with ctx's error once ctx ends.
func (p *Planner) Outcomes(ctx context.Context, items []store.Summary, progress func(done, total int)) ([]*Outcome, error) {
	cat, hash, err := p.catalogHash()
	if err != nil {
		return nil, err
	}
	out := make([]*Outcome, len(items))
	keys := make([]store.ResultKey, len(items))
	for i, it := range items {
		keys[i], _ = resultKey(it.InputHash, hash)
	}
	var (
		keep  []store.ResultKey
		found [][]byte
	)
	err = p.reading(func(st *store.Store) error {
		raw, _ := st.GetResults(keys) // none when the store cannot give them: they are found again
		var missing []int
		for i := range items {
			if raw != nil {
				out[i] = decodeOutcome(raw[i])
			}
			if out[i] == nil {
				missing = append(missing, i)
			}
		}
		var done atomic.Int64
		memo := newOutcomeMemo(cat)
		unread := make([]bool, len(items)) // a read error is not the scenario's outcome: not kept
		err := ForEach(ctx, len(missing), func(k int) {
			i := missing[k]
			if s, rev, err := st.Get(items[i].ID); err != nil {
				out[i], unread[i] = &Outcome{Problem: err.Error()}, true
			} else {
				o := *memo.outcome(s) // a copy: the caller's to change
				out[i] = &o
				// The current revision may be newer than the item (a save
				// since the list was read): its outcome is kept under its
				// own input hash, not the item's.
				keys[i], _ = resultKey(rev.InputHash, hash)
			}
			if progress != nil {
				progress(int(done.Add(1)), len(missing))
			}
		})
		for _, i := range missing {
			if out[i] != nil && !unread[i] && keys[i].Engine != "" {
				keep, found = append(keep, keys[i]), append(found, encodeOutcome(out[i]))
			}
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	p.mu.Lock()
	path := p.path
	p.mu.Unlock()
	for i := range out {
		if out[i] == nil { // the store file is gone (reading ran nothing)
			out[i] = &Outcome{Problem: fmt.Sprintf("scenario %s: the store %s is gone", items[i].ID, path)}
		}
	}
	p.keepOutcomes(keep, found)
	return out, nil
}
