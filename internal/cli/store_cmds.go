package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

// The commands on the store's history and files: revisions, restore,
// reversible delete, import and export of scenario files, and the store
// file's own check and backup.
func init() {
	register(command{"history", "ID", "list every revision of a stored scenario with its lineage", runHistory})
	register(command{"diff", "ID REV REV", "compare two revisions field by field, and their headline figures", runDiff})
	register(command{"restore", "ID REV [--note TEXT] [--author NAME]", "make an old revision current again, as a new revision", runRestore})
	register(command{"delete", "ID", "delete a scenario; it is kept until purged (hostplan undelete)", runDelete})
	register(command{"undelete", "ID", "bring back a deleted scenario", runUndelete})
	register(command{"purge", "ID", "remove a deleted scenario and all its revisions for good", runPurge})
	register(command{"import", "FILE|DIR… [--note TEXT] [--author NAME]", "save scenario files (every *.json of a DIR); a file with any problem is not written", runImport})
	register(command{"export-scenarios", "DIR [--force]", "write each stored scenario's current revision to DIR/ID.json", runExportScenarios})
	register(command{"store", "check|backup PATH", "check the store file, or copy it safely to a new file", runStore})
}

// storeError turns a store lookup failure into a usage error (exit 2) when
// the scenario or revision does not exist, as show does. The store's error
// names the operation and the scenario.
func storeError(err error) error {
	if errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrNotDeleted) {
		return usageError{err.Error()}
	}
	return err
}

// revArg reads a revision number argument.
func revArg(cmd, arg string) (int, error) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 {
		return 0, usagef("%s: revision %q is not a revision number (allowed: a whole number ≥ 1)", cmd, arg)
	}
	return n, nil
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

func runHistory(e *env, args []string) error {
	if len(args) != 1 {
		return usagef("history: give exactly one scenario id")
	}
	st, err := e.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	revs, err := st.History(args[0])
	if err != nil {
		return storeError(err)
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REV\tTIME\tAUTHOR\tNOTE\tMODEL\tCATALOG AS OF\tHASH")
	for _, r := range revs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Number, r.Time.Local().Format("2006-01-02 15:04"),
			orDash(r.Author), orDash(r.Note), orDash(r.ModelVersion), orDash(r.CatalogAsOf), r.InputHash[:min(12, len(r.InputHash))])
	}
	return tw.Flush()
}

func runDiff(e *env, args []string) error {
	if len(args) != 3 {
		return usagef("diff: give a scenario id and two revision numbers")
	}
	id := args[0]
	var ns [2]int
	for i := range ns {
		n, err := revArg("diff", args[1+i])
		if err != nil {
			return err
		}
		ns[i] = n
	}
	st, err := e.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	var (
		scs  [2]*scenario.Scenario
		revs [2]store.Revision
	)
	for i, n := range ns {
		if scs[i], revs[i], err = st.GetRevision(id, n); err != nil {
			return storeError(err)
		}
	}
	var docs [2]any
	for i, sc := range scs {
		b, err := scenario.Marshal(sc) // a revision of an older schema compares in the current one
		if err != nil {
			return err
		}
		if docs[i], err = decodeOrdered(b); err != nil {
			return err
		}
	}
	w := e.stdout
	fmt.Fprintf(w, "%s: revision %d → revision %d\n", id, ns[0], ns[1])
	for _, r := range revs {
		fmt.Fprintf(w, "  revision %d: %s by %s: %s\n", r.Number, r.Time.Local().Format("2006-01-02 15:04"), orDash(r.Author), orDash(r.Note))
	}
	fmt.Fprintln(w)

	var changes []fieldChange
	diffJSON("", docs[0], docs[1], &changes)
	if len(changes) == 0 {
		fmt.Fprintln(w, "No field differs.")
	} else {
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "FIELD\tREVISION %d\tREVISION %d\n", ns[0], ns[1])
		for _, c := range changes {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", c.path, clip(c.before), clip(c.after))
		}
		tw.Flush()
	}
	fmt.Fprintln(w)

	// Both revisions are evaluated with today's model and catalog, so the
	// figures differ only by what the fields changed.
	cat, err := e.catalog(st)
	if err != nil {
		return err
	}
	var (
		reports [2]*model.Report
		failed  []string
	)
	for i, sc := range scs {
		r, err := model.Evaluate(sc, cat)
		if err != nil {
			failed = append(failed, fmt.Sprintf("revision %d cannot be evaluated: %v", ns[i], strings.ReplaceAll(err.Error(), "\n", "; ")))
			continue
		}
		reports[i] = r
	}
	if failed != nil {
		for _, f := range failed {
			fmt.Fprintln(w, f)
		}
		return fmt.Errorf("diff: %s", strings.Join(failed, "; "))
	}
	printHeadlines(w, ns, reports)
	return nil
}

