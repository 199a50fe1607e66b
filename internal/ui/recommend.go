package ui

import (
	"context"
	"fmt"
	"slices"
	"time"
)

// recommendations decides stored scenarios in the background for the
// list: the direction each one's decision ranks first, kept per revision
// for the session, so a scenario is decided again only once it has a new
// revision. Nothing is decided at start: the list asks for the rows it
// draws, and for every scenario only while it filters by recommendation.
// Its methods run on the UI goroutine; the deciding runs off it in
// batches, each applied with the outcome of its scenarios.
type recommendations struct {
	backend Backend
	known   map[recKey]recOutcome
	queue   []Item // waiting to be decided, first first
	queued  map[recKey]bool
	running bool
	// onUpdate is called after each batch, to redraw what shows it.
	onUpdate func()
	ctx      context.Context // ended when the window closes
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

// recBatch bounds one batch: this many scenarios, or this much time, so
// the list fills in steadily and a new request waits little.
const (
	recBatch     = 200
	recBatchTime = 60 * time.Millisecond
)

func newRecommendations(ctx context.Context, b Backend, onUpdate func()) *recommendations {
	return &recommendations{backend: b, known: map[recKey]recOutcome{}, queued: map[recKey]bool{}, onUpdate: onUpdate, ctx: ctx}
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
	batch := slices.Clone(r.queue[:min(recBatch, len(r.queue))])
	b, ctx := r.backend, r.ctx
	inBackground(func() func() {
		done := decideBatch(ctx, b, batch)
		return func() {
			r.running = false
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

// decideBatch decides the items in order until the batch's time is up; a
// panic in the backend is the outcome of the scenario that caused it.
func decideBatch(ctx context.Context, b Backend, items []Item) map[recKey]recOutcome {
	start := time.Now()
	done := map[recKey]recOutcome{}
	for _, it := range items {
		if ctx.Err() != nil || (len(done) > 0 && time.Since(start) > recBatchTime) {
			break
		}
		done[keyOf(it)] = recommendOne(ctx, b, it)
	}
	return done
}

func recommendOne(ctx context.Context, b Backend, it Item) (o recOutcome) {
	defer func() {
		if p := recover(); p != nil {
			o = recOutcome{err: fmt.Errorf("internal error: %v", p)}
		}
	}()
	_, dir, err := b.Recommend(ctx, it.ID)
	return recOutcome{direction: dir, err: err}
}
