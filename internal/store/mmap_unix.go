//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package store

import (
	"os"
	"syscall"
)

// mapFile maps the first n bytes of f read-only, as bbolt does, so that
// walking the pages touches only the pages it reads.
func mapFile(f *os.File, n int) ([]byte, func() error, error) {
	b, err := syscall.Mmap(int(f.Fd()), 0, n, syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return readFile(f, n)
	}
	return b, func() error { return syscall.Munmap(b) }, nil
}
