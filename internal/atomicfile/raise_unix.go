//go:build unix

package atomicfile

import (
	"os"
	"syscall"
)

// raise sends sig to this process again, now that the package no longer
// listens for it.
func raise(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		_ = syscall.Kill(os.Getpid(), s)
	}
}
