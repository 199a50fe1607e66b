// Package atomicfile writes files so that a reader, a crash or a signal
// never leaves part of one: the content goes to a temporary file in the
// target's directory, which is synced and then renamed over the target (or,
// for WriteNew, linked to a new name), and the directory is synced so the
// new name survives a power cut. Every file hostplan writes goes through
// it. It imports nothing of hostplan.
//
// The rules, the same for every writer:
//
//   - The temporary file is named .hostplan-XXXXXXXX.tmp (eight hex
//     digits), short so that a long target name cannot make it exceed the
//     file system's limit on a name, and recognisable: such a file is only
//     ever left behind by a process killed with SIGKILL (or a power cut)
//     in the middle of a write, and can be deleted (RemoveStale removes
//     those older than an hour; hostplan store check runs it on the
//     store's folder).
//   - The file's mode is perm less the process umask (the temporary file is
//     created with perm, and the system applies the umask as it does to any
//     new file). A replaced file does not keep its old mode.
//   - A target that is a symbolic link is refused (ErrSymlink): writing
//     through the link would change a file elsewhere, and replacing the
//     link would silently break whatever made it. A target that exists and
//     is not a regular file (a directory, a device) is refused too.
//   - After an error nothing is left: the target keeps its old content and
//     the temporary file is removed. On SIGINT or SIGTERM during a write
//     the package removes its temporary files and raises the signal again
//     (see signal.go).
package atomicfile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
)

// Errors, matched with errors.Is. A failed write returns an *fs.PathError
// (operation "write", the target's path) wrapping one of these or the
// system's error; WriteNew's refusal of an existing target wraps
// fs.ErrExist.
var (
	// ErrSymlink means the target is a symbolic link, which is neither
	// written through nor replaced.
	ErrSymlink = errors.New("the path is a symbolic link; hostplan writes neither through a link nor over one (give the path of the file itself)")
	// ErrNotRegular means the target exists and is not a regular file.
	ErrNotRegular = errors.New("the path exists and is not a regular file")
	// ErrInterrupted means a signal ended the write before the file was in
	// place; the target is as it was.
	ErrInterrupted = errors.New("the write was interrupted by a signal")
)

// Write writes the file at path with what write writes, replacing the file
// if there is one: path holds either its old content or all of the new,
// never a part. The file's mode is perm less the umask. write's error is
// returned as it is, wrapped in the *fs.PathError; the writer write is
// given reports its own errors without a path (the temporary file's name
// means nothing to a user).
func Write(path string, perm fs.FileMode, write func(io.Writer) error) error {
	return writeFile(path, perm, write, false)
}

// WriteNew is Write for a file that must not exist yet: it never replaces
// one. If path exists (or appears while the content is written) the error
// matches fs.ErrExist, nothing is written and the existing file is left
// alone. The check is the link(2) that puts the file in place, so it holds
// against another writer as well.
func WriteNew(path string, perm fs.FileMode, write func(io.Writer) error) error {
	return writeFile(path, perm, write, true)
}

// WriteNewPath is WriteNew for a writer that needs a file's path rather
// than an io.Writer, such as a database library creating its file: make is
// given the path of a new, empty temporary file in path's directory (mode
// perm less the umask), fills it and closes what it opened; the file is
// then synced and linked to path, which must not exist (the error matches
// fs.ErrExist otherwise). A signal or an error leaves neither the
// temporary file nor path.
func WriteNewPath(path string, perm fs.FileMode, make func(tmp string) error) error {
	err := checkTarget(path, true)
	if err == nil {
		err = putPath(path, perm, make)
	}
	if err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return nil
}

// putPath does the work of WriteNewPath; its errors do not name path.
func putPath(path string, perm fs.FileMode, make func(tmp string) error) error {
	dir := filepath.Dir(path)
	f, err := createTemp(dir, perm)
	if err != nil {
		return err
	}
	tmp := f.Name()
	placed := false
	defer func() {
		if !placed {
			forget(tmp)
			_ = os.Remove(tmp)
		}
	}()
	if err := f.Close(); err != nil {
		return err
	}
	if err := make(tmp); err != nil {
		return err
	}
	if f, err = os.OpenFile(tmp, os.O_RDWR, 0); err != nil {
		return unwrapPath(err)
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return unwrapPath(err)
	}
	if err := commit(tmp, path, true); err != nil {
		return err
	}
	placed = true
	return syncDir(dir)
}

