// Package uitest holds what the tests of the window's packages share:
// hand-built scenarios and reports (fixture.go) — a fine-tuning job and a
// chat service, with the Monte Carlo spread and the performance figures a
// test adds to them, and a decision one weight flips — and readers of what
// widgets show (shown.go). It is imported only by tests: the window's
// shell's (package ui, whose fake backend serves the fixtures) and the
// report's views' (package report, which shows them without a window).
package uitest
