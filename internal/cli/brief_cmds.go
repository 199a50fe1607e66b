package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"hostplan/internal/atomicfile"
	"hostplan/internal/brief"
	"hostplan/internal/decide"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

func init() {
	register(command{"decide", "FILE|ID [--format table|json]", "rank the feasible directions by the weights and explain the choice, the runner-up, robustness and the first trial", runDecide})
	register(command{"brief", "FILE|ID [-o BRIEF.md [--force]]", "write the Compute Readiness Brief (Markdown); refused with the missing fields when fewer than 7 are filled; --force replaces an existing BRIEF.md", runBrief})
	register(command{"checklist", "FILE|ID [--set ITEM=STATUS[:OWNER]]… [--format table|json]", "show the readiness checklist for the scenario's shape; --set records items of a stored scenario", runChecklist})
}

// isFile tells a file argument from a stored id, as env.resolve does.
func isFile(arg string) bool {
	_, err := os.Stat(arg)
	return err == nil || strings.ContainsAny(arg, "/.")
}

// decided resolves, evaluates and decides one scenario argument.
func (e *env) decided(arg string) (*scenario.Scenario, *model.Report, *decide.Decision, error) {
	s, err := e.resolve(arg)
	if err != nil {
		return nil, nil, nil, err
	}
	r, err := e.evaluate(s, arg)
	if err != nil {
		return nil, nil, nil, err
	}
	d, err := decide.Decide(s, r)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%s: %w", arg, err)
	}
	return s, r, d, nil
}

func runDecide(e *env, args []string) error {
	fs := flags(e, "decide")
	format := fs.String("format", "table", "json or table")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("decide: give exactly one scenario file or stored id")
	}
	if *format != "json" && *format != "table" {
		return usagef("decide: --format %q is not known (allowed: json, table)", *format)
	}
	s, r, d, err := e.decided(pos[0])
	if err != nil {
		return err
	}
	w, done := e.safeOut()
	if *format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(d); err != nil {
			return err
		}
		return done()
	}
	printDecision(w, s, r, d)
	return done()
}

