// Package cli implements hostplan's subcommands: flags, output formats and
// exit codes (0 success, 1 failure while running, 2 bad input or usage).
// Every failure caused by input prints one line per problem on stderr
// naming the file and the field; files are read within their size limits;
// a panic is caught at the command boundary and reported as an internal
// error (exit 1), with its Go stack only when HOSTPLAN_TRACEBACK is set. The store, the catalog and the model are reached through
// internal/app; the commands are split by theme (commands.go: validate,
// eval, export; scenario_cmds.go: save, list, show, delete; history_cmds.go;
// transfer_cmds.go; store_cmds.go; catalog, brief and estimate commands).
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"sort"
	"strings"
	"syscall"
	"time"

	"hostplan/internal/app"
	"hostplan/internal/atomicfile"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
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
	ctx            context.Context // ends evaluations early (not yet on a signal)
	plan           *app.Planner    // the store at --db or the default path, and the catalog in use
	quiet          bool            // no progress on a terminal (a command's --quiet)
}

// storePath is the store file's path for messages (the planner resolved it
// when it opened the store).
func (e *env) storePath() string {
	p, _ := e.plan.Path()
	return p
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

// splitGlobal removes the global --db flag (anywhere in args) and returns
// its value and the remaining arguments.
func splitGlobal(args []string) (db string, rest []string, err error) {
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

// Main is hostplan's entry point: with no subcommand (only --db, if
// anything) it runs window with the store path and returns its exit code;
// otherwise it runs the subcommand (see Run).
func Main(args []string, stdout, stderr io.Writer, window func(db string) int) int {
	db, rest, err := splitGlobal(args)
	if err == nil && len(rest) == 0 {
		return window(db)
	}
	return Run(args, stdout, stderr)
}

// Run executes one subcommand and returns the exit code.
func Run(args []string, stdout, stderr io.Writer) int {
	db, rest, err := splitGlobal(args)
	if err != nil {
		fmt.Fprintln(stderr, "hostplan:", err)
		return ExitUsage
	}
	if len(rest) == 0 || rest[0] == "help" || rest[0] == "-h" || rest[0] == "--help" {
		printUsage(stdout)
		return ExitOK
	}
	plan := app.New(db)
	plan.CheckOnRead = true
	plan.OnBusy = func(path string, wait time.Duration) {
		fmt.Fprintf(stderr, "hostplan: %s is in use by another hostplan; waiting up to %s for it…\n", path, wait)
	}
	e := &env{stdout: stdout, stderr: stderr, ctx: context.Background(), plan: plan}
	for _, c := range commands {
		if c.name == rest[0] {
			err := runGuarded(c, e, rest[1:])
			e.plan.Close() // commands close what they open; this is only a safety net
			// A damaged store was read read-only: say so, unless a refused
			// write has said it already.
			if d := e.plan.Damaged(); d != nil && !errors.Is(err, store.ErrDamaged) {
				fmt.Fprintln(stderr, "hostplan: note:", d)
			}
			// A store this user may not write was read read-only: say so.
			if e.plan.ReadOnlyFile() && !errors.Is(err, fs.ErrPermission) {
				path, _ := e.plan.Path()
				fmt.Fprintf(stderr, "hostplan: note: %s is read-only for you: read, not written\n", path)
			}
			return exitCode(stderr, err)
		}
	}
	fmt.Fprintf(stderr, "hostplan: unknown command %q (allowed: %s)\n", rest[0], strings.Join(names(), ", "))
	return ExitUsage
}

// TracebackEnv names the environment variable that, set to any value,
// makes an internal error print its Go stack trace too.
const TracebackEnv = "HOSTPLAN_TRACEBACK"

// internalError is a panic caught at the command boundary: a bug, not bad
// input. It prints as "internal error: …" and ends the command with exit 1.
type internalError struct {
	cmd   string
	value any
	stack []byte
}

func (e *internalError) Error() string {
	return fmt.Sprintf("internal error in %s: %v (please report it; %s=1 prints the details)", e.cmd, e.value, TracebackEnv)
}

// runGuarded runs command c, turning a panic into an *internalError so
// that no input ends hostplan with a Go stack trace.
func runGuarded(c command, e *env, args []string) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &internalError{cmd: c.name, value: v, stack: debug.Stack()}
		}
	}()
	return c.run(e, args)
}

func exitCode(stderr io.Writer, err error) int {
	if err == nil {
		return ExitOK
	}
	var ie *internalError
	if errors.As(err, &ie) {
		fmt.Fprintln(stderr, "hostplan:", ie)
		if os.Getenv(TracebackEnv) != "" {
			stderr.Write(ie.stack)
		}
		return ExitFail
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
	case userPath(err):
		fmt.Fprintln(stderr, "hostplan:", err)
		return ExitUsage
	}
	fmt.Fprintln(stderr, "hostplan:", err)
	return ExitFail
}

// userPath reports a refusal caused by a path the user gave: an output
// that is a symbolic link or not a regular file, a folder that does not
// exist, a path through a file. It is bad input (exit 2), as the usage
// says.
func userPath(err error) bool {
	return errors.Is(err, atomicfile.ErrSymlink) || errors.Is(err, atomicfile.ErrNotRegular) ||
		errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR)
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
	p, err := app.New("").Path()
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

// loadScenario reads and validates a scenario file of at most
// scenario.MaxFileBytes. Validation problems come back as fileErrors (exit
// 2); a file that cannot be read is a usage error.
func loadScenario(path string) (*scenario.Scenario, error) {
	b, err := readLimited(path, scenario.MaxFileBytes, "a scenario file")
	if err != nil {
		return nil, err
	}
	return parseScenario(path, b)
}

// parseScenario parses the bytes of the scenario file path.
func parseScenario(path string, b []byte) (*scenario.Scenario, error) {
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
