package app

import (
	"context"
	"errors"
	"fmt"

	"hostplan/internal/brief"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

// Lineage is what a save records about itself besides the scenario: who
// saved and why. The Planner adds the model's version and the date of the
// catalog prices the scenario was evaluated with.
type Lineage struct {
	Author string // DefaultAuthor() unless the user names someone
	Note   string
}

// meta is the store's lineage of a revision evaluated as r.
func (l Lineage) meta(r *model.Report) scenario.RevisionMeta {
	return scenario.RevisionMeta{Author: l.Author, Note: l.Note, ModelVersion: model.Version, CatalogAsOf: r.CatalogAsOf}
}

// Save stores s as a new revision with its lineage. Nothing is written
// unless s passes Check against the catalog in use (it is valid, its
// offers, presets and GPUs exist, and the model evaluates it): the
// problems come back as scenario.Errors. Saving what the current revision already holds adds no
// revision and returns the current one; saving a deleted scenario brings
// it back.
func (p *Planner) Save(s *scenario.Scenario, l Lineage) (scenario.Revision, error) {
	if s == nil {
		return scenario.Revision{}, errors.New("no scenario to save")
	}
	ev, err := p.Prepare(context.Background(), s, l)
	if err != nil {
		return scenario.Revision{}, err
	}
	revs, err := p.SaveEvaluated([]Evaluated{ev})
	if err != nil {
		return scenario.Revision{}, err
	}
	return revs[0], nil
}

// Evaluated is a scenario to save with its lineage and what its
// evaluation on the catalog in use records (SaveEvaluated): the catalog
// date in the revision and the outcome beside it — not the report, so
// that thousands of them do not fill memory. Prepare makes one.
type Evaluated struct {
	Scenario    *scenario.Scenario
	Lineage     Lineage
	CatalogAsOf string // Evaluate's Report.CatalogAsOf for Scenario
	Evaluated   bool   // it was evaluated (a save records no unevaluated scenario)
	outcome     []byte // its stored Outcome on the catalog whose hash is catalog
	catalog     string
}

// Prepare evaluates and decides s on the catalog in use for a save with
// lineage l: the problems of an s that does not evaluate come back as
// scenario.Errors, as Evaluate's.
func (p *Planner) Prepare(ctx context.Context, s *scenario.Scenario, l Lineage) (Evaluated, error) {
	// Lean: of the report only the outcome and the catalog's date are kept.
	cat, err := p.checked(ctx, s)
	if err != nil {
		return Evaluated{}, err
	}
	r, err := model.EvaluateLean(s, cat)
	if r, err = evaluated(s, cat, r, err); err != nil {
		return Evaluated{}, err
	}
	_, hash, err := p.catalogHash()
	if err != nil {
		return Evaluated{}, err
	}
	ev := Evaluated{Scenario: s, Lineage: l, CatalogAsOf: r.CatalogAsOf, Evaluated: true}
	if dec, err := decide.Decide(s, r); err == nil { // without a decision no outcome is kept
		ev.outcome, ev.catalog = encodeOutcome(outcomeOf(decided{r, dec})), hash
	}
	return ev, nil
}

// SaveEvaluated saves many scenarios already evaluated on the catalog in
// use (Prepare), in transactions of saveBatch: one write to disk for
// many, where Save writes one each, with each one's outcome. It returns
// each one's revision, in order; on an error the batches before it are
// saved.
func (p *Planner) SaveEvaluated(items []Evaluated) ([]scenario.Revision, error) {
	var out []scenario.Revision
	for start := 0; start < len(items); start += saveBatch {
		chunk := items[start:min(len(items), start+saveBatch)]
		batch := make([]store.Batched, len(chunk))
		for i, it := range chunk {
			if it.Scenario == nil || !it.Evaluated {
				return out, errors.New("app: SaveEvaluated of a scenario not evaluated")
			}
			batch[i] = store.Batched{Scenario: it.Scenario, Meta: it.Lineage.meta(&model.Report{CatalogAsOf: it.CatalogAsOf})}
			if it.outcome != nil {
				batch[i].Result, batch[i].Catalog, batch[i].Engine = it.outcome, it.catalog, Engine
			}
		}
		var revs []scenario.Revision
		err := p.using(func(st *store.Store) (err error) {
			revs, err = st.SaveBatch(batch)
			return err
		})
		if err != nil {
			return out, err
		}
		out = append(out, revs...)
	}
	return out, nil
}

// saveBatch is how many scenarios SaveEvaluated writes in one transaction.
const saveBatch = 500

// Restore makes the content of revision n of scenario id current again as
// a new revision whose note is store.RestoredNote(n, l.Note). As with Save
// the revision must evaluate against the catalog in use, and its lineage
// records today's model and catalog; a revision that no longer validates
// or evaluates comes back as scenario.Errors. When the content equals the
// current revision's nothing is written and the current one is returned.
func (p *Planner) Restore(id string, n int, l Lineage) (scenario.Revision, error) {
	sc, _, err := p.LoadRevision(id, n)
	if err != nil {
		return scenario.Revision{}, err
	}
	r, err := p.Evaluate(context.Background(), sc)
	if err != nil {
		return scenario.Revision{}, err
	}
	var rev scenario.Revision
	err = p.using(func(st *store.Store) (err error) {
		rev, err = st.Restore(id, n, l.meta(r))
		return err
	})
	return rev, err
}

// List returns the stored scenarios that are not deleted, by name.
func (p *Planner) List() ([]store.Summary, error) {
	var out []store.Summary
	err := p.read(func(st *store.Store) (err error) {
		out, err = st.List()
		return err
	})
	return out, err
}

// ListDeleted returns the deleted scenarios, which Undelete brings back.
func (p *Planner) ListDeleted() ([]store.Summary, error) {
	var out []store.Summary
	err := p.read(func(st *store.Store) (err error) {
		out, err = st.ListDeleted()
		return err
	})
	return out, err
}

// Load returns the current revision of scenario id. A scenario that does
// not exist or is deleted is an error matching store.ErrNotFound.
func (p *Planner) Load(id string) (*scenario.Scenario, scenario.Revision, error) {
	var (
		s   *scenario.Scenario
		rev scenario.Revision
	)
	err := p.read(func(st *store.Store) (err error) {
		s, rev, err = st.Get(id)
		return err
	})
	return s, rev, err
}

// LoadRevision returns revision n of scenario id, read in the current
// scenario schema.
func (p *Planner) LoadRevision(id string, n int) (*scenario.Scenario, scenario.Revision, error) {
	var (
		s   *scenario.Scenario
		rev scenario.Revision
	)
	err := p.read(func(st *store.Store) (err error) {
		s, rev, err = st.GetRevision(id, n)
		return err
	})
	return s, rev, err
}

// Bytes returns the stored JSON of revision n of scenario id (0: the
// current one) exactly as it was saved.
func (p *Planner) Bytes(id string, n int) ([]byte, scenario.Revision, error) {
	var (
		b   []byte
		rev scenario.Revision
	)
	err := p.read(func(st *store.Store) (err error) {
		b, rev, err = st.Bytes(id, n)
		return err
	})
	return b, rev, err
}

// History returns every revision of scenario id with its lineage, oldest
// first.
func (p *Planner) History(id string) ([]scenario.Revision, error) {
	var out []scenario.Revision
	err := p.read(func(st *store.Store) (err error) {
		out, err = st.History(id)
		return err
	})
	return out, err
}

// Delete marks scenario id deleted; its revisions are kept until Purge.
func (p *Planner) Delete(id string) error {
	return p.using(func(st *store.Store) error { return st.Delete(id) })
}

// Undelete brings back a deleted scenario.
func (p *Planner) Undelete(id string) error {
	return p.using(func(st *store.Store) error { return st.Undelete(id) })
}

// Purge removes a deleted scenario and all its revisions for good.
func (p *Planner) Purge(id string) error {
	return p.using(func(st *store.Store) error { return st.Purge(id) })
}

// Checklist returns the readiness-checklist state recorded for scenario
// id; none recorded is the empty state.
func (p *Planner) Checklist(id string) (brief.ChecklistState, error) {
	var b []byte
	err := p.read(func(st *store.Store) (err error) {
		b, err = st.GetChecklist(id)
		return err
	})
	if err != nil {
		return nil, err
	}
	cs, err := brief.DecodeChecklist(b)
	if err != nil {
		return nil, fmt.Errorf("scenario %q: %w", id, err)
	}
	return cs, nil
}

// SaveChecklist records the readiness-checklist state of scenario id,
// replacing the one before. A scenario that does not exist or is deleted
// is refused.
func (p *Planner) SaveChecklist(id string, cs brief.ChecklistState) error {
	if cs == nil {
		cs = brief.ChecklistState{}
	}
	b, err := cs.Encode()
	if err != nil {
		return err
	}
	return p.using(func(st *store.Store) error { return st.PutChecklist(id, b) })
}

// Recommend decides the current revision of stored scenario id on the
// catalog in use, without the Monte Carlo spread: the revision it decided
// and the direction the weights rank first, "" when no direction is
// feasible. The outcome the store keeps for the revision on this catalog
// and engine answers at once; without one the scenario is evaluated and
// decided (a fraction of a millisecond), so a face can decide a few
// thousand scenarios in the background to filter them.
func (p *Planner) Recommend(ctx context.Context, id string) (revision int, direction string, err error) {
	_, hash, err := p.catalogHash()
	if err != nil {
		return 0, "", err
	}
	var (
		s      *scenario.Scenario
		rev    scenario.Revision
		stored []byte
	)
	err = p.read(func(st *store.Store) error {
		var err error
		if s, rev, err = st.Get(id); err != nil {
			return err
		}
		if k, kerr := resultKey(rev.InputHash, hash); kerr == nil {
			if raw, err := st.GetResults([]store.ResultKey{k}); err == nil {
				stored = raw[0]
			}
		}
		return nil
	})
	if err != nil {
		return 0, "", err
	}
	if o := decodeOutcome(stored); o != nil && o.Problem == "" {
		return rev.Number, o.Recommendation, nil
	}
	r, err := p.Evaluate(ctx, s)
	if err != nil {
		return rev.Number, "", err
	}
	d, err := decide.Decide(s, r)
	if err != nil {
		return rev.Number, "", err
	}
	return rev.Number, d.Recommendation, nil
}