func printDecision(w io.Writer, s *scenario.Scenario, r *model.Report, d *decide.Decision) {
	fmt.Fprintf(w, "%s (%s)\n%s\n\n", cell(s.Name), cell(s.ID), d.Summary)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
	if len(d.Ranking) > 0 {
		fmt.Fprint(tw, "rank\tdirection\ttotal")
		for _, n := range scenario.DimensionNames {
			fmt.Fprintf(tw, "\t%s", present.Lower(present.DimensionTitle(n)))
		}
		fmt.Fprintln(tw)
		for _, name := range d.Ranking {
			dd := d.For(name)
			fmt.Fprintf(tw, "%d\t%s\t%.2f", dd.Rank, dd.Title, dd.Total)
			for _, sc := range dd.Scores {
				fmt.Fprintf(tw, "\t%.2f", sc.Score)
			}
			fmt.Fprintln(tw)
		}
		tw.Flush()
	}
	var ws []string
	for _, x := range d.Weights {
		ws = append(ws, fmt.Sprintf("%s %.2f", present.Lower(present.DimensionTitle(x.Dimension)), x.Normalised))
	}
	fmt.Fprintf(w, "weights (normalised): %s\n", strings.Join(ws, ", "))

	if len(d.Ranking) > 0 {
		fmt.Fprintln(w, "\nScores and their reasons:")
		for _, name := range d.Ranking {
			dd := d.For(name)
			fmt.Fprintf(w, "  %s\n", dd.Title)
			for _, sc := range dd.Scores {
				fmt.Fprintf(w, "    %-15s %.2f  %s\n", present.Lower(present.DimensionTitle(sc.Dimension)), sc.Score, sc.Reason)
			}
		}
		fmt.Fprintf(w, "\nWhy %s wins: %s\n", present.DirectionTitle(d.Recommendation), d.Why)
		if ru := d.RunnerUp; ru != nil {
			fmt.Fprintf(w, "What would change it: %s\n", ru.Summary)
		}
		fmt.Fprintf(w, "Robustness (each weight ±%.0f %%): %s\n", d.Robustness.Perturbation*100, d.Robustness.Text())
	}

	var out []decide.Direction
	for _, dd := range d.Directions {
		if !dd.Feasible {
			out = append(out, dd)
		}
	}
	if len(out) > 0 {
		fmt.Fprintln(w, "\nRuled out:")
		for _, dd := range out {
			for _, c := range dd.Constraints {
				fmt.Fprintf(w, "  %s (%s): %s\n", dd.Title, c.Kind, c.Reason)
			}
		}
	}

	fmt.Fprintln(w, "\nBottlenecks and first questions:")
	for _, dd := range d.Directions {
		b := dd.Bottleneck
		if !dd.Feasible {
			b = "ruled out"
		}
		fmt.Fprintf(w, "  %s (%s): %s\n", dd.Title, b, dd.Question)
	}

	if t := d.FirstTrial; t != nil {
		fmt.Fprintln(w, "\nFirst trial:")
		switch {
		case t.GPU == "":
			fmt.Fprintf(w, "  %s h on %s, no GPUs reserved\n", present.Figure(t.Hours), present.DirectionTitle(t.Direction))
		default:
			fmt.Fprintf(w, "  %s on %s (smallest that fits); throughput at %s GPUs; %s h, %s GPU-hours (%s of one %s)\n",
				present.GPUs(t.GPU, t.GPUs), present.DirectionTitle(t.Direction), joinInts(t.GPUCounts), present.Figure(t.Hours), present.Figure(t.GPUHours), present.Share(t.ShareOfRun), r.RunUnit)
		}
		sample := fmt.Sprintf("%s GB", present.Figure(t.SampleGB))
		if t.SampleFiles > 0 {
			sample += fmt.Sprintf(", about %s files", present.Whole(float64(t.SampleFiles)))
		}
		fmt.Fprintf(w, "  data sample: %s\n", sample)
		fmt.Fprintf(w, "  sizing: %s\n", t.Basis)
		fmt.Fprintf(w, "  answers: %s\n", t.Answers)
		fmt.Fprintln(w, "  it must record:")
		for _, ev := range t.Evidence {
			fmt.Fprintf(w, "    - %s\n", ev)
		}
	}
}

func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, ", ")
}

func runBrief(e *env, args []string) error {
	fs := flags(e, "brief")
	out := fs.String("o", "", "write the brief to this file instead of stdout")
	force := fs.Bool("force", false, "replace the -o file if it exists")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("brief: give exactly one scenario file or stored id")
	}
	s, r, d, err := e.decided(pos[0])
	if err != nil {
		return err
	}
	var st brief.ChecklistState
	if !isFile(pos[0]) {
		if st, err = e.storedChecklist(s.ID); err != nil {
			return err
		}
	}
	b, err := brief.WithChecklist(s, r, d, st)
	var few *brief.TooFewFieldsError
	if errors.As(err, &few) {
		return tooFewFields(pos[0], few)
	}
	if err != nil {
		return err
	}
	if *out == "" {
		return writeSafe(e.stdout, b)
	}
	o := newOutputs("brief", *force)
	if _, err := o.check(*out, nil); err != nil {
		return err
	}
	if err := o.refused(e.stderr); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(*out, b, 0o644); err != nil {
		return fmt.Errorf("%s: %w", *out, unwrapPath(err))
	}
	o.replaced(e.stderr)
	fmt.Fprintf(e.stdout, "wrote %s\n", *out)
	return nil
}

// tooFewFields reports a refused brief one missing field a line, each
// naming the file and the scenario field: exit 2, as for a bad file.
func tooFewFields(file string, few *brief.TooFewFieldsError) error {
	var es scenario.Errors
	for _, f := range few.Missing {
		es = append(es, scenario.FieldError{Path: f.Path,
			Problem: fmt.Sprintf("is not filled: the brief's %q field; a brief needs at least %d of %d fields and %d are filled", f.Label, brief.MinFields, len(brief.Fields), few.Filled)})
	}
	return fileErrors{file: file, errs: es}
}

// storedChecklist reads a stored scenario's checklist state.
func (e *env) storedChecklist(id string) (brief.ChecklistState, error) {
	defer e.plan.Close()
	return e.plan.Checklist(id)
}

