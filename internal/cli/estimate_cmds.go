package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"sort"
	"strings"
	"text/tabwriter"

	"hostplan/internal/estimate"
	"hostplan/internal/model"
	"hostplan/internal/present"
	"hostplan/internal/scenario"
)

// estimators are the kinds of `hostplan estimate KIND`: quick calculations
// before a scenario exists. Other files add theirs from their own init().
// Each gets the arguments after KIND.
var estimators = map[string]func(e *env, args []string) error{}

func init() {
	register(command{"estimate", "KIND [flags] [--json]", "quick estimates without a scenario (KIND: hostplan estimate lists them)", runEstimate})
	register(command{"fit", "FILE.csv [--json]", "fit the Universal Scalability Law to trial points (CSV columns gpus,throughput)", runFit})
	estimators["checkpoint"] = runEstimateCheckpoint
}

func estimatorNames() []string {
	out := make([]string, 0, len(estimators))
	for k := range estimators {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func runEstimate(e *env, args []string) error {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") {
		return usagef("estimate: give what to estimate first (allowed: %s)", strings.Join(estimatorNames(), ", "))
	}
	run, ok := estimators[args[0]]
	if !ok {
		return usagef("estimate: %q is not something hostplan estimates (allowed: %s)", args[0], strings.Join(estimatorNames(), ", "))
	}
	return run(e, args[1:])
}

// numFlag is a float flag that accepts any text while parsing and is checked
// afterwards, so every bad value (missing, not a number, NaN, out of range)
// gets one message naming the flag and the allowed range.
type numFlag struct {
	set bool
	raw string
}

func (f *numFlag) String() string { return f.raw }
func (f *numFlag) Set(s string) error {
	f.set, f.raw = true, s
	return nil
}

// numVar defines a numFlag on fs.
func numVar(fs *flag.FlagSet, name, usage string) *numFlag {
	f := &numFlag{}
	fs.Var(f, name, usage)
	return f
}

// input is the flag as the calculators of package app read it.
func (f *numFlag) input() estimate.Input { return estimate.Input{Text: f.raw, Given: f.set} }

// estimateError is a calculator's error as the command prints it: a bad
// input names its flag after the command, exit 2.
func estimateError(cmd string, err error) error {
	var b *estimate.BadInput
	if errors.As(err, &b) {
		return usagef("%s: %s", cmd, b.Say(estimate.FlagName))
	}
	return err
}

// parseOrHelp is parse, except that -h or --help prints the flags on stdout
// and reports help = true.
func parseOrHelp(e *env, fs *flag.FlagSet, usage string, args []string) (pos []string, help bool, err error) {
	for _, a := range args {
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprintf(e.stdout, "Usage: hostplan %s\n", usage)
			fs.SetOutput(e.stdout)
			fs.PrintDefaults()
			return nil, true, nil
		}
	}
	pos, err = parse(fs, args)
	return pos, false, err
}

// usageLines is a usage error of several lines, each printed with the
// "hostplan: " prefix.
func usageLines(lines []string) error {
	return usagef("%s", strings.Join(lines, "\nhostplan: "))
}

