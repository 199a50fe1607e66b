package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"hostplan/internal/app"
	"hostplan/internal/atomicfile"
	"hostplan/internal/scenario"
)

// The commands that move scenario files in and out of the store.
func init() {
	register(command{"import", "FILE|DIR… [--note TEXT] [--author NAME]", "save scenario files (every *.json of a DIR); a file with any problem is not written", runImport})
	register(command{"export-scenarios", "DIR [--force]", "write each stored scenario's current revision to DIR/ID.json; a file that differs is replaced only with --force, and one refusal writes nothing", runExportScenarios})
}

// importFile is one file of an import that passed every check.
type importFile struct {
	ev      app.Evaluated // its evaluation on the catalog in use, to save
	path    string
	sc      *scenario.Scenario
	version int  // the schema version the file was written in
	exact   bool // the file is byte for byte what the store keeps
}

// importFiles expands the import arguments: a directory gives its *.json
// files (not its subdirectories), in name order.
func importFiles(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		fi, err := os.Stat(a)
		if err != nil {
			return nil, usagef("%s: cannot read: %v", a, unwrapPath(err))
		}
		if !fi.IsDir() {
			out = append(out, a)
			continue
		}
		entries, err := os.ReadDir(a)
		if err != nil {
			return nil, usagef("%s: cannot read: %v", a, unwrapPath(err))
		}
		n := 0
		for _, en := range entries {
			if !en.IsDir() && strings.HasSuffix(en.Name(), ".json") {
				out = append(out, filepath.Join(a, en.Name()))
				n++
			}
		}
		if n == 0 {
			return nil, usagef("%s: no *.json files in this directory", a)
		}
	}
	return out, nil
}

func runImport(e *env, args []string) error {
	fs := flags(e, "import")
	note := fs.String("note", "", `what this revision is (default "imported from FILE")`)
	author := fs.String("author", app.DefaultAuthor(), "who imports")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("import: give scenario files or directories")
	}
	paths, err := importFiles(pos)
	if err != nil {
		return err
	}

	// Check every file before writing any: a file with a problem is
	// reported and nothing from it is written.
	var (
		good []importFile
		bad  int
	)
	seen := map[string]string{} // id → file
	var failed error            // the first failure that is not a file's fault
	fail := func(err error) {
		bad++
		var fe fileErrors
		var u usageError
		switch {
		case errors.As(err, &fe):
			for _, l := range fe.lines() {
				fmt.Fprintln(e.stderr, l)
			}
		case errors.As(err, &u):
			fmt.Fprintln(e.stderr, "hostplan:", u.msg)
		default:
			fmt.Fprintln(e.stderr, "hostplan:", err)
			if failed == nil {
				failed = err
			}
		}
	}
	// Read and parse in order (ids must be unique), then evaluate on every
	// core; problems are reported in the files' order.
	type candidate struct {
		f   importFile
		err error
	}
	var cands []candidate
	for _, p := range paths {
		b, err := readLimited(p, scenario.MaxFileBytes, "a scenario file")
		if err != nil {
			cands = append(cands, candidate{err: err})
			continue
		}
		sc, err := parseScenario(p, b)
		if err != nil {
			cands = append(cands, candidate{err: err})
			continue
		}
		if prev, dup := seen[sc.ID]; dup {
			cands = append(cands, candidate{err: fileErrors{file: p, errs: scenario.Errors{{Path: "id", Problem: fmt.Sprintf("%q is also the id of %s", sc.ID, prev), Allowed: "one file per scenario id"}}}})
			continue
		}
		seen[sc.ID] = p
		canon, err := scenario.Marshal(sc)
		if err != nil {
			cands = append(cands, candidate{err: err})
			continue
		}
		cands = append(cands, candidate{f: importFile{path: p, sc: sc, version: fileVersion(b), exact: bytes.Equal(canon, b)}})
	}
	err = app.ForEach(e.ctx, len(cands), func(i int) {
		c := &cands[i]
		if c.err == nil {
			// The outcome, not the report: thousands would fill memory.
			if ev, err := e.plan.Prepare(e.ctx, c.f.sc, app.Lineage{}); err != nil {
				c.err = inFile(c.f.path, err)
			} else {
				c.f.ev = ev
			}
		}
	})
	if err != nil {
		return err
	}
	for _, c := range cands {
		if c.err != nil {
			fail(c.err)
			continue
		}
		good = append(good, c.f)
	}

	if len(good) > 0 {
		if err := e.plan.Open(); err != nil {
			return err
		}
		defer e.plan.Close()
		deleted := map[string]bool{}
		if d, err := e.plan.ListDeleted(); err == nil {
			for _, s := range d {
				deleted[s.ID] = true
			}
		}
		current := map[string]int{} // id → its current revision before the import
		if items, err := e.plan.List(); err == nil {
			for _, it := range items {
				current[it.ID] = it.Revisions
			}
		}
		batch := make([]app.Evaluated, len(good))
		for i, f := range good {
			lineage := app.Lineage{Author: *author, Note: *note}
			if lineage.Note == "" {
				lineage.Note = "imported from " + filepath.Base(f.path)
			}
			batch[i] = f.ev
			batch[i].Lineage = lineage
		}
		// One write to disk for many files; a file is saved whole or not
		// at all.
		revs, saveErr := e.plan.SaveEvaluated(batch)
		for i, rev := range revs {
			f := good[i]
			var what string
			switch before, ok := current[f.sc.ID]; {
			case ok && rev.Number == before:
				what = fmt.Sprintf("%s unchanged (revision %d)", f.sc.ID, rev.Number)
			default:
				what = fmt.Sprintf("saved %s revision %d", f.sc.ID, rev.Number)
			}
			var notes []string
			if deleted[f.sc.ID] {
				notes = append(notes, "it was deleted and is back")
			}
			switch {
			case f.version != scenario.SchemaVersion:
				notes = append(notes, fmt.Sprintf("upgraded from scenario schema %d to %d", f.version, scenario.SchemaVersion))
			case !f.exact:
				notes = append(notes, "stored in the canonical layout, which export-scenarios writes")
			}
			if notes != nil {
				what += " (" + strings.Join(notes, "; ") + ")"
			}
			fmt.Fprintf(e.stdout, "%s: %s\n", f.path, what)
		}
		if saveErr != nil {
			return fmt.Errorf("%s: %w", good[len(revs)].path, saveErr)
		}
	}
	if failed != nil {
		return fmt.Errorf("import: %d of %d files could not be checked; nothing from them was written", bad, len(paths))
	}
	if bad > 0 {
		return usageError{fmt.Sprintf("import: %d of %d files have problems; nothing from them was written", bad, len(paths))}
	}
	return nil
}

