//go:build race

package app

// raceDetector is set when the tests run under -race, which slows the
// model some twentyfold: the tests that evaluate thousands of scenarios
// take a sample.
const raceDetector = true
