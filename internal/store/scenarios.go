package store

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	bolt "go.etcd.io/bbolt"

	"hostplan/internal/scenario"
)

// Summary is one line of the scenario list.
type Summary struct {
	ID, Name, Shape string
	Revisions       int       // number of the current revision
	Updated         time.Time // time of the current revision
	InputHash       string    // the current revision's input hash (hex sha256)
}

// revisionRecord is one revision in a scenario's revisions bucket. Scenario
// is a string, not a json.RawMessage, because encoding/json compacts raw
// messages and the stored bytes must be exactly those scenario.Marshal made.
type revisionRecord struct {
	scenario.Revision        // its fields, without the scenario's id (the bucket's name)
	Scenario          string `json:"scenario"`
}

func (r *revisionRecord) revision(id string) scenario.Revision {
	rev := r.Revision
	rev.Scenario = id
	return rev
}

// revKey is the key of revision n: big-endian, so keys sort by number.
func revKey(n int) []byte {
	return binary.BigEndian.AppendUint32(nil, uint32(n))
}

func getRecord(tx *bolt.Tx, id string) (record, bool, error) {
	v := tx.Bucket(bucketScenarios).Get([]byte(id))
	if v == nil {
		return record{}, false, nil
	}
	rec, err := decodeRecord(v)
	if err != nil {
		return rec, false, fmt.Errorf("scenario record: %w", err)
	}
	return rec, true, nil
}

// putRecord writes a record. A record read from a layout 1 store has no hash;
// it is filled in from the current revision, as the layout 2 upgrade does.
func putRecord(tx *bolt.Tx, id string, rec record) error {
	if rec.Hash == "" {
		cur, err := readRevision(tx, id, rec.Current)
		if err != nil {
			return fmt.Errorf("current revision %d: %w", rec.Current, err)
		}
		rec.Hash = cur.InputHash
	}
	v, err := encodeRecord(rec)
	if err != nil {
		return err
	}
	return tx.Bucket(bucketScenarios).Put([]byte(id), v)
}

// liveRecord returns the record of a scenario that exists and is not deleted.
func liveRecord(tx *bolt.Tx, id string) (record, error) {
	rec, ok, err := getRecord(tx, id)
	if err != nil {
		return rec, err
	}
	if !ok || rec.Deleted {
		return rec, ErrNotFound
	}
	return rec, nil
}

// getRevision reads revision n of scenario id and verifies it
// (verifyRevision): a damaged revision is a *RevisionDamagedError.
func getRevision(tx *bolt.Tx, id string, n int) (revisionRecord, error) {
	rr, err := readRevision(tx, id, n)
	if err != nil {
		return rr, err
	}
	return rr, verifyRevision(id, n, rr)
}

// readRevision reads revision n of scenario id as it is, unverified: only
// the layout 1 upgrade, which copies a revision's hash into its record,
// reads revisions so.
func readRevision(tx *bolt.Tx, id string, n int) (revisionRecord, error) {
	var rr revisionRecord
	b, err := revisionsOf(tx, []byte(id))
	if err != nil {
		return rr, err
	}
	if b == nil || n < 1 || n > math.MaxUint32 {
		return rr, ErrNotFound
	}
	v := b.Get(revKey(n))
	if v == nil {
		return rr, ErrNotFound
	}
	if err := json.Unmarshal(v, &rr); err != nil {
		return rr, &RevisionDamagedError{ID: id, Number: n, Why: fmt.Sprintf("its record is not readable: %v", err)}
	}
	return rr, nil
}

// verifyRevision checks a revision read from the revisions bucket under
// key n: it records number n, and its bytes are those its input hash (the
// sha256 computed when it was saved) was computed from. Anything else is
// damage, a *RevisionDamagedError.
func verifyRevision(id string, n int, rr revisionRecord) error {
	if rr.Number != n {
		return &RevisionDamagedError{ID: id, Number: n, Why: fmt.Sprintf("it records number %d", rr.Number)}
	}
	sum := sha256.Sum256([]byte(rr.Scenario))
	if hex.EncodeToString(sum[:]) != rr.InputHash {
		return &RevisionDamagedError{ID: id, Number: n, Why: "its bytes do not match the sha256 stored with them"}
	}
	return nil
}

// decodeOf decodes a verified revision of scenario id (decode) and checks
// that it holds that scenario.
func decodeOf(id string, rr revisionRecord) (*scenario.Scenario, error) {
	sc, err := decode(rr)
	if err != nil {
		return nil, err
	}
	if sc.ID != id {
		return nil, &RevisionDamagedError{ID: id, Number: rr.Number, Why: fmt.Sprintf("it holds scenario %q", sc.ID)}
	}
	return sc, nil
}

