package cli

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"hostplan/internal/brief"
	"hostplan/internal/decide"
	"hostplan/internal/export"
	"hostplan/internal/model"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
)

func init() {
	register(command{"validate", "FILE…", "check scenario files; every problem as path.to.field: what is wrong (allowed: …)", runValidate})
	register(command{"schema", "", "print the JSON Schema of the scenario file format", runSchema})
	register(command{"eval", "FILE|ID [--format json|table]", "evaluate a scenario for the five hosting directions", runEval})
	register(command{"export", "FILE|ID -o OUT.xlsx", "write a workbook with the inputs, the report and live cost formulas", runExport})
	register(command{"save", "FILE… [--note TEXT] [--author NAME]", "save scenario files to the store as new revisions", runSave})
	register(command{"list", "", "list the scenarios in the store", runList})
	register(command{"show", "ID [--rev N]", "print a stored scenario (JSON)", runShow})
	register(command{"version", "", "print the model and schema versions", runVersion})
}

func runValidate(e *env, args []string) error {
	if len(args) == 0 {
		return usagef("validate: give one or more scenario files")
	}
	bad := 0
	for _, f := range args {
		if _, err := loadScenario(f); err != nil {
			bad++
			if fe, ok := err.(fileErrors); ok {
				for _, l := range fe.lines() {
					fmt.Fprintln(e.stderr, l)
				}
				continue
			}
			fmt.Fprintln(e.stderr, "hostplan:", err)
			continue
		}
		fmt.Fprintf(e.stdout, "%s: valid\n", f)
	}
	if bad > 0 {
		return usageError{fmt.Sprintf("%d of %d files invalid", bad, len(args))}
	}
	return nil
}

func runSchema(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("schema takes no arguments")
	}
	_, err := e.stdout.Write(scenario.SchemaJSON())
	return err
}

// resolve loads a scenario from a file path, or from the store when the
// argument is not a file but a stored id.
func (e *env) resolve(arg string) (*scenario.Scenario, error) {
	if _, err := os.Stat(arg); err == nil || strings.ContainsAny(arg, "/.") {
		return loadScenario(arg)
	}
	st, err := e.openStore()
	if err != nil {
		return nil, err
	}
	defer st.Close()
	s, _, err := st.Get(arg)
	if err != nil {
		return nil, usagef("%s: no such file, and no scenario with that id in %s", arg, st.Path())
	}
	return s, nil
}

// evaluate evaluates a scenario on the catalog in use. It reads the store's
// catalog overrides, so call it while the command does not hold the store.
func (e *env) evaluate(s *scenario.Scenario, file string) (*model.Report, error) {
	cat, err := e.catalog(nil)
	if err != nil {
		return nil, err
	}
	r, err := model.Evaluate(s, cat)
	if err != nil {
		return nil, asFileError(file, err)
	}
	return r, nil
}

// analyze is evaluate plus the Monte Carlo spread and the tornado; draws
// 0 skips them.
func (e *env) analyze(s *scenario.Scenario, file string, draws int) (*model.Report, error) {
	if draws == 0 {
		return e.evaluate(s, file)
	}
	cat, err := e.catalog(nil)
	if err != nil {
		return nil, err
	}
	r, err := model.Analyze(context.Background(), s, cat, draws)
	if err != nil {
		return nil, asFileError(file, err)
	}
	return r, nil
}

// drawsFlag defines --draws and checks it after parsing.
func drawsFlag(fs *flag.FlagSet) *int {
	return fs.Int("draws", model.DefaultDraws, "Monte Carlo draws (0: none)")
}

func checkDraws(cmd string, n int) error {
	if n < 0 || n > 1_000_000 {
		return usagef("%s: --draws %d is out of range (allowed: a whole number from 0 to 1,000,000)", cmd, n)
	}
	return nil
}

func runEval(e *env, args []string) error {
	fs := flags(e, "eval")
	format := fs.String("format", "table", "json or table")
	draws := drawsFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("eval: give exactly one scenario file or stored id")
	}
	if *format != "json" && *format != "table" {
		return usagef("eval: --format %q is not known (allowed: json, table)", *format)
	}
	if err := checkDraws("eval", *draws); err != nil {
		return err
	}
	s, err := e.resolve(pos[0])
	if err != nil {
		return err
	}
	r, err := e.analyze(s, pos[0], *draws)
	if err != nil {
		return err
	}
	if *format == "json" {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	printTable(e, r)
	return nil
}

