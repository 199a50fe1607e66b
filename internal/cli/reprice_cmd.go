package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"hostplan/internal/app"
	"hostplan/internal/catalog"
	"hostplan/internal/present"
	"hostplan/internal/present/num"
)

// hostplan reprice: every stored scenario re-evaluated on the catalog in
// use against a baseline (app.Planner.Reprice), listing those whose
// recommendation changed or whose cost moved beyond a threshold, with the
// prices that moved. It reads the outcomes the store keeps, evaluates what
// it lacks and keeps those on the catalog in use and the built-in one; it
// writes no scenario.
func init() {
	register(command{"reprice", "[--from default|FILE] [--threshold 5%] [--format text|json] [--quiet]",
		"compare every stored scenario on the catalog in use with the built-in catalog (or FILE's prices on it), from the outcomes the store keeps and evaluating those it lacks (progress on a terminal unless --quiet); list those whose recommendation changed or cost moved, naming the prices that moved", runReprice})
}

// parseThreshold reads --threshold: a percentage, with or without "%"
// ("5%", "2.5"), from 0 to 1,000.
func parseThreshold(s string) (float64, error) {
	x, err := num.Parse(strings.TrimSuffix(strings.TrimSpace(s), "%"))
	if err != nil || !(x >= 0 && x <= app.MaxRepriceThreshold*100) {
		return 0, usagef("reprice: --threshold %q is not a percentage from 0 to %s (e.g. 5%%)", s, present.Whole(app.MaxRepriceThreshold*100)+" %")
	}
	return x / 100, nil
}

// baselineFrom reads --from: "default" is the built-in catalog, anything
// else an overrides CSV applied to it. It returns the catalog and how to
// name it.
func baselineFrom(e *env, from string) (*catalog.Catalog, string, error) {
	return catalogFrom(e, "reprice: --from", from)
}

// catalogFrom reads a catalog an argument names: "default" (the built-in
// catalog) or an overrides CSV (an export of a whole catalog, or some
// rows) applied to it; what prefixes a refusal ("reprice: --from").
func catalogFrom(e *env, what, from string) (*catalog.Catalog, string, error) {
	if from == "default" {
		cat, err := app.Baseline(catalog.Overrides{})
		return cat, "the built-in catalog", err
	}
	b, err := readLimited(from, catalog.MaxCSVBytes, "an overrides CSV")
	if err != nil {
		return nil, "", err
	}
	rows, err := catalog.ParseOverridesCSV(bytes.NewReader(b))
	if err == nil {
		var cat *catalog.Catalog
		if cat, err = app.Baseline(rows); err == nil {
			return cat, from + " on the built-in catalog", nil
		}
	}
	var es catalog.OverrideErrors
	if !errors.As(err, &es) {
		return nil, "", err
	}
	for _, x := range es {
		fmt.Fprintf(e.stderr, "%s: %s\n", from, x)
	}
	return nil, "", usagef("%s %s refused (%s; the header is %s)", what, from, nouns(len(es), "problem", "problems"), catalog.OverridesHeader)
}

func runReprice(e *env, args []string) error {
	fs := flags(e, "reprice")
	from := fs.String("from", "default", `the baseline: "default" (the built-in catalog) or an overrides CSV applied to it`)
	threshold := fs.String("threshold", "5%", "list a scenario when a direction's cost over the horizon moves by more than this")
	format := fs.String("format", "text", "text or json")
	quiet := fs.Bool("quiet", false, "no progress on a terminal")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usagef("reprice: unexpected argument %q (it reprices every stored scenario)", pos[0])
	}
	if *format != "text" && *format != "json" {
		return usagef("reprice: --format %q is not known (allowed: text, json)", *format)
	}
	th, err := parseThreshold(*threshold)
	if err != nil {
		return err
	}
	if *from == "" {
		return usagef(`reprice: --from needs "default" or an overrides CSV file`)
	}
	base, named, err := baselineFrom(e, *from)
	if err != nil {
		return err
	}
	e.quiet = *quiet
	rp, err := e.plan.RepriceProgress(e.ctx, base, th, e.progress("repricing"))
	if err != nil {
		return err
	}
	w, done := e.safeOut()
	if *format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		enc.SetEscapeHTML(false)
		err := enc.Encode(struct {
			Baseline string `json:"baseline"`
			*app.Repricing
		}{named, rp})
		if err != nil {
			return err
		}
		return done()
	}
	printRepricing(w, rp, named)
	return done()
}

// printRepricing writes a repricing as text: what was compared, then each
// listed scenario with what changed and the prices that moved, then the
// scenarios that did not evaluate.
func printRepricing(w io.Writer, rp *app.Repricing, baseline string) {
	fmt.Fprintf(w, "Repriced %s on the catalog in use against %s; listed when the recommendation or the cheapest direction changed, a direction's verdict changed, or its cost over the horizon moved more than %s.\n",
		nouns(rp.Scenarios, "stored scenario", "stored scenarios"), baseline, threshold(rp.Threshold))
	for _, s := range rp.Changed {
		fmt.Fprintf(w, "\n%s (%s, revision %d)\n", cell(s.Name), cell(s.ID), s.Revision)
		for _, c := range s.Changes() {
			fmt.Fprintf(w, "  %s\n", c)
		}
		if ps := s.Prices(); len(ps) > 0 {
			fmt.Fprintln(w, "  prices that moved:")
			for _, p := range ps {
				fmt.Fprintf(w, "    %s\n", p)
			}
		} else {
			fmt.Fprintln(w, "  no catalog price it uses moved")
		}
	}
	if len(rp.Failed) > 0 {
		fmt.Fprintln(w, "\nNot evaluated:")
		for _, f := range rp.Failed {
			on := ""
			if f.Catalog != "" {
				on = ", on the " + map[string]string{"baseline": "baseline", "in use": "catalog in use"}[f.Catalog]
			}
			fmt.Fprintf(w, "  %s (%s, revision %d)%s: %s\n", cell(f.Name), cell(f.ID), f.Revision, on, cell(f.Error))
		}
	}
	switch n := len(rp.Changed); {
	case rp.Scenarios == 0:
		fmt.Fprintln(w, "\nNo stored scenarios.")
	case n == 0:
		fmt.Fprintln(w, "\nNo scenario changed.")
	default:
		fmt.Fprintf(w, "\n%d of %d scenarios changed.\n", n, rp.Scenarios)
	}
}

// threshold writes a share as a percentage with the digits it needs.
func threshold(x float64) string { return present.Number(x*100) + " %" }
