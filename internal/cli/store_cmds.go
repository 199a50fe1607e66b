package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"hostplan/internal/app"
	"hostplan/internal/present"
)

// The commands on the store file itself: its check and a safe copy.
func init() {
	register(command{"store", "check|backup PATH [--force]", "check the store file (and remove temporary files that interrupted writes left beside it), or copy it safely to a new file (--force replaces an existing PATH)", runStore})
}

func runStore(e *env, args []string) error {
	if len(args) == 0 {
		return usagef("store: give check or backup PATH")
	}
	switch args[0] {
	case "check":
		if len(args) != 1 {
			return usagef("store check takes no arguments")
		}
		return storeCheck(e)
	case "backup":
		fset := flags(e, "store backup")
		force := fset.Bool("force", false, "replace PATH if it exists")
		pos, err := parse(fset, args[1:])
		if err != nil {
			return err
		}
		if len(pos) != 1 {
			return usagef("store backup: give the path of the new backup file")
		}
		return storeBackup(e, pos[0], *force)
	}
	return usagef("store: %q is not a store command (allowed: check, backup)", args[0])
}

// storeCheck removes the temporary files that interrupted writes left in
// the store's folder (older than an hour), naming each; then opens the
// store read-only (Open checks the file's structure), runs bbolt's
// consistency check and the store's own invariants, and prints "ok" or
// every problem.
func storeCheck(e *env) error {
	stale, err := e.plan.RemoveStaleTemps()
	for _, s := range stale {
		fmt.Fprintf(e.stdout, "removed %s: a temporary file left by an interrupted write (%s bytes, %s)\n", s.Path, present.Whole(float64(s.Size)), s.ModTime.Format("2006-01-02 15:04"))
	}
	if err != nil && !errors.Is(err, app.ErrNoStore) {
		return fmt.Errorf("store check: removing the temporary files of interrupted writes: %w", err)
	}
	problems, err := e.plan.CheckStore()
	var oe *app.OpenError
	if errors.As(err, &oe) {
		fmt.Fprintln(e.stdout, oe)
		return fmt.Errorf("store check: %s cannot be opened", oe.Path)
	}
	if err != nil {
		return err
	}
	path := e.storePath()
	if problems == nil {
		fmt.Fprintln(e.stdout, "ok")
		return nil
	}
	for _, p := range problems {
		fmt.Fprintf(e.stdout, "%s: %v\n", path, p)
	}
	return fmt.Errorf("store check: %s in %s", app.Plural(len(problems), "problem"), path)
}

// storeBackup copies the store, opened read-only, to dst and checks that
// the copy opens. dst follows the overwrite rule (outputs): an existing
// file is replaced only with --force.
func storeBackup(e *env, dst string, force bool) error {
	o := newOutputs("store backup", force)
	if _, err := o.check(dst, nil); err != nil {
		return err
	}
	if err := o.refused(e.stderr); err != nil {
		return err
	}
	size, err := e.plan.BackupStore(dst, force)
	var dc *app.DamagedCopyError
	if errors.As(err, &dc) {
		o.replaced(e.stderr)
		for _, p := range dc.Problems {
			fmt.Fprintf(e.stdout, "%s: %v\n", dst, p)
		}
		return err
	}
	if errors.Is(err, fs.ErrExist) {
		// dst appeared after the check.
		return usagef("store backup: %s exists; not replaced (--force replaces it)", dst)
	}
	if err != nil {
		return err
	}
	o.replaced(e.stderr)
	fmt.Fprintf(e.stdout, "backed up %s to %s (%d bytes)\n", e.storePath(), dst, size)
	return nil
}
