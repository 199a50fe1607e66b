//go:build unix

package store

import (
	"os"
	"syscall"
)

// unlock releases bbolt's flock on f.
func unlock(f *os.File) { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN) }