// readError wraps err, a failure to read scenario id, with what was being
// done; a damaged revision, whose error names the scenario and the
// revision already, is returned as it is.
func readError(err error, format string, a ...any) error {
	var d *RevisionDamagedError
	if errors.As(err, &d) {
		return d
	}
	return fmt.Errorf(format+": %w", append(a, err)...)
}

// decode turns a stored revision back into a scenario. The bytes were
// validated when saved, so they are decoded as they are rather than run
// through scenario.Parse (a later, stricter Validate must not make old
// revisions unreadable). A revision written in an older scenario schema is
// upgraded on the way out by scenario.Migrate, the same migration Parse
// runs on files; the stored bytes stay as they were.
func decode(rr revisionRecord) (*scenario.Scenario, error) {
	var sc scenario.Scenario
	if err := json.Unmarshal([]byte(rr.Scenario), &sc); err != nil {
		return nil, fmt.Errorf("revision %d: %w", rr.Number, err)
	}
	if sc.SchemaVersion == scenario.SchemaVersion {
		return &sc, nil
	}
	var raw map[string]any
	dec := json.NewDecoder(strings.NewReader(rr.Scenario))
	dec.UseNumber()
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("revision %d: %w", rr.Number, err)
	}
	if _, err := scenario.Migrate(raw); err != nil {
		return nil, fmt.Errorf("revision %d cannot be read by this build: %w", rr.Number, err)
	}
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, fmt.Errorf("revision %d: %w", rr.Number, err)
	}
	sc = scenario.Scenario{}
	if err := json.Unmarshal(b, &sc); err != nil {
		return nil, fmt.Errorf("revision %d, upgraded to scenario schema %d: %w", rr.Number, scenario.SchemaVersion, err)
	}
	return &sc, nil
}

// Save validates sc and stores it as a new revision, moving the scenario's
// current pointer in the same transaction. An invalid scenario is returned
// as its scenario.Errors, unwrapped, and nothing is written. When the
// canonical JSON equals the current revision's, no revision is added and the
// current one is returned. Saving a deleted scenario restores it.
func (s *Store) Save(sc *scenario.Scenario, meta scenario.RevisionMeta) (scenario.Revision, error) {
	if sc == nil {
		panic("store: Save of a nil scenario")
	}
	if errs := scenario.Validate(sc); errs != nil {
		return scenario.Revision{}, errs
	}
	var rev scenario.Revision
	err := s.update(func(tx *bolt.Tx) error {
		var err error
		rev, err = save(tx, sc, meta, s.now())
		return err
	})
	if err != nil {
		return scenario.Revision{}, fmt.Errorf("save scenario %q: %w", sc.ID, err)
	}
	return rev, nil
}

// save writes a revision of a validated scenario inside tx.
func save(tx *bolt.Tx, sc *scenario.Scenario, meta scenario.RevisionMeta, now time.Time) (scenario.Revision, error) {
	body, err := scenario.Marshal(sc)
	if err != nil {
		return scenario.Revision{}, err
	}
	sum := sha256.Sum256(body)
	hash := hex.EncodeToString(sum[:])

	rec, found, err := getRecord(tx, sc.ID)
	if err != nil {
		return scenario.Revision{}, err
	}
	if found && rec.Current > 0 && (rec.Hash == hash || rec.Hash == "") {
		cur, err := getRevision(tx, sc.ID, rec.Current)
		var damaged *RevisionDamagedError
		switch {
		case errors.As(err, &damaged):
			// A damaged current revision is not the content saved: the
			// save writes a sound revision after it.
		case err != nil:
			return scenario.Revision{}, fmt.Errorf("current revision %d: %w", rec.Current, err)
		case cur.InputHash == hash:
			if rec.Deleted {
				rec.Deleted = false
				if err := putRecord(tx, sc.ID, rec); err != nil {
					return scenario.Revision{}, err
				}
			}
			return cur.revision(sc.ID), nil
		}
	}

	n := rec.Current + 1
	if n > math.MaxUint32 {
		return scenario.Revision{}, fmt.Errorf("revision %d is past the last revision number", n)
	}
	b, err := tx.Bucket(bucketRevisions).CreateBucketIfNotExists([]byte(sc.ID))
	if err == nil {
		err = subBucketSound(tx, b)
	}
	if err != nil {
		return scenario.Revision{}, err
	}
	key := revKey(n)
	if b.Get(key) != nil { // revisions are immutable; a record that lags its revisions is damage
		return scenario.Revision{}, fmt.Errorf("revision %d already exists", n)
	}
	rr := revisionRecord{
		Revision: scenario.Revision{Number: n, Time: now, RevisionMeta: meta, InputHash: hash},
		Scenario: string(body),
	}
	v, err := json.Marshal(rr)
	if err != nil {
		return scenario.Revision{}, err
	}
	if err := b.Put(key, v); err != nil {
		return scenario.Revision{}, err
	}
	rec = record{Name: sc.Name, Shape: sc.Workload.Shape, Current: n, Updated: now, Hash: hash}
	if err := putRecord(tx, sc.ID, rec); err != nil {
		return scenario.Revision{}, err
	}
	return rr.revision(sc.ID), nil
}

