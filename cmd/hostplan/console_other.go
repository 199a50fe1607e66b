//go:build !windows

package main

// detachConsole matters on Windows only (console_windows.go).
func detachConsole() {}