// WriteFile is Write with the bytes data, in the order of os.WriteFile.
func WriteFile(path string, data []byte, perm fs.FileMode) error {
	return Write(path, perm, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

func writeFile(path string, perm fs.FileMode, write func(io.Writer) error, noReplace bool) error {
	if err := put(path, perm, write, noReplace); err != nil {
		return &fs.PathError{Op: "write", Path: path, Err: err}
	}
	return nil
}

// put does the work of writeFile; its errors do not name path.
func put(path string, perm fs.FileMode, write func(io.Writer) error, noReplace bool) error {
	if err := checkTarget(path, noReplace); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := createTemp(dir, perm)
	if err != nil {
		return err
	}
	tmp := f.Name()
	placed := false
	defer func() { // after an error, and after a panic in write
		if !placed {
			_ = f.Close() // may already be closed
			forget(tmp)
			_ = os.Remove(tmp) // may already be gone (removed on a signal)
		}
	}()
	if err := write(tempFile{f}); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return unwrapPath(err)
	}
	if err := f.Close(); err != nil {
		return unwrapPath(err)
	}
	if err := commit(tmp, path, noReplace); err != nil {
		return err
	}
	placed = true
	return syncDir(dir)
}

// tempFile is the writer a write function is given: the temporary file,
// whose errors do not name it. The error Write returns names the target,
// the name the user knows; the temporary name would only puzzle them ("write
// .hostplan-1f2e3d4c.tmp: no space left on device").
type tempFile struct{ f *os.File }

func (t tempFile) Write(p []byte) (int, error) {
	n, err := t.f.Write(p)
	return n, unwrapPath(err)
}

// ReadFrom keeps the file's own copy (copy_file_range where it can) for
// io.Copy.
func (t tempFile) ReadFrom(r io.Reader) (int64, error) {
	n, err := t.f.ReadFrom(r)
	return n, unwrapPath(err)
}

// checkTarget refuses a symbolic link, a target that is not a regular file,
// and, with noReplace, any existing target. The refusal is early, before
// anything is written; the rename or the link that puts the file in place
// does not follow a link either, so a link made after this check is
// replaced (rename) or refused (link), never written through.
func checkTarget(path string, noReplace bool) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return unwrapPath(err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return ErrSymlink
	case noReplace:
		return fs.ErrExist
	case !fi.Mode().IsRegular():
		return ErrNotRegular
	}
	return nil
}

// unwrapPath returns the cause inside an *fs.PathError, whose path would
// name the file a second time.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// createTemp creates a new temporary file in dir with mode perm (less the
// umask), registered for removal on a signal from before it exists (see
// createTracked).
func createTemp(dir string, perm fs.FileMode) (*os.File, error) {
	for range 100 {
		name := filepath.Join(dir, fmt.Sprintf(".hostplan-%08x.tmp", rand.Uint32()))
		f, err := createTracked(name, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, unwrapPath(err)
		}
		return f, nil
	}
	return nil, errors.New("no free temporary file name")
}

// commit puts the written temporary file in place: rename over path, or,
// with noReplace, link to path (which fails if path exists) and remove the
// temporary name. It holds the registry's lock, so a signal arriving now
// waits until the file is either in place or not.
func commit(tmp, path string, noReplace bool) error {
	inflight.Lock()
	defer inflight.Unlock()
	if _, ok := inflight.files[tmp]; !ok {
		return ErrInterrupted // the signal handler removed it
	}
	if !noReplace {
		if err := os.Rename(tmp, path); err != nil {
			return linkCause(err)
		}
		untrackLocked(tmp)
		return nil
	}
	if err := os.Link(tmp, path); err != nil {
		return linkCause(err)
	}
	untrackLocked(tmp)
	// The copy is in place under path; should removing the second name
	// fail, it is a link to the same bytes, not a part of a file.
	_ = os.Remove(tmp)
	return nil
}

// linkCause returns the cause of a failed rename or link, which names both
// files.
func linkCause(err error) error {
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}

// syncDir makes the new directory entry durable.
func syncDir(dir string) error {
	if runtime.GOOS == "windows" {
		return nil // no directory sync there; NTFS journals the rename
	}
	d, err := os.Open(dir)
	if err != nil {
		return unwrapPath(err)
	}
	defer d.Close()
	// Some file systems cannot sync a directory (EINVAL); the file itself
	// is synced.
	if err := d.Sync(); err != nil && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, errors.ErrUnsupported) {
		return unwrapPath(err)
	}
	return nil
}
