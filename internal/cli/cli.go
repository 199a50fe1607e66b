// Package cli implements hostplan's subcommands: flags, output formats and
// exit codes (0 success, 1 failure while running, 2 bad input or usage).
// Every failure prints one line per problem on stderr naming the file and
// the field.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync"

	"hostplan/internal/catalog"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
	"hostplan/scenarios"
)

// Exit codes.
const (
	ExitOK    = 0
	ExitFail  = 1
	ExitUsage = 2
)

// env is what a command runs with.
type env struct {
	stdout, stderr io.Writer
	db             string           // --db, or "" for the default path
	cat            *catalog.Catalog // the catalog in use, once loaded (see env.catalog)
}

// usageError is bad input: exit 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, a ...any) error { return usageError{fmt.Sprintf(format, a...)} }

type command struct {
	name, args, help string
	run              func(e *env, args []string) error
}

var commands []command

func register(c command) { commands = append(commands, c) }

// SplitGlobal removes the global --db flag (anywhere in args) and returns
// its value and the remaining arguments.
func SplitGlobal(args []string) (db string, rest []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--db" || a == "-db":
			if i+1 >= len(args) {
				return "", nil, usagef("--db needs a file path")
			}
			db = args[i+1]
			i++
		case strings.HasPrefix(a, "--db="), strings.HasPrefix(a, "-db="):
			db = a[strings.Index(a, "=")+1:]
		default:
			rest = append(rest, a)
		}
	}
	if db == "" && containsFlag(args, "--db") {
		return "", nil, usagef("--db needs a file path")
	}
	return db, rest, nil
}

func containsFlag(args []string, f string) bool {
	for _, a := range args {
		if a == f+"=" {
			return true
		}
	}
	return false
}

// Run executes one subcommand and returns the exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	db, rest, err := SplitGlobal(args)
	if err != nil {
		fmt.Fprintln(stderr, "hostplan:", err)
		return ExitUsage
	}
	if len(rest) == 0 || rest[0] == "help" || rest[0] == "-h" || rest[0] == "--help" {
		printUsage(stdout)
		return ExitOK
	}
	e := &env{stdout: stdout, stderr: stderr, db: db}
	for _, c := range commands {
		if c.name == rest[0] {
			return exitCode(stderr, c.run(e, rest[1:]))
		}
	}
	fmt.Fprintf(stderr, "hostplan: unknown command %q (allowed: %s)\n", rest[0], strings.Join(names(), ", "))
	return ExitUsage
}

func exitCode(stderr io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	var u usageError
	var fe fileErrors
	switch {
	case errors.As(err, &fe):
		for _, l := range fe.lines() {
			fmt.Fprintln(stderr, l)
		}
		return ExitUsage
	case errors.As(err, &u):
		fmt.Fprintln(stderr, "hostplan:", u.msg)
		return ExitUsage
	case errors.Is(err, flag.ErrHelp):
		return ExitOK
	}
	fmt.Fprintln(stderr, "hostplan:", err)
	return ExitFail
}

func names() []string {
	var out []string
	for _, c := range commands {
		out = append(out, c.name)
	}
	sort.Strings(out)
	return out
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "hostplan — where should this AI workload run, and what will it cost?")
	fmt.Fprintln(w, "\nUsage:\n  hostplan [--db PATH]                                 open the desktop window")
	cs := append([]command(nil), commands...)
	sort.Slice(cs, func(i, j int) bool { return cs[i].name < cs[j].name })
	for _, c := range cs {
		fmt.Fprintf(w, "  hostplan %-44s %s\n", c.name+" "+c.args, c.help)
	}
	fmt.Fprintln(w, "\nExit codes: 0 success, 1 failure while running, 2 bad input or usage.")
	fmt.Fprintln(w, "The store is", describeDefaultPath(), "unless --db PATH is given.")
}

func describeDefaultPath() string {
	p, err := store.DefaultPath()
	if err != nil {
		return "in the user's config directory"
	}
	return p
}

// fileErrors are validation problems of one file, printed as
// "FILE: path.to.field: problem (allowed: …)".
type fileErrors struct {
	file string
	errs scenario.Errors
}

func (f fileErrors) Error() string { return strings.Join(f.lines(), "\n") }

func (f fileErrors) lines() []string {
	out := make([]string, len(f.errs))
	for i, e := range f.errs {
		out[i] = f.file + ": " + e.Error()
	}
	return out
}

// loadScenario reads and validates a scenario file. Validation problems come
// back as fileErrors (exit 2); a file that cannot be read is a usage error.
func loadScenario(path string) (*scenario.Scenario, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, usagef("%s: cannot read: %v", path, unwrapPath(err))
	}
	s, err := scenario.Parse(b)
	if err != nil {
		return nil, asFileError(path, err)
	}
	return s, nil
}

func asFileError(file string, err error) error {
	var es scenario.Errors
	if errors.As(err, &es) {
		return fileErrors{file: file, errs: es}
	}
	return err
}

func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// openStore opens the store at --db or the default path, seeding a new one
// with the example scenarios.
func (e *env) openStore() (*store.Store, error) {
	path, err := e.storePath()
	if err != nil {
		return nil, err
	}
	st, err := store.Open(path, nil)
	if err != nil {
		return nil, err
	}
	if _, err := st.SeedWith(scenarios.FS, ".", ExampleLineage); err != nil {
		st.Close()
		return nil, err
	}
	return st, nil
}

// builtinCatalog decodes the embedded catalog once: seeding asks for it once
// per example.
var builtinCatalog = sync.OnceValues(catalog.Default)

// ExampleLineage is the lineage of an example scenario seeded into a new
// store: the model version and the catalog date of its report with the
// built-in catalog (a new store has no overrides yet).
func ExampleLineage(sc *scenario.Scenario) store.RevisionMeta {
	meta := store.RevisionMeta{ModelVersion: model.Version}
	if cat, err := builtinCatalog(); err == nil {
		if r, err := model.Evaluate(sc, cat); err == nil {
			meta.CatalogAsOf = r.CatalogAsOf
		}
	}
	return meta
}

// flags returns a FlagSet that reports errors instead of exiting.
func flags(e *env, name string) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// parse parses flags that may come before or after positional arguments.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usagef("%s: %v", fs.Name(), err)
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
