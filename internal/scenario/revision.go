package scenario

import "time"

// Revision is one saved version of a scenario, as the store keeps it and
// every face shows it: which scenario and number, when, the lineage its
// saver gave (RevisionMeta) and the hash of its inputs. Its JSON form is the
// store's revision record (which adds the scenario itself); the scenario's
// id is the record's key, not a field of it.
type Revision struct {
	Scenario string    `json:"-"`      // the scenario's id
	Number   int       `json:"number"` // 1, 2, …; 0 for inputs that are not a stored revision
	Time     time.Time `json:"time"`   // when it was saved (or exported, for Number 0), UTC
	RevisionMeta
	InputHash string `json:"input_hash"` // sha256, hex, of the canonical scenario JSON (Marshal)
}

// RevisionMeta is the lineage a save is given: who saved, why, and the
// model and catalog that evaluated the inputs.
type RevisionMeta struct {
	Author       string `json:"author,omitempty"`        // who saved
	Note         string `json:"note,omitempty"`          // why
	ModelVersion string `json:"model_version,omitempty"` // the version of the model that evaluated it
	CatalogAsOf  string `json:"catalog_as_of,omitempty"` // the date of the catalog in use
}