// setFlags collects repeated --set ITEM=STATUS[:OWNER] flags.
type setFlags []string

func (s *setFlags) String() string     { return strings.Join(*s, " ") }
func (s *setFlags) Set(v string) error { *s = append(*s, v); return nil }

type itemSet struct {
	id     string
	status brief.Status
	owner  string
}

func parseSet(v string) (itemSet, error) {
	id, rest, ok := strings.Cut(v, "=")
	if !ok || id == "" || rest == "" {
		return itemSet{}, usagef("checklist: --set %q is not ITEM=STATUS[:OWNER] (allowed statuses: open, done, not_applicable)", v)
	}
	status, owner, _ := strings.Cut(rest, ":")
	return itemSet{id: strings.TrimSpace(id), status: brief.Status(strings.TrimSpace(status)), owner: strings.TrimSpace(owner)}, nil
}

func runChecklist(e *env, args []string) error {
	fs := flags(e, "checklist")
	var sets setFlags
	fs.Var(&sets, "set", "ITEM=STATUS[:OWNER]; repeat for several items")
	format := fs.String("format", "table", "json or table")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("checklist: give exactly one scenario file or stored id")
	}
	if *format != "json" && *format != "table" {
		return usagef("checklist: --format %q is not known (allowed: json, table)", *format)
	}
	var changes []itemSet
	for _, v := range sets {
		c, err := parseSet(v)
		if err != nil {
			return err
		}
		changes = append(changes, c)
	}
	arg := pos[0]
	var s *scenario.Scenario
	var state brief.ChecklistState
	stored := !isFile(arg)
	if !stored {
		if len(changes) > 0 {
			return usagef("checklist: %s is a file; --set records state for a stored scenario (hostplan save %s, then use its id)", arg, arg)
		}
		if s, err = loadScenario(arg); err != nil {
			return err
		}
	} else {
		if err := e.plan.Open(); err != nil {
			return err
		}
		defer e.plan.Close()
		if s, _, err = e.plan.Load(arg); err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		} else if err != nil {
			return usagef("checklist: %s: no such file, and no scenario with that id in %s", arg, e.storePath())
		}
		if state, err = e.plan.Checklist(arg); err != nil {
			return err
		}
		if len(changes) > 0 {
			// Check every change before storing any.
			for _, c := range changes {
				if err := state.Set(s.Workload.Shape, c.id, c.status, c.owner); err != nil {
					return usagef("checklist: %v", err)
				}
			}
			if err := e.plan.SaveChecklist(arg, state); err != nil {
				return err
			}
		}
	}
	entries := brief.Checklist(s.Workload.Shape, state)
	if *format == "json" {
		w, done := e.safeOut()
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		err := enc.Encode(struct {
			ScenarioID string        `json:"scenario_id"`
			Shape      string        `json:"shape"`
			Stored     bool          `json:"stored"` // false: a file, shown with the default state
			Items      []brief.Entry `json:"items"`
		}{s.ID, s.Workload.Shape, stored, entries})
		if err != nil {
			return err
		}
		return done()
	}
	printChecklist(e.stdout, s, entries, stored)
	return nil
}

func printChecklist(w io.Writer, s *scenario.Scenario, entries []brief.Entry, stored bool) {
	count := map[brief.Status]int{}
	for _, e := range entries {
		count[e.Status]++
	}
	fmt.Fprintf(w, "Readiness checklist for %s (%s, %s): %d items, %d done, %d not applicable, %d open\n",
		s.Name, s.ID, s.Workload.Shape, len(entries), count[brief.StatusDone], count[brief.StatusNotApplicable], count[brief.StatusOpen])
	if !stored {
		fmt.Fprintln(w, "A file shows the default state; save it (hostplan save FILE) to record items with --set.")
	}
	for _, g := range brief.Groups {
		var rows []brief.Entry
		for _, e := range entries {
			if e.Group == g.ID {
				rows = append(rows, e)
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s\n", g.Title)
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', 0)
		for _, e := range rows {
			owner := e.Owner
			if owner == "" {
				owner = "—"
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", e.Status, e.ID, owner, e.Text)
		}
		tw.Flush()
	}
}
