package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"hostplan/internal/present"
)

// recommendations decides stored scenarios in the background for the
// list: the direction each one's decision ranks first, kept per revision
// for the session, so a scenario is decided again only once it has a new
// revision. Nothing is decided at start: the list asks for the rows it
// draws, and for every scenario only while it filters by recommendation.
// Its methods run on the UI goroutine; the deciding runs off it in
// batches, one Backend.Recommendations call each (the store keeps most
// outcomes, so a batch is mostly a read), each applied with the outcome
// of its scenarios.
type recommendations struct {
	backend Backend
	known   map[recKey]recOutcome
	queue   []Item // waiting to be decided, first first
	queued  map[recKey]bool
	running bool
	// size is how many scenarios the next batch asks for (nextBatch);
	// maxSize bounds it.
	size, maxSize int
	// onUpdate is called after each batch, to redraw what shows it.
	onUpdate func()
	ctx      context.Context // ended by stop, when the window closes
	stop     context.CancelFunc
}

// recKey is one revision of one scenario.
type recKey struct {
	id  string
	rev int
}

// recOutcome is the decision of one revision: the recommended direction,
// "" when none is feasible, or why it could not be decided.
type recOutcome struct {
	direction string
	err       error
}

// Batches: the first asks for recFirstBatch scenarios (the rows on screen
// and some more, answered at once); each next one is recBatchGrowth times
// as large, or larger when that would still take less than recBatchTime
// at the pace of the last, between recMinBatch and recMaxBatch. A batch has a cost of
// its own besides its scenarios (the store opened to read, and again to
// keep the outcomes found: on a store of 10,000 each open reads every
// page, some hundreds of milliseconds), so batches are not made smaller
// when they are slow: they grow, and the list fills in a few steps (10,000
// scenarios whose outcomes must all be found anew: 500, 2,000, the rest).
const (
	recFirstBatch  = 500
	recMinBatch    = 50
	recMaxBatch    = 10_000
	recBatchGrowth = 4
	recBatchTime   = 250 * time.Millisecond
)

func newRecommendations(b Backend, onUpdate func()) *recommendations {
	ctx, stop := context.WithCancel(context.Background())
	return &recommendations{backend: b, known: map[recKey]recOutcome{}, queued: map[recKey]bool{},
		size: recFirstBatch, maxSize: recMaxBatch, onUpdate: onUpdate, ctx: ctx, stop: stop}
}

func keyOf(it Item) recKey { return recKey{it.ID, it.Revisions} }

// get returns the decision of it's current revision, if it is known.
func (r *recommendations) get(it Item) (recOutcome, bool) {
	o, ok := r.known[keyOf(it)]
	return o, ok
}

// want asks for the items not decided yet; urgent ones go first (the rows
// on screen), the others after those already waiting.
func (r *recommendations) want(items []Item, urgent bool) {
	var add []Item
	for _, it := range items {
		k := keyOf(it)
		if _, ok := r.known[k]; ok || r.queued[k] {
			continue
		}
		r.queued[k] = true
		add = append(add, it)
	}
	if len(add) == 0 {
		return
	}
	if urgent {
		r.queue = append(add, r.queue...)
	} else {
		r.queue = append(r.queue, add...)
	}
	r.pump()
}

// waiting is the number of scenarios asked for and not decided yet.
func (r *recommendations) waiting() int { return len(r.queue) }

// pump starts the next batch unless one is running.
func (r *recommendations) pump() {
	if r.running || len(r.queue) == 0 || r.ctx.Err() != nil {
		return
	}
	r.running = true
	batch := slices.Clone(r.queue[:min(r.size, r.maxSize, len(r.queue))])
	b, ctx := r.backend, r.ctx
	inBackground(func() func() {
		start := time.Now()
		done := decideBatch(ctx, b, batch)
		took := time.Since(start)
		return func() {
			r.running = false
			r.size = nextBatch(len(batch), took)
			for k, o := range done {
				r.known[k] = o
				delete(r.queued, k)
			}
			// The queue may have grown at the front meanwhile: drop the
			// decided ones wherever they are.
			rest := r.queue[:0]
			for _, it := range r.queue {
				if _, ok := done[keyOf(it)]; !ok {
					rest = append(rest, it)
				}
			}
			r.queue = rest
			if r.onUpdate != nil {
				r.onUpdate()
			}
			r.pump()
		}
	})
}

// nextBatch is the size of the batch after one of n scenarios that took
// took: recBatchGrowth × n, or as many as take recBatchTime at that pace
// when more.
func nextBatch(n int, took time.Duration) int {
	if took <= 0 {
		return recMaxBatch
	}
	next := max(recBatchGrowth*n, int(float64(n)*float64(recBatchTime)/float64(took)))
	return min(max(next, recMinBatch), recMaxBatch)
}

// decideBatch decides items with one call of the backend. A failure of
// the call is the outcome of every item in the batch, except that nothing
// is decided once ctx has ended (the window closed); a panic in the
// backend is such a failure.
func decideBatch(ctx context.Context, b Backend, items []Item) (done map[recKey]recOutcome) {
	var (
		recs []Recommendation
		err  error
	)
	func() {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("internal error: %v", p)
			}
		}()
		recs, err = b.Recommendations(ctx, items)
	}()
	if ctx.Err() != nil {
		return nil
	}
	if err == nil && len(recs) != len(items) {
		err = fmt.Errorf("internal error: %s recommendations for %s", present.Whole(float64(len(recs))), present.Count(len(items), "scenario"))
	}
	done = make(map[recKey]recOutcome, len(items))
	for i, it := range items {
		switch {
		case err != nil:
			done[keyOf(it)] = recOutcome{err: err}
		case recs[i].Problem != "":
			done[keyOf(it)] = recOutcome{err: errors.New(recs[i].Problem)}
		default:
			done[keyOf(it)] = recOutcome{direction: recs[i].Direction}
		}
	}
	return done
}