// printHeadlines prints each direction's headline figures for two reports.
func printHeadlines(w io.Writer, ns [2]int, r [2]*model.Report) {
	fmt.Fprintf(w, "Headline figures (both revisions evaluated with model %s and the catalog as of %s):\n", r[1].ModelVersion, r[1].CatalogAsOf)
	sameCurrency := r[0].Currency == r[1].Currency
	money := func(rep *model.Report, x float64) string {
		if sameCurrency {
			return present.Amount(x)
		}
		return present.Amount(x) + " " + rep.Currency
	}
	unit := ""
	if sameCurrency {
		unit = " (" + r[1].Currency + ")"
	}
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "DIRECTION\tFIGURE\tREVISION %d\tREVISION %d\tCHANGE\n", ns[0], ns[1])
	yes := map[bool]string{true: "yes", false: "no"}
	for _, d1 := range r[1].Directions {
		d0 := r[0].Direction(d1.Direction)
		if d0 == nil {
			continue
		}
		rows := []struct {
			figure, before, after, change string
		}{
			{"feasible", yes[d0.Feasible], yes[d1.Feasible], ""},
			{"time to result (h)", present.Hours(d0.TimeToResultHours), present.Hours(d1.TimeToResultHours),
				change(d0.TimeToResultHours, d1.TimeToResultHours, func(x float64) string { return fmt.Sprintf("%+.1f", x) })},
			{"cost per " + r[1].RunUnit + unit, money(r[0], d0.CostPerRun), money(r[1], d1.CostPerRun), ""},
			{"cost over the horizon" + unit, money(r[0], d0.CostHorizon), money(r[1], d1.CostHorizon), ""},
		}
		if sameCurrency {
			signed := func(x float64) string {
				if x > 0 {
					return "+" + present.Amount(x)
				}
				return present.Amount(x)
			}
			rows[2].change = change(d0.CostPerRun, d1.CostPerRun, signed)
			rows[3].change = change(d0.CostHorizon, d1.CostHorizon, signed)
		}
		for i, row := range rows {
			name := ""
			if i == 0 {
				name = d1.Title
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", name, row.figure, row.before, row.after, row.change)
		}
	}
	tw.Flush()
	cheapest := func(rep *model.Report) string {
		if d := rep.Direction(rep.Cheapest); d != nil {
			return d.Title
		}
		return "none feasible"
	}
	if c0, c1 := cheapest(r[0]), cheapest(r[1]); c0 == c1 {
		fmt.Fprintf(w, "Cheapest feasible over the horizon: %s (unchanged)\n", c1)
	} else {
		fmt.Fprintf(w, "Cheapest feasible over the horizon: %s → %s\n", c0, c1)
	}
}

// change is the difference after−before with its percentage, or "" when
// the figure did not change.
func change(before, after float64, format func(float64) string) string {
	d := after - before
	if d == 0 || math.IsNaN(d) || math.IsInf(d, 0) {
		return ""
	}
	if before == 0 {
		return format(d)
	}
	return fmt.Sprintf("%s (%+.1f%%)", format(d), 100*d/math.Abs(before))
}

func runRestore(e *env, args []string) error {
	fs := flags(e, "restore")
	note := fs.String("note", "", "why (added after \"restored from revision N\")")
	author := fs.String("author", defaultAuthor(), "who restores it")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 2 {
		return usagef("restore: give a scenario id and a revision number")
	}
	id := pos[0]
	n, err := revArg("restore", pos[1])
	if err != nil {
		return err
	}
	st, err := e.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	_, cur, err := st.Get(id)
	if err != nil {
		return storeError(err)
	}
	sc, _, err := st.GetRevision(id, n)
	if err != nil {
		return storeError(err)
	}
	// The restored revision becomes current: it must evaluate, as a save
	// must, and its lineage records today's model and catalog.
	cat, err := e.catalog(st)
	if err != nil {
		return err
	}
	where := fmt.Sprintf("%s revision %d", id, n)
	r, err := model.Evaluate(sc, cat)
	if err != nil {
		return asFileError(where, err)
	}
	rev, err := st.Restore(id, n, store.RevisionMeta{Author: *author, Note: *note, ModelVersion: model.Version, CatalogAsOf: r.CatalogAsOf})
	if err != nil {
		var errs scenario.Errors
		if errors.As(err, &errs) {
			return fileErrors{file: where, errs: errs}
		}
		return storeError(err)
	}
	if rev.Number == cur.Number {
		fmt.Fprintf(e.stdout, "%s: revision %d already has the content of revision %d; nothing written\n", id, cur.Number, n)
		return nil
	}
	fmt.Fprintf(e.stdout, "%s: restored revision %d as revision %d (%s)\n", id, n, rev.Number, rev.Note)
	return nil
}

