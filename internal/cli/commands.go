package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"hostplan/internal/export"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/present/num"
	"hostplan/internal/scenario"
	"hostplan/internal/store"
	"hostplan/internal/version"
)

func init() {
	register(command{"validate", "FILE…", "check scenario files; every problem as path.to.field: what is wrong (allowed: …)", runValidate})
	register(command{"schema", "", "print the JSON Schema of the scenario file format", runSchema})
	register(command{"eval", "FILE|ID [--format json|table]", "evaluate a scenario for the five hosting directions", runEval})
	register(command{"export", "FILE|ID… [-o OUT.xlsx] [--charts DIR] [--author NAME] [--force]", "write a workbook with the inputs, the report and live cost formulas (several scenarios: side by side); --charts: the charts as PNG and SVG; --author: the name the workbook gives as its author (by default none); --force replaces existing files", runExport})
	register(command{"version", "", "print the version, commit and build date, and the model and schema versions", runVersion})
}

// runValidate runs on each file every check eval and save run (Check:
// ranges, catalog references and price overrides against the catalog in
// use, then the model), so a file it calls valid evaluates.
func runValidate(e *env, args []string) error {
	if len(args) == 0 {
		return usagef("validate: give one or more scenario files")
	}
	bad := 0
	var failed error // the first failure that is not the file's fault
	for _, f := range args {
		err := e.validate(f)
		if err == nil {
			fmt.Fprintf(e.stdout, "%s: valid\n", f)
			continue
		}
		var fe fileErrors
		var u usageError
		switch {
		case errors.As(err, &fe):
			bad++
			for _, l := range fe.lines() {
				fmt.Fprintln(e.stderr, l)
			}
		case errors.As(err, &u):
			bad++
			fmt.Fprintln(e.stderr, "hostplan:", u.msg)
		default:
			if failed == nil {
				failed = err
			}
		}
	}
	if failed != nil {
		return failed
	}
	if bad > 0 {
		return usageError{fmt.Sprintf("%d of %d files invalid", bad, len(args))}
	}
	return nil
}

// validate reads file and checks it as eval and save do.
func (e *env) validate(file string) error {
	s, err := loadScenario(file)
	if err != nil {
		return err
	}
	if err := e.plan.Check(e.ctx, s); err != nil {
		return inFile(file, err)
	}
	return nil
}

func runSchema(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("schema takes no arguments")
	}
	_, err := e.stdout.Write(present.SchemaJSON())
	return err
}

// resolve loads a scenario from a file path, or from the store when the
// argument is not a file but a stored id.
func (e *env) resolve(arg string) (*scenario.Scenario, error) {
	if isFile(arg) {
		return loadScenario(arg)
	}
	defer e.plan.Close()
	s, _, err := e.plan.Load(arg)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err // a damaged revision, a store that does not read
	}
	if err != nil {
		return nil, usagef("%s: no such file, and no scenario with that id in %s", arg, e.storePath())
	}
	return s, nil
}

// evaluate evaluates a scenario on the catalog in use; problems of the
// scenario are reported against file.
func (e *env) evaluate(s *scenario.Scenario, file string) (*model.Report, error) {
	r, err := e.plan.Evaluate(e.ctx, s)
	if err != nil {
		return nil, inFile(file, err)
	}
	return r, nil
}

// analyze is evaluate plus the Monte Carlo spread and the tornado; draws
// 0 skips them.
func (e *env) analyze(s *scenario.Scenario, file string, draws int) (*model.Report, error) {
	r, err := e.plan.Analyze(e.ctx, s, draws)
	if err != nil {
		return nil, inFile(file, err)
	}
	return r, nil
}

// inFile is an error of the scenario in file: its problems as fileErrors
// (exit 2), any other failure prefixed with the file's name (exit 1).
func inFile(file string, err error) error {
	var es scenario.Errors
	if errors.As(err, &es) {
		return fileErrors{file: file, errs: es}
	}
	return fmt.Errorf("%s: %w", file, err)
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
	w, done := e.safeOut()
	if *format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
		return done()
	}
	printTable(w, r)
	return done()
}

