// Package form is the scenario as a form: a control for every field of
// the scenario file, generated from the scenario's types and worded by
// package present, in sections that follow the readiness brief; the
// problems of a check shown under the fields they concern; the cloud
// offer picker over the catalog in use. The window's shell (package ui)
// builds one per scenario it edits and is told of every change.
//
// File map: form.go (the form, its fields and groups, built by walking
// the scenario's types), controls.go (numbers, estimates, choices, text,
// flags), list.go (lists of rows: trial points, lifecycle stages, price
// overrides), problems.go (problems placed on fields, sections opened
// and counted), layout.go (label beside control, the field's parts),
// offers.go (the cloud offer field and its picker).
package form
