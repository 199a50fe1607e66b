package cli

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"hostplan/internal/app"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// The commands on a scenario's history: its revisions with their lineage,
// the difference between two of them, and restoring an old one.
func init() {
	register(command{"history", "ID", "list every revision of a stored scenario with its lineage", runHistory})
	register(command{"diff", "ID REV REV", "compare two revisions field by field, and their headline figures", runDiff})
	register(command{"restore", "ID REV [--note TEXT] [--author NAME]", "make an old revision current again, as a new revision", runRestore})
}

// revArg reads a revision number argument.
func revArg(cmd, arg string) (int, error) {
	n, err := strconv.Atoi(arg)
	if err != nil || n < 1 {
		return 0, usagef("%s: revision %q is not a revision number (allowed: a whole number ≥ 1)", cmd, arg)
	}
	return n, nil
}

// orDash is s escaped for a table (cell), or "—" when empty.
func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return cell(s)
}

func runHistory(e *env, args []string) error {
	if len(args) != 1 {
		return usagef("history: give exactly one scenario id")
	}
	defer e.plan.Close()
	revs, err := e.plan.History(args[0])
	if err != nil {
		return storeError(err)
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "REV\tTIME\tAUTHOR\tNOTE\tMODEL\tCATALOG AS OF\tHASH")
	for _, r := range revs {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\n", r.Number, r.Time.Local().Format("2006-01-02 15:04"),
			orDash(r.Author), orDash(r.Note), orDash(r.ModelVersion), orDash(r.CatalogAsOf), cell(r.InputHash[:min(12, len(r.InputHash))]))
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
	defer e.plan.Close()
	var (
		scs  [2]*scenario.Scenario
		revs [2]scenario.Revision
	)
	for i, n := range ns {
		var err error
		if scs[i], revs[i], err = e.plan.LoadRevision(id, n); err != nil {
			return storeError(err)
		}
	}
	changes, err := scenario.Diff(scs[0], scs[1]) // a revision of an older schema compares in the current one
	if err != nil {
		return err
	}
	w := e.stdout
	fmt.Fprintf(w, "%s: revision %d → revision %d\n", cell(id), ns[0], ns[1])
	for _, r := range revs {
		fmt.Fprintf(w, "  revision %d: %s by %s: %s\n", r.Number, r.Time.Local().Format("2006-01-02 15:04"), orDash(r.Author), orDash(r.Note))
	}
	fmt.Fprintln(w)

	if len(changes) == 0 {
		fmt.Fprintln(w, "No field differs.")
	} else {
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
		fmt.Fprintf(tw, "FIELD\tREVISION %d\tREVISION %d\n", ns[0], ns[1])
		for _, c := range changes {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", cell(c.Path), cell(clip(c.Before)), cell(clip(c.After)))
		}
		tw.Flush()
	}
	fmt.Fprintln(w)

	// Both revisions are evaluated with today's model and catalog, so the
	// figures differ only by what the fields changed.
	if _, err := e.plan.Catalog(); err != nil {
		return err
	}
	var (
		reports [2]*model.Report
		failed  []string
	)
	for i, sc := range scs {
		r, err := e.plan.Evaluate(e.ctx, sc)
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
	author := fs.String("author", app.DefaultAuthor(), "who restores it")
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
	if err := e.plan.Open(); err != nil {
		return err
	}
	defer e.plan.Close()
	_, cur, err := e.plan.Load(id)
	if err != nil {
		return storeError(err)
	}
	// The restored revision becomes current: it must evaluate, as a save
	// must, and its lineage records today's model and catalog.
	where := fmt.Sprintf("%s revision %d", id, n)
	rev, err := e.plan.Restore(id, n, app.Lineage{Author: *author, Note: *note})
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
	fmt.Fprintf(e.stdout, "%s: restored revision %d as revision %d (%s)\n", cell(id), n, rev.Number, cell(rev.Note))
	return nil
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