func writeJSON(e *env, v any) error {
	enc := json.NewEncoder(e.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// checkpointEstimate is the --json output of estimate checkpoint: exactly
// these keys.
type checkpointEstimate struct {
	YoungMinutes     float64 `json:"young_minutes"`
	DalyMinutes      float64 `json:"daly_minutes"`
	OverheadFraction float64 `json:"overhead_fraction"`
}

func runEstimateCheckpoint(e *env, args []string) error {
	const cmd = "estimate checkpoint"
	fs := flags(e, cmd)
	write := numVar(fs, "write-minutes", "minutes to write one checkpoint (> 0)")
	mtbf := numVar(fs, "mtbf-hours", "mean time between failures or interruptions of the whole job, hours (> 0)")
	restart := numVar(fs, "restart-minutes", "minutes to restart from a checkpoint after a failure (≥ 0, default 0)")
	asJSON := fs.Bool("json", false, "print one JSON object: young_minutes, daly_minutes, overhead_fraction")
	pos, help, err := parseOrHelp(e, fs, cmd+" --write-minutes W --mtbf-hours M [--restart-minutes R] [--json]", args)
	if err != nil || help {
		return err
	}
	if len(pos) > 0 {
		return usagef("%s: unexpected argument %q (it takes flags only)", cmd, pos[0])
	}
	est, err := estimate.Checkpoint(estimate.CheckpointInput{WriteMinutes: write.input(), MTBFHours: mtbf.input(), RestartMinutes: restart.input()})
	if err != nil {
		return estimateError(cmd, err)
	}
	out := checkpointEstimate{YoungMinutes: est.YoungMinutes, DalyMinutes: est.DalyMinutes, OverheadFraction: est.OverheadFraction}
	if *asJSON {
		return writeJSON(e, out)
	}
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "Young interval\t%s min\t√(2δM), Young 1974\n", present.Fixed(out.YoungMinutes, 1))
	fmt.Fprintf(tw, "Daly interval\t%s min\tDaly 2006, the one to use\n", present.Fixed(out.DalyMinutes, 1))
	fmt.Fprintf(tw, "Overhead\t%s\tof compute time at the Daly interval: writing checkpoints, lost work, restarts\n", present.PercentFixed(out.OverheadFraction, 1))
	if err := tw.Flush(); err != nil {
		return err
	}
	if est.Hopeless {
		fmt.Fprintln(e.stdout, "note: one checkpoint takes at least twice the mean time between failures; checkpointing cannot keep this job going")
	}
	return nil
}

// fitResult is the --json output of fit: exactly these keys; n_max is null
// when κ = 0 (throughput never falls).
type fitResult struct {
	Lambda float64  `json:"lambda"`
	Sigma  float64  `json:"sigma"`
	Kappa  float64  `json:"kappa"`
	R2     float64  `json:"r2"`
	NMax   *float64 `json:"n_max"`
}

func runFit(e *env, args []string) error {
	fs := flags(e, "fit")
	asJSON := fs.Bool("json", false, "print one JSON object: lambda, sigma, kappa, r2, n_max")
	pos, help, err := parseOrHelp(e, fs, "fit FILE.csv [--json]", args)
	if err != nil || help {
		return err
	}
	if len(pos) != 1 {
		return usagef("fit: give exactly one CSV file of trial points (header gpus,throughput)")
	}
	file := pos[0]
	b, err := readLimited(file, scenario.MaxFileBytes, "a trial CSV")
	if err != nil {
		return err
	}
	pts, err := model.ReadTrialCSV(bytes.NewReader(b))
	if err != nil {
		var lines []string
		for _, l := range strings.Split(err.Error(), "\n") {
			lines = append(lines, file+": "+l)
		}
		return usageLines(lines)
	}
	if err := checkTrial(file, pts); err != nil {
		return err
	}
	fit, err := model.FitUSL(pts)
	if err != nil {
		return usagef("%s: %v", file, err)
	}
	res := fitResult{Lambda: fit.Lambda, Sigma: fit.Sigma, Kappa: fit.Kappa, R2: fit.R2}
	nmax, finite := fit.NMaxFinite()
	if finite {
		res.NMax = &nmax
	}
	if *asJSON {
		return writeJSON(e, res)
	}
	fmt.Fprintf(e.stdout, "Universal Scalability Law X(N) = λN / (1 + σ(N−1) + κN(N−1)) fitted to %d trial points of %s\n", fit.Points, file)
	tw := tabwriter.NewWriter(e.stdout, 2, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "λ\t%s\tthroughput of one GPU, in the file's unit\n", present.Number(fit.Lambda))
	fmt.Fprintf(tw, "σ\t%.4g\tcontention (serial fraction)\n", fit.Sigma)
	fmt.Fprintf(tw, "κ\t%.4g\tcoherency (cross-talk)\n", fit.Kappa)
	fmt.Fprintf(tw, "R²\t%.6f\t\n", fit.R2)
	if finite {
		fmt.Fprintf(tw, "N_max\t%s\tGPUs where throughput peaks, √((1−σ)/κ)\n", present.Fixed(nmax, 1))
	} else {
		fmt.Fprintf(tw, "N_max\tnone (κ = 0: no retrograde region)\t\n")
	}
	return tw.Flush()
}

// checkTrial holds trial points read for fit to the bounds of a scenario's
// trial (workload.trial): at most scenario.MaxTrialPoints, each GPU count
// and throughput within its range.
func checkTrial(file string, pts []model.Point) error {
	if len(pts) > scenario.MaxTrialPoints {
		return usagef("%s: %s trial points (allowed: at most %s)", file, scenario.Num(float64(len(pts))), scenario.Num(scenario.MaxTrialPoints))
	}
	gpus, _ := scenario.BoundOf("workload.trial[].gpus")
	tput, _ := scenario.BoundOf("workload.trial[].throughput")
	var lines []string
	for i, p := range pts {
		if !gpus.Contains(p.N) {
			lines = append(lines, fmt.Sprintf("%s: trial point %d: gpus %s is out of range (allowed: %s)", file, i+1, scenario.Num(p.N), gpus))
		}
		if !tput.Contains(p.X) {
			lines = append(lines, fmt.Sprintf("%s: trial point %d: throughput %s is out of range (allowed: %s)", file, i+1, scenario.Num(p.X), tput))
		}
	}
	if lines != nil {
		return usageLines(lines)
	}
	return nil
}