func printTable(e *env, r *model.Report) {
	w := e.stdout
	fmt.Fprintf(w, "%s (%s)\n", r.ScenarioName, r.ScenarioID)
	fmt.Fprintf(w, "shape %s · model %s · %.3g FLOPs per %s · %.3g runs/month · horizon %d months · prices as of %s\n\n",
		r.Shape, r.Workload.Model, r.Workload.FLOPsPerRun, r.RunUnit, r.Workload.RunsPerMonth, r.HorizonMonths, r.CatalogAsOf)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "direction\tfeasible\tGPUs\ttime to result (h)\tcost per %s (%s)\tcost over %d months (%s)\t\n", r.RunUnit, r.Currency, r.HorizonMonths, r.Currency)
	for _, d := range r.Directions {
		feas := "yes"
		if !d.Feasible {
			feas = "no"
		}
		gpus := "—"
		if d.GPUs > 0 {
			gpus = fmt.Sprintf("%d × %s", d.GPUs, d.GPU)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.1f\t%s\t%s\t\n", d.Title, feas, gpus, d.TimeToResultHours, model.Grouped(d.CostPerRun), model.Grouped(d.CostHorizon))
	}
	tw.Flush()
	fmt.Fprintln(w)
	for _, d := range r.Directions {
		for _, why := range d.Reasons {
			fmt.Fprintf(w, "%s is not feasible: %s\n", d.Title, why.Text)
		}
	}
	if r.Cheapest != "" {
		fmt.Fprintf(w, "Cheapest feasible over the horizon: %s\n", r.Direction(r.Cheapest).Title)
	} else {
		fmt.Fprintln(w, "No direction is feasible.")
	}
	for _, x := range r.Warnings {
		fmt.Fprintln(w, "note:", x.Text)
	}
	if len(r.Workload.Estimates) > 0 {
		fmt.Fprintf(w, "estimates (likely value used): %s\n", strings.Join(r.Workload.Estimates, ", "))
	}
	printPerformance(w, r)
	printSpread(w, r)
}

// printSpread prints the break-even points, the Monte Carlo percentiles and
// the tornado.
func printSpread(w io.Writer, r *model.Report) {
	if c := r.Comparisons; c != nil {
		for _, b := range c.BreakEvenMonths {
			fmt.Fprintf(w, "\nbreak-even: %s becomes cheaper than %s from month %.1f", r.Direction(b.Cheaper).Title, r.Direction(b.Than).Title, b.Month)
		}
		if u := c.Utilisation; u != nil {
			if u.Exists {
				fmt.Fprintf(w, "\nowned hardware breaks even with the cloud price at %.0f %% utilisation", u.Utilisation*100)
			} else {
				fmt.Fprintf(w, "\nowned hardware does not break even with the cloud price at any utilisation")
			}
		}
		for _, t := range c.Traffic {
			if t.Exists {
				fmt.Fprintf(w, "\n%s beats per-token pricing above %.3g requests/s (mean); per-token pricing wins below", r.Direction(t.SelfHosted).Title, t.MeanRPS)
			} else {
				fmt.Fprintf(w, "\n%s does not beat per-token pricing below 100,000 requests/s", r.Direction(t.SelfHosted).Title)
			}
		}
		fmt.Fprintln(w)
	}
	u := r.Uncertainty
	if u == nil {
		return
	}
	fmt.Fprintf(w, "\nMonte Carlo: %d draws, %s, seed %d, %d estimates sampled\n", u.Draws, u.Distribution, u.Seed, len(u.Inputs))
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "direction\tcost P10\tP50\tP90\ttime P50 (h)\tP90\tP(cheapest)\tP(deadline)\tP(budget)\t\n")
	for i, d := range u.Directions {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.1f\t%.1f\t%.0f %%\t%.0f %%\t%.0f %%\t\n", r.Directions[i].Title, model.Grouped(d.CostP10), model.Grouped(d.CostP50), model.Grouped(d.CostP90),
			d.TimeP50, d.TimeP90, d.ProbCheapest*100, d.ProbDeadline*100, d.ProbBudget*100)
	}
	tw.Flush()
	if t := r.Tornado; t != nil && len(t.Bars) > 0 {
		fmt.Fprintf(w, "\nsensitivity of %s's cost over the horizon (base %s):\n", r.Direction(t.Direction).Title, model.Grouped(t.Base))
		for i, b := range t.Bars {
			if i == 8 {
				break
			}
			fmt.Fprintf(w, "  %-45s %12s … %-12s (swing %s)\n", b.Input, model.Grouped(b.Low), model.Grouped(b.High), model.Grouped(b.Swing))
		}
	}
}

