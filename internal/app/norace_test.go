//go:build !race

package app

const raceDetector = false