// printTable writes a report as text; the caller escapes what it prints
// (safeOut).
func printTable(w io.Writer, r *model.Report) {
	fmt.Fprintf(w, "%s (%s)\n", cell(r.ScenarioName), cell(r.ScenarioID))
	fmt.Fprintf(w, "shape %s · model %s · %s FLOPs per %s · %s runs/month · horizon %d months · prices as of %s\n",
		present.Lower(present.ShapeTitle(r.Shape)), r.Workload.Model, present.Sci(r.Workload.FLOPsPerRun), r.RunUnit, present.Figure(r.Workload.RunsPerMonth), r.HorizonMonths, r.CatalogAsOf)
	for _, x := range r.ExchangeRates {
		fmt.Fprintf(w, "%s\n", present.Conversion(x.From, x.To, x.Rate, x.AsOf))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 2, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "direction\tfeasible\tGPUs\ttime to result (h)\tcost per %s (%s)\tcost over %d months (%s)\tprices as of\t\n", r.RunUnit, r.Currency, r.HorizonMonths, r.Currency)
	for _, d := range r.Directions {
		feas := "yes"
		if !d.Feasible {
			feas = "no"
		}
		gpus := "—"
		if d.GPUs > 0 {
			gpus = present.GPUs(d.GPU, d.GPUs)
		}
		asOf := "—" // a direction that used no price
		if d.PricesAsOf != "" {
			asOf = d.PricesAsOf
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", d.Title, feas, gpus, present.Hours(d.TimeToResultHours), present.Amount(d.CostPerRun), present.Amount(d.CostHorizon), asOf)
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
		fmt.Fprintf(w, "estimates (likely value used): %s\n", strings.Join(inputNames(r.Workload.Estimates), ", "))
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
				fmt.Fprintf(w, "\nowned hardware breaks even with the cloud price at %s utilisation", present.Percent(u.Utilisation))
			} else {
				fmt.Fprintf(w, "\nowned hardware does not break even with the cloud price at any utilisation")
			}
		}
		for _, t := range c.Traffic {
			if t.Exists {
				fmt.Fprintf(w, "\n%s beats per-token pricing above %s requests/s (mean); per-token pricing wins below", r.Direction(t.SelfHosted).Title, present.Figure(t.MeanRPS))
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
	fmt.Fprintf(tw, "direction\tcost P10\tP50\tP90\tlikely\tat\ttime P50 (h)\tP90\tP(cheapest)\tP(deadline)\tP(budget)\t\n")
	for i, d := range u.Directions {
		// The report's cost (every estimate at its likely value) and the
		// share of draws at or below it: where it sits in the spread.
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", r.Directions[i].Title, present.Amount(d.CostP10), present.Amount(d.CostP50), present.Amount(d.CostP90),
			present.Amount(d.CostLikely), "P"+num.Whole(d.CostLikelyPercentile),
			present.Hours(d.TimeP50), present.Hours(d.TimeP90), present.Percent(d.ProbCheapest), present.Percent(d.ProbDeadline), present.Percent(d.ProbBudget))
	}
	tw.Flush()
	if t := r.Tornado; t != nil && len(t.Bars) > 0 {
		fmt.Fprintf(w, "\nsensitivity of %s's cost over the horizon (base %s):\n", r.Direction(t.Direction).Title, present.Amount(t.Base))
		for i, b := range t.Bars {
			if i == 8 {
				break
			}
			fmt.Fprintf(w, "  %-45s %12s … %-12s (swing %s)\n", present.InputName(b.Input), present.Amount(b.Low), present.Amount(b.High), present.Amount(b.Swing))
		}
	}
}

// inputNames names estimates by their fields' labels.
func inputNames(paths []string) []string {
	names := make([]string, len(paths))
	for i, p := range paths {
		names[i] = present.InputName(p)
	}
	return names
}

// printPerformance prints each direction's bottleneck, serving plan and
// scaling curve.
func printPerformance(w io.Writer, r *model.Report) {
	for _, d := range r.Directions {
		if d.GPU == "" {
			continue
		}
		fmt.Fprintf(w, "\n%s — %s, bottleneck: %s, %s GB per GPU", d.Title, present.GPUs(d.GPU, d.GPUs), d.Bottleneck.Text(), present.Figure(d.MemoryPerGPUGB))
		if d.MaxEfficientGPUs > 0 {
			fmt.Fprintf(w, ", efficient up to %d GPUs", d.MaxEfficientGPUs)
		}
		fmt.Fprintln(w)
		if c := d.Calibration; c != nil {
			fmt.Fprintf(w, "  calibrated from the trial: λ %s, σ %s, κ %s, R² %s\n", present.Figure(c.Lambda), present.Figure(c.Sigma), present.Figure(c.Kappa), present.Fixed(c.R2, 3))
		}
		if l := d.Layout; l != nil && (l.Tensor > 1 || l.Pipeline > 1) {
			fmt.Fprintf(w, "  layout: %s\n", present.Layout(l.Tensor, l.Pipeline, l.Data, l.MicroBatches, l.Bubble, d.Serving != nil))
		}
		if sv := d.Serving; sv != nil {
			fmt.Fprintf(w, "  serving: %d GPU(s) per replica, batch %d, %s tokens/s and %s requests/s per replica, latency %s ms; %d replicas at the peak, %d at the mean\n",
				sv.GPUsPerReplica, sv.Batch, present.Whole(sv.TokensPerSecond), present.Figure(sv.RequestsPerSec), present.Whole(sv.LatencyMS), sv.ReplicasPeak, sv.ReplicasMean)
		}
		if dp := d.DataPath; dp != nil {
			fmt.Fprintf(w, "  data path: staging %s h; the run reads %s GB/s of %s GB/s available\n", present.Hours(dp.StagingHours), present.Figure(dp.NeededGBs), present.Figure(dp.AvailableGBs))
		}
		if it := d.Interruptions; it != nil {
			fmt.Fprintf(w, "  checkpoints: %s min each", present.Figure(it.CheckpointMinutes))
			if it.MTBIHours > 0 {
				fmt.Fprintf(w, ", job MTBI %s h, every %s h (Daly), overhead %s", present.Hours(it.MTBIHours), present.Hours(it.IntervalHours), present.PercentFixed(it.OverheadFraction, 1))
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
			fmt.Fprintf(tw, "  %d\t%s\t%s\t%s\t%s\t%s%s\t\n", p.GPUs, present.Figure(p.StepSeconds), present.Figure(p.Speedup), present.Percent(p.Efficiency), present.Hours(p.TimeToResultHours), p.Bottleneck.Text(), mark)
		}
		tw.Flush()
	}
}

func runExport(e *env, args []string) error {
	fs := flags(e, "export")
	out := fs.String("o", "", "output .xlsx path")
	charts := fs.String("charts", "", "also write each chart as PNG and SVG into this directory")
	force := fs.Bool("force", false, "replace the workbook and chart files if they exist")
	author := fs.String("author", "", "name this author in the workbook's properties and lineage (by default it names no person)")
	draws := drawsFlag(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 || len(pos) > export.MaxCompared || *out == "" && *charts == "" {
		return usagef("export: give 1 to %s scenario files or stored ids, and -o OUT.xlsx, --charts DIR or both", num.Whole(export.MaxCompared))
	}
	if *out != "" && !strings.EqualFold(filepath.Ext(*out), ".xlsx") {
		return usagef("export: -o %s must end in .xlsx", *out)
	}
	if err := checkDraws("export", *draws); err != nil {
		return err
	}
	if *charts != "" {
		if fi, err := os.Stat(*charts); err == nil && !fi.IsDir() {
			return usagef("export: --charts %s is a file, not a directory", *charts)
		}
	}
	// Every scenario is read and analysed before anything is written: a
	// bad one leaves no file behind.
	var (
		entries []export.Entry
		extras  []*export.Extras
	)
	for _, arg := range pos {
		s, r, x, err := e.exportScenario(arg, *draws)
		if err != nil {
			return err
		}
		x.Author = strings.TrimSpace(*author)
		entries = append(entries, export.Entry{Scenario: s, Report: r, Decision: x.Decision, Source: x.Source})
		extras = append(extras, x)
	}
	// Every file is checked against the overwrite rule before any is
	// written.
	o := newOutputs("export", *force)
	if *out != "" {
		if _, err := o.check(*out, nil); err != nil {
			return err
		}
	}
	var sets []chartSet
	if *charts != "" {
		if sets, err = planCharts(*charts, entries, o); err != nil {
			return err
		}
	}
	if err := o.refused(e.stderr); err != nil {
		return err
	}
	if *charts != "" {
		if err := chartDir(*charts); err != nil {
			return err
		}
	}
	if *out != "" {
		if len(entries) == 1 {
			err = export.WriteWorkbookWith(*out, entries[0].Scenario, entries[0].Report, extras[0])
		} else {
			err = export.WriteComparison(*out, entries, strings.TrimSpace(*author))
		}
		if err != nil {
			return fmt.Errorf("%s: %w", *out, unwrapPath(err))
		}
		if len(entries) == 1 {
			fmt.Fprintf(e.stdout, "wrote %s\n", *out)
		} else {
			fmt.Fprintf(e.stdout, "wrote %s (%d scenarios side by side)\n", *out, len(entries))
		}
	}
	if *charts != "" {
		n, err := writeCharts(*charts, sets)
		if err != nil {
			return err
		}
		fmt.Fprintf(e.stdout, "wrote %d charts to %s, each as PNG and SVG\n", n, *charts)
	}
	o.replaced(e.stderr)
	return nil
}

// runVersion prints the build — release version, commit, build date, Go
// and platform (package version) — and the versions of the model and of
// the scenario file format.
func runVersion(e *env, args []string) error {
	if len(args) > 0 {
		return usagef("version: unexpected argument %q (it takes none)", args[0])
	}
	v := version.Current()
	commit := v.Commit
	if commit == "" {
		commit = "unknown"
	} else if v.Modified {
		commit += " (with uncommitted changes)"
	}
	fmt.Fprintf(e.stdout, "hostplan %s\ncommit:          %s\nbuilt:           %s\ngo:              %s %s\nmodel:           %s\nscenario schema: %d\n",
		v.Version, commit, v.DateOrUnknown(), v.GoVersion, v.Platform, model.Version, scenario.SchemaVersion)
	return nil
}
