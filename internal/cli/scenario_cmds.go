package cli

import (
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"hostplan/internal/app"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

// The commands on the scenarios in the store: save files as new revisions,
// list them, show one, and the reversible delete.
func init() {
	register(command{"save", "FILE… [--note TEXT] [--author NAME]", "save scenario files to the store as new revisions", runSave})
	register(command{"list", "[--shape SHAPE] [--search TEXT] [--recommended DIRECTION] [--format text|json] [--quiet]", "list the scenarios in the store; --recommended reads the outcomes the store keeps", runList})
	register(command{"show", "ID [--rev N]", "print a stored scenario (JSON)", runShow})
	register(command{"delete", "ID", "delete a scenario; it is kept until purged (hostplan undelete)", runDelete})
	register(command{"undelete", "ID", "bring back a deleted scenario", runUndelete})
	register(command{"purge", "ID", "remove a deleted scenario and all its revisions for good", runPurge})
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

func runSave(e *env, args []string) error {
	fs := flags(e, "save")
	note := fs.String("note", "", "what changed in this revision")
	author := fs.String("author", app.DefaultAuthor(), "who made the change")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return usagef("save: give one or more scenario files")
	}
	// Validate every file before writing any of them.
	var ss []*scenario.Scenario
	for _, f := range pos {
		s, err := loadScenario(f)
		if err == nil {
			_, err = e.evaluate(s, f)
		}
		if err != nil {
			return notSaved(e, f, len(pos), err)
		}
		ss = append(ss, s)
	}
	if err := e.plan.Open(); err != nil {
		return err
	}
	defer e.plan.Close()
	for i, s := range ss {
		rev, err := e.plan.Save(s, app.Lineage{Author: *author, Note: *note})
		if err != nil {
			return fmt.Errorf("%s: %w", pos[i], err)
		}
		fmt.Fprintf(e.stdout, "%s: saved %s revision %d\n", pos[i], s.ID, rev.Number)
	}
	return nil
}

// notSaved is the error of a save of several files one of which (f) has
// problems: they are printed, and the command says that nothing was saved.
func notSaved(e *env, f string, files int, err error) error {
	var (
		fe fileErrors
		u  usageError
	)
	switch {
	case files == 1:
		return err
	case errors.As(err, &fe):
		for _, l := range fe.lines() {
			fmt.Fprintln(e.stderr, l)
		}
	case errors.As(err, &u):
		fmt.Fprintln(e.stderr, "hostplan:", u.msg)
	default:
		return err
	}
	return usagef("save: nothing was saved: %s has problems, and save writes its files only when every one of them is good", f)
}

func runList(e *env, args []string) error {
	fs := flags(e, "list")
	format := fs.String("format", "text", "text or json")
	shape := fs.String("shape", "", "only scenarios of this workload shape ("+strings.Join(scenario.Shapes, ", ")+")")
	search := fs.String("search", "", "only scenarios whose id or name contains this text (any case)")
	recommended := fs.String("recommended", "", "only scenarios the model recommends this direction for ("+strings.Join(scenario.Directions, ", ")+"), on the catalog in use (from the outcomes the store keeps; those it lacks are found and kept)")
	quiet := fs.Bool("quiet", false, "no progress on a terminal")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("list takes no arguments (filters are flags)")
	}
	if *format != "text" && *format != "json" {
		return usagef("list: --format %q is not known (allowed: text, json)", *format)
	}
	if *shape != "" && !slices.Contains(scenario.Shapes, *shape) {
		return usagef("list: --shape %q is not a workload shape (allowed: %s)", *shape, strings.Join(scenario.Shapes, ", "))
	}
	if *recommended != "" && !slices.Contains(scenario.Directions, *recommended) {
		return usagef("list: --recommended %q is not a direction (allowed: %s)", *recommended, strings.Join(scenario.Directions, ", "))
	}
	e.quiet = *quiet
	defer e.plan.Close()
	items, err := e.plan.List()
	if err != nil {
		return err
	}
	// One row of the listing, in JSON as it is named here.
	type listed struct {
		ID          string    `json:"id"`
		Name        string    `json:"name"`
		Shape       string    `json:"shape"`
		Revisions   int       `json:"revisions"`
		Updated     time.Time `json:"updated"`
		Recommended string    `json:"recommended,omitempty"`
	}
	out := []listed{}
	needle := strings.ToLower(*search)
	var kept []store.Summary
	for _, it := range items {
		if *shape != "" && it.Shape != *shape {
			continue
		}
		if needle != "" && !strings.Contains(strings.ToLower(it.ID), needle) && !strings.Contains(strings.ToLower(it.Name), needle) {
			continue
		}
		kept = append(kept, it)
	}
	var outcomes []*app.Outcome
	if *recommended != "" {
		// Read from the outcomes the store keeps; those it lacks are found
		// (and kept) now.
		if outcomes, err = e.plan.Outcomes(e.ctx, kept, e.progress("deciding")); err != nil {
			return err
		}
	}
	for i, it := range kept {
		l := listed{ID: it.ID, Name: it.Name, Shape: it.Shape, Revisions: it.Revisions, Updated: it.Updated}
		if outcomes != nil {
			if outcomes[i].Recommendation != *recommended {
				continue // a scenario that no longer evaluates recommends nothing
			}
			l.Recommended = outcomes[i].Recommendation
		}
		out = append(out, l)
	}
	if *format == "json" {
		return writeJSON(e, out)
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSHAPE\tREVISIONS\tUPDATED")
	for _, it := range out {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", cell(it.ID), cell(it.Name), cell(it.Shape), it.Revisions, it.Updated.Local().Format("2006-01-02 15:04"))
	}
	return tw.Flush()
}

func runShow(e *env, args []string) error {
	fs := flags(e, "show")
	rev := fs.Int("rev", 0, "revision number (default: current)")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("show: give exactly one scenario id")
	}
	revSet := false
	fs.Visit(func(f *flag.Flag) { revSet = revSet || f.Name == "rev" })
	if revSet && *rev < 1 {
		return usagef("show: --rev %d is not a revision: revisions start at 1 (allowed: a revision number ≥ 1, or no --rev for the current one)", *rev)
	}
	defer e.plan.Close()
	var s *scenario.Scenario
	if *rev > 0 {
		s, _, err = e.plan.LoadRevision(pos[0], *rev)
	} else {
		s, _, err = e.plan.Load(pos[0])
	}
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return usagef("show: %v", err)
		}
		return err
	}
	b, err := scenario.Marshal(s)
	if err != nil {
		return err
	}
	return writeSafe(e.stdout, b)
}

