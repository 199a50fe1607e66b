package app

import (
	"crypto/sha256"
	"encoding/json"
	"sync"
	"sync/atomic"

	"hostplan/internal/catalog"
	"hostplan/internal/scenario"
)

// Copies evaluate once. A library holds many scenarios that differ only in
// what the model does not read — a copy renamed for another team, a
// variant kept under a new id — and a command that evaluates many of them
// on one catalog (reprice, the outcomes a list or the window's filter
// lacks) evaluates each distinct input once.

// evaluationInput is the hash of what an evaluation of s reads: s without
// its id, name and description, which neither the model's outcome nor the
// decision depends on (TestCopiesShareOutcome). false when s cannot be
// encoded.
func evaluationInput(s *scenario.Scenario) ([sha256.Size]byte, bool) {
	c := *s
	c.ID, c.Name, c.Description = "", "", ""
	b, err := json.Marshal(&c)
	if err != nil {
		return [sha256.Size]byte{}, false
	}
	return sha256.Sum256(b), true
}

// maxMemoOutcomes bounds the outcomes one outcomeMemo holds (some 5 KB
// each): past it, a further distinct input is evaluated and not kept.
const maxMemoOutcomes = 4096

// outcomeMemo holds the outcomes found on one catalog in one command, by
// evaluationInput. Safe for concurrent use: a worker that asks for an
// input another is evaluating waits for that answer.
type outcomeMemo struct {
	cat *catalog.Catalog
	m   sync.Map // [sha256.Size]byte → *memoEntry
	n   atomic.Int64
}

type memoEntry struct {
	once sync.Once
	o    *Outcome
}

func newOutcomeMemo(cat *catalog.Catalog) *outcomeMemo { return &outcomeMemo{cat: cat} }

// outcome is outcomeOn(s, memo's catalog), from a copy of s evaluated
// before when there is one. The Outcome returned may be shared with other
// scenarios' answers: it is read, never changed. An outcome with a Problem
// is not shared (its words may name the scenario): each copy is evaluated.
func (mm *outcomeMemo) outcome(s *scenario.Scenario) *Outcome {
	key, ok := evaluationInput(s)
	if !ok {
		return outcomeOn(s, mm.cat)
	}
	v, found := mm.m.Load(key)
	if !found {
		if mm.n.Load() >= maxMemoOutcomes {
			return outcomeOn(s, mm.cat)
		}
		var loaded bool
		if v, loaded = mm.m.LoadOrStore(key, &memoEntry{}); !loaded {
			mm.n.Add(1)
		}
	}
	e, mine := v.(*memoEntry), false
	e.once.Do(func() { e.o, mine = outcomeOn(s, mm.cat), true })
	if e.o.Problem != "" && !mine {
		return outcomeOn(s, mm.cat)
	}
	return e.o
}
