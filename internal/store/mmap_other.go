//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package store

import "os"

// mapFile reads the first n bytes of f where this build has no mmap.
func mapFile(f *os.File, n int) ([]byte, func() error, error) { return readFile(f, n) }