// deletedIDs lists the deleted scenarios for a usage message.
func deletedIDs(p *app.Planner) string {
	d, err := p.ListDeleted()
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
func isDeleted(p *app.Planner, id string) (store.Summary, bool) {
	d, _ := p.ListDeleted()
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
	if err := e.plan.Open(); err != nil {
		return err
	}
	defer e.plan.Close()
	if _, deleted := isDeleted(e.plan, id); deleted {
		fmt.Fprintf(e.stdout, "%s is already deleted (hostplan undelete %s brings it back)\n", id, id)
		return nil
	}
	h, err := e.plan.History(id)
	if err != nil {
		return storeError(err)
	}
	if err := e.plan.Delete(id); err != nil {
		return storeError(err)
	}
	fmt.Fprintf(e.stdout, "deleted %s; its %d revisions are kept: hostplan undelete %s brings it back, hostplan purge %s removes it for good\n", id, len(h), id, id)
	return nil
}

func runUndelete(e *env, args []string) error {
	if err := e.plan.Open(); err != nil {
		return err
	}
	defer e.plan.Close()
	if len(args) != 1 {
		return usagef("undelete: give exactly one scenario id (deleted: %s)", deletedIDs(e.plan))
	}
	id := args[0]
	if _, _, err := e.plan.Load(id); err == nil {
		fmt.Fprintf(e.stdout, "%s is not deleted\n", id)
		return nil
	}
	if err := e.plan.Undelete(id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return usagef("undelete: no scenario %q (deleted: %s)", id, deletedIDs(e.plan))
		}
		return err
	}
	_, rev, err := e.plan.Load(id)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "undeleted %s (current revision %d)\n", id, rev.Number)
	return nil
}

func runPurge(e *env, args []string) error {
	if err := e.plan.Open(); err != nil {
		return err
	}
	defer e.plan.Close()
	if len(args) != 1 {
		return usagef("purge: give exactly one deleted scenario id (deleted: %s)", deletedIDs(e.plan))
	}
	id := args[0]
	sum, deleted := isDeleted(e.plan, id)
	if !deleted {
		if _, _, err := e.plan.Load(id); err == nil {
			return usagef("purge: %s is not deleted; purge removes only deleted scenarios (hostplan delete %s first)", id, id)
		}
		return usagef("purge: no deleted scenario %q (deleted: %s)", id, deletedIDs(e.plan))
	}
	if err := e.plan.Purge(id); err != nil {
		return storeError(err)
	}
	fmt.Fprintf(e.stdout, "purged %s and its %d revisions\n", id, sum.Revisions)
	return nil
}
