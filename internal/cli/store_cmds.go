package cli

import (
	"errors"
	"fmt"
	"io/fs"

	"hostplan/internal/app"
)

// The commands on the store file itself: its check and a safe copy.
func init() {
	register(command{"store", "check|backup PATH", "check the store file, or copy it safely to a new file", runStore})
}

func runStore(e *env, args []string) error {
	if len(args) == 0 {
		return usagef("store: give check or backup PATH")
	}
	switch {
	case args[0] == "check" && len(args) != 1:
		return usagef("store check takes no arguments")
	case args[0] == "backup" && len(args) != 2:
		return usagef("store backup: give the path of the new backup file")
	case args[0] != "check" && args[0] != "backup":
		return usagef("store: %q is not a store command (allowed: check, backup)", args[0])
	}
	if args[0] == "check" {
		return storeCheck(e)
	}
	return storeBackup(e, args[1])
}

// storeCheck opens the store read-only (Open checks the file's structure),
// runs bbolt's consistency check and the store's own invariants, and
// prints "ok" or every problem.
func storeCheck(e *env) error {
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

// storeBackup copies the store, opened read-only, to a new file and checks
// that the copy opens.
func storeBackup(e *env, dst string) error {
	size, err := e.plan.BackupStore(dst)
	var dc *app.DamagedCopyError
	if errors.As(err, &dc) {
		for _, p := range dc.Problems {
			fmt.Fprintf(e.stdout, "%s: %v\n", dst, p)
		}
		return err
	}
	if errors.Is(err, fs.ErrExist) {
		return usagef("store backup: %s exists; a backup never replaces a file (choose a new name)", dst)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backed up %s to %s (%d bytes)\n", e.storePath(), dst, size)
	return nil
}