// fileVersion is the schema_version a scenario file was written in (0 when
// it has none); the file has already parsed.
func fileVersion(b []byte) int {
	var v struct {
		SchemaVersion int `json:"schema_version"`
	}
	_ = json.Unmarshal(b, &v)
	return v.SchemaVersion
}

func runExportScenarios(e *env, args []string) error {
	fset := flags(e, "export-scenarios")
	force := fset.Bool("force", false, "replace files in DIR that differ from the store")
	pos, err := parse(fset, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("export-scenarios: give one directory")
	}
	dir := pos[0]
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		return usagef("export-scenarios: %s is not a directory", dir)
	}
	defer e.plan.Close()
	list, err := e.plan.List()
	if err != nil {
		return err
	}
	// Every id is checked and every file's content read before anything
	// is written: a refusal leaves DIR as it was.
	var unsafe []string
	for _, s := range list {
		if !scenarioIDSafe(s.ID) {
			unsafe = append(unsafe, fmt.Sprintf("%q", s.ID))
		}
	}
	if unsafe != nil {
		return fmt.Errorf("export-scenarios: stored ids %s cannot be file names; nothing was written (hostplan store check lists the store's damage)", strings.Join(unsafe, ", "))
	}
	type file struct {
		path string
		body []byte
		rev  int
	}
	files := make([]file, 0, len(list))
	for _, s := range list {
		b, rev, err := e.plan.Bytes(s.ID, 0)
		if err != nil {
			return err
		}
		if fileVersion(b) != scenario.SchemaVersion {
			// A revision saved by an older hostplan: write what this build
			// reads it as, which every tool of this version accepts.
			sc, _, err := e.plan.Load(s.ID)
			if err != nil {
				return err
			}
			if b, err = scenario.Marshal(sc); err != nil {
				return err
			}
		}
		files = append(files, file{filepath.Join(dir, s.ID+".json"), b, rev.Number})
	}
	// Every destination is checked against the overwrite rule before any
	// is written: a file that already holds the store's content is left
	// alone; one that differs is replaced only with --force; a link or a
	// non-regular file is refused always. One refusal writes nothing.
	o := newOutputs("export-scenarios", *force)
	var todo []file
	for _, f := range files {
		write, err := o.check(f.path, f.body)
		if err != nil {
			return err
		}
		if write {
			todo = append(todo, f)
		}
	}
	if err := o.refused(e.stderr); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for _, f := range todo {
		if err := atomicfile.WriteFile(f.path, f.body, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "%s: revision %d\n", f.path, f.rev)
	}
	o.replaced(e.stderr)
	fmt.Fprintf(e.stdout, "wrote %d scenario files to %s", len(todo), dir)
	if same := len(files) - len(todo); same > 0 {
		fmt.Fprintf(e.stdout, "; %d already up to date", same)
	}
	fmt.Fprintln(e.stdout)
	return nil
}

// scenarioIDSafe reports whether id can be used as a file name as it is
// (Validate allows only lower-case letters, digits and '-').
func scenarioIDSafe(id string) bool {
	return id != "" && !strings.ContainsAny(id, `/\:`) && id != "." && id != ".." && utf8.ValidString(id)
}
