// Package brief writes the Compute Readiness Brief of a scenario as
// Markdown: purpose and success, the technical envelope and access and
// operation, filled from the scenario and the model's report with every
// estimate and assumption labelled; the recommendation from package
// decide; the leadership questions answered; the seven data-lifecycle
// stages with their owners and the three controls that run across them;
// the first trial to request; and the readiness checklist for the
// workload's shape.
//
// A brief needs at least seven of its fields (Fields) filled; with fewer
// it is refused with the list of what is missing (ErrTooFewFields).
// The checklist's items and its per-scenario state (ChecklistState, kept
// by the store as JSON) live in checklist.go.
//
// The package is pure: no GUI, no storage.
package brief