// deletedIDs lists the deleted scenarios for a usage message.
func deletedIDs(st *store.Store) string {
	d, err := st.ListDeleted()
	if err != nil || len(d) == 0 {
		return "none"
	}
	ids := make([]string, len(d))
	for i, s := range d {
		ids[i] = s.ID
	}
	return strings.Join(ids, ", ")
}

// isDeleted reports whether id is a deleted scenario.
func isDeleted(st *store.Store, id string) (store.Summary, bool) {
	d, _ := st.ListDeleted()
	for _, s := range d {
		if s.ID == id {
			return s, true
		}
	}
	return store.Summary{}, false
}

func runDelete(e *env, args []string) error {
	if len(args) != 1 {
		return usagef("delete: give exactly one scenario id")
	}
	id := args[0]
	st, err := e.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	if _, deleted := isDeleted(st, id); deleted {
		fmt.Fprintf(e.stdout, "%s is already deleted (hostplan undelete %s brings it back)\n", id, id)
		return nil
	}
	h, err := st.History(id)
	if err != nil {
		return storeError(err)
	}
	if err := st.Delete(id); err != nil {
		return storeError(err)
	}
	fmt.Fprintf(e.stdout, "deleted %s; its %d revisions are kept: hostplan undelete %s brings it back, hostplan purge %s removes it for good\n", id, len(h), id, id)
	return nil
}

func runUndelete(e *env, args []string) error {
	st, err := e.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	if len(args) != 1 {
		return usagef("undelete: give exactly one scenario id (deleted: %s)", deletedIDs(st))
	}
	id := args[0]
	if _, _, err := st.Get(id); err == nil {
		fmt.Fprintf(e.stdout, "%s is not deleted\n", id)
		return nil
	}
	if err := st.Undelete(id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return usagef("undelete: no scenario %q (deleted: %s)", id, deletedIDs(st))
		}
		return err
	}
	_, rev, err := st.Get(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "undeleted %s (current revision %d)\n", id, rev.Number)
	return nil
}

func runPurge(e *env, args []string) error {
	st, err := e.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	if len(args) != 1 {
		return usagef("purge: give exactly one deleted scenario id (deleted: %s)", deletedIDs(st))
	}
	id := args[0]
	sum, deleted := isDeleted(st, id)
	if !deleted {
		if _, _, err := st.Get(id); err == nil {
			return usagef("purge: %s is not deleted; purge removes only deleted scenarios (hostplan delete %s first)", id, id)
		}
		return usagef("purge: no deleted scenario %q (deleted: %s)", id, deletedIDs(st))
	}
	if err := st.Purge(id); err != nil {
		return storeError(err)
	}
	fmt.Fprintf(e.stdout, "purged %s and its %d revisions\n", id, sum.Revisions)
	return nil
}

