package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The overwrite rule, the same for every file a command writes at a path
// the user named (export -o and --charts, brief -o, catalog export -o,
// store backup, export-scenarios):
//
//   - a destination that does not exist is written;
//   - an existing regular file is refused (exit 2, the message names it
//     and --force), unless --force is given: then it is replaced
//     atomically (atomicfile) and the command says so on stderr;
//   - a symbolic link or anything that is not a regular file (a folder, a
//     device) is refused even with --force;
//   - every destination of a command is checked before any is written: a
//     refusal leaves every file as it was (all or nothing).
//
// A command builds an outputs, calls check for each destination, then
// refused, and reports the replaced files with replaced after writing.
type outputs struct {
	cmd      string
	force    bool
	problems []string // one line per refused destination
	replace  []string // existing files that will be replaced
}

func newOutputs(cmd string, force bool) *outputs { return &outputs{cmd: cmd, force: force} }

// check applies the rule to one destination and reports whether to write
// it. With body, an existing regular file that holds exactly body already
// is left alone (write is false) and is no refusal. An error reading the
// destination (other than its absence) is returned as it is; refusals are
// gathered for refused.
func (o *outputs) check(path string, body []byte) (write bool, err error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("%s: %w", path, unwrapPath(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		o.problems = append(o.problems, fmt.Sprintf("%s: %s is a symbolic link; hostplan writes neither through a link nor over one, even with --force (give the path of the file itself)", o.cmd, path))
		return false, nil
	case !fi.Mode().IsRegular():
		o.problems = append(o.problems, fmt.Sprintf("%s: %s exists and is not a regular file; it is not replaced, even with --force", o.cmd, path))
		return false, nil
	}
	if body != nil && fi.Size() == int64(len(body)) {
		old, err := os.ReadFile(path)
		if err != nil {
			return false, fmt.Errorf("%s: %w", path, unwrapPath(err))
		}
		if bytes.Equal(old, body) {
			return false, nil
		}
	}
	if !o.force {
		o.problems = append(o.problems, fmt.Sprintf("%s: %s exists; not replaced (--force replaces it)", o.cmd, path))
		return false, nil
	}
	o.replace = append(o.replace, path)
	return true, nil
}

// refused is nil when every destination checked may be written, else a
// usage error (exit 2): the one refusal, or each on stderr and a summary
// saying nothing was written.
func (o *outputs) refused(stderr io.Writer) error {
	switch len(o.problems) {
	case 0:
		return nil
	case 1:
		return usageError{o.problems[0] + "; nothing was written"}
	}
	for _, p := range o.problems {
		fmt.Fprintln(stderr, p)
	}
	return usagef("%s: %d files refused; nothing was written", o.cmd, len(o.problems))
}

// replaced says on stderr which existing files were replaced; a command
// calls it once its files are written.
func (o *outputs) replaced(stderr io.Writer) {
	for _, p := range o.replace {
		fmt.Fprintf(stderr, "%s: replaced %s (--force)\n", o.cmd, p)
	}
}