// printPerformance prints each direction's bottleneck, serving plan and
// scaling curve.
func printPerformance(w io.Writer, r *model.Report) {
	for _, d := range r.Directions {
		if d.GPU == "" {
			continue
		}
		fmt.Fprintf(w, "\n%s — %d × %s, bottleneck: %s, %.1f GB per GPU", d.Title, d.GPUs, d.GPU, d.Bottleneck.Text(), d.MemoryPerGPUGB)
		if d.MaxEfficientGPUs > 0 {
			fmt.Fprintf(w, ", efficient up to %d GPUs", d.MaxEfficientGPUs)
		}
		fmt.Fprintln(w)
		if c := d.Calibration; c != nil {
			fmt.Fprintf(w, "  calibrated from the trial: λ %.4g, σ %.4g, κ %.4g, R² %.4f\n", c.Lambda, c.Sigma, c.Kappa, c.R2)
		}
		if sv := d.Serving; sv != nil {
			fmt.Fprintf(w, "  serving: %d GPU(s) per replica, batch %d, %.0f tokens/s and %.2f requests/s per replica, latency %.0f ms; %d replicas at the peak, %d at the mean\n",
				sv.GPUsPerReplica, sv.Batch, sv.TokensPerSecond, sv.RequestsPerSec, sv.LatencyMS, sv.ReplicasPeak, sv.ReplicasMean)
		}
		if dp := d.DataPath; dp != nil {
			fmt.Fprintf(w, "  data path: staging %.2f h; the run reads %.3g GB/s of %.3g GB/s available\n", dp.StagingHours, dp.NeededGBs, dp.AvailableGBs)
		}
		if it := d.Interruptions; it != nil {
			fmt.Fprintf(w, "  checkpoints: %.1f min each", it.CheckpointMinutes)
			if it.MTBIHours > 0 {
				fmt.Fprintf(w, ", job MTBI %.0f h, every %.1f h (Daly), overhead %.1f %%", it.MTBIHours, it.IntervalHours, it.OverheadFraction*100)
			}
			if it.WallTimeChunks > 1 {
				fmt.Fprintf(w, ", %d wall-time jobs", it.WallTimeChunks)
			}
			fmt.Fprintln(w)
		}
		if len(d.Scaling) == 0 {
			continue
		}
		tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "  GPUs\tstep (s)\tspeedup\tefficiency\ttime (h)\tbottleneck\t")
		for _, p := range d.Scaling {
			mark := ""
			if p.GPUs == d.GPUs {
				mark = " ◀"
			}
			fmt.Fprintf(tw, "  %d\t%.3g\t%.1f\t%.0f %%\t%.1f\t%s%s\t\n", p.GPUs, p.StepSeconds, p.Speedup, p.Efficiency*100, p.TimeToResultHours, p.Bottleneck.Text(), mark)
		}
		tw.Flush()
	}
}

