// Package present holds the wording the faces share — the window, the
// workbook and the command line all read it from here, so a number, a
// title or a field's name reads the same wherever it appears:
//
//   - number.go: how numbers, money, hours and percentages are written
//     (Number, Figure, Fixed, Amount, Money, Hours, Percent, Share, Value);
//   - titles.go: the names of the hosting directions, workload shapes and
//     decision dimensions, and small helpers for turning codes into words
//     and joining them into a sentence (And);
//   - fields.go with the tables in fields_*.go: a label, a unit and a
//     one-line help for every field of the scenario file, looked up by JSON
//     path, and a plain label for every allowed value of an enumerated
//     field (choices.go);
//   - facts.go: what a field is beyond its words — the workload shapes it
//     matters for, the catalog kind whose ids it takes, the usual values
//     of a free-text field, whether it is prose — for the window's form;
//   - defaults.go: the defaults the fields' help states, each built from
//     the engine's own constant (package model) or the default catalog's
//     site, and the MFU the form shows in an empty workload.mfu;
//   - inputs.go: a scenario's inputs in file order with their labels, for
//     the window's Inputs tab and the workbook's Inputs sheet.
//
// The package is pure: it imports the scenario types, the catalog and the
// model's defaults (the model imports nothing of it), and nothing of the
// GUI, the workbook or the store.
package present