// importFile is one file of an import that passed every check.
type importFile struct {
	path    string
	sc      *scenario.Scenario
	report  *model.Report
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
	author := fs.String("author", defaultAuthor(), "who imports")
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
	fail := func(err error) {
		bad++
		var fe fileErrors
		if errors.As(err, &fe) {
			for _, l := range fe.lines() {
				fmt.Fprintln(e.stderr, l)
			}
			return
		}
		fmt.Fprintln(e.stderr, "hostplan:", err)
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			fail(usagef("%s: cannot read: %v", p, unwrapPath(err)))
			continue
		}
		sc, err := loadScenario(p)
		if err != nil {
			fail(err)
			continue
		}
		if prev, dup := seen[sc.ID]; dup {
			fail(fileErrors{file: p, errs: scenario.Errors{{Path: "id", Problem: fmt.Sprintf("%q is also the id of %s", sc.ID, prev), Allowed: "one file per scenario id"}}})
			continue
		}
		r, err := e.evaluate(sc, p)
		if err != nil {
			fail(err)
			continue
		}
		canon, err := scenario.Marshal(sc)
		if err != nil {
			fail(err)
			continue
		}
		seen[sc.ID] = p
		good = append(good, importFile{path: p, sc: sc, report: r, version: fileVersion(b), exact: bytes.Equal(canon, b)})
	}

	if len(good) > 0 {
		st, err := e.openStore()
		if err != nil {
			return err
		}
		defer st.Close()
		deleted := map[string]bool{}
		if d, err := st.ListDeleted(); err == nil {
			for _, s := range d {
				deleted[s.ID] = true
			}
		}
		for _, f := range good {
			meta := store.RevisionMeta{Author: *author, Note: *note, ModelVersion: model.Version, CatalogAsOf: f.report.CatalogAsOf}
			if meta.Note == "" {
				meta.Note = "imported from " + filepath.Base(f.path)
			}
			wasDeleted := deleted[f.sc.ID]
			_, before, getErr := st.Get(f.sc.ID)
			rev, err := st.Save(f.sc, meta)
			if err != nil {
				return fmt.Errorf("%s: %w", f.path, err)
			}
			var what string
			switch {
			case getErr == nil && rev.Number == before.Number:
				what = fmt.Sprintf("%s unchanged (revision %d)", f.sc.ID, rev.Number)
			default:
				what = fmt.Sprintf("saved %s revision %d", f.sc.ID, rev.Number)
			}
			var notes []string
			if wasDeleted {
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
	st, err := e.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	list, err := st.List()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	wrote, same := 0, 0
	var refused []string
	for _, s := range list {
		if !scenarioIDSafe(s.ID) {
			return fmt.Errorf("export-scenarios: stored id %q cannot be a file name", s.ID)
		}
		b, rev, err := st.Bytes(s.ID, 0)
		if err != nil {
			return err
		}
		if fileVersion(b) != scenario.SchemaVersion {
			// A revision saved by an older hostplan: write what this build
			// reads it as, which every tool of this version accepts.
			sc, _, err := st.Get(s.ID)
			if err != nil {
				return err
			}
			if b, err = scenario.Marshal(sc); err != nil {
				return err
			}
		}
		path := filepath.Join(dir, s.ID+".json")
		old, err := os.ReadFile(path)
		switch {
		case err == nil && bytes.Equal(old, b):
			same++
			continue
		case err == nil && !*force:
			refused = append(refused, path)
			continue
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return err
		}
		if err := writeFileAtomic(path, b); err != nil {
			return err
		}
		wrote++
		fmt.Fprintf(e.stdout, "%s: revision %d\n", path, rev.Number)
	}
	fmt.Fprintf(e.stdout, "wrote %d scenario files to %s", wrote, dir)
	if same > 0 {
		fmt.Fprintf(e.stdout, "; %d already up to date", same)
	}
	fmt.Fprintln(e.stdout)
	if refused != nil {
		for _, p := range refused {
			fmt.Fprintf(e.stderr, "%s: exists and differs from the store; not replaced (--force replaces it)\n", p)
		}
		return usageError{fmt.Sprintf("export-scenarios: %d files not replaced", len(refused))}
	}
	return nil
}

// scenarioIDSafe reports whether id can be used as a file name as it is
// (Validate allows only lower-case letters, digits and '-').
func scenarioIDSafe(id string) bool {
	return id != "" && !strings.ContainsAny(id, `/\:`) && id != "." && id != ".." && utf8.ValidString(id)
}

// writeFileAtomic writes b to a temporary file beside path and renames it
// over path, so a reader sees the old file or the new one, never a part.
func writeFileAtomic(path string, b []byte) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if _, err = f.Write(b); err != nil {
		return err
	}
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
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
	path, err := e.storePath()
	if err != nil {
		return err
	}
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no store at %s", path)
	}
	if args[0] == "check" {
		return storeCheck(e, path)
	}
	return storeBackup(e, path, args[1])
}

// storeCheck opens the store read-only (Open checks the file's structure),
// runs bbolt's consistency check and the store's own invariants, and
// prints "ok" or every problem.
func storeCheck(e *env, path string) error {
	st, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		fmt.Fprintf(e.stdout, "%s: %v\n", path, err)
		return fmt.Errorf("store check: %s cannot be opened", path)
	}
	defer st.Close()
	problems := st.Check()
	if problems == nil {
		fmt.Fprintln(e.stdout, "ok")
		return nil
	}
	for _, p := range problems {
		fmt.Fprintf(e.stdout, "%s: %v\n", path, p)
	}
	return fmt.Errorf("store check: %d problems in %s", len(problems), path)
}

