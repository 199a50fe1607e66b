// Package decide turns a scenario and its model report into a decision that
// can be explained in a review: which directions are ruled out and why,
// how the rest score on the five decision dimensions, which one the user's
// weights recommend, what would have to change for the runner-up to win,
// whether the order survives a ±20 % change of any weight (Perturbation),
// each direction's likely bottleneck with the first infrastructure
// question it raises, and the smallest first trial that answers the next
// decision.
//
// Hard constraints are the model's: a direction is infeasible exactly when
// the report says so, and each reason comes typed, with its kind
// (sovereignty, fit, deadline, budget, operations, other) and a stable
// code. This package maps each code to the first infrastructure question
// it raises through one table; a test fails when the model defines a code
// the table lacks.
//
// Its sentences write numbers and name directions and dimensions as
// package present does. It is pure computation with gonum/mat; it imports
// no GUI and no storage.
package decide
