// Package brief writes the Compute Readiness Brief of a scenario: purpose
// and success, the technical envelope and access and operation, filled
// from the scenario and the model's report with every estimate and
// assumption labelled; the recommendation from package decide; the
// leadership questions answered; the seven data-lifecycle stages with
// their owners and the three controls that run across them; the first
// trial to request; the readiness checklist for the workload's shape; and
// its lineage: the build of hostplan that wrote it (package version), the
// model, the scenario schema and the prices' date.
//
// The brief is a document.Document (package document, which knows nothing
// of briefs): sections with a title and a level, holding paragraphs, lists
// (with checklist boxes) and tables whose figures stay numbers, all made of
// text spans that are plain, strong, emphasised or code. Build writes it;
// its Markdown method renders the Markdown that "hostplan brief" prints
// (Brief and WithChecklist return that directly); document.go here holds
// the brief's short-hands for spans and cells. The window and the workbook render
// the Document themselves, so nothing parses the Markdown again.
//
// The writing is split by part of the brief: build.go (Build, the title,
// the field count and the lineage), envelope.go (the three field sections and the
// assumptions), recommendation.go, leadership.go, lifecycle.go (the stages,
// the controls and their section), trial.go, checklist.go (the items, the
// per-scenario state, ChecklistState, kept by the store as JSON, and their
// section); format.go puts a scenario value with its unit. Numbers,
// percentages, GPU counts and the titles of directions, shapes and
// dimensions are package present's, as in the window and the workbook.
//
// A brief needs at least seven of its fields (Fields, fields.go) filled;
// with fewer it is refused with the list of what is missing
// (ErrTooFewFields).
//
// The package is pure: no GUI, no storage.
package brief