func storeBackup(e *env, path, dst string) error {
	if _, err := os.Lstat(dst); err == nil {
		return usagef("store backup: %s exists; a backup never replaces a file (choose a new name)", dst)
	}
	st, err := store.Open(path, &store.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer st.Close()
	if err := st.Backup(dst); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return usagef("store backup: %s exists; a backup never replaces a file (choose a new name)", dst)
		}
		return err
	}
	// The copy opens as a store: header, page structure and marker.
	b, err := store.Open(dst, &store.Options{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("store backup: the copy at %s does not open: %w", dst, err)
	}
	b.Close()
	fi, err := os.Stat(dst)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backed up %s to %s (%d bytes)\n", path, dst, fi.Size())
	return nil
}

// fieldChange is one difference between two scenarios' JSON.
type fieldChange struct {
	path, before, after string
}

// absent marks a field one side does not have.
const absent = "(absent)"

// orderedObject is a decoded JSON object that keeps its keys in file order, so
// a diff lists fields in the order a scenario file has them.
type orderedObject struct {
	keys []string
	vals map[string]any
}

// decodeOrdered decodes JSON into orderedObject, []any, json.Number, string,
// bool and nil.
func decodeOrdered(b []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, fmt.Errorf("diff: %w", err)
	}
	return v, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := &orderedObject{vals: map[string]any{}}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			key := k.(string)
			o.keys = append(o.keys, key)
			o.vals[key] = v
		}
		_, err := dec.Token() // '}'
		return o, err
	case json.Delim('['):
		a := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := dec.Token() // ']'
		return a, err
	}
	return tok, nil
}

// diffJSON appends the differences between a and b under path: objects and
// lists field by field and item by item, anything else as a whole value.
func diffJSON(path string, a, b any, out *[]fieldChange) {
	oa, aObj := a.(*orderedObject)
	ob, bObj := b.(*orderedObject)
	if aObj && bObj {
		keys := slices.Clone(oa.keys)
		for _, k := range ob.keys {
			if _, ok := oa.vals[k]; !ok {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			p := k
			if path != "" {
				p = path + "." + k
			}
			va, inA := oa.vals[k]
			vb, inB := ob.vals[k]
			switch {
			case inA && inB:
				diffJSON(p, va, vb, out)
			case inA:
				*out = append(*out, fieldChange{p, render(va), absent})
			default:
				*out = append(*out, fieldChange{p, absent, render(vb)})
			}
		}
		return
	}
	la, aList := a.([]any)
	lb, bList := b.([]any)
	if aList && bList {
		for i := range max(len(la), len(lb)) {
			p := fmt.Sprintf("%s[%d]", path, i)
			switch {
			case i < len(la) && i < len(lb):
				diffJSON(p, la[i], lb[i], out)
			case i < len(la):
				*out = append(*out, fieldChange{p, render(la[i]), absent})
			default:
				*out = append(*out, fieldChange{p, absent, render(lb[i])})
			}
		}
		return
	}
	if ra, rb := render(a), render(b); ra != rb {
		*out = append(*out, fieldChange{path, ra, rb})
	}
}

// render writes a decoded value as compact JSON with a space after ':' and
// ',', HTML characters as they are.
func render(v any) string {
	var sb strings.Builder
	renderTo(&sb, v)
	return sb.String()
}

func renderTo(sb *strings.Builder, v any) {
	switch x := v.(type) {
	case *orderedObject:
		sb.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				sb.WriteString(", ")
			}
			renderTo(sb, k)
			sb.WriteString(": ")
			renderTo(sb, x.vals[k])
		}
		sb.WriteByte('}')
	case []any:
		sb.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				sb.WriteString(", ")
			}
			renderTo(sb, e)
		}
		sb.WriteByte(']')
	case string:
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(x)
		sb.Write(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
	case nil:
		sb.WriteString("null")
	default:
		fmt.Fprint(sb, x) // json.Number, bool
	}
}

// clip shortens a long value for the diff table.
func clip(s string) string {
	const limit = 72
	if utf8.RuneCountInString(s) <= limit {
		return s
	}
	r := []rune(s)
	return string(r[:limit-1]) + "…"
}