// List returns the scenarios that are not deleted, sorted by name (ignoring
// case, then exactly) and then by id.
func (s *Store) List() ([]Summary, error) {
	out, err := s.list(false)
	if err != nil {
		return nil, fmt.Errorf("list scenarios: %w", err)
	}
	return out, nil
}

// ListDeleted returns the deleted scenarios, which Undelete can restore, in
// the order of List.
func (s *Store) ListDeleted() ([]Summary, error) {
	out, err := s.list(true)
	if err != nil {
		return nil, fmt.Errorf("list deleted scenarios: %w", err)
	}
	return out, nil
}

// list reads only the scenarios bucket: one small record per scenario.
func (s *Store) list(deleted bool) ([]Summary, error) {
	var (
		all   []Summary
		lower []string // the sort key, lower-cased once rather than per comparison
	)
	if err := s.readable(bucketScenarios); err != nil {
		return nil, err
	}
	err := s.view(func(tx *bolt.Tx) error {
		return tx.Bucket(bucketScenarios).ForEach(func(k, v []byte) error {
			rec, err := decodeRecord(v)
			if err != nil {
				return fmt.Errorf("scenario %q record: %w", k, err)
			}
			if rec.Deleted == deleted {
				all = append(all, Summary{ID: string(k), Name: rec.Name, Shape: rec.Shape, Revisions: rec.Current, Updated: rec.Updated, InputHash: rec.Hash})
				lower = append(lower, strings.ToLower(rec.Name))
			}
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	order := make([]int, len(all)) // sorting indices moves less than sorting summaries
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		return cmp.Or(
			strings.Compare(lower[i], lower[j]),
			strings.Compare(all[i].Name, all[j].Name),
			strings.Compare(all[i].ID, all[j].ID))
	})
	out := make([]Summary, len(all))
	for k, i := range order {
		out[k] = all[i]
	}
	return out, nil
}

// Get returns the current revision of scenario id.
func (s *Store) Get(id string) (*scenario.Scenario, scenario.Revision, error) {
	var rr revisionRecord
	err := s.readable(bucketScenarios, bucketRevisions)
	if err == nil {
		err = s.view(func(tx *bolt.Tx) error {
			rec, err := liveRecord(tx, id)
			if err != nil {
				return err
			}
			rr, err = getRevision(tx, id, rec.Current)
			return err
		})
	}
	if err != nil {
		return nil, scenario.Revision{}, readError(err, "get scenario %q", id)
	}
	sc, err := decodeOf(id, rr)
	if err != nil {
		return nil, scenario.Revision{}, readError(err, "get scenario %q", id)
	}
	return sc, rr.revision(id), nil
}

// GetRevision returns revision n of scenario id.
func (s *Store) GetRevision(id string, n int) (*scenario.Scenario, scenario.Revision, error) {
	var rr revisionRecord
	err := s.readable(bucketScenarios, bucketRevisions)
	if err == nil {
		err = s.view(func(tx *bolt.Tx) error {
			if _, err := liveRecord(tx, id); err != nil {
				return err
			}
			var err error
			rr, err = getRevision(tx, id, n)
			return err
		})
	}
	if err != nil {
		return nil, scenario.Revision{}, readError(err, "get scenario %q revision %d", id, n)
	}
	sc, err := decodeOf(id, rr)
	if err != nil {
		return nil, scenario.Revision{}, readError(err, "get scenario %q revision %d", id, n)
	}
	return sc, rr.revision(id), nil
}

// History returns every revision of scenario id, oldest first.
func (s *Store) History(id string) ([]scenario.Revision, error) {
	var out []scenario.Revision
	err := s.readable(bucketScenarios, bucketRevisions)
	if err == nil {
		err = s.history(id, &out)
	}
	if err != nil {
		return nil, readError(err, "history of scenario %q", id)
	}
	return out, nil
}

// history reads the revisions of scenario id into out, verifying each
// (verifyRevision).
func (s *Store) history(id string, out *[]scenario.Revision) error {
	return s.view(func(tx *bolt.Tx) error {
		if _, err := liveRecord(tx, id); err != nil {
			return err
		}
		b, err := revisionsOf(tx, []byte(id))
		if err != nil {
			return err
		}
		if b == nil {
			return errors.New("its revisions are missing")
		}
		return b.ForEach(func(k, v []byte) error {
			n := int(binary.BigEndian.Uint32(k))
			var rr revisionRecord
			if err := json.Unmarshal(v, &rr); err != nil {
				return &RevisionDamagedError{ID: id, Number: n, Why: fmt.Sprintf("its record is not readable: %v", err)}
			}
			if err := verifyRevision(id, n, rr); err != nil {
				return err
			}
			*out = append(*out, rr.revision(id))
			return nil
		})
	})
}

// Delete hides scenario id from List and the getters. Its revisions are kept
// and Undelete brings it back. Deleting a deleted scenario does nothing.
func (s *Store) Delete(id string) error {
	if err := s.setDeleted(id, true); err != nil {
		return fmt.Errorf("delete scenario %q: %w", id, err)
	}
	return nil
}

// Undelete restores a deleted scenario. Restoring one that is not deleted
// does nothing.
func (s *Store) Undelete(id string) error {
	if err := s.setDeleted(id, false); err != nil {
		return fmt.Errorf("undelete scenario %q: %w", id, err)
	}
	return nil
}

func (s *Store) setDeleted(id string, deleted bool) error {
	return s.update(func(tx *bolt.Tx) error {
		rec, ok, err := getRecord(tx, id)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotFound
		}
		if rec.Deleted == deleted {
			return nil
		}
		rec.Deleted = deleted
		return putRecord(tx, id, rec)
	})
}

// Bytes returns the stored bytes of revision n of scenario id exactly as
// they were saved (n = 0: the current revision), with the revision. The
// bytes are the canonical JSON of scenario.Marshal at the time of the save;
// a revision saved in an older scenario schema comes back in that schema
// (Get and GetRevision upgrade it).
func (s *Store) Bytes(id string, n int) ([]byte, scenario.Revision, error) {
	var rr revisionRecord
	err := s.readable(bucketScenarios, bucketRevisions)
	if err == nil {
		err = s.view(func(tx *bolt.Tx) error {
			rec, err := liveRecord(tx, id)
			if err != nil {
				return err
			}
			if n == 0 {
				n = rec.Current
			}
			rr, err = getRevision(tx, id, n)
			return err
		})
	}
	if err != nil {
		return nil, scenario.Revision{}, readError(err, "get scenario %q revision %d", id, n)
	}
	return []byte(rr.Scenario), rr.revision(id), nil
}

// RestoredNote is the note of a revision Restore writes.
func RestoredNote(n int, note string) string {
	if note == "" {
		return fmt.Sprintf("restored from revision %d", n)
	}
	return fmt.Sprintf("restored from revision %d: %s", n, note)
}

// Restore makes the content of revision n of scenario id current again by
// saving it as a new revision (history is never rewritten), in one
// transaction. The new revision's note is RestoredNote(n, meta.Note); the
// rest of its lineage is meta. A revision of an older scenario schema is
// saved in the current one. If the content equals the current revision's,
// nothing is written and the current revision is returned. A revision that
// the current Validate rejects is not restored: the error wraps its
// scenario.Errors.
func (s *Store) Restore(id string, n int, meta scenario.RevisionMeta) (scenario.Revision, error) {
	meta.Note = RestoredNote(n, meta.Note)
	var rev scenario.Revision
	err := s.update(func(tx *bolt.Tx) error {
		if _, err := liveRecord(tx, id); err != nil {
			return err
		}
		rr, err := getRevision(tx, id, n)
		if err != nil {
			return err
		}
		sc, err := decodeOf(id, rr)
		if err != nil {
			return err
		}
		if errs := scenario.Validate(sc); errs != nil {
			return errs
		}
		rev, err = save(tx, sc, meta, s.now())
		return err
	})
	if err != nil {
		return scenario.Revision{}, readError(err, "restore scenario %q revision %d", id, n)
	}
	return rev, nil
}

// Purge removes a deleted scenario for good: its record, every revision and
// its checklist state. A scenario that is not deleted is refused with
// ErrNotDeleted, one that does not exist with ErrNotFound.
func (s *Store) Purge(id string) error {
	err := s.update(func(tx *bolt.Tx) error {
		rec, ok, err := getRecord(tx, id)
		if err != nil {
			return err
		}
		if !ok {
			return ErrNotFound
		}
		if !rec.Deleted {
			return ErrNotDeleted
		}
		if err := tx.Bucket(bucketScenarios).Delete([]byte(id)); err != nil {
			return err
		}
		switch b, err := revisionsOf(tx, []byte(id)); {
		case err != nil:
			return err
		case b != nil:
			if err := tx.Bucket(bucketRevisions).DeleteBucket([]byte(id)); err != nil {
				return err
			}
		}
		if b := tx.Bucket(bucketChecklists); b != nil {
			return b.Delete([]byte(id))
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("purge scenario %q: %w", id, err)
	}
	return nil
}