func runExport(e *env, args []string) error {
	fs := flags(e, "export")
	out := fs.String("o", "", "output .xlsx path")
	draws := drawsFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *out == "" {
		return usagef("export: give one scenario file or stored id and -o OUT.xlsx")
	}
	if !strings.EqualFold(filepath.Ext(*out), ".xlsx") {
		return usagef("export: -o %s must end in .xlsx", *out)
	}
	arg := pos[0]
	x := &export.Extras{}
	var s *scenario.Scenario
	var state brief.ChecklistState // nil: the default state, every item open
	if isFile(arg) {
		if s, err = loadScenario(arg); err != nil {
			return err
		}
		x.Source = "the file " + arg + ", not the store"
	} else {
		// A stored id: read the scenario, its checklist state, its history
		// and the catalog overrides in one opening of the store (bbolt locks
		// the file, so a second Open in this process would wait; see
		// env.catalog), and close it before the Monte Carlo run.
		err := func() error {
			st, err := e.openStore()
			if err != nil {
				return err
			}
			defer st.Close()
			var rev store.Revision
			if s, rev, err = st.Get(arg); err != nil {
				return usagef("%s: no such file, and no scenario with that id in %s", arg, st.Path())
			}
			b, err := st.GetChecklist(arg)
			if err != nil {
				return err
			}
			if state, err = brief.DecodeChecklist(b); err != nil {
				return fmt.Errorf("scenario %q: %w", arg, err)
			}
			hist, err := st.History(arg)
			if err != nil {
				return err
			}
			for _, h := range hist {
				x.Lineage = append(x.Lineage, export.LineageRow{Rev: h.Number, Time: h.Time, Author: h.Author, Note: h.Note,
					ModelVersion: h.ModelVersion, CatalogAsOf: h.CatalogAsOf, InputHash: h.InputHash})
			}
			// The workbook names the store file, not its directory: the
			// path may hold the user's name.
			x.Source = fmt.Sprintf("revision %d (the current one) of scenario %s in the store %s", rev.Number, s.ID, filepath.Base(st.Path()))
			_, err = e.catalog(st) // kept by env for analyze below
			return err
		}()
		if err != nil {
			return err
		}
	}
	if err := checkDraws("export", *draws); err != nil {
		return err
	}
	r, err := e.analyze(s, arg, *draws)
	if err != nil {
		return err
	}
	if x.Lineage == nil {
		// A file has no revisions: one row that says where it came from,
		// with the hash a stored revision of the same content would have.
		body, err := scenario.Marshal(s)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		x.Lineage = []export.LineageRow{{Time: time.Now().UTC(), Author: defaultAuthor(),
			Note:         "exported from the file " + arg + ", not from the store: no revisions are recorded",
			ModelVersion: r.ModelVersion, CatalogAsOf: r.CatalogAsOf, InputHash: hex.EncodeToString(sum[:])}}
	}
	if x.Decision, err = decide.Decide(s, r); err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	x.Brief, err = brief.Build(s, r, x.Decision, state)
	var few *brief.TooFewFieldsError
	switch {
	case errors.As(err, &few):
		// The workbook is still written; its Brief sheet lists what to fill.
		x.Brief, x.BriefMissing = nil, []string{}
		for _, f := range few.Missing {
			x.BriefMissing = append(x.BriefMissing, f.Label+" ("+f.Path+")")
		}
	case err != nil:
		return fmt.Errorf("%s: %w", arg, err)
	}
	x.Checklist = brief.Checklist(s.Workload.Shape, state)
	if err := export.WriteWorkbookWith(*out, s, r, x); err != nil {
		return fmt.Errorf("%s: %w", *out, err)
	}
	fmt.Fprintf(e.stdout, "wrote %s\n", *out)
	return nil
}

func runSave(e *env, args []string) error {
	fs := flags(e, "save")
	note := fs.String("note", "", "what changed in this revision")
	author := fs.String("author", defaultAuthor(), "who made the change")
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
		if err != nil {
			return err
		}
		if _, err := e.evaluate(s, f); err != nil {
			return err
		}
		ss = append(ss, s)
	}
	st, err := e.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	cat, err := e.catalog(st) // loaded by evaluate above
	if err != nil {
		return err
	}
	for i, s := range ss {
		r, _ := model.Evaluate(s, cat)
		rev, err := st.Save(s, store.RevisionMeta{Author: *author, Note: *note, ModelVersion: model.Version, CatalogAsOf: r.CatalogAsOf})
		if err != nil {
			return fmt.Errorf("%s: %w", pos[i], err)
		}
		fmt.Fprintf(e.stdout, "%s: saved %s revision %d\n", pos[i], s.ID, rev.Number)
	}
	return nil
}

func defaultAuthor() string {
	for _, k := range []string{"USER", "USERNAME", "LOGNAME"} {
		if v := os.Getenv(k); v != "" {
			return v
		}
	}
	return "unknown"
}

func runList(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("list takes no arguments")
	}
	st, err := e.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	items, err := st.List()
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSHAPE\tREVISIONS\tUPDATED")
	for _, it := range items {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", it.ID, it.Name, it.Shape, it.Revisions, it.Updated.Local().Format("2006-01-02 15:04"))
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
	if *rev < 0 {
		return usagef("show: --rev %d is out of range (allowed: a revision number ≥ 1)", *rev)
	}
	st, err := e.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	var s *scenario.Scenario
	if *rev > 0 {
		s, _, err = st.GetRevision(pos[0], *rev)
	} else {
		s, _, err = st.Get(pos[0])
	}
	if err != nil {
		return usagef("show: %v", err)
	}
	b, err := scenario.Marshal(s)
	if err != nil {
		return err
	}
	_, err = e.stdout.Write(b)
	return err
}

func runVersion(e *env, args []string) error {
	fmt.Fprintf(e.stdout, "hostplan model %s, scenario schema %d\n", model.Version, scenario.SchemaVersion)
	return nil
}
