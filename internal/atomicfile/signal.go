package atomicfile

import (
	"io/fs"
	"os"
	"os/signal"
	"sync"
	"syscall"
)

// In-flight temporary files and the signals that remove them.
//
// While a write is in flight its temporary file is in inflight.files and
// the package listens for SIGINT and SIGTERM. It starts listening with the
// first write (the handler is installed lazily) and listens only while a
// write is in flight, so that the rest of the time the process handles
// signals as its program set it up. On such a signal the handler removes
// every in-flight temporary file, stops listening and raises the signal
// again: with no other listener the process then ends as the signal would
// have ended it; a program that listens for the signal itself receives it
// (a second time) and carries on, and the writes that were in flight
// return ErrInterrupted. The handler and the rename (or link) that puts a
// file in place hold the same lock, so a signal leaves every target either
// as it was or fully written. A signal the process ignored when the first
// write began (nohup, a background job) is not listened for.
//
// SIGKILL cannot be caught: a process killed by it (or a power cut) in the
// middle of a write leaves its temporary file, which the name pattern
// .hostplan-XXXXXXXX.tmp makes recognisable.
var inflight struct {
	sync.Mutex
	files   map[string]struct{} // temporary files being written
	sigs    chan os.Signal
	watched []os.Signal // the terminating signals not ignored at the first write
}

// terminating are the signals during which a write cleans up.
var terminating = []os.Signal{syscall.SIGINT, syscall.SIGTERM}

// createTracked creates the temporary file name (O_EXCL, mode perm less the
// umask), registered for removal on a signal before it is created: the
// registry's lock is held from the registration to the creation, so a
// signal arriving in between waits, and then removes the file. (Registered
// after the creation, a signal in between ended the process by its default
// action and left the file.)
func createTracked(name string, perm fs.FileMode) (*os.File, error) {
	inflight.Lock()
	defer inflight.Unlock()
	trackLocked(name)
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		untrackLocked(name) // not ours: another writer's file of that name
		return nil, err
	}
	return f, nil
}

// trackLocked registers the temporary file name, listening for the
// terminating signals if it is the only one in flight. The caller holds
// the registry's lock.
func trackLocked(name string) {
	if inflight.files == nil { // the first write of the process
		inflight.files = map[string]struct{}{}
		inflight.sigs = make(chan os.Signal, 1)
		for _, s := range terminating {
			if !signal.Ignored(s) {
				inflight.watched = append(inflight.watched, s)
			}
		}
		go handleSignals()
	}
	if len(inflight.files) == 0 && len(inflight.watched) > 0 {
		signal.Notify(inflight.sigs, inflight.watched...)
	}
	inflight.files[name] = struct{}{}
}

// forget unregisters name (a write that failed or is done).
func forget(name string) {
	inflight.Lock()
	defer inflight.Unlock()
	untrackLocked(name)
}

// untrackLocked is forget with the lock held.
func untrackLocked(name string) {
	if _, ok := inflight.files[name]; !ok {
		return
	}
	delete(inflight.files, name)
	if len(inflight.files) == 0 {
		signal.Stop(inflight.sigs)
	}
}

// handleSignals removes the in-flight temporary files on each signal and
// raises it again.
func handleSignals() {
	for sig := range inflight.sigs {
		inflight.Lock()
		for name := range inflight.files {
			_ = os.Remove(name)
			delete(inflight.files, name)
		}
		signal.Stop(inflight.sigs)
		inflight.Unlock()
		raise(sig)
	}
}
