package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Stale is a temporary file that a write left behind: its writer was
// killed (SIGKILL, a power cut) between creating it and putting it in
// place. It holds a part or all of a file never put in place (for a
// store backup, a copy of the store, mode 0600), and nothing reads it.
type Stale struct {
	Path    string
	Size    int64
	ModTime time.Time
}

// StaleAge is how old a temporary file must be for RemoveStale to take it
// as left behind: no write of hostplan's runs for an hour.
const StaleAge = time.Hour

// isTempName reports a name of the form createTemp gives:
// .hostplan-XXXXXXXX.tmp with eight lower-case hex digits.
func isTempName(name string) bool {
	hex, ok := strings.CutPrefix(name, ".hostplan-")
	if !ok {
		return false
	}
	hex, ok = strings.CutSuffix(hex, ".tmp")
	if !ok || len(hex) != 8 {
		return false
	}
	for _, c := range hex {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}

// RemoveStale removes the temporary files in dir (only there, not below)
// that are regular files last modified more than age before now, and not
// being written by this process, and returns those it removed. A file it
// cannot remove ends the walk with the error; those removed before it are
// returned with it.
func RemoveStale(dir string, age time.Duration, now time.Time) ([]Stale, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []Stale
	for _, e := range ents {
		if !isTempName(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		fi, err := e.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed meanwhile
		}
		if err != nil {
			return out, err
		}
		if now.Sub(fi.ModTime()) <= age || inFlight(path) {
			continue
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return out, err
		}
		out = append(out, Stale{Path: path, Size: fi.Size(), ModTime: fi.ModTime()})
	}
	return out, nil
}

// inFlight reports a temporary file this process is writing.
func inFlight(path string) bool {
	inflight.Lock()
	defer inflight.Unlock()
	_, ok := inflight.files[path]
	return ok
}
